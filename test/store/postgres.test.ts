// The PostgreSQL store: the Store contract (unchanged) on a fresh database per test, migrations under
// the advisory lock, parity with SQLite on the writes the contract does not cover, the pool, and the
// REST walkthrough against an Engine running on PostgreSQL. Never skips: no server means a failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore, SqliteStore, StoreConflictError, type ConnectionRow, type DeviceCodeRow, type Store, type TokenRow } from '../../src/store/index.ts';
import { PostgresStore } from '../../src/store/postgres.ts';
import { loadConfig } from '../../src/config/index.ts';
import { MIGRATIONS, MIGRATION_LOCK_KEY } from '../../src/store/postgres.ts';
import { storeContract } from './store.contract.ts';
import { createTestDatabase, migratePostgresTo, queryDatabase, type TestDatabase } from '../fixtures/postgres.ts';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

const databases = new Map<Store, TestDatabase>();

async function openFresh(): Promise<PostgresStore> {
  const db = await createTestDatabase();
  const store = await PostgresStore.open(db.url);
  databases.set(store, db);
  return store;
}
async function disposeFresh(store: Store): Promise<void> {
  await store.close();
  await databases.get(store)!.drop();
  databases.delete(store);
}

storeContract('PostgreSQL', openFresh, disposeFresh);

