// GitLab as a first-class provider (spec/services/gitlab/v1/engine.yaml) against a fake GitLab on
// loopback (test/fixtures/providers/gitlab.ts): project issues paged to the end by the Link header,
// a caller bound and the Engine's limit, an issue created as a form, GitLab's {message} error in
// the envelope, an end user's OAuth connection, and the list through MCP execute. The token is a
// canary: no answer or log line may carry it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startGitLab, type FakeGitLab } from '../fixtures/providers/gitlab.ts';

const TOKEN = 'glpat-CANARY-7d1c0ffee42';
const CLIENT = { id: 'gl-app', secret: 'gl-client-secret-CANARY' };
const OPERATIONS = ['getV3ProjectsIdIssues', 'postV3ProjectsIdIssues'];

let t: TestEngine;
let gitlab: FakeGitLab;
let sdk: { versionId: string; token: string };
let mcp: { url: string; token: string };

beforeAll(async () => {
  gitlab = await startGitLab({ token: TOKEN, issues: 12, client: CLIENT });
  t = await startTestEngine();
  t.canaries.push(TOKEN, CLIENT.secret);
  expect((await t.api('PUT', '/v1/workspace/services/gitlab', { version: 'v1', baseUrl: gitlab.apiUrl })).status).toBe(200);
  expect((await t.api('PUT', '/v1/buckets/default/secrets/gitlab', { value: TOKEN })).status).toBe(204);
  expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/gitlab', { clientId: CLIENT.id, clientSecret: CLIENT.secret })).status).toBe(204);
  const definition = { services: ['gitlab=v1'], operations: OPERATIONS.map((op) => `gitlab=${op}`) };
  const published = await t.api('POST', '/v1/sdks/publish', { name: 'tracker', ...definition });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  sdk = published.body;
  const deployed = await t.api('POST', '/v1/mcp/publish', { name: 'tracker-agents', ...definition });
  expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
  mcp = deployed.body;
  t.canaries.push(sdk.token, mcp.token);
});
afterAll(async () => {
  await t?.stop();
  await gitlab?.stop();
});

const call = (operation: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => t.execute(sdk.versionId, sdk.token, { operation: `gitlab.${operation}`, input, ...extra });
const sent = (from: number) => gitlab.provider.requests.slice(from);

describe('gitlab: paging', () => {
  it('pages project issues to the end by following the Link header, with the token in PRIVATE-TOKEN', async () => {
    const before = gitlab.provider.requests.length;
    const res = await call('getV3ProjectsIdIssues', { id: '42', per_page: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 200, error: null });
    expect(res.body.data.map((i: any) => i.iid)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(sent(before).map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(sent(before).every((r) => r.headers['private-token'] === TOKEN && r.headers.authorization === undefined)).toBe(true);
    expect(res.body).not.toHaveProperty('continuation');
  });

  it('stops at a caller bound with the page that reads on, and at the Engine limit of 10 pages', async () => {
    const bounded = await call('getV3ProjectsIdIssues', { id: '42', per_page: 5 }, { pagination: { maxPages: 2 } });
    expect(bounded.body.data).toHaveLength(10);
    expect(bounded.body.continuation).toEqual({ more: true, input: { page: 3 } });
    const rest = await call('getV3ProjectsIdIssues', { id: '42', per_page: 5, page: 3 }, { pagination: { maxPages: 2 } });
    expect(rest.body.data.map((i: any) => i.iid)).toEqual([11, 12]);
    expect(rest.body).not.toHaveProperty('continuation');
    // 12 pages of one issue: more than the Engine reads without a bound.
    const before = gitlab.provider.requests.length;
    const limited = await call('getV3ProjectsIdIssues', { id: '42', per_page: 1 });
    expect(limited.body.error).toMatchObject({ code: 'ENGINE_PAGINATION_LIMIT', details: { pages: 10, engine_max_pages: 10 } });
    expect(gitlab.provider.requests.length - before).toBe(10);
    const tooHigh = await call('getV3ProjectsIdIssues', { id: '42' }, { pagination: { maxPages: 10 } });
    expect(tooHigh.body.error.code).toBe('ENGINE_PAGINATION_INVALID');
  });
});

describe('gitlab: writes and errors', () => {
  it('creates an issue with a form body', async () => {
    const res = await call('postV3ProjectsIdIssues', { id: '42', body: { title: 'Broken build', description: 'CI is red', labels: 'bug,ci', confidential: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 201, data: { iid: 13, title: 'Broken build', description: 'CI is red', labels: ['bug', 'ci'], state: 'opened' } });
    const request = gitlab.provider.requests.at(-1)!;
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ title: 'Broken build', description: 'CI is red', labels: 'bug,ci', confidential: 'false' });
  });

  it("answers GitLab's error body in the envelope, and refuses a missing title before sending", async () => {
    const missing = await call('getV3ProjectsIdIssues', { id: '999' });
    expect(missing.status).toBe(200);
    expect(missing.body).toMatchObject({ ok: false, status: 404, error: { code: 'PROVIDER_ERROR', message: 'gitlab answered HTTP 404', details: { providerBody: { message: '404 Project Not Found' } } } });
    const before = gitlab.provider.requests.length;
    const refused = await call('postV3ProjectsIdIssues', { id: '42', body: { description: 'no title' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('ENGINE_INVALID_INPUT');
    expect(gitlab.provider.requests.length).toBe(before);
  });
});

describe('gitlab: an end user through OAuth', () => {
  it('connects at the instance’s /oauth endpoints and calls with the Bearer token instead of the workspace token', async () => {
    const started = await t.api('POST', '/v1/connections', { service: 'gitlab', endUserRef: 'dana' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const authorize = new URL(started.body.authorizeUrl);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${gitlab.provider.url}/oauth/authorize`);
    expect(authorize.searchParams.get('scope')).toBe('api');
    const redirect = await fetch(authorize, { redirect: 'manual' });
    expect((await fetch(redirect.headers.get('location')!)).status).toBe(200);
    const before = gitlab.provider.requests.length;
    const res = await call('getV3ProjectsIdIssues', { id: '42', per_page: 100 }, { selectors: { endUserRef: 'dana' } });
    expect(res.body.data).toHaveLength(13);
    const request = sent(before)[0]!;
    expect(request.headers.authorization).toBe(`Bearer ${gitlab.issued.at(-1)}`);
    expect(request.headers['private-token']).toBeUndefined();
  });
});

describe('gitlab: through MCP execute', () => {
  it('pages the issues inside a script', async () => {
    const client = new Client({ name: 'gitlab-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { authorization: `Bearer ${mcp.token}` } } }));
    try {
      const code = 'const r = await call("gitlab.getV3ProjectsIdIssues", { id: "42", per_page: 5 }); return { ok: r.ok, titles: r.data.map((i) => i.title) }';
      const result = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.result.ok).toBe(true);
      expect(result.structuredContent.result.titles.slice(0, 3)).toEqual(['Issue 1', 'Issue 2', 'Issue 3']);
      expect(result.structuredContent.result.titles).toHaveLength(13);
    } finally {
      await client.close();
    }
  });
});
