// The MCP server over Streamable HTTP, through the official SDK client and over raw HTTP with
// exact headers and statuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { initializeMessage, openSession, PROTOCOL, rawMcp } from '../fixtures/mcp.ts';

let t: TestEngine;
let server: { versionId: string; url: string; token: string };
let other: { versionId: string; url: string; token: string };

beforeAll(async () => {
  t = await startTestEngine();
  await t.api('PUT', '/v1/workspace/services/github', { version: 'v1' });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1' });
  server = (await t.api('POST', '/v1/mcp/publish', { name: 'agent', services: ['github=v1', 'demo-crm=v1'], operations: ['github=*', 'demo-crm=*'] })).body;
  other = (await t.api('POST', '/v1/mcp/publish', { name: 'other', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] })).body;
  t.canaries.push(server.token, other.token);
});
afterAll(async () => t.stop());

async function connect(token = server.token, url = server.url) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { client, transport };
}

const structured = (result: any) => result.structuredContent as any;

describe('MCP through the SDK client', () => {
  it('lists exactly two tools, within 3 KB', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toEqual(['search_docs', 'execute']);
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(3 * 1024);
    await client.close();
  });

  it('searches by intent, looks up exactly, browses, and reinitialises after DELETE', async () => {
    const { client, transport } = await connect();
    const intent = structured(await client.callTool({ name: 'search_docs', arguments: { query: 'create an issue in a github repository' } }));
    expect(intent.results).toHaveLength(3);
    expect(intent.results.map((r: any) => r.operationId)).toContain('github.issues/create');
    const five = structured(await client.callTool({ name: 'search_docs', arguments: { query: 'list repositories', limit: 5 } }));
    expect(five.results).toHaveLength(5);

    const exact = structured(await client.callTool({ name: 'search_docs', arguments: { operationId: 'github.repos/list-for-org' } }));
    expect(exact.pagination).toMatchObject({ supported: true, caller_bound_supported: true, engine_max_pages: 10 });
    expect(exact.schema_status.available_sections).toEqual(expect.arrayContaining(['parameters', 'response:200']));

    const section = structured(await client.callTool({ name: 'search_docs', arguments: { operationId: 'github.issues/create', section: 'request', schemaPath: '/schema/properties/title' } }));
    expect(section.sections.request).toHaveProperty('oneOf');
    expect(section.schema_status).toMatchObject({ complete: true, included_sections: ['request'] });

    const browse = structured(await client.callTool({ name: 'search_docs', arguments: { service: 'demo-crm' } }));
    expect(browse.total).toBe(9);
    expect(browse.truncated).toBe(false);
    const all = structured(await client.callTool({ name: 'search_docs', arguments: {} }));
    expect(all.total).toBeGreaterThan(900);
    expect(all.truncated).toBe(true);

    await transport.terminateSession();
    await expect(client.callTool({ name: 'search_docs', arguments: { query: 'x' } })).rejects.toThrow();
    await client.close();
    const again = await connect();
    expect((await again.client.listTools()).tools).toHaveLength(2);
    await again.client.close();
  });
});