describe('PostgreSQL migrations', () => {
  it('migrates exactly once when several stores start against the same fresh database at once', async () => {
    const db = await createTestDatabase();
    try {
      const stores = await Promise.all(Array.from({ length: 5 }, () => PostgresStore.open(db.url, { poolSize: 2 })));
      const versions = await queryDatabase(db.url, 'SELECT version FROM schema_migrations ORDER BY version');
      expect(versions.map((r) => r.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
      // Every store works on the one schema.
      await stores[0]!.putWorkspaceService({ service: 'demo-crm', version: 'v1', baseUrl: null, enabledAt: '2026-01-01T00:00:00.000Z' });
      for (const s of stores) expect(await s.getWorkspaceService('demo-crm')).toMatchObject({ version: 'v1' });
      await Promise.all(stores.map((s) => s.close()));
      // A later start finds nothing to apply and keeps the data.
      const again = await PostgresStore.open(db.url);
      expect(await again.getWorkspaceService('demo-crm')).toMatchObject({ version: 'v1' });
      await again.close();
      expect(await queryDatabase(db.url, 'SELECT count(*)::int AS n FROM schema_migrations')).toEqual([{ n: MIGRATIONS.length }]);
    } finally {
      await db.drop();
    }
  });

  it('waits for the advisory lock before reading the schema version', async () => {
    const db = await createTestDatabase();
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
      let opened = false;
      const opening = PostgresStore.open(db.url).then((s) => {
        opened = true;
        return s;
      });
      await new Promise((r) => setTimeout(r, 400));
      expect(opened).toBe(false);
      const waiting = await holder.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = $1)`,
        [db.name],
      );
      expect(waiting.rows[0].n).toBe(1);
      expect((await holder.query(`SELECT to_regclass('schema_migrations') AS t`)).rows[0].t).toBeNull();
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
      const store = await opening;
      expect(opened).toBe(true);
      await store.close();
    } finally {
      await holder.end();
      await db.drop();
    }
  });

  it('gives a connection made before consents were recorded its creation time as consentedAt', async () => {
    const db = await createTestDatabase();
    try {
      // The schema just before the migration that records consents, with a connection refreshed since its consent.
      const upTo = MIGRATIONS.findIndex((m) => m.includes('consented_at'));
      expect(upTo).toBeGreaterThan(0);
      await migratePostgresTo(db.url, MIGRATIONS, upTo, [
        `INSERT INTO connections (id, service, end_user_ref, auth_name, tokens, status, access_expires_at, generation, created_at, updated_at)
         VALUES ('con_old', 'demo-crm', 'alice', 'default', '{"ciphertext":"c","nonce":"n","tag":"t"}', 'active', NULL, 4, '2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z')`,
      ]);
      const store = await PostgresStore.open(db.url);
      try {
        const row = (await store.getConnection('demo-crm', 'alice', 'default'))!;
        expect(row).toMatchObject({ id: 'con_old', generation: 4, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-03-01T00:00:00.000Z', consentedAt: '2026-01-01T00:00:00.000Z' });
        expect(await store.updateConnectionTokens('con_old', 4, { tokens: row.tokens, status: 'active', accessExpiresAt: null, updatedAt: '2026-04-01T00:00:00.000Z' })).toBe(true);
        expect((await store.getConnection('demo-crm', 'alice', 'default'))?.consentedAt).toBe('2026-01-01T00:00:00.000Z');
        await store.putConnection({ ...row, updatedAt: '2026-05-01T00:00:00.000Z', consentedAt: '2026-05-01T00:00:00.000Z' });
        expect((await store.getConnection('demo-crm', 'alice', 'default'))?.consentedAt).toBe('2026-05-01T00:00:00.000Z');
      } finally {
        await store.close();
      }
      // Every row has one from now on.
      expect(await queryDatabase(db.url, `SELECT is_nullable FROM information_schema.columns WHERE table_name = 'connections' AND column_name = 'consented_at'`)).toEqual([{ is_nullable: 'NO' }]);
    } finally {
      await db.drop();
    }
  });

  it('refuses a database whose schema is newer than this Engine', async () => {
    const db = await createTestDatabase();
    try {
      await (await PostgresStore.open(db.url)).close();
      await queryDatabase(db.url, 'INSERT INTO schema_migrations (version) VALUES ($1)', [MIGRATIONS.length + 1]);
      await expect(PostgresStore.open(db.url)).rejects.toThrow(/newer than this Engine understands/);
    } finally {
      await db.drop();
    }
  });
});

describe('PostgreSQL pool', () => {
  it('takes its size from SVC_DB_POOL_SIZE through the config (default 10) and never opens more connections', async () => {
    const db = await createTestDatabase();
    const open = (env: Record<string, string>, url = db.url) => openStore({ dataDir: '/nonexistent', databaseUrl: url, poolSize: loadConfig(env).dbPoolSize });
    const previous = process.env.SVC_DB_POOL_SIZE;
    try {
      const byDefault = (await open({})) as PostgresStore;
      expect(byDefault.kind).toBe('postgres');
      expect(byDefault.poolSize).toBe(10);
      await byDefault.close();

      const store = (await open({ SVC_DB_POOL_SIZE: '3' }, db.url.replace(/^postgres:/, 'postgresql:'))) as PostgresStore;
      expect(store.poolSize).toBe(3);
      await Promise.all(Array.from({ length: 12 }, (_, i) => store.touchToken(`tok_${i}`, '2026-01-01T00:00:00.000Z')));
      const [{ n }] = (await queryDatabase(
        db.url,
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'svc-engine'`,
        [db.name],
      )) as [{ n: number }];
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThanOrEqual(3);
      await store.close();
      await store.close(); // idempotent

      // The store itself never reads the environment: a value there reaches it only through the config.
      process.env.SVC_DB_POOL_SIZE = 'lots';
      const unconfigured = (await openStore({ dataDir: '/nonexistent', databaseUrl: db.url })) as PostgresStore;
      expect(unconfigured.poolSize).toBe(10);
      await unconfigured.close();
      expect(() => loadConfig({ SVC_DB_POOL_SIZE: 'lots' })).toThrow(/SVC_DB_POOL_SIZE/);
    } finally {
      if (previous === undefined) delete process.env.SVC_DB_POOL_SIZE;
      else process.env.SVC_DB_POOL_SIZE = previous;
      await db.drop();
    }
  });

  it('refuses a DATABASE_URL that is not PostgreSQL, and fails (not falls back) when the server is unreachable', async () => {
    await expect(openStore({ dataDir: '/nonexistent', databaseUrl: 'mysql://localhost/x' })).rejects.toThrow(/postgres:\/\//);
    await expect(openStore({ dataDir: '/nonexistent', databaseUrl: 'postgres://postgres@127.0.0.1:1/none' })).rejects.toThrow();
  });
});

// The writes the contract suite does not exercise, run against both backends so they stay identical.
const backends: [string, () => Promise<Store>, (s: Store) => Promise<void>][] = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-parity-'));
      const store = new SqliteStore(join(dir, 'engine.db'));
      sqliteDirs.set(store, dir);
      return store;
    },
    async (s) => {
      await s.close();
      rmSync(sqliteDirs.get(s)!, { recursive: true, force: true });
    },
  ],
  ['PostgreSQL', openFresh, disposeFresh],
];
const sqliteDirs = new Map<Store, string>();

