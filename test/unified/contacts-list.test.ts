// unified.contacts.list (spec/unified/contacts.list.yaml) over three providers: demo-crm contacts,
// HubSpot contacts and Stripe customers, each a real HTTP server on loopback (src/demo-provider,
// test/fixtures/providers/hubspot-crm.ts and stripe.ts), through REST and MCP execute: every page
// of each target joined into one list, names falling back to the email, a bound per target, and a
// provider's failure reported on its step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishApps, withMcpClient } from '../fixtures/providers/app.ts';
import { startHubSpot, type FakeHubSpot } from '../fixtures/providers/hubspot-crm.ts';
import { startStripe, type FakeStripe } from '../fixtures/providers/stripe.ts';

const HUBSPOT_TOKEN = 'pat-na1-canary-unified-71c2';
const STRIPE_KEY = 'sk_test_canary_unified_9d04';

let t: TestEngine;
let crm: DemoProvider;
let hubspot: FakeHubSpot;
let stripe: FakeStripe;
let sdk: { versionId: string; token: string };
let mcp: { url: string; token: string };

beforeAll(async () => {
  crm = await startDemoProvider();
  hubspot = await startHubSpot({ token: HUBSPOT_TOKEN, contacts: 130 });
  stripe = await startStripe({ secretKey: STRIPE_KEY, customers: 12 });
  t = await startTestEngine();
  t.canaries.push(crm.apiKey, HUBSPOT_TOKEN, STRIPE_KEY);
  await pointService(t, 'demo-crm', crm.url, crm.apiKey);
  await pointService(t, 'hubspot-crm', hubspot.provider.url, HUBSPOT_TOKEN);
  await pointService(t, 'stripe', stripe.provider.url, STRIPE_KEY);
  ({ sdk, mcp } = await publishApps(t, 'contacts', { services: ['demo-crm=v1', 'hubspot-crm=v1', 'stripe=v1'], operations: ['unified=contacts.list'] }));
});
afterAll(async () => {
  await t?.stop();
  await Promise.all([crm?.stop(), hubspot?.stop(), stripe?.stop()]);
});

const rest = (body: Record<string, unknown>) => t.execute(sdk.versionId, sdk.token, { operation: 'unified.contacts.list', ...body });

describe('unified.contacts.list', () => {
  it('lists every contact of the three targets as one list, each read to its last page', async () => {
    const hubspotBefore = hubspot.provider.requests.length;
    const res = await rest({ input: {}, targets: ['crm', 'hubspot', 'stripe'] });
    expect(res.status).toBe(200);
    expect(res.body.ok, JSON.stringify(res.body.error)).toBe(true);
    const contacts = res.body.data.output.contacts as { provider: string; id: string; name: string; email?: string }[];
    const of = (provider: string) => contacts.filter((c) => c.provider === provider);
    expect(of('crm').map((c) => c.id)).toEqual(crm.contacts.map((c) => c.id));
    expect(of('hubspot').map((c) => c.id)).toEqual(hubspot.objects.contacts.map((c) => c.id));
    expect(of('stripe').map((c) => c.id)).toEqual(stripe.customers.map((c) => c.id));
    // HubSpot at 100 a page: two pages, the second after paging.next.after.
    expect(hubspot.provider.requests.length - hubspotBefore).toBe(2);
    expect(of('hubspot')[0]).toEqual({ provider: 'hubspot', id: hubspot.objects.contacts[0]!.id, name: 'First1 Last1', email: 'contact1@example.test' });
    // A record with no name is named by its email.
    expect(of('hubspot')[3]).toEqual({ provider: 'hubspot', id: hubspot.objects.contacts[3]!.id, name: 'lead4@example.test', email: 'lead4@example.test' });
    const nameless = stripe.customers.find((c) => c.name === null)!;
    expect(of('stripe').find((c) => c.id === nameless.id)).toEqual({ provider: 'stripe', id: nameless.id, name: nameless.email, email: nameless.email });
    expect(res.body.data.steps.map((s: any) => [s.target, s.operation, s.status])).toEqual([
      ['crm', 'demo-crm.contacts/list', 'succeeded'],
      ['hubspot', 'hubspot-crm.contacts/list', 'succeeded'],
      ['stripe', 'stripe.GetCustomers', 'succeeded'],
    ]);
    for (const secret of [HUBSPOT_TOKEN, STRIPE_KEY, crm.apiKey]) expect(JSON.stringify(res.body)).not.toContain(secret);
  });

  it('pages one target under its own bound and hands back where it stopped', async () => {
    const res = await rest({ input: {}, targets: ['hubspot', 'stripe'], pagination: { hubspot: { maxPages: 1 } } });
    expect(res.body.ok).toBe(true);
    const contacts = res.body.data.output.contacts as { provider: string }[];
    expect(contacts.filter((c) => c.provider === 'hubspot')).toHaveLength(100);
    expect(contacts.filter((c) => c.provider === 'stripe')).toHaveLength(stripe.customers.length);
    const step = res.body.data.steps.find((s: any) => s.target === 'hubspot');
    expect(step.continuation).toEqual({ more: true, input: { after: hubspot.objects.contacts[100]!.id } });
  });

  it("reports a provider's refusal on its step, with the other target's answer still there", async () => {
    expect((await t.api('PUT', '/v1/buckets/default/secrets/stripe', { value: 'sk_test_revoked_canary_5e' })).status).toBe(204);
    t.canaries.push('sk_test_revoked_canary_5e');
    try {
      const res = await rest({ input: {}, targets: ['hubspot', 'stripe'] });
      expect(res.body).toMatchObject({ ok: false, status: 401, error: { code: 'UNIFIED_STEP_FAILED' } });
      expect(res.body.data.steps).toEqual([
        expect.objectContaining({ target: 'hubspot', status: 'succeeded', httpStatus: 200 }),
        expect.objectContaining({ target: 'stripe', status: 'failed', httpStatus: 401, dispatched: true }),
      ]);
    } finally {
      expect((await t.api('PUT', '/v1/buckets/default/secrets/stripe', { value: STRIPE_KEY })).status).toBe(204);
    }
  });

  it('runs through MCP execute, and search_docs offers it for listing contacts', async () => {
    await withMcpClient(mcp, async (client) => {
      const code = `
        const all = await call("unified.contacts.list", { input: {}, targets: ["crm", "hubspot", "stripe"] });
        const byProvider = {};
        for (const c of all.data.output.contacts) byProvider[c.provider] = (byProvider[c.provider] ?? 0) + 1;
        return byProvider;`;
      const result = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
      expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
      expect(result.structuredContent.result).toEqual({ crm: crm.contacts.length, hubspot: hubspot.objects.contacts.length, stripe: stripe.customers.length });
      const search = (await client.callTool({ name: 'search_docs', arguments: { query: 'list contacts' } })) as any;
      expect(search.structuredContent.results[0]).toMatchObject({ operationId: 'unified.contacts.list', kind: 'unified' });
    });
  });
});
