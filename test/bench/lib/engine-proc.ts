// The Engine as an operator runs it, for the MCP benchmarks: `node --no-node-snapshot
// src/bin/svc-engine.ts serve` in its own process on a port picked here, plus what the benchmark
// needs around it — readiness polling, RSS from /proc, a raw Streamable HTTP client, a Chrome
// DevTools Protocol client (to force a GC in the child after SIGUSR1 opens its inspector), and
// cleanup that never leaves a child behind.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect as netConnect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { LOOPBACK_EGRESS } from '../../fixtures/egress.ts';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../../src/bin/svc-engine.ts', import.meta.url));
export const PROTOCOL = '2025-06-18';

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/** A free loopback TCP port (bound and released; the child binds it right after). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Proc {
  readonly child: ChildProcess;
  readonly pid: number;
  /** performance.now() just before spawn. */
  readonly spawnedAt: number;
  /** The last few KiB of stderr/stdout, for error messages. */
  output(): string;
  exited(): boolean;
  /** SIGTERM (the bin stops the Engine cleanly), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export function spawnNode(args: string[], env: Record<string, string> = {}): Proc {
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8192);
  };
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  live.add(child);
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      keep(Buffer.from(`\n[exited with code ${code}, signal ${signal}]`));
      exited = true;
      live.delete(child);
      resolve();
    }),
  );
  return {
    child,
    pid: child.pid!,
    spawnedAt,
    output: () => tail,
    exited: () => exited,
    async stop(graceMs = 5_000) {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}

export interface EngineProc extends Proc {
  port: number;
  origin: string;
}

/** Starts `svc-engine serve` on a free port with the given data dir. */
export async function spawnEngine(dataDir: string, options: { nodeArgs?: string[]; env?: Record<string, string> } = {}): Promise<EngineProc> {
  const port = await freePort();
  const proc = spawnNode(['--no-node-snapshot', ...(options.nodeArgs ?? []), BIN, 'serve'], {
    SVC_DATA_DIR: dataDir,
    SVC_HTTP_PORT: String(port),
    // Any other listener the Engine opens (gRPC) on an ephemeral port, so parallel Engines never collide.
    SVC_GRPC_PORT: '0',
    SVC_LOG_LEVEL: 'warn',
    SVC_EGRESS_ALLOW: LOOPBACK_EGRESS,
    ...options.env,
  });
  return Object.assign(proc, { port, origin: `http://127.0.0.1:${port}` });
}

/** One GET with a fresh connection; resolves with the status, rejects on connection errors. */
function probe(origin: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('timeout', () => req.destroy(new Error('probe timeout')));
    req.once('error', reject);
    req.end();
  });
}

