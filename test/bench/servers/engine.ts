// The Engine under test, in its own process: started with startEngine on a temp data dir and
// port 0, then set up over its own control-plane API like an operator would: demo-crm v1
// enabled with its baseUrl pointed at the fake provider (BENCH_UPSTREAM_URL), the provider key
// (BENCH_PROVIDER_KEY) stored as the secret, and an SDK selecting demo-crm.contacts/get (or the
// operations BENCH_OPERATIONS lists) published. The settings PASSED names and the OTEL_* variables are
// passed on when set. `ready` carries the URL, the version ID and the SDK token.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/index.ts';
import { startEngine, type Engine } from '../../../src/engine/index.ts';
import { LOOPBACK_EGRESS } from '../../fixtures/egress.ts';
import { serve } from './ipc.ts';

/** Settings passed on when set (the timeouts: bench:ab --instructions, whose Engines run ~30× slower under callgrind). */
const PASSED = new Set(['SVC_SQLITE_SYNCHRONOUS', 'SVC_RECEIPT_WRITES', 'SVC_HTTP_HEADERS_TIMEOUT_MS', 'SVC_HTTP_REQUEST_TIMEOUT_MS', 'SVC_PROVIDER_TIMEOUT_MS']);

export interface EngineReady {
  url: string;
  versionId: string;
  token: string;
}

await serve(async () => {
  const upstream = process.env.BENCH_UPSTREAM_URL;
  const key = process.env.BENCH_PROVIDER_KEY;
  if (!upstream || !key) throw new Error('BENCH_UPSTREAM_URL and BENCH_PROVIDER_KEY must be set');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const passed = Object.fromEntries(Object.entries(process.env).filter(([name, value]) => value && (PASSED.has(name) || name.startsWith('OTEL_'))));
  const config = loadConfig({ SVC_DATA_DIR: dataDir, SVC_HTTP_PORT: '0', SVC_LOG_LEVEL: process.env.BENCH_ENGINE_LOG_LEVEL || 'warn', SVC_EGRESS_ALLOW: LOOPBACK_EGRESS, ...passed });
  let engine: Engine;
  try {
    engine = await startEngine(config);
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const stop = async () => {
    await engine.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const { token: cli } = await engine.deps.tokens.issue('cli', 'bench');
    const api = async (method: string, path: string, body: unknown, expect: number) => {
      const res = await fetch(engine.url + path, {
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
    const operations = (process.env.BENCH_OPERATIONS || 'contacts/get').split(',').map((op) => `demo-crm=${op}`);
    const published = await api('POST', '/v1/sdks/publish', { name: 'bench', services: ['demo-crm=v1'], operations }, 200);
    if (!published?.token) throw new Error(`publish returned no token: ${JSON.stringify(published)}`);
    const info: EngineReady = { url: engine.url, versionId: published.versionId, token: published.token };
    return { info, stop };
  } catch (err) {
    await stop();
    throw err;
  }
});
