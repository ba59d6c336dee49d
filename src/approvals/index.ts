export { APPROVAL_DECLINED_REASON, APPROVAL_REQUIRED_REASON, APPROVAL_TTL_MS, approvalDeclined, approvalRequired, Approvals, approvalView } from './approvals.ts';
export { summarizeParams } from './summary.ts';
