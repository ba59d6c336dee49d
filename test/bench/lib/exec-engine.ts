// Parent side of the execute and retention benchmarks' Engine process (child script:
// lib/exec-engine-child.ts): spawn (optionally pinned with taskset), ready/stop over IPC, memory
// with a forced GC, CPU profiling; /proc readings of the child (VmRSS, CPU per thread group and of
// its own children such as the esbuild service); a raw Streamable HTTP client for tools/call on
// initialized sessions; and a closed-loop driver for per-worker async operations.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { canPin } from './child.ts';
import { percentiles } from './stats.ts';

export interface ExecEngineReady {
  /** http://127.0.0.1:<port> of the Engine. */
  url: string;
  sdkVersionId: string;
  sdkToken: string;
  /** Streamable HTTP endpoint of the MCP server (demo-crm contacts/get and contacts/list). */
  mcpUrl: string;
  mcpToken: string;
  /** Further tokens of the same MCP server, as many as `mcpTokens` asked. */
  mcpTokens: string[];
}

export type ExecRequest = { type: 'cpu' } | { type: 'memory'; gc: boolean } | { type: 'profile-start' } | { type: 'profile-stop'; path: string };
export type ExecParentMessage = { type: 'stop' } | { type: 'request'; id: number; request: ExecRequest };
export type ExecChildMessage = { type: 'ready'; info: ExecEngineReady } | { type: 'error'; message: string } | { type: 'reply'; id: number; value?: unknown; error?: string };

export interface ChildMemory extends NodeJS.MemoryUsage {
  /** Open MCP sessions in the Engine. */
  sessions: number;
}

