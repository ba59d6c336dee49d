// Stripe as a first-class provider (spec/services/stripe/v1/engine.yaml) against a fake Stripe on
// loopback (test/fixtures/providers/stripe.ts): customers paged to the end by starting_after (the
// last item's id) and searches by next_page, the Engine's limit and a caller bound, a customer
// created as a form with nested metadata, Stripe's errors answered in the envelope, and the same
// calls through MCP execute. The secret key is a canary: no answer or log line may carry it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishApps, withMcpClient } from '../fixtures/providers/app.ts';
import { startStripe, type FakeStripe } from '../fixtures/providers/stripe.ts';

const SECRET_KEY = 'sk_test_canary_51Hx9c0ffee';
const OPERATIONS = ['GetCustomers', 'GetCustomersSearch', 'GetCustomersCustomer', 'PostCustomers'];

let t: TestEngine;
let stripe: FakeStripe;
let sdk: { versionId: string; token: string };
let mcp: { url: string; token: string };

beforeAll(async () => {
  stripe = await startStripe({ secretKey: SECRET_KEY, customers: 25 });
  t = await startTestEngine();
  t.canaries.push(SECRET_KEY);
  await pointService(t, 'stripe', stripe.provider.url, SECRET_KEY);
  ({ sdk, mcp } = await publishApps(t, 'billing', { services: ['stripe=v1'], operations: OPERATIONS.map((op) => `stripe=${op}`) }));
});
afterAll(async () => {
  await t?.stop();
  await stripe?.stop();
});

