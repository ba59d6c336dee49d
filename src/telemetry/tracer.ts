// The Engine's tracer: spans of @opentelemetry/api, sampled by the SDK's samplers and handed to the
// SDK's span processors as its ReadableSpan, but each span one object with its times as numbers,
// and each active span's context one small frame. The SDK's span allocates about a dozen objects
// (time pairs, empty lists, limits, status, self-metrics with their attributes and a closure) and
// the API's context copies a Map with three closures; on a REST execution that allocation was most
// of what tracing cost (docs/architecture.md, "Traces").
import {
  context as api,
  createContextKey,
  INVALID_SPAN_CONTEXT,
  SamplingDecision,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Attributes,
  type AttributeValue,
  type Context,
  type HrTime,
  type Link,
  type Span,
  type SpanAttributes,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
  type Tracer,
} from '@opentelemetry/api';
import { isAttributeValue, isTimeInput, isTracingSuppressed, sanitizeAttributes } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { IdGenerator, ReadableSpan, Sampler, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';

/** The API's key of the active span (`createContextKey` is `Symbol.for`, so this is the same key). */
const SPAN_KEY = createContextKey('OpenTelemetry Context Key SPAN');

/**
 * An immutable context: one key's value over a parent context. The API's own context copies its
 * parent's Map and makes three closures for each value set; a frame is one small object.
 */
class ContextFrame implements Context {
  private readonly parent: Context;
  private readonly key: symbol;
  private readonly value: unknown;

  constructor(parent: Context, key: symbol, value: unknown) {
    this.parent = parent;
    this.key = key;
    this.value = value;
  }

  /** Walks up the frames in a loop: a long chain of values set must not overflow the stack. */
  getValue(key: symbol): unknown {
    let frame: Context = this;
    while (frame instanceof ContextFrame) {
      if (frame.key === key) return frame.value;
      frame = frame.parent;
    }
    return frame.getValue(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return new ContextFrame(this, key, value);
  }

  /** Hides the key's value: getValue answers undefined, as for a key never set. */
  deleteValue(key: symbol): Context {
    return new ContextFrame(this, key, undefined);
  }
}

/** `parent` with `span` active: trace.setSpan's context, as one frame. */
export const withSpan = (parent: Context, span: Span): Context => new ContextFrame(parent, SPAN_KEY, span);

/** The SDK's span limits by default: 128 attributes, events and links a span. */
const MAX_ITEMS = 128;

const NO_EVENTS: readonly TimedEvent[] = Object.freeze([]);
const NO_LINKS: readonly Link[] = Object.freeze([]);
const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });

/** [seconds, nanoseconds] of ms since the epoch, as the SDK's millisToHrTime. */
const secondsOf = (ms: number): number => Math.trunc(ms / 1000);
const nanosOf = (ms: number): number => Math.round((ms % 1000) * 1e6);

/** [seconds, nanoseconds] plus `ms`, as the SDK's addHrTimes of millisToHrTime(ms). */
function plusMs(seconds: number, nanos: number, ms: number): HrTime {
  const sum = nanos + nanosOf(ms);
  return sum >= 1e9 ? [seconds + secondsOf(ms) + 1, sum - 1e9] : [seconds + secondsOf(ms), sum];
}

/** An event's or a link's attributes within the SDK's limit of 128, and how many were dropped. */
function limited(attributes: Attributes): [Attributes, number] {
  const keys = Object.keys(attributes);
  if (keys.length <= MAX_ITEMS) return [attributes, 0];
  const kept: Attributes = {};
  for (const key of keys.slice(0, MAX_ITEMS)) kept[key] = attributes[key];
  return [kept, keys.length - MAX_ITEMS];
}

export interface TracerParts {
  sampler: Sampler;
  ids: IdGenerator;
  resource: Resource;
  scope: ReadableSpan['instrumentationScope'];
  processor: SpanProcessor;
}

export class EngineTracer implements Tracer {
  private readonly sampler: Sampler;
  private readonly ids: IdGenerator;
  readonly resource: Resource;
  readonly scope: ReadableSpan['instrumentationScope'];
  readonly processor: SpanProcessor;

  constructor(parts: TracerParts) {
    this.sampler = parts.sampler;
    this.ids = parts.ids;
    this.resource = parts.resource;
    this.scope = parts.scope;
    this.processor = parts.processor;
  }

