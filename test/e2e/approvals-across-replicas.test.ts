// Approvals across replicas on one PostgreSQL database (issue 31 §3): an execute stopped for
// approval on one replica, approved through the other, re-runs there once; approvals live in the
// store, not in a replica's memory.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FakeProvider } from '../fixtures/fake-provider.ts';
import { ITEMS_OPERATIONS, startItemsProvider } from '../fixtures/items-provider.ts';
import { withMcpClient } from '../fixtures/providers/app.ts';
import { startReplicas, type Replica, type ReplicaSet } from '../fixtures/replicas.ts';

let set: ReplicaSet;
let a: Replica;
let b: Replica;
let provider: FakeProvider;
let server: { versionId: string; token: string };

beforeAll(async () => {
  set = await startReplicas({ replicas: 2, redis: false });
  [a, b] = set.replicas as [Replica, Replica];
  provider = await startItemsProvider({ api: (method, path, body) => set.api(a, method, path, body) });
  const published = await set.api(a, 'POST', '/v1/mcp/publish', { name: 'gated', services: ['items=v1'], operations: ITEMS_OPERATIONS.map((op) => `items=${op}`), requireApproval: ['destructive'] });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  server = published.body;
  set.canaries.push(server.token);
}, 120_000);
afterAll(async () => {
  await set?.stop();
  await provider?.stop();
});

const execute = (replica: Replica, code: string) =>
  withMcpClient({ url: `${replica.url}/mcp/${server.versionId}`, token: server.token }, async (client) => ((await client.callTool({ name: 'execute', arguments: { code } })) as any).structuredContent);

it('stops on one replica, is approved through the other, and re-runs there once', async () => {
  const code = `return await call('items.deleteItem', { id: 'r1' })`;
  const stop = await execute(a, code);
  expect(stop.code).toBe('MCP_APPROVAL_REQUIRED');
  const approved = await set.api(b, 'POST', `/v1/mcp/approvals/${stop.approval.id}/approve`);
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  expect(approved.body).toMatchObject({ id: stop.approval.id, server: 'gated', operation: 'items.deleteItem', approvedBy: expect.any(String) });
  const passed = await execute(b, code);
  expect(passed.result).toMatchObject({ ok: true, data: { method: 'DELETE', url: '/items/r1' } });
  expect((await execute(a, code)).code).toBe('MCP_APPROVAL_REQUIRED');
  expect(provider.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
}, 60_000);