const call = (operation: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => t.execute(sdk.versionId, sdk.token, { operation: `stripe.${operation}`, input, ...extra });
const sent = (from: number) => stripe.provider.requests.slice(from);
const query = (from: number, name: string) => sent(from).map((r) => new URL(r.url, 'http://x').searchParams.get(name));

describe('stripe: paging', () => {
  it('pages customers to the end, each page starting after the last id of the one before, with the key as Bearer', async () => {
    const before = stripe.provider.requests.length;
    const res = await call('GetCustomers', { limit: 10 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 200, error: null, data: { object: 'list', has_more: false } });
    expect(res.body.data.data.map((c: any) => c.id)).toEqual(stripe.customers.map((c) => c.id));
    expect(res.body.data.data).toHaveLength(25);
    expect(query(before, 'starting_after')).toEqual([null, stripe.customers[9]!.id, stripe.customers[19]!.id]);
    expect(sent(before).every((r) => r.headers.authorization === `Bearer ${SECRET_KEY}`)).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain(SECRET_KEY);
  });

  it('stops at a caller bound with the continuation that reads on, and refuses a bound at the Engine limit', async () => {
    const first = await call('GetCustomers', { limit: 10 }, { pagination: { maxPages: 2 } });
    expect(first.body.data.data).toHaveLength(20);
    expect(first.body.continuation).toEqual({ more: true, input: { starting_after: stripe.customers[19]!.id } });
    const rest = await call('GetCustomers', { limit: 10, ...first.body.continuation.input });
    expect(rest.body.data.data.map((c: any) => c.id)).toEqual(stripe.customers.slice(20).map((c) => c.id));
    const before = stripe.provider.requests.length;
    const refused = await call('GetCustomers', {}, { pagination: { maxPages: 20 } });
    expect(refused.body.error).toMatchObject({ code: 'ENGINE_PAGINATION_INVALID', details: { engine_max_pages: 20 } });
    expect(stripe.provider.requests.length).toBe(before);
  });

  it('answers ENGINE_PAGINATION_LIMIT past 20 pages rather than a silent part of the list', async () => {
    const before = stripe.provider.requests.length;
    const res = await call('GetCustomers', { limit: 1 });
    expect(res.body).toMatchObject({ ok: false, error: { code: 'ENGINE_PAGINATION_LIMIT', details: { pages: 20, engine_max_pages: 20 } } });
    expect(stripe.provider.requests.length - before).toBe(20);
  });

  it('pages a search by next_page until has_more is false', async () => {
    const before = stripe.provider.requests.length;
    const res = await call('GetCustomersSearch', { query: 'created>0', limit: 10 });
    expect(res.body).toMatchObject({ ok: true, data: { object: 'search_result', has_more: false, next_page: null } });
    expect(res.body.data.data).toHaveLength(25);
    const pages = query(before, 'page');
    expect(pages[0]).toBeNull();
    expect(pages.slice(1)).toEqual([expect.any(String), expect.any(String)]);
  });
});

describe('stripe: writes and errors', () => {
  it('creates a customer as a form, nested metadata in brackets', async () => {
    const res = await call('PostCustomers', { body: { email: 'ada@example.test', name: 'Ada Lovelace', metadata: { plan: 'pro', 'team size': '12' } } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ object: 'customer', email: 'ada@example.test', name: 'Ada Lovelace', metadata: { plan: 'pro', 'team size': '12' } });
    const write = stripe.provider.requests.at(-1)!;
    expect(write.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(stripe.forms.at(-1)).toEqual({ email: 'ada@example.test', name: 'Ada Lovelace', 'metadata[plan]': 'pro', 'metadata[team size]': '12' });
    const found = await call('GetCustomersCustomer', { customer: res.body.data.id });
    expect(found.body.data.name).toBe('Ada Lovelace');
  });

  it("answers Stripe's error body in the envelope: a missing customer, a refused field, a refused key", async () => {
    const missing = await call('GetCustomersCustomer', { customer: 'cus_nope' });
    expect(missing.body).toMatchObject({ ok: false, status: 404, error: { code: 'PROVIDER_ERROR', details: { providerBody: { error: { type: 'invalid_request_error', code: 'resource_missing', message: "No such customer: 'cus_nope'" } } } } });
    const invalid = await call('PostCustomers', { body: { email: 'not-an-email' } });
    expect(invalid.body).toMatchObject({ ok: false, status: 400, error: { code: 'PROVIDER_ERROR', details: { providerBody: { error: { param: 'email', code: 'email_invalid' } } } } });
    // The Engine's own check runs first: a property the description does not have never reaches Stripe.
    const before = stripe.provider.requests.length;
    const unknown = await call('PostCustomers', { body: { emial: 'x@example.test' } });
    expect(unknown.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT' });
    expect(stripe.provider.requests.length).toBe(before);
    expect((await t.api('PUT', '/v1/buckets/default/secrets/stripe', { value: 'sk_test_wrong_canary_77' })).status).toBe(204);
    t.canaries.push('sk_test_wrong_canary_77');
    try {
      const refused = await call('GetCustomers', { limit: 1 }, { pagination: { maxPages: 1 } });
      expect(refused.body).toMatchObject({ ok: false, status: 401, error: { code: 'PROVIDER_ERROR', details: { providerBody: { error: { type: 'invalid_request_error' } } } } });
      expect(JSON.stringify(refused.body)).not.toContain('sk_test_wrong_canary_77');
    } finally {
      expect((await t.api('PUT', '/v1/buckets/default/secrets/stripe', { value: SECRET_KEY })).status).toBe(204);
    }
  });
});

describe('stripe: through MCP execute', () => {
  it('creates a customer and finds it by email from one script; search_docs offers the operation', async () => {
    await withMcpClient(mcp, async (client) => {
      const code = `
        const made = await call("stripe.PostCustomers", { body: { email: "grace@example.test", name: "Grace Hopper", metadata: { source: "mcp" } } });
        const found = await call("stripe.GetCustomers", { email: "grace@example.test" });
        const all = await call("stripe.GetCustomers", { limit: 100 });
        const missing = await call("stripe.GetCustomersCustomer", { customer: "cus_gone" });
        return { id: made.data.id, found: found.data.data.map((c) => c.id), total: all.data.data.length, error: missing.error.code, type: missing.error.details.providerBody.error.type };`;
      const result = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
      expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
      const made = stripe.customers.find((c) => c.email === 'grace@example.test')!;
      expect(made.metadata).toEqual({ source: 'mcp' });
      expect(result.structuredContent.result).toEqual({ id: made.id, found: [made.id], total: stripe.customers.length, error: 'PROVIDER_ERROR', type: 'invalid_request_error' });
      const search = (await client.callTool({ name: 'search_docs', arguments: { query: 'list stripe customers' } })) as any;
      expect(search.structuredContent.results.map((r: any) => r.operationId)).toContain('stripe.GetCustomers');
      expect(JSON.stringify(result)).not.toContain(SECRET_KEY);
    });
  });
});
