// A credential is bound to the origin its service was reached at when it was set. Whoever holds a
// CLI credential may repoint a service's base URL but can never read a secret, so a repoint must
// not carry an API key, an OAuth client secret or a connection's tokens to the new address: they
// go there only once set again. An "attacker" fake provider records everything that reaches it.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMasterKey, seal } from '../../src/credentials/index.ts';
import type { DemoProvider } from '../../src/demo-provider/index.ts';
import { startCrmApp, type PublishedApp } from '../fixtures/apps.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import type { TestEngine } from '../fixtures/engine.ts';
import { consent, expireAccessToken } from '../fixtures/oauth.ts';
import { cliUser } from '../fixtures/cli.ts';

const CLIENT_SECRET = 'origin-oauth-client-secret-canary';
let fx: PublishedApp<DemoProvider>;
let t: TestEngine;
let crm: DemoProvider;
let attacker: FakeProvider;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  attacker = await startFakeProvider((_req, res) => json(res, 200, { account: 'attacker', via: 'attacker' }));
  fx = await startCrmApp({ operations: ['account/get'], oauthClient: { id: 'svc-test', secret: CLIENT_SECRET, accessTokenTtlSeconds: 3600 } });
  ({ t, provider: crm, sdk } = fx);
});
afterAll(async () => {
  await fx?.stop();
  await attacker?.stop();
});

const account = (selectors?: object) => t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, ...(selectors ? { selectors } : {}) });
const pointAt = async (baseUrl: string) => expect((await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl })).status).toBe(200);
const setKey = async (value: string) => expect((await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value })).status).toBe(204);

async function connect(endUserRef: string, crmAccount: string) {
  const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef });
  expect(started.status).toBe(201);
  expect((await consent(started.body.authorizeUrl, crmAccount)).status).toBe(200);
}

