// Activity receipts are kept SVC_RECEIPT_RETENTION_DAYS days (default 30; 0 keeps them forever):
// the Engine deletes older ones at start and hourly, so the store does not grow without bound.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.ts';
import { startDemoProvider, type DemoProvider } from '../src/demo-provider/index.ts';
import { receiptIdAt } from '../src/ids/index.ts';
import type { ReceiptRow } from '../src/store/index.ts';
import { startTestEngine, publishSdk, type TestEngine } from './helpers/engine.ts';

const DAY = 24 * 3600 * 1000;
let t: TestEngine | undefined;
let crm: DemoProvider | undefined;

afterEach(async () => {
  await t?.stop();
  await crm?.stop();
  t = crm = undefined;
});

/** Receipts of `versionId` minted `ageDays` ago, as an Engine running back then wrote them. */
const aged = (versionId: string, ageDays: number, count: number): ReceiptRow[] =>
  Array.from({ length: count }, (_, i) => {
    const at = Date.now() - ageDays * DAY + i;
    return {
      id: `${receiptIdAt(at)}${String(i).padStart(16, '0')}`,
      versionId,
      operation: 'demo-crm.account/get',
      surface: 'rest',
      tokenId: null,
      startedAt: new Date(at).toISOString(),
      providerDurationMs: 1,
      pages: 1,
      status: 200,
      ok: true,
      bytes: 2,
      sha256: null,
      errorCode: null,
    };
  });

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