  /** As the SDK's tracer: a child of the context's span (a new trace without one), recorded when the sampler says so. */
  startSpan(name: string, options: SpanOptions = {}, context: Context = api.active()): Span {
    if (options.root) context = trace.deleteSpan(context);
    if (isTracingSuppressed(context)) return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    const parent = trace.getSpan(context)?.spanContext();
    const child = parent !== undefined && trace.isSpanContextValid(parent);
    const spanId = this.ids.generateSpanId();
    const traceId = child ? parent.traceId : this.ids.generateTraceId();
    const kind = options.kind ?? SpanKind.INTERNAL;
    // The sampler gets checked copies, as from the SDK's tracer (it may add attributes of its own).
    const links = options.links === undefined ? (NO_LINKS as Link[]) : options.links.map((link) => ({ context: link.context, attributes: sanitizeAttributes(link.attributes) }));
    const attributes = sanitizeAttributes(options.attributes);
    const sampled = this.sampler.shouldSample(context, traceId, name, kind, attributes, links);
    const traceState = sampled.traceState ?? (child ? parent.traceState : undefined);
    const traceFlags = sampled.decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE;
    const spanContext: SpanContext = traceState === undefined ? { traceId, spanId, traceFlags } : { traceId, spanId, traceFlags, traceState };
    if (sampled.decision === SamplingDecision.NOT_RECORD) return trace.wrapSpanContext(spanContext);
    const span = new EngineSpan(this, name, kind, spanContext, child ? parent : undefined, options.startTime ?? undefined);
    for (const link of links) span.addLink(link);
    span.setAttributes(sampled.attributes === undefined ? attributes : sanitizeAttributes(Object.assign(attributes, sampled.attributes)));
    this.processor.onStart(span, context);
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...args: [F] | [SpanOptions, F] | [SpanOptions, Context | undefined, F]): ReturnType<F> {
    const fn = args.at(-1);
    if (typeof fn !== 'function') return undefined as ReturnType<F>;
    const options = args.length > 1 ? (args[0] as SpanOptions | undefined) : undefined;
    const parent = (args.length > 2 ? (args[1] as Context | undefined) : undefined) ?? api.active();
    const span = this.startSpan(name, options, parent);
    return api.with(withSpan(parent, span), fn as (span: Span) => ReturnType<F>, undefined, span);
  }
}

/**
 * A recorded span, read by span processors as the SDK's ReadableSpan. Its start is the wall clock
 * in ms (as the SDK's) and its length is measured on the monotonic clock; both become
 * [seconds, nanoseconds] only when read. The Engine records no exception: a message or a stack may
 * quote input (./spans.ts marks a failure by its code).
 */
export class EngineSpan implements Span, ReadableSpan {
  name: string;
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  attributes: Attributes = {};
  status: SpanStatus = UNSET;
  links: Link[] = NO_LINKS as Link[];
  private readonly tracer: EngineTracer;
  private readonly context: SpanContext;
  /** The start and (once ended) the end as numbers, read by ./otlp-protobuf.ts without making [seconds, nanoseconds] pairs. */
  readonly startSeconds: number;
  readonly startNanos: number;
  /** Date.now() and performance.now() at the start; NaN when the start was given. */
  private readonly startMs: number;
  private readonly startNow: number;
  /** -1 until the span ends. */
  endSeconds = -1;
  endNanos = 0;
  /** Set once processors' onEnding has run: until then the span may still change. */
  private done = false;
  private attributeCount = 0;
  private droppedAttributes = 0;
  private droppedEvents = 0;
  private droppedLinks = 0;
  private eventList: TimedEvent[] | undefined;

  constructor(tracer: EngineTracer, name: string, kind: SpanKind, context: SpanContext, parent: SpanContext | undefined, startTime: TimeInput | undefined) {
    this.tracer = tracer;
    this.name = name;
    this.kind = kind;
    this.context = context;
    this.parentSpanContext = parent;
    if (startTime == null) {
      this.startMs = Date.now();
      this.startNow = performance.now();
      this.startSeconds = secondsOf(this.startMs);
      this.startNanos = nanosOf(this.startMs);
    } else {
      this.startMs = this.startNow = Number.NaN;
      [this.startSeconds, this.startNanos] = this.timeOf(startTime);
    }
  }

  spanContext(): SpanContext {
    return this.context;
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (value == null || this.done || key.length === 0 || !isAttributeValue(value)) return this;
    if (!Object.hasOwn(this.attributes, key)) {
      if (this.attributeCount >= MAX_ITEMS) {
        this.droppedAttributes++;
        return this;
      }
      this.attributeCount++;
    }
    this.attributes[key] = Array.isArray(value) ? value.slice() : value; // a caller's array may change after
    return this;
  }

  setAttributes(attributes: SpanAttributes): this {
    for (const key in attributes) {
      const value = attributes[key];
      if (value !== undefined && Object.hasOwn(attributes, key)) this.setAttribute(key, value);
    }
    return this;
  }

