// An Engine for a bench server process: a temporary data dir, ephemeral ports, `settings` on top of
// those; `api` calls its control plane with a CLI credential (throwing on anything but 2xx), `stop`
// stops it and removes the data dir. A start that fails leaves no data dir behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/index.ts';
import { startEngine, type Engine } from '../../../src/engine/index.ts';
import { LOOPBACK_EGRESS } from '../../fixtures/egress.ts';

export interface BenchEngine {
  engine: Engine;
  api(method: string, path: string, body: unknown): Promise<any>;
  stop(): Promise<void>;
}

export async function startBenchEngine(prefix: string, settings: Record<string, string> = {}): Promise<BenchEngine> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  const base = { SVC_DATA_DIR: dataDir, SVC_HTTP_PORT: '0', SVC_GRPC_PORT: '0', SVC_LOG_LEVEL: process.env.BENCH_ENGINE_LOG_LEVEL || 'warn', SVC_EGRESS_ALLOW: LOOPBACK_EGRESS };
  const engine = await startEngine(loadConfig({ ...base, ...settings })).catch((err: unknown) => {
    removeData();
    throw err;
  });
  const stop = async () => {
    await engine.stop();
    removeData();
  };
  const { token: cli } = await engine.deps.tokens.issue('cli', 'bench').catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  const api = async (method: string, path: string, body: unknown) => {
    const res = await fetch(engine.url + path, { method, headers: { authorization: `Bearer ${cli}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return { engine, api, stop };
}
