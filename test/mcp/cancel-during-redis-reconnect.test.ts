// An MCP cancellation that reaches replica B while replica A's Redis subscriber is reconnecting:
// pub/sub keeps nothing for a subscriber that is away, so B also records the cancellation in Redis
// and A checks the calls it runs against the record once its subscription is back, and when a call
// starts (src/retention/redis.ts). Two real Engines share a private redis-server
// (test/fixtures/redis-server.ts), so the test may cut their subscriber connections and refuse their
// reconnects (CONFIG SET maxclients) for as long as it needs without touching the shared Redis.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySessionStateStore } from '../../src/retention/index.ts';
import { CANCEL_TTL_MS, CANCELS_KEPT, RedisSessionStateStore } from '../../src/retention/redis.ts';
import { openSession, rawMcp, type RawMcp } from '../fixtures/mcp.ts';
import { cutSubscribers, startRedisServer, type RedisServer } from '../fixtures/redis-server.ts';
import { startReplicas, type Replica, type ReplicaSet } from '../fixtures/replicas.ts';

let redis: RedisServer;
let admin: Redis;
let maxclients: string;
let set: ReplicaSet;
let a: Replica;
let b: Replica;
let versionId: string;
let token: string;

beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  maxclients = String((await admin.config('GET', 'maxclients'))[1]);
  set = await startReplicas({ replicas: 2, env: { REDIS_URL: redis.url } });
  [a, b] = set.replicas as [Replica, Replica];
  // No script here calls the provider: nothing listens at its address.
  expect((await set.api(a, 'PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: 'http://127.0.0.1:9' })).status).toBe(200);
  const published = await set.api(a, 'POST', '/v1/mcp/publish', { name: 'cancels', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  ({ versionId, token } = published.body);
  set.canaries.push(token);
}, 120_000);
afterAll(async () => {
  await admin?.config('SET', 'maxclients', maxclients).catch(() => undefined);
  await set?.stop();
  admin?.disconnect();
  await redis?.stop();
}, 60_000);

const on = (replica: Replica): RawMcp => rawMcp(`${replica.url}/mcp/${versionId}`, token);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const callTool = (replica: Replica, headers: Record<string, string>, id: number, code: string) =>
  on(replica).post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'execute', arguments: { code } } }, headers);
const cancelOn = (replica: Replica, headers: Record<string, string>, requestId: number) =>
  on(replica).post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'user stopped it' } }, headers);
/** Runs on A until cancelled (or for 20 s), once it has stored session value `running` (so the test knows it runs). */
const LONG = (id: number) => `await session.set("running", ${id}); await sleep(20000); return 1`;
const running = async (headers: Record<string, string>, id: number) => (await admin.hget(`${set.redisKeyPrefix}ss:{${headers['mcp-session-id']}}:kv`, 'running')) === String(id);
/** Both replicas' subscriptions to the cancellation channel, as Redis counts them. */
const subscribers = async () => Number((await admin.pubsub('NUMSUB', `${set.redisKeyPrefix}mcp:cancel`))[1]);

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(25);
  }
}

/** Drops both replicas' subscriber connections until the returned function runs (test/fixtures/redis-server.ts). */
async function cutReplicaSubscribers(): Promise<() => Promise<void>> {
  const { dropped, listed, restore } = await cutSubscribers(admin);
  // Each replica subscribes twice: to cancellations (its session store) and to elicitations (its coordinator).
  expect([dropped, listed]).toEqual([4, 4]);
  return restore;
}

