// Slash-preserving and plain path parameters, asserted on the exact request line the provider receives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let t: TestEngine;
let provider: FakeProvider;
let crm: { versionId: string; token: string };
let gh: { versionId: string; token: string };

beforeAll(async () => {
  // List operations are paginated, so they get an array (one page, no Link header).
  provider = await startFakeProvider((req, res) => json(res, 200, /\/(issues|deals)\b/.test(req.url) ? (req.url.includes('/deals') ? { data: [], has_more: false } : []) : { ok: true, url: req.url }));
  t = await startTestEngine();
  crm = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: provider.url, secret: 's1', operations: ['files/get', 'files/upload', 'deals/list'] });
  gh = await publishSdk(t, { name: 'gh', service: 'github', baseUrl: `${provider.url}/api/v3`, secret: 's2', operations: ['repos/get-content', 'repos/get', 'issues/list-for-repo'] });
});

afterAll(async () => {
  await t.stop();
  await provider.stop();
});

async function requestLine(sdk: { versionId: string; token: string }, operation: string, input: object) {
  const before = provider.requests.length;
  const res = await t.execute(sdk.versionId, sdk.token, { operation, input });
  expect(res.body.error).toBeNull();
  expect(provider.requests.length).toBe(before + 1);
  const req = provider.requests.at(-1)!;
  return `${req.method} ${req.url}`;
}

describe('path encoding', () => {
  it('keeps "/" in a slash-preserving resource name and escapes everything else', async () => {
    expect(await requestLine(crm, 'demo-crm.files/get', { name: 'reports/2026/q1.txt' })).toBe('GET /v1/files/reports/2026/q1.txt');
    expect(await requestLine(crm, 'demo-crm.files/get', { name: 'a b/c#d?e%f/ü&=+' })).toBe('GET /v1/files/a%20b/c%23d%3Fe%25f/%C3%BC%26%3D%2B');
    expect(await requestLine(crm, 'demo-crm.files/upload', { name: 'x/y z', body: { content: 'hi' } })).toBe('PUT /v1/files/x/y%20z');
  });

  it('keeps "/" for GitHub repos/get-content under a base URL with a path prefix', async () => {
    expect(await requestLine(gh, 'github.repos/get-content', { owner: 'acme', repo: 'web', path: 'docs/read me.md', ref: 'main' })).toBe(
      'GET /api/v3/repos/acme/web/contents/docs/read%20me.md?ref=main',
    );
  });

  it('escapes "/" in a plain path parameter', async () => {
    expect(await requestLine(gh, 'github.repos/get', { owner: 'a/b', repo: 'c?d' })).toBe('GET /api/v3/repos/a%2Fb/c%3Fd');
  });

  it('encodes query parameters, including arrays and reserved characters', async () => {
    expect(await requestLine(gh, 'github.issues/list-for-repo', { owner: 'o', repo: 'r', labels: 'bug,ui', state: 'open', per_page: 50 })).toBe(
      'GET /api/v3/repos/o/r/issues?state=open&labels=bug%2Cui&per_page=50',
    );
    expect(await requestLine(crm, 'demo-crm.deals/list', { contact_id: 'con_1&x=y' })).toMatch(/^GET \/v1\/deals\?contact_id=con_1%26x%3Dy$/);
  });

  it.each(['..', 'a/../b', './x', 'a/./b'])('refuses the dot segment path %s before dispatch', async (name) => {
    const before = provider.requests.length;
    const res = await t.execute(crm.versionId, crm.token, { operation: 'demo-crm.files/get', input: { name } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('ENGINE_INVALID_INPUT');
    expect(provider.requests.length).toBe(before);
  });

  it('refuses a dot segment in a plain path parameter', async () => {
    const res = await t.execute(gh.versionId, gh.token, { operation: 'github.repos/get', input: { owner: '..', repo: 'x' } });
    expect(res.status).toBe(400);
  });
});
