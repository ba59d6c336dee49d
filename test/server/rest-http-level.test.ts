// The REST execution route (POST /v1/apps/{version_id}/executions) at the HTTP level, on the
// node:http fast path and the Koa binder alike: deeply nested malformed JSON, Content-Encoding,
// keep-alive after a refusal, TRACE, and the headers of a draining Engine's 503.
import { gzipSync } from 'node:zlib';
import { connect, type Socket } from 'node:net';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

const SECRET = 'fast-path-review-key-5e0a';
let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };
/** Per contact ID: how long the provider takes to answer. */
const delays = new Map<string, number>();

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => {
    const id = req.url.split('/')[3]?.split('?')[0] ?? '';
    await new Promise((r) => setTimeout(r, delays.get(id) ?? 0));
    json(res, 200, { id, name: 'Ada' });
  });
  t = await startTestEngine(); // the default 1 MiB request cap
  sdk = await publishSdk(t, { name: 'fastreview', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get'] });
});

afterAll(async () => {
  await t?.stop();
  await provider?.stop();
});

const execPath = (versionId = sdk.versionId) => `/v1/apps/${versionId}/executions`;
const callBody = JSON.stringify({ operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' } });
const request = (method: string, path: string, headers: Record<string, string>, body = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n${body}`;
const jsonHeaders = (body: string | Buffer, token = sdk.token) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(body)),
});

async function post(path: string, headers: Record<string, string>, body: string | Buffer) {
  const res = await fetch(t.url + path, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as { ok: boolean; status: number; error: { code: string; message: string; details?: Record<string, unknown> } | null } };
}

/** A keep-alive connection on which requests are sent one at a time, each answer read in full. */
class Connection {
  private buffer = Buffer.alloc(0);
  closed = false;
  private waiters: (() => void)[] = [];
  private readonly socket: Socket;
  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (c: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, c]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }
  static async open(url: string): Promise<Connection> {
    const u = new URL(url);
    const socket = connect(Number(u.port), u.hostname);
    await new Promise((r) => socket.once('connect', r));
    return new Connection(socket);
  }
  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }
  private async until(ready: () => boolean, ms: number) {
    const deadline = Date.now() + ms;
    while (!ready() && !this.closed && Date.now() < deadline) {
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }
  /** Sends one request in a single write and reads its answer (status, lowercased headers, body). */
  async send(data: string): Promise<{ status: number; headers: Record<string, string>; body: string } | undefined> {
    if (!this.closed) this.socket.write(data);
    const headEnd = () => this.buffer.indexOf('\r\n\r\n');
    await this.until(() => headEnd() >= 0, 3000);
    if (headEnd() < 0) return undefined;
    const head = this.buffer.subarray(0, headEnd()).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
    const length = Number(headers['content-length'] ?? 0);
    await this.until(() => this.buffer.length >= headEnd() + 4 + length, 3000);
    const body = this.buffer.subarray(headEnd() + 4, headEnd() + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(headEnd() + 4 + length);
    return { status: Number(head[0]!.split(' ')[1]), headers, body };
  }
  /** Whether the server closes the connection within `ms`. */
  async closesWithin(ms: number): Promise<boolean> {
    await this.until(() => false, ms);
    return this.closed;
  }
  destroy() {
    this.socket.destroy();
  }
}

describe('REST execution route: HTTP-level review', () => {
  // src/json-input/index.ts:47-51 + :65-68 — a body JSON.parse rejects with a message that quotes the text
  // goes to syntaxProblem(), whose jsonc-parser `parse` recurses once per nesting level before the depth
  // check (nestsDeeperThan) ever runs: 10,000 '[' (10 KB, far under SVC_MAX_REQUEST_BYTES) overflow the
  // stack, the RangeError is no EngineError, and the client gets 500 ENGINE_INTERNAL (logged as a fault).
  it('refuses deeply nested malformed JSON with 400 ENGINE_INVALID_INPUT, not 500 ENGINE_INTERNAL', async () => {
    const before = provider.requests.length;
    for (const text of [
      `{"operation":"demo-crm.contacts/get","input":${'['.repeat(10_000)}x`,
      `{"operation":"demo-crm.contacts/get","input":${'{"a":'.repeat(20_000)}x`,
    ]) {
      for (const path of [execPath(), `${execPath()}?via=koa`]) {
        const res = await post(path, jsonHeaders(text), text);
        expect(res.status, path).toBe(400);
        expect(res.body.error?.code, path).toBe('ENGINE_INVALID_INPUT');
        expect(res.body.error?.details?.field, path).toBe('body');
      }
    }
    expect(provider.requests.length).toBe(before);
    expect(t.logs.filter((l) => l.includes('Maximum call stack size exceeded'))).toEqual([]);
  });

  // src/server/index.ts readBody (:166-187) never looks at Content-Encoding: a gzip body is read as text
  // and refused as "body: not valid UTF-8" (the client is told its JSON is mis-encoded), and plain JSON
  // labelled gzip is dispatched to the provider as if the header were absent.
  it('does not read a Content-Encoding: gzip body as if it were plain JSON', async () => {
    const gz = gzipSync(callBody);
    const zipped = await post(execPath(), { ...jsonHeaders(gz), 'content-encoding': 'gzip' }, gz);
    // Either decoded and run, or refused for its content coding (naming it): never "not valid UTF-8".
    if (zipped.status !== 200) {
      expect(zipped.body.error?.message).not.toBe('body: not valid UTF-8');
      expect(zipped.body.error?.details?.field).toBe('content-encoding');
    } else expect(zipped.body.ok).toBe(true);

    const before = provider.requests.length;
    const mislabelled = await post(execPath(), { ...jsonHeaders(callBody), 'content-encoding': 'gzip' }, callBody);
    expect(provider.requests.length, 'bytes the client says are gzip were sent to the provider as plain JSON').toBe(before);
    expect(mislabelled.status).not.toBe(200);
  });

  // src/server/drain.ts:101-102 — DrainingResponse.writeHead closes the connection when `!req.complete`,
  // but Node emits 'request' (and runs the microtasks that produce these synchronous refusals) before it
  // parses a body that arrived in the same packet: a refused request received in full still gets
  // `Connection: close`, so a pooled keep-alive client reconnects after every 401/400 and any request
  // pipelined behind it is dropped unanswered.
  it('keeps a keep-alive connection open after refusing a request whose body it received in full', async () => {
    const refusals: [string, string, Record<string, string>][] = [
      ['malformed token', execPath(), { ...jsonHeaders(callBody), authorization: 'Bearer nope' }],
      ['no token', execPath(), { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(callBody)) }],
      ['invalid version ID', execPath('not-a-version'), jsonHeaders(callBody)],
      ['wrong Content-Type', execPath(), { ...jsonHeaders(callBody), 'content-type': 'text/plain' }],
    ];
    for (const [name, path, headers] of refusals) {
      const conn = await Connection.open(t.url);
      try {
        const refused = await conn.send(request('POST', path, headers, callBody));
        expect(refused?.status, name).toBeGreaterThanOrEqual(400);
        expect(refused?.headers.connection, name).toBe('keep-alive');
        const next = await conn.send(request('POST', execPath(), jsonHeaders(callBody), callBody));
        expect(next?.status, `${name}: the next request on the same connection`).toBe(200);
      } finally {
        conn.destroy();
      }
    }
  });

  // README "Read the envelope": `405 ENGINE_METHOD_NOT_ALLOWED (a method the route does not take; 501 for
  // a method HTTP does not know)`. TRACE is an HTTP method (RFC 9110 §9.3.8), but @koa/router's default
  // method list (src/server/index.ts:519, `new Router({ sensitive: true })`) lacks it, so allowedMethods
  // answers 501 "TRACE is not a method this Engine serves".
  it('answers TRACE on the execution path with 405 and Allow: POST, as for any HTTP method the route does not take', async () => {
    const conn = await Connection.open(t.url);
    try {
      const res = await conn.send(request('TRACE', execPath(), {}));
      expect(res?.status).toBe(405);
      expect(res?.headers.allow).toBe('POST');
      // Every Engine error says whether a provider was reached (README "Read the envelope").
      expect(JSON.parse(res!.body)).toMatchObject({ ok: false, status: 405, error: { code: 'ENGINE_METHOD_NOT_ALLOWED', details: { provider_execution: 'not_started' } } });
    } finally {
      conn.destroy();
    }
  });

  // src/server/drain.ts:135 — the drain's 503 ENGINE_UNAVAILABLE is written with its own header set,
  // which has Cache-Control: no-store but not X-Content-Type-Options: nosniff, which every other
  // answer of the route carries (writeResult :390, the Koa middleware :545).
  it('sends X-Content-Type-Options: nosniff with the 503 a draining Engine answers on an open connection', async () => {
    const e = await startTestEngine({ SVC_EXECUTE_BUDGET_MS: '3000' });
    const app = await publishSdk(e, { name: 'draining', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get'] });
    const idle = new Client(e.url, { pipelining: 1 });
    const busy = new Client(e.url, { pipelining: 1 });
    const call = (client: Client, contactId: string) =>
      client.request({
        method: 'POST',
        path: execPath(app.versionId),
        headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'demo-crm.contacts/get', input: { contact_id: contactId } }),
      });
    let stopping: Promise<void> | undefined;
    try {
      const warm = await call(idle, 'con_warm');
      expect(warm.statusCode).toBe(200);
      await warm.body.dump();
      delays.set('con_slowdrain', 800);
      const seen = provider.requests.length;
      const slow = call(busy, 'con_slowdrain').then(
        async (r) => (await r.body.dump(), r.statusCode),
        () => -1,
      );
      while (!provider.requests.slice(seen).some((q) => q.url.includes('con_slowdrain'))) await new Promise((r) => setTimeout(r, 10));
      stopping = e.stop();
      await new Promise((r) => setTimeout(r, 50));
      const refused = await call(idle, 'con_late');
      const text = await refused.body.text();
      expect(refused.statusCode).toBe(503);
      expect(JSON.parse(text).error.code).toBe('ENGINE_UNAVAILABLE');
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.headers['x-content-type-options']).toBe('nosniff');
      expect(await slow).toBe(200);
    } finally {
      await Promise.all([idle.destroy(), busy.destroy()]);
      await (stopping ?? e.stop());
    }
  });
});
