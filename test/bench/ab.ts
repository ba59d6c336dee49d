// `npm run bench:ab -- <git revision>`: the REST execution path of the working tree against the
// same path at another revision, measured at the same time. Both Engines run pinned to the same
// core, each under its own closed-loop load; each window gives both Engines' CPU per request, and the
// figures are paired within windows. On this noisy VM sequential windows swing by 15–30%, while the
// two sides of a simultaneous pair move together, so a difference of a few µs per request shows.
// A diagnostic for changes on the hot path; it writes no file (neither BENCHMARKS.md nor a report).
// Each side's median is also split by thread (/proc schedstat: the event loop, the receipt writer,
// V8's helpers), which shows whose CPU a change moved.
//
// --instructions counts instructions instead of CPU time: each Engine runs under valgrind's callgrind
// (./lib/callgrind.ts; the provider and the load stay outside it), which counts what every thread
// executes (the receipt writer's too), the same whatever else loads the machine. Node runs with
// --single-threaded, so V8's collector and compilers work on the counted threads in a fixed order.
// The warm-up (--warmup requests) runs uninstrumented, ~5× faster than counted code, so V8 reaches
// the optimized steady state a long run has; then each round sends exactly --requests requests at
// --concurrency and waits for every answer, and a dump taken then, with the Engine idle, closes the
// round: a round's count is its requests' work whole (an idle Engine's timers add ~15 k instructions a
// second). V8's optimizing compilers, still at work now and then, and its full (mark-compact) collector,
// which doubles the count of the rounds it falls in, are counted apart (./lib/callgrind.ts APART);
// minor collections stay in. The spread printed is that of the rounds.
// Measured limits (d984197 against itself): one process's rounds agree to ~3 % when no full collection
// falls in them (368–408 k instructions/req), but two processes of the same code can settle in different
// V8 states — one kept running baseline code, missing its inline caches and migrating object maps — and
// then differ by 30–50 % (medians 580 k and 408 k). Compare a change over several runs, or count the
// changed function alone (N against 2N calls of it in a script under valgrind --tool=callgrind).
//
// --env-a / --env-b KEY=VALUE (repeatable) give one side extra environment, so one revision can be
// compared with itself under two settings; '{sink}' in a value stands for the URL of an OTLP
// collector on loopback (./servers/otlp-sink.ts), started then.
//
// Options: --rounds N (10), --window MS (2000), --concurrency C per Engine (16; 8 with --instructions);
// with --instructions: --requests N per round (500), --warmup N requests (20000), --keep DIR (keep the
// dumps, for ./lib/callgrind-summary.ts).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { callgrindWrapper, dumpInstructions, hasCallgrind, startInstrumentation } from './lib/callgrind.ts';
import { affinityOf, canPin, pin, startChild, type ChildHandle } from './lib/child.ts';
import { LoadGenerator } from './lib/load.ts';
import { int, median } from './lib/stats.ts';
import { threadCpu } from './lib/sysload.ts';
import { contactExecution } from './servers/contact.ts';
import type { EngineReady } from './servers/engine.ts';

const USAGE =
  'usage: npm run bench:ab -- <git revision> [--rounds N] [--window MS] [--concurrency C] [--env-a KEY=VALUE]… [--env-b KEY=VALUE]…\n' +
  '       npm run bench:ab -- <git revision> --instructions [--rounds N] [--requests N] [--warmup N] [--concurrency C] [--keep DIR] [--env-a/--env-b …]';
const fail = (message: string): never => {
  console.error(`bench:ab: ${message}\n${USAGE}`);
  process.exit(2);
};
const args = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        rounds: { type: 'string', default: '10' },
        window: { type: 'string', default: '2000' },
        concurrency: { type: 'string' },
        instructions: { type: 'boolean', default: false },
        requests: { type: 'string', default: '500' },
        warmup: { type: 'string', default: '20000' },
        keep: { type: 'string' },
        'env-a': { type: 'string', multiple: true, default: [] },
        'env-b': { type: 'string', multiple: true, default: [] },
      },
    });
  } catch (err) {
    return fail((err as Error).message);
  }
})();
const { values, positionals } = args;
const positive = (name: string, text: string) => {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : fail(`--${name} must be a positive integer (got '${text}')`);
};
const assignments = (name: string, list: string[]) =>
  Object.fromEntries(list.map((a) => (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a) ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : fail(`--${name} takes KEY=VALUE (got '${a}')`))));
