// Two Engine processes sharing one PostgreSQL database and one Redis prefix (test/fixtures/replicas.ts):
// a revocation on one replica holds on the other at once, 50 concurrent calls on an expired OAuth
// connection spread over both replicas cause exactly one refresh, a Unified call replayed on the
// other replica is deduplicated, and kill -9 of a replica under load leaves no half-written state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { PostgresStore } from '../../src/store/postgres.ts';
import { consent } from '../fixtures/oauth.ts';
import { queryDatabase } from '../fixtures/postgres.ts';
import { initializeMessage, rawMcp } from '../fixtures/mcp.ts';
import { runEngineCommand, startReplicas, type Replica, type ReplicaSet } from '../fixtures/replicas.ts';

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

  it('shares imports: a service imported through A is known to B at once, and B cannot replace it', async () => {
    const doc = (op: string) => `openapi: 3.0.3\ninfo: { title: Pets, version: '1' }\nservers: [{ url: '${crm.url}' }]\npaths:\n  /v1/account:\n    get:\n      operationId: ${op}\n      responses: { '200': { description: ok } }\n`;
    expect((await set.api(a, 'POST', '/v1/workspace/imports', { name: 'shared-pets', version: 'v1', document: doc('listPets') })).status).toBe(201);
    const again = await set.api(b, 'POST', '/v1/workspace/imports', { name: 'shared-pets', version: 'v1', document: doc('deletePets') });
    expect(again.status).toBe(409);
    expect((await set.api(b, 'GET', '/v1/catalog/services?q=shared-pets')).body.services.map((s: { name: string }) => s.name)).toEqual(['shared-pets']);
    expect((await set.api(b, 'PUT', '/v1/workspace/services/shared-pets', { version: 'v1' })).status).toBe(200);
    expect((await set.api(b, 'PUT', '/v1/buckets/default/secrets/shared-pets', { value: crm.apiKey })).status).toBe(204);
    const sdk = await publish(a, 'shared-pets-app', ['listPets'], 'shared-pets');
    for (const on of [b, a]) {
      const res = await set.execute(on, sdk.versionId, sdk.token, { operation: 'shared-pets.listPets', input: {} });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.status).not.toBe(404);
    }
  });

  it('never lets two concurrent publishes both derive their label from the same version', async () => {
    const name = 'racing-app';
    await publish(a, name, ['contacts/get', 'contacts/list']);
    for (let round = 0; round < 5; round++) {
      const current = (await set.api(a, 'GET', `/v1/sdks/${name}/versions`)).body.versions.map((v: { operations: string[] }) => v.operations);
      const base: string[] = current[0].map((op: string) => op.split('.')[1]);
      const [removed, added] = await Promise.all([
        set.api(a, 'POST', '/v1/sdks/publish', { name, services: ['demo-crm=v1'], operations: base.slice(1).map((o) => `demo-crm=${o}`) }),
        set.api(b, 'POST', '/v1/sdks/publish', { name, services: ['demo-crm=v1'], operations: [...base, `deals/list`].map((o) => `demo-crm=${o}`) }),
      ]);
      // At most one is built on the version both planned from; the other is told to plan again.
      expect([removed.status, added.status].filter((s) => s === 200).length, JSON.stringify([removed.body, added.body])).toBeGreaterThanOrEqual(1);
      for (const r of [removed, added]) if (r.status !== 200) expect(r.body.error.code).toBe('ENGINE_CONFLICT');
      const labels = (await set.api(a, 'GET', `/v1/sdks/${name}/versions`)).body.versions.map((v: { version: string }) => v.version);
      const sorted = [...labels].sort((x: string, y: string) => (x.split('.').map(Number).reduce((acc, n, i) => acc || n - Number(y.split('.')[i]), 0) > 0 ? -1 : 1));
      expect(labels, 'newest first is also highest first').toEqual(sorted);
      // restore two operations for the next round
      await set.api(a, 'POST', '/v1/sdks/publish', { name, services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get', 'demo-crm=contacts/list'] });
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
    expect(refused.body.error).toMatchObject({ code: 'ENGINE_UNAUTHENTICATED', details: { reason: 'revoked' } });
    expect(refused.body.error.message).toMatch(/^the CLI credential was revoked at /);
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

  it('deduplicates a Unified call replayed with the same idempotencyKey on the other replica', async () => {
    // tasks.create also binds github: the service must be enabled and selected (it is never called here).
    expect((await set.api(a, 'PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: 'http://127.0.0.1:9' })).status).toBe(200);
    const published = await set.api(b, 'POST', '/v1/sdks/publish', { name: 'uni', services: ['demo-crm=v1', 'github=v1'], operations: ['unified=tasks.create', 'demo-crm=tasks/create'] });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    set.canaries.push(published.body.token);
    const create = (on: Replica, body: object) => set.execute(on, published.body.versionId, published.body.token, { operation: 'unified.tasks.create', ...body });
    const body = { input: { title: 'Once across replicas' }, targets: ['crm'], idempotencyKey: 'replica-key-1' };

    const tasksBefore = crm.tasks.length;
    const first = await create(a, body);
    expect(first.body).toMatchObject({ ok: true });
    expect(crm.tasks.length).toBe(tasksBefore + 1);
    const requestsBefore = crm.requests.length;
    const replay = await create(b, body);
    expect(replay.status).toBe(first.status);
    expect(replay.body).toEqual(first.body);
    expect(crm.requests.length).toBe(requestsBefore); // nothing dispatched
    const other = await create(b, { ...body, input: { title: 'Another request' } });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'ENGINE_IDEMPOTENCY_CONFLICT', details: { field: 'idempotencyKey' } });

    // One new key sent 10 times at once over both replicas: one task is created; every other answer is
    // the replay of that call or a retryable "still running".
    const concurrent = { input: { title: 'Raced' }, targets: ['crm'], idempotencyKey: 'replica-key-2' };
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => create(i % 2 ? b : a, concurrent)));
    expect(crm.tasks.filter((t) => t.title === 'Raced')).toHaveLength(1);
    const done = results.filter((r) => r.status === 200);
    expect(done.length).toBeGreaterThanOrEqual(1);
    for (const r of done) expect(r.body).toEqual(done[0]!.body);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.error).toMatchObject({ code: 'ENGINE_IDEMPOTENCY_CONFLICT', retryable: true });
    }
    expect((await create(b, concurrent)).body).toEqual(done[0]!.body);
  });

  // Last: it kills replica A.
  it('leaves no half-written version or token after kill -9 of a replica under load, and the other keeps serving', async () => {
    const OPS = ['contacts/list', 'contacts/get', 'deals/list'];
    const mcpServer = await set.api(a, 'POST', '/v1/mcp/publish', { name: 'crash-mcp', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] });
    expect(mcpServer.status, JSON.stringify(mcpServer.body)).toBe(200);
    set.canaries.push(mcpServer.body.token);
    const reader = await publish(b, 'crash-reader', ['contacts/list']);

    /** What the Engine acknowledged: each of these must hold afterwards. */
    const acked = {
      versions: [] as { name: string; versionId: string; operations: string[] }[],
      appTokens: new Map<string, string>(),
      mcpTokens: new Map<string, string>(),
      revoked: new Set<string>(),
    };
    acked.appTokens.set('crash-reader', reader.token);
    const failuresOnB: string[] = [];
    let okOnBAfterKill = 0;
    let killed = false;
    let running = true;
    const step = async (on: Replica, what: () => Promise<void>): Promise<boolean> => {
      try {
        await what();
        if (on === b && killed) okOnBAfterKill++;
        return true;
      } catch (err) {
        if (on === b) failuresOnB.push(String(err));
        return on === b; // A's workers stop once A is gone
      }
    };
    const expectStatus = <T extends { status: number; body: unknown }>(res: T, ...ok: number[]): T => {
      if (!ok.includes(res.status)) throw new Error(`HTTP ${res.status}: ${JSON.stringify(res.body)}`);
      return res;
    };

    const publisher = async (on: Replica, w: number) => {
      for (let i = 0; running; i++) {
        const name = `crash-${on.index}-${w}-${Math.floor(i / 3)}`;
        const operations = OPS.slice(0, 1 + (i % 3))
          .map((o) => `demo-crm.${o}`)
          .sort();
        const goOn = await step(on, async () => {
          const res = expectStatus(await set.api(on, 'POST', '/v1/sdks/publish', { name, services: ['demo-crm=v1'], operations: operations.map((o) => o.replace('demo-crm.', 'demo-crm=')) }), 200);
          if (res.body.token) {
            acked.appTokens.set(name, res.body.token);
            set.canaries.push(res.body.token);
          }
          if (res.body.published) acked.versions.push({ name, versionId: res.body.versionId, operations });
        });
        if (!goOn) return;
      }
    };
    const tokenWorker = async (on: Replica) => {
      for (let i = 0; running; i++) {
        const goOn = await step(on, async () => {
          const created = expectStatus(await set.api(on, 'POST', '/v1/mcp/crash-mcp/tokens', { allow: ['demo-crm.contacts/*'] }), 201);
          acked.mcpTokens.set(created.body.id, created.body.token);
          set.canaries.push(created.body.token);
          if (i % 2) {
            expectStatus(await set.api(on, 'DELETE', `/v1/tokens/${created.body.id}`), 204);
            acked.revoked.add(created.body.id);
          }
        });
        if (!goOn) return;
      }
    };
    const caller = async (on: Replica) => {
      while (running) {
        const goOn = await step(on, async () => {
          const res = expectStatus(await set.execute(on, reader.versionId, reader.token, { operation: 'demo-crm.contacts/list', input: { limit: 50 } }), 200);
          if (!res.body.ok) throw new Error(JSON.stringify(res.body));
        });
        if (!goOn) return;
      }
    };

    const load = [a, b].flatMap((r) => [publisher(r, 0), publisher(r, 1), tokenWorker(r), caller(r)]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    killed = true;
    expect(await a.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    running = false;
    await Promise.all(load);

    expect(failuresOnB).toEqual([]);
    expect(okOnBAfterKill).toBeGreaterThan(5);
    expect(acked.versions.length).toBeGreaterThan(5);
    expect(acked.mcpTokens.size).toBeGreaterThan(3);

    // Every version any replica acknowledged is there, whole.
    for (const v of acked.versions) {
      const listed = await set.api(b, 'GET', `/v1/sdks/${v.name}/versions`);
      expect(listed.body.versions.find((x: { versionId: string }) => x.versionId === v.versionId)).toMatchObject({ services: ['demo-crm=v1'], operations: v.operations });
    }
    // Every version that exists is complete and callable: its app's first token was written with it
    // (a publish is one transaction), and the calls its token makes succeed.
    const apps = (await set.api(b, 'GET', '/v1/sdks')).body.sdks as { name: string }[];
    for (const { name } of apps.filter((x) => x.name.startsWith('crash-'))) {
      const versions = (await set.api(b, 'GET', `/v1/sdks/${name}/versions`)).body.versions as { versionId: string; services: string[]; operations: string[] }[];
      expect(versions.length).toBeGreaterThan(0);
      const tokens = await queryDatabase(set.database.url, "SELECT count(*)::int AS n FROM tokens WHERE kind = 'sdk' AND subject = $1", [name]);
      expect(tokens[0]!.n, `app ${name} has versions but no token`).toBe(1);
      const token = acked.appTokens.get(name);
      for (const version of versions) {
        expect(version.services).toEqual(['demo-crm=v1']);
        expect(version.operations.length).toBeGreaterThan(0);
        expect(version.operations.every((o) => OPS.includes(o.replace('demo-crm.', '')))).toBe(true);
        if (!token) continue; // its first publish's answer was lost with A: the token is there, its value unknown
        const res = await set.execute(b, version.versionId, token, { operation: 'demo-crm.contacts/list', input: { limit: 50 } });
        expect(res.body, `${name} ${version.versionId}`).toMatchObject({ ok: true, status: 200 });
      }
    }
    // Every MCP token listed is whole, and each one whose value we hold works or is revoked.
    const listedTokens = (await set.api(b, 'GET', '/v1/mcp/crash-mcp/tokens')).body.tokens as { id: string; allow: string[] | null; revokedAt: string | null; createdAt: string }[];
    const byId = new Map(listedTokens.map((x) => [x.id, x]));
    for (const id of acked.mcpTokens.keys()) expect(byId.has(id), `acknowledged token ${id} is listed`).toBe(true);
    for (const id of acked.revoked) expect(byId.get(id)!.revokedAt).not.toBeNull();
    const mcpUrl = `${b.url}/mcp/${mcpServer.body.versionId}`;
    for (const listed of listedTokens) {
      expect(listed.createdAt).toEqual(expect.any(String));
      const value = acked.mcpTokens.get(listed.id);
      if (!value) continue;
      const mcp = rawMcp(mcpUrl, value);
      const init = await mcp.post(initializeMessage());
      expect(init.status, `token ${listed.id} (revoked: ${listed.revokedAt !== null})`).toBe(listed.revokedAt ? 401 : 200);
      if (init.status === 200) await mcp.send('DELETE', { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' });
    }

    // B keeps serving new work, and a replacement replica starts on the state A left behind.
    const after = await publish(b, 'after-crash', ['contacts/get']);
    expect((await set.execute(b, after.versionId, after.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0002' } })).body).toMatchObject({ ok: true, data: { id: 'con_0002' } });
    const c = await set.add();
    expect((await set.execute(c, reader.versionId, reader.token, { operation: 'demo-crm.contacts/list', input: { limit: 50 } })).body).toMatchObject({ ok: true });
  }, 90_000);
});
