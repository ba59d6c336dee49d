// The protobuf span processor (src/telemetry/encoding-processor.ts) with the SDK's tracer and its
// OTLP/HTTP export path, against real collectors on loopback: batches by size and by delay, the
// queue limit while an export waits, sampled spans only, a refused export reported and the next
// batch still sent, an export past its timeout reported once, nothing after shutdown.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExportResultCode, loggingErrorHandler, setGlobalErrorHandler, type ExportResult } from '@opentelemetry/core';
import type { IOtlpExportDelegate } from '@opentelemetry/otlp-exporter-base';
import { BasicTracerProvider, SamplingDecision, type Sampler } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { EncodingSpanProcessor, type BatchLimits } from '../../src/telemetry/encoding-processor.ts';
import { protobufExportDelegate, type EncodedBatch } from '../../src/telemetry/otlp-protobuf.ts';
import { decodeTraces } from '../fixtures/otlp-decode.ts';

/** A collector that counts the spans of each export and answers as `answer` says (status, or held until released). */
async function collector(answer: (nth: number) => number | 'hold' = () => 200) {
  const exports: number[] = [];
  const held: ServerResponse[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    exports.push(decodeTraces(Buffer.concat(chunks), req.headers['content-type']).length);
    const status = answer(exports.length);
    if (status === 'hold') held.push(res);
    else res.writeHead(status, { 'content-type': 'application/x-protobuf' }).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    exports,
    spans: () => exports.reduce((a, b) => a + b, 0),
    release: () => held.splice(0).forEach((res) => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  setGlobalErrorHandler(loggingErrorHandler());
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

const LIMITS: BatchLimits = { maxQueueSize: 100, maxExportBatchSize: 10, scheduledDelayMillis: 60_000, exportTimeoutMillis: 5000 };

function tracing(url: string, limits: BatchLimits, sampler?: Sampler) {
  // The exporter's own timeout (OTEL_EXPORTER_OTLP_TIMEOUT) as the processor's: a hung request ends then.
  const processor = new EncodingSpanProcessor(protobufExportDelegate({ url, timeoutMillis: limits.exportTimeoutMillis }), limits);
  const provider = new BasicTracerProvider({ spanProcessors: [processor], ...(sampler ? { sampler } : {}) });
  const tracer = provider.getTracer('test');
  stops.push(() => provider.shutdown());
  return { processor, end: (n: number) => Array.from({ length: n }, (_, i) => tracer.startSpan(`span ${i}`).end()) };
}

const until = async (done: () => boolean, ms = 5000) => {
  for (const deadline = Date.now() + ms; !done(); await new Promise((r) => setTimeout(r, 10))) if (Date.now() > deadline) throw new Error('timed out');
};

describe('EncodingSpanProcessor', () => {
  it('exports each full batch at once, and the rest when flushed, never more than a batch per export', async () => {
    const c = await collector();
    stops.push(c.stop);
    const { processor, end } = tracing(c.url, LIMITS);
    end(25);
    await until(() => c.spans() === 20);
    expect(c.exports).toEqual([10, 10]);
    await processor.forceFlush();
    expect(c.exports).toEqual([10, 10, 5]);
  });

  it('exports a batch that is not full once the delay has passed', async () => {
    const c = await collector();
    stops.push(c.stop);
    const { end } = tracing(c.url, { ...LIMITS, scheduledDelayMillis: 50 });
    end(3);
    await until(() => c.spans() === 3);
    expect(c.exports).toEqual([3]);
  });

  it('drops spans past the queue while an export waits, and sends the rest after it', async () => {
    const c = await collector((nth) => (nth === 1 ? 'hold' : 200));
    stops.push(c.stop);
    const { processor, end } = tracing(c.url, { ...LIMITS, maxQueueSize: 20 });
    end(10); // a full batch: its export is held
    await until(() => c.exports.length === 1);
    end(30); // 20 wait, 10 are dropped
    c.release();
    await processor.forceFlush();
    expect(c.exports).toEqual([10, 10, 10]);
  });

  it('exports only sampled spans: one a sampler records but does not sample stays out', async () => {
    const c = await collector();
    stops.push(c.stop);
    let sample = false;
    const sampler: Sampler = { shouldSample: () => ({ decision: sample ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.RECORD }), toString: () => 'alternate' };
    const { processor, end } = tracing(c.url, LIMITS, sampler);
    end(4);
    sample = true;
    end(3);
    await processor.forceFlush();
    expect(c.exports).toEqual([3]);
  });

  it('reports a refused export to the SDK error handler, and sends the next batch', async () => {
    const c = await collector((nth) => (nth === 1 ? 400 : 200));
    stops.push(c.stop);
    const errors: unknown[] = [];
    setGlobalErrorHandler((e) => errors.push(e));
    const { processor, end } = tracing(c.url, LIMITS);
    end(10);
    await until(() => errors.length === 1);
    end(10);
    await processor.forceFlush();
    expect(c.exports).toEqual([10, 10]);
    expect(errors).toHaveLength(1);
  });

  it('reports an export that times out once, though it fails later, and sends the next batch meanwhile', async () => {
    const errors: unknown[] = [];
    setGlobalErrorHandler((e) => errors.push(e));
    let late: ((result: ExportResult) => void) | undefined;
    const sent: number[] = [];
    const delegate: IOtlpExportDelegate<EncodedBatch> = {
      // The first export answers only when the test says; the next at once.
      export: (batch, done) => {
        sent.push(batch.count);
        if (sent.length === 1) late = done;
        else done({ code: ExportResultCode.SUCCESS });
      },
      forceFlush: async () => {},
      shutdown: async () => {},
      setMetrics: () => {},
    };
    const processor = new EncodingSpanProcessor(delegate, { ...LIMITS, exportTimeoutMillis: 20 });
    const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('test');
    for (let i = 0; i < 20; i++) tracer.startSpan(`span ${i}`).end();
    await until(() => sent.length === 2);
    expect(errors).toHaveLength(1); // the first timed out, so the second went
    late!({ code: ExportResultCode.FAILED, error: new Error('refused, late') });
    await processor.shutdown();
    expect(sent).toEqual([10, 10]);
    expect(errors).toHaveLength(1);
  });

  it('sends the batches still waiting at once when it stops, so a collector that never answers costs one timeout, not one per batch', async () => {
    const c = await collector(() => 'hold');
    stops.push(async () => {
      c.release();
      await c.stop();
    });
    const { processor, end } = tracing(c.url, { ...LIMITS, maxExportBatchSize: 10, exportTimeoutMillis: 600 });
    end(10); // one batch goes out and hangs
    await until(() => c.exports.length === 1);
    end(35); // three more full batches and one of 5 wait behind it
    const t0 = performance.now();
    await processor.shutdown();
    // One after another they would take 5 × 600 ms; at once about 600 ms.
    expect(performance.now() - t0).toBeLessThan(2400);
    expect(c.exports).toEqual([10, 10, 10, 10, 5]);
  });

  it('exports what ended before shutdown, and nothing after', async () => {
    const c = await collector();
    stops.push(c.stop);
    const { processor, end } = tracing(c.url, LIMITS);
    end(4);
    await processor.shutdown();
    end(4);
    await processor.forceFlush();
    expect(c.exports).toEqual([4]);
  });
});