describe('credentials bound to an origin', () => {
  it('keeps an API key home when the service is repointed, until it is set again for the new address', async () => {
    expect((await account()).body.data).toEqual({ account: 'api-key', via: 'api_key' });
    await pointAt(attacker.url);
    const refused = await account();
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');
    expect(refused.body.error.message).toContain(`the secret for 'demo-crm' was set while the service was reached at ${crm.url}`);
    expect(refused.body.error.message).toContain(`now sends calls to ${attacker.url}`);
    expect(refused.body.error.message).toContain('svc-cli secret set demo-crm --value-stdin');
    expect(JSON.stringify(refused.body)).not.toContain(crm.apiKey);
    expect(attacker.requests).toHaveLength(0);

    // Back home, the same secret works again: it was never rebound.
    await pointAt(crm.url);
    expect((await account()).body.data).toEqual({ account: 'api-key', via: 'api_key' });

    // Setting a value while repointed sends that value there, and binds it there.
    await pointAt(attacker.url);
    await setKey('a-key-for-the-new-address');
    expect((await account()).body.data).toEqual({ account: 'attacker', via: 'attacker' });
    expect(attacker.requests.at(-1)!.headers.authorization).toBe('Bearer a-key-for-the-new-address');
    await pointAt(crm.url);
    expect((await account()).body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');
    await setKey(crm.apiKey);
    expect((await account()).body.ok).toBe(true);
  });

  it('sends neither the OAuth client secret nor a connection\'s tokens to a new address', async () => {
    await connect('alice', 'alice@crm');
    expect((await account({ endUserRef: 'alice' })).body.data).toEqual({ account: 'alice@crm', via: 'oauth' });
    attacker.requests.length = 0;
    await pointAt(attacker.url);

    const refused = await account({ endUserRef: 'alice' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`the demo-crm connection of 'alice' was set while the service was reached at ${crm.url}`);
    // Due for a refresh: the refresh token and client secret stay home too (no token request anywhere).
    await expireAccessToken(t, 'alice');
    const refreshes = crm.oauth.tokenRequests.refresh_token;
    expect((await account({ endUserRef: 'alice' })).body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');
    expect(crm.oauth.tokenRequests.refresh_token).toBe(refreshes);
    // A new consent would hand the client to the new address's token endpoint: refused before it starts.
    const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'mallory' });
    expect(started.status).toBe(409);
    expect(started.body.error.message).toContain(`the OAuth client for 'demo-crm' was set while the service was reached at ${crm.url}`);
    expect(attacker.requests).toHaveLength(0);
    expect(JSON.stringify(refused.body) + JSON.stringify(started.body)).not.toContain(CLIENT_SECRET);

    await pointAt(crm.url);
    expect((await account({ endUserRef: 'alice' })).body.data).toEqual({ account: 'alice@crm', via: 'oauth' });
    expect(crm.oauth.tokenRequests.refresh_token).toBe(refreshes + 1);
  });

  it('binds a secret set before its service is enabled to the catalog\'s address', async () => {
    expect((await t.api('PUT', '/v1/buckets/default/secrets/github', { value: 'ghp_origin_canary_0001' })).status).toBe(204);
    t.canaries.push('ghp_origin_canary_0001');
    expect(await t.engine.deps.vault.get('default', 'github')).toEqual({ value: 'ghp_origin_canary_0001', origin: 'https://api.github.com' });
  });

  it('binds credentials stored before origins were to where they were being sent, at start-up', async () => {
    // Rows as an earlier Engine wrote them: the secret sealed alone (v1), the tokens without an origin.
    const key = loadMasterKey(t.dataDir, undefined);
    const legacy = seal(key, 'svc-engine/secret/v1\0default\0demo-crm', crm.apiKey);
    await t.engine.store.putSecret({ bucket: 'default', service: 'demo-crm', ...legacy, updatedAt: new Date().toISOString() });
    const row = (await t.engine.store.getConnection('demo-crm', 'alice', 'default'))!;
    const context = 'connection/demo-crm/alice/default';
    const { origin: _dropped, ...tokens } = JSON.parse(t.engine.deps.vault.open(context, row.tokens));
    expect(_dropped).toBe(crm.url);
    await t.engine.store.updateConnectionTokens(row.id, row.generation, { tokens: t.engine.deps.vault.seal(context, JSON.stringify(tokens)), status: row.status, accessExpiresAt: row.accessExpiresAt, updatedAt: row.updatedAt });

    // Until they are bound, they go nowhere.
    const unbound = await account();
    expect(unbound.body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');
    expect(unbound.body.error.message).toContain('at an address the Engine did not record');
    expect((await account({ endUserRef: 'alice' })).body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');

    // The upgrade: a database from before the binding has no record that it ran.
    const db = new Database(join(t.dataDir, 'engine.db'));
    db.prepare('DELETE FROM markers').run();
    db.close();
    await t.restart();
    expect(t.logs.some((line) => line.includes('bound earlier credentials') && line.includes('"bound":2'))).toBe(true);
    expect((await account()).body.data).toEqual({ account: 'api-key', via: 'api_key' });
    expect((await account({ endUserRef: 'alice' })).body.data).toEqual({ account: 'alice@crm', via: 'oauth' });
    expect((await t.engine.deps.vault.get('default', 'demo-crm'))?.origin).toBe(crm.url);
    // Bound means bound: a repoint after the upgrade is refused like any other.
    await pointAt(attacker.url);
    expect((await account()).body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');
    expect(attacker.requests).toHaveLength(0);
    await pointAt(crm.url);

    // The binding runs once: a row an older replica writes afterwards stays refused, across restarts.
    await t.engine.store.putSecret({ bucket: 'default', service: 'demo-crm', ...seal(key, 'svc-engine/secret/v1\0default\0demo-crm', crm.apiKey), updatedAt: new Date().toISOString() });
    await t.restart();
    expect((await account()).body.error.message).toContain('at an address the Engine did not record');
    await setKey(crm.apiKey);
    expect((await account()).body.ok).toBe(true);
  });

  it('tells in svc-cli where each secret goes, and which a workspace change would leave behind', async () => {
    const user = cliUser(t.url);
    try {
      expect((await user.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
      const buckets = await user.cli(['bucket', 'list', '--json']);
      const secrets = JSON.parse(buckets.stdout).buckets[0].secrets;
      expect(secrets.find((x: any) => x.service === 'demo-crm').origin).toBe(crm.url);
      expect(secrets.find((x: any) => x.service === 'demo-crm#oauth-client').origin).toBe(crm.url);
      expect((await user.cli(['bucket', 'list'])).stdout).toMatch(new RegExp(`demo-crm\\s+${crm.url}`));

      expect((await user.cli(['workspace', 'service', 'add', 'demo-crm', '--version', 'v1', '--base-url', `${attacker.url}/api`])).code).toBe(0);
      const plan = await user.cli(['workspace', 'plan']);
      expect(plan.code).toBe(0);
      expect(plan.stdout).toContain(`Note: demo-crm: its secret is sent only to ${crm.url}; set it again for ${attacker.url} (svc-cli secret set demo-crm --value-stdin).`);
      expect(plan.stdout).toContain(`Note: demo-crm: its OAuth client and end users' connections stay with ${crm.url}`);
      const json = JSON.parse((await user.cli(['workspace', 'plan', '--json'])).stdout);
      expect(json.credentialsLeftBehind).toEqual([
        { service: 'demo-crm', credential: 'secret', boundTo: crm.url, sentTo: attacker.url },
        { service: 'demo-crm', credential: 'oauth_client', boundTo: crm.url, sentTo: attacker.url },
      ]);
      // A path on the same origin leaves nothing behind.
      expect((await user.cli(['workspace', 'service', 'add', 'demo-crm', '--version', 'v1', '--base-url', `${crm.url}/base`])).code).toBe(0);
      const samePlace = JSON.parse((await user.cli(['workspace', 'plan', '--json'])).stdout);
      expect(samePlace.changes).toHaveLength(1);
      expect(samePlace.credentialsLeftBehind).toEqual([]);
    } finally {
      user.cleanup();
    }
  });
});
