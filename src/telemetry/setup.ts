// Tracing on or off for the process: with OTEL_EXPORTER_OTLP_ENDPOINT set, spans are batched and
// exported over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`; unset, nothing is registered and
// @opentelemetry/api's no-op tracer stays in place (./spans.ts then skips even that).
import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { state } from './spans.ts';

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL (`http://127.0.0.1:4318`). */
  endpoint: string;
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

/** The OTLP/HTTP traces URL of a base endpoint (OpenTelemetry's exporter specification: the signal path is appended). */
export const tracesUrl = (endpoint: string): string => `${endpoint.replace(/\/+$/, '')}/v1/traces`;

/**
 * Registers the tracer provider, the async-hooks context manager (spans nest across awaits) and the
 * W3C trace-context propagator (`traceparent`, `tracestate`; no baggage: it could carry a caller's
 * data to providers). One Engine per process exports: a second start while one runs is refused.
 */
export function startTracing(options: TracingOptions): Tracing {
  if (state.on) throw new Error('tracing is already started in this process');
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName || 'svc-engine' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl(options.endpoint) }))],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // The SDK's errors (failed exports) as a signal only: their text may quote a collector's answer.
  const noop = () => undefined;
  if (options.onError) diag.setLogger({ error: options.onError, warn: noop, info: noop, debug: noop, verbose: noop }, DiagLogLevel.ERROR);
  state.on = true;
  state.inputServices = new Set(options.inputServices);
  state.tracer = provider.getTracer('svc-engine');
  let stopping: Promise<void> | undefined;
  return {
    shutdown() {
      stopping ??= (async () => {
        try {
          await provider.shutdown(); // flushes the batch
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