const rounds = positive('rounds', values.rounds!);
const windowMs = positive('window', values.window!);
const concurrency = positive('concurrency', values.concurrency ?? (values.instructions ? '8' : '16'));
const requests = positive('requests', values.requests!);
const warmup = positive('warmup', values.warmup!);
const envA: Record<string, string> = assignments('env-a', values['env-a']!);
const envB: Record<string, string> = assignments('env-b', values['env-b']!);
const revision = positionals[0];
if (!revision || positionals.length > 1) fail('one git revision');
if (values.instructions && !hasCallgrind()) fail('--instructions needs valgrind (with callgrind_control) on the PATH');

const root = fileURLToPath(new URL('../..', import.meta.url));
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
let commit = '';
try {
  commit = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
} catch {
  fail(`'${revision}' is not a commit in this repository`);
}

/** Node's flags under callgrind (see the header), and BENCH_CALLGRIND_NODE_ARGS (e.g. --perf-basic-prof, for ./lib/callgrind-summary.ts). */
const CALLGRIND_NODE_ARGS = ['--single-threaded', ...(process.env.BENCH_CALLGRIND_NODE_ARGS ?? '').split(' ').filter(Boolean)];

/** Requests sent once callgrind counts, before the first round: V8 compiles what it runs in its new translation. */
const INSTRUMENTED_WARMUP = 500;

/** The Engine's timeouts at their longest under callgrind, where a request can wait seconds behind V8 compiling. */
const SLOW_TIMEOUTS = { SVC_HTTP_HEADERS_TIMEOUT_MS: '600000', SVC_HTTP_REQUEST_TIMEOUT_MS: '3600000', SVC_PROVIDER_TIMEOUT_MS: '600000' };

interface Side {
  label: string;
  engine: ChildHandle<EngineReady>;
  load: LoadGenerator;
}

const worktree = mkdtempSync(join(tmpdir(), 'svc-bench-ab-'));
// mkdtemp makes it 0700; the Engine's sandbox workers run as another user and read their code from it.
chmodSync(worktree, 0o755);
const dumps = values.instructions ? (values.keep ? resolve(values.keep) : mkdtempSync(join(tmpdir(), 'svc-bench-callgrind-'))) : undefined;
if (dumps) mkdirSync(dumps, { recursive: true });
const children: ChildHandle<unknown>[] = [];
const generators: LoadGenerator[] = [];
const originalAffinity = canPin() ? affinityOf(process.pid) : undefined;
try {
  git('worktree', 'add', '--detach', worktree, commit);
  // To the directory itself: the sandbox's read list (src/sandbox/confinement.ts) follows one link, not a chain of them.
  symlinkSync(realpathSync(join(root, 'node_modules')), join(worktree, 'node_modules'));
  // The Engine's set-up as the working tree has it, on both sides (older ones pass fewer settings on).
  copyFileSync(join(root, 'test/bench/servers/engine.ts'), join(worktree, 'test/bench/servers/engine.ts'));
  // Under callgrind each Engine runs its threads one at a time, ~30× slower: unpinned, so the two use both cores.
  const pinned = canPin() && !values.instructions;
  if (pinned) pin(process.pid, '0');
  const key = `sk_bench_${randomBytes(12).toString('hex')}`;
  const provider = await startChild<{ url: string }>('provider', join(root, 'test/bench/servers/provider.ts'), {
    cpus: pinned ? '0' : undefined,
    env: { BENCH_PROVIDER_KEY: key },
  });
  children.push(provider);
  if ([...Object.values(envA), ...Object.values(envB)].some((v) => v.includes('{sink}'))) {
    const sink = await startChild<{ url: string }>('OTLP sink', join(root, 'test/bench/servers/otlp-sink.ts'), { cpus: pinned ? '0' : undefined });
    children.push(sink);
    for (const env of [envA, envB]) for (const k of Object.keys(env)) env[k] = env[k]!.replaceAll('{sink}', sink.ready.url);
  }
  const env = { BENCH_UPSTREAM_URL: provider.ready.url, BENCH_PROVIDER_KEY: key };
  const described = (e: Record<string, string>) => (Object.keys(e).length ? ` [${Object.entries(e).map(([k, v]) => `${k}=${v}`).join(' ')}]` : '');
  const planned = [
    { label: `${revision} (${commit.slice(0, 8)})${described(envA)}`, dir: worktree, env: envA },
    { label: `working tree${described(envB)}`, dir: root, env: envB },
  ];
  const sides: Side[] = [];
  for (const side of planned) {
    const engine = await startChild<EngineReady>(side.label, join(side.dir, 'test/bench/servers/engine.ts'), {
      cpus: pinned ? '1' : undefined,
      env: { ...env, ...(dumps ? SLOW_TIMEOUTS : {}), ...side.env },
      readyTimeoutMs: dumps ? 600_000 : 60_000,
      wrapper: dumps ? callgrindWrapper(dumps) : undefined,
      execArgv: dumps ? CALLGRIND_NODE_ARGS : [],
    });
    children.push(engine);
    const load = new LoadGenerator(contactExecution(side.label, engine.ready.url, engine.ready), concurrency);
    generators.push(load);
    sides.push({ label: side.label, engine, load });
  }
  if (dumps) await instructionRounds(sides, dumps);
  else await cpuRounds(sides, pinned);
} finally {
  await Promise.allSettled(generators.map((g) => g.close()));
  // One at a time, the Engines first: a traced Engine flushes its last spans to the collector as it stops.
  for (const child of children.reverse()) await child.stop().catch(() => undefined);
  if (originalAffinity) pin(process.pid, originalAffinity);
  try {
    git('worktree', 'remove', '--force', worktree);
  } catch {
    rmSync(worktree, { recursive: true, force: true });
    git('worktree', 'prune');
  }
  if (dumps && !values.keep) rmSync(dumps, { recursive: true, force: true });
}

