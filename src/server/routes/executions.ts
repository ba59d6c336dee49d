// Executions: one call of an operation an SDK version selects.
import { resultJson } from '../../calls/index.ts';
import { EngineError } from '../../envelope/index.ts';
import { retryAfterOf, retryAfterSeconds } from '../answers.ts';
import type { Handlers, ServerDeps } from '../types.ts';

/** The header of an answer kept under an idempotency key and given again (as Stripe names it). */
const REPLAYED = { 'idempotent-replayed': 'true' } as const;

export function executionRoutes(deps: ServerDeps): Pick<Handlers, 'createExecution'> {
  return {
    async createExecution({ params, body, principal, connection }) {
      if (!principal) throw new EngineError('ENGINE_UNAUTHENTICATED', `the token is not valid for version ${params.version_id}`);
      const key = params['Idempotency-Key'];
      // A client that hangs up stops the work done for it: no further pages, no provider call left running.
      const answer = await deps.calls.call(principal, params.version_id, 'rest', body, { connection, ...(key !== undefined ? { idempotencyKey: { value: key, field: 'Idempotency-Key' } } : {}) });
      if (answer.unified) {
        // 200 when a provider answered a step, else the envelope's status; a replay answers with the first call's.
        const { httpStatus, envelope, retryAfterMs, replayed } = answer.result;
        const wait = httpStatus === 429 ? retryAfterMs : undefined;
        const headers = { ...(wait !== undefined ? { 'retry-after': retryAfterSeconds(wait) } : {}), ...(replayed ? REPLAYED : {}) };
        return { status: httpStatus, body: envelope, ...(wait !== undefined || replayed ? { headers } : {}) };
      }
      const { result } = answer;
      // A provider's JSON body is spliced into the envelope as it came, not re-serialised.
      const retryAfter = retryAfterOf(result.envelope);
      return {
        status: result.providerAnswered ? 200 : result.envelope.status,
        type: 'application/json; charset=utf-8',
        body: resultJson(result),
        ...(retryAfter ? { headers: { 'retry-after': retryAfter } } : result.replayed ? { headers: REPLAYED } : {}),
      };
    },
  };
}
