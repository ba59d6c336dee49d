// Provider pagination traversal in both styles: cursor (demo-crm) and Link header (GitHub).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let t: TestEngine;
let crm: FakeProvider;
let github: FakeProvider;
let crmSdk: { versionId: string; token: string };
let ghSdk: { versionId: string; token: string };
/** Total items each fake serves; tests change it to make traversal longer than the Engine limit. */
let total = 23;
const PAGE = 5;

beforeAll(async () => {
  // demo-crm: cursor pagination (starting_after / has_more), engineMaxPages 20.
  crm = await startFakeProvider((req, res) => {
    const url = new URL(req.url, 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? PAGE);
    const after = url.searchParams.get('starting_after');
    const start = after ? Number(after.slice(4)) : 0;
    const data = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => ({ id: `con_${start + i + 1}` }));
    json(res, 200, { data, has_more: start + limit < total });
  });
  // GitHub: Link-header pagination, engineMaxPages 10.
  github = await startFakeProvider((req, res) => {
    const url = new URL(req.url, github.url);
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? PAGE);
    const pages = Math.ceil(total / perPage);
    const items = Array.from({ length: Math.max(0, Math.min(perPage, total - (page - 1) * perPage)) }, (_, i) => ({ id: (page - 1) * perPage + i + 1, name: `repo-${(page - 1) * perPage + i + 1}` }));
    const links: string[] = [];
    if (page < pages) {
      const next = new URL(url);
      next.searchParams.set('page', String(page + 1));
      links.push(`<${next.href}>; rel="next"`);
      const last = new URL(url);
      last.searchParams.set('page', String(pages));
      links.push(`<${last.href}>; rel="last"`);
    }
    json(res, 200, items, links.length ? { link: links.join(', ') } : {});
  });
  t = await startTestEngine();
  crmSdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: 'crm-key', operations: ['contacts/list', 'contacts/get'] });
  ghSdk = await publishSdk(t, { name: 'gh', service: 'github', baseUrl: github.url, secret: 'gh-key', operations: ['repos/list-for-org', 'issues/create'] });
});

afterAll(async () => {
  await t.stop();
  await crm.stop();
  await github.stop();
});

const styles = [
  {
    style: 'cursor',
    engineMax: 20,
    provider: () => crm,
    call: (body: object) => t.execute(crmSdk.versionId, crmSdk.token, { operation: 'demo-crm.contacts/list', input: { limit: PAGE }, ...body }),
    items: (data: any) => data.data as { id: string }[],
  },
  {
    style: 'link_header',
    engineMax: 10,
    provider: () => github,
    call: (body: object) => t.execute(ghSdk.versionId, ghSdk.token, { operation: 'github.repos/list-for-org', input: { org: 'acme', per_page: PAGE }, ...body }),
    items: (data: any) => data as { id: number }[],
  },
] as const;

describe.each(styles)('$style pagination', ({ engineMax, provider, call, items }) => {
  it('traverses to the provider end and returns one aggregate', async () => {
    total = 23;
    const before = provider().requests.length;
    const res = await call({});
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    const all = items(res.body.data);
    expect(all).toHaveLength(23);
    expect(new Set(all.map((x) => String(x.id))).size).toBe(23);
    expect(provider().requests.length - before).toBe(5);
    if (!Array.isArray(res.body.data)) expect(res.body.data.has_more).toBe(false);
  });

  it('fails with ENGINE_PAGINATION_LIMIT when the provider has more pages than the Engine limit', async () => {
    total = PAGE * (engineMax + 3);
    const before = provider().requests.length;
    const res = await call({});
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ ok: false, data: null, error: { code: 'ENGINE_PAGINATION_LIMIT', details: { pages: engineMax, engine_max_pages: engineMax } } });
    expect(provider().requests.length - before).toBe(engineMax);
  });

  it('honours a valid caller bound and leaves the continuation intact', async () => {
    total = 40;
    const before = provider().requests.length;
    const res = await call({ pagination: { maxPages: 3 } });
    expect(res.status).toBe(200);
    expect(items(res.body.data)).toHaveLength(15);
    expect(provider().requests.length - before).toBe(3);
    if (!Array.isArray(res.body.data)) expect(res.body.data.has_more).toBe(true);
  });

  it.each([
    [{ maxPages: 0 }, 'positive integer'],
    [{ maxPages: 2.5 }, 'integer'],
    [{ maxPages: -1 }, ''],
    [{ maxPages: engineMax }, 'strictly lower'],
    [{ maxPages: engineMax + 5 }, 'strictly lower'],
    [{}, 'maxPages'],
    [{ maxPages: 2, extra: true }, 'extra'],
  ])('rejects the invalid caller bound %j with zero provider requests', async (pagination, message) => {
    const before = provider().requests.length;
    const res = await call({ pagination });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'ENGINE_PAGINATION_INVALID', details: { provider_execution: 'not_started' } });
    expect(res.body.error.message).toContain(message);
    expect(provider().requests.length).toBe(before);
  });
});

describe('pagination policy', () => {
  it('refuses a caller bound on an operation without pagination, before dispatch', async () => {
    const before = github.requests.length;
    const res = await t.execute(ghSdk.versionId, ghSdk.token, {
      operation: 'github.issues/create',
      input: { owner: 'acme', repo: 'web', body: { title: 'x' } },
      pagination: { maxPages: 2 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'ENGINE_PAGINATION_INVALID', details: { supported: false, provider_execution: 'not_started' } });
    expect(github.requests.length).toBe(before);
  });

  it('does not infer pagination from parameter names: a single GET with page-like params is one request', async () => {
    total = 40;
    const before = crm.requests.length;
    const res = await t.execute(crmSdk.versionId, crmSdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' } });
    expect(res.status).toBe(200);
    expect(crm.requests.length - before).toBe(1);
  });

  it('records the page count on the receipt', async () => {
    const receipts = (await t.api('GET', `/v1/versions/${crmSdk.versionId}/receipts`)).body.receipts;
    expect(receipts.some((r: any) => r.operation === 'demo-crm.contacts/list' && r.ok && r.pages === 5)).toBe(true);
    expect(receipts.some((r: any) => r.errorCode === 'ENGINE_PAGINATION_LIMIT' && r.pages === 20)).toBe(true);
  });
});
