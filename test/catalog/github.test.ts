// The real api.github.com description loads from the prebuilt index, and real GitHub operations
// run against a fake GitHub on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let t: TestEngine;
let github: FakeProvider;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  github = await startFakeProvider((req, res) => {
    if (req.method === 'POST' && req.url === '/repos/acme/web/issues') {
      const body = JSON.parse(req.body);
      return json(res, 201, { id: 1, number: 42, title: body.title, body: body.body ?? null, labels: body.labels ?? [], state: 'open' });
    }
    const url = new URL(req.url, github.url);
    if (req.method === 'GET' && url.pathname === '/orgs/acme/repos') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const items = Array.from({ length: page < 3 ? 2 : 1 }, (_, i) => ({ id: page * 10 + i, full_name: `acme/r${page}-${i}` }));
      const next = new URL(url);
      next.searchParams.set('page', String(page + 1));
      return json(res, 200, items, page < 3 ? { link: `<${next.href}>; rel="next", <${url.origin}/orgs/acme/repos?page=3>; rel="last"` } : {});
    }
    json(res, 404, { message: 'Not Found' });
  });
  t = await startTestEngine();
  sdk = await publishSdk(t, { name: 'gh', service: 'github', baseUrl: github.url, secret: 'ghp_canaryGithubToken123', operations: ['issues/create', 'repos/list-for-org'] });
});

afterAll(async () => {
  await t.stop();
  await github.stop();
});

describe('GitHub catalog', () => {
  it('loads about a thousand operations with grouping, pagination and slash-preserving policies', async () => {
    const res = await t.api('GET', '/v1/catalog/services?q=git');
    expect(res.status).toBe(200);
    const github = res.body.services.find((s: any) => s.name === 'github');
    expect(github.versions[0].operations).toBeGreaterThan(900);
    const index = t.engine.deps.catalog.get('github', 'v1')!;
    const byId = new Map(index.operations.map((o) => [o.id, o]));
    expect(byId.get('github.issues/create')!.group).toEqual(['issues', 'create']);
    expect(byId.get('github.repos/get-content')!.group).toEqual(['repos', 'getContent']);
    expect(byId.get('github.repos/get-content')!.parameters.find((p) => p.name === 'path')!.slashPreserving).toBe(true);
    expect(byId.get('github.repos/list-for-org')!.pagination).toMatchObject({ style: 'link_header', engineMaxPages: 10, callerBound: true });
    expect(byId.get('github.issues/create')!.pagination).toBeNull();
  });

  it('runs issues/create with the bucket secret as a bearer token', async () => {
    const res = await t.execute(sdk.versionId, sdk.token, {
      operation: 'github.issues/create',
      input: { owner: 'acme', repo: 'web', body: { title: 'Broken build', body: 'CI is red', labels: ['bug'] } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 201, data: { number: 42, title: 'Broken build', labels: ['bug'] }, error: null });
    const sent = github.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer ghp_canaryGithubToken123');
    expect(sent.headers['x-github-api-version']).toBe('2022-11-28');
    expect(JSON.parse(sent.body)).toEqual({ title: 'Broken build', body: 'CI is red', labels: ['bug'] });
  });

  it('validates GitHub input against the real schema', async () => {
    const res = await t.execute(sdk.versionId, sdk.token, { operation: 'github.issues/create', input: { owner: 'acme', repo: 'web', body: { labels: ['x'] } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors[0]).toMatchObject({ instancePath: '/body', message: "is missing required property 'title'" });
  });

  it('follows Link headers for repos/list-for-org and aggregates every page', async () => {
    const before = github.requests.length;
    const res = await t.execute(sdk.versionId, sdk.token, { operation: 'github.repos/list-for-org', input: { org: 'acme', per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => r.full_name)).toEqual(['acme/r1-0', 'acme/r1-1', 'acme/r2-0', 'acme/r2-1', 'acme/r3-0']);
    expect(github.requests.slice(before).map((r) => r.url)).toEqual([
      '/orgs/acme/repos?per_page=2',
      '/orgs/acme/repos?per_page=2&page=2',
      '/orgs/acme/repos?per_page=2&page=3',
    ]);
  });
});
