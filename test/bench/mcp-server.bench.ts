// The MCP server as deployed: `svc-engine serve` in its own process (the real bin, SQLite data dir,
// github@v1 enabled, an MCP server publishing every GitHub operation), reached over Streamable HTTP.
// Measured side by side with baselines in one run:
//   1. tools/list size on the wire (raw TCP exchange, every byte counted) vs the 3 KB goal;
//   2. search_docs end to end (raw HTTP tools/call and the official SDK client's callTool) next to
//      the same query run in process (DocsIndex.run) and tools/list over the same session (the MCP
//      transport + auth floor), rotated per query;
//   3. cold start: spawn → first 200, for the Engine (fresh data dir; provisioned data dir, plus the
//      first search_docs answer) vs bare node:http servers (Node's floor, with and without
//      --no-node-snapshot) and Node importing the Engine's module graph before answering;
//   4. memory: VmRSS of the Engine process with 1,000 initialized idle sessions vs after start and
//      vs a bare node:http process; a forced GC (inspector opened with SIGUSR1) gives retained heap.
//
// Knobs: BENCH_MCP_ROUNDS (8), BENCH_COLD_RUNS (5), BENCH_MCP_SESSIONS (1000),
// BENCH_CPU_PROF=<dir> (writes <dir>/engine-cold-start.cpuprofile and <dir>/engine-mcp.cpuprofile).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { buildDocsIndex, type SearchArgs } from '../../src/docs/index.ts';
import { GITHUB_BROWSE, GITHUB_EXACT, GITHUB_INTENTS, loadBundledCatalog } from './lib/docs-workload.ts';
import {
  attachInspector,
  BIN,
  cpuOf,
  freePort,
  gcAndMemory,
  PROTOCOL,
  RawMcp,
  rssOf,
  runNode,
  spawnEngine,
  spawnNode,
  waitForHttp,
  wireExchange,
  type Cdp,
  type EngineProc,
  type Proc,
} from './lib/engine-proc.ts';
import { attributeColdStart, type Category } from './lib/cold-profile.ts';
import { envInt, fullGc, mib, msAuto, summarize, median, type Summary } from './lib/samples.ts';
import { machineCpu } from './lib/sysload.ts';
import { int, table } from './lib/stats.ts';
import { verdictOf } from './lib/summary.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';

export const name = 'mcp-server';
export const title = 'MCP server: tools/list size, search_docs end to end, cold start, 1,000 idle sessions';

const GOALS = { toolsListBytes: 3 * 1024, coldStartMs: 1000, rssMiB: 200, searchP50Ms: 2 };

const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Provisioned {
  dataDir: string;
  engine: EngineProc;
  versionId: string;
  token: string;
}

