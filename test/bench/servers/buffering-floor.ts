// Diagnostic baseline: the least any buffering JSON gateway does per call, with none of the Engine's
// own work. It reads and parses the POST body the Engine gets, sends `GET /v1/contacts/<id>` with
// `Authorization: Bearer <BENCH_PROVIDER_KEY>` through undici (a keep-alive Agent like the Engine's),
// buffers and parses the provider's JSON, and answers the Engine's envelope with the body spliced in.
// No token check, validation, secret lookup, receipts, metrics or timeouts: the gap between this and
// the Engine is the Engine's own work; the gap between this and the bare proxy is what buffering and
// a JSON request body cost.
//
// With BENCH_FLOOR_RECEIPTS=1 it also records each call's receipt exactly as the Engine does (issue
// 2 item 9: the SHA-256 of the answer, a receipt ID and timestamp, the Engine's own ActivityLog over a
// file-backed SqliteStore and its writer thread), and nothing else: the least a gateway that keeps a
// durable receipt per call can cost.
import { hash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, util, type Dispatcher } from 'undici';
import { ActivityLog } from '../../../src/activity/index.ts';
import { createLogger } from '../../../src/log/index.ts';
import { openStore } from '../../../src/store/index.ts';
import { serve } from './ipc.ts';
import { listenOnLoopback } from './close.ts';

await serve(async () => {
  const upstream = process.env.BENCH_UPSTREAM_URL;
  const key = process.env.BENCH_PROVIDER_KEY;
  if (!upstream || !key) throw new Error('BENCH_UPSTREAM_URL and BENCH_PROVIDER_KEY must be set');
  const origin = new URL(upstream).origin;
  const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 256, pipelining: 1 });
  const receipts = process.env.BENCH_FLOOR_RECEIPTS === '1' ? await receiptLog() : undefined;

  const server = createServer((req, res) => {
    const fail = (status: number, message: string) => {
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(message);
    };
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      // Only the receipts variant pays for the receipt's timestamps: the plain floor stays the floor.
      const startedAt = receipts ? new Date().toISOString() : '';
      const sent = receipts ? performance.now() : 0;
      let id: unknown;
      try {
        id = (JSON.parse(Buffer.concat(body).toString('utf8')) as { input?: { contact_id?: unknown } }).input?.contact_id;
      } catch {
        return fail(400, 'bad json');
      }
      if (typeof id !== 'string') return fail(400, 'input.contact_id is required');
      const chunks: Buffer[] = [];
      let status = 0;
      const handler: Dispatcher.DispatchHandler = {
        onConnect() {},
        onHeaders(statusCode, rawHeaders) {
          status = statusCode;
          util.parseHeaders(rawHeaders as Buffer[]);
          return true;
        },
        onData(chunk) {
          chunks.push(chunk as Buffer);
          return true;
        },
        onComplete() {
          const raw = Buffer.concat(chunks);
          const text = raw.toString('utf8');
          try {
            JSON.parse(text);
          } catch {
            return fail(502, 'provider sent invalid JSON');
          }
          receipts?.activity.record({
            versionId: 'ver_floor',
            operation: 'demo-crm.contacts/get',
            surface: 'rest',
            tokenId: null,
            startedAt,
            providerDurationMs: Math.round((performance.now() - sent) * 1000) / 1000,
            pages: 1,
            status,
            ok: true,
            bytes: raw.length,
            sha256: hash('sha256', raw, 'hex'),
            errorCode: null,
          });
          const payload = `{"ok":true,"status":${status},"data":${text},"error":null}`;
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
          res.end(payload);
        },
        onError(err) {
          fail(502, `bad gateway: ${err.message}`);
        },
      };
      agent.dispatch({ origin, path: `/v1/contacts/${encodeURIComponent(id)}`, method: 'GET', headers }, handler);
    });
  });
  return listenOnLoopback(server, async () => {
    await agent.close();
    await receipts?.close();
  });
});

/** The Engine's receipt log over a SQLite store of its own in a temporary directory. */
async function receiptLog() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-floor-'));
  const store = await openStore({ dataDir: dir });
  const activity = new ActivityLog(store, createLogger('warn'));
  return {
    activity,
    async close() {
      await activity.flush();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
