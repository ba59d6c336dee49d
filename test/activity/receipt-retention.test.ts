// Activity receipts are kept SVC_RECEIPT_RETENTION_DAYS days (default 30; 0 keeps them forever):
// the Engine deletes older ones at start and hourly, so the store does not grow without bound.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ActivityLog } from '../../src/activity/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createLogger } from '../../src/log/index.ts';
import { SqliteStore, type AppVersionRow } from '../../src/store/index.ts';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { receiptIdAt } from '../../src/ids/index.ts';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { receiptAt } from '../fixtures/receipts.ts';

const DAY = 24 * 3600 * 1000;
let t: TestEngine | undefined;
let crm: DemoProvider | undefined;

afterEach(async () => {
  await t?.stop();
  await crm?.stop();
  t = crm = undefined;
});

/** Receipts of `versionId` minted `ageDays` ago, as an Engine running back then wrote them. */
const aged = (versionId: string, ageDays: number, count: number) =>
  Array.from({ length: count }, (_, i) => receiptAt(versionId, Date.now() - ageDays * DAY + i, i));

async function engineWithReceipts(env: Record<string, string>) {
  crm = await startDemoProvider();
  t = await startTestEngine(env);
  const sdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: crm.apiKey, operations: ['account/get'] });
  for (let i = 0; i < 3; i++) expect((await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {} })).body.ok).toBe(true);
  await t.engine.store.insertReceipts([...aged(sdk.versionId, 45, 2500), ...aged(sdk.versionId, 6, 5)]);
  return sdk;
}

const receipts = async (versionId: string) => (await t!.api('GET', `/v1/versions/${versionId}/receipts?limit=1000`)).body.receipts as { startedAt: string }[];

async function until(check: () => boolean, what: string) {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('receipt retention', () => {
  it('deletes receipts past the retention at start-up, in chunks, and keeps the rest', async () => {
    const sdk = await engineWithReceipts({ SVC_RECEIPT_RETENTION_DAYS: '7' });
    await t!.restart();
    await until(() => t!.logs.some((l) => l.includes('pruned activity receipts')), 'the start-up prune');
    const line = JSON.parse(t!.logs.find((l) => l.includes('pruned activity receipts'))!);
    expect(line).toMatchObject({ pruned: 2500, olderThanDays: 7 });
    const left = await receipts(sdk.versionId);
    expect(left).toHaveLength(3 + 5);
    expect(left.every((r) => Date.now() - Date.parse(r.startedAt) < 7 * DAY)).toBe(true);
    // Pruning again finds nothing; a shorter retention takes the 6-day-old ones too.
    expect(await t!.engine.deps.activity.prune(7)).toBe(0);
    expect(await t!.engine.deps.activity.prune(5)).toBe(5);
    expect(await receipts(sdk.versionId)).toHaveLength(3);
  });

  it('keeps every receipt with SVC_RECEIPT_RETENTION_DAYS=0', async () => {
    const sdk = await engineWithReceipts({ SVC_RECEIPT_RETENTION_DAYS: '0' });
    await t!.restart();
    await new Promise((r) => setTimeout(r, 300));
    expect(t!.logs.some((l) => l.includes('pruned activity receipts'))).toBe(false);
    expect(await receipts(sdk.versionId)).toHaveLength(1000); // the list's limit: 2,508 are kept
  });

  it('defaults to 30 days and refuses a value that is not a whole number of days', () => {
    expect(loadConfig({}).receiptRetentionDays).toBe(30);
    for (const bad of ['-1', '1.5', 'thirty', '40000']) {
      expect(() => loadConfig({ SVC_RECEIPT_RETENTION_DAYS: bad }), bad).toThrow(/SVC_RECEIPT_RETENTION_DAYS/);
    }
  });
});

const receipt = receiptAt;

const version = (n: number): AppVersionRow => ({
  versionId: `ver_${String(n).padStart(26, '0')}`,
  name: `review-${n}`,
  version: '1.0.0',
  services: ['demo-crm=v1'],
  operations: ['demo-crm.contacts/get'],
  createdAt: new Date().toISOString(),
});

const quietLog = () =>
  createLogger(
    'warn',
    new Writable({
      write(_c, _e, done) {
        done();
      },
    }),
  );

describe('receipt retention: stopping, bounds and versions', () => {
  it('engine stop does not wait for the whole prune backlog: stopPruning ends the prune after the chunk in progress', async () => {
    // A first start with retention on a large, old receipts table may prune for minutes (2,000 rows a
    // statement). A stop must not wait for all of it (an orchestrator would SIGKILL the Engine): the
    // prune ends after the chunk in flight, and the rest waits for the next start.
    const dir = mkdtempSync(join(tmpdir(), 'svc-review-'));
    const store = new SqliteStore(join(dir, 'engine.db'));
    try {
      const v = version(1);
      await store.publishVersion('sdk', v, null);
      const old = Date.now() - 60 * DAY;
      const rows = Array.from({ length: 20_000 }, (_, i) => receipt(v.versionId, old + i, i));
      for (let i = 0; i < rows.length; i += 5_000) await store.insertReceipts(rows.slice(i, i + 5_000));
      const activity = new ActivityLog(store, quietLog());
      activity.startPruning(30, 3_600_000);
      await activity.stopPruning();
      const left = (await store.listReceipts(v.versionId, 100_000)).length;
      expect(left, 'receipts left after stop').toBeGreaterThanOrEqual(20_000 - 2 * 2_000);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('receiptIdAt refuses a time that is not a number instead of returning a bound above every receipt ID', () => {
    // A bound built from NaN would sort above every ULID, so a prune would delete every receipt: a
    // non-finite time is a programming error, never a fail-open bound.
    expect(() => receiptIdAt(Number.NaN)).toThrow(RangeError);
  });

  it('SQLite prunes every receipt below the bound, as the Store contract (and PostgreSQL) do, whatever its version_id', async () => {
    // The receipts table has no foreign key to the version tables: SQLite walks the version IDs of
    // the receipts themselves, so it prunes as PostgreSQL (by id) does, whatever the version.
    const store = new SqliteStore(':memory:');
    try {
      await store.insertReceipts([receipt('ver_not_published', Date.now() - 60 * DAY, 1)]);
      expect(await store.pruneReceipts(receiptIdAt(Date.now() - 30 * DAY), 10)).toBe(1);
    } finally {
      await store.close();
    }
  });
});