/** A data dir with github@v1 enabled and an MCP server over every GitHub operation; leaves its Engine running. */
async function provision(ctx: BenchContext, profileDir: string | undefined): Promise<Provisioned> {
  const dataDir = tmp('svc-bench-mcp-');
  const cli = (await runNode(['--no-node-snapshot', BIN, 'credential', 'create', '--subject', 'bench'], { SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'warn' })).trim();
  if (!cli.startsWith('svc_cli_')) throw new Error(`credential create printed no CLI credential: ${cli.slice(0, 40)}`);
  const engine = await spawnEngine(dataDir, { nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-name=engine-mcp.cpuprofile'] : [] });
  await waitForHttp(engine, engine.origin, '/signin', 60_000, 20);
  const api = async (method: string, path: string, body: unknown) => {
    const res = await fetch(engine.origin + path, { method, headers: { authorization: `Bearer ${cli}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
  await api('PUT', '/v1/workspace/services/github', { version: 'v1' });
  const published = await api('POST', '/v1/mcp/publish', { name: 'agent', services: ['github=v1'], operations: ['github=*'] });
  if (!published?.versionId || !published?.token) throw new Error(`MCP publish returned ${JSON.stringify(published).slice(0, 300)}`);
  ctx.log(`provisioned ${dataDir}: MCP server ${published.versionId} over github@v1 on ${engine.origin}`);
  return { dataDir, engine, versionId: published.versionId, token: published.token };
}

// ---------------------------------------------------------------------------------------------
// 1. tools/list on the wire

interface WireFigures {
  initialize: { head: number; body: number; total: number };
  initialized: { head: number; body: number; total: number; status: string };
  toolsList: { head: number; body: number; total: number; bodyWire: number; chunked: boolean };
  toolsJsonBytes: number;
  toolNames: string[];
  contentEncoding: string | undefined;
}

async function measureWire(p: Provisioned): Promise<WireFigures> {
  const path = `/mcp/${p.versionId}`;
  const base = { authorization: `Bearer ${p.token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const initBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'svc-bench', version: '1.0.0' } } });
  const init = await wireExchange(p.engine.origin, path, base, initBody);
  const sid = /^mcp-session-id:\s*(\S+)/im.exec(init.rawHead)?.[1];
  if (!sid) throw new Error(`initialize gave no session: ${init.rawHead}`);
  const session = { ...base, 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': PROTOCOL };
  const ready = await wireExchange(p.engine.origin, path, session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const list = await wireExchange(p.engine.origin, path, session, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  const parsed = JSON.parse(list.body) as { result?: { tools?: { name: string }[] } };
  const tools = parsed.result?.tools;
  if (!tools?.length) throw new Error(`tools/list answered: ${list.rawHead}\n${list.body.slice(0, 300)}`);
  return {
    initialize: { head: init.head, body: Buffer.byteLength(init.body), total: init.total },
    initialized: { head: ready.head, body: Buffer.byteLength(ready.body), total: ready.total, status: ready.rawHead.split('\r\n')[0]!.split(' ').slice(1).join(' ') },
    toolsList: { head: list.head, body: Buffer.byteLength(list.body), total: list.total, bodyWire: list.bodyWireBytes, chunked: /transfer-encoding:\s*chunked/i.test(list.rawHead) },
    toolsJsonBytes: Buffer.byteLength(JSON.stringify({ tools })),
    toolNames: tools.map((t) => t.name),
    contentEncoding: /^content-encoding:\s*(\S+)/im.exec(list.rawHead)?.[1],
  };
}

// ---------------------------------------------------------------------------------------------
// 2. search_docs end to end

type Path = 'inproc' | 'raw' | 'sdk' | 'floor';
const PATH_LABEL: Record<Path, string> = {
  inproc: 'in process: DocsIndex.run',
  raw: 'MCP raw HTTP: tools/call search_docs',
  sdk: 'MCP SDK client: callTool search_docs',
  floor: 'MCP raw HTTP: tools/list (transport floor)',
};
type Kind = 'intent' | 'exact' | 'browse';

interface E2eResult {
  kind: Kind;
  queries: number;
  samples: Record<Path, Summary>;
  addedRaw: Summary;
  bytes: { inproc: number; raw: number };
  mismatches: string[];
}

interface E2e {
  results: E2eResult[];
  firstCallMs: number;
  firstCallQuery: string;
  rounds: number;
  foreignCores: number;
  docsBuildMs: number;
}

function signature(kind: Kind, answer: any): string {
  if (kind === 'intent') return (answer?.results ?? []).map((r: any) => r.operationId).join(',');
  if (kind === 'exact') return `${answer?.operationId}:${(answer?.schema_status?.included_sections ?? []).join(',')}`;
  return `${answer?.total}:${answer?.operations?.length}`;
}

async function measureE2e(ctx: BenchContext, p: Provisioned, rounds: number): Promise<E2e> {
  const url = `${p.engine.origin}/mcp/${p.versionId}`;
  const raw = new RawMcp(url, p.token, 1);
  const client = new Client({ name: 'svc-bench', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${p.token}` } } });
  try {
    const sid = await raw.open();
    // The Engine builds the docs index of the version on its first search_docs call.
    const firstCallQuery = GITHUB_INTENTS[0]!;
    const t0 = performance.now();
    const first = await raw.call(sid, 'tools/call', { name: 'search_docs', arguments: { query: firstCallQuery } });
    const firstCallMs = performance.now() - t0;
    if (first.status !== 200 || !first.json?.result?.structuredContent) throw new Error(`search_docs answered ${first.status}: ${first.text.slice(0, 300)}`);
    await client.connect(transport);

    const { catalog, store } = await loadBundledCatalog();
    const ids = catalog.get('github', 'v1')!.operations.map((o) => o.id);
    const b0 = performance.now();
    const index = buildDocsIndex(catalog, new Map([['github', 'v1']]), ids);
    const docsBuildMs = performance.now() - b0;
    const callable = () => true;

    const once = async (path: Path, args: SearchArgs): Promise<{ ms: number; bytes: number; answer: unknown }> => {
      const t = performance.now();
      if (path === 'inproc') {
        const answer = index.run(args, callable);
        const ms = performance.now() - t;
        return { ms, bytes: Buffer.byteLength(JSON.stringify(answer)), answer };
      }
      if (path === 'raw' || path === 'floor') {
        const res = path === 'raw' ? await raw.call(sid, 'tools/call', { name: 'search_docs', arguments: args }) : await raw.call(sid, 'tools/list');
        const ms = performance.now() - t;
        if (res.status !== 200 || res.json?.error || res.json?.result?.isError) throw new Error(`${PATH_LABEL[path]} answered ${res.status}: ${res.text.slice(0, 300)}`);
        return { ms, bytes: res.bytes, answer: res.json.result.structuredContent };
      }
      const result = await client.callTool({ name: 'search_docs', arguments: args as Record<string, unknown> });
      const ms = performance.now() - t;
      if (result.isError) throw new Error(`SDK callTool failed: ${JSON.stringify(result).slice(0, 300)}`);
      return { ms, bytes: NaN, answer: result.structuredContent };
    };

    const workloads: [Kind, SearchArgs[]][] = [
      ['intent', GITHUB_INTENTS.map((query) => ({ query }))],
      ['exact', GITHUB_EXACT],
      ['browse', GITHUB_BROWSE],
    ];
    const paths: Path[] = ['inproc', 'raw', 'sdk', 'floor'];
    // Warm-up: every query on every path once.
    for (const [, workload] of workloads) for (const args of workload) for (const path of paths) await once(path, args);

    const results: E2eResult[] = [];
    const sys0 = machineCpu();
    const cpu0 = process.cpuUsage();
    const engineCpu0 = cpuOf(p.engine.pid);
    const w0 = performance.now();
    for (const [kind, workload] of workloads) {
      const samples: Record<Path, number[]> = { inproc: [], raw: [], sdk: [], floor: [] };
      const added: number[] = [];
      const bytes = { inproc: [] as number[], raw: [] as number[] };
      const mismatches: string[] = [];
      for (let r = 0; r < rounds; r++) {
        for (const [qi, args] of workload.entries()) {
          const order = paths.map((_, i) => paths[(i + r + qi) % paths.length]!);
          const got = {} as Record<Path, { ms: number; bytes: number; answer: unknown }>;
          for (const path of order) got[path] = await once(path, args);
          for (const path of paths) samples[path].push(got[path].ms);
          added.push(got.raw.ms - got.inproc.ms);
          bytes.inproc.push(got.inproc.bytes);
          bytes.raw.push(got.raw.bytes);
          if (r === 0) {
            const want = signature(kind, got.inproc.answer);
            for (const path of ['raw', 'sdk'] as const) {
              const have = signature(kind, got[path].answer);
              if (have !== want) mismatches.push(`${path} ${JSON.stringify(args)}: ${have} ≠ in process ${want}`);
            }
          }
        }
      }
      const result: E2eResult = {
        kind,
        queries: workload.length,
        samples: Object.fromEntries(paths.map((p) => [p, summarize(samples[p])])) as Record<Path, Summary>,
        addedRaw: summarize(added),
        bytes: { inproc: median(bytes.inproc), raw: median(bytes.raw) },
        mismatches,
      };
      results.push(result);
      ctx.log(
        `${kind.padEnd(6)} ${workload.length} × ${rounds}: ` + paths.map((p) => `${p} p50 ${msAuto(result.samples[p].p50)} p99 ${msAuto(result.samples[p].p99)}`).join(' | ') + (mismatches.length ? ` | ${mismatches.length} MISMATCHES` : ''),
      );
    }
    const wall = performance.now() - w0;
    const cpu1 = process.cpuUsage(cpu0);
    const sys1 = machineCpu();
    const engineCpuUs = cpuOf(p.engine.pid) - engineCpu0;
    const foreignCores = Math.max(0, (sys1.busyUs - sys0.busyUs - (cpu1.user + cpu1.system) - engineCpuUs) / 1000 / wall);
    await store.close();
    return { results, firstCallMs, firstCallQuery, rounds, foreignCores, docsBuildMs };
  } finally {
    await client.close().catch(() => undefined);
    await raw.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 3. cold start

type ColdTarget = 'floor' | 'floorNoSnap' | 'imports' | 'fresh' | 'provisioned';
const COLD_LABEL: Record<ColdTarget, string> = {
  floor: 'Node floor: `node -e` bare node:http server',
  floorNoSnap: 'Node floor with `--no-node-snapshot` (as the Engine runs)',
  imports: 'Node `--no-node-snapshot` importing `src/engine/index.ts`, then a bare node:http server',
  fresh: '**Engine** `svc-engine serve`, fresh empty data dir',
  provisioned: 'Engine `svc-engine serve`, provisioned data dir (github enabled, MCP server published)',
};
const BARE_SERVER = `require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');`;
const importingServer = () =>
  `await import(${JSON.stringify(pathToFileURL(join(BIN, '..', '..', 'engine', 'index.ts')).href)}); (await import('node:http')).createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');`;

interface ColdRun {
  readyMs: number;
  /** CPU time (user + system) the process had used when it first answered. */
  cpuAtReadyMs: number;
  rssAtReady: number;
  /** CPU used by other processes on the machine between spawn and first answer, in cores. */
  otherCores: number;
  /** provisioned only: spawn → first search_docs answer, and that first request alone. */
  firstSearchMs?: number;
  firstSearchRequestMs?: number;
}

async function coldOnce(target: ColdTarget, provisionedDir: string, token: string, versionId: string, profileDir?: string): Promise<ColdRun> {
  let proc: Proc;
  let origin: string;
  let probePath = '/';
  let dir: string | undefined;
  if (target === 'floor' || target === 'floorNoSnap' || target === 'imports') {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const args = target === 'floor' ? ['-e', BARE_SERVER] : target === 'floorNoSnap' ? ['--no-node-snapshot', '-e', BARE_SERVER] : ['--no-node-snapshot', '--input-type=module', '-e', importingServer()];
    proc = spawnNode(args, { PORT: String(port), NODE_OPTIONS: '' });
  } else {
    dir = tmp('svc-bench-cold-');
    if (target === 'provisioned') cpSync(provisionedDir, dir, { recursive: true });
    const engine = await spawnEngine(dir, {
      nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-name=engine-cold-start.cpuprofile'] : [],
      env: { NODE_OPTIONS: '' },
    });
    proc = engine;
    origin = engine.origin;
    probePath = '/signin';
  }
  try {
    const sys0 = machineCpu();
    const own0 = process.cpuUsage();
    const readyAt = await waitForHttp(proc, origin, probePath, 60_000, 2);
    const childCpuUs = cpuOf(proc.pid);
    const sys1 = machineCpu();
    const own = process.cpuUsage(own0);
    const readyMs = readyAt - proc.spawnedAt;
    const run: ColdRun = {
      readyMs,
      cpuAtReadyMs: childCpuUs / 1000,
      rssAtReady: rssOf(proc.pid).rss,
      otherCores: Math.max(0, (sys1.busyUs - sys0.busyUs - childCpuUs - own.user - own.system) / 1000 / readyMs),
    };
    if (target === 'provisioned') {
      const raw = new RawMcp(`${origin}/mcp/${versionId}`, token, 1);
      try {
        const sid = await raw.open();
        const t0 = performance.now();
        const answer = await raw.call(sid, 'tools/call', { name: 'search_docs', arguments: { query: GITHUB_INTENTS[0] } });
        const t1 = performance.now();
        if (answer.status !== 200 || !answer.json?.result?.structuredContent?.results?.length) throw new Error(`first search_docs answered ${answer.status}: ${answer.text.slice(0, 300)}`);
        run.firstSearchMs = t1 - proc.spawnedAt;
        run.firstSearchRequestMs = t1 - t0;
      } finally {
        await raw.close();
      }
    }
    return run;
  } finally {
    await proc.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// 4. memory with idle sessions

interface MemoryPoint {
  label: string;
  /** Settled VmRSS / RssAnon without a forced GC (what an operator's `ps` shows). */
  rss: number;
  anon: number;
  /** After a forced full GC. */
  gcRss: number;
  heapUsed: number;
  external: number;
}

interface MemoryResult {
  sessions: number;
  points: MemoryPoint[];
  floorRss: number;
  /** VmRSS after start, before the inspector was opened. */
  rssBeforeInspector: number;
  openLatency: Summary;
  openWallMs: number;
  aliveChecked: number;
  alive: number;
  deleted: number;
  /** Baseline: heap retained per SDK Server + transport pair alone (in the bench process). */
  sdkHeapPerSession: number;
}

async function settledRss(pid: number, ms: number) {
  await sleep(ms);
  const a = rssOf(pid);
  await sleep(250);
  const b = rssOf(pid);
  return { rss: Math.round((a.rss + b.rss) / 2), anon: Math.round((a.anon + b.anon) / 2) };
}

/**
 * Baseline for the per-session heap: what the MCP SDK's own per-session objects retain — a Server
 * with the two request handlers connected to a StreamableHTTPServerTransport, built the way the
 * gateway builds them — measured in this process (heapUsed after a full GC, `count` instances).
 */
async function sdkSessionHeap(count: number): Promise<number> {
  const keep: unknown[] = [];
  const make = async () => {
    const server = new Server({ name: 'svc-engine', version: '0.1.0' }, { capabilities: { tools: { listChanged: false }, logging: {} } });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID(), enableJsonResponse: true });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [] }));
    await server.connect(transport);
    return { server, transport };
  };
  for (let i = 0; i < 10; i++) keep.push(await make());
  fullGc();
  const h0 = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) keep.push(await make());
  fullGc();
  const perSession = (process.memoryUsage().heapUsed - h0) / count;
  await Promise.all(keep.map((k) => (k as { server: Server }).server.close()));
  return perSession;
}

async function measureMemory(ctx: BenchContext, p: Provisioned, sessions: number): Promise<MemoryResult> {
  const sdkHeapPerSession = await sdkSessionHeap(sessions);
  // Node's floor in the same run: a bare node:http server, settled.
  const floorPort = await freePort();
  const floor = spawnNode(['--no-node-snapshot', '-e', BARE_SERVER], { PORT: String(floorPort), NODE_OPTIONS: '' });
  let floorRss: number;
  try {
    await waitForHttp(floor, `http://127.0.0.1:${floorPort}`, '/');
    floorRss = (await settledRss(floor.pid, 1000)).rss;
  } finally {
    await floor.stop();
  }

  const dir = tmp('svc-bench-mem-');
  cpSync(p.dataDir, dir, { recursive: true });
  const inspectPort = await freePort();
  // One token opens them all: above SVC_MCP_SESSIONS_PER_TOKEN's default, the later ones would wait (429).
  const engine = await spawnEngine(dir, { nodeArgs: [`--inspect-port=127.0.0.1:${inspectPort}`], env: { NODE_OPTIONS: '', SVC_MCP_SESSIONS_PER_TOKEN: String(sessions + 1) } });
  let cdp: Cdp | undefined;
  const url = `${engine.origin}/mcp/${p.versionId}`;
  try {
    await waitForHttp(engine, engine.origin, '/signin', 60_000, 10);
    const rssBeforeInspector = (await settledRss(engine.pid, 1500)).rss;
    // The inspector (opened with SIGUSR1; --inspect-port fixed its port) stays attached from here on,
    // so every point has a settled reading and one after a forced full GC.
    cdp = await attachInspector(engine.pid, inspectPort);
    const points: MemoryPoint[] = [];
    const point = async (label: string, settleMs: number) => {
      const settled = await settledRss(engine.pid, settleMs);
      const mem = await gcAndMemory(cdp!);
      const gc = await settledRss(engine.pid, 300);
      points.push({ label, rss: settled.rss, anon: settled.anon, gcRss: gc.rss, heapUsed: mem.heapUsed, external: mem.external });
    };
    await point('Engine after start (no MCP session yet)', 500);

    // One session used like an agent would: tools/list, an intent search (builds the docs index), an exact lookup.
    const warm = new RawMcp(url, p.token, 1);
    const warmId = await warm.open();
    for (const [method, params] of [
      ['tools/list', {}],
      ['tools/call', { name: 'search_docs', arguments: { query: GITHUB_INTENTS[0] } }],
      ['tools/call', { name: 'search_docs', arguments: GITHUB_EXACT[0] }],
    ] as [string, Record<string, unknown>][]) {
      const res = await warm.call(warmId, method, params);
      if (res.status !== 200) throw new Error(`${method} answered ${res.status}`);
    }
    await warm.close();
    await point('after 1 session used (tools/list + search_docs; docs index built)', 1500);

    // The other sessions: initialize + notifications/initialized, then left idle (connections closed).
    const concurrency = 8;
    const opener = new RawMcp(url, p.token, concurrency);
    const ids: string[] = [warmId];
    const latencies: number[] = [];
    const o0 = performance.now();
    let next = 1;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < sessions) {
          next++;
          const t = performance.now();
          ids.push(await opener.open());
          latencies.push(performance.now() - t);
        }
      }),
    );
    const openWallMs = performance.now() - o0;
    await opener.close();
    ctx.log(`opened ${ids.length} sessions in ${msAuto(openWallMs)} ms (initialize + initialized p50 ${msAuto(summarize(latencies).p50)} ms)`);
    await point(`after ${int(ids.length)} initialized idle sessions`, 2000);

    // The sessions are alive: a sample answers tools/list.
    const checker = new RawMcp(url, p.token, 1);
    const sample = ids.filter((_, i) => i % Math.max(1, Math.floor(ids.length / 20)) === 0);
    let alive = 0;
    for (const id of sample) if ((await checker.call(id, 'tools/list')).status === 200) alive++;
    await checker.close();

    const closer = new RawMcp(url, p.token, concurrency);
    let deleted = 0;
    const queue = [...ids];
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let id = queue.pop(); id !== undefined; id = queue.pop()) if ((await closer.delete(id)) === 200) deleted++;
      }),
    );
    await closer.close();
    await point(`after DELETE of all ${int(ids.length)} sessions`, 1000);

    return { sessions: ids.length, points, floorRss, rssBeforeInspector, openLatency: summarize(latencies), openWallMs, aliveChecked: sample.length, alive, deleted, sdkHeapPerSession };
  } finally {
    cdp?.close();
    await engine.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const rounds = envInt('BENCH_MCP_ROUNDS', 8);
  const coldRuns = envInt('BENCH_COLD_RUNS', 5);
  const sessions = envInt('BENCH_MCP_SESSIONS', 1000);
  const profileDir = process.env.BENCH_CPU_PROF || undefined;
  let p: Provisioned | undefined;
  try {
    p = await provision(ctx, profileDir);
    const wire = await measureWire(p);
    ctx.log(`tools/list: ${wire.toolsList.body} bytes body, ${wire.toolsList.total} bytes on the wire`);
    const e2e = await measureE2e(ctx, p, rounds);
    await p.engine.stop();

    const targets: ColdTarget[] = ['floor', 'floorNoSnap', 'imports', 'fresh', 'provisioned'];
    const cold: Record<ColdTarget, ColdRun[]> = { floor: [], floorNoSnap: [], imports: [], fresh: [], provisioned: [] };
    const retried: string[] = [];
    for (let r = 0; r < coldRuns; r++) {
      const order = targets.map((_, i) => targets[(i + r) % targets.length]!);
      for (const target of order) {
        // One retry: the shared working tree can be mid-regeneration (npm run gen) for a moment.
        const attempt = () => coldOnce(target, p!.dataDir, p!.token, p!.versionId);
        cold[target].push(
          await attempt().catch(async (err: unknown) => {
            const line = String((err as Error).message ?? err).split('\n')[0]!;
            retried.push(`${target}: ${line.length > 240 ? `…${line.slice(-240)}` : line}`);
            ctx.log(`cold start of ${target} failed (${line}); retrying once`);
            await sleep(2000);
            return attempt();
          }),
        );
        await sleep(200);
      }
      ctx.log(`cold start round ${r + 1}/${coldRuns}: ` + targets.map((t) => `${t} ${msAuto(cold[t].at(-1)!.readyMs)} ms`).join(', ') + `, first search_docs ${msAuto(cold.provisioned.at(-1)!.firstSearchMs!)} ms`);
    }
    // One more fresh start under --cpu-prof (not part of the medians), to attribute its CPU.
    const profDir = profileDir ?? tmp('svc-bench-prof-');
    const profiled = await coldOnce('fresh', p.dataDir, p.token, p.versionId, profDir);
    const coldProfile = { ...attributeColdStart(join(profDir, 'engine-cold-start.cpuprofile')), readyMs: profiled.readyMs };
    if (profileDir) ctx.log(`cold start profile written to ${profileDir}/engine-cold-start.cpuprofile; MCP engine profile to ${profileDir}/engine-mcp.cpuprofile`);
    else rmSync(profDir, { recursive: true, force: true });

    const memory = await measureMemory(ctx, p, sessions);
    ctx.log(`RSS (settled / after forced GC): ${memory.points.map((pt) => `${mib(pt.rss)} / ${mib(pt.gcRss)}`).join(' → ')}`);
    return report({ wire, e2e, cold, coldRuns, retried, coldProfile, memory, profiled: Boolean(profileDir) });
  } finally {
    await p?.engine.stop();
    if (p) rmSync(p.dataDir, { recursive: true, force: true });
  }
}

