// The span of one request an Engine listener serves (HTTP: REST, MCP, the control plane; gRPC),
// a child of the caller's span when its request carries a W3C `traceparent`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import { methodName, routeSpanName, state } from './spans.ts';
import { withSpan } from './tracer.ts';


const SERVER = { kind: SpanKind.SERVER } as const;

/** The caller's trace context from its `traceparent` and `tracestate` (HTTP headers, gRPC metadata). */
export function callerContext(traceparent: unknown, tracestate: unknown): Context {
  if (typeof traceparent !== 'string') return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent });
}

/**
 * Runs `handle` inside a SERVER span for the HTTP request, ended when the response closes; `route`:
 * the route template when already known (else named later by nameServerSpan). Off: `handle()` alone.
 */
export function serveTraced<T>(req: IncomingMessage, res: ServerResponse, route: string | undefined, handle: () => T): T {
  if (!state.on) return handle();
  const method = methodName(req.method);
  const parent = callerContext(req.headers.traceparent, req.headers.tracestate);
  // Attributes go on a span that records them only: given to startSpan, the SDK would copy and
  // check them twice, sampled or not (./spans.ts inSpan does the same).
  const span = state.tracer.startSpan(route ? routeSpanName(method, route) : method, SERVER, parent);
  if (span.isRecording()) {
    span.setAttribute('http.request.method', method);
    if (route) span.setAttribute('http.route', route);
    res.once('close', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
  }
  return context.with(withSpan(parent, span), handle);
}
