import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/index.ts';
import { MIGRATIONS } from '../../src/store/sqlite.ts';
import { storeContract } from './store.contract.ts';

/** Past the hot reads' look for other connections' commits, made at most once a millisecond. */
const nextTurn = () => new Promise((r) => setTimeout(r, 2));

const dirs = new Map<SqliteStore, string>();
storeContract(
  'SQLite',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-store-'));
    const store = new SqliteStore(join(dir, 'engine.db'));
    dirs.set(store, dir);
    return store;
  },
  async (store) => {
    await store.close();
    rmSync(dirs.get(store as SqliteStore)!, { recursive: true, force: true });
  },
);

// The hot-path reads (token by hash, workspace service, secret) are answered from memory while the
// database is unchanged; a commit by this connection is seen at once, another process's within a millisecond.
describe('SQLite hot-path reads', () => {
  /** Runs `check` with two connections to one database file (the Engine's and, say, the CLI's), closed and removed after. */
  const withTwoConnections = async (check: (stores: { engine: SqliteStore; cli: SqliteStore }) => Promise<void>) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-store-hot-'));
    const file = join(dir, 'engine.db');
    const engine = new SqliteStore(file);
    const cli = new SqliteStore(file);
    try {
      await check({ engine, cli });
    } finally {
      await engine.close();
      await cli.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const token = (hash: string) => ({ id: `tok_${hash}`, kind: 'mcp' as const, subject: 'srv', hash, createdAt: '2026-11-22T00:00:00.000Z', expiresAt: null, revokedAt: null, lastUsedAt: null, allow: ['a.*'], binding: null });

  it('sees a revocation committed by another connection (another process) a millisecond later', async () => {
    await withTwoConnections(async ({ engine, cli }) => {
      await engine.insertToken(token('h1'));
      expect((await engine.getTokenByHash('h1'))?.revokedAt).toBeNull();
      expect((await engine.getTokenByHash('h1'))?.revokedAt).toBeNull(); // answered from memory
      expect(await cli.revokeToken('tok_h1', '2026-11-22T01:00:00.000Z')).toBe(true);
      await nextTurn();
      expect((await engine.getTokenByHash('h1'))?.revokedAt).toBe('2026-11-22T01:00:00.000Z');
      await cli.putSecret({ bucket: 'default', service: 'svc', ciphertext: 'c1', nonce: 'n1', tag: 't1', updatedAt: 'u1' });
      await nextTurn();
      expect((await engine.getSecret('default', 'svc'))?.nonce).toBe('n1');
      await cli.putSecret({ bucket: 'default', service: 'svc', ciphertext: 'c2', nonce: 'n2', tag: 't2', updatedAt: 'u2' });
      await nextTurn();
      expect((await engine.getSecret('default', 'svc'))?.nonce).toBe('n2');
    });
  });

  it('answers a secret rotated by another connection from the first read that looks for its commit', async () => {
    await withTwoConnections(async ({ engine, cli }) => {
      await engine.putSecret({ bucket: 'default', service: 'svc', ciphertext: 'c1', nonce: 'n1', tag: 't1', updatedAt: 'u1' });
      expect(engine.sync.secret('default', 'svc')?.nonce).toBe('n1');
      await nextTurn();
      expect(engine.sync.secret('default', 'svc')?.nonce).toBe('n1'); // kept
      await cli.putSecret({ bucket: 'default', service: 'svc', ciphertext: 'c2', nonce: 'n2', tag: 't2', updatedAt: 'u2' });
      await nextTurn();
      expect(engine.sync.secret('default', 'svc')?.nonce).toBe('n2');
    });
  });

  it('keeps its rows through commits of receipts (its own writer thread), and drops them at any write to their tables', async () => {
    const receipt = (id: string) => ({ id, versionId: 'ver_1', operation: 'demo.op', surface: 'rest' as const, tokenId: null, startedAt: 's', providerDurationMs: 1, pages: 1, status: 200, ok: true, bytes: 1, sha256: null, errorCode: null });
    await withTwoConnections(async ({ engine, cli }) => {
      await engine.insertToken(token('h4'));
      await engine.putWorkspaceService({ service: 'demo', version: 'v1', baseUrl: 'http://a', enabledAt: 'e1' });
      await engine.putSecret({ bucket: 'default', service: 'demo', ciphertext: 'c1', nonce: 'n1', tag: 't1', updatedAt: 'u1' });
      const kept = () => [engine.sync.tokenByHash('h4'), engine.sync.workspaceService('demo'), engine.sync.secret('default', 'demo')];
      const before = kept();
      // Committed by the writer thread's connection (the store's own receipts) and by another process's.
      await engine.insertReceipts([receipt('rcp_1')]);
      await cli.insertReceipts([receipt('rcp_2')]);
      await nextTurn();
      kept().forEach((row, i) => expect(row).toBe(before[i])); // the same objects: nothing was read again
      // Each kind of write to each table served from memory is seen a millisecond later.
      const writes: [() => Promise<unknown>, () => unknown, unknown][] = [
        [() => cli.insertToken(token('h5')), () => engine.sync.tokenByHash('h5')?.id, 'tok_h5'],
        [() => cli.revokeToken('tok_h4', 'r1'), () => engine.sync.tokenByHash('h4')?.revokedAt, 'r1'],
        [() => cli.putWorkspaceService({ service: 'demo', version: 'v2', baseUrl: 'http://b', enabledAt: 'e2' }), () => engine.sync.workspaceService('demo')?.version, 'v2'],
        [() => cli.deleteWorkspaceService('demo'), () => engine.sync.workspaceService('demo'), null],
        [() => cli.putSecret({ bucket: 'default', service: 'demo', ciphertext: 'c2', nonce: 'n2', tag: 't2', updatedAt: 'u2' }), () => engine.sync.secret('default', 'demo')?.nonce, 'n2'],
        [() => cli.deleteSecret('default', 'demo'), () => engine.sync.secret('default', 'demo'), null],
      ];
      for (const [i, [write, read, expected]] of writes.entries()) {
        // A receipt commit just before does not hide it (each id new: an ignored duplicate commits nothing).
        await engine.insertReceipts([receipt(`rcp_w${i}`)]);
        await nextTurn();
        read();
        await write();
        await nextTurn();
        expect(read()).toBe(expected);
      }
    });
  });

  it('sees its own writes on the next read, and hands out rows nobody can change', async () => {
    await withTwoConnections(async ({ engine }) => {
      expect(await engine.getWorkspaceService('demo')).toBeNull();
      await engine.putWorkspaceService({ service: 'demo', version: 'v1', baseUrl: 'http://a', enabledAt: 'e1' });
      expect((await engine.getWorkspaceService('demo'))?.baseUrl).toBe('http://a');
      await engine.putWorkspaceService({ service: 'demo', version: 'v1', baseUrl: 'http://b', enabledAt: 'e2' });
      expect((await engine.getWorkspaceService('demo'))?.baseUrl).toBe('http://b');
      await engine.insertToken(token('h2'));
      const row = (await engine.getTokenByHash('h2'))!;
      expect(() => ((row as { revokedAt: string | null }).revokedAt = 'x')).toThrow(TypeError);
      expect(() => row.allow!.push('b.*')).toThrow(TypeError);
      await engine.revokeToken('tok_h2', '2026-11-22T02:00:00.000Z');
      expect((await engine.getTokenByHash('h2'))?.revokedAt).toBe('2026-11-22T02:00:00.000Z');
    });
  });
});

describe('SQLite synchronous reads (the call path)', () => {
  it('answer exactly what the async reads resolve to, through writes of this and another connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-store-sync-'));
    const file = join(dir, 'engine.db');
    const engine = new SqliteStore(file);
    const cli = new SqliteStore(file);
    const same = async () => {
      expect(engine.sync.tokenByHash('h3')).toEqual(await engine.getTokenByHash('h3'));
      expect(engine.sync.workspaceService('demo')).toEqual(await engine.getWorkspaceService('demo'));
      expect(engine.sync.secret('default', 'demo')).toEqual(await engine.getSecret('default', 'demo'));
    };
    try {
      expect(engine.sync.tokenByHash('h3')).toBeNull();
      expect(engine.sync.workspaceService('demo')).toBeNull();
      expect(engine.sync.secret('default', 'demo')).toBeNull();
      await engine.insertToken({ id: 'tok_h3', kind: 'sdk', subject: 'crm', hash: 'h3', createdAt: 'c', expiresAt: null, revokedAt: null, lastUsedAt: null, allow: null, binding: null });
      await engine.putWorkspaceService({ service: 'demo', version: 'v1', baseUrl: 'http://a', enabledAt: 'e1' });
      await engine.putSecret({ bucket: 'default', service: 'demo', ciphertext: 'c1', nonce: 'n1', tag: 't1', updatedAt: 'u1' });
      expect(engine.sync.tokenByHash('h3')?.subject).toBe('crm');
      expect(engine.sync.workspaceService('demo')?.baseUrl).toBe('http://a');
      expect(engine.sync.secret('default', 'demo')?.nonce).toBe('n1');
      await same();
      await cli.revokeToken('tok_h3', 'r1');
      await cli.putSecret({ bucket: 'default', service: 'demo', ciphertext: 'c2', nonce: 'n2', tag: 't2', updatedAt: 'u2' });
      await cli.deleteWorkspaceService('demo');
      await nextTurn();
      expect(engine.sync.tokenByHash('h3')?.revokedAt).toBe('r1');
      expect(engine.sync.secret('default', 'demo')?.nonce).toBe('n2');
      expect(engine.sync.workspaceService('demo')).toBeNull();
      await same();
      // One cache per kind of row: the same service in two buckets, and a token hash spelled like a service, stay apart.
      await engine.putSecret({ bucket: 'team', service: 'demo', ciphertext: 'c3', nonce: 'n3', tag: 't3', updatedAt: 'u3' });
      await engine.putWorkspaceService({ service: 'h3', version: 'v2', baseUrl: 'http://b', enabledAt: 'e2' });
      expect(engine.sync.secret('team', 'demo')?.nonce).toBe('n3');
      expect(engine.sync.secret('default', 'demo')?.nonce).toBe('n2');
      expect(engine.sync.secret('team', 'other')).toBeNull();
      expect(engine.sync.workspaceService('h3')?.version).toBe('v2');
      expect(engine.sync.tokenByHash('h3')?.id).toBe('tok_h3');
    } finally {
      await engine.close();
      await cli.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite file', () => {
  it('is created owner-only, and so are its WAL and shared-memory files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-store-mode-'));
    const file = join(dir, 'engine.db');
    const store = new SqliteStore(file);
    try {
      await store.putWorkspaceService({ service: 'demo', version: 'v1', baseUrl: null, enabledAt: 'e' });
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect((statSync(f).mode & 0o777).toString(8), f).toBe('600');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite receipts', () => {
  it('commits receipts on the writer thread: a batch sent just before close is there after reopening', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-store-receipts-'));
    const file = join(dir, 'engine.db');
    const row = (i: number) => ({ id: `rcp_${String(i).padStart(26, '0')}`, versionId: 'ver_x', operation: 'demo.op', surface: 'rest' as const, tokenId: null, startedAt: '2026-11-22T00:00:00.000Z', providerDurationMs: 1.5, pages: 1, status: 200, ok: true, bytes: 10, sha256: null, errorCode: null });
    try {
      const first = new SqliteStore(file);
      await first.insertReceipts([row(1), row(2)]);
      expect((await first.listReceipts('ver_x', 10)).map((r) => r.id)).toEqual([row(2).id, row(1).id]); // committed before it resolved
      void first.insertReceipts(Array.from({ length: 70 }, (_, i) => row(10 + i))); // not awaited
      await first.close(); // waits for the writer
      const again = new SqliteStore(file);
      expect(await again.listReceipts('ver_x', 100)).toHaveLength(72);
      // A writer thread that dies with a batch in flight: the batch is written on the store's own connection.
      await again.insertReceipts([row(100)]); // starts the writer
      const writer = (again as unknown as { receiptWriter: { worker: { terminate(): Promise<number> } } }).receiptWriter.worker;
      const inFlight = again.insertReceipts([row(101), row(102)]);
      await writer.terminate();
      await inFlight;
      expect((await again.listReceipts('ver_x', 100)).map((r) => r.id).slice(0, 3)).toEqual([row(102).id, row(101).id, row(100).id]);
      await again.close();
      await expect(again.insertReceipts([row(103)])).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite migrations', () => {
  it('moves receipts of a schema-3 database into the table keyed by version, keeping every row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-store-migrate-'));
    const file = join(dir, 'engine.db');
    try {
      await new SqliteStore(file).close();
      // Put the file back to schema 3: receipts as a rowid table with an id key and a version index.
      const db = new Database(file);
      db.exec(`DROP TABLE receipts;
        ${['tokens', 'workspace_services', 'secrets'].flatMap((t) => ['insert', 'update', 'delete'].map((e) => `DROP TRIGGER ${t}_${e};`)).join(' ')} DROP TABLE hot_changes;
        DROP TABLE markers;
        DROP TABLE grant_tokens; DROP TABLE grants; DROP TABLE grant_codes; DROP TABLE grant_clients;
        ALTER TABLE connections DROP COLUMN consented_at;
        ALTER TABLE device_codes DROP COLUMN requested_from;
        ALTER TABLE device_codes DROP COLUMN requested_agent;
        ALTER TABLE device_codes DROP COLUMN credential_ttl_seconds;
        ALTER TABLE tokens DROP COLUMN read_only;
        ALTER TABLE mcp_versions DROP COLUMN require_approval; ALTER TABLE sdk_versions DROP COLUMN require_approval; DROP TABLE mcp_approvals;
        CREATE TABLE receipts (
          id TEXT PRIMARY KEY, version_id TEXT NOT NULL, operation TEXT NOT NULL, surface TEXT NOT NULL,
          token_id TEXT, started_at TEXT NOT NULL, provider_duration_ms REAL NOT NULL, pages INTEGER NOT NULL,
          status INTEGER NOT NULL, ok INTEGER NOT NULL, bytes INTEGER NOT NULL, sha256 TEXT, error_code TEXT);
        CREATE INDEX receipts_version ON receipts (version_id, id);`);
      const insert = db.prepare('INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
      insert.run('rcp_01', 'ver_a', 'demo.op', 'rest', 'tok_1', '2026-11-22T00:00:00.000Z', 1.5, 1, 200, 1, 10, 'ab', null);
      insert.run('rcp_02', 'ver_a', 'demo.op', 'mcp', null, '2026-11-22T00:00:01.000Z', 2.5, 3, 502, 0, 0, null, 'PROVIDER_ERROR');
      insert.run('rcp_03', 'ver_b', 'demo.op', 'grpc', null, '2026-11-22T00:00:02.000Z', 0, 0, 401, 0, 0, null, 'ENGINE_UNAUTHENTICATED');
      db.pragma('user_version = 3');
      db.close();

      const store = new SqliteStore(file);
      try {
        expect(await store.listReceipts('ver_a', 10)).toEqual([
          { id: 'rcp_02', versionId: 'ver_a', operation: 'demo.op', surface: 'mcp', tokenId: null, startedAt: '2026-11-22T00:00:01.000Z', providerDurationMs: 2.5, pages: 3, status: 502, ok: false, bytes: 0, sha256: null, errorCode: 'PROVIDER_ERROR' },
          { id: 'rcp_01', versionId: 'ver_a', operation: 'demo.op', surface: 'rest', tokenId: 'tok_1', startedAt: '2026-11-22T00:00:00.000Z', providerDurationMs: 1.5, pages: 1, status: 200, ok: true, bytes: 10, sha256: 'ab', errorCode: null },
        ]);
        expect((await store.listReceipts('ver_b', 10)).map((r) => r.id)).toEqual(['rcp_03']);
      } finally {
        await store.close();
      }
      const check = new Database(file, { readonly: true });
      const ddl = (check.prepare("SELECT sql FROM sqlite_master WHERE name = 'receipts'").get() as { sql: string }).sql;
      check.close();
      expect(ddl).toMatch(/PRIMARY KEY \(version_id, id\)\) WITHOUT ROWID/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives a connection made before consents were recorded its creation time as consentedAt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-store-migrate-'));
    const file = join(dir, 'engine.db');
    try {
      // The schema just before the migration that records consents, with a connection refreshed since its consent.
      const upTo = MIGRATIONS.findIndex((m) => m.includes('consented_at'));
      expect(upTo).toBeGreaterThan(0);
      const db = new Database(file);
      for (const migration of MIGRATIONS.slice(0, upTo)) db.exec(migration);
      db.pragma(`user_version = ${upTo}`);
      db.prepare(
        `INSERT INTO connections (id, service, end_user_ref, auth_name, tokens, status, access_expires_at, generation, created_at, updated_at)
         VALUES ('con_old', 'demo-crm', 'alice', 'default', '{"ciphertext":"c","nonce":"n","tag":"t"}', 'active', NULL, 4, '2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z')`,
      ).run();
      db.close();

      const store = new SqliteStore(file);
      try {
        const row = (await store.getConnection('demo-crm', 'alice', 'default'))!;
        expect(row).toMatchObject({ id: 'con_old', generation: 4, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-03-01T00:00:00.000Z', consentedAt: '2026-01-01T00:00:00.000Z' });
        // A refresh keeps it; a consent moves it.
        expect(await store.updateConnectionTokens('con_old', 4, { tokens: row.tokens, status: 'active', accessExpiresAt: null, updatedAt: '2026-04-01T00:00:00.000Z' })).toBe(true);
        expect((await store.getConnection('demo-crm', 'alice', 'default'))?.consentedAt).toBe('2026-01-01T00:00:00.000Z');
        await store.putConnection({ ...row, updatedAt: '2026-05-01T00:00:00.000Z', consentedAt: '2026-05-01T00:00:00.000Z' });
        expect((await store.getConnection('demo-crm', 'alice', 'default'))?.consentedAt).toBe('2026-05-01T00:00:00.000Z');
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
