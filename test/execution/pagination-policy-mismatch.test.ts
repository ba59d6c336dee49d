// Provider answers that do not fit their pagination policy: the Engine fails the call with
// PROVIDER_ERROR rather than return a partial aggregate as complete, or crash on a bad next link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

const QUERY_KEY = 'gh_query_key_canary_7f31c2';

let t: TestEngine;
let crm: FakeProvider;
let github: FakeProvider;
let crmSdk: { versionId: string; token: string };
let ghSdk: { versionId: string; token: string };
/** What the fake CRM answers on its second page. */
let secondPage: unknown;

beforeAll(async () => {
  crm = await startFakeProvider((req, res) => {
    const after = new URL(req.url, 'http://x').searchParams.get('starting_after');
    json(res, 200, after ? secondPage : { data: [{ id: 'con_1' }], has_more: true });
  });
  github = await startFakeProvider((_req, res) => json(res, 200, [{ id: 1 }], { link: '<http://[bad>; rel="next"' }));
  t = await startTestEngine();
  // A catalog policy that puts the key in the query string (as an operator's catalog entry may),
  // so the request URL the Engine parses the Link against holds the secret.
  const index = t.engine.deps.catalog.get('github', 'v1')!;
  index.auth.splice(0, index.auth.length, { name: 'token', type: 'api_key', in: 'query', param: 'access_token', prefix: '' } as (typeof index.auth)[number]);
  crmSdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: 'crm-key-edges', operations: ['contacts/list'] });
  ghSdk = await publishSdk(t, { name: 'gh', service: 'github', baseUrl: github.url, secret: QUERY_KEY, operations: ['repos/list-for-org'] });
});

afterAll(async () => {
  await t?.stop(); // fails if a canary (the query key among them) reached a log line
  await crm?.stop();
  await github?.stop();
});

const listContacts = () => t.execute(crmSdk.versionId, crmSdk.token, { operation: 'demo-crm.contacts/list', input: {} });

describe('pagination answers that do not match the policy', () => {
  it('fails a cursor traversal whose page says more follow but is empty, instead of returning page 1 as the whole', async () => {
    secondPage = { data: [], has_more: true };
    const before = crm.requests.length;
    const res = await listContacts();
    expect(res.status).toBe(200); // the provider answered
    expect(res.body).toMatchObject({ ok: false, status: 502, data: null, error: { code: 'PROVIDER_ERROR', retryable: false, details: { page: 2 } } });
    expect(res.body.error.message).toContain("no continuation at '/data/-1/id'");
    expect(crm.requests.length - before).toBe(2);
  });

  it('answers a page without the policy\'s item array with the same 502 PROVIDER_ERROR as every other mismatch', async () => {
    secondPage = { items: [{ id: 'con_2' }], has_more: false };
    const res = await listContacts();
    expect(res.status).toBe(200); // the provider answered
    expect(res.body).toMatchObject({ ok: false, status: 502, data: null, error: { code: 'PROVIDER_ERROR', details: { page: 2 } } });
    expect(res.body.error.message).toContain("has no array at '/data'");
  });

  it('refuses a cursor that is an object (it would be spread into other query parameters), and pages nested too deeply to join', async () => {
    secondPage = { data: [{ id: { a: 1 } }], has_more: true };
    const object = await listContacts();
    expect(object.body).toMatchObject({ ok: false, status: 502, error: { code: 'PROVIDER_ERROR', details: { page: 2 } } });
    expect(object.body.error.message).toContain("an object at '/data/-1/id' where the pagination policy expects a cursor");
    let deep: unknown = 'leaf';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    secondPage = { data: [{ id: 'con_2', deep }], has_more: false };
    const nested = await listContacts();
    expect(nested.status).toBe(200);
    // Whichever step meets the depth first (parsing the page or joining the pages), a provider fault, never a 500.
    expect(nested.body).toMatchObject({ ok: false, status: 502, error: { code: 'PROVIDER_ERROR' } });
  });

  it('still ends normally on an empty last page that says nothing follows', async () => {
    secondPage = { data: [], has_more: false };
    const res = await listContacts();
    expect(res.body).toMatchObject({ ok: true, status: 200, data: { data: [{ id: 'con_1' }], has_more: false } });
  });

  it('answers PROVIDER_ERROR for a next link that is not a URL, and logs nothing that holds the query-string key', async () => {
    const res = await t.execute(ghSdk.versionId, ghSdk.token, { operation: 'github.repos/list-for-org', input: { org: 'acme' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, status: 502, error: { code: 'PROVIDER_ERROR', details: { page: 1 } } });
    expect(res.body.error.message).toContain('not a valid URL');
    expect(github.requests[0]!.url).toContain(`access_token=${QUERY_KEY}`); // the key did travel in the URL
    expect(JSON.stringify(res.body)).not.toContain(QUERY_KEY);
    expect(t.logs.join('\n')).not.toContain(QUERY_KEY);
  });
});

describe('log redaction of URL errors', () => {
  it("drops the parsed text and base of Node's URL errors, which may hold a query-string key", async () => {
    const { createLogger } = await import('../../src/log/index.ts');
    const lines: string[] = [];
    const log = createLogger('info', { write: (line: string) => void lines.push(line) });
    let err: unknown;
    try {
      new URL('http://[bad', `http://127.0.0.1/orgs/acme/repos?access_token=${QUERY_KEY}`);
    } catch (e) {
      err = e;
    }
    expect((err as { base?: string }).base).toContain(QUERY_KEY); // what Node attaches
    log.error({ err }, 'request failed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('ERR_INVALID_URL');
    expect(lines[0]).not.toContain(QUERY_KEY);
  });
});

describe('Link header spellings (RFC 8288)', () => {
  let spelled: FakeProvider;
  let sdk: { versionId: string; token: string };

  beforeAll(async () => {
    // Each page spells its next link differently; page 4 has none (prev only), so traversal ends there.
    spelled = await startFakeProvider((req, res) => {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 1);
      const at = (n: number) => `<${spelled.url}/orgs/acme/repos?page=${n}>`;
      const links: Record<number, string> = {
        1: `${at(9)}; rel="last", ${at(2)}; rel="next"`,
        2: `${at(1)}; rel="first", ${at(3)}; title="a, b; c"; rel="last next"`,
        3: `${at(4)};REL=next`,
        4: `${at(3)}; rel="prev"`,
      };
      json(res, 200, [{ id: page }], { link: links[page]! });
    });
    sdk = await publishSdk(t, { name: 'gh-spelled', service: 'github', baseUrl: spelled.url, secret: QUERY_KEY, operations: ['repos/list-for-org'] });
  });
  afterAll(async () => {
    await spelled?.stop();
  });

  it('follows rel=next however it is spelt: among other links, other types, quoted commas, unquoted and in capitals', async () => {
    const res = await t.execute(sdk.versionId, sdk.token, { operation: 'github.repos/list-for-org', input: { org: 'acme' } });
    expect(res.body).toMatchObject({ ok: true, data: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] });
    expect(spelled.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual([null, '2', '3', '4']);
  });
});