function report(o: {
  wire: WireFigures;
  e2e: E2e;
  cold: Record<ColdTarget, ColdRun[]>;
  coldRuns: number;
  retried: string[];
  coldProfile: { totalMs: number; categories: Category[]; modules: Category[]; readyMs: number };
  memory: MemoryResult;
  profiled: boolean;
}): BenchResult {
  const { wire, e2e, cold, memory } = o;
  const verdict = (met: boolean) => (met ? 'met' : '**missed**');
  const out: string[] = [];
  const coldMed = (t: ColdTarget, f: (r: ColdRun) => number = (r) => r.readyMs) => median(cold[t].map(f));
  const intent = e2e.results.find((r) => r.kind === 'intent')!;
  const [mStart, mWarm, mSessions, mDeleted] = memory.points as [MemoryPoint, MemoryPoint, MemoryPoint, MemoryPoint];
  const opened = Math.max(1, memory.sessions - 1);
  const perSession = (mSessions.rss - mWarm.gcRss) / opened;
  const perSessionGc = (mSessions.gcRss - mWarm.gcRss) / opened;
  const heapPerSession = (mSessions.heapUsed - mWarm.heapUsed) / opened;
  const heapPerSessionDelete = (mSessions.heapUsed - mDeleted.heapUsed) / memory.sessions;
  const met = { toolsList: wire.toolsList.body <= GOALS.toolsListBytes, cold: coldMed('fresh') <= GOALS.coldStartMs, rss: mSessions.rss <= GOALS.rssMiB * 1024 * 1024 };

  out.push(
    'The Engine as deployed: `node --no-node-snapshot src/bin/svc-engine.ts serve` in its own process (SQLite data dir, `SVC_LOG_LEVEL=warn`), with github@v1 enabled and an MCP server publishing all GitHub operations (`github=*`), reached over Streamable HTTP on loopback. ' +
      'Helpers: `test/bench/lib/engine-proc.ts` (spawning, readiness, /proc RSS, raw MCP client, inspector), `test/bench/lib/docs-workload.ts` (the queries, shared with `search-docs`).',
  );
  if (o.profiled) out.push('', '**Profiled run** (BENCH_CPU_PROF): the Engine processes ran with `--cpu-prof`; figures are slower than unprofiled runs.');
  out.push('');
  out.push('### Goals', '');
  out.push(
    table(
      ['metric', 'measured', 'goal', 'verdict'],
      [
        ['`tools/list` response body (the JSON-RPC message)', `${int(wire.toolsList.body)} bytes (${int(wire.toolsList.total)} bytes on the wire with status line and headers)`, `≤ 3 KB (${int(GOALS.toolsListBytes)} bytes)`, verdict(met.toolsList)],
        [`cold start, spawn → first HTTP 200, fresh data dir (median of ${o.coldRuns})`, `${msAuto(coldMed('fresh'))} ms`, `≤ ${int(GOALS.coldStartMs)} ms`, verdict(met.cold)],
        [
          `RSS with ${int(memory.sessions)} initialized idle MCP sessions (settled, no forced GC)`,
          `${mib(mSessions.rss)} (${mib(mSessions.gcRss)} after a forced full GC; ${(perSessionGc / 1024).toFixed(1)} KiB per session after GC)`,
          `≤ ${GOALS.rssMiB} MiB`,
          verdict(met.rss) + (!met.rss && mSessions.gcRss <= GOALS.rssMiB * 1024 * 1024 ? ' (met only after a forced GC)' : ''),
        ],
        // The goal is stated for search_docs itself (judged in `search-docs`, also on 10,000 operations);
        // end to end adds the MCP transport, shown here for what a client sees.
        ['search_docs intent p50, GitHub, end to end over MCP (raw HTTP)', `${msAuto(intent.samples.raw.p50)} ms (in process ${msAuto(intent.samples.inproc.p50)} ms)`, `information: the ≤ ${GOALS.searchP50Ms} ms goal applies to search_docs itself (\`search-docs\`)`, '–'],
      ],
      ['l', 'r', 'r', 'l'],
    ),
  );
  out.push('');

  out.push('### tools/list on the wire', '');
  out.push(
    'Each exchange is one HTTP/1.1 request over a plain TCP socket with `Connection: close`, counting every byte the Engine sent back. ' +
      `Tools: ${wire.toolNames.map((n) => `\`${n}\``).join(', ')}; \`JSON.stringify({ tools })\` is ${int(wire.toolsJsonBytes)} bytes; ` +
      `${wire.contentEncoding ? `content-encoding ${wire.contentEncoding}` : 'no content-encoding (uncompressed)'}${wire.toolsList.chunked ? ', chunked transfer encoding' : ''}.`,
  );
  out.push('');
  out.push(
    table(
      ['exchange', 'status line + headers', 'body', 'total on the wire'],
      [
        ['`initialize`', `${int(wire.initialize.head)} B`, `${int(wire.initialize.body)} B`, `${int(wire.initialize.total)} B`],
        [`\`notifications/initialized\` (${wire.initialized.status})`, `${int(wire.initialized.head)} B`, `${int(wire.initialized.body)} B`, `${int(wire.initialized.total)} B`],
        ['**`tools/list`**', `${int(wire.toolsList.head)} B`, `**${int(wire.toolsList.body)} B**`, `${int(wire.toolsList.total)} B`],
      ],
    ),
  );
  out.push('');

  out.push('### search_docs end to end (GitHub, 1 MCP session, one request at a time)', '');
  out.push(
    `Per round every query runs on four paths in rotated order: in process (\`DocsIndex.run\` on an index built in the benchmark process, the figure of \`search-docs\`), ` +
      'raw HTTP `tools/call` (undici, one keep-alive connection; latency to the last body byte), the official SDK client\'s `callTool` (StreamableHTTPClientTransport, fetch), and raw HTTP `tools/list` on the same session — ' +
      `the MCP floor: bearer check, session lookup, SDK Server dispatch, JSON-RPC framing, no search. ${e2e.rounds} rounds after one warm-up pass; percentiles over all samples. ` +
      `The first search_docs call on the warmed Engine ("${e2e.firstCallQuery}") took ${msAuto(e2e.firstCallMs)} ms: the Engine builds the version's docs index on first use (in this process the same build took ${msAuto(e2e.docsBuildMs)} ms). ` +
      `Other load on the machine during the rounds (besides this process and the Engine): ${e2e.foreignCores.toFixed(2)} cores.`,
  );
  out.push('');
  const paths: Path[] = ['inproc', 'raw', 'sdk', 'floor'];
  out.push(
    table(
      ['request', 'path', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'answer bytes (median)'],
      e2e.results.flatMap((r) =>
        paths.map((p) => [
          p === 'inproc' ? `${r.kind} (${r.queries} × ${e2e.rounds})` : '',
          PATH_LABEL[p],
          msAuto(r.samples[p].p50),
          msAuto(r.samples[p].p90),
          msAuto(r.samples[p].p99),
          msAuto(r.samples[p].max),
          p === 'inproc' ? `${int(r.bytes.inproc)} (answer JSON)` : p === 'raw' ? `${int(r.bytes.raw)} (HTTP body)` : '',
        ]),
      ),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  out.push('');
  out.push(
    table(
      ['request', 'added by MCP: raw HTTP − in process, paired p50 / p99 ms', 'raw HTTP − tools/list floor, p50 ms', 'HTTP body / answer JSON', 'answers equal to in process'],
      e2e.results.map((r) => [
        r.kind,
        `${msAuto(r.addedRaw.p50)} / ${msAuto(r.addedRaw.p99)}`,
        msAuto(r.samples.raw.p50 - r.samples.floor.p50),
        `${(r.bytes.raw / r.bytes.inproc).toFixed(2)}×`,
        r.mismatches.length ? `**${r.mismatches.length} differ**: ${r.mismatches[0]!.replace(/\|/g, '\\|').slice(0, 160)}` : 'yes (raw and SDK)',
      ]),
      ['l', 'r', 'r', 'r', 'l'],
    ),
  );
  out.push('');
  out.push('The HTTP body carries the answer twice — as `structuredContent` and again as the JSON text of `content[0].text` (escaped) — hence a body about twice the answer.');
  out.push('');

  out.push(`### Cold start (spawn → first HTTP 200, ${o.coldRuns} runs per target, targets rotated per round)`, '');
  out.push(
    'Spawned by this process with a port picked here; readiness is polled every 2 ms with a fresh connection (`GET /signin` for the Engine, `GET /` for the others). ' +
      'A bundled service\'s index (github@v1 is 4.8 MiB) is parsed on first use, not at start: the first search_docs of an MCP server over GitHub pays for it (the last column).',
  );
  out.push('');
  const coldRows: string[][] = (Object.keys(COLD_LABEL) as ColdTarget[]).map((t) => [
    COLD_LABEL[t],
    `${msAuto(coldMed(t))}`,
    `${msAuto(Math.min(...cold[t].map((r) => r.readyMs)))} / ${msAuto(Math.max(...cold[t].map((r) => r.readyMs)))}`,
    cold[t].map((r) => msAuto(r.readyMs)).join(', '),
    msAuto(coldMed(t, (r) => r.cpuAtReadyMs)),
    mib(median(cold[t].map((r) => r.rssAtReady))),
    median(cold[t].map((r) => r.otherCores)).toFixed(2),
  ]);
  coldRows.push([
    'Engine, provisioned: spawn → first `search_docs` answer (initialize, initialized, tools/call)',
    msAuto(coldMed('provisioned', (r) => r.firstSearchMs!)),
    `${msAuto(Math.min(...cold.provisioned.map((r) => r.firstSearchMs!)))} / ${msAuto(Math.max(...cold.provisioned.map((r) => r.firstSearchMs!)))}`,
    cold.provisioned.map((r) => msAuto(r.firstSearchMs!)).join(', '),
    '',
    '',
    '',
  ]);
  out.push(table(['target', 'median ms', 'min / max ms', 'runs (ms)', 'process CPU at first answer, median ms', 'RSS at first answer', 'other load, cores (median)'], coldRows, ['l', 'r', 'r', 'l', 'r', 'r', 'r']));
  out.push('');
  out.push(
    '"process CPU" is the user + system time the spawned process had used when it answered (from `/proc/<pid>/stat`, 10 ms ticks; it counts every thread, so it can exceed the wall time): ' +
      'less sensitive to other load than wall time, it shows the work a cold start costs. "other load" is CPU used by everything else on the machine during the start, in cores (2 = the machine was full).' +
      (o.retried.length ? ` ${o.retried.length} start(s) failed and were retried once: ${o.retried.map((r) => `\`${r.replace(/[|`]/g, ' ')}\``).join('; ')}.` : ''),
  );
  out.push('');
  out.push(
    `Where a fresh start's CPU goes: one more fresh start ran under \`--cpu-prof\` (not in the medians above; ${msAuto(o.coldProfile.readyMs)} ms to first answer with the profiler on). ` +
      `Its ${msAuto(o.coldProfile.totalMs)} ms of sampled main-thread CPU (start to exit; the stop after the first answer takes a few ms) split by what is on the stack, each sample counted once in the first matching row:`,
  );
  out.push('');
  out.push(
    table(
      ['category', 'ms', 'share'],
      o.coldProfile.categories.map((c) => [c.label, msAuto(c.ms), `${(c.share * 100).toFixed(1)}%`]),
      ['l', 'r', 'r'],
    ),
  );
  out.push('');
  out.push(
    `Within "other module loading", by the module whose code was running (innermost non-Node frame; "Node's module loader itself" when only loader frames were on the stack): ` +
      o.coldProfile.modules
        .slice(0, 10)
        .map((m) => `${m.label.startsWith('Node') ? m.label : `\`${m.label}\``} ${msAuto(m.ms)} ms`)
        .join(', ') +
      '.',
  );
  out.push('');
  out.push(
    `The first search_docs request after the first answer (provisioned data dir) took a median ${msAuto(coldMed('provisioned', (r) => r.firstSearchRequestMs!))} ms: the Engine builds the version's docs index on first use.`,
  );
  out.push('');

  out.push(`### Memory: ${int(memory.sessions)} initialized idle MCP sessions`, '');
  out.push(
    'A separate Engine process on a copy of the provisioned data dir. VmRSS and RssAnon from `/proc/<pid>/status`, averaged over two reads 250 ms apart after a settle. ' +
      `Sessions are opened over raw HTTP (\`initialize\` + \`notifications/initialized\`, 8 at a time on keep-alive connections, which are then closed) and left idle; ` +
      `${memory.alive} of ${memory.aliveChecked} sampled sessions still answered \`tools/list\` afterwards. ` +
      'The Engine has no GC trigger, so after start SIGUSR1 opens the child\'s inspector (`--inspect-port` set at spawn) and stays attached: at each point the settled RSS is read first, then `HeapProfiler.collectGarbage` forces a full GC and RSS and `process.memoryUsage()` are read again. ' +
      `The Engine's RSS after start was ${mib(memory.rssBeforeInspector)} before the inspector was opened. ` +
      `Baseline in the same run: a bare node:http server (\`--no-node-snapshot\`) settles at ${mib(memory.floorRss)} RSS.`,
  );
  out.push('');
  out.push(
    table(
      ['point', 'VmRSS settled', 'RssAnon settled', 'VmRSS after forced GC', 'heapUsed after GC', 'external after GC'],
      memory.points.map((pt) => [pt.label, mib(pt.rss), mib(pt.anon), mib(pt.gcRss), mib(pt.heapUsed), mib(pt.external)]),
      ['l', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  out.push('');
  out.push(
    table(
      ['derived', 'value'],
      [
        ['RSS per idle session: settled with sessions − warmed Engine after GC', `${(perSession / 1024).toFixed(1)} KiB`],
        ['RSS per idle session, both after forced GC', `${(perSessionGc / 1024).toFixed(1)} KiB`],
        ['heap per idle session (heapUsed after GC: with sessions − warmed Engine; with sessions − after DELETE of all)', `${(heapPerSession / 1024).toFixed(1)} KiB; ${(heapPerSessionDelete / 1024).toFixed(1)} KiB`],
        ['baseline: heap of the MCP SDK\'s per-session objects alone (Server + 2 handlers + StreamableHTTPServerTransport, connected, not initialized; in the bench process)', `${(memory.sdkHeapPerSession / 1024).toFixed(1)} KiB`],
        ['Engine at start over the Node floor (settled, before the inspector)', mib(memory.rssBeforeInspector - memory.floorRss)],
        ['first session + docs index (warmed − start, both after GC): RSS; heap', `${mib(mWarm.gcRss - mStart.gcRss)}; ${mib(mWarm.heapUsed - mStart.heapUsed)}`],
        [`opening the sessions: initialize + initialized latency p50 / p99 (8 concurrent)`, `${msAuto(memory.openLatency.p50)} / ${msAuto(memory.openLatency.p99)} ms; ${int((memory.sessions - 1) / (memory.openWallMs / 1000))} sessions/s`],
        ['sessions ended by DELETE', `${int(memory.deleted)} of ${int(memory.sessions)}`],
      ],
      ['l', 'r'],
    ),
  );
  out.push('');
  out.push(
    'Reproduce: `npm run bench -- mcp-server` (knobs: BENCH_MCP_ROUNDS, BENCH_COLD_RUNS, BENCH_MCP_SESSIONS). Where the time goes: `BENCH_CPU_PROF=/tmp/prof npm run bench -- mcp-server` (the reports are left unchanged) writes ' +
      '`/tmp/prof/engine-cold-start.cpuprofile` (one cold start) and `/tmp/prof/engine-mcp.cpuprofile` (the Engine serving the end-to-end rounds); summarise with `node test/bench/lib/profile-summary.ts <file>`.',
  );
  return {
    report: out.join('\n'),
    summary: {
      goal: `tools/list ≤ 3 KB; cold start ≤ ${int(GOALS.coldStartMs)} ms; ${int(memory.sessions)} idle sessions ≤ ${GOALS.rssMiB} MiB`,
      measured: `${int(wire.toolsList.body)} B; ${msAuto(coldMed('fresh'))} ms; ${mib(mSessions.rss)}`,
      verdict: verdictOf(Object.values(met)),
    },
  };
}
