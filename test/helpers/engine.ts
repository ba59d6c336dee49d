// Starts a real Engine on a loopback port with its own temporary data dir, capturing every log
// line so tests can search them for canary secrets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig, type EngineConfig } from '../../src/config/index.ts';
import { startEngine, type Engine } from '../../src/engine/index.ts';

export interface TestEngine {
  engine: Engine;
  url: string;
  dataDir: string;
  /** A CLI credential for control-plane calls. */
  cliToken: string;
  logs: string[];
  /** Secrets and tokens handed out in this run; stop() fails if any reached a log line. */
  canaries: string[];
  /** Control-plane request with the CLI credential; returns status and parsed JSON. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** REST execution with an SDK token. */
  execute(versionId: string, token: string, body: unknown): Promise<{ status: number; body: any }>;
  restart(): Promise<void>;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export interface TestEngineOptions {
  /** Run on this PostgreSQL database instead of the data dir's SQLite file (see helpers/postgres.ts). */
  databaseUrl?: string;
}

export async function startTestEngine(env: Record<string, string> = {}, existingDataDir?: string, options: TestEngineOptions = {}): Promise<TestEngine> {
  const dataDir = existingDataDir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const config: EngineConfig = loadConfig({ SVC_DATA_DIR: dataDir, SVC_HTTP_PORT: '0', SVC_LOG_LEVEL: 'debug', ...env });
  const engineOptions = { logDestination: destination, ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}) };
  let engine = await startEngine(config, engineOptions);
  const { token: cliToken } = await engine.deps.tokens.issue('cli', 'tester');

  const request = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(engine.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  const harness: TestEngine = {
    get engine() {
      return engine;
    },
    get url() {
      return engine.url;
    },
    dataDir,
    cliToken,
    logs,
    canaries: [cliToken],
    api: (method, path, body) => request(method, path, cliToken, body),
    execute: (versionId, token, body) => request('POST', `/v1/apps/${versionId}/executions`, token, body),
    async restart() {
      await engine.stop();
      engine = await startEngine(config, engineOptions);
    },
    async stop(options = {}) {
      await engine.stop();
      const leaked = harness.canaries.filter((c) => logs.some((line) => line.includes(c)));
      if (leaked.length) throw new Error(`a secret or token reached the logs (${leaked.length} value(s))`);
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Enables a service pointed at `baseUrl`, stores its secret and publishes an SDK selecting `operations`. */
export async function publishSdk(
  t: TestEngine,
  options: { name: string; service: string; version?: string; baseUrl: string; secret: string; operations: string[] },
): Promise<{ versionId: string; token: string }> {
  const version = options.version ?? 'v1';
  const enable = await t.api('PUT', `/v1/workspace/services/${options.service}`, { version, baseUrl: options.baseUrl });
  if (enable.status !== 200) throw new Error(`enable failed: ${JSON.stringify(enable.body)}`);
  const secret = await t.api('PUT', `/v1/buckets/default/secrets/${options.service}`, { value: options.secret });
  if (secret.status !== 204) throw new Error(`secret failed: ${JSON.stringify(secret.body)}`);
  const published = await t.api('POST', '/v1/sdks/publish', {
    name: options.name,
    services: [`${options.service}=${version}`],
    operations: options.operations.map((op) => `${options.service}=${op}`),
  });
  if (published.status !== 200 || !published.body.token) throw new Error(`publish failed: ${JSON.stringify(published.body)}`);
  t.canaries.push(options.secret, published.body.token);
  return { versionId: published.body.versionId, token: published.body.token };
}

/**
 * Points an enabled service at `baseUrl` and sets its secret again: a secret goes only to the
 * origin it was set for, so a test that repoints a service re-enters it, as a person would.
 */
export async function pointService(t: TestEngine, service: string, baseUrl: string, secret: string, version = 'v1'): Promise<void> {
  const enable = await t.api('PUT', `/v1/workspace/services/${service}`, { version, baseUrl });
  if (enable.status !== 200) throw new Error(`enable failed: ${JSON.stringify(enable.body)}`);
  const set = await t.api('PUT', `/v1/buckets/default/secrets/${service}`, { value: secret });
  if (set.status !== 204) throw new Error(`secret failed: ${JSON.stringify(set.body)}`);
}

/**
 * Imports an OpenAPI service of one GET operation (`operationId` on `path`, with `parameters` as
 * YAML flow mappings) served at `url`; throws unless the Engine accepts it.
 */
export async function importGetService(
  t: TestEngine,
  options: { name: string; url: string; path: string; operationId: string; parameters: string[]; auth?: Record<string, string> },
): Promise<void> {
  const document = [
    'openapi: 3.0.3',
    `info: { title: ${options.name}, version: '1' }`,
    `servers: [{ url: '${options.url}' }]`,
    'paths:',
    `  ${options.path}:`,
    '    get:',
    `      operationId: ${options.operationId}`,
    '      parameters:',
    ...options.parameters.map((p) => `        - ${p}`),
    "      responses: { '200': { description: ok } }",
  ].join('\n');
  const imported = await t.api('POST', '/v1/workspace/imports', { name: options.name, version: 'v1', document, ...(options.auth ? { auth: options.auth } : {}) });
  if (imported.status >= 300) throw new Error(`import failed: ${JSON.stringify(imported.body)}`);
}
