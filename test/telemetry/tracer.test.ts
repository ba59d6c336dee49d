// The Engine's tracer (src/telemetry/tracer.ts) against the SDK's: the same calls, with the same
// IDs and times, must give spans that the SDK's own serializer writes to the same bytes, so a span
// processor or exporter cannot tell them apart. Then what only the Engine's does: its contexts,
// its clock, and the sampler's word on what is recorded.
import { context, ROOT_CONTEXT, SamplingDecision, SpanKind, SpanStatusCode, trace, TraceFlags, createContextKey, type Link, type Span, type Tracer } from '@opentelemetry/api';
import { suppressTracing, TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BasicTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler, type IdGenerator, type ReadableSpan, type Sampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { serializeSpans } from '../../src/telemetry/otlp-protobuf.ts';
import { startTracing } from '../../src/telemetry/setup.ts';
import { EngineTracer, withSpan } from '../../src/telemetry/tracer.ts';

/** IDs counted up from 1, so two tracers given the same calls give the same IDs. */
class CountingIds implements IdGenerator {
  private n = 0;
  generateTraceId = () => (++this.n).toString(16).padStart(32, '0');
  generateSpanId = () => (++this.n).toString(16).padStart(16, '0');
}

/** A processor that keeps each span as it ends, and marks it while it ends (when the span may still change). */
class Keeping implements SpanProcessor {
  readonly started: Span[] = [];
  readonly ended: ReadableSpan[] = [];
  onStart(span: Span): void {
    this.started.push(span);
  }
  onEnding(span: Span): void {
    span.setAttribute('svc.ending.recording', span.isRecording());
  }
  onEnd(span: ReadableSpan): void {
    this.ended.push(span);
  }
  forceFlush = () => Promise.resolve();
  shutdown = () => Promise.resolve();
}

const resource = resourceFromAttributes({ 'service.name': 'svc-engine' });

/** Samples every span, adding an attribute of its own and one to the attributes it was given (which the SDK keeps). */
const addingSampler: Sampler = {
  shouldSample: (_context, _traceId, _name, _kind, attributes, links) => {
    attributes['svc.sampler.saw.links'] = links.length;
    return { decision: SamplingDecision.RECORD_AND_SAMPLED, attributes: { 'svc.sampler': 'kept', 'http.request.method': undefined } };
  },
  toString: () => 'adding',
};

function tracers(sampler: Sampler = new ParentBasedSampler({ root: new AlwaysOnSampler() })) {
  const sdk = new Keeping();
  const engine = new Keeping();
  return {
    sdk: { tracer: new BasicTracerProvider({ resource, sampler, idGenerator: new CountingIds(), spanProcessors: [sdk] }).getTracer('svc-engine'), kept: sdk },
    engine: { tracer: new EngineTracer({ sampler, ids: new CountingIds(), resource, scope: { name: 'svc-engine' }, processor: engine }) as Tracer, kept: engine },
  };
}

const remoteParent = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: new TraceState('congo=t61rcWkgMzE') };
const linked = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };

/** Every call a span takes, each time given, under a remote parent and as a root. */
function script(tracer: Tracer, setSpan: typeof trace.setSpan): void {
  const links: Link[] = [{ context: linked }, { context: linked, attributes: { 'svc.a': 1, 'svc.b': 'two' } }, { context: linked, attributes: {} }];
  const server = tracer.startSpan('POST /v1/apps/{version_id}/executions', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'POST', 'svc.empty': '', 'svc.list': ['a', 'b'] }, links, startTime: [1_764_720_000, 123_456_789] }, trace.setSpanContext(ROOT_CONTEXT, remoteParent));
  server.setAttribute('http.route', '/v1/apps/{version_id}/executions');
  const list = ['before'];
  server.setAttribute('svc.copied', list);
  list.push('after'); // the span keeps what was set
  server.setAttributes({ 'svc.status': 200, 'svc.replayed': true, 'svc.ratio': 0.5 });
  server.setAttribute('svc.bad', { nested: true } as never); // not an attribute value: left out
  server.setAttribute('', 'no key');
  for (let i = 0; i < 130; i++) server.setAttribute(`svc.extra.${i}`, i); // past 128: dropped, counted
  server.setAttribute('svc.status', 201); // a key already held is replaced, not counted again
  for (let i = 0; i < 130; i++) server.addEvent(`event ${i}`, { 'svc.i': i }, 1_764_720_000_500 + i); // past 128: the oldest go
  server.addEvent('at a date', new Date('2026-12-07T00:00:00.000Z'));
  server.addEvent('two times, the second wins', [1_764_720_000, 700], [1_764_720_000, 800]);
  const many = Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`svc.k${i}`, i]));
  server.addEvent('checked', { ...many, '': 1, 'svc.bad': { x: 1 } as never, 'svc.list': ['x'] }, [1_764_720_000, 900]);
  server.addLinks([{ context: remoteParent }, { context: linked, attributes: { ...many, 'svc.bad': { x: 1 } as never } }, { context: linked, attributes: null as never }]);
  const client = tracer.startSpan('GET', { kind: SpanKind.CLIENT, startTime: new Date('2026-12-07T00:00:00.250Z') }, setSpan(ROOT_CONTEXT, server));
  client.setStatus({ code: SpanStatusCode.ERROR, message: 'timed out' });
  client.updateName('GET (renamed)');
  client.end(1_796_601_600_300.5);
  client.setAttribute('after.end', 1); // ignored: the span ended
  client.end(); // ignored
  server.setStatus({ code: SpanStatusCode.OK });
  server.setStatus({ code: SpanStatusCode.ERROR }); // OK is final
  server.end([1_764_720_001, 5]);
  const root = tracer.startSpan('session get_value', { root: true, startTime: 1_764_720_002_000 }, setSpan(ROOT_CONTEXT, server));
  root.setStatus({ code: SpanStatusCode.UNSET });
  root.setStatus({ code: SpanStatusCode.ERROR, message: 'x' });
  root.end([4_200_000_000, 999_999_999]);
}

