// OpenTelemetry traces (docs/operations/observability.md): setup from the Engine's settings, spans
// with safe attributes, W3C traceparent in from callers and out to providers.
export { startTracing, type Tracing, type TracingOptions } from './setup.ts';
export { bindActive, detached, inActiveSpan, inSpan, nameServerSpan, SpanKind, traceLogFields, traceOfReceipt, tracingOn, type SafeAttributes, type SpanOptions, type TracedSpan } from './spans.ts';
export { callerContext, serveTraced } from './server.ts';
