// The span processor of protobuf exports: each sampled span is written as OTLP protobuf the moment
// it ends (./otlp-protobuf.ts), and batches of those bytes go to the SDK's OTLP/HTTP export path
// (its transport, retries, timeout, gzip, headers). The SDK's BatchSpanProcessor keeps every span
// object until its batch is exported, long enough for V8's young-generation collector to copy and
// promote it; kept as bytes, a span is garbage once it ends (docs/operations/observability.md).
// Same limits as the SDK's processor (OTEL_BSP_*, read by src/config), one export at a time.
import { context, diag, ROOT_CONTEXT, TraceFlags } from '@opentelemetry/api';
import { ExportResultCode, globalErrorHandler, suppressTracing } from '@opentelemetry/core';
import type { IOtlpExportDelegate } from '@opentelemetry/otlp-exporter-base';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { EncodedSpans, type EncodedBatch } from './otlp-protobuf.ts';

export interface BatchLimits {
  /** Spans waiting (not yet handed to an export) past which new ones are dropped. */
  maxQueueSize: number;
  /** Spans per export at most; a batch this full is exported at once. */
  maxExportBatchSize: number;
  /** How long a batch that is not full waits. */
  scheduledDelayMillis: number;
  /** How long an export may take before the next one starts. */
  exportTimeoutMillis: number;
}

/** The SDK's defaults (src/config reads OTEL_BSP_* for the Engine). */
export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 5000, exportTimeoutMillis: 30_000 };

export class EncodingSpanProcessor implements SpanProcessor {
  private readonly delegate: IOtlpExportDelegate<EncodedBatch>;
  private readonly limits: BatchLimits;
  private readonly current = new EncodedSpans();
  /** Batches written, waiting for their export, oldest first. */
  private readonly ready: EncodedBatch[] = [];
  /** Spans in `current` and `ready`. */
  private waiting = 0;
  private exporting: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private dropped = 0;
  private stopping: Promise<void> | undefined;

  constructor(delegate: IOtlpExportDelegate<EncodedBatch>, limits: BatchLimits = DEFAULT_BATCH_LIMITS) {
    this.delegate = delegate;
    this.limits = limits;
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopping !== undefined || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.waiting >= this.limits.maxQueueSize) {
      if (this.dropped++ === 0) diag.warn('span export queue full (OTEL_BSP_MAX_QUEUE_SIZE): dropping spans');
      return;
    }
    this.current.add(span);
    this.waiting++;
    if (this.current.count >= this.limits.maxExportBatchSize) {
      this.seal();
      this.pump();
    } else if (this.timer === undefined) {
      // Outside the span that ended first: the batch is every request's.
      this.timer = setTimeout(context.bind(ROOT_CONTEXT, () => {
        this.timer = undefined;
        this.seal();
        this.pump();
      }), this.limits.scheduledDelayMillis);
      this.timer.unref();
    }
  }

  /**
   * Exports every span ended so far, the waiting batches at once (as the SDK's processor flushes),
   * so a collector that does not answer costs one export timeout, not one per batch; then the
   * exporter's own pending work.
   */
  async forceFlush(): Promise<void> {
    this.seal();
    const batches = this.ready.splice(0);
    for (const batch of batches) this.waiting -= batch.count;
    await Promise.all([this.exporting, ...batches.map((batch) => this.send(batch))]);
    await this.delegate.forceFlush();
  }

  shutdown(): Promise<void> {
    this.stopping ??= this.forceFlush().finally(() => this.delegate.shutdown());
    return this.stopping;
  }

  /** Closes the batch being written (if it holds any span) and queues it for export. */
  private seal(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.current.count === 0) return;
    const count = this.current.count;
    this.ready.push({ count, bytes: this.current.request() });
    if (this.dropped > 0) {
      diag.warn(`dropped ${this.dropped} spans: the export queue was full`);
      this.dropped = 0;
    }
  }

  /** Starts the next export unless one runs: one at a time, as the SDK's processor. */
  private pump(): void {
    if (this.exporting !== undefined) return;
    const batch = this.ready.shift();
    if (batch === undefined) return;
    this.waiting -= batch.count;
    this.exporting = this.send(batch).then(() => {
      this.exporting = undefined;
      this.pump();
    });
  }

  /** One export; a failure or a timeout goes to the SDK's error handler (diag), once, and the next batch follows. */
  private send(batch: EncodedBatch): Promise<void> {
    // The export, its timer and its failure belong to no request's trace (a full batch is sent from the span that filled it).
    return new Promise((resolve) => context.with(ROOT_CONTEXT, () => {
      let settled = false;
      const timeout = setTimeout(() => {
        settled = true;
        globalErrorHandler(new Error('span export timed out'));
        resolve();
      }, this.limits.exportTimeoutMillis);
      timeout.unref();
      // The export's own HTTP request makes no span.
      context.with(suppressTracing(ROOT_CONTEXT), () =>
        this.delegate.export(batch, (result) => {
          // An export that answers after its timeout was reported then: not again.
          if (settled) return;
          settled = true;
          clearTimeout(timeout);
          if (result.code !== ExportResultCode.SUCCESS) globalErrorHandler(result.error ?? new Error('span export failed'));
          resolve();
        }),
      );
    }));
  }
}
