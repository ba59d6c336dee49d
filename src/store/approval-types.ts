// Approvals of MCP calls that a server's definition gates (`requireApproval`, issue 31 §3): kept in
// the store, so that a person approving on one replica lets the agent's re-run through on any other.

/** The call an approval is for: one token's call of one operation with one set of params. */
export interface ApprovalCall {
  versionId: string;
  tokenId: string;
  operation: string;
  /** SHA-256 of the operation and its params (src/execution/idempotency.ts: requestHash). */
  paramsHash: string;
}

export interface ApprovalRow extends ApprovalCall {
  /** `apr_` + ULID. */
  id: string;
  /** What the person approving is shown: the params' shape with their values shortened, never a secret. */
  summary: Record<string, unknown>;
  createdAt: string;
  /** Approving and the re-run it lets through must both happen before this. */
  expiresAt: string;
  approvedAt: string | null;
  /** Who approved: a CLI subject, or `elicitation` when the MCP client's user accepted. */
  approvedBy: string | null;
  /** When the re-run it let through used it: an approval is used once. */
  usedAt: string | null;
}

export interface ApprovalStore {
  insert(row: ApprovalRow): Promise<void>;
  get(id: string): Promise<ApprovalRow | null>;
  /** The call's unexpired, unused approval (approved or still waiting), newest first; null when none. */
  live(call: ApprovalCall, at: string): Promise<ApprovalRow | null>;
  /** Approvals still waiting for a person (not approved, not used, not expired at `at`), newest first, at most `limit`. */
  waiting(at: string, limit: number): Promise<ApprovalRow[]>;
  /** Approves a waiting, unexpired approval; null (and nothing written) when it is not one. */
  approve(id: string, by: string, at: string): Promise<ApprovalRow | null>;
  /** Marks the call's approved, unused, unexpired approval used, atomically; null when there is none. */
  use(call: ApprovalCall, at: string): Promise<ApprovalRow | null>;
  /** Makes an approval used at `usedAt` unused again (its call was never sent); false when it is not in that state. */
  release(id: string, usedAt: string): Promise<boolean>;
}