describe("the Engine's tracer", () => {
  it("makes spans the SDK's serializer writes exactly as the SDK's own, every field filled", () => {
    for (const sampler of [undefined, addingSampler]) {
      const { sdk, engine } = tracers(sampler);
      script(sdk.tracer, trace.setSpan);
      script(engine.tracer, withSpan);
      expect(engine.kept.ended.length).toBe(3);
      const theirs = Buffer.from(ProtobufTraceSerializer.serializeRequest(sdk.kept.ended)!);
      const ours = Buffer.from(ProtobufTraceSerializer.serializeRequest(engine.kept.ended)!);
      expect(ours.toString('hex')).toBe(theirs.toString('hex'));
    }
    const { sdk, engine } = tracers();
    script(sdk.tracer, trace.setSpan);
    script(engine.tracer, withSpan);
    // The Engine's own serializer reads the Engine's spans by their numbers, the SDK's by their pairs: the same bytes.
    expect(Buffer.from(serializeSpans(engine.kept.ended)).toString('hex')).toBe(Buffer.from(serializeSpans(sdk.kept.ended)).toString('hex'));
    expect(engine.kept.started.length).toBe(3);
    const theirs = Buffer.from(ProtobufTraceSerializer.serializeRequest(sdk.kept.ended)!);
    const ours = Buffer.from(ProtobufTraceSerializer.serializeRequest(engine.kept.ended)!);
    expect(ours.toString('hex')).toBe(theirs.toString('hex'));
    const [server, client] = engine.kept.ended.filter((s) => s.name !== 'session get_value').sort((a, b) => a.kind - b.kind);
    // The parts the bytes hold in a form of their own, read as the SDK's span gives them.
    const sdkServer = sdk.kept.ended.find((s) => s.kind === SpanKind.SERVER)!;
    for (const span of [server!, client!]) expect(span.ended).toBe(true);
    expect({ dropped: [server!.droppedAttributesCount, server!.droppedEventsCount, server!.droppedLinksCount], duration: server!.duration, status: client!.status, name: client!.name }).toEqual({
      dropped: [sdkServer.droppedAttributesCount, sdkServer.droppedEventsCount, sdkServer.droppedLinksCount],
      duration: sdkServer.duration,
      status: { code: SpanStatusCode.ERROR, message: 'timed out' },
      name: 'GET (renamed)',
    });
    expect(server!.droppedAttributesCount).toBe(11); // 8 set before, 120 of the 130 extras fit, and onEnding's is one past
    expect(client!.attributes['svc.ending.recording']).toBe(true); // still recording while processors see it end
    expect(server!.attributes['svc.copied']).toEqual(['before']);
    expect(server!.links.at(-2)?.droppedAttributesCount).toBe(2);
    expect(server!.droppedEventsCount).toBe(5); // 133 events, 128 kept
    expect(server!.parentSpanContext).toEqual(remoteParent);
    expect(server!.spanContext().traceState?.serialize()).toBe('congo=t61rcWkgMzE');
  });

  it('times a span from the wall clock at its start and the monotonic clock for its length', async () => {
    const { engine } = tracers();
    const before = Date.now();
    const span = engine.tracer.startSpan('timed');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(span.isRecording()).toBe(true);
    span.end();
    const after = Date.now();
    const [ended] = engine.kept.ended;
    const ns = (t: [number, number]) => BigInt(t[0]) * 1_000_000_000n + BigInt(t[1]);
    const start = ns(ended!.startTime);
    const end = ns(ended!.endTime);
    expect(start).toBeGreaterThanOrEqual(BigInt(before) * 1_000_000n);
    expect(end).toBeLessThanOrEqual(BigInt(after + 1) * 1_000_000n);
    expect(end - start).toBe(ns(ended!.duration));
    expect(end - start).toBeGreaterThanOrEqual(25_000_000n);
    expect(ended!.endTime[1]).toBeLessThan(1e9);
    expect(span.isRecording()).toBe(false);
  });

  it('records only what the sampler samples, and still gives an unsampled span its context', () => {
    const off = tracers(new AlwaysOffSampler()).engine;
    const span = off.tracer.startSpan('dropped');
    expect(span.isRecording()).toBe(false);
    expect(trace.isSpanContextValid(span.spanContext())).toBe(true);
    expect(span.spanContext().traceFlags).toBe(TraceFlags.NONE);
    span.end();
    expect(off.kept.started.length + off.kept.ended.length).toBe(0);

    // Parent-based: a child follows its parent's decision, sampled or not, and keeps its trace.
    const parentBased = tracers(new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0) })).engine;
    const unsampledParent = trace.setSpanContext(ROOT_CONTEXT, { ...remoteParent, traceFlags: TraceFlags.NONE });
    const child = parentBased.tracer.startSpan('child', {}, unsampledParent);
    expect(child.isRecording()).toBe(false);
    expect(child.spanContext().traceId).toBe(remoteParent.traceId);
    expect(child.spanContext().traceState?.serialize()).toBe('congo=t61rcWkgMzE');
    const sampledChild = parentBased.tracer.startSpan('child', {}, trace.setSpanContext(ROOT_CONTEXT, remoteParent));
    expect(sampledChild.isRecording()).toBe(true);
    expect(parentBased.tracer.startSpan('root').isRecording()).toBe(false);
  });

  it('makes no span where tracing is suppressed (the exporter’s own requests)', () => {
    const { engine } = tracers();
    const span = engine.tracer.startSpan('export', {}, suppressTracing(ROOT_CONTEXT));
    expect(span.isRecording()).toBe(false);
    expect(trace.isSpanContextValid(span.spanContext())).toBe(false);
  });

  it('runs startActiveSpan’s function with the span active and returns its result', () => {
    const { engine } = tracers();
    const result = engine.tracer.startActiveSpan('active', { kind: SpanKind.INTERNAL }, (span: Span) => {
      // No context manager is registered here, so the span is read from the context given to with().
      span.end();
      return 42;
    });
    expect(result).toBe(42);
    expect(engine.kept.ended.map((s) => s.name)).toEqual(['active']);
  });
});

