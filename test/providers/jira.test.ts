// Jira Cloud as a first-class provider (spec/services/jira/v1/engine.yaml) against a fake Jira site
// on loopback (test/fixtures/providers/jira.ts): HTTP Basic with email:api_token; startAt paging
// that ends on isLast (PageBeans), on total (comments) or on an empty page (user arrays), a
// caller bound and the Engine's limit; an issue created; Jira's { errorMessages, errors } in the
// envelope; OAuth 2.0 (3LO) consent at auth.atlassian.com and calls through the gateway base URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuth2Auth } from '../../src/catalog/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startJira, type FakeJira } from '../fixtures/providers/jira.ts';

const EMAIL = 'ops@acme.example';
const API_TOKEN = 'ATATT3xFfGF0CANARYjira0token';
const CLIENT = { id: 'jira-3lo-app', secret: 'jira-client-secret-CANARY' };
const OPERATIONS = ['searchProjects', 'getComments', 'getAllUsers', 'createIssue'];

let t: TestEngine;
let jira: FakeJira;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  jira = await startJira({ email: EMAIL, apiToken: API_TOKEN, projects: 23, comments: 12, users: 7, client: CLIENT });
  t = await startTestEngine();
  t.canaries.push(API_TOKEN, Buffer.from(`${EMAIL}:${API_TOKEN}`).toString('base64'), CLIENT.secret);
  // Jira's base URL is the site's: the workspace gives it.
  expect((await t.api('PUT', '/v1/workspace/services/jira', { version: 'v1', baseUrl: jira.siteUrl })).status).toBe(200);
  expect((await t.api('PUT', '/v1/buckets/default/secrets/jira', { value: `${EMAIL}:${API_TOKEN}` })).status).toBe(204);
  const published = await t.api('POST', '/v1/sdks/publish', { name: 'issues', services: ['jira=v1'], operations: OPERATIONS.map((op) => `jira=${op}`) });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  sdk = published.body;
  t.canaries.push(sdk.token);
});
afterAll(async () => {
  await t?.stop();
  await jira?.stop();
});

