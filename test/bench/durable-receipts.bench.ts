// What durable receipts cost (issue 30 §7): REST writes (`demo-crm.contacts/create`, a POST the fake
// provider answers 201 with ~1 KB) through four Engines side by side in one run, on SQLite files in
// the temp dir (ext4 here, so an fsync reaches the disk):
//   - durable + FULL: the default; a write is answered once its receipt is committed, and SQLite syncs each commit;
//   - batched + FULL: the receipt waits in the batch as a read's does (SVC_RECEIPT_WRITES=batched);
//   - durable + NORMAL: SQLite syncs at checkpoints only (SVC_SQLITE_SYNCHRONOUS=NORMAL);
//   - batched + NORMAL: the Engine before this change.
// Each at concurrency 1 (one client: every write pays its own commit) and at BENCH_CONCURRENCY
// (writes share commits). Targets alternate in rotated rounds; figures are medians across rounds,
// ratios and differences paired within a round. Then, with less in the way (no HTTP, no provider),
// what a durable write's answer waits for: ActivityLog.flush over a SqliteStore, FULL against NORMAL.
//
// Knobs: BENCH_ROUNDS (6), BENCH_WINDOW_MS (2500), BENCH_WARMUP_MS (1500), BENCH_CONCURRENCY (16),
// BENCH_COMMIT_ROUNDS (10), BENCH_COMMIT_WINDOW_MS (1000).
import { randomBytes } from 'node:crypto';
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ActivityLog } from '../../src/activity/index.ts';
import { createLogger } from '../../src/log/index.ts';
import { SqliteStore, type SqliteSynchronous } from '../../src/store/index.ts';
import { startChild, type ChildHandle } from './lib/child.ts';
import { LoadGenerator, windowCells, type LoadTarget, type WindowResult } from './lib/load.ts';
import { median, ms, percentiles, ratio, signedMs, table } from './lib/stats.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';
import type { EngineReady } from './servers/engine.ts';

export const name = 'durable-receipts';
export const title = 'Durable receipts: a write answered after its receipt is committed, and SQLite synchronous=FULL';

