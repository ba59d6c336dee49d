// One MCP token holds at most SVC_MCP_SESSIONS_PER_TOKEN open sessions: each may keep megabytes of
// snapshots and session.set values, and a client that reconnects without DELETE (or a hostile one
// that keeps sending initialize) must not grow the Engine's memory without bound. A session in use
// (a request within SVC_MCP_SESSION_IN_USE_MS) is never closed to make room: the least recently
// used idle one goes, and when none is idle the initialize gets 429 with Retry-After and a recovery
// contract. Other tokens' sessions are untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { initializeMessage, openSession, rawMcp } from '../fixtures/mcp.ts';
import { runFleet } from '../fixtures/mcp-fleet.ts';

const CAP = 16;
const IN_USE_MS = 5_000;
let t: TestEngine;
let server: { url: string; token: string };

beforeAll(async () => {
  t = await startTestEngine({ SVC_MCP_SESSIONS_PER_TOKEN: String(CAP), SVC_MCP_SESSION_IN_USE_MS: String(IN_USE_MS) });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: 'http://127.0.0.1:9' }); // never called here
  server = (await t.api('POST', '/v1/mcp/publish', { name: 'limits', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
  t.canaries.push(server.token);
});
afterAll(async () => {
  await t?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ping = (mcp: ReturnType<typeof rawMcp>, headers: Record<string, string>) => mcp.post({ jsonrpc: '2.0', id: 9, method: 'ping' }, headers);

describe('sessions per token', () => {
  it('refuses an initialize with 429, Retry-After and a recovery contract while every session is in use, then closes the least recently used idle one', async () => {
    const mcp = rawMcp(server.url, server.token);
    const narrowed = await t.api('POST', '/v1/mcp/limits/tokens', { allow: ['demo-crm.contacts/get'] });
    expect(narrowed.status).toBe(201);
    t.canaries.push(narrowed.body.token);
    const other = rawMcp(server.url, narrowed.body.token);
    const otherSession = await openSession(other);
    const sessions = [];
    for (let i = 0; i < CAP; i++) sessions.push(await openSession(mcp));

    const full = await mcp.post(initializeMessage());
    expect(full.status).toBe(429);
    const wait = Number(full.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(5);
    expect(full.headers.get('mcp-session-id')).toBeNull();
    expect(full.body.error.message).toMatch(/limit of 16 open MCP sessions and every one is in use/);
    expect(full.body.error.data).toEqual({
      code: 'MCP_SESSION_LIMIT',
      recovery: { recovery_action: 'retry_later', execute_request: 'unchanged', provider_execution: 'not_started', automatic_replay: true },
      retry_after_ms: expect.any(Number),
      limit: CAP,
    });
    for (const headers of sessions) expect((await ping(mcp, headers)).status).toBe(200);

    // Once the in-use time has passed, a value in the oldest session and requests on all but the
    // second: the second is the least recently used idle one, and the only one to go.
    await sleep(IN_USE_MS + 100);
    const stored = await mcp.post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'execute', arguments: { code: 'await session.set("k", "v"); return 1' } } }, sessions[0]!);
    expect(stored.body.result.structuredContent).toEqual({ result: 1 });
    for (const headers of sessions.slice(2)) expect((await ping(mcp, headers)).status).toBe(200);
    const newest = await openSession(mcp);
    const evicted = await ping(mcp, sessions[1]!);
    expect(evicted.status).toBe(404);
    expect(evicted.body.error.data.code).toBe('MCP_SESSION_UNAVAILABLE');
    for (const headers of [sessions[0]!, ...sessions.slice(2), newest]) expect((await ping(mcp, headers)).status).toBe(200);
    const kept = await mcp.post({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'execute', arguments: { code: 'return await session.get("k")' } } }, sessions[0]!);
    expect(kept.body.result.structuredContent).toEqual({ result: 'v' });
    expect((await ping(other, otherSession)).status).toBe(200);
    await Promise.all([...sessions, newest].map((headers) => mcp.send('DELETE', headers)));
  }, 90_000);

});

describe('sessions per token, a fleet of SDK clients', () => {
  // A longer in-use time than above: on a busy machine a client may pause for seconds between its
  // initialize and its next request, and here every session is in use until its client ends it.
  let fleetEngine: TestEngine;
  let fleetServer: { url: string; token: string };
  beforeAll(async () => {
    fleetEngine = await startTestEngine({ SVC_MCP_SESSIONS_PER_TOKEN: String(CAP), SVC_MCP_SESSION_IN_USE_MS: '30000' });
    await fleetEngine.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: 'http://127.0.0.1:9' });
    fleetServer = (await fleetEngine.api('POST', '/v1/mcp/publish', { name: 'fleet', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
    fleetEngine.canaries.push(fleetServer.token);
  });
  afterAll(async () => {
    await fleetEngine?.stop();
  });

  it(`serves 40 SDK clients on one token over a cap of ${CAP} with no error and no live session closed`, async () => {
    // Before, each initialize past the cap closed the token's oldest session, in use or not, and its
    // client's next call failed with MCP_SESSION_UNAVAILABLE (test/fixtures/mcp-fleet.ts).
    const fleet = await runFleet({ urls: [fleetServer.url], token: fleetServer.token, clients: 40, stintMs: 1_500, thinkMs: 200 });
    expect(fleet.errors).toEqual([]);
    expect(fleet.executes).toBeGreaterThan(40);
    expect(fleet.refused).toBeGreaterThan(0); // the cap was reached: newcomers waited rather than closing live sessions
  }, 120_000);
});
