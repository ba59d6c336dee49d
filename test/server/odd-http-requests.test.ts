// The HTTP layer under odd but legal requests (found by review): the fast path and Koa answer alike,
// client resets stay out of stderr, Expect: 100-continue is honoured after the checks, paths are case-sensitive.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect } from 'node:net';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { openSession, rawMcp } from '../fixtures/mcp.ts';

const SECRET = 'http-layer-review-key-71c2';
let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  provider = await startFakeProvider((_req, res) => json(res, 200, { id: 'con_1', name: 'Ada' }));
  t = await startTestEngine({ SVC_MAX_REQUEST_BYTES: '4096' });
  sdk = await publishSdk(t, { name: 'review', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get'] });
});

afterAll(async () => {
  await t?.stop();
  await provider?.stop();
});

interface RawResult {
  /** Everything the server sent, as Latin-1 text. */
  text: string;
  /** The status of each response (1xx included), in order. */
  statuses: number[];
  /** Header blocks of each response, lowercased names. */
  heads: Record<string, string>[];
}

/** Writes `data` on a fresh connection (optionally ending with FIN) and collects what comes back until close or `waitMs`. */
function raw(url: string, data: string, options: { waitMs?: number; fin?: boolean } = {}): Promise<RawResult> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const statuses = [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
      const heads = text
        .split(/^(?=HTTP\/1\.1 \d{3})/m)
        .filter(Boolean)
        .map((block) => {
          const head: Record<string, string> = {};
          for (const line of block.split('\r\n\r\n')[0]!.split('\r\n').slice(1)) {
            const i = line.indexOf(':');
            if (i > 0) head[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
          }
          return head;
        });
      resolve({ text, statuses, heads });
    };
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', done);
    socket.on('connect', () => {
      socket.write(data);
      if (options.fin) socket.end();
      timer = setTimeout(done, options.waitMs ?? 1000);
    });
  });
}

/** Writes `data`, then resets the connection (RST) after `afterMs`. */
function resetAfter(url: string, data: string, afterMs = 100): Promise<void> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.write(data);
      setTimeout(() => {
        socket.resetAndDestroy();
        resolve();
      }, afterMs);
    });
    socket.on('error', () => undefined);
  });
}

