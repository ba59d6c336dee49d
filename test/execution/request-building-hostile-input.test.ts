// Request building and page traversal under hostile or unusual input (found by review). Real Engine
// on loopback, fake providers recording the exact request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';

const QUERY_KEY = 'qk_review_canary_5d81e0';

let t: TestEngine;
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/loop') return json(res, 200, [{ again: true }], { link: `<${provider.url}/loop>; rel="next"` });
    if (url.pathname === '/paged') {
      const page = Number(url.searchParams.get('page') ?? 1);
      // An absolute next link built from the provider's own URL, without the caller's query key.
      return json(res, 200, [{ page }], page < 2 ? { link: `<${provider.url}/paged?page=${page + 1}>; rel="next"` } : {});
    }
    json(res, 200, { ok: true });
  });
  t = await startTestEngine();
});

afterAll(async () => {
  await t?.stop();
  await provider?.stop();
});

let serial = 0;

/** Imports a one-operation service (GET `path` unless said) served by the fake provider and publishes an SDK for it. */
async function service(o: { path: string; parameters: unknown[]; method?: string; auth?: Record<string, string> }) {
  const name = `review-${++serial}`;
  const document = {
    openapi: '3.0.3',
    info: { title: name, version: '1' },
    servers: [{ url: provider.url }],
    paths: { [o.path]: { [o.method ?? 'get']: { operationId: 'op', parameters: o.parameters, responses: { '200': { description: 'ok' } } } } },
  };
  const imported = await t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document: JSON.stringify(document), ...(o.auth ? { auth: o.auth } : {}) });
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: QUERY_KEY, operations: ['op'] });
  const call = (input: object) => t.execute(sdk.versionId, sdk.token, { operation: `${name}.op`, input });
  return { name, sdk, call };
}

describe('caller input that changes the request beyond its parameter', () => {
  it('does not let an exploded form object add a second API-key query parameter', async () => {
    // Found by review: request.ts appendQuery: a form/explode object's property names become query names unchecked, so `filter.access_token` duplicates the Engine's credential parameter.
    const { call } = await service({
      path: '/things',
      auth: { type: 'api_key', in: 'query', name: 'access_token' },
      parameters: [{ name: 'filter', in: 'query', schema: { type: 'object', additionalProperties: { type: 'string' } } }],
    });
    const before = provider.requests.length;
    const res = await call({ filter: { access_token: 'attacker-key' } });
    const sent = provider.requests.slice(before);
    // Either refused before the provider, or sent with the Engine's key as the only access_token.
    for (const req of sent) expect(new URL(req.url, 'http://x').searchParams.getAll('access_token')).toEqual([QUERY_KEY]);
    if (sent.length === 0) expect(res.status).toBe(400);
  });

  it('does not turn an empty array path value into an empty segment (the collection endpoint)', async () => {
    // Found by review: request.ts encodePathValue: '' is refused for a scalar, but [] (and {}) join to '' and build DELETE /things/ instead of /things/{ids}.
    const { call } = await service({
      path: '/things/{ids}',
      method: 'delete',
      parameters: [{ name: 'ids', in: 'path', required: true, schema: { type: 'array', items: { type: 'string' } } }],
    });
    const before = provider.requests.length;
    const res = await call({ ids: [] });
    expect(provider.requests.slice(before).map((r) => r.url)).toEqual([]);
    expect(res.status).toBe(400);
  });

  it('keeps a slash-preserving GitHub branch inside repos/get-branch (no reach into get-branch-protection)', async () => {
    // Found by review: request.ts encodePathValue + github engine.yaml: branch 'main/protection' sent by repos/get-branch reaches GET …/branches/main/protection, an operation the SDK did not select.
    const gh = await startFakeProvider((_req, res) => json(res, 200, { protected: true }));
    try {
      const sdk = await publishSdk(t, { name: 'gh-branch', service: 'github', baseUrl: gh.url, secret: 'gh-review-token-91c2', operations: ['repos/get-branch'] });
      const res = await t.execute(sdk.versionId, sdk.token, { operation: 'github.repos/get-branch', input: { owner: 'o', repo: 'r', branch: 'main/protection' } });
      expect(gh.requests.map((r) => r.url)).not.toContain('/repos/o/r/branches/main/protection');
      expect(res.status).toBeGreaterThanOrEqual(400);
    } finally {
      await gh.stop();
    }
  });
});

describe('values serialised other than as declared', () => {
  it('sends a header parameter described by content: application/json as JSON text, a string included', async () => {
    // Found by review: request.ts buildRequest: a string value skips simpleParts, so a JSON-content header gets `abc`, not `"abc"` (query and path send JSON text).
    const { call } = await service({
      path: '/h',
      parameters: [{ name: 'X-Filter', in: 'header', content: { 'application/json': { schema: { type: 'string' } } } }],
    });
    const before = provider.requests.length;
    const res = await call({ 'X-Filter': 'abc' });
    expect(res.body).toMatchObject({ ok: true });
    expect(provider.requests[before]!.headers['x-filter']).toBe('"abc"');
  });

  it('sends an integer of 1e21 or more as its digits, not in exponent form', async () => {
    // Found by review: request.ts scalar: String(1e21) is '1e+21', so an integer parameter reaches the provider as ?n=1e%2B21.
    const { call } = await service({ path: '/n', parameters: [{ name: 'n', in: 'query', schema: { type: 'integer' } }] });
    const before = provider.requests.length;
    const res = await call({ n: 1e21 });
    expect(res.body).toMatchObject({ ok: true });
    expect(provider.requests[before]!.url).toBe('/n?n=1000000000000000000000');
  });
});

