// OAuth connections per end user against demo-crm's real authorization server: consent, routing
// by selectors, single-flight refresh under 50 concurrent calls, rotation and failed refresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoProvider } from '../../src/demo-provider/index.ts';
import { startCrmApp, type PublishedApp } from '../fixtures/apps.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { consent, expireAccessToken } from '../fixtures/oauth.ts';

const CLIENT_SECRET = 'demo-oauth-client-secret-canary';
let fx: PublishedApp<DemoProvider>;
let t: TestEngine;
let crm: DemoProvider;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  fx = await startCrmApp({ operations: ['account/get', 'contacts/list'], oauthClient: { id: 'svc-test', secret: CLIENT_SECRET, accessTokenTtlSeconds: 61 } });
  ({ t, provider: crm, sdk } = fx);
});
afterAll(() => fx?.stop());

const account = (selectors?: object) => t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, ...(selectors ? { selectors } : {}) });

async function connect(endUserRef: string, crmAccount: string, authName?: string) {
  const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef, ...(authName ? { authName } : {}) });
  expect(started.status).toBe(201);
  const url = new URL(started.body.authorizeUrl);
  expect(url.origin).toBe(crm.url);
  expect(url.searchParams.get('redirect_uri')).toBe(`${t.url}/v1/oauth/callback`);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  return consent(started.body.authorizeUrl, crmAccount);
}

describe('OAuth connections', () => {
  it('connects two end users who each reach their own account', async () => {
    expect((await connect('alice', 'alice@crm')).html).toContain('connected for alice');
    expect((await connect('bob', 'bob@crm')).html).toContain('connected for bob');
    expect((await account({ endUserRef: 'alice' })).body.data).toEqual({ account: 'alice@crm', via: 'oauth' });
    expect((await account({ endUserRef: 'bob' })).body.data).toEqual({ account: 'bob@crm', via: 'oauth' });
    expect((await account()).body.data).toEqual({ account: 'api-key', via: 'api_key' });
    const list = await t.api('GET', '/v1/connections?service=demo-crm');
    expect(list.body.connections.map((c: any) => [c.endUserRef, c.status])).toEqual([
      ['alice', 'active'],
      ['bob', 'active'],
    ]);
    expect(JSON.stringify(list.body)).not.toMatch(/accessToken|refreshToken|access_token|refresh_token/);
  });

  it('refuses an unknown end user and a consent that was denied or replayed', async () => {
    const res = await account({ endUserRef: 'carol' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');
    const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'dave' });
    const denied = await consent(started.body.authorizeUrl, 'dave@crm', 'deny');
    expect(denied.status).toBe(400);
    expect(denied.html).toContain('access_denied');
    const replay = await fetch(`${t.url}/v1/oauth/callback?code=x&state=not-a-state`);
    expect(replay.status).toBe(400);
  });

  it('refreshes an expired token exactly once for 50 concurrent calls', async () => {
    await expireAccessToken(t, 'alice');
    const before = crm.oauth.tokenRequests.refresh_token;
    const results = await Promise.all(Array.from({ length: 50 }, () => account({ endUserRef: 'alice' })));
    expect(results.every((r) => r.body.ok && r.body.data.account === 'alice@crm')).toBe(true);
    expect(crm.oauth.tokenRequests.refresh_token - before).toBe(1);
  });

  it('handles rotating refresh tokens across successive refreshes', async () => {
    for (let i = 0; i < 3; i++) {
      await expireAccessToken(t, 'bob');
      const res = await account({ endUserRef: 'bob' });
      expect(res.body.data).toEqual({ account: 'bob@crm', via: 'oauth' });
    }
  });

  it('marks the connection as needing re-authorisation when a refresh is refused', async () => {
    await expireAccessToken(t, 'bob');
    crm.oauth.refuseRefresh = true;
    try {
      const res = await account({ endUserRef: 'bob' });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('ENGINE_CREDENTIAL_REFRESH_FAILED');
      const again = await account({ endUserRef: 'bob' });
      expect(again.body.error.message).toContain('needs re-authorisation');
      const row = (await t.api('GET', '/v1/connections')).body.connections.find((c: any) => c.endUserRef === 'bob');
      expect(row.status).toBe('needs_reauth');
    } finally {
      crm.oauth.refuseRefresh = false;
    }
    expect((await connect('bob', 'bob@crm')).status).toBe(200);
    expect((await account({ endUserRef: 'bob' })).body.data.account).toBe('bob@crm');
  });

  it('requires an OAuth client before consent', async () => {
    const other = await startTestEngine();
    try {
      await other.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
      const res = await other.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'x' });
      expect(res.body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_MISSING' });
      expect(res.body.error.message).toContain('--oauth-client-id');
    } finally {
      await other.stop();
    }
  });
});