let n = 0;
const cliToken = (subject: string): TokenRow => ({
  id: `tok_${++n}`,
  kind: 'cli',
  subject,
  hash: `hash-${process.pid}-${n}`.padEnd(64, '0'),
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
  allow: null,
  binding: null,
});

describe.each(backends)('Store parity beyond the contract: %s', (_name, open, dispose) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await dispose(store);
  });

  it('keeps users and single-use, expiring sign-in codes', async () => {
    expect(await store.getUser('owner')).toBeNull();
    await store.putUser({ subject: 'owner', passwordHash: null, createdAt: '2026-01-01T00:00:00.000Z' });
    await store.putUser({ subject: 'owner', passwordHash: 'scrypt$1', createdAt: '2027-01-01T00:00:00.000Z' });
    expect(await store.getUser('owner')).toEqual({ subject: 'owner', passwordHash: 'scrypt$1', createdAt: '2026-01-01T00:00:00.000Z' });
    await store.insertSigninCode({ hash: 'sc1', subject: 'owner', createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T00:10:00.000Z', usedAt: null });
    expect(await store.useSigninCode('sc1', '2026-01-01T00:10:00.000Z')).toBeNull(); // expired at the instant
    expect(await store.useSigninCode('sc1', '2026-01-01T00:05:00.000Z')).toEqual({
      hash: 'sc1',
      subject: 'owner',
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:10:00.000Z',
      usedAt: '2026-01-01T00:05:00.000Z',
    });
    expect(await store.useSigninCode('sc1', '2026-01-01T00:06:00.000Z')).toBeNull();
  });

  it('moves a device code pending → approved → redeemed exactly once, even when redeemed concurrently', async () => {
    const code: DeviceCodeRow = {
      hash: 'dc1',
      userCode: 'ABCD-EFGH',
      clientId: 'svc-cli',
      status: 'pending',
      subject: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:15:00.000Z',
      lastPolledAt: null,
      requestedFrom: '127.0.0.1',
      requestedAgent: 'svc-cli/0.1.0',
      credentialTtlSeconds: null,
    };
    await store.insertDeviceCode(code);
    expect(await store.getDeviceCodeByUserCode('ABCD-EFGH')).toEqual(code);
    expect(await store.redeemDeviceCode('dc1', cliToken('owner'))).toBe(false); // not approved yet
    expect(await store.decideDeviceCode('ABCD-EFGH', 'approved', 'owner')).toBe(true);
    expect(await store.decideDeviceCode('ABCD-EFGH', 'denied', null)).toBe(false);
    expect(await store.touchDeviceCode('dc1', '2026-01-01T00:01:00.000Z', '2026-01-01T00:00:55.000Z')).toBe(true);
    const credentials = Array.from({ length: 8 }, () => cliToken('owner'));
    const results = await Promise.all(credentials.map((c) => store.redeemDeviceCode('dc1', c)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = credentials[results.indexOf(true)]!;
    expect(await store.getTokenByHash(winner.hash)).toEqual(winner);
    for (const c of credentials) if (c !== winner) expect(await store.getTokenByHash(c.hash)).toBeNull();
    expect(await store.getDeviceCode('dc1')).toEqual({ ...code, status: 'redeemed', subject: 'owner', lastPolledAt: '2026-01-01T00:01:00.000Z' });
  });

  it('upserts connections and writes tokens only at the expected generation, once under contention', async () => {
    const row: ConnectionRow = {
      id: 'conn_1',
      service: 'demo-crm',
      endUserRef: 'user-1',
      authName: 'default',
      tokens: { ciphertext: 'c0', nonce: 'n0', tag: 't0' },
      status: 'active',
      accessExpiresAt: '2026-01-01T01:00:00.000Z',
      generation: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      consentedAt: '2026-01-01T00:00:00.000Z',
    };
    await store.putConnection(row);
    expect(await store.getConnection('demo-crm', 'user-1', 'default')).toEqual(row);
    await store.putConnection({ ...row, id: 'conn_ignored', tokens: { ciphertext: 'c1', nonce: 'n1', tag: 't1' }, updatedAt: '2026-01-01T00:01:00.000Z' });
    const upserted = (await store.getConnection('demo-crm', 'user-1', 'default'))!;
    expect(upserted).toMatchObject({ id: 'conn_1', generation: 2, tokens: { ciphertext: 'c1' } });
    expect(typeof upserted.generation).toBe('number');

    const next = (i: number) => ({ tokens: { ciphertext: `r${i}`, nonce: 'n', tag: 't' }, status: 'active' as const, accessExpiresAt: null, updatedAt: `2026-01-01T00:02:0${i}.000Z` });
    const won = await Promise.all(Array.from({ length: 6 }, (_, i) => store.updateConnectionTokens('conn_1', 2, next(i))));
    expect(won.filter(Boolean)).toHaveLength(1);
    const after = (await store.getConnection('demo-crm', 'user-1', 'default'))!;
    expect(after).toMatchObject({ generation: 3, tokens: next(won.indexOf(true)).tokens, accessExpiresAt: null });
    expect(await store.updateConnectionTokens('conn_1', 2, next(9))).toBe(false);

    await store.putConnection({ ...row, id: 'conn_2', endUserRef: 'User-0' });
    await store.putConnection({ ...row, id: 'conn_3', service: 'another' });
    expect((await store.listConnections()).map((c) => c.id)).toEqual(['conn_3', 'conn_2', 'conn_1']); // byte order: 'U' < 'u'
    expect((await store.listConnections('demo-crm')).map((c) => c.id)).toEqual(['conn_2', 'conn_1']);
  });

  it('hands out an OAuth state once', async () => {
    const state = {
      hash: 'st1',
      service: 'demo-crm',
      endUserRef: 'user-1',
      authName: 'default',
      verifier: { ciphertext: 'v', nonce: 'n', tag: 't' },
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:10:00.000Z',
    };
    await store.insertOAuthState(state);
    const taken = await Promise.all([store.takeOAuthState('st1'), store.takeOAuthState('st1')]);
    expect(taken.filter(Boolean)).toEqual([state]);
  });

  it('allocates version sequence numbers without conflicts when one app publishes concurrently, and maps label conflicts for MCP too', async () => {
    const labels = ['1.0.0', '1.1.0', '1.2.0', '1.3.0', '1.4.0'];
    await Promise.all(
      labels.map((label, i) =>
        store.publishVersion('mcp', {
          versionId: `ver_par_${i}`,
          name: 'parallel',
          version: label,
          services: ['demo-crm=v1'],
          operations: ['demo-crm.contacts/get'],
          createdAt: '2026-01-01T00:00:00.000Z',
        }, null),
      ),
    );
    const listed = await store.listVersions('mcp', 'parallel');
    expect(listed.map((v) => v.version).sort()).toEqual(labels);
    expect(await store.listVersions('sdk', 'parallel')).toEqual([]);
    await expect(
      store.publishVersion('mcp', { ...listed[0]!, versionId: 'ver_par_dup' }, null),
    ).rejects.toBeInstanceOf(StoreConflictError);
    // The same label in the other kind's namespace is no conflict.
    await store.publishVersion('sdk', { ...listed[0]!, versionId: 'ver_par_sdk' }, null);
    // A version ID collision is not a label conflict.
    await expect(store.publishVersion('mcp', { ...listed[0]!, version: '9.9.9' }, null)).rejects.not.toBeInstanceOf(StoreConflictError);
  });

  it('gives an idempotency key to exactly one of many concurrent claims, and again only after its TTL', async () => {
    const at = (ms: number) => new Date(1_900_000_000_000 + ms).toISOString();
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.claimIdempotencyKey({ scope: 'ver_idem', key: 'k', requestHash: `h${i}`, createdAt: at(i), ttlMs: 60_000 })),
    );
    expect(claims.filter((c) => c.state === 'claimed')).toHaveLength(1);
    const won = claims.findIndex((c) => c.state === 'claimed');
    const winner = `h${won}`;
    for (const c of claims) if (c.state !== 'claimed') expect(c).toEqual({ state: 'pending', requestHash: winner, result: null, createdAt: at(won) });
    const expired = await Promise.all(
      Array.from({ length: 10 }, () => store.claimIdempotencyKey({ scope: 'ver_idem', key: 'k', requestHash: 'late', createdAt: at(60_009), ttlMs: 60_000 })),
    );
    expect(expired.filter((c) => c.state === 'claimed')).toHaveLength(1);
  });

  it('returns receipt numbers as numbers and ok as a boolean, sorted by byte order', async () => {
    const base = { versionId: 'ver_nums', operation: 'op', surface: 'grpc' as const, tokenId: 'tok_x', startedAt: '2026-01-01T00:00:00.000Z', pages: 3, status: 502, sha256: null, errorCode: "it's \"quoted\", {braced}" };
    await store.insertReceipts([
      { ...base, id: 'rcp_A', providerDurationMs: 0.25, ok: false, bytes: 2 ** 40 },
      { ...base, id: 'rcp_a', providerDurationMs: 12, ok: true, bytes: 0 },
    ]);
    await store.insertReceipts([]);
    const [a, A] = await store.listReceipts('ver_nums', 10);
    expect(a).toEqual({ ...base, id: 'rcp_a', providerDurationMs: 12, ok: true, bytes: 0 });
    expect(A).toEqual({ ...base, id: 'rcp_A', providerDurationMs: 0.25, ok: false, bytes: 2 ** 40 });
  });
});

