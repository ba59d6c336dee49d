// The SessionStateStore contract against Redis (127.0.0.1:6379, or SVC_TEST_REDIS_URL), then what
// only a shared store has: two stores on one Redis behave as two replicas of one session, the limits
// hold under concurrent writes from both, Redis' own expiry settles the index, and an Engine with
// REDIS_URL keeps MCP snapshots there and releases them on DELETE. Never skips: with no Redis, it fails.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RESULT_UNAVAILABLE_GUIDANCE, SESSION_BYTES_LIMIT, SNAPSHOT_LIMIT, SNAPSHOT_TTL_MS, pageOf, type Clock } from '../../src/retention/index.ts';
import { RedisSessionStateStore } from '../../src/retention/redis.ts';
import { metrics } from '../../src/metrics/index.ts';
import { ManualClock, sessionStateStoreContract } from './session-state-store.contract.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

const REDIS_URL = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Every key this run writes starts with it; each store gets its own prefix below it. */
const RUN = `svc-test:${randomUUID()}:`;
let n = 0;
const nextPrefix = () => `${RUN}${n++}:`;

let admin: Redis;
const keys = async (pattern: string): Promise<string[]> => {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await admin.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    found.push(...batch);
  } while (cursor !== '0');
  return found.sort();
};

beforeAll(async () => {
  admin = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let cause: Error | undefined;
  admin.on('error', (err: Error) => (cause ??= err));
  try {
    await admin.connect();
    await admin.ping();
  } catch (err) {
    throw new Error(`Redis is not reachable at ${REDIS_URL} (${(cause ?? (err as Error)).message}). .ci/run starts one on 127.0.0.1:6379; these tests never skip.`);
  }
});
afterAll(async () => {
  if (admin?.status !== 'ready') return;
  const left = await keys(`${RUN}*`);
  if (left.length) await admin.del(...left);
  await admin.quit();
});

const redisStore = (clock: Clock, keyPrefix = nextPrefix()) => new RedisSessionStateStore({ url: REDIS_URL, keyPrefix, clock });

describe('RedisSessionStateStore', () => {
  sessionStateStoreContract((clock) => redisStore(clock));
});

describe('RedisSessionStateStore and svc_snapshot_bytes', () => {
  const held = async () => Number(/^svc_snapshot_bytes (\S+)$/m.exec(await metrics.text())?.[1] ?? 'NaN');

  it("takes an abandoned session's snapshots back out of the gauge once Redis has expired its keys", async () => {
    const clock = new ManualClock();
    clock.t = Date.now() - SNAPSHOT_TTL_MS - 60_000; // the store's clock: its keys' expiry time is already past in Redis
    const prefix = nextPrefix();
    const store = new RedisSessionStateStore({ url: REDIS_URL, keyPrefix: prefix, clock, idleTtlMs: SNAPSHOT_TTL_MS });
    try {
      const before = await held();
      const sessionId = randomUUID();
      const stored = await store.putSnapshot(sessionId, JSON.stringify('h'.repeat(30_000)));
      expect(await held()).toBe(before + stored.bytes);
      expect(await keys(`${prefix}*`)).toEqual([]); // Redis expired the keys by itself; nothing read them since
      expect(await store.expireIdleSessions()).toEqual([]);
      expect(await held()).toBe(before);
    } finally {
      await store.close();
    }
  });
});

