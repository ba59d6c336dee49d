// The columns of mcp_approvals as both stores write them (./sqlite-approvals.ts, ./postgres-approvals.ts).
import type { ApprovalCall, ApprovalRow } from './approval-types.ts';

export const APPROVAL_COLUMNS = ['id', 'version_id', 'token_id', 'operation', 'params_hash', 'summary', 'created_at', 'expires_at', 'approved_at', 'approved_by', 'used_at'] as const;
export const approvalValues = (a: ApprovalRow) => [a.id, a.versionId, a.tokenId, a.operation, a.paramsHash, JSON.stringify(a.summary), a.createdAt, a.expiresAt, a.approvedAt, a.approvedBy, a.usedAt];

/** The condition that picks the call's unexpired, unused approvals; its five placeholders take callValues. */
export const sameCall = (placeholder: (n: number) => string, first = 1) =>
  `version_id = ${placeholder(first)} AND token_id = ${placeholder(first + 1)} AND operation = ${placeholder(first + 2)} AND params_hash = ${placeholder(first + 3)} AND used_at IS NULL AND expires_at > ${placeholder(first + 4)}`;
export const callValues = (c: ApprovalCall, at: string) => [c.versionId, c.tokenId, c.operation, c.paramsHash, at];
