// State survives a restart, and a kill -9 during publishes never leaves a half-published version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/index.ts';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let provider: FakeProvider;
beforeAll(async () => {
  provider = await startFakeProvider((req, res) => json(res, 200, { id: req.url.split('/')[3], name: 'Ada' }));
});
afterAll(async () => provider.stop());

describe('durability', () => {
  it('keeps versions, tokens, secrets and workspace across a restart', async () => {
    const t: TestEngine = await startTestEngine();
    try {
      const sdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: provider.url, secret: 'restart-secret', operations: ['contacts/get'] });
      await t.restart();
      const res = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0001' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: true, data: { id: 'con_0001' } });
      expect(provider.requests.at(-1)!.headers.authorization).toBe('Bearer restart-secret');
      const again = await t.api('POST', '/v1/sdks/publish', { name: 'crm', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] });
      expect(again.body).toEqual({ name: 'crm', version: '1.0.0', versionId: sdk.versionId, published: false });
    } finally {
      await t.stop();
    }
  });

  it('never exposes a half-published version after kill -9 under a publish load', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
    const port = 20000 + Math.floor(Math.random() * 20000);
    const root = resolve(import.meta.dirname, '../..');
    const env = { ...process.env, SVC_DATA_DIR: dataDir, SVC_HTTP_PORT: String(port), SVC_GRPC_PORT: '0', SVC_LOG_LEVEL: 'warn' };
    const cli = spawn(process.execPath, [join(root, 'src/bin/svc-engine.ts'), 'credential', 'create', '--subject', 'crash'], { env });
    let cliToken = '';
    cli.stdout.on('data', (d) => (cliToken += d));
    await new Promise((r) => cli.on('close', r));
    cliToken = cliToken.trim();

    const engine = spawn(process.execPath, ['--no-node-snapshot', join(root, 'src/bin/svc-engine.ts'), 'serve'], { env, stdio: 'ignore' });
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${cliToken}`, 'content-type': 'application/json' };
    // Under CI's load (three files on two cores) the Engine has taken more than 10 s to listen: wait up to 30 s, and say so if it never does.
    const listening = Date.now() + 30_000;
    for (let up = false; !up; ) {
      up = await fetch(`${base}/v1/buckets`, { headers }).then(() => true, () => false);
      if (!up && Date.now() > listening) throw new Error(`the Engine did not listen on ${base} within 30 s`);
      if (!up) await new Promise((r) => setTimeout(r, 100));
    }
    await fetch(`${base}/v1/workspace/services/demo-crm`, { method: 'PUT', headers, body: JSON.stringify({ version: 'v1', baseUrl: provider.url }) });

    let published = 0;
    const ops = ['contacts/get', 'contacts/list', 'deals/list', 'deals/create', 'files/get', 'files/upload', 'contacts/create'];
    const worker = async (w: number) => {
      for (let i = 0; ; i++) {
        const operations = ops.slice(0, 1 + (i % ops.length)).map((o) => `demo-crm=${o}`);
        try {
          const res = await fetch(`${base}/v1/sdks/publish`, { method: 'POST', headers, body: JSON.stringify({ name: `app${w}-${Math.floor(i / 4)}`, services: ['demo-crm=v1'], operations }) });
          if (res.ok) published++;
        } catch {
          return;
        }
      }
    };
    const workers = [0, 1, 2, 3].map(worker);
    await new Promise((r) => setTimeout(r, 1200));
    engine.kill('SIGKILL');
    await Promise.all(workers);
    expect(published).toBeGreaterThan(5);

    const store = new SqliteStore(join(dataDir, 'engine.db'));
    try {
      const latest = await store.listLatestVersions('sdk');
      expect(latest.length).toBeGreaterThan(0);
      for (const app of latest) {
        const versions = await store.listVersions('sdk', app.name);
        const tokens = await store.listTokens('sdk', app.name);
        // Every app that has a version has exactly one token, written with its first version.
        expect(tokens).toHaveLength(1);
        expect(versions.at(-1)!.version).toBe('1.0.0');
        for (const v of versions) {
          expect(v.operations.length).toBeGreaterThan(0);
          expect(await store.getVersion('sdk', v.versionId)).toEqual(v);
        }
      }
      // And no token exists for an app without a version.
      const raw = new Database(join(dataDir, 'engine.db'), { readonly: true });
      const orphans = raw.prepare(`SELECT COUNT(*) AS n FROM tokens t WHERE t.kind = 'sdk' AND NOT EXISTS (SELECT 1 FROM sdk_versions v WHERE v.name = t.subject)`).get() as { n: number };
      raw.close();
      expect(orphans.n).toBe(0);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
