// A log line written inside a traced request carries the trace's IDs under OpenTelemetry's names
// for non-OTLP logs (`trace_id`, `span_id`, `trace_flags`), so an operator goes from a line to its
// trace; lines outside a request, lines of background work a request started (an export of many
// requests' spans that failed), and every line of an untraced Engine carry none.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../fixtures/otlp-receiver.ts';

let receiver: OtlpReceiver;
let t: TestEngine;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // SVC_LOG_LEVEL is debug in tests: each request writes a 'request' line inside its span.
  t = await startTestEngine({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' });
});
afterAll(async () => {
  await t?.stop();
  await receiver?.stop();
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const lines = (engine: TestEngine) => engine.logs.flatMap((chunk) => chunk.split('\n')).filter(Boolean).map((line) => JSON.parse(line));

describe('log lines of a traced Engine', () => {
  it('name the trace and the span of the request they were written in, sampled or not', async () => {
    for (const sampled of [true, false]) {
      const traceId = hex(16);
      const res = await fetch(`${t.url}/v1/mcp`, { headers: { authorization: `Bearer ${t.cliToken}`, traceparent: `00-${traceId}-${hex(8)}-${sampled ? '01' : '00'}` } });
      expect(res.status).toBe(200);
      const line = lines(t).find((l) => l.msg === 'request' && l.trace_id === traceId);
      expect(line, `sampled: ${sampled}`).toMatchObject({ route: '/v1/mcp', status: 200, trace_flags: sampled ? '01' : '00', span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
      if (sampled) {
        const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === traceId));
        expect(spans.find((s) => s.traceId === traceId)).toMatchObject({ spanId: line.span_id, name: 'GET /v1/mcp' });
      }
    }
  });

  it('outside a request carry no trace', () => {
    const started = lines(t).find((l) => l.msg === 'engine listening');
    expect(started).toBeDefined();
    expect(started).not.toHaveProperty('trace_id');
  });
});

describe('log lines of an untraced Engine', () => {
  it('carry no trace, even for a request that sent a traceparent', async () => {
    await t.stop(); // one Engine per process traces (src/telemetry/setup.ts)
    const plain = await startTestEngine({ OTEL_EXPORTER_OTLP_ENDPOINT: '' });
    try {
      const traceId = hex(16);
      await fetch(`${plain.url}/v1/mcp`, { headers: { authorization: `Bearer ${plain.cliToken}`, traceparent: `00-${traceId}-${hex(8)}-01` } });
      const requestLines = lines(plain).filter((l) => l.msg === 'request');
      expect(requestLines.length).toBeGreaterThan(0);
      expect(requestLines.some((l) => 'trace_id' in l || 'span_id' in l)).toBe(false);
    } finally {
      await plain.stop();
    }
  });
});

describe('background work a traced request started', () => {
  it('logs outside that request’s trace: a failed export of its batch names no trace', async () => {
    // A collector that refuses every batch (400: not retried), so the export's failure is logged at once.
    const refusing = createServer((req, res) => req.resume().on('end', () => res.writeHead(400).end()));
    refusing.listen(0, '127.0.0.1');
    await once(refusing, 'listening');
    const traced = await startTestEngine({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`, OTEL_BSP_SCHEDULE_DELAY: '50' });
    try {
      const traceId = hex(16);
      expect((await fetch(`${traced.url}/v1/mcp`, { headers: { authorization: `Bearer ${traced.cliToken}`, traceparent: `00-${traceId}-${hex(8)}-01` } })).status).toBe(200);
      const failed = () => lines(traced).find((l) => typeof l.msg === 'string' && l.msg.startsWith('exporting traces to'));
      for (let waited = 0; !failed() && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      expect(lines(traced).find((l) => l.msg === 'request' && l.trace_id === traceId)).toBeDefined(); // the request's own line did
      expect(failed()).toBeDefined();
      expect(failed()).not.toHaveProperty('trace_id');
    } finally {
      await traced.stop();
      refusing.close();
    }
  });
});
