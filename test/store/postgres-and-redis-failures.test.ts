// PostgreSQL and Redis under hostile input and failures (found by review): values a UTF-8 or NUL-free store cannot keep, a dropped connection, a stalled publish.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { MasterKeyError, SecretVault } from '../../src/credentials/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/postgres.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { TEST_REDIS_URL } from '../fixtures/replicas.ts';
import { PostgresStore } from '../../src/store/postgres.ts';
import { Redis } from 'ioredis';
import { MemorySessionStateStore } from '../../src/retention/index.ts';
import { RedisSessionStateStore } from '../../src/retention/redis.ts';

describe('Engine on PostgreSQL: values PostgreSQL cannot hold', () => {
  let db: TestDatabase;
  let t: TestEngine;
  let crm: DemoProvider;
  let uni: { versionId: string; token: string };
  let plain: { versionId: string; token: string };
  let other: { versionId: string; token: string };

  beforeAll(async () => {
    db = await createTestDatabase();
    crm = await startDemoProvider();
    t = await startTestEngine({}, undefined, { databaseUrl: db.url });
    t.canaries.push(crm.apiKey);
    expect((await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url })).status).toBe(200);
    expect((await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey })).status).toBe(204);
    expect((await t.api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: 'http://127.0.0.1:9' })).status).toBe(200);
    const pub = async (name: string, services: string[], operations: string[]) => {
      const res = await t.api('POST', '/v1/sdks/publish', { name, services, operations });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      t.canaries.push(res.body.token);
      return { versionId: res.body.versionId as string, token: res.body.token as string };
    };
    uni = await pub('uni', ['demo-crm=v1', 'github=v1'], ['unified=tasks.create', 'demo-crm=tasks/create']);
    plain = await pub('tenant-a', ['demo-crm=v1'], ['demo-crm=contacts/get']);
    other = await pub('tenant-b', ['demo-crm=v1'], ['demo-crm=contacts/get']);
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await crm?.stop();
    await db?.drop();
  });

  // BUG: an idempotencyKey holding NUL was accepted by validation but PostgreSQL TEXT refuses it: HTTP 500.
  it('refuses a Unified call whose idempotencyKey holds a NUL with a 400 naming the field', async () => {
    const res = await t.execute(uni.versionId, uni.token, { operation: 'unified.tasks.create', input: { title: 'nul key' }, targets: ['crm'], idempotencyKey: 'order-1\u0000' });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'idempotencyKey' } });
  });

  // BUG: idempotency keys differing only in an unpaired surrogate both became U+FFFD in PostgreSQL: the second call was a replay (SQLite kept them apart).
  it('refuses idempotency keys with unpaired surrogates, which a UTF-8 store cannot keep apart', async () => {
    const body = { operation: 'unified.tasks.create', input: { title: 'surrogate' }, targets: ['crm'] };
    const before = crm.tasks.length;
    // Refused, naming the field, before anything is dispatched: no store could keep the two apart.
    for (const key of ['k-\ud800', 'k-\udbff']) {
      const res = await t.execute(uni.versionId, uni.token, { ...body, idempotencyKey: key });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.details.field).toBe('idempotencyKey');
    }
    // The same refusal for a Unified call made inside an MCP script or over gRPC (shared validation).
    expect(() => t.engine.deps.unified.validate({ surface: 'mcp', versionId: uni.versionId, tokenId: null, services: new Map([['demo-crm', 'v1'], ['github', 'v1']]), admits: () => true, resultCapBytes: 1 << 20 }, 'unified.tasks.create', { input: body.input, targets: body.targets, idempotencyKey: 'k-\ud800' })).toThrow(/idempotencyKey must hold visible ASCII characters only/);
    expect(crm.tasks.length - before).toBe(0);
  });

  // BUG: one caller's operation name with a NUL made the batched receipt INSERT fail, losing other tenants' receipts.
  it("keeps tenant A's receipt when tenant B's refused call (operation name with NUL) lands in the same batch", async () => {
    for (let round = 0; round < 5; round++) {
      const [good, bad] = await Promise.all([
        t.execute(plain.versionId, plain.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0001' } }),
        t.execute(other.versionId, other.token, { operation: 'demo-crm.contacts/get\u0000', input: {} }),
      ]);
      expect(good.body).toMatchObject({ ok: true });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.field).toBe('operation');
    }
    const receipts = await t.api('GET', `/v1/versions/${plain.versionId}/receipts?limit=10`);
    expect(receipts.body.receipts).toHaveLength(5);
    // A refusal recorded with such a name (as an MCP script's call() of it is) keeps its receipt, and its batch.
    t.engine.deps.activity.record({ versionId: other.versionId, operation: 'demo-crm.contacts/get\u0000\ud800', surface: 'mcp', tokenId: null, startedAt: new Date().toISOString(), providerDurationMs: 0, pages: 0, status: 404, ok: false, bytes: 0, sha256: null, errorCode: 'ENGINE_UNKNOWN_OPERATION' });
    await t.execute(plain.versionId, plain.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0001' } });
    expect((await t.api('GET', `/v1/versions/${plain.versionId}/receipts?limit=10`)).body.receipts).toHaveLength(6);
    const refused = (await t.api('GET', `/v1/versions/${other.versionId}/receipts?limit=10`)).body.receipts;
    expect(refused.map((r: { operation: string }) => r.operation)).toContain('demo-crm.contacts/get\ufffd\ufffd');
  });
});

