// Locks shared by Engine replicas (src/coordination): the same contract in process and in Redis
// (127.0.0.1:6379 or SVC_TEST_REDIS_URL; never skips), exclusion between two coordinators on one
// prefix, owner-only release; and an OAuth refresh whose lock another replica holds: the caller
// waits up to SVC_OAUTH_REFRESH_WAIT_MS, then fails with a retryable error, never refreshing twice.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { LocalCoordinator, type Coordinator } from '../../src/coordination/index.ts';
import { RedisCoordinator } from '../../src/coordination/redis.ts';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { consent } from '../fixtures/oauth.ts';
import { TEST_REDIS_URL } from '../fixtures/replicas.ts';

const RUN = `svc-test:coordination:${randomUUID()}:`;
let admin: Redis;

beforeAll(async () => {
  admin = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  admin.on('error', () => {});
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(`Redis is not reachable at ${TEST_REDIS_URL} (${(err as Error).message}). .ci/run starts one on 127.0.0.1:6379; these tests never skip.`);
  }
});
afterAll(async () => {
  const keys = await admin.keys(`${RUN}*`);
  if (keys.length) await admin.del(...keys);
  await admin.quit();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function lockContract(kind: string, pair: () => Promise<[Coordinator, Coordinator, () => Promise<void>]>) {
  describe(`lock contract: ${kind}`, () => {
    it('grants a free lock once, to one holder, until it is released', async () => {
      const [one, two, close] = await pair();
      try {
        const lock = await one.tryAcquire('job', 10_000);
        expect(lock).not.toBeNull();
        expect(await one.tryAcquire('job', 10_000)).toBeNull();
        expect(await two.tryAcquire('job', 10_000)).toBeNull();
        expect(await two.tryAcquire('other-job', 10_000)).not.toBeNull();
        expect(await lock!.release()).toBe(true);
        expect(await lock!.release()).toBe(false);
        const next = await two.tryAcquire('job', 10_000);
        expect(next).not.toBeNull();
        await next!.release();
      } finally {
        await close();
      }
    });

    it('lets a lock expire after its TTL, and a late holder cannot release its successor', async () => {
      const [one, two, close] = await pair();
      try {
        const late = await one.tryAcquire('ttl', 80);
        expect(late).not.toBeNull();
        await sleep(150);
        const successor = await two.tryAcquire('ttl', 10_000);
        expect(successor).not.toBeNull();
        expect(await late!.release()).toBe(false);
        expect(await one.tryAcquire('ttl', 10_000)).toBeNull(); // still the successor's
        expect(await successor!.release()).toBe(true);
      } finally {
        await close();
      }
    });

    it('gives one lock to exactly one of many concurrent takers', async () => {
      const [one, two, close] = await pair();
      try {
        const takes = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).tryAcquire('race', 10_000)));
        expect(takes.filter((l) => l !== null)).toHaveLength(1);
        await takes.find((l) => l !== null)!.release();
      } finally {
        await close();
      }
    });

    it('counts hits per name in fixed windows shared by both holders, and starts over when a window ends', async () => {
      const [one, two, close] = await pair();
      try {
        const hits = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).hit('calls', 400)));
        expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        for (const h of hits) expect(h.resetInMs).toBeGreaterThan(0), expect(h.resetInMs).toBeLessThanOrEqual(400);
        expect((await one.hit('other', 400)).count).toBe(1);
        await sleep(450);
        expect((await two.hit('calls', 400)).count).toBe(1);
      } finally {
        await close();
      }
    });

    it('takes back a counted event in the open window, shared by every replica', async () => {
      const [one, two, close] = await pair();
      try {
        await one.unhit('taken'); // no window open: nothing to take back, and none is opened
        expect((await two.hit('taken', 400)).count).toBe(1);
        await two.hit('taken', 400);
        await one.unhit('taken');
        const seen = await two.hit('taken', 400);
        expect(seen.count).toBe(2);
        expect(seen.resetInMs).toBeGreaterThan(0);
        expect(seen.resetInMs).toBeLessThanOrEqual(400);
        for (let i = 0; i < 4; i++) await one.unhit('taken'); // never below zero
        expect((await two.hit('taken', 400)).count).toBe(1);
        await sleep(450);
        await one.unhit('taken'); // the window ended: the next hit opens a new one at 1
        expect((await two.hit('taken', 400)).count).toBe(1);
      } finally {
        await close();
      }
    });

    it('delivers a published message to every subscriber of its channel, the publisher included, and to no other channel', async () => {
      const [one, two, close] = await pair();
      try {
        const heard: string[] = [];
        await one.subscribe('news', (m) => heard.push(`one:${m}`));
        await two.subscribe('news', (m) => heard.push(`two:${m}`));
        await two.subscribe('other', (m) => heard.push(`other:${m}`));
        await two.subscribe('news', () => {
          throw new Error('a listener that fails'); // reaches neither the publisher nor the other listeners
        });
        await one.publish('news', 'hello');
        await one.publish('nobody-listens', 'lost');
        for (let i = 0; i < 100 && heard.length < 2; i++) await sleep(10);
        await sleep(50); // nothing more arrives
        expect(heard.sort()).toEqual(['one:hello', 'two:hello']);
      } finally {
        await close();
      }
    });
  });
}

