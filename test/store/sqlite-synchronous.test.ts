// SQLite syncs every commit to disk by default (synchronous=FULL), so a committed receipt survives a
// power cut; SVC_SQLITE_SYNCHRONOUS=NORMAL trades that for speed (docs/benchmarks/durable-receipts.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.ts';
import { SqliteStore } from '../../src/store/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-sync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** PRAGMA synchronous of the store's connection: 2 is FULL, 1 NORMAL. */
const synchronousOf = (store: SqliteStore) => (store as unknown as { db: { pragma(sql: string, o: { simple: true }): number } }).db.pragma('synchronous', { simple: true });

describe('SQLite synchronous', () => {
  it('is FULL unless NORMAL is asked for', async () => {
    const full = new SqliteStore(join(dir, 'full.db'));
    const normal = new SqliteStore(join(dir, 'normal.db'), { synchronous: 'NORMAL' });
    try {
      expect(synchronousOf(full)).toBe(2);
      expect(synchronousOf(normal)).toBe(1);
    } finally {
      await full.close();
      await normal.close();
    }
  });

  it('reads SVC_SQLITE_SYNCHRONOUS and SVC_RECEIPT_WRITES, refusing anything else by name', () => {
    expect(loadConfig({})).toMatchObject({ sqliteSynchronous: 'FULL', receiptWrites: 'durable' });
    expect(loadConfig({ SVC_SQLITE_SYNCHRONOUS: 'NORMAL', SVC_RECEIPT_WRITES: ' batched ' })).toMatchObject({ sqliteSynchronous: 'NORMAL', receiptWrites: 'batched' });
    expect(() => loadConfig({ SVC_SQLITE_SYNCHRONOUS: 'OFF' })).toThrow(new ConfigError("SVC_SQLITE_SYNCHRONOUS must be FULL or NORMAL (got 'OFF')"));
    expect(() => loadConfig({ SVC_RECEIPT_WRITES: 'sometimes' })).toThrow(new ConfigError("SVC_RECEIPT_WRITES must be durable or batched (got 'sometimes')"));
  });
});
