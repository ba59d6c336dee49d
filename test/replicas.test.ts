// Two Engine processes sharing one PostgreSQL database and one Redis prefix (test/helpers/replicas.ts):
// a revocation on one replica holds on the other at once, 50 concurrent calls on an expired OAuth
// connection spread over both replicas cause exactly one refresh, a Unified call replayed on the
// other replica is deduplicated, and kill -9 of a replica under load leaves no half-written state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../src/demo-provider/index.ts';
import { startFakeProvider, json, type FakeProvider } from './helpers/fake-provider.ts';
import { consent } from './helpers/oauth.ts';
import { runEngineCommand, startReplicas, type Replica, type ReplicaSet } from './helpers/replicas.ts';

const CLIENT_SECRET = 'replicas-oauth-client-secret-canary';
const API_KEY_CANARY = 'replicas-api-key-canary';

let set: ReplicaSet;
let a: Replica;
let b: Replica;
let provider: FakeProvider;
let crm: DemoProvider;

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => json(res, 200, { id: req.url.split('/')[3]?.split('?')[0], name: 'Ada' }));
  crm = await startDemoProvider({ oauth: { clients: { 'svc-replicas': CLIENT_SECRET } } });
  set = await startReplicas({ replicas: 2 });
  [a, b] = set.replicas as [Replica, Replica];
  set.canaries.push(CLIENT_SECRET, API_KEY_CANARY, crm.apiKey);
}, 120_000);
afterAll(async () => {
  await set?.stop();
  await provider?.stop();
  await crm?.stop();
}, 60_000);

/** Publishes an SDK on `on` over `baseUrl` and returns its version ID and execution token. */
async function publish(on: Replica, name: string, operations: string[], service = 'demo-crm') {
  const res = await set.api(on, 'POST', '/v1/sdks/publish', { name, services: [`${service}=v1`], operations: operations.map((o) => `${service}=${o}`) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  set.canaries.push(res.body.token);
  return { versionId: res.body.versionId as string, token: res.body.token as string };
}

describe('two replicas on one PostgreSQL and one Redis', () => {
  it('refuses on B, at the very next request, an SDK execution token revoked through A', async () => {
    expect((await set.api(a, 'PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url })).status).toBe(200);
    expect((await set.api(b, 'PUT', '/v1/buckets/default/secrets/demo-crm', { value: API_KEY_CANARY })).status).toBe(204);
    const sdk = await publish(a, 'revoke-me', ['contacts/get']);
    const call = (on: Replica) => set.execute(on, sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' } });
    expect((await call(b)).body).toMatchObject({ ok: true, data: { id: 'con_1' } });
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
});
