// Several real Engine replicas for tests: each one is `node --no-node-snapshot src/bin/svc-engine.ts
// serve` in its own child process, as an operator runs it, and they all share
//   - one fresh PostgreSQL database (created under a unique name for this set, dropped by stop()),
//   - one Redis key prefix (unique for this set; stop() deletes every key under it),
//   - one SVC_MASTER_KEY (random per set) and one owner password,
// while each has its own SVC_DATA_DIR and its own ephemeral loopback HTTP and gRPC ports.
//
// Usage:
//
//   const set = await startReplicas({ replicas: 2 });         // waits until every replica is ready
//   const [a, b] = set.replicas;
//   await set.api(a, 'PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl });
//   const res = await set.execute(b, versionId, sdkToken, { operation, input });
//   await a.kill('SIGKILL');                                  // resolves once the process is gone
//   const c = await set.add();                                // one more replica on the same state
//   await set.stop();                                         // SIGTERM the rest, drop DB, clean Redis
//
// - `set.cliToken` is a CLI credential of the owner account, made the way an operator makes one on
//   the Engine host (`svc-engine credential create --subject owner`, against the shared database).
//   Every control-plane call of `api()` uses it. `set.ownerPassword` signs the owner in on a page.
// - Readiness: a replica counts as started when it printed its `engine listening` log line (which
//   carries its URLs) and `GET /readyz` answered 200 (database and, with Redis, Redis reachable).
// - `replica.output()` is everything the process wrote (JSON log lines on stdout, stderr); stop()
//   fails when any value in `set.canaries` (credentials, secrets, tokens the test handed out)
//   appears in any replica's output.
// - Options: `redis: false` runs without REDIS_URL; `env` adds variables to every replica (e.g.
//   SVC_EXECUTE_BUDGET_MS; a REDIS_URL there replaces the shared Redis, e.g. a private one a test may
//   disrupt, and is the one stop() cleans); `add({ env })` per replica.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from './postgres.ts';

export const REPO = resolve(import.meta.dirname, '../..');
export const ENGINE_BIN = join(REPO, 'src/bin/svc-engine.ts');
export const TEST_REDIS_URL = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Replica {
  /** Position in the set (0 = the first replica started). */
  readonly index: number;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** 127.0.0.1:<port> of the gRPC listener. */
  readonly grpcUrl: string;
  readonly dataDir: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves when the process has exited. */
  readonly exited: Promise<Exit>;
  /** Everything the process wrote so far (stdout and stderr, interleaved as received). */
  output(): string;
  /** The JSON log lines of stdout, parsed (lines that are not JSON are skipped). */
  logLines(): Record<string, unknown>[];
  isRunning(): boolean;
  /** Sends `signal` (default SIGTERM) and resolves with the exit once the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<Exit>;
}

export interface ReplicaSetOptions {
  /** How many replicas to start (default 2). */
  replicas?: number;
  /** Share a Redis key prefix through REDIS_URL (default true); false runs without Redis. */
  redis?: boolean;
  /** Extra environment for every replica. */
  env?: Record<string, string>;
  /** SVC_LOG_LEVEL (default info: the `engine listening` line is how the harness learns the URLs). */
  logLevel?: string;
  /** How long one replica may take to become ready (default 60 s). */
  readyTimeoutMs?: number;
}

export interface ReplicaSet {
  readonly replicas: Replica[];
  readonly urls: string[];
  readonly database: TestDatabase;
  readonly redisUrl: string | undefined;
  readonly redisKeyPrefix: string | undefined;
  readonly masterKey: string;
  readonly ownerPassword: string;
  /** The owner's CLI credential (svc_cli_…). */
  readonly cliToken: string;
  /** Values that must never reach a replica's output; tests push the secrets they create. */
  readonly canaries: string[];
  /** Control-plane request on `replica` with the owner's CLI credential (or `token`). */
  api(replica: Replica, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; headers: Headers; body: any }>;
  /** REST execution on `replica` with an SDK execution token. */
  execute(replica: Replica, versionId: string, token: string, body: unknown): Promise<{ status: number; headers: Headers; body: any }>;
  /** Starts one more replica on the same database, Redis prefix and master key. */
  add(options?: { env?: Record<string, string> }): Promise<Replica>;
  /** SIGTERMs every running replica (SIGKILL after 30 s), then drops the database, deletes the Redis keys and data dirs. */
  stop(): Promise<void>;
}