describe('RedisSessionStateStore across replicas', () => {
  /** Two stores, as on two Engine replicas, sharing one Redis and one prefix (and one clock). */
  async function replicas() {
    const clock = new ManualClock();
    const prefix = nextPrefix();
    const a = redisStore(clock, prefix);
    const b = redisStore(clock, prefix);
    return { clock, prefix, a, b, close: () => Promise.all([a.close(), b.close()]) };
  }

  it('continues a session on another replica: read, page, session.set, release', async () => {
    const { prefix, a, b, close } = await replicas();
    const doc = { data: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `n${i}` })) };
    const put = await a.putSnapshot('sess', JSON.stringify(doc));
    expect(await a.getSnapshot('sess', put.ref)).toEqual(doc); // A now holds the parsed value
    const page = pageOf(await b.getSnapshot('sess', put.ref), { path: '/data', fields: ['id'], offset: 10 }, 1024);
    expect(page.items[0]).toEqual({ id: 10 });
    await b.setValue('sess', 'k', '{"v":1}');
    expect(await a.getValue('sess', 'k')).toBe('{"v":1}');
    expect(await a.usage('sess')).toEqual({ snapshots: 1, snapshotBytes: put.bytes, valueBytes: 1 + 7 });

    await b.release('sess');
    // A's cached parse is never served once Redis no longer has the snapshot.
    const err = (await a.getSnapshot('sess', put.ref).catch((e: unknown) => e)) as { code: string; message: string };
    expect(err).toMatchObject({ code: 'MCP_RESULT_UNAVAILABLE' });
    expect(err.message).toContain(RESULT_UNAVAILABLE_GUIDANCE);
    expect(await a.getValue('sess', 'k')).toBeUndefined();
    expect(await keys(`${prefix}*`)).toEqual([]);
    await close();
  });

  it('enforces 16 snapshots and 4 MiB per session under concurrent writes from two replicas', async () => {
    const { prefix, a, b, close } = await replicas();
    const size = 300 * 1024; // 13 fit in 4 MiB, so bytes bind before the count does
    const puts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).putSnapshot('busy', JSON.stringify(`${String(i).padStart(3, '0')}${'x'.repeat(size - 5)}`))),
    );
    const evicted = new Set(puts.flatMap((p) => p.evicted));
    const kept = puts.filter((p) => !evicted.has(p.ref));
    expect(evicted.size + kept.length).toBe(40); // every snapshot is either kept or reported evicted exactly once
    expect(puts.flatMap((p) => p.evicted)).toHaveLength(evicted.size);
    const usage = await a.usage('busy');
    expect(usage.snapshots).toBe(kept.length);
    expect(usage.snapshots).toBeLessThanOrEqual(SNAPSHOT_LIMIT);
    expect(usage.snapshotBytes).toBe(kept.length * size);
    expect(usage.snapshotBytes).toBeLessThanOrEqual(SESSION_BYTES_LIMIT);
    expect(Math.floor(SESSION_BYTES_LIMIT / size)).toBe(kept.length); // the newest that fit, no fewer
    for (const p of kept) expect(await b.getSnapshot('busy', p.ref)).toHaveLength(size - 2);
    // The index and the text keys hold exactly the kept snapshots.
    expect((await admin.zrange(`${prefix}ss:{busy}:ix`, '0', '-1')).sort()).toEqual(kept.map((p) => p.ref).sort());
    expect((await keys(`${prefix}ss:{busy}:r:*`)).length).toBe(kept.length);

    // Small snapshots from both replicas at once: the count limit holds too.
    const small = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).putSnapshot('many', `[${i}]`)));
    expect((await b.usage('many')).snapshots).toBe(SNAPSHOT_LIMIT);
    expect(small.flatMap((p) => p.evicted)).toHaveLength(40 - SNAPSHOT_LIMIT);
    await a.release('busy');
    await a.release('many');
    await close();
  });

  it('closes only what is over the cap when two replicas open sessions of one token at once, one clock behind', async () => {
    // Replica B's clock is 5 s behind, so its new session scores as the token's oldest. Each opening
    // used to read the index, then close its own view's oldest: together they closed one too many.
    const cap = { perToken: 3, inUseMs: 0 };
    const prefix = nextPrefix();
    const clockA = new ManualClock();
    const clockB = new ManualClock();
    clockB.t = clockA.t - 5_000;
    const a = redisStore(clockA, prefix);
    const b = redisStore(clockB, prefix);
    const record = { versionId: 'ver_1', tokenId: 'tok_cap', protocolVersion: '2025-06-18', ready: true, elicitation: false };
    for (let round = 0; round < 10; round++) {
      const token = { ...record, tokenId: `tok_cap_${round}` };
      for (const id of ['s1', 's2', 's3']) {
        clockA.t += 1;
        await a.openSession(`r${round}-${id}`, token, cap);
      }
      const [fromA, fromB] = (await Promise.all([a.openSession(`r${round}-a`, token, cap), b.openSession(`r${round}-b`, token, cap)])).map((o) => (o.opened ? o.closed : ['refused']));
      const ids = ['s1', 's2', 's3', 'a', 'b'].map((id) => `r${round}-${id}`);
      const open = (await Promise.all(ids.map((id) => a.hasSession(id)))).filter(Boolean).length;
      expect({ round, open, closed: new Set([...fromA!, ...fromB!]).size }).toEqual({ round, open: 3, closed: 2 });
    }
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps the text under a key that Redis expires at the snapshot’s expiry, and session keys under an idle TTL', async () => {
    const { clock, prefix, a, close } = await replicas();
    const put = await a.putSnapshot('ttl', '{"a":1}');
    await a.setValue('ttl', 'k', '1');
    const textKey = `${prefix}ss:{ttl}:r:${put.ref}`;
    expect(await admin.pexpiretime(textKey)).toBe(put.expiresAt);
    expect(put.expiresAt).toBe(clock.t + SNAPSHOT_TTL_MS);
    for (const k of ['st', 'ix', 'kv']) expect(await admin.pttl(`${prefix}ss:{ttl}:${k}`)).toBeGreaterThan(SNAPSHOT_TTL_MS);
    // The key holds exactly the text; another session's keys hold nothing of it.
    expect(await admin.get(textKey)).toBe('{"a":1}');
    expect(await keys(`${prefix}ss:{other}:*`)).toEqual([]);
    await a.release('ttl');
    await close();
  });

  it('drops an index entry whose text Redis already expired, and stops counting its bytes', async () => {
    const { prefix, a, b, close } = await replicas();
    const gone = await a.putSnapshot('exp', JSON.stringify('y'.repeat(1000)));
    const kept = await a.putSnapshot('exp', '[1]');
    await admin.del(`${prefix}ss:{exp}:r:${gone.ref}`); // as Redis does at PEXPIREAT
    expect(await b.usage('exp')).toEqual({ snapshots: 1, snapshotBytes: kept.bytes, valueBytes: 0 });
    await expect(b.getSnapshot('exp', gone.ref)).rejects.toMatchObject({ code: 'MCP_RESULT_UNAVAILABLE' });
    expect(await b.getSnapshot('exp', kept.ref)).toEqual([1]);
    await b.release('exp');
    await close();
  });

  it('refuses malformed refs and keeps odd session IDs apart', async () => {
    const { a, close } = await replicas();
    const odd = ['a}:st', 'a', '{a}', 'a:r:x', 'ü'];
    const puts = await Promise.all(odd.map((id) => a.putSnapshot(id, JSON.stringify(id))));
    for (const [i, id] of odd.entries()) {
      expect(await a.getSnapshot(id, puts[i]!.ref)).toBe(id);
      for (const [j, other] of odd.entries()) if (j !== i) await expect(a.getSnapshot(other, puts[i]!.ref)).rejects.toMatchObject({ code: 'MCP_RESULT_UNAVAILABLE' });
    }
    await expect(a.getSnapshot('a', 'res_*')).rejects.toMatchObject({ code: 'MCP_RESULT_UNAVAILABLE' });
    for (const id of odd) await a.release(id);
    await close();
  });

  it('fails, not hangs, when Redis is unreachable at start', async () => {
    const started = Date.now();
    await expect(RedisSessionStateStore.open({ url: 'redis://127.0.0.1:1' })).rejects.toThrow(/Redis does not answer/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('an Engine with REDIS_URL', () => {
  let t: TestEngine;
  let provider: FakeProvider;
  let server: { url: string; token: string };
  const prefix = nextPrefix();

  beforeAll(async () => {
    provider = await startFakeProvider((req, res) => json(res, 200, { data: [] }));
    t = await startTestEngine({ REDIS_URL, SVC_REDIS_KEY_PREFIX: prefix });
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
    await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: 'redis-e2e-secret' });
    server = (await t.api('POST', '/v1/mcp/publish', { name: 'kept', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] })).body;
    t.canaries.push('redis-e2e-secret', server.token);
  });
  afterAll(async () => {
    await t?.stop();
    await provider?.stop();
  });

  it('stores snapshots of an MCP session in Redis, pages them, and releases them on DELETE', async () => {
    expect(t.engine.deps.sessionState).toBeInstanceOf(RedisSessionStateStore);
    const client = new Client({ name: 'redis-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } });
    await client.connect(transport);
    const execute = async (args: Record<string, unknown>) => ((await client.callTool({ name: 'execute', arguments: args })) as any).structuredContent;

    const stored = await execute({ code: 'return { rows: Array.from({ length: 2000 }, (_, i) => ({ id: i, label: "row " + i })) }' });
    expect(stored.code).toBe('MCP_RESULT_STORED');
    const sessionId = transport.sessionId!;
    expect(await keys(`${prefix}ss:{${sessionId}}:r:*`)).toEqual([`${prefix}ss:{${sessionId}}:r:${stored.result_ref}`]);
    const page = await execute({ code: `return await session.page(${JSON.stringify(stored.result_ref)}, { path: "/rows", offset: 1990 })` });
    expect(page.result.items.map((r: { id: number }) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => 1990 + i));
    expect(await execute({ code: 'await session.set("note", { a: 1 }); return await session.get("note")' })).toEqual({ result: { a: 1 } });

    await transport.terminateSession();
    await client.close();
    expect(await keys(`${prefix}*`)).toEqual([]);
  });
});
