// What an app is defined as, and what planning and publishing one answer.

export interface AppDefinition {
  name: string;
  services: string[];
  operations: string[];
}

export interface ResolvedDefinition {
  name: string;
  /** service → version */
  services: Map<string, string>;
  /** Sorted public operation IDs. */
  operations: string[];
}

export interface PlanChange {
  action: '+' | '-' | '~';
  kind: 'service' | 'operation';
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