describe('MCP over raw HTTP', () => {
  const mcp = () => rawMcp(server.url, server.token);
  /** initialize with a Host header of our choosing (fetch cannot set Host); resolves with the status. */
  const initializeWithHost = (host: string) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(server.url);
      const headers = { host, authorization: `Bearer ${server.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end(JSON.stringify(initializeMessage()));
    });

  it('initialize returns the session and protocol headers; the notification gets 202 with no body', async () => {
    const init = await mcp().post(initializeMessage());
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(init.headers.get('mcp-protocol-version')).toBe(PROTOCOL);
    expect(init.body.result.protocolVersion).toBe(PROTOCOL);
    const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL };
    const early = await mcp().post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers);
    expect(early.status).toBe(400);
    const ready = await mcp().post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    expect(ready.status).toBe(202);
    expect(ready.body).toBeUndefined();
    const list = await mcp().post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, headers);
    expect(list.status).toBe(200);
    expect(list.body.result.tools).toHaveLength(2);
    // Answers are framed by Content-Length, not chunked: the body is known before the head is written.
    for (const answer of [init, ready, list]) {
      expect(answer.headers.get('transfer-encoding')).toBeNull();
      expect(Number(answer.headers.get('content-length'))).toBe(answer.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(answer.body)));
    }
  });

  it('leaves the session waiting when its initialized notification is refused (wrong or missing protocol header, other token)', async () => {
    const init = await mcp().post(initializeMessage());
    const session = init.headers.get('mcp-session-id')!;
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL };
    const notify = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect((await mcp().post(notify, { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    expect((await mcp().post(notify, { 'mcp-session-id': session })).status).toBe(400);
    expect((await rawMcp(server.url, other.token).post(notify, headers)).status).toBeGreaterThanOrEqual(400);
    expect((await mcp().post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers)).status).toBe(400); // still not ready
    expect((await mcp().post(notify, headers)).status).toBe(202);
    expect((await mcp().post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, headers)).status).toBe(200);
  });

  it('refuses a Host header that does not form a URL with a 4xx, never a failure', async () => {
    expect(await initializeWithHost('[::1')).toBe(403); // not an allowed host here; with any host allowed, the URL check answers 400
  });

  it('negotiates 2025-11-25, 2025-06-18 and 2025-03-26, and answers an unknown version with the latest', async () => {
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
      const init = await mcp().post(initializeMessage(version));
      expect(init.headers.get('mcp-protocol-version')).toBe(version);
      expect(init.body.result.protocolVersion).toBe(version);
    }
    const unknown = await mcp().post(initializeMessage('2099-01-01'));
    expect(unknown.headers.get('mcp-protocol-version')).toBe('2025-11-25');
  });

  it('requires the session, and a protocol-version header naming a supported version (any, once negotiated)', async () => {
    const headers = await openSession(mcp());
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/list' };
    expect((await mcp().post(call, { 'mcp-protocol-version': PROTOCOL })).status).toBe(400);
    // A 2025-06-18 session: its client must send the header (that revision made it required).
    expect((await mcp().post(call, { 'mcp-session-id': headers['mcp-session-id']! })).status).toBe(400);
    const unsupported = await mcp().post(call, { ...headers, 'mcp-protocol-version': '1999-01-01' });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.error.message).toContain(`such as '${PROTOCOL}'`);
    expect((await mcp().post(call, headers)).status).toBe(200);
    // Another supported version is not unsupported: the conformance suite's SSE scenarios send
    // 2025-03-26 on a session that negotiated 2025-11-25. The session keeps its own version.
    expect((await mcp().post(call, { ...headers, 'mcp-protocol-version': '2025-03-26' })).status).toBe(200);
    expect((await mcp().post([call], { ...headers, 'mcp-protocol-version': '2025-03-26' })).status).toBe(400); // still no batches
  });

  it('serves a 2025-03-26 client, which sends no protocol-version header (it came with 2025-06-18)', async () => {
    const first = await mcp().post(initializeMessage('2025-03-26'));
    expect(first.status).toBe(200);
    const session = { 'mcp-session-id': first.headers.get('mcp-session-id')! };
    expect((await mcp().post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
    const list = await mcp().post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
    expect(list.status).toBe(200);
    expect(list.body.result.tools).toHaveLength(2);
    expect((await mcp().send('DELETE', session)).status).toBe(200);
  });

  it('answers an unknown or ended session with 404 and the recovery contract, free of session IDs and tokens', async () => {
    const headers = await openSession(mcp());
    const gone = await mcp().send('DELETE', headers);
    expect(gone.status).toBe(200);
    const after = await mcp().post({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, headers);
    expect(after.status).toBe(404);
    expect(after.body.error.data).toEqual({
      code: 'MCP_SESSION_UNAVAILABLE',
      recovery: { recovery_action: 'reinitialize_connection', execute_request: 'reformat_if_session_state_used', provider_execution: 'not_started', automatic_replay: false },
      guidance: expect.any(String),
    });
    const text = JSON.stringify(after.body);
    expect(text).not.toContain(headers['mcp-session-id']);
    expect(text).not.toContain(server.token);
    const unknown = await mcp().post({ jsonrpc: '2.0', id: 5, method: 'tools/list' }, { ...headers, 'mcp-session-id': crypto.randomUUID() });
    expect(unknown.status).toBe(404);
    // DELETE ends the session only: the token still opens a new one.
    expect((await mcp().post(initializeMessage())).status).toBe(200);
  });

  it('closes the connection after refusing an oversized message, so the next request on the pool is answered', async () => {
    const { Pool } = await import('undici');
    const pool = new Pool(new URL(server.url).origin, { connections: 1 });
    const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const path = new URL(server.url).pathname;
    try {
      const big = await pool.request({ method: 'POST', path, headers, body: JSON.stringify({ ...initializeMessage(), pad: 'x'.repeat(5 * 1024 * 1024) }) });
      expect(big.statusCode).toBeGreaterThanOrEqual(400);
      expect(big.statusCode).toBeLessThan(500);
      expect(big.headers.connection).toBe('close');
      await big.body.dump();
      const next = await pool.request({ method: 'POST', path, headers, body: JSON.stringify(initializeMessage()), headersTimeout: 5_000 });
      expect(next.statusCode).toBe(200);
      await next.body.dump();
    } finally {
      await pool.destroy();
    }
  });

  it('opens the SSE stream on GET', async () => {
    const headers = await openSession(mcp());
    const res = await fetch(server.url, { headers: { authorization: `Bearer ${server.token}`, accept: 'text/event-stream', ...headers }, signal: AbortSignal.timeout(2000) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    await res.body?.cancel();
  });

  // Every request checks its token, but a GET stream stays open: the sweep ends a session whose token died.
  it('ends the open SSE stream and the session of a token that is revoked or expires', async () => {
    const openStream = async (token: string) => {
      const headers = await openSession(rawMcp(server.url, token));
      const res = await fetch(server.url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers } });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const ended = (async () => {
        while (!(await reader.read()).done);
        return 'ended' as const;
      })().catch(() => 'ended' as const);
      return { headers, ended };
    };
    const stillOpen = (ended: Promise<'ended'>) => Promise.race([ended, new Promise<'open'>((r) => setTimeout(() => r('open'), 300))]);

    const revoked = await t.api('POST', '/v1/mcp/agent/tokens', { allow: ['*'] });
    const expiring = await t.api('POST', '/v1/mcp/agent/tokens', { allow: ['*'], expiresAt: new Date(Date.now() + 2500).toISOString() });
    const kept = await t.api('POST', '/v1/mcp/agent/tokens', { allow: ['*'] });
    t.canaries.push(revoked.body.token, expiring.body.token, kept.body.token);
    const streams = { revoked: await openStream(revoked.body.token), expiring: await openStream(expiring.body.token), kept: await openStream(kept.body.token) };

    await t.api('DELETE', `/v1/tokens/${revoked.body.id}`);
    await t.engine.deps.mcpGateway.sweep();
    expect(await stillOpen(streams.revoked.ended)).toBe('ended');
    expect(await stillOpen(streams.expiring.ended)).toBe('open');
    expect(await t.engine.deps.sessionState.hasSession(streams.revoked.headers['mcp-session-id']!)).toBe(false);

    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(expiring.body.expiresAt) - Date.now() + 100)));
    await t.engine.deps.mcpGateway.sweep();
    expect(await stillOpen(streams.expiring.ended)).toBe('ended');
    expect(await stillOpen(streams.kept.ended)).toBe('open');
    expect(await t.engine.deps.sessionState.hasSession(streams.kept.headers['mcp-session-id']!)).toBe(true);
    await rawMcp(server.url, kept.body.token).send('DELETE', streams.kept.headers);
    expect(await stillOpen(streams.kept.ended)).toBe('ended');
  });

  it('refuses missing, unknown, revoked and expired tokens (401), and another server\'s token (403)', async () => {
    const init = initializeMessage();
    const noToken = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(init) });
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get('www-authenticate')).toContain('Bearer');
    expect((await rawMcp(server.url, `svc_mcp_${'x'.repeat(43)}`).post(init)).status).toBe(401);
    expect((await rawMcp(server.url, other.token).post(init)).status).toBe(403);

    const revoked = await t.api('POST', '/v1/mcp/agent/tokens', { allow: ['*'] });
    t.canaries.push(revoked.body.token);
    const headers = await openSession(rawMcp(server.url, revoked.body.token));
    await t.api('DELETE', `/v1/tokens/${revoked.body.id}`);
    expect((await rawMcp(server.url, revoked.body.token).post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers)).status).toBe(401);

    const soon = await t.api('POST', '/v1/mcp/agent/tokens', { allow: ['*'], expiresAt: new Date(Date.now() + 1500).toISOString() });
    t.canaries.push(soon.body.token);
    expect((await rawMcp(server.url, soon.body.token).post(init)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    expect((await rawMcp(server.url, soon.body.token).post(init)).status).toBe(401);
  });

  it('refuses a session used with another token (403)', async () => {
    const headers = await openSession(mcp());
    const second = await t.api('POST', '/v1/mcp/agent/tokens', { allow: ['*'] });
    t.canaries.push(second.body.token);
    const hijack = await rawMcp(server.url, second.body.token).post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers);
    expect(hijack.status).toBe(403);
  });

  it('refuses a forbidden Origin and a rebinding Host (403), and accepts its own origin', async () => {
    expect((await mcp().post(initializeMessage(), { origin: 'http://evil.example' })).status).toBe(403);
    expect((await mcp().post(initializeMessage(), { origin: new URL(server.url).origin })).status).toBe(200);
    // A DNS-rebinding page reaches the Engine with its own host name.
    expect(await initializeWithHost('evil.example')).toBe(403);
  });

  it('on loopback, accepts loopback Origins and Hosts on any port, and no other name', async () => {
    // A browser client on the same machine, such as the MCP Inspector's UI on its own port.
    for (const origin of ['http://localhost:6274', 'http://127.0.0.1:6274', 'http://[::1]:3000', 'https://localhost']) {
      expect((await mcp().post(initializeMessage(), { origin })).status, origin).toBe(200);
    }
    for (const host of ['localhost:6277', '127.0.0.1:1', '127.1.2.3:8080', '[::1]:9999', 'LOCALHOST']) expect(await initializeWithHost(host), host).toBe(200);
    // Names that only look local, or resolve anywhere a rebinding page wants, are not loopback.
    for (const origin of ['http://localhost.evil.example:6274', 'http://127.0.0.1.nip.io', 'null', 'file://', 'chrome-extension://abc']) {
      expect((await mcp().post(initializeMessage(), { origin })).status, origin).toBe(403);
    }
    for (const host of ['localhost.evil.example', '127.0.0.1.nip.io:80', 'evil.example:8700']) expect(await initializeWithHost(host), host).toBe(403);
  });

  it('keeps nothing per session in the process: transports live only while they answer', async () => {
    const gateway = t.engine.deps.mcpGateway;
    const before = gateway.liveTransports;
    const headers = await openSession(mcp());
    for (let i = 0; i < 50; i++) expect((await mcp().post({ jsonrpc: '2.0', id: 100 + i, method: 'tools/list' }, headers)).status).toBe(200);
    expect(gateway.liveTransports).toBe(before);
    expect((await mcp().send('DELETE', headers)).status).toBe(200);
  });

  it('keeps the transitional /sse route working with a Deprecation header', async () => {
    const sse = rawMcp(`${server.url}/sse`, server.token);
    const init = await sse.post(initializeMessage());
    expect(init.status).toBe(200);
    expect(init.headers.get('deprecation')).toBe('true');
  });

  it('marks operations outside the token allowlist as not callable', async () => {
    const narrow = await t.api('POST', '/v1/mcp/agent/tokens', { allow: ['demo-crm.contacts/*'] });
    t.canaries.push(narrow.body.token);
    const { client } = await connect(narrow.body.token);
    const browse = structured(await client.callTool({ name: 'search_docs', arguments: { service: 'demo-crm' } }));
    const byId = Object.fromEntries(browse.operations.map((o: any) => [o.operationId, o.callable]));
    expect(byId['demo-crm.contacts/list']).toBe(true);
    expect(byId['demo-crm.deals/list']).toBe(false);
    await client.close();
  });
});
