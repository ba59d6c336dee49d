// The tracing bench's in-process part: what a REST execution's 2 spans cost the event loop without
// any network, so the serializers can be told apart from the noise of an Engine under load.
// (1) The 2 spans made as the Engine makes them (a SERVER request span with the call's attributes,
// a CLIENT provider attempt; the SDK's tracer, BatchSpanProcessor of 512) and exported by each
// serializer with no transport: a no-op exporter, the SDK's JSON and protobuf serializers, the
// Engine's protobuf serializer (src/telemetry/otlp-protobuf.ts) on the SDK's batches, the
// Engine's processor that writes each span as it ends (src/telemetry/encoding-processor.ts), and
// that processor fed by the Engine's own tracer (src/telemetry/tracer.ts) instead of the SDK's, as
// the Engine runs. (2) Each serializer alone on one batch of 512 such spans. Variants rotate in
// each round; p50/p99 over rounds (1) and batches (2).
// Alone: `node --no-node-snapshot test/bench/tracing-in-process.ts` prints the tables.
import { context, SpanKind, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { EncodingSpanProcessor } from '../../src/telemetry/encoding-processor.ts';
import { PooledIdGenerator } from '../../src/telemetry/ids.ts';
import { EngineTracer, withSpan } from '../../src/telemetry/tracer.ts';
import { serializeSpans, type EncodedBatch } from '../../src/telemetry/otlp-protobuf.ts';
import { int, percentiles, ratio, table } from './lib/stats.ts';

type Serialize = ((spans: ReadableSpan[]) => Uint8Array | undefined) | undefined;
/** `asTheyEnd`: the Engine's processor, which writes each span as it ends, instead of the SDK's batch processor and a serializer. */
const VARIANTS: readonly { label: string; serialize: Serialize; asTheyEnd?: true; engineTracer?: true }[] = [
  { label: "SDK's spans, no-op exporter (made and batched only)", serialize: undefined },
  { label: "SDK's spans, SDK's JSON serializer", serialize: (spans) => JsonTraceSerializer.serializeRequest(spans) },
  { label: "SDK's spans, SDK's protobuf serializer", serialize: (spans) => ProtobufTraceSerializer.serializeRequest(spans) },
  { label: "SDK's spans, Engine's protobuf serializer on the SDK's batches", serialize: serializeSpans },
  { label: "SDK's spans, Engine's protobuf written as each ends", serialize: serializeSpans, asTheyEnd: true },
  { label: "Engine's spans (src/telemetry/tracer.ts), protobuf written as each ends (the Engine's default)", serialize: serializeSpans, asTheyEnd: true, engineTracer: true },
];
const BATCH = 512;

/** An exporter that serializes each batch and drops the bytes. */
class SerializingExporter implements SpanExporter {
  private readonly serialize: Serialize;
  bytes = 0;
  constructor(serialize: Serialize) {
    this.serialize = serialize;
  }
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.bytes += this.serialize?.(spans)?.byteLength ?? 0;
    done({ code: ExportResultCode.SUCCESS });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** One REST execution's spans, with the attributes src/telemetry/server.ts, src/calls/traced.ts and src/execution/dispatch.ts set. */
function restExecution(tracer: Tracer, i: number, setSpan: (parent: Context, span: Span) => Context): void {
  const request = tracer.startSpan('POST /v1/apps/{version_id}/executions', { kind: SpanKind.SERVER });
  request.setAttribute('http.request.method', 'POST');
  request.setAttribute('http.route', '/v1/apps/{version_id}/executions');
  request.setAttribute('svc.surface', 'rest');
  request.setAttribute('svc.operation', 'demo-crm.contacts/get');
  request.setAttribute('svc.service', 'demo-crm');
  const attempt = tracer.startSpan('GET', { kind: SpanKind.CLIENT }, setSpan(context.active(), request));
  attempt.setAttributes({ 'http.request.method': 'GET', 'server.address': '127.0.0.1', 'server.port': 40_000 + (i & 1023), 'url.scheme': 'http' });
  attempt.setAttribute('http.response.status_code', 200);
  attempt.end();
  request.setAttribute('svc.status', 200);
  request.setAttribute('svc.attempts', 1);
  request.setAttribute('http.response.status_code', 200);
  request.end();
}

/** An export path that takes written batches and drops the bytes. */
class DroppingDelegate {
  bytes = 0;
  export(batch: EncodedBatch, done: (result: ExportResult) => void): void {
    this.bytes += batch.bytes.byteLength;
    done({ code: ExportResultCode.SUCCESS });
  }
  forceFlush = () => Promise.resolve();
  shutdown = () => Promise.resolve();
  setMetrics(): void {}
}

const LIMITS = { maxQueueSize: 1 << 16, maxExportBatchSize: BATCH, scheduledDelayMillis: 60_000, exportTimeoutMillis: 30_000 };

/** A tracer with its flush and shutdown: the SDK's provider, or the Engine's tracer (src/telemetry/tracer.ts) over its processor. */
interface TracerSetup {
  getTracer(name: string): Tracer;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

const RESOURCE = resourceFromAttributes({ 'service.name': 'svc-engine' });

function provider(exporter: SerializingExporter, v: number): TracerSetup {
  const processor = VARIANTS[v]!.asTheyEnd ? new EncodingSpanProcessor(new DroppingDelegate(), LIMITS) : new BatchSpanProcessor(exporter, LIMITS);
  if (!VARIANTS[v]!.engineTracer) return new BasicTracerProvider({ resource: RESOURCE, spanProcessors: [processor] });
  const tracer = new EngineTracer({ sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }), ids: new PooledIdGenerator(), resource: RESOURCE, scope: { name: 'svc-engine' }, processor });
  return { getTracer: () => tracer, forceFlush: () => processor.forceFlush(), shutdown: () => processor.shutdown() };
}

export interface InProcessOptions {
  rounds: number;
  /** REST executions per variant and round. */
  requests: number;
  log?: (line: string) => void;
}

export async function measureInProcess({ rounds, requests, log }: InProcessOptions): Promise<string> {
  const n = VARIANTS.length;
  const perRequest = VARIANTS.map(() => new Float64Array(rounds));
  const exporters = VARIANTS.map((v) => new SerializingExporter(v.serialize));
  const providers = exporters.map((e, v) => provider(e, v));
  const tracers = providers.map((p) => p.getTracer('svc-engine'));
  for (let r = -1; r < rounds; r++) {
    // Round -1 warms every path up and is not kept.
    for (let k = 0; k < n; k++) {
      const v = (k + Math.max(r, 0)) % n;
      const t0 = process.hrtime.bigint();
      const setSpan = VARIANTS[v]!.engineTracer ? withSpan : trace.setSpan;
      for (let i = 0; i < requests; i++) restExecution(tracers[v]!, i, setSpan);
      await providers[v]!.forceFlush();
      if (r >= 0) perRequest[v]![r] = Number(process.hrtime.bigint() - t0) / 1000 / requests;
    }
    if (r >= 0) log?.(`in process, round ${r + 1}/${rounds}: ` + VARIANTS.map((x, v) => `${perRequest[v]![r]!.toFixed(1)} µs`).join(' | '));
  }

  // (2) Serializers alone on one batch of real spans.
  const memory: ReadableSpan[] = [];
  const keep = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'svc-engine' }),
    spanProcessors: [{ onStart: () => undefined, onEnd: (s: ReadableSpan) => void memory.push(s), forceFlush: () => Promise.resolve(), shutdown: () => Promise.resolve() }],
  });
  for (let i = 0; i < BATCH / 2; i++) restExecution(keep.getTracer('svc-engine'), i, trace.setSpan);
  const serializers = VARIANTS.slice(1).filter((v) => !v.asTheyEnd);
  const batches = rounds * 20;
  const perSpan = serializers.map(() => new Float64Array(batches));
  for (let b = -20; b < batches; b++) {
    for (let k = 0; k < serializers.length; k++) {
      const s = (k + Math.max(b, 0)) % serializers.length;
      const t0 = process.hrtime.bigint();
      serializers[s]!.serialize!(memory);
      if (b >= 0) perSpan[s]![b] = Number(process.hrtime.bigint() - t0) / 1000 / memory.length;
    }
  }
  await Promise.all([...providers, keep].map((p) => p.shutdown()));

  const [noop] = percentiles(perRequest[0]!, rounds, [50]);
  const reqRows = VARIANTS.map((x, v) => {
    const [p50, p99] = percentiles(perRequest[v]!, rounds, [50, 99]);
    const added = p50! - noop!;
    return [x.label, p50!.toFixed(1), p99!.toFixed(1), v === 0 ? '–' : `${added >= 0 ? '+' : '−'}${Math.abs(added).toFixed(1)}`];
  });
  const [sdk] = percentiles(perSpan[1]!, batches, [50]);
  const spanRows = serializers.map((x, s) => {
    const [p50, p99] = percentiles(perSpan[s]!, batches, [50, 99]);
    return [x.label, p50!.toFixed(2), p99!.toFixed(2), ratio(p50! / sdk!), int(x.serialize!(memory)!.byteLength / memory.length)];
  });
  return [
    `### In process: a REST execution's ${2} spans, made, batched (${BATCH}) and serialized, no network (p50 / p99 of ${rounds} rounds of ${int(requests)} executions)`,
    '',
    table(['spans, exporter', 'µs per execution p50', 'p99', 'against the first row, µs (p50)'], reqRows, ['l', 'r', 'r', 'r']),
    '',
    `Serializers alone, on one batch of ${memory.length} of those spans (p50 / p99 of ${batches} batches each, rotated):`,
    '',
    table(['serializer', 'µs per span p50', 'p99', "against the SDK's protobuf", 'bytes per span'], spanRows, ['l', 'r', 'r', 'r', 'r']),
  ].join('\n');
}

if (import.meta.main) {
  console.log(await measureInProcess({ rounds: Number(process.env.BENCH_ROUNDS ?? 8), requests: 20_000, log: console.error }));
}
