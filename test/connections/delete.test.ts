// Deleting an end user's OAuth connection: over REST and svc-cli, calls routed to it are refused
// from the next call on, and connecting again starts a new connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';
import { consent } from '../fixtures/oauth.ts';

const CLIENT_SECRET = 'connection-delete-client-secret-canary';

describe('deleting OAuth connections', { timeout: 60_000 }, () => {
  let t: TestEngine;
  let crm: DemoProvider;
  let sdk: { versionId: string; token: string };
  let user: CliUser;
  const account = (endUserRef: string, authName?: string) =>
    t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, selectors: { endUserRef, ...(authName ? { authName } : {}) } });
  const connect = async (endUserRef: string, crmAccount: string, authName?: string) => {
    const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef, ...(authName ? { authName } : {}) });
    expect(started.status).toBe(201);
    expect((await consent(started.body.authorizeUrl, crmAccount)).html).toContain(`connected for ${endUserRef}`);
  };
  const listed = async () => (await t.api('GET', '/v1/connections')).body.connections as { id: string; endUserRef: string; authName: string }[];

  beforeAll(async () => {
    crm = await startDemoProvider({ oauth: { clients: { del: CLIENT_SECRET } } });
    t = await startTestEngine();
    t.canaries.push(CLIENT_SECRET);
    sdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: crm.apiKey, operations: ['account/get'] });
    expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'del', clientSecret: CLIENT_SECRET })).status).toBe(204);
    user = cliUser(t.url);
    expect((await user.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
  });

  afterAll(async () => {
    await t?.stop();
    await crm?.stop();
    user?.cleanup();
  });

  it('DELETE /v1/connections/{id}: the next call for that end user is refused; others keep theirs; 404 after', async () => {
    await connect('alice', 'alice@crm');
    await connect('bob', 'bob@crm');
    expect((await account('alice')).body.data).toEqual({ account: 'alice@crm', via: 'oauth' });
    const alice = (await listed()).find((c) => c.endUserRef === 'alice')!;
    const deleted = await t.api('DELETE', `/v1/connections/${alice.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ connection: { id: alice.id, endUserRef: 'alice' }, revocation: { revoked: true } }); // see revocation.test.ts
    expect((await listed()).map((c) => c.endUserRef)).toEqual(['bob']);
    const refused = await account('alice');
    expect(refused.body).toMatchObject({ ok: false, error: { code: 'ENGINE_CREDENTIAL_MISSING' } });
    expect((await account('bob')).body.data).toEqual({ account: 'bob@crm', via: 'oauth' });
    const again = await t.api('DELETE', `/v1/connections/${alice.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ code: 'ENGINE_NOT_FOUND', details: { field: 'connection_id' } });
    const malformed = await t.api('DELETE', '/v1/connections/alice');
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body.error)).toContain('connection_id');
    // Connecting again makes a new connection that works at once.
    await connect('alice', 'alice2@crm');
    const renewed = (await listed()).find((c) => c.endUserRef === 'alice')!;
    expect(renewed.id).not.toBe(alice.id);
    expect((await account('alice')).body.data).toEqual({ account: 'alice2@crm', via: 'oauth' });
  });

  it('svc-cli connection delete <service> --end-user [--auth-name], or by ID', async () => {
    await connect('carol', 'carol@crm');
    await connect('carol', 'carol-work@crm', 'work');
    const byName = await user.cli(['connection', 'delete', 'demo-crm', '--end-user', 'carol', '--auth-name', 'work']);
    expect({ code: byName.code, stdout: byName.stdout }).toMatchObject({ code: 0, stdout: expect.stringContaining('Deleted connection con_') });
    expect((await account('carol', 'work')).body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_MISSING' });
    expect((await account('carol')).body.data).toEqual({ account: 'carol@crm', via: 'oauth' }); // the default one stays
    const id = (await listed()).find((c) => c.endUserRef === 'carol')!.id;
    const byId = await user.cli(['connection', 'delete', id]);
    expect(byId.code, byId.stderr).toBe(0);
    expect((await listed()).some((c) => c.endUserRef === 'carol')).toBe(false);
    const gone = await user.cli(['connection', 'delete', 'demo-crm', '--end-user', 'carol']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('no connection for end user carol');
    const goneById = await user.cli(['connection', 'delete', id]);
    expect(goneById.code).toBe(1);
    expect(goneById.stderr).toContain('svc-cli connection list');
  });

  it('svc-cli connection delete refuses incomplete or mixed arguments as usage errors', async () => {
    const noUser = await user.cli(['connection', 'delete', 'demo-crm']);
    expect(noUser.code).toBe(2);
    expect(noUser.stderr).toContain('--end-user');
    const badId = await user.cli(['connection', 'delete', 'con_123']);
    expect(badId.code).toBe(2);
    const mixed = await user.cli(['connection', 'delete', 'con_01J00000000000000000000000', '--end-user', 'x']);
    expect(mixed.code).toBe(2);
    const badService = await user.cli(['connection', 'delete', 'Bad_Name', '--end-user', 'x']);
    expect(badService.code).toBe(2);
    expect(badService.stderr).toContain('<connection>');
  });
});
