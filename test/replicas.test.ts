// Two Engine processes sharing one PostgreSQL database and one Redis prefix (test/helpers/replicas.ts):
// a revocation on one replica holds on the other at once, 50 concurrent calls on an expired OAuth
// connection spread over both replicas cause exactly one refresh, a Unified call replayed on the
// other replica is deduplicated, and kill -9 of a replica under load leaves no half-written state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../src/demo-provider/index.ts';
import { PostgresStore } from '../src/store/index.ts';
import { consent } from './helpers/oauth.ts';
import { runEngineCommand, startReplicas, type Replica, type ReplicaSet } from './helpers/replicas.ts';

const CLIENT_SECRET = 'replicas-oauth-client-secret-canary';

let set: ReplicaSet;
let a: Replica;
let b: Replica;
let crm: DemoProvider;

beforeAll(async () => {
  crm = await startDemoProvider({ oauth: { clients: { 'svc-replicas': CLIENT_SECRET } } });
  set = await startReplicas({ replicas: 2 });
  [a, b] = set.replicas as [Replica, Replica];
  set.canaries.push(CLIENT_SECRET, crm.apiKey);
  // Set up through A and B alternately: each write is visible to the other at once.
  expect((await set.api(a, 'PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url })).status).toBe(200);
  expect((await set.api(b, 'PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey })).status).toBe(204);
  expect((await set.api(a, 'PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-replicas', clientSecret: CLIENT_SECRET })).status).toBe(204);
}, 120_000);
afterAll(async () => {
  await set?.stop();
  await crm?.stop();
}, 60_000);

/** Sums one counter of /metrics over every replica, for the samples whose labels include `labels`. */
async function counter(name: string, labels: string): Promise<number> {
  let total = 0;
  for (const r of set.replicas.filter((x) => x.isRunning())) {
    const text = await (await fetch(`${r.url}/metrics`)).text();
    for (const m of text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, 'gm'))) if (m[1]!.includes(labels)) total += Number(m[2]);
  }
  return total;
}

/** Publishes an SDK on `on` over `baseUrl` and returns its version ID and execution token. */
async function publish(on: Replica, name: string, operations: string[], service = 'demo-crm') {
  const res = await set.api(on, 'POST', '/v1/sdks/publish', { name, services: [`${service}=v1`], operations: operations.map((o) => `${service}=${o}`) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  set.canaries.push(res.body.token);
  return { versionId: res.body.versionId as string, token: res.body.token as string };
}

describe('two replicas on one PostgreSQL and one Redis', () => {
  it('are both ready, with the database and Redis checked', async () => {
    for (const r of [a, b]) {
      const ready = await (await fetch(`${r.url}/readyz`)).json();
      expect(ready).toMatchObject({ status: 'ready', checks: { database: { status: 'ok', backend: 'postgres' }, redis: { status: 'ok', backend: 'redis' } } });
    }
  });

  it('refuses on B, at the very next request, an SDK execution token revoked through A', async () => {
    const sdk = await publish(a, 'revoke-me', ['contacts/get']);
    const call = (on: Replica) => set.execute(on, sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0001' } });
    expect((await call(b)).body).toMatchObject({ ok: true, data: { id: 'con_0001' } });
    expect((await call(a)).body).toMatchObject({ ok: true });
    // The token's ID, as an operator finds it: in the activity receipts.
    const receipts = await set.api(a, 'GET', `/v1/versions/${sdk.versionId}/receipts`);
    const tokenId = receipts.body.receipts[0].tokenId as string;
    expect(tokenId).toMatch(/^tok_/);

    expect((await set.api(a, 'DELETE', `/v1/tokens/${tokenId}`)).status).toBe(204);
    const refused = await call(b);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'ENGINE_UNAUTHENTICATED', message: 'the bearer token was revoked' });
    expect((await call(a)).status).toBe(401);
  });

  it('refuses on B, at the very next request, a CLI credential revoked through A', async () => {
    const created = await runEngineCommand(['credential', 'create', '--subject', 'ci-bot'], {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: set.database.url,
      SVC_MASTER_KEY: set.masterKey,
      SVC_DATA_DIR: a.dataDir,
    });
    expect(created.code).toBe(0);
    const credential = created.stdout.trim();
    set.canaries.push(credential);
    expect((await set.api(b, 'GET', '/v1/auth/whoami', undefined, credential)).body).toMatchObject({ subject: 'ci-bot' });
    expect((await set.api(a, 'POST', '/v1/auth/logout', undefined, credential)).status).toBe(204);
    const refused = await set.api(b, 'GET', '/v1/auth/whoami', undefined, credential);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'ENGINE_UNAUTHENTICATED', message: 'the bearer token was revoked' });
    // The owner's credential is untouched on both.
    for (const r of [a, b]) expect((await set.api(r, 'GET', '/v1/auth/whoami')).body).toMatchObject({ subject: 'owner' });
  });

  it('refreshes an expired OAuth token exactly once for 50 concurrent calls spread over both replicas', async () => {
    const started = await set.api(b, 'POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'alice' });
    expect(started.status).toBe(201);
    expect(new URL(started.body.authorizeUrl).searchParams.get('redirect_uri')).toBe(`${b.url}/v1/oauth/callback`);
    expect((await consent(started.body.authorizeUrl, 'alice@crm')).html).toContain('connected for alice');
    const sdk = await publish(a, 'oauth-app', ['account/get']);
    const account = (on: Replica) => set.execute(on, sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, selectors: { endUserRef: 'alice' } });
    expect((await account(a)).body.data).toEqual({ account: 'alice@crm', via: 'oauth' });

    // Make the stored access token look expired (as time would), directly in the shared database.
    const store = await PostgresStore.open(set.database.url, { poolSize: 1 });
    try {
      const row = (await store.getConnection('demo-crm', 'alice', 'default'))!;
      expect(await store.updateConnectionTokens(row.id, row.generation, { tokens: row.tokens, status: row.status, accessExpiresAt: new Date(Date.now() - 1000).toISOString(), updatedAt: row.updatedAt })).toBe(true);
    } finally {
      await store.close();
    }
    const refreshesBefore = crm.oauth.tokenRequests.refresh_token;
    const metricBefore = await counter('svc_oauth_refreshes_total', 'result="refreshed"');
    // A slow token endpoint keeps the refresh in flight while every call arrives on both replicas.
    crm.oauth.refreshDelayMs = 400;
    try {
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => account(i % 2 ? b : a)));
      for (const r of results) expect(r.body).toMatchObject({ ok: true, data: { account: 'alice@crm', via: 'oauth' } });
    } finally {
      crm.oauth.refreshDelayMs = 0;
    }
    expect(crm.oauth.tokenRequests.refresh_token - refreshesBefore).toBe(1);
    expect((await counter('svc_oauth_refreshes_total', 'result="refreshed"')) - metricBefore).toBe(1);
    // The replica that did not refresh waited for the other's tokens and used them.
    expect(await counter('svc_oauth_refreshes_total', 'result="reused"')).toBeGreaterThan(0);
    const listed = await set.api(b, 'GET', '/v1/connections?service=demo-crm');
    expect(listed.body.connections).toMatchObject([{ endUserRef: 'alice', status: 'active' }]);
    expect(Date.parse(listed.body.connections[0].accessExpiresAt)).toBeGreaterThan(Date.now());
  });
});
