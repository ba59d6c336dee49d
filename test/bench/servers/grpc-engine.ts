// The Engine for the gRPC benchmark, in its own process: HTTP and gRPC on ephemeral loopback
// ports, demo-crm v1 pointed at the fake provider (BENCH_UPSTREAM_URL, key BENCH_PROVIDER_KEY)
// and github v1 enabled, an SDK selecting demo-crm.contacts/get published. `ready` carries both
// addresses, the version ID, the SDK token and a CLI credential for publish and download.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/index.ts';
import { startEngine, type Engine } from '../../../src/engine/index.ts';
import { LOOPBACK_EGRESS } from '../../fixtures/egress.ts';
import { serve } from './ipc.ts';

export interface GrpcEngineReady {
  url: string;
  grpcUrl: string;
  versionId: string;
  token: string;
  cliToken: string;
}

await serve(async () => {
  const upstream = process.env.BENCH_UPSTREAM_URL;
  const key = process.env.BENCH_PROVIDER_KEY;
  if (!upstream || !key) throw new Error('BENCH_UPSTREAM_URL and BENCH_PROVIDER_KEY must be set');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-grpc-'));
  const config = loadConfig({ SVC_DATA_DIR: dataDir, SVC_HTTP_PORT: '0', SVC_GRPC_PORT: '0', SVC_LOG_LEVEL: process.env.BENCH_ENGINE_LOG_LEVEL || 'warn', SVC_EGRESS_ALLOW: LOOPBACK_EGRESS });
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
    const { token: cliToken } = await engine.deps.tokens.issue('cli', 'bench');
    const api = async (method: string, path: string, body: unknown, expect: number) => {
      const res = await fetch(engine.url + path, { method, headers: { authorization: `Bearer ${cliToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await res.text();
      if (res.status !== expect) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    await api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: upstream }, 200);
    await api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: upstream }, 200);
    await api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: key }, 204);
    const published = await api('POST', '/v1/sdks/publish', { name: 'bench-grpc', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] }, 200);
    const info: GrpcEngineReady = { url: engine.url, grpcUrl: engine.grpcUrl, versionId: published.versionId, token: published.token, cliToken };
    return { info, stop };
  } catch (err) {
    await stop();
    throw err;
  }
});