  /** Past 128 events or links the oldest goes, counted as dropped, and past 128 attributes on one the rest; as the SDK's span. */
  addEvent(name: string, attributesOrTime?: SpanAttributes | TimeInput, time?: TimeInput): this {
    if (this.done) return this;
    let attributes = attributesOrTime;
    if (isTimeInput(attributesOrTime)) {
      if (!isTimeInput(time)) time = attributesOrTime;
      attributes = undefined;
    }
    const events = (this.eventList ??= []);
    if (events.length >= MAX_ITEMS) {
      events.shift();
      this.droppedEvents++;
    }
    const [kept, dropped] = limited(sanitizeAttributes(attributes));
    events.push({ name, attributes: kept, time: this.timeOf(time ?? undefined), droppedAttributesCount: dropped });
    return this;
  }

  addLink(link: Link): this {
    if (this.done) return this;
    if (this.links === NO_LINKS) this.links = [];
    if (this.links.length >= MAX_ITEMS) {
      this.links.shift();
      this.droppedLinks++;
    }
    const [attributes, dropped] = limited(sanitizeAttributes(link.attributes));
    const kept: Link = { context: link.context };
    if (Object.keys(attributes).length > 0) kept.attributes = attributes;
    if (dropped > 0) kept.droppedAttributesCount = dropped;
    this.links.push(kept);
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  /** As the SDK's: UNSET changes nothing, OK is final, and only an error keeps a message. */
  setStatus(status: SpanStatus): this {
    if (this.done || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    this.status = status.code === SpanStatusCode.ERROR && typeof status.message === 'string' ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.done) this.name = name;
    return this;
  }

  /** The end as the SDK's span takes it: given, or the start plus the monotonic clock's reading since; never before the start. */
  end(endTime?: TimeInput): void {
    if (this.done) return;
    let [seconds, nanos] = this.timeOf(endTime ?? undefined);
    if (seconds < this.startSeconds || (seconds === this.startSeconds && nanos < this.startNanos)) [seconds, nanos] = [this.startSeconds, this.startNanos];
    this.endSeconds = seconds;
    this.endNanos = nanos;
    this.tracer.processor.onEnding?.(this);
    this.done = true;
    this.tracer.processor.onEnd(this);
  }

  isRecording(): boolean {
    return !this.done;
  }

  recordException(): void {}

  /**
   * A time during the span as the SDK's span reads it: [seconds, nanoseconds] as given; a Date or
   * ms since the epoch; a number no later than performance.now() as a reading of it; none, now.
   */
  private timeOf(time: TimeInput | undefined): HrTime {
    if (Array.isArray(time)) return [time[0], time[1]];
    if (time === undefined) {
      if (!Number.isNaN(this.startNow)) return plusMs(this.startSeconds, this.startNanos, performance.now() - this.startNow);
      const now = Date.now();
      return [secondsOf(now), nanosOf(now)];
    }
    if (typeof time === 'number' && time <= performance.now()) {
      // The SDK's reading of a performance.now() value: its time origin, corrected by the clocks' difference at the start.
      const offset = Number.isNaN(this.startNow) ? Date.now() - (performance.now() + performance.timeOrigin) : this.startMs - (this.startNow + performance.timeOrigin);
      const origin = performance.timeOrigin;
      return plusMs(secondsOf(origin), nanosOf(origin), time + offset);
    }
    const ms = time instanceof Date ? time.getTime() : time;
    return [secondsOf(ms), nanosOf(ms)];
  }

  get startTime(): HrTime {
    return [this.startSeconds, this.startNanos];
  }

  get endTime(): HrTime {
    return this.endSeconds < 0 ? [0, 0] : [this.endSeconds, this.endNanos];
  }

  get duration(): HrTime {
    if (this.endSeconds < 0) return [-1, -1];
    const nanos = this.endNanos - this.startNanos;
    return nanos < 0 ? [this.endSeconds - this.startSeconds - 1, nanos + 1e9] : [this.endSeconds - this.startSeconds, nanos];
  }

  get ended(): boolean {
    return this.done;
  }

  get events(): TimedEvent[] {
    return this.eventList ?? (NO_EVENTS as TimedEvent[]);
  }

  get resource(): Resource {
    return this.tracer.resource;
  }

  get instrumentationScope(): ReadableSpan['instrumentationScope'] {
    return this.tracer.scope;
  }

  get droppedAttributesCount(): number {
    return this.droppedAttributes;
  }

  get droppedEventsCount(): number {
    return this.droppedEvents;
  }

  get droppedLinksCount(): number {
    return this.droppedLinks;
  }
}