const call = (operation: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => t.execute(sdk.versionId, sdk.token, { operation: `jira.${operation}`, input, ...extra });
const startAts = (from: number) => jira.provider.requests.slice(from).map((r) => new URL(r.url, 'http://x').searchParams.get('startAt'));

describe('jira: startAt paging', () => {
  it('pages projects to the end and stops on isLast, with Basic email:api_token', async () => {
    const before = jira.provider.requests.length;
    const res = await call('searchProjects', { maxResults: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 200, data: { isLast: true, total: 23 } });
    expect(res.body.data.values.map((p: any) => p.id)).toEqual(Array.from({ length: 23 }, (_, i) => String(10000 + i)));
    // Five pages, no sixth request for an empty one: isLast ended it.
    expect(startAts(before)).toEqual([null, '5', '10', '15', '20']);
    expect(jira.provider.requests.slice(before).every((r) => r.headers.authorization === `Basic ${Buffer.from(`${EMAIL}:${API_TOKEN}`).toString('base64')}`)).toBe(true);
  });

  it('stops on total where the answer has no isLast, and on an empty page where it has neither', async () => {
    let before = jira.provider.requests.length;
    const comments = await call('getComments', { issueIdOrKey: 'WEB-1', maxResults: 5 });
    expect(comments.body.data.comments).toHaveLength(12);
    expect(startAts(before)).toEqual([null, '5', '10']);
    before = jira.provider.requests.length;
    const users = await call('getAllUsers', { maxResults: 5 });
    expect(users.body.data.map((u: any) => u.accountId)).toEqual(Array.from({ length: 7 }, (_, i) => `acc-${i + 1}`));
    expect(startAts(before)).toEqual([null, '5', '7']);
  });

  it('stops at a caller bound with the startAt that reads on, and at the Engine limit of 10 pages', async () => {
    const bounded = await call('searchProjects', { maxResults: 5 }, { pagination: { maxPages: 2 } });
    expect(bounded.body.data.values).toHaveLength(10);
    expect(bounded.body.continuation).toEqual({ more: true, input: { startAt: 10 } });
    const rest = await call('searchProjects', { maxResults: 5, startAt: 10 }, { pagination: { maxPages: 9 } });
    expect(rest.body.data.values.map((p: any) => p.id)).toEqual(Array.from({ length: 13 }, (_, i) => String(10010 + i)));
    expect(rest.body).not.toHaveProperty('continuation');
    // A bound that the provider's last page reaches exactly is no continuation either: isLast said so.
    const exact = await call('searchProjects', { maxResults: 5, startAt: 15 }, { pagination: { maxPages: 2 } });
    expect(exact.body.data.values).toHaveLength(8);
    expect(exact.body).not.toHaveProperty('continuation');
    const before = jira.provider.requests.length;
    const limited = await call('searchProjects', { maxResults: 2 });
    expect(limited.body.error).toMatchObject({ code: 'ENGINE_PAGINATION_LIMIT', details: { pages: 10, engine_max_pages: 10 } });
    expect(jira.provider.requests.length - before).toBe(10);
  });
});

describe('jira: writes and errors', () => {
  it('creates an issue', async () => {
    const res = await call('createIssue', { body: { fields: { project: { key: 'WEB' }, summary: 'Checkout fails', issuetype: { name: 'Bug' } } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 201, data: { key: 'WEB-1', id: expect.any(String) } });
    expect(jira.issues.at(-1)).toMatchObject({ key: 'WEB-1', summary: 'Checkout fails' });
  });

  it("answers Jira's errorMessages and errors in the envelope", async () => {
    const res = await call('createIssue', { body: { fields: { project: { key: 'WEB' }, issuetype: { name: 'Bug' } } } });
    expect(res.body).toMatchObject({ ok: false, status: 400, error: { code: 'PROVIDER_ERROR', message: 'jira answered HTTP 400', details: { providerBody: { errorMessages: [], errors: { summary: 'You must specify a summary of the issue.' } } } } });
    const missing = await call('getComments', { issueIdOrKey: 'NOPE-1' });
    expect(missing.body).toMatchObject({ ok: false, status: 404, error: { details: { providerBody: { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} } } } });
  });
});

describe('jira: an end user through OAuth 2.0 (3LO)', () => {
  it("starts consent at auth.atlassian.com with Jira's audience, prompt and scopes", async () => {
    expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/jira', { clientId: CLIENT.id, clientSecret: CLIENT.secret })).status).toBe(204);
    const started = await t.api('POST', '/v1/connections', { service: 'jira', endUserRef: 'ana' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const authorize = new URL(started.body.authorizeUrl); // only read: nothing is sent to Atlassian
    expect(`${authorize.origin}${authorize.pathname}`).toBe('https://auth.atlassian.com/authorize');
    expect(authorize.searchParams.get('audience')).toBe('api.atlassian.com');
    expect(authorize.searchParams.get('prompt')).toBe('consent');
    expect(authorize.searchParams.get('scope')).toBe('read:jira-work write:jira-work read:jira-user offline_access');
    expect(authorize.searchParams.get('client_id')).toBe(CLIENT.id);
  });

  it('calls through the gateway base URL with the connection’s Bearer token', async () => {
    // Atlassian's OAuth endpoints are absolute: for this test they point at the fake (in this
    // Engine's loaded catalogue only), and jira is enabled with the gateway's base URL (same origin).
    const oauth = t.engine.deps.catalog.get('jira', 'v1')!.auth.find((a): a is OAuth2Auth => a.type === 'oauth2')!;
    const real = { authorizationUrl: oauth.authorizationUrl, tokenUrl: oauth.tokenUrl };
    oauth.authorizationUrl = `${jira.provider.url}/authorize?audience=api.atlassian.com&prompt=consent`;
    oauth.tokenUrl = `${jira.provider.url}/oauth/token`;
    try {
      expect((await t.api('PUT', '/v1/workspace/services/jira', { version: 'v1', baseUrl: jira.gatewayUrl })).status).toBe(200);
      const started = await t.api('POST', '/v1/connections', { service: 'jira', endUserRef: 'ana' });
      const redirect = await fetch(started.body.authorizeUrl, { redirect: 'manual' });
      expect((await fetch(redirect.headers.get('location')!)).status).toBe(200);
      const before = jira.provider.requests.length;
      const res = await call('searchProjects', { maxResults: 10 }, { selectors: { endUserRef: 'ana' } });
      expect(res.body).toMatchObject({ ok: true, data: { total: 23 } });
      expect(res.body.data.values).toHaveLength(23);
      const sent = jira.provider.requests.slice(before);
      expect(sent.map((r) => new URL(r.url, 'http://x').pathname)).toEqual(Array(3).fill(`${new URL(jira.gatewayUrl).pathname}/rest/api/3/project/search`));
      expect(sent.every((r) => r.headers.authorization === `Bearer ${jira.issued.at(-1)}`)).toBe(true);
    } finally {
      Object.assign(oauth, real);
      await t.api('PUT', '/v1/workspace/services/jira', { version: 'v1', baseUrl: jira.siteUrl });
    }
  });
});

describe('jira: through MCP execute', () => {
  it('pages projects and creates an issue inside a script', async () => {
    const server = (await t.api('POST', '/v1/mcp/publish', { name: 'issues-agents', services: ['jira=v1'], operations: OPERATIONS.map((op) => `jira=${op}`) })).body;
    t.canaries.push(server.token);
    const client = new Client({ name: 'jira-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
    try {
      const code = [
        'const projects = await call("jira.searchProjects", { maxResults: 5 });',
        'const made = await call("jira.createIssue", { body: { fields: { project: { key: "WEB" }, summary: "From an agent", issuetype: { name: "Task" } } } });',
        'return { projects: projects.data.values.length, key: made.data.key, status: made.status }',
      ].join('\n');
      const result = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.result).toEqual({ projects: 23, key: 'WEB-2', status: 201 });
    } finally {
      await client.close();
    }
  });
});
