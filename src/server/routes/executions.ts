// Executions: one call of an operation an SDK version selects.
import { resultJson } from '../../calls/index.ts';
import { EngineError } from '../../envelope/index.ts';
import { retryAfterOf, retryAfterSeconds } from '../answers.ts';
import type { Handlers, ServerDeps } from '../types.ts';

export function executionRoutes(deps: ServerDeps): Pick<Handlers, 'createExecution'> {
  return {
    async createExecution({ params, body, principal, connection }) {
      if (!principal) throw new EngineError('ENGINE_UNAUTHENTICATED', `the token is not valid for version ${params.version_id}`);
      // A client that hangs up stops the work done for it: no further pages, no provider call left running.
      const answer = await deps.calls.call(principal, params.version_id, 'rest', body, { connection });
      if (answer.unified) {
        // 200 when a provider answered a step, else the envelope's status; a replay answers with the first call's.
        const { httpStatus, envelope, retryAfterMs } = answer.result;
        const wait = httpStatus === 429 ? retryAfterMs : undefined;
        return { status: httpStatus, body: envelope, ...(wait !== undefined ? { headers: { 'retry-after': retryAfterSeconds(wait) } } : {}) };
      }
      const { result } = answer;
      // A provider's JSON body is spliced into the envelope as it came, not re-serialised.
      const retryAfter = retryAfterOf(result.envelope);
      return {
        status: result.providerAnswered ? 200 : result.envelope.status,
        type: 'application/json; charset=utf-8',
        body: resultJson(result),
        ...(retryAfter ? { headers: { 'retry-after': retryAfter } } : {}),
      };
    },
  };
}
