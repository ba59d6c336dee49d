// The MCP `execute` tool (issue 5, "Performance"): a one-call script
// `return await call("demo-crm.contacts/get", { contact_id: "con_1" })` run by a real Engine in its
// own process over Streamable HTTP (raw HTTP POST tools/call on initialized sessions), the fake
// provider a real node:http server in another process. Measured side by side in one run:
//   1. added latency at concurrency 1: execute vs the same GET made directly to the provider (the
//      baseline), with the REST execution of the same operation and an execute that makes no
//      call (`return 1`) as references; targets rotate per round;
//   2. where the added time goes: an in-process micro-benchmark of compileScript + runScript with
//      a trivial host, step by step (esbuild transform, isolate + context, bootstrap, script eval,
//      run with one call() bridge, JSON, dispose), and a sampling profile of the Engine under load;
//   3. throughput of one-call scripts at concurrency 8 and 16 (one MCP session per worker, on one
//      token whose per-token cap is raised to 16: this is the Engine's capacity; the cap's own
//      effect is the fair-share bench's) vs the
//      REST execution of the same operation;
//   4. memory: VmRSS of a fresh Engine sampled every 1,000 executes up to 20,000 (the goal is
//      memory that stays flat after 10,000: the slope over the second half), next to a fresh
//      Engine doing the same number of REST executions (blocks alternate; the blocks are also
//      the concurrency-16 throughput samples).
//
// Knobs: BENCH_EXEC_ROUNDS (10 latency rounds), BENCH_EXEC_PER_ROUND (40 requests per target per
// round), BENCH_EXEC_WINDOW_MS (2000), BENCH_EXEC_MEMORY_TOTAL (20000), BENCH_EXEC_MICRO (200
// iterations), BENCH_PLACEMENT (shared | pinned: load generator + provider on CPU 0, Engines on
// CPU 1), BENCH_EXEC_PROFILE=0 (skip the profile window), BENCH_CPU_PROF=<dir> (also writes
// <dir>/execute-engine.cpuprofile; the reports are left unchanged).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ivm from 'isolated-vm';
import { Pool } from 'undici';
import { compileScript } from '../../src/sandbox/index.ts';
import { IsolatePool, MEMORY_LIMIT_MB, runScript, type SandboxHost } from '../../src/sandbox/run.ts';
import { bridgeSource } from '../../src/sandbox/bootstrap.ts';
import { base64Helper } from '../../src/sandbox/base64.ts';
import { canPin, startChild, twoCorePlacement, type ChildHandle } from './lib/child.ts';
import { closedLoop, cpuDelta, McpHttp, procCpu, startExecEngine, treeRssOf, type ExecEngine, type LoopResult, type ProcCpu } from './lib/exec-engine.ts';
import { bucketize, type Bucket, type CpuProfile } from './lib/profile-buckets.ts';
import { machineCpu } from './lib/sysload.ts';
import { int, median, percentiles, ratio, signedMs, table } from './lib/stats.ts';
import { verdictOf } from './lib/summary.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';
import { CONTACT_BODY } from './servers/contact.ts';

export const name = 'execute';
export const title = 'MCP execute: added latency, throughput, memory over 20,000 executes';

const GOALS = { addedP50Ms: 3, perSecond: 300, slopeMiBPer1000: 1 };

