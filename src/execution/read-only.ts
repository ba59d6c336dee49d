// Read-only tokens (issue 31 §3): a call of an operation that is not read-only is refused before
// anything is sent, on every surface, with a reason a caller (or an agent's recovery) can act on.
import { EngineError } from '../envelope/index.ts';

/** `details.reason` of the refusal: src/mcp/execute.ts turns it into its recovery contract. */
export const READ_ONLY_REASON = 'read_only_token';

/** The refusal of `operationId` (a physical operation, or a Unified one with the target that writes) under a read-only token. */
export function readOnlyRefusal(operationId: string, because?: string): EngineError {
  return new EngineError(
    'ENGINE_FORBIDDEN_OPERATION',
    `operation '${operationId}' is not read-only${because ? ` (${because})` : ''} and this token is read-only; nothing was sent. Use a token created without --read-only to call it`,
    { details: { field: 'operation', reason: READ_ONLY_REASON } },
  );
}
