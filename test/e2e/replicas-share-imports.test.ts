// Replicas learning what another imported, found by review: search_docs, a look-up racing a
// refresh, a clock running ahead, and secret binding; and an OAuth refresh replayed by a replica
// with no shared lock. Two in-process Engines share one PostgreSQL database and one SVC_MASTER_KEY
// (test/fixtures/engine.ts with databaseUrl), as replicas behind a load balancer do.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/postgres.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { openSession, rawMcp } from '../fixtures/mcp.ts';

const MASTER_KEY = randomBytes(32).toString('hex');
const SECRET = 'replicas-imports-secret-canary';

let db: TestDatabase;
let a: TestEngine;
let b: TestEngine;
let provider: FakeProvider;
let other: FakeProvider;

const doc = (title: string, url: string, op = 'listPets') =>
  `openapi: 3.0.3\ninfo: { title: ${title}, version: '1' }\nservers: [{ url: '${url}' }]\npaths:\n  /v1/pets:\n    get:\n      operationId: ${op}\n      summary: List every pet in the store\n      responses: { '200': { description: ok } }\n`;

beforeAll(async () => {
  provider = await startFakeProvider((_req, res) => json(res, 200, { data: [{ id: 'pet_1' }] }));
  other = await startFakeProvider((_req, res) => json(res, 200, { data: [] }));
  db = await createTestDatabase();
  // Both replicas are up before anything is imported: B's catalog is read at its start.
  a = await startTestEngine({ SVC_MASTER_KEY: MASTER_KEY }, undefined, { databaseUrl: db.url });
  b = await startTestEngine({ SVC_MASTER_KEY: MASTER_KEY }, undefined, { databaseUrl: db.url });
  a.canaries.push(SECRET);
}, 120_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await db?.drop();
  await provider?.stop();
  await other?.stop();
}, 60_000);
afterEach(() => {
  vi.useRealTimers();
});

