// MCP sessions across two Engine processes sharing one PostgreSQL database and one Redis prefix
// (test/fixtures/replicas.ts): a session opened on A is continued on B — an execute that calls the
// provider, session.page of a snapshot A stored — and DELETEd on B, after which A answers 404
// MCP_SESSION_UNAVAILABLE. No sticky routing: every request names its replica explicitly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { openSession, rawMcp, type RawMcp } from '../fixtures/mcp.ts';
import { startReplicas, type Replica, type ReplicaSet } from '../fixtures/replicas.ts';

const SECRET = 'mcp-replicas-secret-canary';

let set: ReplicaSet;
let a: Replica;
let b: Replica;
let provider: FakeProvider;
let versionId: string;
let token: string;

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => json(res, 200, { data: [{ id: 'con_1', seen: req.headers.authorization === `Bearer ${SECRET}` }], next_cursor: null }));
  set = await startReplicas({ replicas: 2 });
  [a, b] = set.replicas as [Replica, Replica];
  set.canaries.push(SECRET);
  expect((await set.api(a, 'PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url })).status).toBe(200);
  expect((await set.api(b, 'PUT', '/v1/buckets/default/secrets/demo-crm', { value: SECRET })).status).toBe(204);
  const published = await set.api(a, 'POST', '/v1/mcp/publish', { name: 'roaming', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  ({ versionId, token } = published.body);
  set.canaries.push(token);
}, 120_000);
afterAll(async () => {
  await set?.stop();
  await provider?.stop();
}, 60_000);

const on = (replica: Replica): RawMcp => rawMcp(`${replica.url}/mcp/${versionId}`, token);

async function execute(replica: Replica, headers: Record<string, string>, code: string, id: number) {
  const res = await on(replica).post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'execute', arguments: { code } } }, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.structuredContent;
}

describe('an MCP session over two replicas', () => {
  it('is opened on A, used on B for an execute and for paging A\'s snapshot, DELETEd on B, then gone on A', async () => {
    const headers = await openSession(on(a));

    // A stores a result too large for the output budget.
    const stored = await execute(a, headers, 'return { rows: Array.from({ length: 3000 }, (_, i) => ({ id: i, label: "row " + i })) }', 2);
    expect(stored.code).toBe('MCP_RESULT_STORED');
    expect(stored.result_ref).toMatch(/^res_/);

    // B runs an execute that calls the provider with the workspace secret, in the same session.
    const called = await execute(b, headers, 'const r = await call("demo-crm.contacts/list", {}); return r.data', 3);
    expect(called).toEqual({ result: { data: [{ id: 'con_1', seen: true }], next_cursor: null } });

    // B pages the snapshot A made, and reads a session.set value A wrote.
    await execute(a, headers, 'await session.set("cursor", 2990); return "ok"', 4);
    const page = await execute(b, headers, `const offset = await session.get("cursor"); return await session.page(${JSON.stringify(stored.result_ref)}, { path: "/rows", offset })`, 5);
    expect(page.result.items.map((r: { id: number }) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => 2990 + i));

    // tools/list works on either replica without re-initialising.
    for (const replica of [a, b]) {
      const listed = await on(replica).post({ jsonrpc: '2.0', id: 6, method: 'tools/list' }, headers);
      expect(listed.body.result.tools.map((t: { name: string }) => t.name)).toEqual(['search_docs', 'execute']);
    }

    expect((await on(b).send('DELETE', headers)).status).toBe(200);
    for (const replica of [a, b]) {
      const after = await on(replica).post({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, headers);
      expect(after.status).toBe(404);
      expect(after.body.error.data).toMatchObject({ code: 'MCP_SESSION_UNAVAILABLE', recovery: { recovery_action: 'reinitialize_connection' } });
    }
    expect(provider.requests.length).toBe(1);
  });

  it('cancels on A an execute whose notifications/cancelled reached B', async () => {
    const headers = await openSession(on(a));
    const started = Date.now();
    const pending = on(a).post({ jsonrpc: '2.0', id: 40, method: 'tools/call', params: { name: 'execute', arguments: { code: 'await sleep(20000); return 1' } } }, headers);
    await new Promise((r) => setTimeout(r, 500));
    const cancel = await on(b).post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 40, reason: 'user stopped it' } }, headers);
    expect(cancel.status).toBe(202);
    const answered = await pending;
    expect(Date.now() - started).toBeLessThan(10_000);
    // The call still answers (its HTTP request ends), with the cancellation's recovery contract.
    expect(answered.status).toBe(200);
    expect(answered.body.result.structuredContent).toMatchObject({ code: 'MCP_EXECUTE_CANCELLED', recovery: { provider_execution: 'not_started', automatic_replay: false } });
  });

  it('refuses on B a session opened on A with another token of the same server (403), and an unknown session (404)', async () => {
    const headers = await openSession(on(a));
    const second = await set.api(a, 'POST', '/v1/mcp/roaming/tokens', { allow: ['*'] });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    set.canaries.push(second.body.token);
    const other = rawMcp(`${b.url}/mcp/${versionId}`, second.body.token);
    expect((await other.post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers)).status).toBe(403);
    expect((await on(b).post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { ...headers, 'mcp-session-id': crypto.randomUUID() })).status).toBe(404);
  });
});
