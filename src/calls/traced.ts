// The span of one call (src/telemetry): `call <operation>` for each call of an MCP script; a REST
// or gRPC request is one call, so its request span is the call's (one span fewer per request).
// Either carries the envelope's status and error code, the attempts and whether a kept answer was
// given again.
import { inActiveSpan, inSpan, tracingOn, type SafeAttributes, type SpanOptions } from '../telemetry/index.ts';
import type { Surface } from './scopes.ts';

/** What a span reads of a call's answer (src/calls/entry.ts CallAnswer, either kind). */
interface Answered {
  unified: boolean;
  result: { envelope: { status: number; error: { code: string } | null }; replayed?: boolean | undefined; attempts?: readonly unknown[] | undefined };
}

/** As a receipt keeps a refused call's operation: a script may name anything. */
const MAX_OPERATION = 300;

function outcome(answer: Answered): SafeAttributes {
  const { envelope } = answer.result;
  return {
    'svc.status': envelope.status,
    'error.type': envelope.error?.code,
    'svc.replayed': answer.result.replayed || undefined,
    'svc.attempts': answer.result.attempts?.length,
  };
}

/** What a call's span reads of its answer; one object for every call. */
const CALL_SPAN: SpanOptions<Answered> = { outcome };

/** Runs `work` (one call of `operation`) in its span; `input` goes on it only for a service listed in SVC_TRACE_INPUT_SERVICES. */
export function tracedCall<A extends Answered>(surface: Surface, operation: unknown, input: unknown, work: () => Promise<A>): Promise<A> {
  if (!tracingOn()) return work(); // every REST and gRPC call passes here: nothing is named or allocated while tracing is off
  const name = typeof operation === 'string' ? (operation.length > MAX_OPERATION ? `${operation.slice(0, MAX_OPERATION - 1)}…` : operation) : '(none)';
  const dot = name.indexOf('.');
  return (surface === 'mcp' ? inSpan : inActiveSpan)(
    `call ${name}`,
    { 'svc.surface': surface, 'svc.operation': name, 'svc.service': dot > 0 ? name.slice(0, dot) : undefined },
    (span) => {
      span.input(name, input);
      return work();
    },
    CALL_SPAN,
  );
}
