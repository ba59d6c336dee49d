// Secrets are encrypted at rest (AES-256-GCM, per-record nonce, AAD bound to bucket+service),
// the generated master key is mode 0600, and no API returns a value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretVault, loadMasterKey } from '../../src/credentials/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';

const CANARY = 'canary-secret-at-rest-91b2c3';
let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
});
afterAll(async () => t.stop());

describe('secrets', () => {
  it('stores the value encrypted and never returns it', async () => {
    const set = await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: CANARY });
    expect(set.status).toBe(204);
    expect(set.body).toBeUndefined();
    const list = await t.api('GET', '/v1/buckets');
    expect(list.body.buckets[0]).toMatchObject({ name: 'default', secrets: [{ service: 'demo-crm' }] });
    expect(JSON.stringify(list.body)).not.toContain(CANARY);
    const row = await t.engine.store.getSecret('default', 'demo-crm');
    expect(row!.ciphertext).not.toContain(CANARY);
    expect(Buffer.from(row!.nonce, 'base64')).toHaveLength(12);
    expect(Buffer.from(row!.tag, 'base64')).toHaveLength(16);
    await t.engine.deps.activity.flush();
    for (const file of ['engine.db', 'engine.db-wal']) {
      try {
        expect(readFileSync(join(t.dataDir, file)).includes(CANARY)).toBe(false);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    expect(t.logs.join('')).not.toContain(CANARY);
  });

  it('uses a fresh nonce per write and takes effect immediately', async () => {
    const a = (await t.engine.store.getSecret('default', 'demo-crm'))!;
    await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: 'second-value' });
    const b = (await t.engine.store.getSecret('default', 'demo-crm'))!;
    expect(b.nonce).not.toBe(a.nonce);
    expect((await t.engine.deps.vault.get('default', 'demo-crm'))?.value).toBe('second-value');
  });

  it('binds each ciphertext to its bucket and service', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-vault-'));
    const store = new SqliteStore(join(dir, 'engine.db'));
    try {
      const vault = new SecretVault(loadMasterKey(dir, undefined), store);
      await vault.set('default', 'github', 'gh-secret', 'https://api.github.com');
      const row = (await store.getSecret('default', 'github'))!;
      await store.putSecret({ ...row, service: 'demo-crm' });
      await expect(vault.get('default', 'demo-crm')).rejects.toThrow();
      expect(await vault.get('default', 'github')).toEqual({ value: 'gh-secret', origin: 'https://api.github.com' });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('generates the master key once, mode 0600, and honours SVC_MASTER_KEY', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-key-'));
    try {
      const first = loadMasterKey(dir, undefined);
      expect(statSync(join(dir, 'master.key')).mode & 0o777).toBe(0o600);
      expect(loadMasterKey(dir, undefined).equals(first)).toBe(true);
      const hex = 'ab'.repeat(32);
      expect(loadMasterKey(dir, hex).toString('hex')).toBe(hex);
      expect(() => loadMasterKey(dir, 'short')).toThrow(/32 bytes/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown bucket or service and an empty value with precise errors', async () => {
    expect((await t.api('PUT', '/v1/buckets/nope/secrets/demo-crm', { value: 'x' })).body.error).toMatchObject({ code: 'ENGINE_NOT_FOUND', details: { field: 'bucket' } });
    expect((await t.api('PUT', '/v1/buckets/default/secrets/nope', { value: 'x' })).body.error).toMatchObject({ code: 'ENGINE_NOT_FOUND', details: { field: 'service' } });
    const empty = await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain('/value');
  });
});
