// Spans with safe attributes only. A span's attributes are drawn from SAFE_KEYS: names of
// operations, methods, statuses, codes and counts, never a secret, a body or a header value. The
// caller's input values go on a call's span only for the services the operator lists
// (SVC_TRACE_INPUT_SERVICES), and never the request body. While tracing is off (no OTLP endpoint)
// every helper here runs its work directly and allocates nothing.
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { withSpan } from './tracer.ts';

/** The attribute names a span may carry (OpenTelemetry semantic conventions where one fits, `svc.*` for the Engine's own). */
export type SafeKey =
  | 'http.request.method'
  | 'http.route'
  | 'http.response.status_code'
  | 'server.address'
  | 'server.port'
  | 'url.scheme'
  | 'rpc.system'
  | 'rpc.service'
  | 'rpc.method'
  | 'rpc.grpc.status_code'
  | 'mcp.method.name'
  | 'gen_ai.tool.name'
  | 'error.type'
  | 'svc.surface'
  | 'svc.operation'
  | 'svc.service'
  | 'svc.status'
  | 'svc.attempts'
  | 'svc.replayed'
  | 'svc.unified.operation'
  | 'svc.unified.target'
  | 'svc.unified.step_status'
  | 'svc.execute.calls'
  | 'svc.execute.outcome'
  | 'svc.session.op'
  | 'svc.session.store'
  | 'svc.session.bytes'
  | 'svc.receipt.id';

export type SafeAttributes = { readonly [K in SafeKey]?: string | number | boolean | undefined };

/** What work inside a span may do to it: add safe attributes, and put the span's traceparent on outgoing headers. */
export interface TracedSpan {
  set(attributes: SafeAttributes): void;
  /** `headers` with this span's `traceparent` (and the caller's `tracestate`); the same object while tracing is off. */
  carry<H extends Record<string, string>>(headers: H): H;
  /** The call's input values (inputAttributes), when its service is listed in SVC_TRACE_INPUT_SERVICES. */
  input(operation: string, input: unknown): void;
}

const NOOP: TracedSpan = { set: () => undefined, carry: (headers) => headers, input: () => undefined };

/** Set by ./setup.ts while an exporter runs: its tracer, taken once (a lookup by name per span costs). */
export const state: { on: boolean; inputServices: ReadonlySet<string>; tracer: Tracer } = { on: false, inputServices: new Set(), tracer: trace.getTracer('svc-engine') };

export const tracingOn = (): boolean => state.on;

export function setAll(span: Span, attributes: SafeAttributes): void {
  for (const key in attributes) {
    const value = attributes[key as SafeKey];
    if (value !== undefined) span.setAttribute(key, value);
  }
}

/**
 * `headers` with the W3C trace context of `span` (the only propagator ./setup.ts registers), written
 * directly: the propagation API would build a context per provider attempt to say the same.
 */
function withTraceContext<H extends Record<string, string>>(headers: H, span: Span): H {
  const { traceId, spanId, traceFlags, traceState } = span.spanContext();
  const out: Record<string, string> = { ...headers, traceparent: `00-${traceId}-${spanId}-${FLAGS[traceFlags & 0xff]}` };
  const state = traceState?.serialize();
  if (state) out.tracestate = state;
  return out as H;
}

/** The traceparent's flags field of each value, as two hex digits. */
const FLAGS: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A span the sampler left out: nothing is recorded, but the trace context still reaches providers. */
class Unrecorded implements TracedSpan {
  readonly span: Span;
  constructor(span: Span) {
    this.span = span;
  }
  set(): void {}
  input(): void {}
  carry<H extends Record<string, string>>(headers: H): H {
    return withTraceContext(headers, this.span);
  }
}

class Traced implements TracedSpan {
  readonly span: Span;
  constructor(span: Span) {
    this.span = span;
  }
  set(attributes: SafeAttributes): void {
    setAll(this.span, attributes);
  }
  carry<H extends Record<string, string>>(headers: H): H {
    return withTraceContext(headers, this.span);
  }
  input(operation: string, input: unknown): void {
    const attributes = inputAttributes(operation, input);
    if (attributes) this.span.setAttributes(attributes);
  }
}

