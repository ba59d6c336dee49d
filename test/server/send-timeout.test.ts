// SVC_HTTP_SEND_TIMEOUT_MS: a client that asks for a large answer and then stops reading would hold
// its socket, and the answer's buffer, for ever (Node has no send timeout). The Engine sweeps its
// connections and closes one whose queued bytes have not moved for the timeout. A raw TCP client
// sends a REST execution whose answer (~7 MiB) cannot fit in loopback's socket buffers, and does
// not read.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';

const BLOB = 'x'.repeat(7 * 1024 * 1024);

let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => json(res, 200, { id: req.url.split('/').at(-1), blob: BLOB }));
  t = await startTestEngine({ SVC_HTTP_SEND_TIMEOUT_MS: '1000' });
  sdk = await publishSdk(t, { name: 'stalled', service: 'demo-crm', baseUrl: provider.url, secret: 'crm-key-stalled', operations: ['contacts/get'] });
});
afterAll(async () => {
  await t?.stop();
  await provider?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends one execution over a raw connection that reads nothing until `readAfterMs`, then reads to the end of the answer or of the connection. */
async function execution(readAfterMs: number): Promise<{ bodyBytes: number; declared: number; closed: boolean }> {
  const { hostname, port } = new URL(t.url);
  const socket: Socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  const body = JSON.stringify({ operation: 'demo-crm.contacts/get', input: { contact_id: 'con_big' } });
  socket.write(
    `POST /v1/apps/${sdk.versionId}/executions HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${sdk.token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.pause();
  await sleep(readAfterMs);
  const chunks: Buffer[] = [];
  let closed = false;
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    // The head is found once and the body counted as it comes: joining every chunk on each read
    // copies the 7 MiB answer a hundred times over, slow enough on a busy machine to miss the timeout.
    let received = 0;
    let bodyStart = -1;
    let declared = NaN;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (bodyStart < 0) {
        const head = Buffer.concat(chunks);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        bodyStart = end + 4;
        declared = Number(/content-length: (\d+)/i.exec(head.subarray(0, end).toString('latin1'))?.[1]);
      }
      if (received - bodyStart >= declared) done();
    });
    socket.once('close', () => {
      closed = true;
      done();
    });
    socket.resume();
  });
  const text = Buffer.concat(chunks);
  const end = text.indexOf('\r\n\r\n');
  socket.destroy();
  return {
    bodyBytes: end < 0 ? 0 : text.length - end - 4,
    declared: end < 0 ? NaN : Number(/content-length: (\d+)/i.exec(text.subarray(0, end).toString('latin1'))?.[1]),
    closed,
  };
}

describe('SVC_HTTP_SEND_TIMEOUT_MS', () => {
  it('is 120000 by default, from 1000 to 3600000', () => {
    expect(loadConfig({}).httpSendTimeoutMs).toBe(120_000);
    expect(loadConfig({ SVC_HTTP_SEND_TIMEOUT_MS: '1000' }).httpSendTimeoutMs).toBe(1_000);
    for (const bad of ['999', '0', 'later', '3600001']) {
      expect(() => loadConfig({ SVC_HTTP_SEND_TIMEOUT_MS: bad }), bad).toThrow(`SVC_HTTP_SEND_TIMEOUT_MS must be an integer from 1000 to 3600000 (got '${bad}')`);
    }
  });

  it('closes the connection of a client that stopped reading its answer, with a warning', async () => {
    const answer = await execution(4_000);
    expect(answer.declared).toBeGreaterThan(BLOB.length);
    expect(answer.closed).toBe(true);
    expect(answer.bodyBytes).toBeLessThan(answer.declared);
    expect(t.logs.some((l) => l.includes('SVC_HTTP_SEND_TIMEOUT_MS') && l.includes('"level":40'))).toBe(true);
    expect(t.logs.join('\n')).not.toContain(sdk.token);
  });

  it('lets a client that reads within the timeout have its whole answer, on a connection kept open', async () => {
    const answer = await execution(200);
    expect(answer.closed).toBe(false);
    expect(answer.bodyBytes).toBe(answer.declared);
  });
});