export interface ExecEngine {
  readonly pid: number;
  readonly ready: ExecEngineReady;
  /** process.memoryUsage() inside the Engine, after two full GCs when `gc`. */
  memory(gc: boolean): Promise<ChildMemory>;
  profileStart(): Promise<void>;
  profileStop(path: string): Promise<void>;
  stop(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./exec-engine-child.ts', import.meta.url));
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/** Starts the Engine child; `cpus` pins it (and its threads and children) with taskset when available. */
export async function startExecEngine(
  options: { upstream?: string; key?: string; cpus?: string | undefined; execArgv?: string[]; readyTimeoutMs?: number; settings?: Record<string, string>; mcpTokens?: number } = {},
): Promise<ExecEngine> {
  const env = {
    ...process.env,
    BENCH_UPSTREAM_URL: options.upstream ?? '',
    BENCH_PROVIDER_KEY: options.key ?? '',
    BENCH_ENGINE_SETTINGS: JSON.stringify(options.settings ?? {}),
    BENCH_MCP_TOKENS: String(options.mcpTokens ?? 0),
  };
  const nodeArgs = ['--no-node-snapshot', ...(options.execArgv ?? []), CHILD];
  const pinned = options.cpus !== undefined && canPin();
  const stdio: ['ignore', 'inherit', 'inherit', 'ipc'] = ['ignore', 'inherit', 'inherit', 'ipc'];
  const child = pinned ? spawn('taskset', ['-c', options.cpus!, process.execPath, ...nodeArgs], { stdio, env }) : spawn(process.execPath, nodeArgs, { stdio, env });
  live.add(child);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      live.delete(child);
      resolve();
    }),
  );
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const timeoutMs = options.readyTimeoutMs ?? 60_000;
  const ready = await new Promise<ExecEngineReady>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Engine child was not ready after ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the Engine child exited before it was ready (code ${code}, signal ${signal})`));
    });
    child.on('message', (raw) => {
      const msg = raw as ExecChildMessage;
      if (msg.type === 'ready') {
        clearTimeout(timer);
        resolve(msg.info);
      } else if (msg.type === 'error') {
        clearTimeout(timer);
        reject(new Error(`Engine child: ${msg.message}`));
      } else if (msg.type === 'reply') {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error !== undefined) p?.reject(new Error(`Engine child: ${msg.error}`));
        else p?.resolve(msg.value);
      }
    });
  }).catch(async (err) => {
    if (!exited) child.kill('SIGKILL');
    await exit;
    throw err;
  });
  const ask = (request: ExecRequest) =>
    new Promise<unknown>((resolve, reject) => {
      if (exited || !child.connected) return reject(new Error('the Engine child has exited'));
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ type: 'request', id, request } satisfies ExecParentMessage);
    });
  // With taskset the spawned process is taskset itself, which execs node: same pid.
  return {
    pid: child.pid!,
    ready,
    memory: (gc) => ask({ type: 'memory', gc }) as Promise<ChildMemory>,
    profileStart: async () => void (await ask({ type: 'profile-start' })),
    profileStop: async (path) => void (await ask({ type: 'profile-stop', path })),
    async stop() {
      if (exited) return;
      if (child.connected) child.send({ type: 'stop' } satisfies ExecParentMessage);
      const timer = setTimeout(() => child.kill('SIGKILL'), 8_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// /proc readings

/** Process IDs of a process's children (every thread's), then theirs, and so on. */
export function descendantsOf(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      return; // gone
    }
    for (const tid of tasks) {
      try {
        for (const c of readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8').trim().split(/\s+/)) {
          if (!c) continue;
          out.push(Number(c));
          walk(Number(c));
        }
      } catch {
        /* gone */
      }
    }
  };
  walk(pid);
  return out;
}

/** VmRSS of a process and every process under it (the Engine with its sandbox workers and esbuild service), bytes. */
export function treeRssOf(pid: number): number {
  let total = rssOf(pid).rss;
  for (const c of descendantsOf(pid)) {
    try {
      total += rssOf(c).rss;
    } catch {
      /* ended meanwhile */
    }
  }
  return total;
}

/** VmRSS (and its anonymous part, and the peak) of a process, bytes. */
export function rssOf(pid: number): { rss: number; anon: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), hwm: kb('VmHWM') };
}

const TICK_US = 1_000_000 / 100; // USER_HZ

function statCpuUs(path: string): number {
  try {
    const stat = readFileSync(path, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_US; // utime + stime
  } catch {
    return 0; // the thread or process is gone
  }
}

export interface ProcCpu {
  /** The whole Engine process (all threads), µs. */
  total: number;
  /** Its main thread (the event loop), µs. */
  main: number;
  /** CPU of its other threads, by thread name (comm), µs. */
  threads: Record<string, number>;
  /** CPU of its child processes (the esbuild service), µs. */
  children: number;
}

/** Cumulative CPU of a process split into its main thread, its other threads by name, and its children. */
export function procCpu(pid: number): ProcCpu {
  const threads: Record<string, number> = {};
  let main = 0;
  let children = 0;
  const childPids = new Set<string>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const us = statCpuUs(`/proc/${pid}/task/${tid}/stat`);
    if (tid === String(pid)) main = us;
    else {
      let comm = 'thread';
      try {
        comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim().replace(/\d+$/, '').replace(/[-_ ]$/, '') || 'thread';
      } catch {
        /* gone */
      }
      threads[comm] = (threads[comm] ?? 0) + us;
    }
    try {
      for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/)) if (c) childPids.add(c);
    } catch {
      /* no children file */
    }
  }
  for (const c of childPids) children += statCpuUs(`/proc/${c}/stat`);
  return { total: statCpuUs(`/proc/${pid}/stat`), main, threads, children };
}

export function cpuDelta(a: ProcCpu, b: ProcCpu): ProcCpu {
  const threads: Record<string, number> = {};
  for (const k of new Set([...Object.keys(a.threads), ...Object.keys(b.threads)])) threads[k] = (b.threads[k] ?? 0) - (a.threads[k] ?? 0);
  return { total: b.total - a.total, main: b.main - a.main, threads, children: b.children - a.children };
}

// ---------------------------------------------------------------------------------------------
// Raw Streamable HTTP

export const PROTOCOL = '2025-06-18';

export interface RpcAnswer {
  status: number;
  text: string;
  sessionId: string | undefined;
}

/** JSON-RPC over HTTP POST for one MCP server URL, on an undici Pool (keep-alive). */
export class McpHttp {
  readonly pool: Pool;
  private readonly path: string;
  private readonly token: string;
  private nextId = 1;

  constructor(url: string, token: string, connections = 1) {
    const u = new URL(url);
    this.pool = new Pool(u.origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
    this.path = u.pathname;
    this.token = token;
  }

  private headers(sessionId?: string): Record<string, string> {
    return {
      authorization: `Bearer ${this.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL } : {}),
    };
  }

  async post(body: unknown, sessionId?: string): Promise<RpcAnswer> {
    const res = await this.pool.request({ method: 'POST', path: this.path, headers: this.headers(sessionId), body: JSON.stringify(body) });
    const text = await res.body.text();
    const sid = res.headers['mcp-session-id'];
    return { status: res.statusCode, text, sessionId: typeof sid === 'string' ? sid : undefined };
  }

  /** initialize + notifications/initialized: a ready session. */
  async open(): Promise<string> {
    const init = await this.post({ jsonrpc: '2.0', id: this.nextId++, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'svc-bench', version: '1.0.0' } } });
    if (init.status !== 200 || !init.sessionId) throw new Error(`initialize answered ${init.status}: ${init.text.slice(0, 300)}`);
    const ready = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, init.sessionId);
    if (ready.status !== 202) throw new Error(`notifications/initialized answered ${ready.status}: ${ready.text.slice(0, 300)}`);
    return init.sessionId;
  }

  /** tools/call execute; resolves with the tool result (structuredContent, isError). */
  async execute(sessionId: string, args: { code: string; outputBudgetBytes?: number }): Promise<{ status: number; text: string; isError: boolean; structured: any }> {
    const res = await this.post({ jsonrpc: '2.0', id: this.nextId++, method: 'tools/call', params: { name: 'execute', arguments: args } }, sessionId);
    let parsed: any;
    try {
      parsed = JSON.parse(res.text);
    } catch {
      parsed = undefined;
    }
    const result = parsed?.result;
    return { status: res.status, text: res.text, isError: !result || result.isError === true, structured: result?.structuredContent };
  }

  async close(sessionId?: string): Promise<void> {
    if (sessionId) {
      const res = await this.pool.request({ method: 'DELETE', path: this.path, headers: this.headers(sessionId) }).catch(() => undefined);
      await res?.body.dump();
    }
  }

  destroy(): Promise<void> {
    return this.pool.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Closed-loop driver

export interface LoopResult {
  ok: number;
  failed: number;
  firstFailure: string | undefined;
  elapsedMs: number;
  perSecond: number;
  latencies: number[];
  p50: number;
  p99: number;
}

/**
 * `concurrency` workers, each running `op(worker)` back to back, until `count` operations have
 * started (count mode) or `durationMs` has passed (only those finished inside the window count).
 * `op` resolves to an error text, or undefined when the answer was the expected one.
 */
export async function closedLoop(op: (worker: number) => Promise<string | undefined>, concurrency: number, stop: { count: number } | { durationMs: number }): Promise<LoopResult> {
  const latencies: number[] = [];
  let started = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const t0 = performance.now();
  const end = 'durationMs' in stop ? t0 + stop.durationMs : Infinity;
  const more = () => ('count' in stop ? started < stop.count : performance.now() < end);
  const worker = async (w: number) => {
    while (more()) {
      started++;
      const t = performance.now();
      let failure: string | undefined;
      try {
        failure = await op(w);
      } catch (err) {
        failure = `error: ${(err as Error).message}`;
      }
      const t1 = performance.now();
      if (t1 > end) break;
      if (failure !== undefined) {
        failed++;
        firstFailure ??= failure;
      } else latencies.push(t1 - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsedMs = 'durationMs' in stop ? stop.durationMs : performance.now() - t0;
  const [p50, p99] = percentiles(Float64Array.from(latencies), latencies.length, [50, 99]) as [number, number];
  return { ok: latencies.length, failed, firstFailure, elapsedMs, perSecond: (latencies.length * 1000) / elapsedMs, latencies, p50, p99 };
}
