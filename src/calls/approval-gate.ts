// The approval gate of an MCP script's call() (issue 31 §3): a call of an operation the MCP
// version's requireApproval names passes only with a person's approval of this very call.
import { approvalDeclined, approvalRequired, type Approvals } from '../approvals/index.ts';
import type { CallScope, Executor } from '../execution/index.ts';
import type { ApprovalRow } from '../store/index.ts';

/** The person's answer through the MCP client (elicitation); undefined when it could not be asked. */
export type AskApproval = (approval: ApprovalRow) => Promise<'accept' | 'decline' | 'cancel' | undefined>;

/**
 * Lets the call through when a valid approval of it exists (using it, and returning it so that a call
 * never sent can give it back), or when the person asked through the MCP client accepts; otherwise
 * refuses it, leaving a receipt, with the approval to give.
 */
export async function passApprovalGate(deps: { approvals: Approvals; executor: Executor }, scope: CallScope, operation: string, params: unknown, pagination: unknown, ask: AskApproval | undefined): Promise<ApprovalRow> {
  const { approvals } = deps;
  const call = approvals.callOf(scope.versionId, scope.tokenId ?? 'none', operation, params, pagination);
  const kept = await approvals.take(call);
  if (kept) return kept;
  const pending = await approvals.request(call, params);
  const answer = ask ? await ask(pending) : undefined;
  if (answer === 'accept') {
    await approvals.approve(pending.id, 'elicitation');
    const given = await approvals.take(call);
    if (given) return given;
  }
  const refused = answer === 'decline' || answer === 'cancel' ? approvalDeclined(pending) : approvalRequired(pending);
  deps.executor.recordRefusal(scope, operation, refused);
  throw refused;
}