describe('REST walkthrough on an Engine backed by PostgreSQL', () => {
  const SECRET = 'canary-pg-5d1e8b3a7c';
  let db: TestDatabase;
  let t: TestEngine;
  let provider: FakeProvider;

  beforeAll(async () => {
    db = await createTestDatabase();
    provider = await startFakeProvider(async (req, res) => {
      if (req.headers.authorization !== `Bearer ${SECRET}`) return json(res, 401, { error: 'bad key' });
      const id = req.url.split('/')[3]?.split('?')[0];
      json(res, 200, { id, name: 'Ada', email: 'ada@example.test', labels: {}, created_at: '2026-01-01T00:00:00Z' });
    });
    t = await startTestEngine({}, undefined, { databaseUrl: db.url });
  });
  afterAll(async () => {
    await t?.stop();
    await provider?.stop();
    await db?.drop();
  });

  it('enables a service, stores its secret, publishes, executes, records receipts and survives a restart', async () => {
    expect(t.engine.store.kind).toBe('postgres');
    const sdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get'] });

    const res = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0001' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, status: 200, data: expect.objectContaining({ id: 'con_0001', name: 'Ada' }), error: null });
    expect(provider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);

    // A second version with one more operation; an unchanged publish creates nothing.
    const definition = { name: 'crm', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get', 'demo-crm=contacts/create'] };
    const second = await t.api('POST', '/v1/sdks/publish', definition);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ published: true });
    expect(second.body.token).toBeUndefined();
    const unchanged = await t.api('POST', '/v1/sdks/publish', definition);
    expect(unchanged.body).toMatchObject({ published: false, versionId: second.body.versionId });
    const versions = await t.api('GET', '/v1/sdks/crm/versions');
    expect(versions.body.versions.map((v: any) => v.versionId)).toEqual([second.body.versionId, sdk.versionId]);

    const receipts = await t.api('GET', `/v1/versions/${sdk.versionId}/receipts?limit=10`);
    expect(receipts.status).toBe(200);
    expect(receipts.body.receipts[0]).toMatchObject({ versionId: sdk.versionId, surface: 'rest', status: 200, ok: true, pages: 1, errorCode: null });
    expect(receipts.body.receipts[0].bytes).toBeGreaterThan(0);

    // The state lives in PostgreSQL, not in the data dir.
    expect(existsSync(join(t.dataDir, 'engine.db'))).toBe(false);
    await t.restart();
    expect(t.engine.store.kind).toBe('postgres');
    const afterRestart = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0002' } });
    expect(afterRestart.status).toBe(200);
    expect(afterRestart.body.data.id).toBe('con_0002');
    // Receipts are written off the response path; reading them through the API flushes first.
    const listed = await t.api('GET', `/v1/versions/${sdk.versionId}/receipts?limit=10`);
    expect(listed.body.receipts.map((r: any) => r.ok)).toEqual([true, true]);
    const rows = await queryDatabase(db.url, 'SELECT count(*)::int AS n FROM receipts WHERE version_id = $1', [sdk.versionId]);
    expect(rows[0]!.n).toBe(2);
  });
});
