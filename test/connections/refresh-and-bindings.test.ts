// OAuth connections and bindings, found by review: a refused refresh marks a connection for
// re-consent only when its refresh token is dead; short-lived tokens are not refreshed on every
// call; a token bound to a user or auth name never falls back to the workspace API key and keeps
// the caller's other selectors; a caller-bounded Unified step says that more pages follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { approveAtOnce, consent, expireAccessToken } from '../fixtures/oauth.ts';

const CLIENT_SECRET = 'hardening-oauth-client-secret';
const GH_KEY = 'gh-hardening-workspace-key';

async function mcpClient(t: TestEngine, mcpUrl: string, token: string) {
  const client = new Client({ name: 'review', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}${new URL(mcpUrl).pathname}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}
const execute = async (client: Client, code: string) => ((await client.callTool({ name: 'execute', arguments: { code } })) as any).structuredContent;

describe('OAuth connections and Unified operations against demo-crm', () => {
  let t: TestEngine;
  let crm: DemoProvider;
  let github: FakeProvider;
  let sdk: { versionId: string; token: string };
  let mcp: { url: string; token: string };

  beforeAll(async () => {
    crm = await startDemoProvider({ oauth: { clients: { 'svc-review': CLIENT_SECRET } }, seedContacts: 250 });
    github = await startFakeProvider(async (req, res) => {
      if (req.url.startsWith('/user')) return json(res, 200, { login: 'workspace-bot', id: 1, auth: req.headers.authorization ? 'present' : 'none' });
      json(res, 404, {});
    });
    t = await startTestEngine();
    t.canaries.push(CLIENT_SECRET, GH_KEY);
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
    await t.api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: github.url });
    await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey });
    await t.api('PUT', '/v1/buckets/default/secrets/github', { value: GH_KEY });
    expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-review', clientSecret: CLIENT_SECRET })).status).toBe(204);
    t.canaries.push(crm.apiKey);
    const definition = {
      services: ['demo-crm=v1', 'github=v1'],
      operations: ['unified=tasks.create', 'unified=people.list', 'demo-crm=account/get', 'demo-crm=contacts/list', 'github=users/get-authenticated'],
    };
    const published = await t.api('POST', '/v1/sdks/publish', { name: 'review', ...definition });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    sdk = published.body;
    const deployed = await t.api('POST', '/v1/mcp/publish', { name: 'review', ...definition });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
    mcp = deployed.body;
    t.canaries.push(sdk.token, mcp.token);
    for (const [user, account, authName] of [
      ['alice', 'alice@crm', undefined],
      ['alice', 'alice-work@crm', 'work'],
      ['carol', 'carol@crm', undefined],
    ] as const) {
      const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: user, ...(authName ? { authName } : {}) });
      expect(started.status).toBe(201);
      expect((await consent(started.body.authorizeUrl, account)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await t.stop();
    await crm.stop();
    await github.stop();
  });

  const rest = (body: Record<string, unknown>) => t.execute(sdk.versionId, sdk.token, body);

  it('a refresh refused with invalid_client (a stale OAuth client secret) does not brand the end user\'s connection as needing re-consent', async () => {
    // The operator rotated the client secret at the provider but not yet in the Engine.
    await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-review', clientSecret: 'stale-secret' });
    await expireAccessToken(t, 'carol');
    const failed = await rest({ operation: 'demo-crm.account/get', input: {}, selectors: { endUserRef: 'carol' } });
    expect(failed.body.error.code).toBe('ENGINE_CREDENTIAL_REFRESH_FAILED');
    // The operator fixes the client secret; carol's refresh token is still perfectly valid.
    await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-review', clientSecret: CLIENT_SECRET });
    const again = await rest({ operation: 'demo-crm.account/get', input: {}, selectors: { endUserRef: 'carol' } });
    expect(again.body.error?.message ?? null).toBeNull();
    expect(again.body.data).toEqual({ account: 'carol@crm', via: 'oauth' });
  });

  it('a token bound to an OAuth auth name never calls with the workspace API key', async () => {
    const bound = await t.api('POST', '/v1/mcp/review/tokens', { allow: ['*'], binding: { authName: 'work' } });
    expect(bound.status).toBe(201);
    t.canaries.push(bound.body.token);
    const client = await mcpClient(t, mcp.url, bound.body.token);
    try {
      const r = await execute(client, 'const me = await call("demo-crm.account/get", {}); return me.data');
      // Never the shared API key: with no end user named, it is refused before anything is sent.
      expect(r).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'selectors.endUserRef', provider_execution: 'not_started' } });
    } finally {
      await client.close();
    }
  });

  it('a token bound to an end user does not call a service without OAuth with the workspace API key', async () => {
    const bound = await t.api('POST', '/v1/mcp/review/tokens', { allow: ['*'], binding: { endUserRef: 'alice' } });
    t.canaries.push(bound.body.token);
    const client = await mcpClient(t, mcp.url, bound.body.token);
    const before = github.requests.length;
    try {
      const r = await execute(client, 'const me = await call("github.users/get-authenticated", {}); return me.data');
      expect(r).toMatchObject({ code: 'ENGINE_FORBIDDEN_OPERATION', details: { provider_execution: 'not_started' } });
      expect(r.message).toContain("bound to end user 'alice'");
      expect(github.requests.length).toBe(before);
      const sent = github.requests.slice(before).filter((r) => r.headers.authorization === `Bearer ${GH_KEY}`);
      expect(sent.length).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('a bound end user\'s caller-chosen auth name is honoured, not silently swapped for the default connection', async () => {
    const bound = await t.api('POST', '/v1/mcp/review/tokens', { allow: ['*'], binding: { endUserRef: 'alice' } });
    t.canaries.push(bound.body.token);
    const client = await mcpClient(t, mcp.url, bound.body.token);
    try {
      const tasksBefore = crm.tasks.length;
      const r = await execute(
        client,
        'const a = await call("unified.tasks.create", { input: { title: "Work item" }, targets: ["crm"], selectors: { crm: { authName: "work" } } }); return a',
      );
      const created = crm.tasks.slice(tasksBefore);
      // Asked for alice's 'work' connection: the task is created as alice-work@crm, or nothing is created.
      expect(r.result.ok).toBe(true);
      expect(created.map((task) => task.created_by)).toEqual(['alice-work@crm']);
    } finally {
      await client.close();
    }
  });

  // Found by README review: selectors naming a connection were dropped and the call went out with the workspace key.
  it('never ignores an end user or auth name by calling with the workspace API key', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['demo-crm.account/get', { authName: 'work' }, 'selectors.endUserRef'], // a connection needs its end user
      ['demo-crm.account/get', { authName: 'work', authType: 'api_key' }, 'selectors.authName'],
      ['github.users/get-authenticated', { endUserRef: 'alice' }, 'selectors.endUserRef'], // no OAuth: no end users
      ['github.users/get-authenticated', { authName: 'work' }, 'selectors.authName'],
    ];
    const before = { crm: crm.requests.length, github: github.requests.length };
    for (const [operation, selectors, field] of cases) {
      const res = await t.execute(sdk.versionId, sdk.token, { operation, input: {}, selectors });
      expect(res.status, `${operation} ${JSON.stringify(selectors)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field, provider_execution: 'not_started' } });
    }
    expect(github.requests.length).toBe(before.github);
    expect(crm.requests.length).toBe(before.crm);
    // The workspace key still serves a call that names no one.
    expect((await t.execute(sdk.versionId, sdk.token, { operation: 'github.users/get-authenticated', input: {} })).body).toMatchObject({ ok: true, data: { login: 'workspace-bot' } });
  });

  it('a caller-bounded Unified target does not silently drop the provider continuation', async () => {
    // 250 contacts, 100 per page: one page leaves 150 behind.
    const res = await rest({ operation: 'unified.people.list', input: {}, targets: ['crm'], pagination: { crm: { maxPages: 1 } } });
    expect(res.body.ok).toBe(true);
    expect(res.body.data.output.people.length).toBe(100);
    // The step says more pages follow, and the page input that reads on.
    expect(res.body.data.steps[0]).toMatchObject({ target: 'crm', status: 'succeeded', continuation: { more: true, input: { starting_after: res.body.data.output.people[99].id } } });
    const all = await rest({ operation: 'unified.people.list', input: {}, targets: ['crm'] });
    expect(all.body.data.steps[0].continuation).toBeUndefined();
  });
});

describe('OAuth refresh against a token endpoint under test control', () => {
  let t: TestEngine;
  let provider: FakeProvider;
  let sdk: { versionId: string; token: string };
  const mode = { refreshStatus: 200, expiresIn: 3600 as number, revokeIssued: false };
  /** Access tokens the provider no longer accepts (`Bearer <token>`), though their expiry has not come. */
  const revoked = new Set<string>();
  let n = 0;
  const counts = { code: 0, refresh: 0 };

  beforeAll(async () => {
    provider = await startFakeProvider(async (req, res) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/oauth/authorize') return approveAtOnce(url, res, `code-${++n}`);
      if (url.pathname === '/oauth/token') {
        const form = new URLSearchParams(req.body);
        if (form.get('grant_type') === 'authorization_code') {
          counts.code++;
          return json(res, 200, { access_token: `at-${++n}`, refresh_token: `rt-${n}`, token_type: 'Bearer', expires_in: mode.expiresIn });
        }
        counts.refresh++;
        if (mode.refreshStatus !== 200) return json(res, mode.refreshStatus, { error: 'temporarily_unavailable' }, { 'retry-after': '1' });
        if (mode.revokeIssued) revoked.add(`Bearer at-${n + 1}`);
        return json(res, 200, { access_token: `at-${++n}`, refresh_token: `rt-${n}`, token_type: 'Bearer', expires_in: mode.expiresIn });
      }
      if (url.pathname === '/v1/account') {
        if (revoked.has(req.headers.authorization ?? '')) return json(res, 401, { error: 'invalid_token' });
        return json(res, 200, { account: req.headers.authorization ?? 'none', via: 'oauth' });
      }
      if (url.pathname === '/v1/contacts') {
        if (revoked.has(req.headers.authorization ?? '')) return json(res, 401, { error: 'invalid_token' });
        return json(res, 200, { data: [{ id: 'con_1', name: 'A', email: 'a@x.test', labels: {}, created_at: '2026-01-01T00:00:00Z' }], has_more: false });
      }
      json(res, 404, {});
    });
    t = await startTestEngine();
    t.canaries.push(CLIENT_SECRET);
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
    await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: 'fake-crm-key' });
    await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-review', clientSecret: CLIENT_SECRET });
    const published = await t.api('POST', '/v1/sdks/publish', { name: 'fake', services: ['demo-crm=v1'], operations: ['demo-crm=account/get', 'demo-crm=contacts/list'] });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    sdk = published.body;
    t.canaries.push(sdk.token);
  });
  afterAll(async () => {
    await t.stop();
    await provider.stop();
  });

  async function connect(endUserRef: string) {
    const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef });
    expect(started.status).toBe(201);
    const redirect = await fetch(started.body.authorizeUrl, { redirect: 'manual' });
    const back = await fetch(redirect.headers.get('location')!);
    expect(back.status).toBe(200);
  }
  const account = (endUserRef: string) => t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, selectors: { endUserRef } });

  it('a token endpoint answering 429 (rate limited) is a transient failure, not a reason to demand re-consent', async () => {
    await connect('dana');
    await expireAccessToken(t, 'dana');
    mode.refreshStatus = 429;
    try {
      const failed = await account('dana');
      expect(failed.body.error.code).toBe('ENGINE_CREDENTIAL_REFRESH_FAILED');
      expect(failed.body.error.retryable).toBe(true);
    } finally {
      mode.refreshStatus = 200;
    }
    const row = (await t.api('GET', '/v1/connections?service=demo-crm')).body.connections.find((c: any) => c.endUserRef === 'dana');
    expect(row.status).toBe('active');
    const again = await account('dana');
    expect(again.body.ok).toBe(true);
  });

  // A token the provider revoked before its expiry (or one with no expiry said) was sent until the
  // connection was made again: every call answered PROVIDER_ERROR 401.
  it('renews an access token the provider answers 401 to, once, and sends the call again with the new one', async () => {
    await connect('fred');
    /** The token the provider last received (the answer echoes it, but redacted). */
    const lastToken = () => provider.requests.filter((r) => r.url === '/v1/account' || r.url === '/v1/contacts').at(-1)!.headers.authorization!;
    expect((await account('fred')).body.ok).toBe(true);
    const firstToken = lastToken();
    revoked.add(firstToken);
    const before = { refresh: counts.refresh, calls: provider.requests.filter((r) => r.url === '/v1/account').length };
    const again = await account('fred');
    expect(again.body.ok).toBe(true);
    expect(lastToken()).not.toBe(firstToken);
    expect(counts.refresh - before.refresh).toBe(1);
    expect(provider.requests.filter((r) => r.url === '/v1/account').length - before.calls).toBe(2);
    // Paginated operations renew on their first page the same way.
    revoked.add(lastToken());
    const listed = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/list', input: {}, selectors: { endUserRef: 'fred' } });
    expect(listed.body.ok).toBe(true);
    expect(counts.refresh - before.refresh).toBe(2);
    // A provider that refuses the renewed token too gets its 401 back as the answer: one renewal per call.
    revoked.add(lastToken());
    mode.revokeIssued = true;
    try {
      const refreshes = counts.refresh;
      const refused = await account('fred');
      expect(refused.body).toMatchObject({ ok: false, status: 401, error: { code: 'PROVIDER_ERROR' } });
      expect(counts.refresh - refreshes).toBe(1);
    } finally {
      mode.revokeIssued = false;
    }
  });

  it('a freshly issued access token that lives 30 s is used, not refreshed on every call', async () => {
    mode.expiresIn = 30;
    try {
      await connect('erin');
      const before = counts.refresh;
      for (let i = 0; i < 3; i++) expect((await account('erin')).body.ok).toBe(true);
      expect(counts.refresh - before).toBe(0);
    } finally {
      mode.expiresIn = 3600;
    }
  });
});
