// The per-token session cap across two Engine processes sharing one Redis (and one PostgreSQL):
// 40 official SDK clients on one token, half on each replica, over a cap of 16. The cap is counted
// across replicas, and a session in use on one replica is never closed by an initialize on the
// other: every replica sees when it was last used, and a request running longer than
// SVC_MCP_SESSION_IN_USE_MS keeps it in use as it runs (test/fixtures/mcp-fleet.ts). Which idle
// session goes is the store's contract (test/retention/session-state-store.contract.ts, on Redis too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFleet } from '../fixtures/mcp-fleet.ts';
import { startReplicas, type Replica, type ReplicaSet } from '../fixtures/replicas.ts';

const CAP = 16;
let set: ReplicaSet;
let urls: string[];
let token: string;

beforeAll(async () => {
  set = await startReplicas({ replicas: 2, env: { SVC_MCP_SESSIONS_PER_TOKEN: String(CAP), SVC_MCP_SESSION_IN_USE_MS: '30000' } });
  const [a] = set.replicas as [Replica, Replica];
  expect((await set.api(a, 'PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: 'http://127.0.0.1:9' })).status).toBe(200);
  const published = await set.api(a, 'POST', '/v1/mcp/publish', { name: 'fleet', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  token = published.body.token;
  set.canaries.push(token);
  urls = set.replicas.map((r) => `${r.url}/mcp/${published.body.versionId}`);
}, 120_000);
afterAll(async () => {
  await set?.stop();
}, 60_000);

describe('sessions per token over two replicas', () => {
  it(`serves 40 SDK clients on one token over a cap of ${CAP} with no error and no live session closed`, async () => {
    const fleet = await runFleet({ urls, token, clients: 40, stintMs: 1_500, thinkMs: 200 });
    expect(fleet.errors).toEqual([]);
    expect(fleet.executes).toBeGreaterThan(40);
    expect(fleet.refused).toBeGreaterThan(0);
  }, 180_000);
});
