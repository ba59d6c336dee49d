// Tracing on or off for the process: with an OTLP endpoint set, spans are batched and exported over
// OTLP/HTTP (protobuf by default, or JSON) to its traces URL; unset, nothing is registered and @opentelemetry/api's no-op
// tracer stays in place (./spans.ts then skips even that). The exporter and the sampler take the
// settings src/config checked (OTEL_* variables), not the SDK's own reading of them. Spans are the
// Engine's (./tracer.ts), sampled by the SDK's samplers. Protobuf is written as each span ends
// (./encoding-processor.ts) and sent by the SDK's HTTP export path; JSON is the SDK's batch
// processor and exporter as they are.
import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base';
import { PooledIdGenerator } from './ids.ts';
import { EngineTracer } from './tracer.ts';
import { EncodingSpanProcessor, type BatchLimits } from './encoding-processor.ts';
import { protobufExportDelegate } from './otlp-protobuf.ts';
import { state } from './spans.ts';

export interface TracingOptions {
  /** The collector's traces URL (`http://127.0.0.1:4318/v1/traces`). */
  url: string;
  /** Sent with each export (a collector's API key): never logged. */
  headers?: Readonly<Record<string, string>>;
  compression?: 'gzip' | 'none';
  /** OTEL_EXPORTER_OTLP_PROTOCOL: spans as protobuf (the default) or JSON. */
  protocol?: 'http/protobuf' | 'http/json';
  /** OTEL_TRACES_SAMPLER's name and OTEL_TRACES_SAMPLER_ARG (default parentbased_always_on). */
  sampler?: { name: string; ratio: number };
  /** OTEL_BSP_*: the batch queue and exports (src/config checked them); the SDK's defaults otherwise. */
  batch?: BatchLimits;
  /** Services whose calls' input values go on their spans (SVC_TRACE_INPUT_SERVICES). */
  inputServices: readonly string[];
  /** `service.name` of the spans (OTEL_SERVICE_NAME; default `svc-engine`). */
  serviceName?: string | undefined;
  /** Called when the SDK reports an error (an export the collector refused or never answered); its text is not passed on. */
  onError?: () => void;
}

export interface Tracing {
  /** Exports the spans still batched (a failure goes to `onError`), then stops tracing in this process. */
  shutdown(): Promise<void>;
}

/** The SDK's sampler of a specification name (src/config/otel.ts checked it). */
export function samplerOf(name: string, ratio: number): Sampler {
  const parentBased = name.startsWith('parentbased_');
  const own = parentBased ? name.slice('parentbased_'.length) : name;
  const root = own === 'always_on' ? new AlwaysOnSampler() : own === 'always_off' ? new AlwaysOffSampler() : own === 'traceidratio' ? new TraceIdRatioBasedSampler(ratio) : undefined;
  if (!root) throw new Error(`unknown sampler ${name}`);
  return parentBased ? new ParentBasedSampler({ root }) : root;
}

/**
 * Registers the tracer provider, the async-hooks context manager (spans nest across awaits) and the
 * W3C trace-context propagator (`traceparent`, `tracestate`; no baggage: it could carry a caller's
 * data to providers). One Engine per process exports: a second start while one runs is refused.
 */
export function startTracing(options: TracingOptions): Tracing {
  if (state.on) throw new Error('tracing is already started in this process');
  const settings = { url: options.url, headers: { ...options.headers }, compression: (options.compression ?? 'none') as CompressionAlgorithm };
  const processor = options.protocol === 'http/json' ? new BatchSpanProcessor(new JsonTraceExporter(settings), options.batch) : new EncodingSpanProcessor(protobufExportDelegate(settings), options.batch);
  const parts = {
    sampler: samplerOf(options.sampler?.name ?? 'parentbased_always_on', options.sampler?.ratio ?? 1),
    ids: new PooledIdGenerator(),
    resource: resourceFromAttributes({ 'service.name': options.serviceName || 'svc-engine' }),
    processor,
  };
  // A tracer per instrumentation scope, as the SDK's provider keeps them (a library's spans keep its name).
  const tracers = new Map<string, EngineTracer>();
  const tracerOf = (name: string, version?: string, scope?: { schemaUrl?: string }): EngineTracer => {
    const key = `${name}@${version ?? ''}:${scope?.schemaUrl ?? ''}`;
    let tracer = tracers.get(key);
    if (tracer === undefined) tracers.set(key, (tracer = new EngineTracer({ ...parts, scope: { name, version, schemaUrl: scope?.schemaUrl } })));
    return tracer;
  };
  const tracer = tracerOf('svc-engine');
  const contextManager = new AsyncLocalStorageContextManager().enable();
  trace.setGlobalTracerProvider({ getTracer: tracerOf });
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // The SDK's errors (failed exports) as a signal only: their text may quote a collector's answer.
  const noop = () => undefined;
  if (options.onError) diag.setLogger({ error: options.onError, warn: noop, info: noop, debug: noop, verbose: noop }, DiagLogLevel.ERROR);
  state.on = true;
  state.inputServices = new Set(options.inputServices);
  state.tracer = tracer;
  let stopping: Promise<void> | undefined;
  return {
    shutdown() {
      stopping ??= (async () => {
        try {
          await processor.shutdown(); // flushes the batch
        } catch {
          options.onError?.();
        } finally {
          state.on = false;
          state.inputServices = new Set();
          state.tracer = trace.getTracer('svc-engine');
          trace.disable();
          context.disable();
          propagation.disable();
          diag.disable();
        }
      })();
      return stopping;
    },
  };
}
