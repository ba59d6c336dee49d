// One MCP token holds at most MAX_SESSIONS_PER_TOKEN open sessions: each may keep megabytes of
// snapshots and session.set values, and a client that reconnects without DELETE (or a hostile one
// that keeps sending initialize) must not grow the Engine's memory without bound. A new session
// closes the token's oldest; other tokens' sessions are untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SESSIONS_PER_TOKEN } from '../../src/mcp/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { openSession, rawMcp } from '../fixtures/mcp.ts';

let t: TestEngine;
let server: { url: string; token: string };

beforeAll(async () => {
  t = await startTestEngine();
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: 'http://127.0.0.1:9' }); // never called here
  server = (await t.api('POST', '/v1/mcp/publish', { name: 'limits', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
  t.canaries.push(server.token);
});
afterAll(async () => {
  await t?.stop();
});

const ping = (mcp: ReturnType<typeof rawMcp>, headers: Record<string, string>) => mcp.post({ jsonrpc: '2.0', id: 9, method: 'ping' }, headers);

describe('sessions per token', () => {
  it('closes a token\'s oldest session when it opens one past the limit, and no other token\'s', async () => {
    const mcp = rawMcp(server.url, server.token);
    const narrowed = await t.api('POST', '/v1/mcp/limits/tokens', { allow: ['demo-crm.contacts/get'] });
    expect(narrowed.status).toBe(201);
    t.canaries.push(narrowed.body.token);
    const other = rawMcp(server.url, narrowed.body.token);
    const otherSession = await openSession(other);
    // A value in the session that will be closed: released with it.
    const sessions = [];
    for (let i = 0; i < MAX_SESSIONS_PER_TOKEN; i++) sessions.push(await openSession(mcp));
    const stored = await mcp.post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'execute', arguments: { code: 'await session.set("k", "v"); return 1' } } }, sessions[0]!);
    expect(stored.body.result.structuredContent).toEqual({ result: 1 });
    for (const headers of sessions) expect((await ping(mcp, headers)).status).toBe(200);

    const newest = await openSession(mcp);
    const oldest = await ping(mcp, sessions[0]!);
    expect(oldest.status).toBe(404);
    expect(oldest.body.error.data.code).toBe('MCP_SESSION_UNAVAILABLE');
    for (const headers of [...sessions.slice(1), newest]) expect((await ping(mcp, headers)).status).toBe(200);
    expect((await ping(other, otherSession)).status).toBe(200);
  });
});
