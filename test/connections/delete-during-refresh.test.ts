// A connection deleted while a call is refreshing its access token: the delete revoked the grant it
// knew (the old refresh token), but the provider may already have answered the refresh with new
// tokens. Those are revoked at the provider too, and the call that refreshed fails instead of
// using them: nothing outlives the delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { approveAtOnce, expireAccessToken } from '../fixtures/oauth.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

const CLIENT_SECRET = 'delete-during-refresh-client-secret';

let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };
let n = 0;
/** Set while the token endpoint should hold refresh requests until `release` is called. */
let holdRefresh = false;
let release: (() => void) | undefined;
let refreshesSeen = 0;
/** Tokens the provider was asked to revoke (RFC 7009 `token` values). */
const revokedTokens: string[] = [];
/** Access tokens the provider saw on API calls. */
const apiTokens: string[] = [];

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/oauth/authorize') return approveAtOnce(url, res, `code-${++n}`);
    if (url.pathname === '/oauth/token') {
      const form = new URLSearchParams(req.body);
      if (form.get('grant_type') === 'refresh_token') {
        refreshesSeen++;
        if (holdRefresh) await new Promise<void>((resolve) => (release = resolve));
      }
      const id = ++n;
      return json(res, 200, { access_token: `at-${id}`, refresh_token: `rt-${id}`, token_type: 'Bearer', expires_in: 3600 });
    }
    if (url.pathname === '/oauth/revoke') {
      revokedTokens.push(new URLSearchParams(req.body).get('token') ?? '');
      return json(res, 200, {});
    }
    if (url.pathname === '/v1/account') {
      apiTokens.push(req.headers.authorization ?? '');
      return json(res, 200, { account: 'fake', via: 'oauth' });
    }
    json(res, 404, {});
  });
  t = await startTestEngine();
  t.canaries.push(CLIENT_SECRET);
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
  await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-delete-refresh', clientSecret: CLIENT_SECRET });
  const published = await t.api('POST', '/v1/sdks/publish', { name: 'deleting', services: ['demo-crm=v1'], operations: ['demo-crm=account/get'] });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  sdk = published.body;
  t.canaries.push(sdk.token);
});

afterAll(async () => {
  release?.();
  await t?.stop();
  await provider?.stop();
});

async function connect(endUserRef: string): Promise<string> {
  const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef });
  expect(started.status).toBe(201);
  const redirect = await fetch(started.body.authorizeUrl, { redirect: 'manual' });
  expect((await fetch(redirect.headers.get('location')!)).status).toBe(200);
  return (await t.engine.store.getConnection('demo-crm', endUserRef, 'default'))!.id;
}

describe('a connection deleted while a call refreshes it', () => {
  it('revokes the tokens the refresh brought, and the call does not use them', async () => {
    await connect('erin');
    const before = n; // the consent's tokens are at-<before>, rt-<before>
    await expireAccessToken(t, 'erin');
    holdRefresh = true;
    const refreshes = refreshesSeen;
    const call = t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, selectors: { endUserRef: 'erin' } });
    while (refreshesSeen === refreshes) await sleep(5); // the refresh is at the provider, unanswered
    const id = (await t.engine.store.getConnection('demo-crm', 'erin', 'default'))!.id;
    const deleted = t.api('DELETE', `/v1/connections/${id}`);
    // The delete goes ahead while the refresh is held (it forgets the connection first).
    for (let i = 0; i < 100 && (await t.engine.store.getConnection('demo-crm', 'erin', 'default')); i++) await sleep(10);
    expect(await t.engine.store.getConnection('demo-crm', 'erin', 'default')).toBeNull();
    holdRefresh = false;
    release!();
    const [answer, deletion] = await Promise.all([call, deleted]);

    const fresh = `at-${before + 1}`;
    t.canaries.push(fresh, `rt-${before + 1}`);
    expect(deletion.status).toBe(200);
    // The live grant (what the refresh brought) is revoked, once, and the delete reports that; the
    // refresh token the refresh spent is not sent again.
    expect(revokedTokens.filter((r) => r === `rt-${before + 1}`)).toHaveLength(1);
    expect(revokedTokens).not.toContain(`rt-${before}`);
    expect(deletion.body.revocation).toEqual({ revoked: true });
    // The call did not go on with tokens of a connection that no longer exists.
    expect(apiTokens).not.toContain(`Bearer ${fresh}`);
    expect(answer.body.ok).toBe(false);
    expect(answer.body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_MISSING', details: { provider_execution: 'not_started' } });
    expect(answer.body.error.message).toMatch(/deleted/);
    expect(JSON.stringify(answer.body)).not.toContain(fresh);
  });

  it('leaves alone the grant of the connection made again meanwhile, and the next call uses it', async () => {
    await connect('fay');
    await expireAccessToken(t, 'fay');
    holdRefresh = true;
    const refreshes = refreshesSeen;
    const call = t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, selectors: { endUserRef: 'fay' } });
    while (refreshesSeen === refreshes) await sleep(5);
    const id = (await t.engine.store.getConnection('demo-crm', 'fay', 'default'))!.id;
    const deleted = t.api('DELETE', `/v1/connections/${id}`);
    for (let i = 0; i < 100 && (await t.engine.store.getConnection('demo-crm', 'fay', 'default')); i++) await sleep(10);
    // Connected again while the refresh is still held: a new row, a new grant.
    const again = await connect('fay');
    expect(again).not.toBe(id);
    const renewed = `rt-${n}`;
    const renewedAccess = `at-${n}`;
    t.canaries.push(renewed, renewedAccess);
    holdRefresh = false;
    release!();
    const [answer, deletion] = await Promise.all([call, deleted]);
    t.canaries.push(`at-${n}`, `rt-${n}`);
    expect(deletion.status).toBe(200);
    expect(answer.body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_MISSING', retryable: true });
    expect(revokedTokens).toContain(`rt-${n}`); // what the held refresh brought
    expect(revokedTokens).not.toContain(renewed);
    // The connection made again works.
    const next = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, selectors: { endUserRef: 'fay' } });
    expect(next.body.ok).toBe(true);
    expect(apiTokens.at(-1)).toBe(`Bearer ${renewedAccess}`);
  });
});
