// How execute answers the safety gates of issue 31 §3: a call a read-only token may not make, and a
// call that waits for a person's approval (src/approvals).
import type { RecoveryContract } from '../envelope/index.ts';
import type { ApprovalRow } from '../store/index.ts';
import type { Elicit } from './tools.ts';

export { READ_ONLY_REASON } from '../execution/index.ts';

/** What the agent is told to do about a read-only refusal: nothing it can change in the script makes the call pass. */
export const READ_ONLY_GUIDANCE =
  'This MCP token was created with --read-only: it calls only read-only operations (search_docs shows read_only per operation). Ask the person who issued it for a token created without --read-only, or leave this operation out.';

export function readOnlyFailure(code: string, message: string, contract: RecoveryContract, details: Record<string, unknown>): [string, string, RecoveryContract, Record<string, unknown>] {
  return [code, message, { ...contract, recovery_action: 'request_token_without_read_only' }, { details, guidance: READ_ONLY_GUIDANCE }];
}

/**
 * execute's answer when a call waits for a person's approval: the approval (ID, operation, params
 * summarised), how to give it, and the contract: nothing of the stopped call was sent; the same
 * script may run again once approved, unless an earlier call of it may already have acted.
 */
export function approvalStop(approval: Record<string, unknown>, acted: boolean): [string, string, RecoveryContract, Record<string, unknown>] {
  const contract: RecoveryContract = acted
    ? { recovery_action: 'await_approval', execute_request: 'do_not_replay', provider_execution: 'unknown', automatic_replay: false }
    : { recovery_action: 'await_approval', execute_request: 'unchanged', provider_execution: 'not_started', automatic_replay: false };
  const message =
    `call('${String(approval.operation)}') needs a person's approval before it runs; nothing of it was sent. ` +
    `Ask them to run \`svc-cli mcp approve ${String(approval.id)}\`, then run the same call with the same params again before ${String(approval.expiresAt)}` +
    (acted ? '; an earlier call of this script may already have acted: re-run only what is left, after inspecting current state' : '');
  return ['MCP_APPROVAL_REQUIRED', message, contract, { approval }];
}

/** Asks the MCP client's user to approve a gated call; undefined when the client did not answer (the stop then asks for `svc-cli mcp approve`). */
export async function askApproval(elicit: Elicit, approval: ApprovalRow, signal: AbortSignal, withinMs: number): Promise<'accept' | 'decline' | 'cancel' | undefined> {
  try {
    const answer = await elicit(
      {
        message: `The agent wants to call ${approval.operation} with ${JSON.stringify(approval.summary)}. Approve this call?`,
        requestedSchema: { type: 'object', properties: {} },
      },
      // The run ends at its budget even while the gate waits (it counts as no call in flight): the question ends with it.
      { signal: AbortSignal.any([signal, AbortSignal.timeout(Math.max(1, withinMs))]), ms: withinMs, approvalId: approval.id },
    );
    return answer.action;
  } catch {
    return undefined;
  }
}