const envInt = (key: string, fallback: number) => {
  const v = Number(process.env[key]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const MiB = 1024 * 1024;
const mib = (b: number) => (b / MiB).toFixed(1);
const ms2 = (v: number) => (Number.isFinite(v) ? (Math.abs(v) < 10 ? v.toFixed(2) : v.toFixed(1)) : 'n/a');
const ms3 = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : 'n/a');
const pct = (v: number) => (Number.isFinite(v) ? `${(v * 100).toFixed(0)}%` : 'n/a');
const verdict = (met: boolean) => (met ? 'met' : '**missed**');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const p = (xs: number[], q: number) => percentiles(Float64Array.from(xs), xs.length, [q])[0]!;

const CODE = 'return await call("demo-crm.contacts/get", { contact_id: "con_1" })';
const NOOP = 'return 1';
const CONTACT = JSON.parse(CONTACT_BODY) as { id: string };

type Target = 'direct' | 'rest' | 'execute' | 'noop';
const LABEL: Record<Target, string> = {
  direct: 'direct GET to the provider (baseline)',
  rest: 'REST execution (`POST …/executions`)',
  execute: 'MCP execute, one `call()`',
  noop: 'MCP execute, `return 1` (no call)',
};

interface Ops {
  direct: () => Promise<string | undefined>;
  rest: (pool: Pool) => Promise<string | undefined>;
  execute: (mcp: McpHttp, session: string, code?: string) => Promise<string | undefined>;
}

function makeOps(providerUrl: string, key: string, engine: ExecEngine): { ops: Ops; directPool: Pool } {
  const directPool = new Pool(providerUrl, { connections: 16, pipelining: 1, keepAliveTimeout: 60_000 });
  const restPath = `/v1/apps/${engine.ready.sdkVersionId}/executions`;
  const restBody = JSON.stringify({ operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' } });
  const restHeaders = { authorization: `Bearer ${engine.ready.sdkToken}`, 'content-type': 'application/json', accept: 'application/json' };
  const directHeaders = { authorization: `Bearer ${key}`, accept: 'application/json' };
  const ops: Ops = {
    async direct() {
      const res = await directPool.request({ method: 'GET', path: '/v1/contacts/con_1', headers: directHeaders });
      const text = await res.body.text();
      return res.statusCode === 200 && text === CONTACT_BODY ? undefined : `direct: HTTP ${res.statusCode} ${text.slice(0, 200)}`;
    },
    async rest(pool) {
      const res = await pool.request({ method: 'POST', path: restPath, headers: restHeaders, body: restBody });
      const text = await res.body.text();
      if (res.statusCode !== 200) return `rest: HTTP ${res.statusCode} ${text.slice(0, 200)}`;
      const env = JSON.parse(text);
      return env?.ok === true && env.data?.id === CONTACT.id ? undefined : `rest: unexpected ${text.slice(0, 200)}`;
    },
    async execute(mcp, session, code = CODE) {
      const r = await mcp.execute(session, { code });
      if (r.status !== 200 || r.isError) return `execute: HTTP ${r.status} ${r.text.slice(0, 300)}`;
      const value = r.structured?.result;
      if (code === NOOP) return value === 1 ? undefined : `execute: unexpected ${r.text.slice(0, 200)}`;
      return value?.ok === true && value.data?.id === CONTACT.id ? undefined : `execute: unexpected ${r.text.slice(0, 300)}`;
    },
  };
  return { ops, directPool };
}

const restPool = (engine: ExecEngine, connections: number) => new Pool(engine.ready.url, { connections, pipelining: 1, keepAliveTimeout: 60_000 });

// ---------------------------------------------------------------------------------------------
// 1. Added latency (concurrency 1)

interface LatencyFigures {
  rounds: Record<Target, number[]>[]; // per round, the samples of each target
  all: Record<Target, number[]>;
  failures: string[];
  foreignCores: number;
}

async function measureLatency(ctx: BenchContext, ops: Ops, engine: ExecEngine, rounds: number, perRound: number): Promise<LatencyFigures> {
  const mcp = new McpHttp(engine.ready.mcpUrl, engine.ready.mcpToken, 1);
  const rest = restPool(engine, 1);
  try {
    const session = await mcp.open();
    const run: Record<Target, () => Promise<string | undefined>> = {
      direct: () => ops.direct(),
      rest: () => ops.rest(rest),
      execute: () => ops.execute(mcp, session),
      noop: () => ops.execute(mcp, session, NOOP),
    };
    const ids: Target[] = ['direct', 'execute', 'rest', 'noop'];
    // Pre-flight and warm-up: a broken setup fails loudly before anything is timed.
    for (const id of ids) {
      const first = await run[id]();
      if (first) throw new Error(`${LABEL[id]} does not answer as expected: ${first}`);
    }
    for (const id of ids) await closedLoop(() => run[id](), 1, { count: 150 });
    const out: LatencyFigures = { rounds: [], all: { direct: [], rest: [], execute: [], noop: [] }, failures: [], foreignCores: 0 };
    const sys0 = machineCpu();
    const own0 = process.cpuUsage();
    const eng0 = procCpu(engine.pid);
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) {
      const order = ids.map((_, i) => ids[(i + r) % ids.length]!);
      const row = {} as Record<Target, number[]>;
      for (const id of order) {
        const res = await closedLoop(() => run[id](), 1, { count: perRound });
        if (res.firstFailure) out.failures.push(res.firstFailure);
        row[id] = res.latencies;
        out.all[id].push(...res.latencies);
      }
      out.rounds.push(row);
      ctx.log(`latency round ${r + 1}/${rounds}: ` + ids.map((id) => `${id} p50 ${ms2(median(row[id]))}`).join(', ') + ' ms');
    }
    const wall = performance.now() - t0;
    const own = process.cpuUsage(own0);
    const eng = cpuDelta(eng0, procCpu(engine.pid));
    const sys1 = machineCpu();
    out.foreignCores = Math.max(0, (sys1.busyUs - sys0.busyUs - own.user - own.system - eng.total - eng.children) / 1000 / wall);
    await mcp.close(session);
    return out;
  } finally {
    await mcp.destroy();
    await rest.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// 2a. In-process micro-benchmark: compileScript + runScript with a trivial host

const STEPS = [
  'compileScript (esbuild transform + source map)',
  'new Isolate (64 MB limit)',
  'createContextSync',
  'bridge references',
  'bootstrap evalClosure (script environment)',
  'script eval and run: `__svc_finish(__svc_main)` → call() bridge → host → result',
  'JSON (result parse, answer text, structuredContent, JSON-RPC body)',
  'release references + isolate.dispose',
] as const;

interface MicroFigures {
  steps: { label: string; p50: number; p99: number; mean: number }[];
  /** compileScript + runScript through an IsolatePool, back to back: the pool is empty, so each run creates its isolate. */
  pooled: { p50: number; p99: number };
  /** Same, on isolates created ahead of time (no pool refill on the event loop during the run). */
  pooledPrebuilt: { p50: number; p99: number };
  /** Same, runs of one tenant: each takes the fresh context its tenant's previous run's isolate got. */
  pooledReused: { p50: number; p99: number };
  compile: { p50: number; p99: number };
  iterations: number;
  /** Memory a fresh isolate + context holds: its heap's physical size + malloced memory (median of 20). */
  isolateRss: number;
}

const ENVELOPE = { ok: true, status: 200, headers: {}, data: CONTACT, error: null };
const trivialHost: SandboxHost = {
  call: async () => ({ value: ENVELOPE }),
  sessionGet: async () => ({ value: null }),
  sessionSet: async () => ({ value: null }),
  sessionPage: async () => ({ value: null }),
};

/** The steps of runScript (src/sandbox/run.ts) one by one, timed; mirrors its calls and options. */
async function microStep(t: number[][]): Promise<void> {
  const lap = (() => {
    let last = performance.now();
    return (i: number) => {
      const now = performance.now();
      t[i]!.push(now - last);
      last = now;
    };
  })();
  const compiled = await compileScript(CODE);
  lap(0);
  const isolate = new ivm.Isolate({ memoryLimit: MEMORY_LIMIT_MB });
  lap(1);
  const context = isolate.createContextSync();
  lap(2);
  const bridge = (fn: (...args: any[]) => Promise<unknown>) =>
    new ivm.Reference(async (...args: unknown[]) => {
      const value = await fn(...args);
      return value === undefined ? undefined : JSON.stringify(value);
    });
  const refs = [
    bridge((...args: unknown[]) => {
      const [op, params, opts] = args.map((a) => (a === undefined ? undefined : JSON.parse(a as string)));
      return trivialHost.call(op, params, opts);
    }),
    bridge((a) => trivialHost.sessionGet(JSON.parse(a as string))),
    bridge((a) => trivialHost.sessionSet(JSON.parse(a as string))),
    bridge((a) => trivialHost.sessionPage(JSON.parse(a as string))),
    new ivm.Reference((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    new ivm.Reference((_id: number) => undefined), // clearTimeout's host side; the script sets no timer
  ];
  lap(3);
  await context.evalClosure(bridgeSource, [...refs, new ivm.Callback(base64Helper)]);
  lap(4);
  const text = (await context.eval(`${compiled.js}\n__svc_finish(__svc_main)`, { filename: 'script.js', timeout: 30_000, promise: true, copy: true })) as string;
  lap(5);
  const result = JSON.parse(text) as { ok: boolean; json?: string };
  if (!result.ok) throw new Error(`micro-benchmark script failed: ${text.slice(0, 300)}`);
  const json = result.json ?? 'null';
  const answer = `{"result":${json}}`;
  if (Buffer.byteLength(answer) > 16_384) throw new Error('unexpected answer size');
  const structuredContent = JSON.parse(answer);
  JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: answer }], structuredContent } });
  lap(6);
  for (const r of refs) r.release();
  isolate.dispose();
  lap(7);
}

async function measureMicro(ctx: BenchContext, iterations: number): Promise<MicroFigures> {
  const t: number[][] = STEPS.map(() => []);
  for (let i = 0; i < 40; i++) await microStep(STEPS.map(() => []));
  for (let i = 0; i < iterations; i++) await microStep(t);
  const pool = new IsolatePool();
  const pooled: number[] = [];
  const prebuiltRuns: number[] = [];
  const compile: number[] = [];
  // Isolates made ahead of time, outside the timed path: what runScript costs when its worker
  // refilled the pool while idle (context and script environment ready). runScript only calls take().
  const ahead = new IsolatePool(20);
  // Runs of one tenant: the pool recycles the isolate of each run for the next (a fresh context).
  const reuse = new IsolatePool(0);
  const reusedRuns: number[] = [];
  let tenants = 0;
  let isolateRss = NaN;
  try {
    await sleep(100);
    const once = async (into: number[], on: IsolatePool) => {
      // A new tenant each time, except on `reuse`: only runs of one tenant share an isolate.
      const tenant = on === reuse ? 'tok_bench' : `tok_${tenants++}`;
      const t0 = performance.now();
      const compiled = await compileScript(CODE);
      if (on === pool) compile.push(performance.now() - t0);
      const outcome = await runScript({ code: compiled, tenant, host: trivialHost, budgetMs: 30_000, signal: new AbortController().signal, pool: on });
      into.push(performance.now() - t0);
      if (outcome.kind !== 'returned') throw new Error(`runScript: ${JSON.stringify(outcome).slice(0, 300)}`);
    };
    for (let i = 0; i < 40; i++) {
      await once([], pool);
      await once([], reuse);
    }
    compile.length = 0;
    // Alternate the two so drift on the noisy machine hits both alike.
    for (let i = 0; i < iterations; i++) {
      if (!ahead.warm) {
        await ahead.refill();
        if (Number.isNaN(isolateRss)) {
          const probe = new ivm.Isolate({ memoryLimit: MEMORY_LIMIT_MB });
          probe.createContextSync();
          const h = probe.getHeapStatisticsSync();
          isolateRss = h.total_physical_size + h.malloced_memory;
          probe.dispose();
        }
        await sleep(20);
      }
      await once(pooled, pool);
      await once(prebuiltRuns, ahead);
      await once(reusedRuns, reuse);
    }
    if (reuse.stats.contextsReused < iterations) throw new Error(`the reuse pool reused ${reuse.stats.contextsReused} contexts in ${iterations} runs`);
  } finally {
    await pool.close();
    await ahead.close();
    await reuse.close();
  }
  const figures: MicroFigures = {
    steps: STEPS.map((label, i) => ({ label, p50: p(t[i]!, 50), p99: p(t[i]!, 99), mean: t[i]!.reduce((s, v) => s + v, 0) / t[i]!.length })),
    pooled: { p50: p(pooled, 50), p99: p(pooled, 99) },
    pooledPrebuilt: { p50: p(prebuiltRuns, 50), p99: p(prebuiltRuns, 99) },
    pooledReused: { p50: p(reusedRuns, 50), p99: p(reusedRuns, 99) },
    compile: { p50: p(compile, 50), p99: p(compile, 99) },
    iterations,
    isolateRss,
  };
  ctx.log(`micro: pooled compile+run p50 ${ms3(figures.pooled.p50)} ms, isolate made ahead ${ms3(figures.pooledPrebuilt.p50)} ms, tenant's isolate reused ${ms3(figures.pooledReused.p50)} ms, steps p50 sum ${ms3(figures.steps.reduce((s, x) => s + x.p50, 0))} ms`);
  return figures;
}

// ---------------------------------------------------------------------------------------------
// 2b. Where the Engine's event loop spends its time under load (sampling profile)

const inSrc = (file: string) => (url: string) => url.includes(`/src/${file}`);
const BUCKETS: Bucket[] = [
  { label: 'esbuild transform (compileScript; request to and answer from the esbuild service)', match: (_fn, url) => url.includes('/node_modules/esbuild/') },
  { label: 'provider call: Executor (validation, secret, undici request, envelope, receipt)', match: (_fn, url) => url.includes('/src/execution/') || url.includes('/src/activity/') || url.includes('/src/credentials/') },
  // Isolates are made and scripts run in the sandbox worker processes; the event loop only hands runs and bridge calls over.
  { label: 'sandbox hand-off: messages to and from the sandbox worker processes (IPC)', match: (_fn, url) => inSrc('sandbox/')(url) || url.startsWith('node:internal/child_process') || url === 'node:v8' },
  { label: 'execute tool: token lookup, scope, answer (src/mcp/execute.ts)', match: (_fn, url) => inSrc('mcp/execute.ts')(url) },
  { label: 'MCP layer: gateway auth, SDK server + transport, zod, Hono adapter', match: (_fn, url) => url.includes('/src/mcp/') || url.includes('/@modelcontextprotocol/') || url.includes('/node_modules/zod/') || url.includes('/@hono/') || url.includes('/src/identity/') },
  { label: 'HTTP server, sockets, undici internals, streams', match: (_fn, url) => url.startsWith('node:') || url.includes('/node_modules/undici/') || url.includes('/koa') },
  { label: 'garbage collector', match: (fn) => fn === '(garbage collector)' },
];
const IGNORE: Bucket[] = [{ label: 'profiler IPC', match: (fn, url) => url.includes('exec-engine-child.ts') || (fn === 'post' && url === 'node:inspector') }];

interface ProfileFigures {
  shares: { label: string; share: number; usPerOp: number }[];
  busyShare: number;
  ops: number;
  perSecond: number;
}

async function profileEngine(ctx: BenchContext, ops: Ops, engine: ExecEngine, concurrency: number, durationMs: number, keepDir: string | undefined): Promise<ProfileFigures> {
  const mcp = new McpHttp(engine.ready.mcpUrl, engine.ready.mcpToken, concurrency);
  try {
    const sessions = await Promise.all(Array.from({ length: concurrency }, () => mcp.open()));
    await closedLoop((w) => ops.execute(mcp, sessions[w]!), concurrency, { durationMs: 500 });
    const path = join(keepDir ?? tmpdir(), keepDir ? 'execute-engine.cpuprofile' : `svc-bench-execute-${process.pid}.cpuprofile`);
    await engine.profileStart();
    const res = await closedLoop((w) => ops.execute(mcp, sessions[w]!), concurrency, { durationMs });
    await engine.profileStop(path);
    const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
    if (!keepDir) rmSync(path, { force: true });
    const b = bucketize(profile, BUCKETS, IGNORE);
    ctx.log(`profile: ${res.ok} executes, event loop busy ${pct(b.busyUs / b.wallUs)}${keepDir ? `, written to ${path}` : ''}`);
    await Promise.all(sessions.map((s) => mcp.close(s)));
    return { shares: b.shares.map((s) => ({ label: s.label, share: s.share, usPerOp: s.us / Math.max(1, res.ok) })), busyShare: b.busyUs / b.wallUs, ops: res.ok, perSecond: res.perSecond };
  } finally {
    await mcp.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Throughput windows (concurrency 8)

interface Window {
  loop: LoopResult;
  cpu: ProcCpu;
  foreignCores: number;
}

async function measuredWindow(engine: ExecEngine, run: () => Promise<LoopResult>): Promise<Window> {
  const sys0 = machineCpu();
  const own0 = process.cpuUsage();
  const c0 = procCpu(engine.pid);
  const t0 = performance.now();
  const loop = await run();
  const wall = performance.now() - t0;
  const cpu = cpuDelta(c0, procCpu(engine.pid));
  const own = process.cpuUsage(own0);
  const sys1 = machineCpu();
  // Busy CPU outside this process and the Engine (the provider's share is small and included).
  const foreignCores = Math.max(0, (sys1.busyUs - sys0.busyUs - own.user - own.system - cpu.total - cpu.children) / 1000 / wall);
  return { loop, cpu, foreignCores };
}

interface ThroughputFigures {
  concurrency: number;
  rounds: { execute: Window; rest: Window }[];
}

async function measureThroughput(ctx: BenchContext, ops: Ops, engine: ExecEngine, concurrency: number, rounds: number, windowMs: number): Promise<ThroughputFigures> {
  const mcp = new McpHttp(engine.ready.mcpUrl, engine.ready.mcpToken, concurrency);
  const rest = restPool(engine, concurrency);
  try {
    const sessions = await Promise.all(Array.from({ length: concurrency }, () => mcp.open()));
    const runs = {
      execute: (d: number) => closedLoop((w) => ops.execute(mcp, sessions[w]!), concurrency, { durationMs: d }),
      rest: (d: number) => closedLoop(() => ops.rest(rest), concurrency, { durationMs: d }),
    };
    await runs.execute(1200);
    await runs.rest(800);
    const out: ThroughputFigures = { concurrency, rounds: [] };
    for (let r = 0; r < rounds; r++) {
      const order: ('execute' | 'rest')[] = r % 2 ? ['rest', 'execute'] : ['execute', 'rest'];
      const row = {} as { execute: Window; rest: Window };
      for (const id of order) {
        row[id] = await measuredWindow(engine, () => runs[id](windowMs));
        await sleep(100);
      }
      out.rounds.push(row);
      ctx.log(`throughput c=${concurrency} round ${r + 1}/${rounds}: execute ${int(row.execute.loop.perSecond)}/s p50 ${ms2(row.execute.loop.p50)} ms, REST ${int(row.rest.loop.perSecond)}/s, other load ${row.execute.foreignCores.toFixed(2)} / ${row.rest.foreignCores.toFixed(2)} cores`);
    }
    await Promise.all(sessions.map((s) => mcp.close(s)));
    return out;
  } finally {
    await mcp.destroy();
    await rest.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Memory over 20,000 executes (fresh Engines; blocks of 1,000 alternate with REST)

interface MemorySample {
  n: number;
  /** VmRSS before the forced GC. */
  rss: number;
  /** V8 heap used and external memory after a forced full GC. */
  heapAfterGc: number;
  externalAfterGc: number;
  rssAfterGc: number;
}

interface MemoryEnd {
  rss: number;
  heapUsed: number;
  external: number;
}

interface MemoryFigures {
  concurrency: number;
  block: number;
  execute: MemorySample[];
  rest: MemorySample[];
  executeBlocks: Window[];
  restBlocks: Window[];
  /** After the last block, sessions still open. */
  openGc: { execute: MemoryEnd; rest: MemoryEnd };
  /** After closing the MCP sessions (DELETE) and a forced GC. */
  closedGc: { execute: MemoryEnd; rest: MemoryEnd };
  failures: string[];
}

async function gcReading(engine: ExecEngine): Promise<MemoryEnd> {
  const m = await engine.memory(true);
  return { rss: treeRssOf(engine.pid), heapUsed: m.heapUsed, external: m.external };
}

async function sample(engine: ExecEngine, n: number): Promise<MemorySample> {
  const rss = treeRssOf(engine.pid);
  const g = await gcReading(engine);
  return { n, rss, heapAfterGc: g.heapUsed, externalAfterGc: g.external, rssAfterGc: g.rss };
}

/**
 * `total` executes on fresh Engine `execEngine` over `concurrency` long-lived MCP sessions, in
 * blocks of `block`, each followed by the same number of REST executions on fresh Engine
 * `restEngine`; both sampled after every block.
 */
async function measureMemory(ctx: BenchContext, ops: Ops, execEngine: ExecEngine, restEngine: ExecEngine, total: number, block: number, concurrency: number): Promise<MemoryFigures> {
  const mcp = new McpHttp(execEngine.ready.mcpUrl, execEngine.ready.mcpToken, concurrency);
  const rest = restPool(restEngine, concurrency);
  try {
    const sessions = await Promise.all(Array.from({ length: concurrency }, () => mcp.open()));
    const first = await ops.execute(mcp, sessions[0]!);
    if (first) throw new Error(`execute does not answer as expected: ${first}`);
    const firstRest = await ops.rest(rest);
    if (firstRest) throw new Error(`REST execution does not answer as expected: ${firstRest}`);
    const out: MemoryFigures = {
      concurrency,
      block,
      execute: [await sample(execEngine, 0)],
      rest: [await sample(restEngine, 0)],
      executeBlocks: [],
      restBlocks: [],
      openGc: undefined as never,
      closedGc: undefined as never,
      failures: [],
    };
    for (let done = 0; done < total; done += block) {
      const e = await measuredWindow(execEngine, () => closedLoop((w) => ops.execute(mcp, sessions[w]!), concurrency, { count: block }));
      out.execute.push(await sample(execEngine, done + block));
      const r = await measuredWindow(restEngine, () => closedLoop(() => ops.rest(rest), concurrency, { count: block }));
      out.rest.push(await sample(restEngine, done + block));
      for (const w of [e, r]) if (w.loop.firstFailure) out.failures.push(w.loop.firstFailure);
      out.executeBlocks.push(e);
      out.restBlocks.push(r);
      const x = out.execute.at(-1)!;
      const y = out.rest.at(-1)!;
      ctx.log(
        `memory ${int(done + block)}/${int(total)}: execute RSS ${mib(x.rss)} MiB, heap after GC ${mib(x.heapAfterGc)} MiB (${int(e.loop.perSecond)}/s); ` +
          `REST RSS ${mib(y.rss)} MiB, heap after GC ${mib(y.heapAfterGc)} MiB (${int(r.loop.perSecond)}/s)`,
      );
    }
    out.openGc = { execute: await gcReading(execEngine), rest: await gcReading(restEngine) };
    await Promise.all(sessions.map((s) => mcp.close(s)));
    await sleep(200);
    out.closedGc = { execute: await gcReading(execEngine), rest: await gcReading(restEngine) };
    ctx.log(`memory: sessions closed → execute Engine heap ${mib(out.closedGc.execute.heapUsed)} MiB (open: ${mib(out.openGc.execute.heapUsed)}), RSS ${mib(out.closedGc.execute.rss)} MiB`);
    return out;
  } finally {
    await mcp.destroy();
    await rest.destroy();
  }
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return NaN;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return num / den;
}

// ---------------------------------------------------------------------------------------------

const script = (file: string) => fileURLToPath(new URL(`./servers/${file}`, import.meta.url));

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const rounds = envInt('BENCH_EXEC_ROUNDS', 10);
  const perRound = envInt('BENCH_EXEC_PER_ROUND', 40);
  const windowMs = envInt('BENCH_EXEC_WINDOW_MS', 2_000);
  const memoryTotal = envInt('BENCH_EXEC_MEMORY_TOTAL', 20_000);
  const microIterations = envInt('BENCH_EXEC_MICRO', 200);
  const withProfile = process.env.BENCH_EXEC_PROFILE !== '0';
  const profileDir = process.env.BENCH_CPU_PROF;
  const pinned = process.env.BENCH_PLACEMENT === 'pinned' && canPin();
  const key = `sk_bench_${randomBytes(12).toString('hex')}`;
  const children: { stop(): Promise<void> }[] = [];
  const pools: Pool[] = [];
  const t0 = performance.now();
  const { edgeCpus, hopCpus, restore } = twoCorePlacement(pinned);
  try {
    const provider: ChildHandle<{ url: string }> = await startChild('provider', script('provider.ts'), { cpus: edgeCpus, env: { BENCH_PROVIDER_KEY: key } });
    children.push(provider);
    const engineOptions = { upstream: provider.ready.url, key, cpus: hopCpus };
    // Engine A (fresh): the memory series of executes first, then latency, throughput and the
    // profile. Engine C (fresh): the memory series of REST executions, the baseline.
    // The sessions share one token: its cap of executes at once (2 by default) would measure the cap, not the Engine.
    const capacity = { ...engineOptions, settings: { SVC_EXECUTE_CONCURRENCY_PER_TOKEN: '16' } };
    const started = await Promise.allSettled([startExecEngine(capacity), startExecEngine(engineOptions)]);
    for (const s of started) if (s.status === 'fulfilled') children.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const [engine, restEngine] = started.map((s) => (s as PromiseFulfilledResult<ExecEngine>).value) as [ExecEngine, ExecEngine];
    ctx.log(`provider ${provider.ready.url}; Engines ${engine.ready.url} (execute), ${restEngine.ready.url} (REST baseline) (${pinned ? 'pinned: load + provider on CPU 0, Engines on CPU 1' : 'shared cores'}), up in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const { ops, directPool } = makeOps(provider.ready.url, key, engine);
    pools.push(directPool);
    const { ops: restOps, directPool: p2 } = makeOps(provider.ready.url, key, restEngine);
    pools.push(p2);

    const memory = await measureMemory(ctx, { direct: ops.direct, execute: ops.execute, rest: restOps.rest }, engine, restEngine, memoryTotal, 1_000, 16);
    await restEngine.stop();
    const latency = await measureLatency(ctx, ops, engine, rounds, perRound);
    const micro = await measureMicro(ctx, microIterations);
    const tput8 = await measureThroughput(ctx, ops, engine, 8, 2, windowMs);
    const profile = withProfile || profileDir ? await profileEngine(ctx, ops, engine, 8, 2_000, profileDir ? (mkdirSync(profileDir, { recursive: true }), profileDir) : undefined) : undefined;
    return report({ latency, micro, tput8, profile, memory, rounds, perRound, windowMs, pinned, profiled: Boolean(profileDir) });
  } finally {
    await Promise.allSettled(pools.map((p) => p.destroy()));
    await Promise.allSettled(children.reverse().map((c) => c.stop()));
    restore();
  }
}

function report(o: {
  latency: LatencyFigures;
  micro: MicroFigures;
  tput8: ThroughputFigures;
  profile: ProfileFigures | undefined;
  memory: MemoryFigures;
  rounds: number;
  perRound: number;
  windowMs: number;
  pinned: boolean;
  profiled: boolean;
}): BenchResult {
  const { latency, micro, tput8, profile, memory } = o;
  const ids: Target[] = ['direct', 'execute', 'rest', 'noop'];
  const roundP50 = (id: Target) => latency.rounds.map((r) => median(r[id]));
  const paired = (a: Target, b: Target) => median(latency.rounds.map((r) => median(r[a]) - median(r[b])));
  const addedP50 = paired('execute', 'direct');
  const addedP99 = p(latency.all.execute, 99) - p(latency.all.direct, 99);

  // Throughput at 8 (windows) and 16 (the memory blocks).
  const t8 = {
    exec: median(tput8.rounds.map((r) => r.execute.loop.perSecond)),
    rest: median(tput8.rounds.map((r) => r.rest.loop.perSecond)),
    execP50: median(tput8.rounds.map((r) => r.execute.loop.p50)),
    execP99: median(tput8.rounds.map((r) => r.execute.loop.p99)),
    restP50: median(tput8.rounds.map((r) => r.rest.loop.p50)),
    restP99: median(tput8.rounds.map((r) => r.rest.loop.p99)),
    foreign: median(tput8.rounds.flatMap((r) => [r.execute.foreignCores, r.rest.foreignCores])),
  };
  const t16 = {
    exec: median(memory.executeBlocks.map((w) => w.loop.perSecond)),
    rest: median(memory.restBlocks.map((w) => w.loop.perSecond)),
    execP50: median(memory.executeBlocks.map((w) => w.loop.p50)),
    execP99: median(memory.executeBlocks.map((w) => w.loop.p99)),
    restP50: median(memory.restBlocks.map((w) => w.loop.p50)),
    restP99: median(memory.restBlocks.map((w) => w.loop.p99)),
    foreign: median([...memory.executeBlocks, ...memory.restBlocks].map((w) => w.foreignCores)),
  };
  const perOp = (ws: Window[], f: (c: ProcCpu) => number) => median(ws.map((w) => f(w.cpu) / Math.max(1, w.loop.ok)));
  const execWindows8 = tput8.rounds.map((r) => r.execute);
  const restWindows8 = tput8.rounds.map((r) => r.rest);
  const threadLabel = (n: string) => (n === 'MainThread' ? 'MainThread-named (isolated-vm)' : n);
  const cpuRow = (label: string, ws: Window[]) => {
    const total = perOp(ws, (c) => c.total + c.children);
    const main = perOp(ws, (c) => c.main);
    const threadNames = [...new Set(ws.flatMap((w) => Object.keys(w.cpu.threads)))];
    const others = threadNames
      .map((n) => [n, perOp(ws, (c) => c.threads[n] ?? 0)] as const)
      .filter(([, v]) => v >= 5)
      .sort((a, b) => b[1] - a[1])
      .map(([n, v]) => `${threadLabel(n)} ${int(v)}`)
      .join(', ');
    return [label, int(total), int(main), others || '–', int(perOp(ws, (c) => c.children)), int(1e6 / main), int(2e6 / total)];
  };

  // Memory slopes, MiB per 1,000 operations, over the second half of the series (after warm-up).
  const totalN = memory.execute.at(-1)!.n;
  const half = (xs: MemorySample[]) => xs.filter((s) => s.n >= totalN / 2);
  const slopeOf = (xs: MemorySample[], f: (s: MemorySample) => number) => slope(half(xs).map((s) => s.n / 1000), half(xs).map((s) => f(s) / MiB));
  const slopeAll = (xs: MemorySample[], f: (s: MemorySample) => number) => slope(xs.slice(1).map((s) => s.n / 1000), xs.slice(1).map((s) => f(s) / MiB));
  const execSlope = slopeOf(memory.execute, (s) => s.rss);
  const restSlope = slopeOf(memory.rest, (s) => s.rss);
  const execHeapSlope = slopeOf(memory.execute, (s) => s.heapAfterGc);
  const restHeapSlope = slopeOf(memory.rest, (s) => s.heapAfterGc);
  const signed = (v: number, d = 2) => `${v >= 0 ? '+' : ''}${v.toFixed(d)}`;
  const retainedPerExecute = (memory.openGc.execute.heapUsed - memory.closedGc.execute.heapUsed) / totalN;
  // RSS growth the V8 heap does not explain, per execute, over the second half; and how many
  // isolates (at the RSS one costs, measured in the micro-benchmark) it could hold at most.
  const nonHeapPerExecute = Math.max(0, ((execSlope - execHeapSlope) * MiB) / 1000);
  const hiddenIsolates = (nonHeapPerExecute * (totalN / 2)) / micro.isolateRss;
  const met = {
    added: addedP50 <= GOALS.addedP50Ms,
    t8: t8.exec >= GOALS.perSecond,
    t16: t16.exec >= GOALS.perSecond,
    rss: execSlope - restSlope <= GOALS.slopeMiBPer1000,
    isolates: hiddenIsolates < totalN / 2 / 100,
    heap: execHeapSlope <= GOALS.slopeMiBPer1000,
  };

  const out: string[] = [];
  out.push(
    `A real Engine in its own process (\`startEngine\`, SQLite data dir, demo-crm v1 pointed at the fake provider, an MCP server and an SDK selecting \`demo-crm.contacts/get\`), ` +
      `driven over Streamable HTTP with raw \`POST tools/call\` on initialized sessions (\`enableJsonResponse\`). The script is \`${CODE}\`; ` +
      `the fake provider is \`test/bench/servers/provider.ts\` (node:http, a fixed ${CONTACT_BODY.length}-byte JSON body) in its own process. Every answer is checked (envelope \`ok\`, contact id). ` +
      (o.pinned ? 'Placement: load generator + provider pinned to CPU 0, Engines to CPU 1 (`taskset`).' : 'Placement: all processes share the 2 cores (no pinning), as an Engine on a 2-core host would.'),
  );
  if (o.profiled) out.push('', '**Profiled run** (BENCH_CPU_PROF): do not compare these figures with unprofiled runs.');
  if (latency.failures.length || memory.failures.length) out.push('', `**Some requests failed** (first: \`${[...latency.failures, ...memory.failures][0]!.replace(/[|`\n]/g, ' ').slice(0, 160)}\`) — the figures are not trustworthy.`);
  out.push('');

  out.push('### Goals', '');
  out.push(
    table(
      ['metric', 'measured', 'goal', 'verdict'],
      [
        ['added latency of execute (one call) vs direct, p50 (paired per round)', `${signedMs(addedP50)} ms`, `≤ ${GOALS.addedP50Ms} ms`, verdict(met.added)],
        ['one-call executes per second, 2 cores, concurrency 8', int(t8.exec), `≥ ${GOALS.perSecond}/s`, verdict(met.t8)],
        ['one-call executes per second, 2 cores, concurrency 16', int(t16.exec), `≥ ${GOALS.perSecond}/s`, verdict(met.t16)],
        [
          // An Engine's RSS drifts with the allocator whatever it serves; the REST Engine beside it is
          // that drift's baseline, so executes are judged on what they add to it.
          `Engine RSS slope after ${int(totalN / 2)} executes (${int(totalN / 2)}–${int(totalN)}), long-lived sessions, net of the REST baseline Engine's in the same run (execute ${signed(execSlope)}, REST ${signed(restSlope)})`,
          `${signed(execSlope - restSlope)} MiB / 1,000`,
          `flat: ≤ ${GOALS.slopeMiBPer1000} MiB / 1,000`,
          verdict(met.rss),
        ],
        [
          `no isolate leak: RSS growth the heap does not explain (RSS − heap slope), as isolates of ${int(micro.isolateRss / 1024)} KiB`,
          `${(nonHeapPerExecute / 1024).toFixed(2)} KiB / execute: ≤ ${int(hiddenIsolates)} isolates in ${int(totalN / 2)} executes`,
          '< 1% of executes',
          verdict(met.isolates),
        ],
        [
          `V8 heap after GC, slope over the same executes (REST baseline ${signed(restHeapSlope)})`,
          `${signed(execHeapSlope)} MiB / 1,000`,
          `flat: ≤ ${GOALS.slopeMiBPer1000} MiB / 1,000`,
          verdict(met.heap),
        ],
      ],
      ['l', 'r', 'r', 'l'],
    ),
  );
  out.push('');

  // 1. Latency
  out.push(`### 1. Added latency (concurrency 1, ${o.rounds} rounds × ${o.perRound} requests per target, order rotated each round)`, '');
  out.push(
    table(
      ['target', 'p50 ms', 'p90 ms', 'p99 ms', 'p50 range across rounds', 'added p50 vs direct (paired)', 'added p99 vs direct'],
      ids.map((id) => [
        LABEL[id],
        ms3(p(latency.all[id], 50)),
        ms3(p(latency.all[id], 90)),
        ms3(p(latency.all[id], 99)),
        `${ms2(Math.min(...roundP50(id)))}–${ms2(Math.max(...roundP50(id)))}`,
        id === 'direct' ? '–' : signedMs(paired(id, 'direct'), 3),
        id === 'direct' ? '–' : signedMs(p(latency.all[id], 99) - p(latency.all.direct, 99), 3),
      ]),
    ),
  );
  out.push('');
  out.push(
    `Decomposition of the added p50 (paired): MCP + sandbox on top of the REST execution path (execute − REST) ${signedMs(paired('execute', 'rest'), 3)} ms; ` +
      `the provider call inside a script (execute − \`return 1\`) ${signedMs(paired('execute', 'noop'), 3)} ms; ` +
      `REST execution vs direct ${signedMs(paired('rest', 'direct'), 3)} ms. Added p99: ${signedMs(addedP99, 2)} ms. ` +
      `Other processes on the machine used ${latency.foreignCores.toFixed(2)} cores during these rounds.`,
  );
  out.push('');

  // 2. Breakdown
  const stepSum = micro.steps.reduce((s, x) => s + x.p50, 0);
  out.push(`### 2. Where the added time goes`, '');
  out.push(
    `In-process micro-benchmark (this process, ${micro.iterations} iterations after warm-up): the steps of \`runScript\` (src/sandbox/index.ts) replayed one by one with the same isolated-vm calls ` +
      `and a trivial host whose \`call()\` returns the ${CONTACT_BODY.length}-byte contact envelope at once; then the real \`compileScript\` + \`runScript\` on an \`IsolatePool\` (size 2, as in the Engine).`,
  );
  out.push('');
  out.push(
    table(
      ['step', 'p50 ms', 'p99 ms', 'mean ms', 'share of p50 sum'],
      [
        ...micro.steps.map((s) => [s.label, ms3(s.p50), ms3(s.p99), ms3(s.mean), pct(s.p50 / stepSum)]),
        ['**sum of step p50s**', `**${ms3(stepSum)}**`, '', '', ''],
        ['real compileScript + runScript, a new tenant each run and no fresh isolate made ahead (each run creates its isolate: a worker saturated with new tenants)', ms3(micro.pooled.p50), ms3(micro.pooled.p99), '', ''],
        ['same, isolates created ahead of time outside the timed path (a worker that refilled while idle), alternating with the row above', ms3(micro.pooledPrebuilt.p50), ms3(micro.pooledPrebuilt.p99), '', ''],
        ['same, every run of one tenant: a fresh context in the isolate its previous run used (prepared after that run), alternating with the rows above', ms3(micro.pooledReused.p50), ms3(micro.pooledReused.p99), '', ''],
        ['of which compileScript alone', ms3(micro.compile.p50), ms3(micro.compile.p99), '', ''],
      ],
      ['l', 'r', 'r', 'r', 'r'],
    ),
  );
  out.push('');
  out.push(
    'In the Engine these steps run in sandbox worker processes (src/sandbox/workers.ts), not on the event loop that serves HTTP. ' +
      'After a run that ended normally its isolate gets a fresh context and waits for the next run of the same tenant (the MCP token), so an agent\'s runs normally take that (the third row: no `new Isolate`, no dispose); ' +
      'a new tenant takes a fresh isolate a worker made while idle (the second row), and a worker saturated with new tenants creates each isolate inside the run (the first row). Tenants never share an isolate.',
  );
  out.push('');
  if (profile) {
    out.push(
      `Sampling profile of the Engine process during a separate ${int(profile.ops)}-execute window at concurrency 8 (${int(profile.perSecond)}/s while profiled; event loop busy ${pct(profile.busyShare)} of the window). ` +
        `Each busy sample goes to the first bucket matching a frame on its stack, in this order:`,
    );
    out.push('');
    out.push(
      table(
        ['event-loop work', 'share of busy samples', 'µs per execute'],
        profile.shares.filter((s) => s.share > 0).map((s) => [s.label, pct(s.share), int(s.usPerOp)]),
        ['l', 'r', 'r'],
      ),
    );
    out.push('');
  }

  // 3. Throughput
  out.push('### 3. Throughput of one-call scripts (2 cores)', '');
  out.push(
    `Closed loop, one MCP session per worker, all on one token with SVC_EXECUTE_CONCURRENCY_PER_TOKEN=16 (the Engine's capacity, not one token's share). Concurrency 8: ${tput8.rounds.length} rounds × ${o.windowMs} ms windows per target, order alternating, on one Engine. ` +
      `Concurrency 16: the ${memory.executeBlocks.length} blocks of ${int(memory.block)} operations of the memory run (section 4), on two fresh Engines (one for executes, one for REST), blocks alternating. Medians across windows / blocks.`,
  );
  out.push('');
  out.push(
    table(
      ['concurrency', 'target', 'per second', 'p50 ms', 'p99 ms', 'execute / REST', 'other load (cores)'],
      [
        ['8', 'MCP execute, one call()', int(t8.exec), ms2(t8.execP50), ms2(t8.execP99), ratio(t8.exec / t8.rest), t8.foreign.toFixed(2)],
        ['8', 'REST execution (reference)', int(t8.rest), ms2(t8.restP50), ms2(t8.restP99), '', ''],
        ['16', 'MCP execute, one call()', int(t16.exec), ms2(t16.execP50), ms2(t16.execP99), ratio(t16.exec / t16.rest), t16.foreign.toFixed(2)],
        ['16', 'REST execution (reference)', int(t16.rest), ms2(t16.restP50), ms2(t16.restP99), '', ''],
      ],
      ['r', 'l', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  out.push('');
  out.push('Engine CPU per operation (from /proc: main thread = the event loop; other threads by name; child processes = the sandbox worker processes and the esbuild service), medians across windows:', '');
  out.push(
    table(
      ['operation', 'Engine CPU µs/op (incl. children)', 'main thread µs', 'other threads µs', 'child processes µs (sandbox, esbuild)', 'event-loop ceiling, ops/s', '2-core ceiling, ops/s'],
      [cpuRow('execute, c=8', execWindows8), cpuRow('REST, c=8', restWindows8), cpuRow('execute, c=16', memory.executeBlocks), cpuRow('REST, c=16', memory.restBlocks)],
      ['l', 'r', 'r', 'l', 'r', 'r', 'r'],
    ),
  );
  out.push('');
  out.push(
    '"Event-loop ceiling" = 1 s ÷ main-thread CPU per operation: the most one Engine process can complete even with idle cores, since its event loop is single-threaded. ' +
      '"2-core ceiling" = 2 cores ÷ all Engine CPU per operation (threads and child processes included), ignoring the load generator and provider that share the cores here. ' +
      'Threads named `MainThread` are threads the main thread started without naming them (Linux copies the creator\'s name); they only work during executes, i.e. isolated-vm\'s.',
  );
  out.push('');

  // 4. Memory
  out.push(`### 4. Memory over ${int(totalN)} executes (VmRSS every ${int(memory.block)}, concurrency ${memory.concurrency})`, '');
  out.push(
    `Engine A (executes, ${memory.concurrency} MCP sessions kept open throughout, as an agent keeps its session) and Engine C (REST executions, the baseline), both fresh. ` +
      `After each block of ${int(memory.block)}: VmRSS from /proc of the Engine and every process under it (its sandbox worker processes, where the isolates live, and the esbuild service), then a forced full GC in the Engine and the V8 heap after it.`,
  );
  out.push('');
  const rows = memory.execute.map((x, i) => {
    const r = memory.rest[i]!;
    return [int(x.n), mib(x.rss), mib(x.heapAfterGc), mib(x.externalAfterGc), mib(r.rss), mib(r.heapAfterGc), signed((x.rss - r.rss) / MiB, 1)];
  });
  const end = (label: string, e: MemoryFigures['openGc']) => [label, mib(e.execute.rss), mib(e.execute.heapUsed), mib(e.execute.external), mib(e.rest.rss), mib(e.rest.heapUsed), signed((e.execute.rss - e.rest.rss) / MiB, 1)];
  rows.push(end('end, sessions open, after GC', memory.openGc), end('end, MCP sessions closed (DELETE), after GC', memory.closedGc));
  out.push(table(['operations', 'execute Engine RSS MiB', 'heap after GC MiB', 'external MiB', 'REST Engine RSS MiB (baseline)', 'heap after GC MiB', 'execute − REST RSS MiB'], rows));
  out.push('');
  out.push(
    `Slopes (least squares, MiB per 1,000 operations, ${int(totalN / 2)}–${int(totalN)}; in brackets 1,000–${int(totalN)}): ` +
      `execute RSS ${signed(execSlope)} (${signed(slopeAll(memory.execute, (x) => x.rss))}), heap after GC ${signed(execHeapSlope)} (${signed(slopeAll(memory.execute, (x) => x.heapAfterGc))}); ` +
      `REST RSS ${signed(restSlope)} (${signed(slopeAll(memory.rest, (x) => x.rss))}), heap after GC ${signed(restHeapSlope)} (${signed(slopeAll(memory.rest, (x) => x.heapAfterGc))}).`,
  );
  out.push('');
  out.push(
    `Closing the MCP sessions took the execute Engine's heap from ${mib(memory.openGc.execute.heapUsed)} to ${mib(memory.closedGc.execute.heapUsed)} MiB: ` +
      `${(retainedPerExecute / 1024).toFixed(1)} KiB of V8 heap per execute stayed reachable from its MCP session until the session ended. ` +
      `Each execute creates and disposes one isolate (${MEMORY_LIMIT_MB} MB limit, outside the V8 heap of the Engine); a leaked isolate would add megabytes of RSS per execute — ` +
      `${int(totalN)} executes would add gigabytes — and a leaked context or bridge reference kilobytes of heap that closing the sessions would not release. ` +
      `A fresh isolate with its context holds about ${int(micro.isolateRss / 1024)} KiB (its heap's physical size + malloced memory, \`getHeapStatisticsSync\`, before any script runs); the RSS growth over executes ${int(totalN / 2)}–${int(totalN)} ` +
      `that the heap after GC does not explain is ${(nonHeapPerExecute / 1024).toFixed(2)} KiB per execute, room for at most ${int(hiddenIsolates)} leaked isolates in ${int(totalN / 2)} executes (an upper bound: allocator and V8 page growth count too).`,
  );
  out.push('');
  out.push(
    'Reproduce: `npm run bench -- execute` (knobs: BENCH_EXEC_ROUNDS, BENCH_EXEC_PER_ROUND, BENCH_EXEC_WINDOW_MS, BENCH_EXEC_MEMORY_TOTAL, BENCH_EXEC_MICRO, BENCH_PLACEMENT=pinned, BENCH_EXEC_PROFILE=0). ' +
      '`BENCH_CPU_PROF=/tmp/prof npm run bench -- execute` keeps the Engine profile as /tmp/prof/execute-engine.cpuprofile (`node test/bench/lib/profile-summary.ts` summarises it; the reports are left unchanged).',
  );
  return {
    report: out.join('\n'),
    summary: {
      goal: `added p50 ≤ ${GOALS.addedP50Ms} ms; ≥ ${GOALS.perSecond} executes/s; RSS, heap ≤ ${GOALS.slopeMiBPer1000} MiB / 1,000`,
      measured: `${signedMs(addedP50)} ms; ${int(Math.min(t8.exec, t16.exec))}/s; ${signed(execSlope - restSlope)}, ${signed(execHeapSlope)} MiB`,
      verdict: verdictOf(Object.values(met)),
    },
  };
}