/** An error's code when it has one of the Engine's (`PROVIDER_TIMEOUT`); never its message, which may quote input. */
const errorType = (err: unknown): string => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? code : 'Error';
};

export interface SpanOptions<T> {
  kind?: SpanKind;
  /** The caller's context (an extracted traceparent); the active one by default. */
  parent?: Context | undefined;
  /** Attributes of the work's result, set before the span ends. */
  outcome?: (value: T) => SafeAttributes;
  /**
   * The work starts no span and reads no context (a provider attempt): the span is not made active,
   * which saves a context switch per span; its traceparent still goes out through `carry`.
   */
  leaf?: boolean;
}

/**
 * Runs `work` inside a span named `name`, active for everything the work starts, and ends it when
 * the work settles. A thrown error marks the span failed with its code only.
 */
export function inSpan<T>(name: string, attributes: SafeAttributes | (() => SafeAttributes), work: (span: TracedSpan) => Promise<T>, options: SpanOptions<T> = {}): Promise<T> {
  if (!state.on) return work(NOOP);
  const parent = options.parent ?? context.active();
  // Inside a span the sampler left out, this one would be left out too (every standard sampler
  // decides a trace once): none is made, and the work goes on in the unsampled trace's context.
  const within = options.parent === undefined ? trace.getSpan(parent) : undefined;
  if (within !== undefined && !within.isRecording()) return work(new Unrecorded(within));
  const span = state.tracer.startSpan(name, KIND[options.kind ?? SpanKind.INTERNAL], parent);
  // Not sampled: the work runs in its context (its traceparent says so), with nothing to record or end.
  if (!span.isRecording()) return options.leaf ? work(new Unrecorded(span)) : context.with(withSpan(parent, span), work, undefined, new Unrecorded(span));
  // Attributes are worked out only for a span that records them (a function of them, when costly).
  setAll(span, typeof attributes === 'function' ? attributes() : attributes);
  const traced = new Traced(span);
  return settled(span, options.leaf ? work(traced) : context.with(withSpan(parent, span), () => work(traced)), options.outcome, true);
}

/** startSpan's options of each kind, made once (the SDK only reads them). */
const KIND: Readonly<Record<SpanKind, { readonly kind: SpanKind }>> = {
  [SpanKind.INTERNAL]: { kind: SpanKind.INTERNAL },
  [SpanKind.SERVER]: { kind: SpanKind.SERVER },
  [SpanKind.CLIENT]: { kind: SpanKind.CLIENT },
  [SpanKind.PRODUCER]: { kind: SpanKind.PRODUCER },
  [SpanKind.CONSUMER]: { kind: SpanKind.CONSUMER },
};

/** `work`'s result, once its outcome (or its error's code) is on `span`, then ended when `end`. */
function settled<T>(span: Span, work: Promise<T>, outcome: ((value: T) => SafeAttributes) | undefined, end: boolean): Promise<T> {
  return work.then(
    (value) => {
      const more = outcome?.(value);
      if (more) {
        setAll(span, more);
        if (typeof more['error.type'] === 'string') span.setStatus({ code: SpanStatusCode.ERROR });
      }
      if (end) span.end();
      return value;
    },
    (err: unknown) => {
      span.setAttribute('error.type', errorType(err));
      span.setStatus({ code: SpanStatusCode.ERROR });
      if (end) span.end();
      throw err;
    },
  );
}

/**
 * Runs `work` as part of the span already active (a request's SERVER span), which gets
 * `attributes` and the outcome's: a request that is one call is one span, not two. With no span
 * active, as inSpan with `name`; inside a span the sampler left out, the work alone.
 */
export function inActiveSpan<T>(name: string, attributes: SafeAttributes, work: (span: TracedSpan) => Promise<T>, options: SpanOptions<T> = {}): Promise<T> {
  if (!state.on) return work(NOOP);
  const span = trace.getSpan(context.active());
  if (span === undefined) return inSpan(name, attributes, work, options);
  if (!span.isRecording()) return work(new Unrecorded(span));
  setAll(span, attributes);
  return settled(span, work(new Traced(span)), options.outcome, false);
}

