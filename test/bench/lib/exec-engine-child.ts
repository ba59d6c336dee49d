// Child side of lib/exec-engine.ts: the Engine under test for the execute and retention
// benchmarks, in its own process. Started with startEngine on a temp data dir and port 0, then set
// up over its own control-plane API like an operator would: demo-crm v1 pointed at the fake
// provider (BENCH_UPSTREAM_URL, optional), the provider key stored as its secret, an MCP server
// and an SDK that both select demo-crm contacts/get and contacts/list (and BENCH_MCP_TOKENS more MCP
// tokens; BENCH_ENGINE_SETTINGS, JSON, adds settings). Answers the parent's
// requests over IPC (CPU, memory with an optional full GC, CPU profiling) and exits when the
// parent asks or goes away, so no Engine outlives a bench run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadConfig } from '../../../src/config/index.ts';
import { startEngine, type Engine } from '../../../src/engine/index.ts';
import { LOOPBACK_EGRESS } from '../../fixtures/egress.ts';
import type { ExecEngineReady, ExecRequest, ExecParentMessage, ExecChildMessage } from './exec-engine.ts';

if (!process.send) throw new Error('exec-engine-child.ts must be started by lib/exec-engine.ts (no IPC channel)');
const send = (msg: ExecChildMessage) => process.send!(msg);

const upstream = process.env.BENCH_UPSTREAM_URL || 'http://127.0.0.1:9';
const key = process.env.BENCH_PROVIDER_KEY || 'sk_bench_unused';
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-exec-'));
let engine: Engine | undefined;
let profiler: Session | undefined;
let gcFn: (() => void) | undefined;

async function answer(request: ExecRequest): Promise<unknown> {
  switch (request.type) {
    case 'cpu': {
      const u = process.cpuUsage();
      return u.user + u.system;
    }
    case 'memory': {
      if (request.gc) {
        if (!gcFn) {
          setFlagsFromString('--expose-gc');
          gcFn = runInNewContext('gc') as () => void;
        }
        gcFn();
        gcFn();
        // Let isolated-vm finish disposing isolates released by the GC'd handles.
        await new Promise((r) => setTimeout(r, 50));
      }
      return { ...process.memoryUsage(), liveTransports: engine?.deps.mcpGateway.liveTransports ?? 0 };
    }
    case 'profile-start':
      profiler ??= new Session();
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.post('Profiler.start');
      return null;
    case 'profile-stop': {
      if (!profiler) throw new Error('profiling was not started');
      const { profile } = await profiler.post('Profiler.stop');
      profiler.disconnect();
      profiler = undefined;
      writeFileSync(request.path, JSON.stringify(profile));
      return request.path;
    }
  }
}

let stopping = false;
async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  const hard = setTimeout(() => process.exit(code), 5_000);
  hard.unref();
  try {
    await engine?.stop();
  } catch (err) {
    console.error(err);
  }
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}

process.on('message', (raw) => {
  const msg = raw as ExecParentMessage;
  if (msg.type === 'stop') void shutdown(0);
  else if (msg.type === 'request') {
    answer(msg.request).then(
      (value) => send({ type: 'reply', id: msg.id, value }),
      (err: unknown) => send({ type: 'reply', id: msg.id, error: String(err) }),
    );
  }
});
process.on('disconnect', () => void shutdown(0));
process.on('SIGINT', () => void shutdown(130));
process.on('SIGTERM', () => void shutdown(143));

try {
  const config = loadConfig({
    SVC_DATA_DIR: dataDir,
    SVC_HTTP_PORT: '0',
    SVC_GRPC_PORT: '0',
    SVC_LOG_LEVEL: process.env.BENCH_ENGINE_LOG_LEVEL || 'warn',
    SVC_EGRESS_ALLOW: LOOPBACK_EGRESS,
    // Settings a benchmark asks for (lib/exec-engine.ts, startExecEngine's `settings`).
    ...(JSON.parse(process.env.BENCH_ENGINE_SETTINGS || '{}') as Record<string, string>),
  });
  engine = await startEngine(config);
  const { token: cli } = await engine.deps.tokens.issue('cli', 'bench');
  const api = async (method: string, path: string, body: unknown, expect: number) => {
    const res = await fetch(engine!.url + path, {
      method,
      headers: { authorization: `Bearer ${cli}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expect) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  await api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: upstream }, 200);
  await api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: key }, 204);
  const operations = ['demo-crm=contacts/get', 'demo-crm=contacts/list'];
  const sdk = await api('POST', '/v1/sdks/publish', { name: 'bench', services: ['demo-crm=v1'], operations }, 200);
  const mcp = await api('POST', '/v1/mcp/publish', { name: 'bench-agent', services: ['demo-crm=v1'], operations }, 200);
  if (!sdk?.token || !mcp?.token || !mcp?.versionId) throw new Error(`publish returned ${JSON.stringify({ sdk, mcp }).slice(0, 300)}`);
  // More MCP tokens of the same server when asked (BENCH_MCP_TOKENS): one per session, say.
  const mcpTokens: string[] = [];
  for (let i = Number(process.env.BENCH_MCP_TOKENS || 0); i > 0; i--) mcpTokens.push((await api('POST', '/v1/mcp/bench-agent/tokens', { allow: ['*'], expiresAt: null }, 201)).token);
  const ready: ExecEngineReady = { url: engine.url, sdkVersionId: sdk.versionId, sdkToken: sdk.token, mcpUrl: `${engine.url}/mcp/${mcp.versionId}`, mcpToken: mcp.token, mcpTokens };
  send({ type: 'ready', info: ready });
} catch (err) {
  send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  await shutdown(1);
}
