// HubSpot CRM as a first-class provider (spec/services/hubspot-crm/v1/engine.yaml) against a fake
// HubSpot on loopback (test/fixtures/providers/hubspot-crm.ts): contacts paged to the end by
// paging.next.after, a caller bound and the Engine's limit, a contact created, HubSpot's errors in
// the envelope, and an end user's OAuth connection made at the fake's authorize and token
// endpoints. The private app token and the OAuth client secret are canaries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startHubSpot, type FakeHubSpot } from '../fixtures/providers/hubspot-crm.ts';

const TOKEN = 'pat-na1-canary-hubspot-0b7c';
const CLIENT = { id: 'hubspot-client-1', secret: 'canary-hubspot-client-secret-3e1d' };

let t: TestEngine;
let hubspot: FakeHubSpot;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  hubspot = await startHubSpot({ token: TOKEN, contacts: 23, client: CLIENT });
  t = await startTestEngine();
  t.canaries.push(TOKEN, CLIENT.secret);
  await pointService(t, 'hubspot-crm', hubspot.provider.url, TOKEN);
  expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/hubspot-crm', { clientId: CLIENT.id, clientSecret: CLIENT.secret })).status).toBe(204);
  const published = await t.api('POST', '/v1/sdks/publish', { name: 'crm-sync', services: ['hubspot-crm=v1'], operations: ['hubspot-crm=contacts/*'] });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  sdk = published.body;
  t.canaries.push(sdk.token);
});
afterAll(async () => {
  await t?.stop();
  await hubspot?.stop();
});

const call = (operation: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => t.execute(sdk.versionId, sdk.token, { operation: `hubspot-crm.${operation}`, input, ...extra });
const sent = (from: number) => hubspot.provider.requests.slice(from).map((r) => ({ url: new URL(r.url, 'http://x'), authorization: r.headers.authorization }));

describe('hubspot-crm: paging', () => {
  it('pages contacts to the end by paging.next.after, asking for the same properties on every page', async () => {
    const before = hubspot.provider.requests.length;
    const res = await call('contacts/list', { limit: 10, properties: ['email', 'firstname'] });
    expect(res.body).toMatchObject({ ok: true, status: 200, error: null });
    expect(res.body.data.results.map((c: any) => c.id)).toEqual(hubspot.objects.contacts.map((c) => c.id));
    expect(res.body.data.paging).toBeUndefined();
    expect(res.body.data.results[0].properties).toMatchObject({ email: 'contact1@example.test', firstname: 'First1' });
    const urls = sent(before);
    expect(urls.map((u) => u.url.searchParams.get('after'))).toEqual([null, hubspot.objects.contacts[10]!.id, hubspot.objects.contacts[20]!.id]);
    expect(urls.every((u) => u.url.searchParams.get('properties') === 'email,firstname' && u.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('stops at a caller bound with the cursor that reads on, and at the Engine limit with an error', async () => {
    const first = await call('contacts/list', { limit: 5 }, { pagination: { maxPages: 2 } });
    expect(first.body.data.results).toHaveLength(10);
    expect(first.body.continuation).toEqual({ more: true, input: { after: hubspot.objects.contacts[10]!.id } });
    const rest = await call('contacts/list', { limit: 5, ...first.body.continuation.input });
    expect(rest.body.data.results.map((c: any) => c.id)).toEqual(hubspot.objects.contacts.slice(10).map((c) => c.id));
    const limited = await call('contacts/list', { limit: 1 });
    expect(limited.body).toMatchObject({ ok: false, error: { code: 'ENGINE_PAGINATION_LIMIT', details: { engine_max_pages: 20 } } });
  });
});

describe('hubspot-crm: writes and errors', () => {
  it('creates a contact, then answers HubSpot\'s conflict and not-found bodies in the envelope', async () => {
    const made = await call('contacts/create', { body: { properties: { email: 'new@example.test', firstname: 'New', lastname: 'Person' } } });
    expect(made.body).toMatchObject({ ok: true, status: 201, data: { properties: { email: 'new@example.test', firstname: 'New' } } });
    expect(hubspot.objects.contacts.at(-1)!.properties).toEqual({ email: 'new@example.test', firstname: 'New', lastname: 'Person' });
    const again = await call('contacts/create', { body: { properties: { email: 'new@example.test' } } });
    expect(again.body).toMatchObject({ ok: false, status: 409, error: { code: 'PROVIDER_ERROR', details: { providerBody: { status: 'error', category: 'CONFLICT', message: `Contact already exists. Existing ID: ${made.body.data.id}` } } } });
    const missing = await call('contacts/get', { contactId: '999999' });
    expect(missing.body).toMatchObject({ ok: false, status: 404, error: { code: 'PROVIDER_ERROR', details: { providerBody: { category: 'OBJECT_NOT_FOUND', correlationId: expect.any(String) } } } });
    const updated = await call('contacts/update', { contactId: made.body.data.id, body: { properties: { lastname: 'Renamed' } } });
    expect(updated.body.data.properties.lastname).toBe('Renamed');
    expect((await call('contacts/archive', { contactId: made.body.data.id })).body).toMatchObject({ ok: true, status: 204 });
  });
});

describe('hubspot-crm: an end user\'s OAuth connection', () => {
  it('connects at the authorize and token endpoints with the CRM scopes, then calls with the end user\'s token', async () => {
    const started = await t.api('POST', '/v1/connections', { service: 'hubspot-crm', endUserRef: 'alice' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const authorize = new URL(started.body.authorizeUrl);
    // HubSpot's authorize URL (app.hubspot.com), moved to where the workspace points the service.
    expect(authorize.origin + authorize.pathname).toBe(`${hubspot.provider.url}/oauth/authorize`);
    expect(authorize.searchParams.get('scope')!.split(' ')).toEqual(expect.arrayContaining(['crm.objects.contacts.read', 'crm.objects.contacts.write']));
    expect(authorize.searchParams.get('client_id')).toBe(CLIENT.id);
    const redirect = await fetch(authorize, { redirect: 'manual' });
    const callback = await fetch(redirect.headers.get('location')!);
    expect(callback.status).toBe(200);
    expect(hubspot.issued).toHaveLength(1);
    t.canaries.push(hubspot.issued[0]!);
    const exchange = hubspot.provider.requests.find((r) => r.url === '/oauth/v1/token')!;
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).toMatchObject({ grant_type: 'authorization_code', client_id: CLIENT.id, client_secret: CLIENT.secret });

    const before = hubspot.provider.requests.length;
    const res = await call('contacts/list', { limit: 100 }, { selectors: { endUserRef: 'alice' } });
    expect(res.body).toMatchObject({ ok: true });
    expect(sent(before).map((r) => r.authorization)).toEqual([`Bearer ${hubspot.issued[0]}`]);
    // Without a connection, the end user's call is refused before HubSpot sees it.
    const none = await call('contacts/list', {}, { selectors: { endUserRef: 'bob' } });
    expect(none.body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_MISSING' });
    expect(hubspot.provider.requests.length).toBe(before + 1);
  });
});
