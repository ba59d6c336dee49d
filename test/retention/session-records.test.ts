// MCP session records in Redis, found by review: the same operations against MemorySessionStateStore
// and RedisSessionStateStore (127.0.0.1:6379, or SVC_TEST_REDIS_URL) must agree, and the token's
// session index must outlive the sessions it counts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { MemorySessionStateStore, type SessionStateStore } from '../../src/retention/index.ts';
import { RedisSessionStateStore } from '../../src/retention/redis.ts';
import { ManualClock } from './session-state-store.contract.ts';

const REDIS_URL = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const RUN = `svc-review:${randomUUID()}:`;
let n = 0;
const nextPrefix = () => `${RUN}${n++}:`;
let admin: Redis;

beforeAll(async () => {
  admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  await admin.ping();
});
afterAll(async () => {
  const left: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await admin.scan(cursor, 'MATCH', `${RUN}*`, 'COUNT', 1000);
    cursor = next;
    left.push(...batch);
  } while (cursor !== '0');
  if (left.length) await admin.del(...left);
  await admin.quit();
});

const record = { versionId: 'ver_01', tokenId: 'tok_01', protocolVersion: '2025-06-18', ready: false, elicitation: false };

/** Both stores on one manual clock; `run` gets each in turn and its results are compared. */
async function both<T>(run: (store: SessionStateStore, clock: ManualClock) => Promise<T>, idleMs?: number): Promise<{ memory: T; redis: T }> {
  const memClock = new ManualClock();
  const memory = new MemorySessionStateStore(memClock, idleMs);
  const redisClock = new ManualClock();
  const redis = new RedisSessionStateStore({ url: REDIS_URL, keyPrefix: nextPrefix(), clock: redisClock, ...(idleMs ? { idleTtlMs: idleMs } : {}) });
  try {
    return { memory: await run(memory, memClock), redis: await run(redis, redisClock) };
  } finally {
    await memory.close();
    await redis.close();
  }
}

describe('session records: memory and Redis agree', () => {
  // Found by review: RedisSessionStateStore.openSession orders a token's sessions by a millisecond score, ties broken by session ID, so it can close the session it is opening (redis.ts:280-291).
  it('never closes the session being opened when openings share a millisecond', async () => {
    const results = await both(async (store) => {
      const cap = { perToken: 1, inUseMs: 0 };
      expect(await store.openSession('sess-z', record, cap)).toEqual({ opened: true, closed: [] });
      const outcome = await store.openSession('sess-a', record, cap); // same clock reading as sess-z
      return { outcome, newOpen: await store.hasSession('sess-a'), oldOpen: await store.hasSession('sess-z') };
    });
    expect(results.memory).toEqual({ outcome: { opened: true, closed: ['sess-z'] }, newOpen: true, oldOpen: false });
    expect(results.redis).toEqual(results.memory);
  });

  // Found by review: RedisSessionStateStore raises the session idle time to at least 5 minutes (redis.ts:251); the memory store honours SVC_MCP_SESSION_IDLE_MS as given.
  it('expires an idle session after the configured idle time on both stores', async () => {
    const idleMs = 60_000;
    const results = await both(async (store, clock) => {
      await store.openSession('s1', record);
      clock.t += idleMs + 1_000;
      return store.hasSession('s1');
    }, idleMs);
    expect(results.memory).toBe(false);
    expect(results.redis).toBe(results.memory);
  });
});

describe('Redis per-token session index', () => {
  // Found by review: the token's session index (tok:<token>) expires 2 x idle after the token's last initialize (redis.ts:281), while its sessions live on as long as they are used, so an active session drops out of the token's session count.
  it('lives at least as long as every open session it counts', async () => {
    const clock = new ManualClock();
    const prefix = nextPrefix();
    const store = new RedisSessionStateStore({ url: REDIS_URL, keyPrefix: prefix, clock });
    try {
      const idle = 30 * 60 * 1000;
      await store.openSession('long-lived', record, { perToken: 16, inUseMs: 60_000 });
      // The client keeps using the session: a request every 20 minutes for 80 minutes.
      for (let i = 0; i < 4; i++) {
        clock.t += 20 * 60 * 1000;
        expect(await store.touchSession('long-lived')).toBeDefined();
      }
      const sessionTtl = await admin.pttl(`${prefix}ss:{long-lived}:ses`);
      const indexTtl = await admin.pttl(`${prefix}tok:tok_01`);
      expect(sessionTtl).toBeGreaterThan(idle); // the session is open for another 30 minutes of store time
      expect(indexTtl).toBeGreaterThanOrEqual(sessionTtl);
    } finally {
      await store.release('long-lived');
      await store.close();
    }
  });
});