// In process, both "holders" share one coordinator: that is all the embedded default has.
lockContract('in process', async () => {
  const local = new LocalCoordinator();
  return [local, local, () => local.close()];
});

// Two coordinators on one Redis and prefix, as on two replicas.
lockContract('Redis', async () => {
  const keyPrefix = `${RUN}${randomUUID()}:`;
  const one = await RedisCoordinator.open({ url: TEST_REDIS_URL, keyPrefix });
  const two = await RedisCoordinator.open({ url: TEST_REDIS_URL, keyPrefix });
  return [one, two, async () => void (await Promise.all([one.close(), two.close()]))];
});

describe('RedisCoordinator', () => {
  it('keeps its locks under its key prefix, so two prefixes never exclude each other', async () => {
    const keyPrefix = `${RUN}${randomUUID()}:`;
    const one = await RedisCoordinator.open({ url: TEST_REDIS_URL, keyPrefix });
    const other = await RedisCoordinator.open({ url: TEST_REDIS_URL, keyPrefix: `${RUN}${randomUUID()}:` });
    try {
      const lock = await one.tryAcquire('oauth-refresh:con_1', 5_000);
      expect(await admin.pttl(`${keyPrefix}lock:oauth-refresh:con_1`)).toBeGreaterThan(4_000);
      expect(await other.tryAcquire('oauth-refresh:con_1', 5_000)).not.toBeNull();
      await lock!.release();
      expect(await admin.exists(`${keyPrefix}lock:oauth-refresh:con_1`)).toBe(0);
      await expect(one.ping()).resolves.toBeUndefined();
    } finally {
      await Promise.all([one.close(), other.close()]);
    }
  });

  it('refuses to open on a Redis that does not answer, and fails fast once closed', async () => {
    await expect(RedisCoordinator.open({ url: 'redis://127.0.0.1:1' })).rejects.toThrow(/Redis does not answer at REDIS_URL/);
    const closed = await RedisCoordinator.open({ url: TEST_REDIS_URL, keyPrefix: `${RUN}closed:` });
    await closed.close();
    await expect(closed.ping()).rejects.toMatchObject({ code: 'CLOSED' });
    await expect(closed.tryAcquire('x', 1000)).rejects.toMatchObject({ code: 'CLOSED' });
    await expect(closed.publish('x', 'm')).rejects.toMatchObject({ code: 'CLOSED' });
    await expect(closed.subscribe('x', () => undefined)).rejects.toMatchObject({ code: 'CLOSED' });
  });
});

