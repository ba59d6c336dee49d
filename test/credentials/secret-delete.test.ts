// Deleting a secret or an OAuth client: over REST and svc-cli, effective from the next call on this
// Engine and on another replica sharing its PostgreSQL, and never echoing the value it removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/postgres.ts';

const CLIENT_SECRET = 'delete-test-oauth-client-secret-canary';

describe('deleting secrets (SQLite Engine, REST and svc-cli)', () => {
  let t: TestEngine;
  let crm: DemoProvider;
  let sdk: { versionId: string; token: string };
  let user: CliUser;
  const contact = () => t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0001' } });
  const stored = async () => (await t.api('GET', '/v1/buckets')).body.buckets[0].secrets.map((s: { service: string }) => s.service);

  beforeAll(async () => {
    crm = await startDemoProvider({ oauth: { clients: { 'svc-test': CLIENT_SECRET } } });
    t = await startTestEngine();
    t.canaries.push(CLIENT_SECRET);
    sdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: crm.apiKey, operations: ['contacts/get'] });
    user = cliUser(t.url);
    expect((await user.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await t?.stop();
    await crm?.stop();
    user?.cleanup();
  });

  it('DELETE …/secrets/{service} removes the secret: the next call is refused, a second delete is a 404', async () => {
    expect((await contact()).body.ok).toBe(true);
    const deleted = await t.api('DELETE', '/v1/buckets/default/secrets/demo-crm');
    expect(deleted.status).toBe(204);
    expect(await stored()).not.toContain('demo-crm');
    const refused = await contact();
    expect(refused.body).toMatchObject({ ok: false, error: { code: 'ENGINE_CREDENTIAL_MISSING' } });
    const again = await t.api('DELETE', '/v1/buckets/default/secrets/demo-crm');
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ code: 'ENGINE_NOT_FOUND', details: { field: 'service' } });
    expect(again.body.error.message).toContain("no secret is set for 'demo-crm'");
    // Setting it again works at once.
    expect((await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey })).status).toBe(204);
    expect((await contact()).body.ok).toBe(true);
  });

  it('names the field for an unknown bucket, a malformed service and a missing credential', async () => {
    const bucket = await t.api('DELETE', '/v1/buckets/other/secrets/demo-crm');
    expect(bucket.status).toBe(404);
    expect(bucket.body.error.details).toMatchObject({ field: 'bucket' });
    const malformed = await t.api('DELETE', '/v1/buckets/default/secrets/Not_A_Service');
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body.error)).toContain('service');
    const anonymous = await fetch(`${t.url}/v1/buckets/default/secrets/demo-crm`, { method: 'DELETE' });
    expect(anonymous.status).toBe(401);
    expect(await stored()).toContain('demo-crm'); // none of these removed it
  });

  it("DELETE …/oauth-clients/{service} removes only the OAuth client; consent can no longer start", async () => {
    expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-test', clientSecret: CLIENT_SECRET })).status).toBe(204);
    expect((await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'ann' })).status).toBe(201);
    expect((await t.api('DELETE', '/v1/buckets/default/oauth-clients/demo-crm')).status).toBe(204);
    const start = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'ann' });
    expect(start.body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_MISSING' });
    expect(await stored()).toEqual(['demo-crm']); // the API key stays
    expect((await contact()).body.ok).toBe(true);
    const again = await t.api('DELETE', '/v1/buckets/default/oauth-clients/demo-crm');
    expect(again.status).toBe(404);
    expect(again.body.error.message).toContain("no OAuth client is set for 'demo-crm'");
  });

  it('svc-cli secret delete: deletes, says what follows, and a second run is exit 1 with a hint', async () => {
    const r = await user.cli(['secret', 'delete', 'demo-crm']);
    expect({ code: r.code, stdout: r.stdout }).toMatchObject({ code: 0, stdout: expect.stringContaining('Secret for demo-crm deleted from bucket default') });
    expect((await contact()).body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_MISSING' });
    const again = await user.cli(['secret', 'delete', 'demo-crm']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("no secret is set for 'demo-crm'");
    expect(again.stderr).toContain('svc-cli bucket list');
    const usage = await user.cli(['secret', 'delete', 'Bad_Name']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('<service>');
    expect((await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey })).status).toBe(204);
  });

  it('svc-cli secret delete --oauth-client deletes the OAuth client, not the key', async () => {
    expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-test', clientSecret: CLIENT_SECRET })).status).toBe(204);
    const r = await user.cli(['secret', 'delete', 'demo-crm', '--oauth-client']);
    expect({ code: r.code, stdout: r.stdout }).toMatchObject({ code: 0, stdout: expect.stringContaining('OAuth client for demo-crm deleted') });
    expect(await stored()).toEqual(['demo-crm']);
    expect((await contact()).body.ok).toBe(true);
    const help = await user.cli(['secret', '--help']);
    expect(help.stdout).toMatch(/secret delete <service>/);
  });
});

describe('deleting a secret on one replica (shared PostgreSQL)', () => {
  let db: TestDatabase;
  let a: TestEngine;
  let b: TestEngine;
  let crm: DemoProvider;

  beforeAll(async () => {
    db = await createTestDatabase();
    crm = await startDemoProvider();
    const key = { SVC_MASTER_KEY: 'ab'.repeat(32) };
    a = await startTestEngine(key, undefined, { databaseUrl: db.url });
    b = await startTestEngine(key, undefined, { databaseUrl: db.url });
  }, 60_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await crm?.stop();
    await db?.drop();
  });

  it("the other replica's next call is refused", async () => {
    const sdk = await publishSdk(a, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: crm.apiKey, operations: ['contacts/get'] });
    const call = () => b.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0001' } });
    expect((await call()).body.ok).toBe(true);
    expect((await a.api('DELETE', '/v1/buckets/default/secrets/demo-crm')).status).toBe(204);
    expect((await call()).body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_MISSING' });
  });
});
