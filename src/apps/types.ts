// What an app is defined as, and what planning and publishing one answer.

export interface AppDefinition {
  name: string;
  services: string[];
  operations: string[];
  /** MCP only: operations whose calls wait for a person's approval (IDs, `*` globs, or `destructive`). */
  requireApproval?: string[] | undefined;
}

export interface ResolvedDefinition {
  name: string;
  /** service → version */
  services: Map<string, string>;
  /** Sorted public operation IDs. */
  operations: string[];
  /** Sorted public operation IDs whose calls wait for approval (requireApproval expanded). */
  requireApproval: string[];
}

export interface PlanChange {
  action: '+' | '-' | '~';
  kind: 'service' | 'operation' | 'approval';
  id: string;
  from?: string;
  to?: string;
}

export interface AppPlan {
  name: string;
  currentVersion: string | null;
  nextVersion: string | null;
  changes: PlanChange[];
  summary: { add: number; remove: number; change: number };
}

export interface PublishResult {
  name: string;
  version: string;
  versionId: string;
  published: boolean;
  token?: string;
}