describe('OAuth refresh while another replica holds the refresh lock', () => {
  const CLIENT_SECRET = 'coordination-oauth-secret-canary';
  const keyPrefix = `${RUN}engine:`;
  let crm: DemoProvider;
  let t: TestEngine;
  let sdk: { versionId: string; token: string };

  beforeAll(async () => {
    crm = await startDemoProvider({ oauth: { clients: { 'svc-coord': CLIENT_SECRET } } });
    t = await startTestEngine({ REDIS_URL: TEST_REDIS_URL, SVC_REDIS_KEY_PREFIX: keyPrefix, SVC_OAUTH_REFRESH_WAIT_MS: '600' });
    t.canaries.push(CLIENT_SECRET);
    sdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: crm.apiKey, operations: ['account/get'] });
    expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-coord', clientSecret: CLIENT_SECRET })).status).toBe(204);
    const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'erin' });
    expect((await consent(started.body.authorizeUrl, 'erin@crm')).status).toBe(200);
  });
  afterAll(async () => {
    await t?.stop();
    await crm?.stop();
  });

  const account = () => t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, selectors: { endUserRef: 'erin' } });
  async function expire() {
    const row = (await t.engine.store.getConnection('demo-crm', 'erin', 'default'))!;
    await t.engine.store.updateConnectionTokens(row.id, row.generation, { tokens: row.tokens, status: row.status, accessExpiresAt: new Date(Date.now() - 1000).toISOString(), updatedAt: row.updatedAt });
    return row.id;
  }

  it('waits for the holder, then fails with a retryable error naming the wait, without refreshing', async () => {
    const id = await expire();
    const before = crm.oauth.tokenRequests.refresh_token;
    // Another replica's lock: same key, another owner token, alive for longer than the wait.
    await admin.set(`${keyPrefix}lock:oauth-refresh:${id}`, 'another-replica', 'PX', 30_000);
    try {
      const started = Date.now();
      const res = await account();
      expect(Date.now() - started).toBeGreaterThanOrEqual(550);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_REFRESH_FAILED', retryable: true });
      expect(res.body.error.message).toBe("another Engine replica is refreshing the demo-crm connection of 'erin' and did not finish within 600 ms; retry the call");
      expect(crm.oauth.tokenRequests.refresh_token).toBe(before);
      // The holder's lock is left alone.
      expect(await admin.get(`${keyPrefix}lock:oauth-refresh:${id}`)).toBe('another-replica');
    } finally {
      await admin.del(`${keyPrefix}lock:oauth-refresh:${id}`);
    }
    const retried = await account();
    expect(retried.body).toMatchObject({ ok: true, data: { account: 'erin@crm', via: 'oauth' } });
    expect(crm.oauth.tokenRequests.refresh_token).toBe(before + 1);
    expect(await admin.exists(`${keyPrefix}lock:oauth-refresh:${id}`)).toBe(0); // released after the refresh
  });

  it("uses the holder's tokens as soon as they are written, without refreshing itself", async () => {
    const id = await expire();
    await admin.set(`${keyPrefix}lock:oauth-refresh:${id}`, 'another-replica', 'PX', 30_000);
    const before = crm.oauth.tokenRequests.refresh_token;
    try {
      const pending = account();
      await sleep(100);
      // While the call waits, a fresh token set lands in the row under a newer generation (here a
      // new consent through the real authorization server, as another writer would).
      const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'erin' });
      expect((await consent(started.body.authorizeUrl, 'erin@crm')).status).toBe(200);
      const res = await pending;
      expect(res.body).toMatchObject({ ok: true, data: { account: 'erin@crm', via: 'oauth' } });
      expect(crm.oauth.tokenRequests.refresh_token).toBe(before);
    } finally {
      await admin.del(`${keyPrefix}lock:oauth-refresh:${id}`);
    }
  });
});