describe('an MCP cancellation while the Redis subscriber reconnects', () => {
  it('ends as cancelled an execute on A whose notifications/cancelled reached B while A heard nothing', async () => {
    const headers = await openSession(on(a));
    const pending = callTool(a, headers, 40, LONG(40));
    await until('the execute runs on A', () => running(headers, 40));

    const restore = await cutReplicaSubscribers();
    let cancelledAt = 0;
    try {
      expect(await subscribers()).toBe(0);
      cancelledAt = Date.now();
      expect((await cancelOn(b, headers, 40)).status).toBe(202);
      // Pub/sub delivered it to no one: A's call runs on.
      expect(await Promise.race([pending.then(() => 'answered'), sleep(1500).then(() => 'running')])).toBe('running');
    } finally {
      await restore();
    }

    // A's subscriber comes back (ioredis resubscribes it), A finds the recorded cancellation.
    const answered = await pending;
    expect(Date.now() - cancelledAt).toBeLessThan(10_000);
    expect(answered.status).toBe(200);
    expect(answered.body.result.structuredContent).toMatchObject({ code: 'MCP_EXECUTE_CANCELLED' });
    await until('both replicas subscribe again', async () => (await subscribers()) === 2);

    // What B recorded: one short-lived field under the session's keys, not holding the token.
    const recorded = await admin.keys(`${set.redisKeyPrefix}ss:{${headers['mcp-session-id']}}:cx`);
    expect(recorded).toHaveLength(1);
    const expiries = Object.values(await admin.hgetall(recorded[0]!)).map(Number);
    expect(expiries).toHaveLength(1);
    expect(expiries[0]! - Date.now()).toBeGreaterThan(20_000); // its own expiry, 35 s after the cancellation
    expect(await admin.pttl(recorded[0]!)).toBeGreaterThan(20_000);
    expect(await admin.pttl(recorded[0]!)).toBeLessThanOrEqual(35_000);
    for (const key of await admin.keys('*')) expect(key).not.toContain(token);
  }, 60_000);

  it('hears a cancellation published after the reconnect live: ioredis resubscribed', async () => {
    await until('both replicas subscribe again', async () => (await subscribers()) === 2);
    const headers = await openSession(on(a));
    const pending = callTool(a, headers, 41, LONG(41));
    await until('the execute runs on A', () => running(headers, 41));
    const started = Date.now();
    expect((await cancelOn(b, headers, 41)).status).toBe(202);
    const answered = await pending;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answered.body.result.structuredContent).toMatchObject({ code: 'MCP_EXECUTE_CANCELLED' });
  }, 60_000);

  it('cancels a call whose notifications/cancelled reached B before the call reached A', async () => {
    const headers = await openSession(on(a));
    expect((await cancelOn(b, headers, 42)).status).toBe(202);
    const started = Date.now();
    const answered = await callTool(a, headers, 42, LONG(42));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answered.body.result.structuredContent).toMatchObject({ code: 'MCP_EXECUTE_CANCELLED', recovery: { provider_execution: 'not_started' } });
    // Another request of the session, and the same id in another session, are not cancelled.
    expect((await callTool(a, headers, 43, 'return 1')).body.result.structuredContent).toEqual({ result: 1 });
    const other = await openSession(on(a));
    expect((await callTool(a, other, 42, 'return 2')).body.result.structuredContent).toEqual({ result: 2 });
  }, 60_000);
});

describe('recorded cancellations in the stores', () => {
  it('Redis finds a cancellation by session and request id (7 and "7" differ); memory records none', async () => {
    let now = Date.now();
    const store = await RedisSessionStateStore.open({ url: redis.url, keyPrefix: 'svc-test:cancel-store:', clock: { now: () => now } });
    const memory = new MemorySessionStateStore();
    try {
      const calls = [
        { sessionId: 's1', requestId: 7 },
        { sessionId: 's1', requestId: '7' },
        { sessionId: 's2', requestId: 7 },
        { sessionId: 's1', requestId: 'x'.repeat(10_000) },
      ];
      expect(await store.cancelled(calls)).toEqual([false, false, false, false]);
      await store.publishCancel('s1', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
      await store.publishCancel('s1', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'x'.repeat(10_000) } });
      await store.publishCancel('s1', { jsonrpc: '2.0', method: 'notifications/cancelled', params: {} });
      expect(await store.cancelled(calls)).toEqual([true, false, false, true]);
      expect(await store.cancelled([])).toEqual([]);
      // A key and fields of bounded length whatever the id.
      for (const key of await admin.keys('svc-test:cancel-store:*')) {
        expect(key.length).toBeLessThan(80);
        for (const field of await admin.hkeys(key)) expect(field.length).toBeLessThan(40);
      }
      // A client naming ever new ids: at most CANCELS_KEPT are kept per session; the earlier ones stay.
      for (let i = 0; i < CANCELS_KEPT + 50; i++) await store.publishCancel('s3', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: `flood-${i}` } });
      const [s3] = await admin.keys('svc-test:cancel-store:*{s3}*');
      expect(await admin.hlen(s3!)).toBe(CANCELS_KEPT);
      expect(await store.cancelled([{ sessionId: 's3', requestId: 'flood-0' }, { sessionId: 's3', requestId: `flood-${CANCELS_KEPT + 10}` }])).toEqual([true, false]);
      // 35 s on, those have expired (each on its own): none counts, and a new one finds room.
      now += CANCEL_TTL_MS + 1;
      expect(await store.cancelled([{ sessionId: 's3', requestId: 'flood-0' }])).toEqual([false]);
      await store.publishCancel('s3', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'late' } });
      expect(await store.cancelled([{ sessionId: 's3', requestId: 'late' }])).toEqual([true]);
      expect(await admin.hlen(s3!)).toBe(1);
      await memory.publishCancel('s1', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
      expect(await memory.cancelled(calls)).toEqual([false, false, false, false]);
    } finally {
      await store.close();
      await memory.close();
      const left = await admin.keys('svc-test:cancel-store:*');
      if (left.length) await admin.del(...left);
    }
  });
});