describe('pages after the first', () => {
  it('sends the query-string API key on a Link-header page whose next link does not repeat it', async () => {
    // Found by review: index.ts traverse: the next link replaces the URL wholesale, so a query-string credential is dropped from page 2 (a header credential is kept).
    const { name, call } = await service({ path: '/paged', auth: { type: 'api_key', in: 'query', name: 'access_token' }, parameters: [] });
    const op = t.engine.deps.catalog.operation(name, 'v1', `${name}.op`)!;
    op.pagination = { style: 'link_header', items: '', engineMaxPages: 5, callerBound: true } as NonNullable<typeof op.pagination>;
    const before = provider.requests.length;
    const res = await call({});
    const sent = provider.requests.slice(before);
    expect(sent.length).toBe(2);
    expect(sent.map((r) => new URL(r.url, 'http://x').searchParams.getAll('access_token'))).toEqual([[QUERY_KEY], [QUERY_KEY]]);
    expect(res.body).toMatchObject({ ok: true, data: [{ page: 1 }, { page: 2 }] });
  });

  it("answers a provider cursor that cannot be sent (a lone surrogate) as the provider's fault, not the caller's input", async () => {
    // Found by review: index.ts traverse: buildRequest's ENGINE_INVALID_INPUT for the provider's cursor escapes as a 400 blaming input/starting_after, with the read page dropped from the receipt.
    const crm = await startFakeProvider((_req, res) => json(res, 200, { data: [{ id: 'con_\ud800' }], has_more: true }));
    try {
      const sdk = await publishSdk(t, { name: 'crm-cursor', service: 'demo-crm', baseUrl: crm.url, secret: 'crm-review-key-77ab', operations: ['contacts/list'] });
      const res = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/list', input: {} });
      expect(crm.requests.length).toBe(1);
      expect(res.body).toMatchObject({ ok: false, status: 502, error: { code: 'PROVIDER_ERROR' } });
    } finally {
      await crm.stop();
    }
  });
});

describe('continuations that go nowhere, and values a path or header cannot hold', () => {
  // Found by review: a provider repeating its cursor or next link was read again until the page limit (a misleading 413).
  it('stops at once when the cursor or the next link does not change', async () => {
    const crm = await startFakeProvider((_req, res) => json(res, 200, { data: [{ id: 'con_1' }], has_more: true }));
    try {
      const sdk = await publishSdk(t, { name: 'crm-loop', service: 'demo-crm', baseUrl: crm.url, secret: 'crm-loop-key-3e1d', operations: ['contacts/list'] });
      const res = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/list', input: {} });
      expect(crm.requests.map((r) => r.url)).toEqual(['/v1/contacts', '/v1/contacts?starting_after=con_1']);
      expect(res.body).toMatchObject({ ok: false, status: 502, error: { code: 'PROVIDER_ERROR', details: { page: 2 } } });
      expect(res.body.error.message).toContain('leads back to itself');
    } finally {
      await crm.stop();
    }
    const { name, call } = await service({ path: '/loop', parameters: [] });
    const op = t.engine.deps.catalog.operation(name, 'v1', `${name}.op`)!;
    op.pagination = { style: 'link_header', items: '', engineMaxPages: 5, callerBound: true } as NonNullable<typeof op.pagination>;
    const before = provider.requests.length;
    const looped = await call({});
    expect(provider.requests.length - before).toBe(1); // its next link is itself
    expect(looped.body).toMatchObject({ ok: false, status: 502, error: { code: 'PROVIDER_ERROR', details: { page: 1 } } });
  });

  // Found by review: a null path value was sent as the text 'null' (a resource of that name), a null header as 'null';
  // a slash-preserving value with an empty segment named another path.
  it('refuses null and empty-segment path values, and leaves a null header out', async () => {
    const { call } = await service({
      path: '/things/{id}',
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: ['string', 'null'] } },
        { name: 'X-Tag', in: 'header', schema: { type: ['string', 'null'] } },
      ],
    });
    const before = provider.requests.length;
    const nullPath = await call({ id: null });
    expect(nullPath.status).toBe(400);
    expect(provider.requests.length).toBe(before);
    const nullHeader = await call({ id: 'a', 'X-Tag': null });
    expect(nullHeader.body).toMatchObject({ ok: true });
    expect(provider.requests[before]!.headers['x-tag']).toBeUndefined();

    const files = await startFakeProvider((_req, res) => json(res, 200, { name: 'f' }));
    try {
      const sdk = await publishSdk(t, { name: 'crm-files', service: 'demo-crm', baseUrl: files.url, secret: 'crm-files-key-0b7c', operations: ['files/get'] });
      for (const name of ['/etc/passwd', 'reports/', 'reports//q1.txt']) {
        const res = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.files/get', input: { name } });
        expect(res.status, name).toBe(400);
      }
      expect(files.requests).toEqual([]);
      expect((await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.files/get', input: { name: 'reports/2026/q1.txt' } })).body).toMatchObject({ ok: true });
      expect(files.requests.map((r) => r.url)).toEqual(['/v1/files/reports/2026/q1.txt']);
    } finally {
      await files.stop();
    }
  });
});
