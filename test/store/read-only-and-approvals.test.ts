// The store side of issue 31 §3 on SQLite and PostgreSQL alike: the migration that adds read-only
// tokens, approval gates of MCP versions and the approvals table keeps every earlier row as it was
// (tokens not read-only, versions without gates); approvals are single use and expire.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore, type ApprovalRow, type Store } from '../../src/store/index.ts';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../../src/store/sqlite.ts';
import { MIGRATIONS as POSTGRES_MIGRATIONS, PostgresStore } from '../../src/store/postgres.ts';
import { createTestDatabase, migratePostgresTo, type TestDatabase } from '../fixtures/postgres.ts';

const dirs: string[] = [];
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const db of databases) await db.drop();
});

const TOKEN = `('tok_old', 'mcp', 'agent', 'hash-old', '2026-01-01T00:00:00.000Z', NULL, NULL, NULL, NULL, NULL)`;
const VERSION = (json: (v: unknown) => string) => `('ver_old', 'agent', '1.0.0', ${json(['items=v1'])}, ${json(['items.deleteItem'])}, '2026-01-01T00:00:00.000Z', 1)`;

/** A SQLite file at the schema before read-only tokens, holding a token and an MCP version; then opened by the store. */
async function sqliteBefore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-store-safety-'));
  dirs.push(dir);
  const file = join(dir, 'engine.db');
  const upTo = SQLITE_MIGRATIONS.findIndex((m) => m.includes('read_only'));
  expect(upTo).toBeGreaterThan(0);
  const db = new Database(file);
  for (const migration of SQLITE_MIGRATIONS.slice(0, upTo)) db.exec(migration);
  db.pragma(`user_version = ${upTo}`);
  db.exec(`INSERT INTO tokens (id, kind, subject, hash, created_at, expires_at, revoked_at, last_used_at, allow, binding) VALUES ${TOKEN}`);
  db.exec(`INSERT INTO mcp_versions (version_id, name, version, services, operations, created_at, seq) VALUES ${VERSION((v) => `'${JSON.stringify(v)}'`)}`);
  db.close();
  return new SqliteStore(file);
}

/** The same on a PostgreSQL database. */
async function postgresBefore(): Promise<Store> {
  const db = await createTestDatabase();
  databases.push(db);
  const upTo = POSTGRES_MIGRATIONS.findIndex((m) => m.includes('read_only'));
  expect(upTo).toBeGreaterThan(0);
  await migratePostgresTo(db.url, POSTGRES_MIGRATIONS, upTo, [
    `INSERT INTO tokens (id, kind, subject, hash, created_at, expires_at, revoked_at, last_used_at, allow, binding) VALUES ${TOKEN}`,
    `INSERT INTO mcp_versions (version_id, name, version, services, operations, created_at, seq) VALUES ${VERSION((v) => `'${JSON.stringify(v)}'::jsonb`)}`,
  ]);
  return PostgresStore.open(db.url);
}

const approval = (over: Partial<ApprovalRow> = {}): ApprovalRow => ({
  id: 'apr_01JD8Z6Q0R6V7S1K2M3N4P5Q6R',
  versionId: 'ver_old',
  tokenId: 'tok_old',
  operation: 'items.deleteItem',
  paramsHash: 'hash-a',
  summary: { id: 'a' },
  createdAt: '2026-06-01T00:00:00.000Z',
  expiresAt: '2026-06-01T00:15:00.000Z',
  approvedAt: null,
  approvedBy: null,
  usedAt: null,
  ...over,
});

describe.each([
  ['SQLite', sqliteBefore],
  ['PostgreSQL', postgresBefore],
])('%s', (_name, open) => {
  it('migrates earlier tokens and versions as not read-only and without gates; new ones keep theirs', async () => {
    const store = await open();
    try {
      const old = (await store.getTokenByHash('hash-old'))!;
      expect(old.id).toBe('tok_old');
      expect(old.readOnly).toBeUndefined();
      expect((await store.getVersion('mcp', 'ver_old'))?.requireApproval).toBeUndefined();
      await store.insertToken({ ...old, id: 'tok_new', hash: 'hash-new', readOnly: true });
      expect((await store.getTokenByHash('hash-new'))?.readOnly).toBe(true);
      expect((await store.listTokens('mcp', 'agent')).map((t) => [t.id, t.readOnly === true])).toEqual([
        ['tok_new', true],
        ['tok_old', false],
      ].sort());
      const next = { versionId: 'ver_new', name: 'agent', version: '1.1.0', services: ['items=v1'], operations: ['items.deleteItem'], createdAt: '2026-02-01T00:00:00.000Z', requireApproval: ['items.deleteItem'] };
      await store.publishVersion('mcp', next, null, 'ver_old');
      expect(await store.getVersion('mcp', 'ver_new')).toEqual(next);
      expect((await store.listVersions('mcp', 'agent')).map((v) => v.requireApproval ?? null)).toEqual([['items.deleteItem'], null]);
    } finally {
      await store.close();
    }
  });

  it('keeps approvals: live until used or expired, approved once, used once', async () => {
    const store = await open();
    try {
      const a = approval();
      const call = { versionId: a.versionId, tokenId: a.tokenId, operation: a.operation, paramsHash: a.paramsHash };
      const during = '2026-06-01T00:05:00.000Z';
      await store.approvals.insert(a);
      expect(await store.approvals.get(a.id)).toEqual(a);
      expect(await store.approvals.waiting(during, 10)).toEqual([a]);
      expect((await store.approvals.live(call, during))?.id).toBe(a.id);
      expect(await store.approvals.live({ ...call, paramsHash: 'hash-b' }, during)).toBeNull();
      // Not approved yet: nothing to use.
      expect(await store.approvals.use(call, during)).toBeNull();
      expect((await store.approvals.approve(a.id, 'tester', during))?.approvedBy).toBe('tester');
      expect(await store.approvals.waiting(during, 10)).toEqual([]);
      expect(await store.approvals.approve(a.id, 'tester', during)).toBeNull();
      expect((await store.approvals.use(call, during))?.usedAt).toBe(during);
      expect(await store.approvals.use(call, during)).toBeNull();
      // Given back by a call never sent: usable again, once; a release of another use changes nothing.
      expect(await store.approvals.release(a.id, '2026-06-01T00:04:00.000Z')).toBe(false);
      expect(await store.approvals.release(a.id, during)).toBe(true);
      expect(await store.approvals.release(a.id, during)).toBe(false);
      expect((await store.approvals.use(call, during))?.id).toBe(a.id);
      expect(await store.approvals.use(call, during)).toBeNull();
      expect(await store.approvals.live(call, during)).toBeNull();

      const late = approval({ id: 'apr_01JD8Z6Q0R6V7S1K2M3N4P5Q6S', paramsHash: 'hash-c' });
      await store.approvals.insert(late);
      expect((await store.approvals.waiting(during, 10)).map((w) => w.id)).toEqual([late.id]);
      const after = '2026-06-01T00:20:00.000Z';
      expect(await store.approvals.waiting(after, 10)).toEqual([]);
      expect(await store.approvals.approve(late.id, 'tester', after)).toBeNull();
      expect(await store.approvals.live({ ...call, paramsHash: 'hash-c' }, after)).toBeNull();
      expect(await store.deleteExpired(after)).toBeGreaterThanOrEqual(2);
      expect(await store.approvals.get(late.id)).toBeNull();
    } finally {
      await store.close();
    }
  });
});