describe('a span’s context frame', () => {
  it('holds the span for the API and every other value of its parent', () => {
    const { engine } = tracers();
    const span = engine.tracer.startSpan('s');
    const key = createContextKey('svc test key');
    const other = createContextKey('svc other key');
    const parent = ROOT_CONTEXT.setValue(key, 'kept');
    const ctx = withSpan(parent, span);
    expect(trace.getSpan(ctx)).toBe(span);
    expect(ctx.getValue(key)).toBe('kept');
    expect(ctx.getValue(other)).toBeUndefined();
    expect(trace.getSpan(parent)).toBeUndefined();
    // Set over it and deleted from it, as the API's own context.
    const set = ctx.setValue(other, 1);
    expect([set.getValue(other), set.getValue(key), trace.getSpan(set)]).toEqual([1, 'kept', span]);
    expect(ctx.getValue(other)).toBeUndefined();
    expect(trace.getSpan(trace.deleteSpan(ctx))).toBeUndefined();
    expect(trace.deleteSpan(ctx).getValue(key)).toBe('kept');
    expect(trace.getSpan(ctx)).toBe(span);
    // A child started in it is the span's child.
    const child = engine.tracer.startSpan('child', {}, ctx);
    expect(child.spanContext().traceId).toBe(span.spanContext().traceId);
    expect((child as unknown as ReadableSpan).parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(context.active()).toBe(ROOT_CONTEXT);
  });
});

describe('the odd calls the SDK allows', () => {
  it('takes a null time as now, an undefined context as the active one, and no function as nothing to run', () => {
    const { engine } = tracers();
    const before = Date.now();
    const span = engine.tracer.startSpan('null times', { startTime: null as never });
    span.end(null as never);
    const [ended] = engine.kept.ended as ReadableSpan[];
    expect(ended!.startTime[0] * 1000).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(ended!.endTime[0]).toBeGreaterThanOrEqual(ended!.startTime[0]);
    const result = engine.tracer.startActiveSpan('undefined context', {}, undefined as never, (active: Span) => {
      active.end();
      // A child started in the frame reads every other key through it.
      return engine.tracer.startSpan('child', {}, withSpan(ROOT_CONTEXT, active)).isRecording();
    });
    expect(result).toBe(true);
    expect((engine.tracer.startActiveSpan as (name: string) => unknown)('no function')).toBeUndefined();
  });

  it('reads a value under a long chain of frames without overflowing the stack', () => {
    const key = createContextKey('svc test root');
    const { engine } = tracers();
    let ctx = withSpan(ROOT_CONTEXT.setValue(key, 'root'), engine.tracer.startSpan('s'));
    for (let i = 0; i < 100_000; i++) ctx = ctx.setValue(createContextKey('svc test chain'), i);
    expect(ctx.getValue(key)).toBe('root');
  });

  it('gives each instrumentation scope its own tracer once tracing starts, as the SDK’s provider', async () => {
    const tracing = startTracing({ url: 'http://127.0.0.1:9/v1/traces', inputServices: [] });
    try {
      const library = trace.getTracer('some-library', '1.2.3').startSpan('work') as unknown as ReadableSpan;
      expect(library.instrumentationScope).toEqual({ name: 'some-library', version: '1.2.3', schemaUrl: undefined });
      expect(trace.getTracer('some-library', '1.2.3')).toBe(trace.getTracer('some-library', '1.2.3'));
      expect((trace.getTracer('svc-engine').startSpan('own') as unknown as ReadableSpan).instrumentationScope.name).toBe('svc-engine');
    } finally {
      await tracing.shutdown();
    }
  });
});
