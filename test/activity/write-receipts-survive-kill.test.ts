// A receipt for a call that changed data is committed before the call is answered
// (src/execution/executor.ts), so `kill -9` under a load of writes loses none: the Engine runs as
// `svc-engine serve` in a child process, 32 clients create contacts through it against a fake
// provider, the process is killed mid-load, and after a restart there is exactly one receipt per
// write that was answered. Each answer is told apart by the SHA-256 of the provider's body (unique
// per request), which its receipt records. On SQLite, and on PostgreSQL as replicas use it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK_EGRESS } from '../fixtures/egress.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/postgres.ts';

const BIN = resolve(import.meta.dirname, '../../src/bin/svc-engine.ts');
const CLIENTS = 32;
/** Writes answered before the kill: enough that batching would have left some receipts in memory. */
const ANSWERED_BEFORE_KILL = 300;

let provider: FakeProvider;
let created = 0;
beforeAll(async () => {
  // Each created contact is unique, so the SHA-256 of each answer is too.
  provider = await startFakeProvider((req, res) => {
    const { name, email } = JSON.parse(req.body) as { name: string; email: string };
    json(res, 201, { id: `con_${(++created).toString(36)}${randomBytes(4).toString('hex')}`, name, email, labels: {}, created_at: new Date().toISOString() });
  });
});
afterAll(async () => provider?.stop());

/** `svc-engine serve` as a child process; resolves with its URL once it listens. */
async function serve(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--no-node-snapshot', BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Engine did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const listening = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"engine listening"/.exec(out);
      if (listening) {
        clearTimeout(timer);
        resolveUrl(listening[1]!);
      }
    });
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', (code) => reject(new Error(`the Engine exited (${code}): ${out}`)));
  });
  return { child, url };
}

async function credential(env: Record<string, string>): Promise<string> {
  const cli = spawn(process.execPath, ['--no-node-snapshot', BIN, 'credential', 'create', '--subject', 'kill-test'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let token = '';
  cli.stdout!.on('data', (d) => (token += d));
  await once(cli, 'close');
  return token.trim();
}

/** Runs the scenario on a fresh data dir (and `databaseUrl`, when given); returns what it found. */
async function killUnderWrites(databaseUrl?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-kill-receipts-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    SVC_DATA_DIR: join(dir, 'data'),
    SVC_HTTP_PORT: '0',
    SVC_GRPC_PORT: '0',
    SVC_LOG_LEVEL: 'info',
    SVC_EGRESS_ALLOW: LOOPBACK_EGRESS,
    SVC_MASTER_KEY: randomBytes(32).toString('hex'),
    SVC_OWNER_PASSWORD: `owner-${randomBytes(8).toString('hex')}`,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  let engine: { child: ChildProcess; url: string } | undefined;
  try {
    const cli = await credential(env);
    engine = await serve(env);
    const api = async (url: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(url + path, { method, headers: { authorization: `Bearer ${cli}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    expect((await api(engine.url, 'PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url })).status).toBe(200);
    expect((await api(engine.url, 'PUT', '/v1/buckets/default/secrets/demo-crm', { value: 'kill-test-key' })).status).toBe(204);
    const published = await api(engine.url, 'POST', '/v1/sdks/publish', { name: 'writes', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/create'] });
    expect(published.status).toBe(200);
    const { versionId, token } = published.body as { versionId: string; token: string };

    // CLIENTS clients create contacts until the Engine is killed; each answered write is kept by its answer's hash.
    const answered: string[] = [];
    let killed = false;
    let sent = 0;
    const { child, url } = engine;
    const client = async () => {
      while (!killed) {
        const n = sent++;
        try {
          const res = await fetch(`${url}/v1/apps/${versionId}/executions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ operation: 'demo-crm.contacts/create', input: { body: { name: `Writer ${n}`, email: `w${n}@example.com` } } }),
          });
          const envelope = (await res.json()) as { ok: boolean; status: number; data: unknown };
          if (res.status === 200 && envelope.ok && envelope.status === 201) {
            answered.push(createHash('sha256').update(JSON.stringify(envelope.data)).digest('hex'));
            if (answered.length >= ANSWERED_BEFORE_KILL && !killed) {
              killed = true;
              child.kill('SIGKILL');
            }
          }
        } catch {
          // The connection died with the Engine: this write was not answered.
        }
      }
    };
    const exited = once(child, 'exit');
    await Promise.all(Array.from({ length: CLIENTS }, client));
    const [, signal] = (await exited) as [number | null, string | null];
    expect(signal).toBe('SIGKILL');

    engine = await serve(env);
    const stored = new Map<string, number>();
    let receipts = 0;
    for (let before: string | null | undefined; before !== null; ) {
      const page = await api(engine.url, 'GET', `/v1/versions/${versionId}/receipts?limit=1000${before ? `&before=${before}` : ''}`);
      expect(page.status).toBe(200);
      for (const r of page.body.receipts as { sha256: string | null; operation: string }[]) {
        receipts++;
        if (r.sha256) stored.set(r.sha256, (stored.get(r.sha256) ?? 0) + 1);
      }
      before = page.body.next as string | null;
    }
    return { answered, sent, receipts, stored };
  } finally {
    engine?.child.kill('SIGKILL');
    if (engine && engine.child.exitCode === null && engine.child.signalCode === null) await once(engine.child, 'exit');
    rmSync(dir, { recursive: true, force: true });
  }
}

const expectOnePerAnsweredWrite = ({ answered, stored, receipts }: Awaited<ReturnType<typeof killUnderWrites>>) => {
  expect(answered.length).toBeGreaterThanOrEqual(ANSWERED_BEFORE_KILL);
  const missing = answered.filter((hash) => stored.get(hash) !== 1);
  expect(missing, `${missing.length} of ${answered.length} answered writes have no receipt (or more than one)`).toEqual([]);
  // Writes the provider acted on but the Engine did not answer may have receipts too: never fewer than answered.
  expect(receipts).toBeGreaterThanOrEqual(answered.length);
};

describe('kill -9 under a load of writes', () => {
  it('loses no receipt of an answered write (SQLite)', async () => {
    expectOnePerAnsweredWrite(await killUnderWrites());
  }, 180_000);

  describe('on PostgreSQL', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase();
    });
    afterAll(async () => db?.drop());

    it('loses no receipt of an answered write (PostgreSQL, as replicas share it)', async () => {
      expectOnePerAnsweredWrite(await killUnderWrites(db.url));
    }, 180_000);
  });
});