/** Runs `svc-engine <args>` to completion with `env` (no inherited secrets beyond PATH and HOME). */
export function runEngineCommand(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--no-node-snapshot', ENGINE_BIN, ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

function spawnReplica(index: number, env: Record<string, string>, readyTimeoutMs: number): Promise<Replica> {
  const dataDir = mkdtempSync(join(tmpdir(), `svc-replica-${index}-`));
  const child = spawn(process.execPath, ['--no-node-snapshot', ENGINE_BIN, 'serve'], {
    cwd: REPO,
    env: { ...env, SVC_DATA_DIR: dataDir, SVC_HTTP_PORT: '0', SVC_GRPC_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  let stdoutBuffer = '';
  const lines: Record<string, unknown>[] = [];
  let running = true;
  const exited = new Promise<Exit>((resolveExit) =>
    child.once('exit', (code, signal) => {
      running = false;
      live.delete(child);
      resolveExit({ code, signal });
    }),
  );
  let announce: ((urls: { url: string; grpcUrl: string }) => void) | undefined;
  const announced = new Promise<{ url: string; grpcUrl: string }>((resolveAnnounce) => (announce = resolveAnnounce));
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    stdoutBuffer += text;
    let nl: number;
    while ((nl = stdoutBuffer.indexOf('\n')) >= 0) {
      const line = stdoutBuffer.slice(0, nl);
      stdoutBuffer = stdoutBuffer.slice(nl + 1);
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        lines.push(parsed);
        if (parsed.msg === 'engine listening' && typeof parsed.url === 'string') announce!({ url: parsed.url, grpcUrl: String(parsed.grpcUrl) });
      } catch {
        /* not a log line */
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const replica: Replica = {
    index,
    url: '',
    grpcUrl: '',
    dataDir,
    pid: child.pid!,
    child,
    exited,
    output: () => output,
    logLines: () => lines,
    isRunning: () => running,
    async kill(signal = 'SIGTERM') {
      if (running) child.kill(signal);
      return exited;
    },
  };

  return (async () => {
    const deadline = Date.now() + readyTimeoutMs;
    const failed = (why: string) => new Error(`replica ${index} ${why}:\n${output.slice(-4000)}`);
    const urls = await Promise.race([
      announced,
      exited.then((e) => Promise.reject(failed(`exited (code ${e.code}, signal ${e.signal}) before listening`))),
      new Promise<never>((_, reject) => setTimeout(() => reject(failed(`did not listen within ${readyTimeoutMs} ms`)), readyTimeoutMs).unref()),
    ]);
    Object.assign(replica, urls);
    for (;;) {
      if (!running) throw failed('exited before it was ready');
      const status = await fetch(`${urls.url}/readyz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return replica;
      if (Date.now() > deadline) throw failed(`was not ready within ${readyTimeoutMs} ms (last /readyz: ${status})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  })().catch(async (err: unknown) => {
    child.kill('SIGKILL');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  });
}

async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3_000 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export async function startReplicas(options: ReplicaSetOptions = {}): Promise<ReplicaSet> {
  const count = options.replicas ?? 2;
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const database = await createTestDatabase();
  const masterKey = randomBytes(32).toString('hex');
  const ownerPassword = `owner-${randomBytes(12).toString('hex')}`;
  const redisUrl = options.redis === false ? undefined : (options.env?.REDIS_URL ?? TEST_REDIS_URL);
  const redisKeyPrefix = redisUrl ? `svc-test:replicas:${randomUUID()}:` : undefined;
  const shared: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    DATABASE_URL: database.url,
    SVC_MASTER_KEY: masterKey,
    SVC_OWNER_PASSWORD: ownerPassword,
    SVC_LOG_LEVEL: options.logLevel ?? 'info',
    ...(redisUrl ? { REDIS_URL: redisUrl, SVC_REDIS_KEY_PREFIX: redisKeyPrefix! } : {}),
    ...options.env,
  };

  const replicas: Replica[] = [];
  const cleanup = async () => {
    await Promise.all(
      replicas.map(async (r) => {
        if (!r.isRunning()) return;
        const timer = setTimeout(() => r.child.kill('SIGKILL'), 30_000);
        await r.kill('SIGTERM');
        clearTimeout(timer);
      }),
    );
    for (const r of replicas) rmSync(r.dataDir, { recursive: true, force: true });
    await database.drop();
    if (redisUrl) await deleteKeys(redisUrl, redisKeyPrefix!);
  };

  let cliToken: string;
  try {
    // All at once: replicas starting together on one fresh database is the case migrations must survive.
    const started = await Promise.allSettled(Array.from({ length: count }, (_, i) => spawnReplica(i, shared, readyTimeoutMs)));
    for (const s of started) if (s.status === 'fulfilled') replicas.push(s.value);
    const failure = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failure) throw failure.reason;
    const created = await runEngineCommand(['credential', 'create', '--subject', 'owner'], { ...shared, SVC_DATA_DIR: replicas[0]!.dataDir });
    if (created.code !== 0 || !/^svc_cli_\S+\n$/.test(created.stdout)) throw new Error(`svc-engine credential create failed (${created.code}): ${created.stderr}`);
    cliToken = created.stdout.trim();
  } catch (err) {
    await cleanup();
    throw err;
  }

  const request = async (replica: Replica, method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(replica.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: the text itself */
    }
    return { status: res.status, headers: res.headers, body: parsed as any };
  };

  const canaries = [cliToken, masterKey, ownerPassword];
  const set: ReplicaSet = {
    replicas,
    get urls() {
      return replicas.map((r) => r.url);
    },
    database,
    redisUrl,
    redisKeyPrefix,
    masterKey,
    ownerPassword,
    cliToken,
    canaries,
    api: (replica, method, path, body, token = cliToken) => request(replica, method, path, token, body),
    execute: (replica, versionId, token, body) => request(replica, 'POST', `/v1/apps/${versionId}/executions`, token, body),
    async add(addOptions = {}) {
      const replica = await spawnReplica(replicas.length, { ...shared, ...addOptions.env }, readyTimeoutMs);
      replicas.push(replica);
      return replica;
    },
    async stop() {
      await cleanup();
      const leaked = replicas.flatMap((r) => canaries.filter((c) => r.output().includes(c)).map(() => r.index));
      if (leaked.length) throw new Error(`a secret or token reached the output of replica(s) ${[...new Set(leaked)].join(', ')}`);
    },
  };
  return set;
}