describe('an Engine whose publish waits on another replica\'s publish lock', () => {
  // BUG: publishes waiting on pg_advisory_xact_lock hold pooled connections with no lock timeout: every other request starves, then 500.
  it('keeps serving executions while publishes of one app wait behind a stalled publish', async () => {
    const db = await createTestDatabase();
    const crm = await startDemoProvider();
    const t = await startTestEngine({ SVC_DB_POOL_SIZE: '2' }, undefined, { databaseUrl: db.url });
    t.canaries.push(crm.apiKey);
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      expect((await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url })).status).toBe(200);
      expect((await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey })).status).toBe(204);
      const app = await t.api('POST', '/v1/sdks/publish', { name: 'reader', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] });
      t.canaries.push(app.body.token);
      // Another replica stalls (GC pause, frozen node) inside its publish of 'stuck': it holds the app's publish lock.
      const key = createHash('sha256').update('svc-engine:publish:sdk:stuck').digest().readBigInt64BE(0).toString();
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [key]);
      const waiting = [1, 2].map(() => t.api('POST', '/v1/sdks/publish', { name: 'stuck', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] }).catch(() => null));
      await new Promise((r) => setTimeout(r, 300));
      const started = Date.now();
      const res = await t.execute(app.body.versionId, app.body.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0001' } });
      const tookMs = Date.now() - started;
      await holder.query('COMMIT');
      await Promise.all(waiting);
      expect(res.body, `after ${tookMs} ms`).toMatchObject({ ok: true });
      expect(tookMs).toBeLessThan(5_000);
    } finally {
      await holder.end().catch(() => {});
      await t.stop();
      await crm.stop();
      await db.drop();
    }
  }, 60_000);
});

describe('a PostgreSQL connection that dies inside a transaction', () => {
  // BUG: transaction() held a checked-out pg client with no 'error' listener: a dropped backend crashed the process
  // (here the test worker: an unhandled 'error' event ends it, and the run reports the crash).
  it('fails that write and leaves the store working', async () => {
    const db = await createTestDatabase();
    const store = await PostgresStore.open(db.url);
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      // The publish's INSERT waits on this table lock, inside its transaction.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE sdk_versions IN ACCESS EXCLUSIVE MODE');
      const version = { versionId: `ver_${'0'.repeat(25)}1`, name: 'blocked', version: '1.0.0', services: ['demo-crm=v1'], operations: ['demo-crm.contacts/get'], createdAt: new Date().toISOString() };
      const publishing = store.publishVersion('sdk', version, null).then(() => 'published', (err: Error) => err);
      let pid: number | undefined;
      for (let i = 0; i < 200 && pid === undefined; i++) {
        const rows = (await holder.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`)).rows;
        pid = rows[0]?.pid;
        if (pid === undefined) await new Promise((r) => setTimeout(r, 25));
      }
      expect(pid).toBeDefined();
      await holder.query('SELECT pg_terminate_backend($1)', [pid]);
      expect(await publishing).toBeInstanceOf(Error);
      await holder.query('ROLLBACK');
      await new Promise((r) => setTimeout(r, 200));
      // The pool dropped the dead connection: the same publish goes through now.
      await store.publishVersion('sdk', { ...version, versionId: `ver_${'0'.repeat(25)}2` }, null);
      expect((await store.getVersion('sdk', `ver_${'0'.repeat(25)}2`))?.name).toBe('blocked');
    } finally {
      await holder.end().catch(() => undefined);
      await store.close();
      await db.drop();
    }
  }, 60_000);
});

describe('replicas started together with different master keys', () => {
  // Found by review: each read no key check, each wrote one (ON CONFLICT DO NOTHING), and every replica started.
  it('accepts exactly one key: the one whose check landed', async () => {
    const db = await createTestDatabase();
    const stores = await Promise.all([1, 2, 3].map(() => PostgresStore.open(db.url)));
    try {
      const vaults = stores.map((store) => new SecretVault(randomBytes(32), store));
      const outcomes = await Promise.allSettled(vaults.map((v) => v.verifyKey()));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes.filter((o) => o.status === 'rejected')) expect((o as PromiseRejectedResult).reason).toBeInstanceOf(MasterKeyError);
      // A later start with the accepted key still passes.
      const accepted = vaults[outcomes.findIndex((o) => o.status === 'fulfilled')]!;
      await accepted.verifyKey();
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await db.drop();
    }
  });
});

describe('session.set values in Redis', () => {
  // BUG: session.set keys differing only in an unpaired surrogate shared one Redis hash field (U+FFFD); the in-memory store kept them apart.
  it('refuses session.set keys with unpaired surrogates, and never reads another key through one, in every store', async () => {
    const prefix = `svc-test:review:${randomUUID()}:`;
    const redis = await RedisSessionStateStore.open({ url: TEST_REDIS_URL, keyPrefix: prefix });
    const memory = new MemorySessionStateStore();
    const sid = randomUUID();
    try {
      for (const store of [memory, redis]) {
        await expect(store.setValue(sid, 'k\ud800', '"first"')).rejects.toThrow('session.set key must not hold unpaired UTF-16 surrogates');
        // A well-formed key that an unpaired surrogate would have become in Redis is not read by one.
        await store.setValue(sid, 'k\ufffd', '"replacement"');
        expect(await store.getValue(sid, 'k\udbff')).toBeUndefined();
        expect(await store.getValue(sid, 'k\ufffd')).toBe('"replacement"');
      }
    } finally {
      await redis.release(sid);
      await redis.close();
      await memory.close();
      const admin = new Redis(TEST_REDIS_URL);
      const left = await admin.keys(`${prefix}*`);
      if (left.length) await admin.del(...left);
      admin.disconnect();
    }
  });
});