/** Polls until `path` answers 200; returns performance.now() of that answer. */
export async function waitForHttp(proc: Proc, origin: string, path: string, timeoutMs = 30_000, intervalMs = 2): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (proc.exited()) {
      await new Promise((r) => setTimeout(r, 100)); // let the last stderr chunks arrive
      throw new Error(`process exited before answering ${path}: ${proc.output().replace(/\s+/g, ' ').trim().slice(-400)}`);
    }
    try {
      const status = await probe(origin, path);
      if (status === 200) return performance.now();
    } catch {
      /* not listening yet */
    }
    if (performance.now() > deadline) throw new Error(`no 200 from ${origin}${path} within ${timeoutMs} ms:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Resident set size and its anonymous part of a process, bytes (Linux /proc). */
export function rssOf(pid: number): { rss: number; anon: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), hwm: kb('VmHWM') };
}

/** Cumulative user+system CPU time of a process, µs (Linux /proc/<pid>/stat, 100 ticks per second). */
export function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the state (field 3); utime and stime are fields 14 and 15.
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100;
}

/** Runs a one-shot node command and returns its stdout. */
export function runNode(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${args.join(' ')} failed: ${err.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Raw Streamable HTTP

export interface RpcAnswer {
  status: number;
  /** Response body as received (bytes). */
  bytes: number;
  text: string;
  json: any;
  sessionId: string | undefined;
}

/** A JSON-RPC-over-HTTP client for one MCP server URL on an undici Pool (keep-alive). */
export class RawMcp {
  readonly pool: Pool;
  readonly path: string;
  private readonly token: string;
  private nextId = 1;

  constructor(url: string, token: string, connections = 1) {
    const u = new URL(url);
    this.pool = new Pool(u.origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
    this.path = u.pathname;
    this.token = token;
  }

  headers(sessionId?: string): Record<string, string> {
    return {
      authorization: `Bearer ${this.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL } : {}),
    };
  }

  async post(body: unknown, sessionId?: string): Promise<RpcAnswer> {
    const res = await this.pool.request({ method: 'POST', path: this.path, headers: this.headers(sessionId), body: JSON.stringify(body) });
    const buf = Buffer.from(await res.body.arrayBuffer());
    const text = buf.toString('utf8');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const sid = res.headers['mcp-session-id'];
    return { status: res.statusCode, bytes: buf.length, text, json, sessionId: typeof sid === 'string' ? sid : undefined };
  }

  async delete(sessionId: string): Promise<number> {
    const res = await this.pool.request({ method: 'DELETE', path: this.path, headers: this.headers(sessionId) });
    await res.body.dump();
    return res.statusCode;
  }

  /** initialize + notifications/initialized: a ready, idle session. */
  async open(): Promise<string> {
    const init = await this.post({ jsonrpc: '2.0', id: this.nextId++, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'svc-bench', version: '1.0.0' } } });
    if (init.status !== 200 || !init.sessionId) throw new Error(`initialize answered ${init.status}: ${init.text.slice(0, 300)}`);
    const ready = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, init.sessionId);
    if (ready.status !== 202) throw new Error(`notifications/initialized answered ${ready.status}: ${ready.text.slice(0, 300)}`);
    return init.sessionId;
  }

  call(sessionId: string, method: string, params: Record<string, unknown> = {}): Promise<RpcAnswer> {
    return this.post({ jsonrpc: '2.0', id: this.nextId++, method, params }, sessionId);
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

/**
 * One HTTP/1.1 request over a plain TCP socket, counting every byte the server sends back
 * (status line, headers, body framing). `Connection: close`, so the answer ends with the socket.
 */
export function wireExchange(origin: string, path: string, headers: Record<string, string>, body: string): Promise<{ total: number; head: number; body: string; bodyWireBytes: number; rawHead: string }> {
  const u = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = netConnect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.once('error', reject);
    socket.once('end', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const rawHead = all.subarray(0, split).toString('latin1');
      let payload = all.subarray(split + 4);
      const bodyWireBytes = payload.length;
      if (/^transfer-encoding:\s*chunked/im.test(rawHead)) {
        const parts: Buffer[] = [];
        let rest = payload;
        for (;;) {
          const eol = rest.indexOf('\r\n');
          const size = parseInt(rest.subarray(0, eol).toString('latin1'), 16);
          if (!size) break;
          parts.push(rest.subarray(eol + 2, eol + 2 + size));
          rest = rest.subarray(eol + 2 + size + 2);
        }
        payload = Buffer.concat(parts);
      }
      resolve({ total: all.length, head: split + 4, body: payload.toString('utf8'), bodyWireBytes, rawHead });
    });
    const lines = [`POST ${path} HTTP/1.1`, `Host: ${u.host}`, 'Connection: close', `Content-Length: ${Buffer.byteLength(body)}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

// ---------------------------------------------------------------------------------------------
// Chrome DevTools Protocol, to force a full GC in the Engine child and read its heap

export interface Cdp {
  send(method: string, params?: Record<string, unknown>): Promise<any>;
  close(): void;
}

/** Opens the child's inspector with SIGUSR1 (port fixed by --inspect-port) and connects to it. */
export async function attachInspector(pid: number, inspectPort: number, timeoutMs = 10_000): Promise<Cdp> {
  process.kill(pid, 'SIGUSR1');
  const deadline = performance.now() + timeoutMs;
  let targets: { webSocketDebuggerUrl: string }[] | undefined;
  while (!targets?.length) {
    try {
      targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
    } catch {
      if (performance.now() > deadline) throw new Error(`the inspector of ${pid} did not open on port ${inspectPort}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error('inspector websocket failed')), { once: true });
  });
  let id = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  ws.addEventListener('message', (ev) => {
    const msg = JSON.parse(String(ev.data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (msg.id === undefined) return;
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error) p?.reject(new Error(msg.error.message));
    else p?.resolve(msg.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const n = ++id;
        pending.set(n, { resolve, reject });
        ws.send(JSON.stringify({ id: n, method, params }));
      }),
    close: () => ws.close(),
  };
}

/** Full GC in the child, then its process.memoryUsage(). */
export async function gcAndMemory(cdp: Cdp): Promise<NodeJS.MemoryUsage> {
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const r = await cdp.send('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
  return JSON.parse(r.result.value as string) as NodeJS.MemoryUsage;
}
