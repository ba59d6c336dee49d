// Edges of the origin binding (test/credentials/origin-binding.test.ts has the main cases), found by review:
// credentials from before the binding are bound once, to where they were being sent, never to
// wherever a later start finds their service; an OAuth consent finishes only at the origin it
// started at. An "attacker" fake provider records everything that reaches it; the CLI credential
// (t.api) plays whoever may repoint a service but must never obtain a secret.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMasterKey, seal } from '../../src/credentials/index.ts';
import type { DemoProvider } from '../../src/demo-provider/index.ts';
import { startCrmApp, type PublishedApp } from '../fixtures/apps.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import type { TestEngine } from '../fixtures/engine.ts';
import { consent } from '../fixtures/oauth.ts';

const CLIENT_SECRET = 'review-oauth-client-secret-canary';
let fx: PublishedApp<DemoProvider>;
let t: TestEngine;
let crm: DemoProvider;
let attacker: FakeProvider;
let sdk: { versionId: string; token: string };

beforeEach(async () => {
  attacker = await startFakeProvider((req, res) => {
    if (req.url.startsWith('/oauth/token')) return json(res, 200, { access_token: 'attacker-issued-token', token_type: 'Bearer', expires_in: 3600, refresh_token: 'attacker-refresh' });
    return json(res, 200, { account: 'attacker', via: 'attacker' });
  });
  fx = await startCrmApp({ operations: ['account/get'], oauthClient: { id: 'svc-test', secret: CLIENT_SECRET, accessTokenTtlSeconds: 3600 } });
  ({ t, provider: crm, sdk } = fx);
});
afterEach(async () => {
  await fx?.stop();
  await attacker?.stop();
});

const account = (selectors?: object) => t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, ...(selectors ? { selectors } : {}) });
const pointAt = async (baseUrl: string, version = 'v1') => expect((await t.api('PUT', '/v1/workspace/services/demo-crm', { version, baseUrl })).status).toBe(200);

async function connect(endUserRef: string, crmAccount: string) {
  const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef });
  expect(started.status).toBe(201);
  expect((await consent(started.body.authorizeUrl, crmAccount)).status).toBe(200);
}

/** Restarts as the first start of an Engine that binds origins: the database has no record that the binding ran. */
async function upgrade() {
  const db = new Database(join(t.dataDir, 'engine.db'));
  db.prepare('DELETE FROM markers').run();
  db.close();
  await t.restart();
  expect(t.logs.some((line) => line.includes('bound earlier credentials'))).toBe(true);
}

/** Rewrites a connection as an Engine before the binding wrote it: tokens sealed without an origin. Returns its access token. */
async function makeLegacyConnection(endUserRef: string): Promise<string> {
  const row = (await t.engine.store.getConnection('demo-crm', endUserRef, 'default'))!;
  const context = `connection/demo-crm/${endUserRef}/default`;
  const { origin, ...tokens } = JSON.parse(t.engine.deps.vault.open(context, row.tokens));
  expect(origin).toBe(crm.url);
  t.canaries.push(tokens.accessToken, tokens.refreshToken);
  await t.engine.store.updateConnectionTokens(row.id, row.generation, { tokens: t.engine.deps.vault.seal(context, JSON.stringify(tokens)), status: row.status, accessExpiresAt: row.accessExpiresAt, updatedAt: row.updatedAt });
  return tokens.accessToken;
}

/** Rewrites the demo-crm API key as an Engine before the binding sealed it (v1: the value alone). */
async function makeLegacySecret() {
  const legacy = seal(loadMasterKey(t.dataDir, undefined), 'svc-engine/secret/v1\0default\0demo-crm', crm.apiKey);
  await t.engine.store.putSecret({ bucket: 'default', service: 'demo-crm', ...legacy, updatedAt: new Date().toISOString() });
}