const envInt = (key: string, fallback: number) => {
  const v = Number(process.env[key]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

type TargetId = 'durableFull' | 'batchedFull' | 'durableNormal' | 'batchedNormal';
const TARGETS: { id: TargetId; label: string; env: Record<string, string> }[] = [
  { id: 'durableFull', label: 'durable writes, FULL (default)', env: { SVC_RECEIPT_WRITES: 'durable', SVC_SQLITE_SYNCHRONOUS: 'FULL' } },
  { id: 'batchedFull', label: 'batched writes, FULL', env: { SVC_RECEIPT_WRITES: 'batched', SVC_SQLITE_SYNCHRONOUS: 'FULL' } },
  { id: 'durableNormal', label: 'durable writes, NORMAL', env: { SVC_RECEIPT_WRITES: 'durable', SVC_SQLITE_SYNCHRONOUS: 'NORMAL' } },
  { id: 'batchedNormal', label: 'batched writes, NORMAL (before)', env: { SVC_RECEIPT_WRITES: 'batched', SVC_SQLITE_SYNCHRONOUS: 'NORMAL' } },
];

/** The comparisons the report and the summary row make, each paired within a round. */
const PAIRS: { label: string; of: TargetId; against: TargetId }[] = [
  { label: 'durable writes (FULL): durable vs batched', of: 'durableFull', against: 'batchedFull' },
  { label: 'synchronous (durable writes): FULL vs NORMAL', of: 'durableFull', against: 'durableNormal' },
  { label: 'both: the default vs before', of: 'durableFull', against: 'batchedNormal' },
];

/** What one sync to disk costs where the Engines keep their files: 200 × (write 4 KiB, fdatasync), p50/p90/p99 ms. */
function diskSync(): number[] {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-sync-'));
  const fd = openSync(join(dir, 'probe'), 'w');
  const page = Buffer.alloc(4096, 1);
  const times = new Float64Array(200);
  try {
    for (let i = 0; i < times.length; i++) {
      writeSync(fd, page);
      const t0 = performance.now();
      fdatasyncSync(fd);
      times[i] = performance.now() - t0;
    }
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
  return percentiles(times, times.length, [50, 90, 99]);
}

/** One write's receipt, as the Executor records it. */
const RECEIPT = { versionId: 'ver_bench', operation: 'demo-crm.contacts/create', surface: 'rest', tokenId: 'tok_bench', startedAt: new Date().toISOString(), providerDurationMs: 1.5, pages: 1, status: 201, ok: true, bytes: 1071, sha256: 'e'.repeat(64), errorCode: null } as const;

interface Commits {
  /** Per synchronous mode and writer count: the median across rounds of writes/s, p50 and p99 ms. */
  figures: Map<string, { rate: number; p50: number; p99: number }>;
  rounds: number;
  windowMs: number;
}

/**
 * Durable receipts without the rest of a call: `writers` loops each record a receipt and wait for
 * its commit (ActivityLog.flush, with the Executor's 1 ms gather while other writers wait), for
 * `windowMs`, on a SqliteStore in FULL and one in NORMAL, alternating in rounds.
 */
async function storeCommits(levels: number[], rounds: number, windowMs: number): Promise<Commits> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-commits-'));
  const log = createLogger('silent');
  const modes: SqliteSynchronous[] = ['FULL', 'NORMAL'];
  const logs = new Map(modes.map((mode) => [mode, { store: new SqliteStore(join(dir, `${mode}.db`), { synchronous: mode }) }] as const));
  const samples = new Map<string, { rate: number[]; p50: number[]; p99: number[] }>();
  try {
    for (let r = 0; r < rounds; r++) {
      for (const writers of levels) {
        for (const mode of r % 2 ? [...modes].reverse() : modes) {
          const activity = new ActivityLog(logs.get(mode)!.store, log);
          const times = new Float64Array(1 << 16);
          let n = 0;
          let waiting = 0;
          const end = performance.now() + windowMs;
          const writer = async () => {
            while (performance.now() < end && n < times.length) {
              const t0 = performance.now();
              activity.record(RECEIPT);
              waiting++;
              await activity.flush(waiting > 1 ? 1 : 0);
              waiting--;
              times[n++] = performance.now() - t0;
            }
          };
          await Promise.all(Array.from({ length: writers }, writer));
          const [p50, p99] = percentiles(times, n, [50, 99]) as [number, number];
          const key = `${mode} ${writers}`;
          const s = samples.get(key) ?? { rate: [], p50: [], p99: [] };
          s.rate.push((n * 1000) / windowMs);
          s.p50.push(p50);
          s.p99.push(p99);
          samples.set(key, s);
        }
      }
    }
  } finally {
    for (const { store } of logs.values()) await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { figures: new Map([...samples].map(([key, s]) => [key, { rate: median(s.rate), p50: median(s.p50), p99: median(s.p99) }])), rounds, windowMs };
}

const WRITE = JSON.stringify({ operation: 'demo-crm.contacts/create', input: { body: { name: 'Ada Lovelace', email: 'ada.lovelace@example.com' } } });
const isCreated = (status: number, body: string) => status === 200 && body.startsWith('{"ok":true,"status":201,');

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const rounds = envInt('BENCH_ROUNDS', 6);
  const windowMs = envInt('BENCH_WINDOW_MS', 2_500);
  const warmupMs = envInt('BENCH_WARMUP_MS', 1_500);
  const concurrency = envInt('BENCH_CONCURRENCY', 16);
  const levels = [1, concurrency];
  const script = (file: string) => fileURLToPath(new URL(`./servers/${file}`, import.meta.url));
  const key = `sk_bench_${randomBytes(12).toString('hex')}`;
  const children: ChildHandle<unknown>[] = [];
  const generators: LoadGenerator[] = [];
  try {
    const provider = await startChild<{ url: string }>('provider', script('provider.ts'), { env: { BENCH_PROVIDER_KEY: key } });
    children.push(provider);
    const gen = {} as Record<TargetId, LoadGenerator>;
    for (const t of TARGETS) {
      const engine = await startChild<EngineReady>(t.label, script('engine.ts'), {
        env: { BENCH_UPSTREAM_URL: provider.ready.url, BENCH_PROVIDER_KEY: key, BENCH_OPERATIONS: 'contacts/create', ...t.env },
      });
      children.push(engine);
      const target: LoadTarget = {
        name: t.label,
        origin: engine.ready.url,
        method: 'POST',
        path: `/v1/apps/${engine.ready.versionId}/executions`,
        headers: { authorization: `Bearer ${engine.ready.token}`, 'content-type': 'application/json' },
        body: WRITE,
        check: isCreated,
      };
      generators.push((gen[t.id] = new LoadGenerator(target, concurrency)));
    }
    ctx.log(`warm-up ${warmupMs} ms per Engine at concurrency ${concurrency}`);
    for (const t of TARGETS) await gen[t.id].run(concurrency, warmupMs);

    const perRound: Record<number, Record<TargetId, WindowResult>[]> = Object.fromEntries(levels.map((c) => [c, []]));
    for (let r = 0; r < rounds; r++) {
      const order = TARGETS.map((_, i) => TARGETS[(i + r) % TARGETS.length]!.id);
      for (const c of levels) {
        const round = {} as Record<TargetId, WindowResult>;
        for (const id of order) round[id] = await gen[id].run(c, windowMs);
        perRound[c]!.push(round);
        ctx.log(`round ${r + 1}/${rounds} c=${c}: ${order.map((id) => `${id} ${Math.round(round[id].rps)}/s p50 ${ms(round[id].p50)}`).join(', ')}`);
      }
    }
    const sync = diskSync();
    ctx.log(`fdatasync p50 ${ms(sync[0]!)} ms; receipt commits at the store`);
    const commits = await storeCommits(levels, envInt('BENCH_COMMIT_ROUNDS', 10), envInt('BENCH_COMMIT_WINDOW_MS', 1_000));
    return report({ perRound, levels, rounds, windowMs, warmupMs, sync, commits });
  } finally {
    await Promise.all(generators.map((g) => g.close()));
    for (const child of children.reverse()) await child.stop();
  }
}

function report(o: { perRound: Record<number, Record<TargetId, WindowResult>[]>; levels: number[]; rounds: number; windowMs: number; warmupMs: number; sync: number[]; commits: Commits }): BenchResult {
  const out: string[] = [
    'REST writes (`demo-crm.contacts/create`, POST, the provider answers 201 with ~1 KB) through four Engines started side by side, ' +
      'each on its own SQLite file in the temp dir (ext4: an fsync reaches the disk). A closed loop of clients per Engine; ' +
      `${o.warmupMs} ms warm-up each, then ${o.rounds} rounds × ${o.windowMs} ms per Engine and concurrency, the order rotated each round. ` +
      'Figures are medians across rounds; ratios and differences are paired within a round, then the median is taken.',
    '',
    '- **durable writes**: a call that may have changed data is answered once its receipt is committed (`SVC_RECEIPT_WRITES=durable`, the default); ' +
      '**batched**: its receipt waits up to 20 ms in memory with the others, as a read\'s always does.',
    '- **FULL**: SQLite syncs the WAL at each commit (`SVC_SQLITE_SYNCHRONOUS=FULL`, the default); **NORMAL**: at checkpoints only.',
    '- Concurrent writes share commits: the receipts that arrive while one batch is being committed go in the next.',
    `- A sync to disk where the Engines keep their files (4 KiB written, then fdatasync, 200 times after the rounds): p50 ${ms(o.sync[0]!)} ms, p90 ${ms(o.sync[1]!)} ms, p99 ${ms(o.sync[2]!)} ms. ` +
      'A durable write with FULL waits for at least one; the figures below move with it.',
    '- On a shared 2-core machine the REST figures move between runs with whatever else runs (the load average is in the header): ' +
      'a durable write also waits for the receipt thread to be scheduled, twice. The commit figures at the end move less.',
  ];
  const pairs: Record<number, { label: string; tput: number; p50: number; p99: number }[]> = {};
  for (const c of o.levels) {
    const rounds = o.perRound[c]!;
    const med = (id: TargetId) => (figure: (w: WindowResult) => number) => median(rounds.map((r) => figure(r[id])));
    out.push('', `### Concurrency ${c}`, '');
    out.push(table(['Engine', 'writes/s', 'p50 ms', 'p90 ms', 'p99 ms'], TARGETS.map((t) => [t.label, ...windowCells(med(t.id))]), ['l', 'r', 'r', 'r', 'r']));
    pairs[c] = PAIRS.map((p) => ({
      label: p.label,
      tput: median(rounds.map((r) => r[p.of].rps / r[p.against].rps)),
      p50: median(rounds.map((r) => r[p.of].p50 - r[p.against].p50)),
      p99: median(rounds.map((r) => r[p.of].p99 - r[p.against].p99)),
    }));
    out.push('', table(['cost of', 'writes/s ratio', 'p50 added ms', 'p99 added ms'], pairs[c]!.map((p) => [p.label, ratio(p.tput), signedMs(p.p50), signedMs(p.p99)]), ['l', 'r', 'r', 'r']));
    const failures = TARGETS.flatMap((t) => rounds.map((r) => r[t.id]).filter((w) => w.non2xx || w.badBody || w.errors).map((w) => `${t.label}: ${w.firstFailure}`));
    if (failures.length) out.push('', `Failed requests: ${failures.slice(0, 4).join('; ')}`);
  }
  const commit = (mode: SqliteSynchronous, writers: number) => o.commits.figures.get(`${mode} ${writers}`)!;
  out.push(
    '',
    '### What a durable write waits for',
    '',
    `The receipt's commit alone, without HTTP or a provider: writers each record a receipt and wait for its commit (\`ActivityLog.flush\`), ` +
      `on a SQLite file in FULL and one in NORMAL, ${o.commits.rounds} rounds × ${o.commits.windowMs} ms each, alternating; medians across rounds. ` +
      'A batched receipt adds nothing to its answer (it is written within 20 ms, off the answer path).',
    '',
    table(
      ['writers', 'FULL commits/s', 'FULL p50 ms', 'FULL p99 ms', 'NORMAL commits/s', 'NORMAL p50 ms', 'NORMAL p99 ms'],
      o.levels.map((w) => [String(w), ...[commit('FULL', w), commit('NORMAL', w)].flatMap((f) => [String(Math.round(f.rate)), ms(f.p50), ms(f.p99)])]),
      ['r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  const top = o.levels[o.levels.length - 1]!;
  const cell = (c: number, i: number) => `${ratio(pairs[c]![i]!.tput)}, p50 ${signedMs(pairs[c]![i]!.p50)} ms`;
  return {
    report: out.join('\n'),
    summary: {
      goal: 'none (information)',
      measured:
        `REST writes vs batched: durable ${cell(1, 0)} (c=1), ${cell(top, 0)} (c=${top}); FULL vs NORMAL ${cell(1, 1)} (c=1), ${cell(top, 1)} (c=${top}); ` +
        `a durable write waits p50 ${ms(commit('FULL', 1).p50)} ms FULL, ${ms(commit('NORMAL', 1).p50)} ms NORMAL (fdatasync p50 ${ms(o.sync[0]!)} ms)`,
      verdict: '–',
    },
  };
}