const callBody = JSON.stringify({ operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' } });
const execPath = (versionId = sdk.versionId) => `/v1/apps/${versionId}/executions`;
const request = (method: string, path: string, headers: Record<string, string>, body = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n${body}`;
const jsonHeaders = (body: string, token = sdk.token) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(body)),
  connection: 'close',
});

describe('fast path and Koa answer the same refusal with the same headers', () => {
  // Found by review: src/server/index.ts:503-510 — the Koa error middleware never sets Cache-Control: no-store (only the success branch at :314 does), while the fast path's writeResult (:358) always does.
  it('sends Cache-Control: no-store on a refused execution whichever path serves it', async () => {
    const cases: [string, string, Record<string, string>, string][] = [
      ['bad token', execPath(), { ...jsonHeaders(callBody), authorization: 'Bearer nope' }, callBody],
      ['unknown version', execPath('ver_01HZZZZZZZZZZZZZZZZZZZZZZZ'), jsonHeaders(callBody), callBody],
      ['schema violation', execPath(), jsonHeaders('{"input":{}}'), '{"input":{}}'],
      ['wrong content type', execPath(), { ...jsonHeaders(callBody), 'content-type': 'text/plain' }, callBody],
    ];
    for (const [name, path, headers, body] of cases) {
      const fast = await raw(t.url, request('POST', path, headers, body));
      const koa = await raw(t.url, request('POST', `${path}?via=koa`, headers, body));
      expect(fast.statuses, name).toEqual(koa.statuses);
      expect(fast.heads[0]!['cache-control'], name).toBe('no-store');
      expect(koa.heads[0]!['cache-control'], `${name} (Koa path)`).toBe('no-store');
    }
  });
});

describe('a client that goes away mid-request', () => {
  // Found by review: src/server/index.ts:480-515 — the Koa app has no 'error' listener and is not `silent`, so Koa's default onerror console.error()s a raw stack for every client reset/parse error on a Koa-served route (the fast path logs nothing), outside the structured log.
  it('does not make the Engine print a raw stack trace to stderr', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const partial = request('POST', `${execPath()}?via=koa`, { ...jsonHeaders(callBody), 'content-length': '500' }, callBody);
      await resetAfter(t.url, partial);
      await raw(t.url, partial, { fin: true, waitMs: 300 });
      await new Promise((r) => setTimeout(r, 200));
      expect(printed.mock.calls.map((c) => String(c[0]).trim().split('\n')[0])).toEqual([]);
    } finally {
      printed.mockRestore();
    }
  });
});

describe('Expect: 100-continue', () => {
  // Found by review: src/engine/start.ts — no 'checkContinue' handler, so Node answers 100 Continue to every request before the Engine has checked the token or the declared Content-Length; the client is invited to upload a body the Engine then refuses unread (and cuts the connection).
  it('refuses a body declared past the limit, or a bad token, without first inviting the upload', async () => {
    const tooLarge = await raw(t.url, request('POST', execPath(), { ...jsonHeaders(callBody), 'content-length': '5000000', expect: '100-continue' }));
    expect(tooLarge.statuses).toEqual([413]);
    const badToken = await raw(t.url, request('POST', execPath(), { ...jsonHeaders(callBody), authorization: 'Bearer nope', expect: '100-continue' }));
    expect(badToken.statuses).toEqual([401]);
  });

  it('invites the upload of a request it accepts, then answers it', async () => {
    const u = new URL(t.url);
    const socket = connect(Number(u.port), u.hostname);
    socket.on('error', () => undefined);
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    await new Promise((r) => socket.once('connect', r));
    socket.write(request('POST', execPath(), { ...jsonHeaders(callBody), expect: '100-continue' }));
    for (let i = 0; i < 100 && !text.includes('100 Continue'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n$/);
    socket.write(callBody);
    for (let i = 0; i < 200 && !text.includes('"ok":true'); i++) await new Promise((r) => setTimeout(r, 10));
    socket.destroy();
    expect(text).toMatch(/HTTP\/1\.1 200 OK[\s\S]*"ok":true/);
  });
});

describe('a form route', () => {
  // Found by review: src/server/index.ts:154 and :167 — the "body required" refusal always says "a JSON request body", also on the form route POST /signin.
  it('does not call an empty form body a missing JSON body', async () => {
    const res = await raw(t.url, request('POST', '/signin', { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0', connection: 'close' }));
    expect(res.statuses).toEqual([400]);
    expect(res.text).toContain('"field":"body"');
    expect(res.text).not.toContain('JSON');
  });
});

describe('graceful shutdown with an MCP event stream open', () => {
  // Found by review: src/server/drain.ts:40 — isEventStream matches the raw URL prefix '/mcp/' case-sensitively, but the Koa router is case-insensitive, so GET /MCP/{id} opens a real SSE stream that the drain counts as a request in flight: stop() waits the whole budget and reports it abandoned.
  it('opens no stream on a differently-cased path, so shutdown waits for nothing', async () => {
    const e = await startTestEngine({ SVC_EXECUTE_BUDGET_MS: '100' });
    let socket: ReturnType<typeof connect> | undefined;
    try {
      await e.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: 'http://127.0.0.1:9' });
      const server = (await e.api('POST', '/v1/mcp/publish', { name: 'drainy', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
      e.canaries.push(server.token);
      const session = await openSession(rawMcp(server.url, server.token));
      const u = new URL(server.url);
      socket = connect(Number(u.port), u.hostname);
      socket.on('error', () => undefined);
      const head: Buffer[] = [];
      socket.on('data', (c: Buffer) => head.push(c));
      await new Promise((r) => socket!.once('connect', r));
      socket.write(
        request('GET', u.pathname.replace('/mcp/', '/MCP/'), {
          authorization: `Bearer ${server.token}`,
          accept: 'text/event-stream',
          'mcp-session-id': session['mcp-session-id']!,
          'mcp-protocol-version': session['mcp-protocol-version']!,
        }).replace('Host: 127.0.0.1', `Host: ${u.host}`),
      );
      await new Promise((r) => setTimeout(r, 300));
      // Paths are case-sensitive, as on the fast path: no stream is opened on /MCP/.
      expect(Buffer.concat(head).toString()).toMatch(/^HTTP\/1\.1 404/);
    } finally {
      await e.stop();
      socket?.destroy();
    }
    const drained = e.logs.map((l) => JSON.parse(l) as { msg?: string; abandoned?: number; inFlightAtStart?: number }).find((l) => l.msg === 'drained');
    expect(drained).toMatchObject({ inFlightAtStart: 0, abandoned: 0 });
  });
});

describe('a client that trickles its request', () => {
  // Found by review: only keepAliveTimeout was set, so a client could hold a socket for Node's 60 s (headers) / 300 s (request).
  it('is cut off with 408 once the headers or the whole request take too long; a prompt one is served', async () => {
    const e = await startTestEngine({ SVC_HTTP_HEADERS_TIMEOUT_MS: '400', SVC_HTTP_REQUEST_TIMEOUT_MS: '1200' });
    try {
      const started = Date.now();
      const headers = await raw(e.url, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', { waitMs: 5000 });
      expect(headers.statuses).toEqual([408]);
      expect(Date.now() - started).toBeLessThan(3000);
      // An authorised request whose body never completes.
      const body = await raw(e.url, request('PUT', '/v1/workspace/services/demo-crm', { authorization: `Bearer ${e.cliToken}`, 'content-type': 'application/json', 'content-length': '100' }, '{"vers'), { waitMs: 5000 });
      expect(body.statuses).toEqual([408]);
      expect((await fetch(`${e.url}/healthz`)).status).toBe(200);

      // A request received in full is not timed: an MCP GET stream stays open past both limits.
      await e.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: 'http://127.0.0.1:9' });
      const server = (await e.api('POST', '/v1/mcp/publish', { name: 'streamy', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
      e.canaries.push(server.token);
      const session = await openSession(rawMcp(server.url, server.token));
      const stream = await fetch(server.url, { headers: { authorization: `Bearer ${server.token}`, accept: 'text/event-stream', ...session } });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      const ended = reader.read().then(() => 'ended' as const, () => 'ended' as const);
      expect(await Promise.race([ended, new Promise((r) => setTimeout(() => r('open'), 2500))])).toBe('open');
      await reader.cancel();
    } finally {
      await e.stop();
    }
  }, 20_000);
});