/** CPU time per request, both sides loaded at once in each window. */
async function cpuRounds(engines: Side[], pinned: boolean): Promise<void> {
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
}

/** Instructions per request under callgrind: rounds of exactly `requests` requests, each closed by a dump. */
async function instructionRounds(engines: Side[], dir: string): Promise<void> {
  console.log(`callgrind, unpinned; warm-up ${warmup} requests, then ${rounds} rounds × ${requests} requests, concurrency ${concurrency} per Engine; dumps in ${dir}`);
  const send = (e: Side, n: number) =>
    e.load.run(concurrency, Infinity, n).then((w) => {
      if (w.non2xx + w.badBody + w.errors > 0 || w.ok !== n) throw new Error(`${e.label}: ${w.ok} of ${n} answered as expected; ${w.firstFailure}`);
    });
  const t0 = performance.now();
  await Promise.all(engines.map((e) => send(e, warmup)));
  engines.forEach((e) => startInstrumentation(e.engine.pid));
  await Promise.all(engines.map((e) => send(e, INSTRUMENTED_WARMUP)));
  engines.forEach((e) => dumpInstructions(e.engine.pid, dir)); // opens round 1
  console.log(`warm-up: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const perReq: number[][] = engines.map(() => []);
  /** Per side and round, the instructions per request of V8's compilers and full collector, counted apart (./lib/callgrind.ts APART). */
  const apart: string[][] = engines.map(() => []);
  for (let r = 0; r < rounds; r++) {
    await Promise.all(engines.map((e) => send(e, requests)));
    engines.forEach((e, i) => {
      const { instructions, compilers, fullGc } = dumpInstructions(e.engine.pid, dir);
      perReq[i]!.push((instructions - compilers - fullGc) / requests);
      apart[i]!.push(`${int(compilers / requests)} + ${int(fullGc / requests)}`);
    });
    const [a, b] = [perReq[0]![r]!, perReq[1]![r]!];
    console.log(
      `round ${r + 1}: ${engines.map((e, i) => `${e.label} ${int(perReq[i]![r]!)}`).join(', ')} instructions/req; difference ${int(b - a)} (${pct(b - a, a)}); ` +
        `apart (compilers + full GC) ${engines.map((_, i) => apart[i]![r]!).join(' and ')}`,
    );
  }
  console.log('');
  engines.forEach((e, i) => {
    const m = median(perReq[i]!);
    const lo = Math.min(...perReq[i]!);
    const hi = Math.max(...perReq[i]!);
    console.log(`${e.label}: median ${int(m)} instructions/req, rounds ${int(lo)} … ${int(hi)} (spread ${int(hi - lo)}, ${((100 * (hi - lo)) / m).toFixed(2)}%)`);
  });
  const diffs = perReq[1]!.map((v, r) => v - perReq[0]![r]!);
  const sorted = [...diffs].sort((a, b) => a - b);
  const base = median(perReq[0]!);
  console.log(
    `working tree − ${revision}: median of medians ${int(median(perReq[1]!) - base)} instructions/req (${pct(median(perReq[1]!) - base, base)}); ` +
      `paired rounds ${int(sorted[0]!)} … ${int(sorted.at(-1)!)}; lower in ${diffs.filter((d) => d < 0).length} of ${rounds} rounds`,
  );
}

function pct(part: number, whole: number): string {
  const v = (part / whole) * 100;
  return `${v >= 0 ? '+' : ''}${v.toFixed(2)}%`;
}