describe('replicas sharing one PostgreSQL database', () => {
  it('search_docs on B lists the operations of an MCP server whose service was imported on A (and keeps doing so)', async () => {
    expect((await a.api('POST', '/v1/workspace/imports', { name: 'docpets', version: 'v1', document: doc('DocPets', provider.url) })).status).toBe(201);
    expect((await a.api('PUT', '/v1/workspace/services/docpets', { version: 'v1' })).status).toBe(200);
    expect((await a.api('PUT', '/v1/buckets/default/secrets/docpets', { value: SECRET })).status).toBe(204);
    const published = await a.api('POST', '/v1/mcp/publish', { name: 'docpets-mcp', services: ['docpets=v1'], operations: ['docpets=listPets'] });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const { versionId, token } = published.body;
    a.canaries.push(token);

    // An agent's session lands on B, whose catalog has not read the import yet.
    const mcp = rawMcp(`${b.url}/mcp/${versionId}`, token);
    const headers = await openSession(mcp);
    const tool = async (id: number, name: string, args: Record<string, unknown>) => {
      const res = await mcp.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, headers);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result.structuredContent;
    };
    const first = await tool(2, 'search_docs', { operationId: 'docpets.listPets' });
    // The execute tool on B does find it (Executor.resolve refreshes the catalog) ...
    const executed = await tool(3, 'execute', { code: 'const r = await call("docpets.listPets", {}); return r.data' });
    expect(executed).toMatchObject({ result: { data: [{ id: 'pet_1' }] } });
    // ... yet the docs index B built before stays empty for this version for the life of the process.
    const again = await tool(4, 'search_docs', { query: 'list pets' });
    expect({ first: first.code ?? first.operationId, again: again.results?.map((r: { operationId: string }) => r.operationId) }).toEqual({
      first: 'docpets.listPets',
      again: ['docpets.listPets'],
    });
  });

  it('B finds a service imported on A even when a catalog refresh of its own was already under way', async () => {
    // A refresh on B whose query ran before A's import committed (a slow read of large descriptions).
    const store = b.engine.store as unknown as { listImportedServices(since?: string): Promise<unknown[]> };
    const original = store.listImportedServices;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let queried!: () => void;
    const ran = new Promise<void>((r) => (queried = r));
    store.listImportedServices = async function (this: unknown, since?: string) {
      const rows = await original.call(this, since);
      queried();
      await gate;
      return rows;
    };
    try {
      const listing = b.api('GET', '/v1/catalog/services');
      await ran;
      // The import commits on A after B's query ran; the operator then enables it through B.
      expect((await a.api('POST', '/v1/workspace/imports', { name: 'racepets', version: 'v1', document: doc('RacePets', provider.url) })).status).toBe(201);
      const enabling = b.api('PUT', '/v1/workspace/services/racepets', { version: 'v1' });
      await new Promise((r) => setTimeout(r, 300));
      release();
      await listing;
      const enabled = await enabling;
      expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    } finally {
      store.listImportedServices = original;
      release();
    }
  });

  it('B refuses, like A, to bind a secret for a service whose versions (one imported on A just now) live at different origins', async () => {
    expect((await a.api('POST', '/v1/workspace/imports', { name: 'twopets', version: 'v1', document: doc('TwoPets', provider.url) })).status).toBe(201);
    // B learns v1 (any listing does).
    expect((await b.api('GET', '/v1/catalog/services?q=twopets')).body.services[0].versions).toHaveLength(1);
    // v2 is imported on A and is reached at another origin.
    expect((await a.api('POST', '/v1/workspace/imports', { name: 'twopets', version: 'v2', document: doc('TwoPets', other.url) })).status).toBe(201);
    const onA = await a.api('PUT', '/v1/buckets/default/secrets/twopets', { value: SECRET });
    expect(onA.status).toBe(409);
    const onB = await b.api('PUT', '/v1/buckets/default/secrets/twopets', { value: SECRET });
    // B bound the secret to v1's origin, which A refuses to choose.
    expect(onB.status, JSON.stringify(onB.body)).toBe(409);
  });

  it('keeps the tokens of a successful OAuth refresh when another replica replays the same refresh token (no REDIS_URL)', async () => {
    // A provider that rotates refresh tokens: R1 is good once; a replay of it is invalid_grant.
    let refreshes = 0;
    let firstRefreshSeen!: () => void;
    const firstRefresh = new Promise<void>((r) => (firstRefreshSeen = r));
    const oauth = await startFakeProvider(async (req, res) => {
      if (req.method === 'POST' && req.url === '/oauth/token') {
        const form = new URLSearchParams(req.body);
        if (form.get('grant_type') === 'authorization_code') return json(res, 200, { access_token: 'acc-1', refresh_token: 'ref-1', expires_in: 30 });
        if (form.get('refresh_token') === 'ref-1' && refreshes++ === 0) {
          firstRefreshSeen();
          await new Promise((r) => setTimeout(r, 500)); // the provider takes its time over the one it accepts
          return json(res, 200, { access_token: 'acc-2', refresh_token: 'ref-2', expires_in: 3600 });
        }
        if (form.get('refresh_token') === 'ref-2') return json(res, 200, { access_token: 'acc-3', refresh_token: 'ref-3', expires_in: 3600 });
        return json(res, 400, { error: 'invalid_grant' });
      }
      if (req.url === '/v1/account') {
        return req.headers.authorization?.startsWith('Bearer acc-') && req.headers.authorization !== 'Bearer acc-1'
          ? json(res, 200, { id: 'acc', via: 'oauth' })
          : json(res, 401, { error: 'unauthorized' });
      }
      json(res, 404, {});
    });
    try {
      expect((await a.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: oauth.url })).status).toBe(200);
      expect((await b.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'cid', clientSecret: 'replicas-oauth-client-secret' })).status).toBe(204);
      a.canaries.push('replicas-oauth-client-secret');
      const started = await a.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'alice' });
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      const state = new URL(started.body.authorizeUrl).searchParams.get('state')!;
      // The provider redirects the browser to the Engine's callback with a code.
      expect((await fetch(`${a.url}/v1/oauth/callback?code=code-1&state=${encodeURIComponent(state)}`)).status).toBe(200);
      const published = await a.api('POST', '/v1/sdks/publish', { name: 'oauth-race', services: ['demo-crm=v1'], operations: ['demo-crm=account/get'] });
      expect(published.status, JSON.stringify(published.body)).toBe(200);
      a.canaries.push(published.body.token);
      const account = (t: TestEngine) =>
        t.execute(published.body.versionId, published.body.token, { operation: 'demo-crm.account/get', input: {}, selectors: { endUserRef: 'alice' } });

      // The access token is due: A's refresh reaches the provider first, then B's (each replica single-flights only itself).
      const row = (await a.engine.store.getConnection('demo-crm', 'alice', 'default'))!;
      await a.engine.store.updateConnectionTokens(row.id, row.generation, { tokens: row.tokens, status: row.status, accessExpiresAt: new Date(Date.now() - 1000).toISOString(), updatedAt: row.updatedAt });
      const onA = account(a);
      await firstRefresh;
      await account(b); // B replays ref-1: invalid_grant (B's own call may fail)
      const first = await onA;
      // The provider issued acc-2/ref-2 to A and burnt ref-1: A's call succeeds and the connection keeps them.
      const after = (await a.api('GET', '/v1/connections?service=demo-crm')).body.connections[0];
      const later = await account(b);
      expect({ onA: first.body.ok, connection: after.status, later: later.body.ok }).toEqual({ onA: true, connection: 'active', later: true });
    } finally {
      await oauth.stop();
    }
  });

  it('B still sees imports made on A after one replica recorded an import with a clock running ahead', async () => {
    // Its own pair of replicas: what this leaves in B's catalog would hide later imports from the other tests.
    const skewDb = await createTestDatabase();
    const c = await startTestEngine({ SVC_MASTER_KEY: MASTER_KEY }, undefined, { databaseUrl: skewDb.url });
    const d = await startTestEngine({ SVC_MASTER_KEY: MASTER_KEY }, undefined, { databaseUrl: skewDb.url });
    try {
      // A replica whose clock runs 1 h ahead (or did, before NTP stepped it back) imports a service.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60 * 60_000 });
      expect((await c.api('POST', '/v1/workspace/imports', { name: 'aheadpets', version: 'v1', document: doc('AheadPets', provider.url) })).status).toBe(201);
      vi.useRealTimers();
      // The other replica reads it (any listing does).
      const listed = await d.api('GET', '/v1/catalog/services?q=aheadpets');
      expect(listed.body.services.map((s: { name: string }) => s.name)).toEqual(['aheadpets']);
      // A later import, stamped by a correct clock, is never read by that replica again (until it restarts).
      expect((await c.api('POST', '/v1/workspace/imports', { name: 'laterpets', version: 'v1', document: doc('LaterPets', provider.url) })).status).toBe(201);
      const enabled = await d.api('PUT', '/v1/workspace/services/laterpets', { version: 'v1' });
      const names = (await d.api('GET', '/v1/catalog/services?q=laterpets')).body.services.map((s: { name: string }) => s.name);
      expect({ status: enabled.status, names }).toEqual({ status: 200, names: ['laterpets'] });
    } finally {
      vi.useRealTimers();
      await c.stop();
      await d.stop();
      await skewDb.drop();
    }
  });
});
