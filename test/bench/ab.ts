// `npm run bench:ab -- <git revision>`: the REST execution path of the working tree against the
// same path at another revision, measured at the same time. Both Engines run pinned to the same
// core, each under its own closed-loop load; each window gives both Engines' CPU per request, and the
// figures are paired within windows. On this noisy VM sequential windows swing by 15–30%, while the
// two sides of a simultaneous pair move together, so a difference of a few µs per request shows.
// A diagnostic for changes on the hot path; it writes no file (neither BENCHMARKS.md nor a report).
// Each side's median is also split by thread (/proc schedstat: the event loop, the receipt writer,
// V8's helpers), which shows whose CPU a change moved.
//
// Options: --rounds N (10), --window MS (2000), --concurrency C per Engine (16).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { affinityOf, canPin, pin, startChild, type ChildHandle } from './lib/child.ts';
import { LoadGenerator } from './lib/load.ts';
import { median } from './lib/stats.ts';
import { threadCpu } from './lib/sysload.ts';
import { contactExecution } from './servers/contact.ts';
import type { EngineReady } from './servers/engine.ts';

const USAGE = 'usage: npm run bench:ab -- <git revision> [--rounds N] [--window MS] [--concurrency C]';
const args = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: { rounds: { type: 'string', default: '10' }, window: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '16' } },
    });
  } catch (err) {
    console.error(`bench:ab: ${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
})();
const { values, positionals } = args;
const positive = (name: string, text: string) => {
  const n = Number(text);
  if (Number.isInteger(n) && n > 0) return n;
  console.error(`bench:ab: --${name} must be a positive integer (got '${text}')`);
  process.exit(2);
};
const rounds = positive('rounds', values.rounds!);
const windowMs = positive('window', values.window!);
const concurrency = positive('concurrency', values.concurrency!);
const revision = positionals[0];
if (!revision || positionals.length > 1) {
  console.error(USAGE);
  process.exit(2);
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
let commit: string;
try {
  commit = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
} catch {
  console.error(`bench:ab: '${revision}' is not a commit in this repository`);
  process.exit(2);
}

const worktree = mkdtempSync(join(tmpdir(), 'svc-bench-ab-'));
// mkdtemp makes it 0700; the Engine's sandbox workers run as another user and read their code from it.
chmodSync(worktree, 0o755);
const children: ChildHandle<unknown>[] = [];
const generators: LoadGenerator[] = [];
const originalAffinity = canPin() ? affinityOf(process.pid) : undefined;
try {
  git('worktree', 'add', '--detach', worktree, commit);
  // To the directory itself: the sandbox's read list (src/sandbox/confinement.ts) follows one link, not a chain of them.
  symlinkSync(realpathSync(join(root, 'node_modules')), join(worktree, 'node_modules'));
  const pinned = canPin();
  if (pinned) pin(process.pid, '0');
  const key = `sk_bench_${randomBytes(12).toString('hex')}`;
  const provider = await startChild<{ url: string }>('provider', join(root, 'test/bench/servers/provider.ts'), {
    cpus: pinned ? '0' : undefined,
    env: { BENCH_PROVIDER_KEY: key },
  });
  children.push(provider);
  const env = { BENCH_UPSTREAM_URL: provider.ready.url, BENCH_PROVIDER_KEY: key };
  const sides = [
    { label: `${revision} (${commit.slice(0, 8)})`, dir: worktree },
    { label: 'working tree', dir: root },
  ];
  const engines: { label: string; engine: ChildHandle<EngineReady>; load: LoadGenerator }[] = [];
  for (const side of sides) {
    const engine = await startChild<EngineReady>(side.label, join(side.dir, 'test/bench/servers/engine.ts'), { cpus: pinned ? '1' : undefined, env, readyTimeoutMs: 60_000 });
    children.push(engine);
    const load = new LoadGenerator(contactExecution(side.label, engine.ready.url, engine.ready), concurrency);
    generators.push(load);
    engines.push({ label: side.label, engine, load });
  }
  console.log(`${pinned ? 'pinned: load + provider on CPU 0, both Engines on CPU 1' : 'unpinned'}; ${rounds} rounds × ${windowMs} ms, concurrency ${concurrency} per Engine`);
  await Promise.all(engines.map((e) => e.load.run(concurrency, 2_000))); // warm-up

  const cpu: number[][] = engines.map(() => []);
  const rps: number[][] = engines.map(() => []);
  /** Per side, µs/req per thread group (main thread, svc-receipts, V8Worker) of each round. */
  const byThread: Map<string, number[]>[] = engines.map(() => new Map());
  for (let r = 0; r < rounds; r++) {
    const before = await Promise.all(engines.map((e) => e.engine.cpu()));
    const threadsBefore = engines.map((e) => threadCpu(e.engine.pid));
    const windows = await Promise.all(engines.map((e) => e.load.run(concurrency, windowMs)));
    const threadsAfter = engines.map((e) => threadCpu(e.engine.pid));
    const after = await Promise.all(engines.map((e) => e.engine.cpu()));
    windows.forEach((w, i) => {
      if (w.non2xx + w.badBody + w.errors > 0) throw new Error(`${engines[i]!.label}: ${w.firstFailure}`);
      cpu[i]!.push((after[i]! - before[i]!) / w.ok);
      rps[i]!.push(w.rps);
      for (const [name, us] of threadsAfter[i] ?? []) {
        const was = threadsBefore[i]?.get(name);
        if (was !== undefined) byThread[i]!.set(name, [...(byThread[i]!.get(name) ?? []), (us - was) / w.ok]);
      }
    });
    console.log(`round ${r + 1}: ${engines.map((e, i) => `${e.label} ${cpu[i]![r]!.toFixed(1)} µs/req`).join(', ')}; difference ${(cpu[1]![r]! - cpu[0]![r]!).toFixed(1)} µs`);
  }
  const diffs = cpu[1]!.map((v, r) => v - cpu[0]![r]!);
  const sorted = [...diffs].sort((a, b) => a - b);
  console.log('');
  engines.forEach((e, i) => {
    const threads = ['main thread', 'svc-receipts', 'V8Worker'].flatMap((name) => {
      const figures = byThread[i]!.get(name);
      return figures?.length === rounds ? [`${name} ${median(figures).toFixed(1)}`] : [];
    });
    console.log(`${e.label}: median ${median(cpu[i]!).toFixed(1)} µs/req (${threads.join(', ')}), ${Math.round(median(rps[i]!))} req/s`);
  });
  console.log(
    `working tree − ${revision}: median ${median(diffs).toFixed(1)} µs/req (${((median(diffs) / median(cpu[0]!)) * 100).toFixed(1)}%), ` +
      `range ${sorted[0]!.toFixed(1)} … ${sorted.at(-1)!.toFixed(1)}; lower in ${diffs.filter((d) => d < 0).length} of ${rounds} rounds`,
  );
} finally {
  await Promise.allSettled(generators.map((g) => g.close()));
  await Promise.allSettled(children.reverse().map((c) => c.stop()));
  if (originalAffinity) pin(process.pid, originalAffinity);
  try {
    git('worktree', 'remove', '--force', worktree);
  } catch {
    rmSync(worktree, { recursive: true, force: true });
    git('worktree', 'prune');
  }
}
