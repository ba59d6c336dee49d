// A refused connection as the envelope's error: 403 ENGINE_EGRESS_REFUSED naming the host and address.
import { EngineError } from '../envelope/index.ts';
import { EgressRefusedError } from './policy.ts';

/** The refusal inside `err` (undici passes the connector's error on, perhaps as a cause), as an EngineError. */
export function egressFailure(err: unknown): EngineError | undefined {
  let current: unknown = err;
  for (let i = 0; current && i < 5; i++) {
    if (current instanceof EgressRefusedError) {
      return new EngineError('ENGINE_EGRESS_REFUSED', current.message, {
        details: { host: current.host, address: current.address, range: current.range },
        providerExecution: 'not_started',
      });
    }
    current = current instanceof AggregateError ? current.errors[0] : (current as { cause?: unknown }).cause;
  }
  return undefined;
}
