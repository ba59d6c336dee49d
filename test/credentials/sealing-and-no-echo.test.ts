// Secrets at rest and in refusals (found by review): a shortened GCM tag does not open, a passphrase
// is not a master key, and no refusal echoes a secret sent in the wrong shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretVault, loadMasterKey } from '../../src/credentials/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';

describe('sealing', () => {
  // Found by review: open() sets no authTagLength, so a row whose GCM tag was cut to 4 bytes still opens (32-bit integrity for the sealed origin binding).
  it('refuses a sealed row whose authentication tag was truncated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-review-'));
    const store = new SqliteStore(join(dir, 'engine.db'));
    try {
      const vault = new SecretVault(loadMasterKey(dir, undefined), store);
      await vault.set('default', 'github', 'gh-review-secret', 'https://api.github.com');
      const row = (await store.getSecret('default', 'github'))!;
      const short = Buffer.from(row.tag, 'base64').subarray(0, 4).toString('base64');
      await store.putSecret({ ...row, tag: short });
      await expect(vault.get('default', 'github')).rejects.toThrow();
      const sealed = vault.seal('connection/demo-crm/alice/default', '{"accessToken":"a"}');
      expect(() => vault.open('connection/demo-crm/alice/default', { ...sealed, tag: Buffer.from(sealed.tag, 'base64').subarray(0, 4).toString('base64') })).toThrow();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Found by review: loadMasterKey decodes SVC_MASTER_KEY with Buffer.from(…, 'base64'), which skips any character outside base64, so a spaced passphrase is taken as a key.
  it('refuses an SVC_MASTER_KEY that is neither hex nor base64 (a passphrase)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-review-key-'));
    try {
      expect(() => loadMasterKey(dir, 'correct horse battery staple correct horse batter')).toThrow(/SVC_MASTER_KEY/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('control plane', { timeout: 60_000 }, () => {
  let t: TestEngine;
  const raw = async (path: string, body: string) => {
    const res = await fetch(t.url + path, { method: 'PUT', headers: { authorization: `Bearer ${t.cliToken}`, 'content-type': 'application/json' }, body });
    return { status: res.status, text: await res.text() };
  };
  beforeAll(async () => {
    t = await startTestEngine({ SVC_LOG_LEVEL: 'trace' });
  });
  afterAll(async () => t?.stop());

  // Found by review: json-input checkNumbers quotes the number's source text, so a numeric secret sent without quotes is echoed in the 400.
  it('does not echo a long numeric secret sent without quotes', async () => {
    const digits = '98765432109876543210123';
    const secret = await raw('/v1/buckets/default/secrets/demo-crm', `{"value": ${digits}}`);
    expect(secret.status).toBe(400);
    expect(secret.text).not.toContain(digits.slice(0, 16));
    const client = await raw('/v1/buckets/default/oauth-clients/demo-crm', `{"clientId": "id", "clientSecret": ${digits}}`);
    expect(client.status).toBe(400);
    expect(client.text).not.toContain(digits.slice(0, 16));
  });

  // Found by review: requestValidationError names an unknown property in full, so a secret sent as a key ({"<secret>": …}) comes back in the 400.
  it('does not echo a secret sent as a property name', async () => {
    const value = 'sk_review_4f1e9a7c0b2d';
    const secret = await raw('/v1/buckets/default/secrets/demo-crm', JSON.stringify({ [value]: 'value' }));
    expect(secret.status).toBe(400);
    expect(secret.text).not.toContain(value);
    const client = await raw('/v1/buckets/default/oauth-clients/demo-crm', JSON.stringify({ clientId: 'id', [value]: 'clientSecret' }));
    expect(client.status).toBe(400);
    expect(client.text).not.toContain(value);
  });
});

describe('svc-cli secret set', { timeout: 60_000 }, () => {
  let t: TestEngine;
  let user: CliUser;
  beforeAll(async () => {
    t = await startTestEngine();
    user = cliUser(t.url);
    expect((await user.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
  });
  afterAll(async () => {
    await t?.stop();
    user?.cleanup();
  });

  // Found by review: cli/commands/secret/index.ts puts argv.service into the "needs --value-stdin" hint, so `secret set <value>` (the value where the service goes) prints the value.
  it('does not print a lone word given to `secret set` without --value-stdin', async () => {
    const value = 'a3f9c2e17b6d40588e21';
    const r = await user.cli(['secret', 'set', value], { input: '' });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).not.toContain(value);
  });
});