describe('credentials from before the binding are bound once, never to a later address', () => {
  // A connection whose service was disabled at the upgrade (its tokens were going nowhere) is bound
  // to the catalog's address, as a secret is; the binding runs once, so a later enable at another
  // address, and any later start, leave it refused there.
  it('does not send a legacy connection\'s access token to an address its service was enabled at after the upgrade', async () => {
    await connect('bob', 'bob@crm');
    const bobToken = await makeLegacyConnection('bob');
    expect((await t.api('DELETE', '/v1/workspace/services/demo-crm')).status).toBe(204);
    await upgrade(); // demo-crm is not enabled, so bob's tokens were going nowhere

    await pointAt(attacker.url); // after the upgrade, by whoever holds a CLI credential
    await t.restart(); // any later start-up: a deploy, a crash, a new replica
    attacker.requests.length = 0;
    const res = await account({ endUserRef: 'bob' });

    expect(attacker.requests.map((r) => r.headers.authorization)).not.toContain(`Bearer ${bobToken}`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');
  });

  // Due for a refresh, with an OAuth client set for the new address (which a CLI credential may do):
  // the refresh token still goes nowhere but where the connection was made.
  it('does not send a legacy connection\'s refresh token to an address its service was enabled at after the upgrade', async () => {
    await connect('bob', 'bob@crm');
    await makeLegacyConnection('bob');
    const row = (await t.engine.store.getConnection('demo-crm', 'bob', 'default'))!;
    const { refreshToken } = JSON.parse(t.engine.deps.vault.open('connection/demo-crm/bob/default', row.tokens));
    expect((await t.api('DELETE', '/v1/workspace/services/demo-crm')).status).toBe(204);
    await upgrade();

    await pointAt(attacker.url);
    expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'attacker-client', clientSecret: 'attacker-client-secret' })).status).toBe(204);
    await t.restart();
    const bound = (await t.engine.store.getConnection('demo-crm', 'bob', 'default'))!;
    await t.engine.store.updateConnectionTokens(bound.id, bound.generation, { tokens: bound.tokens, status: bound.status, accessExpiresAt: new Date(Date.now() - 1000).toISOString(), updatedAt: bound.updatedAt });
    attacker.requests.length = 0;
    const res = await account({ endUserRef: 'bob' });

    expect(attacker.requests.filter((r) => r.body.includes(refreshToken))).toHaveLength(0);
    expect(res.body.error?.code).toBe('ENGINE_CREDENTIAL_MISSING');
  });

  // A v1 secret whose service is disabled and whose versions live at different origins has no
  // address to be bound to: it is bound to none, and refused until set again.
  it('does not send a legacy API key to an address its service was enabled at after the upgrade', async () => {
    await makeLegacySecret();
    expect((await t.api('DELETE', '/v1/workspace/services/demo-crm')).status).toBe(204);
    // A second version of demo-crm reached elsewhere (a staging host), imported before the upgrade.
    const document = [
      'openapi: 3.0.3',
      "info: { title: demo-crm staging, version: '2' }",
      "servers: [{ url: 'http://127.0.0.1:9/staging' }]",
      'paths:',
      '  /v1/account:',
      '    get:',
      '      operationId: account/get',
      "      responses: { '200': { description: ok } }",
    ].join('\n');
    const imported = await t.api('POST', '/v1/workspace/imports', { name: 'demo-crm', version: 'v2', document, auth: { type: 'api_key', in: 'header', name: 'Authorization', prefix: 'Bearer ' } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    await upgrade(); // the versions disagree and none is enabled: the v1 row is bound to no address

    await pointAt(attacker.url);
    await t.restart();
    attacker.requests.length = 0;
    const res = await account();

    expect(attacker.requests.map((r) => r.headers.authorization)).not.toContain(`Bearer ${crm.apiKey}`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');
  });
});

describe('an OAuth consent finishes only at the origin it started at', () => {
  // Between the end user's consent at the real provider and their return to the Engine, the service
  // is repointed and an OAuth client of one's own set for the new address. The authorization code
  // and PKCE verifier must not be posted to the new token endpoint: the consent state carries the
  // origin it started at, and complete() refuses (409 ENGINE_CREDENTIAL_MISSING: consent again).
  it('does not post an authorization code issued for the bound origin to a new address', async () => {
    const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'carol' });
    expect(started.status).toBe(201);
    expect(new URL(started.body.authorizeUrl).origin).toBe(crm.url);
    // The end user consents at the real provider; the redirect back to the Engine is not followed yet.
    const page = await (await fetch(started.body.authorizeUrl)).text();
    const fields = new URLSearchParams();
    for (const m of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      fields.set(m[1]!, m[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))));
    }
    fields.set('account', 'carol@crm');
    fields.set('decision', 'allow');
    const submitted = await fetch(new URL('/oauth/authorize', started.body.authorizeUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
    const location = submitted.headers.get('location')!;
    const code = new URL(location).searchParams.get('code')!;
    expect(code).toBeTruthy();

    // Meanwhile: repoint, and set an OAuth client for the new address (both allowed to a CLI credential).
    await pointAt(attacker.url);
    expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'attacker-client', clientSecret: 'attacker-client-secret' })).status).toBe(204);
    attacker.requests.length = 0;

    const callback = await fetch(location);
    await callback.text();

    expect(attacker.requests.filter((r) => r.body.includes(encodeURIComponent(code)) || r.body.includes(code))).toHaveLength(0);
    expect(callback.status).toBe(409);
    expect((await t.engine.store.getConnection('demo-crm', 'carol', 'default'))).toBeNull();
  });
});