/**
 * The trace a receipt names: the active span's trace ID while tracing is on (sampled or not: the
 * same ID went to the providers in `traceparent`), and that span, when it records, gets the
 * receipt's ID (`svc.receipt.id`). Undefined while tracing is off or no span is active.
 */
export function traceOfReceipt(): { traceId: string; named(receiptId: string): void } | undefined {
  const span = activeSpan();
  return span && { traceId: span.spanContext().traceId, named: (receiptId) => void (span.isRecording() && span.setAttribute('svc.receipt.id', receiptId)) };
}

/** The active span while tracing is on, when its context is a valid one (sampled or not). */
function activeSpan(): Span | undefined {
  if (!state.on) return undefined;
  const span = trace.getSpan(context.active());
  return span !== undefined && trace.isSpanContextValid(span.spanContext()) ? span : undefined;
}

/**
 * The active span's IDs for a log line, under the names OpenTelemetry gives them in non-OTLP logs
 * (`trace_id`, `span_id`, `trace_flags`): a line written inside a request leads to its trace.
 * Unsampled traces too, as receipts keep them; nothing while tracing is off. A new object each
 * time: pino writes the line's own fields into it.
 */
export function traceLogFields(): object {
  const span = activeSpan();
  if (span === undefined) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { trace_id: traceId, span_id: spanId, trace_flags: FLAGS[traceFlags & 0xff] };
}

/**
 * `fn`, to run outside every span: background work that one request's call happened to start (a
 * batch of receipts written for many calls) takes no request's trace, nor puts it on its log lines.
 */
export function detached<F extends (...args: never[]) => unknown>(fn: F): F {
  return state.on ? context.bind(ROOT_CONTEXT, fn) : fn;
}

/** `fn`, bound to the context active now: work that comes back through an event (a sandbox worker's message) stays in its span. */
export function bindActive<F extends (...args: never[]) => unknown>(fn: F): F {
  return state.on ? context.bind(context.active(), fn) : fn;
}

/** Methods named as they are; any other is `_OTHER` (semantic conventions): a method is the caller's text. */
const KNOWN_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'CONNECT', 'TRACE']);
export const methodName = (method: string | undefined): string => (method !== undefined && KNOWN_METHODS.has(method) ? method : '_OTHER');

/**
 * A request span's name, `POST /v1/apps/{version_id}/executions`: made once per method and route
 * template (the Engine's routes, a fixed set), so each span shares one string that the exporter
 * reads without joining it again.
 */
const routeNames = new Map<string, Map<string, string>>();
export function routeSpanName(method: string, route: string): string {
  let names = routeNames.get(route);
  if (names === undefined) routeNames.set(route, (names = new Map()));
  let name = names.get(method);
  if (name === undefined) names.set(method, (name = `${method} ${route}`));
  return name;
}

/** Names the active span after the route a request matched (`GET /v1/tokens/:id`), never its path; `(no route)` leaves the method alone. */
export function nameServerSpan(method: string, route: string): void {
  if (!state.on || route.startsWith('(')) return;
  const span = trace.getActiveSpan();
  span?.updateName(routeSpanName(methodName(method), route));
  span?.setAttribute('http.route', route);
}

const MAX_INPUT_TEXT = 256;

/**
 * The caller's input values as attributes (`svc.input.<name>`), only for a service listed in
 * SVC_TRACE_INPUT_SERVICES; the request body (`body`) never. Strings and JSON are cut at 256 characters.
 */
function inputAttributes(operation: string, input: unknown): Record<string, string | number | boolean> | undefined {
  if (!state.on || state.inputServices.size === 0 || typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const service = operation.slice(0, Math.max(0, operation.indexOf('.')));
  if (!state.inputServices.has(service)) return undefined;
  const out: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    if (name === 'body' || value === undefined) continue;
    const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value);
    out[`svc.input.${name}`] = typeof text === 'string' && text.length > MAX_INPUT_TEXT ? `${text.slice(0, MAX_INPUT_TEXT)}…` : text;
  }
  return out;
}

export { SpanKind };
