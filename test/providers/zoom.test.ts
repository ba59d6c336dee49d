// Zoom as a first-class provider (spec/services/zoom/v1/engine.yaml) against a fake Zoom on
// loopback (test/fixtures/providers/zoom.ts): next_page_token and page_number lists to the end and
// under a caller bound, a meeting created, Zoom's { code, message } errors in the envelope, and an
// end user's OAuth connection whose token requests authenticate the client with HTTP Basic (code
// exchange, refresh after a 401, revocation on delete).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startZoom, type FakeZoom } from '../fixtures/providers/zoom.ts';

const TOKEN = 'zoom-canary-s2s-token-41d2';
const CLIENT = { id: 'zoom-client-1', secret: 'canary-zoom-client-secret+/=' };
const OPERATIONS = ['users', 'webinars', 'meetings', 'meetingCreate', 'sendaChatMessage'];

let t: TestEngine;
let zoom: FakeZoom;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  zoom = await startZoom({ token: TOKEN, users: 7, webinars: 5, client: CLIENT });
  t = await startTestEngine();
  t.canaries.push(CLIENT.secret);
  sdk = await publishSdk(t, { name: 'zoom-app', service: 'zoom', baseUrl: zoom.apiUrl, secret: TOKEN, operations: OPERATIONS });
  expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/zoom', { clientId: CLIENT.id, clientSecret: CLIENT.secret })).status).toBe(204);
});
afterAll(async () => {
  await t?.stop();
  await zoom?.stop();
});

const call = (operation: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => t.execute(sdk.versionId, sdk.token, { operation: `zoom.${operation}`, input, ...extra });
const sent = (from: number) => zoom.provider.requests.slice(from).map((r) => new URL(r.url, 'http://x'));

describe('zoom: paging', () => {
  it('pages users by next_page_token until Zoom gives an empty one', async () => {
    const before = zoom.provider.requests.length;
    const res = await call('users', { page_size: 3 });
    expect(res.body).toMatchObject({ ok: true, status: 200, error: null, data: { next_page_token: '' } });
    expect(res.body.data.users.map((u: any) => u.id)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7']);
    expect(sent(before).map((u) => u.searchParams.get('next_page_token'))).toEqual([null, 'p3', 'p6']);
    expect(zoom.provider.requests.slice(before).every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('stops at a caller bound with the next_page_token to continue from', async () => {
    const res = await call('users', { page_size: 3 }, { pagination: { maxPages: 1 } });
    expect(res.body.data.users).toHaveLength(3);
    expect(res.body.continuation).toEqual({ more: true, input: { next_page_token: 'p3' } });
    const rest = await call('users', { page_size: 3, ...res.body.continuation.input });
    expect(rest.body.data.users.map((u: any) => u.id)).toEqual(['u4', 'u5', 'u6', 'u7']);
  });

  it('pages webinars by page_number and stops at page_count', async () => {
    const before = zoom.provider.requests.length;
    const res = await call('webinars', { userId: 'me', page_size: 2 });
    expect(res.body.data.webinars).toHaveLength(5);
    expect(sent(before).map((u) => u.searchParams.get('page_number'))).toEqual([null, '2', '3']);
  });

  it('answers an invalid next_page_token with Zoom\'s { code, message }', async () => {
    const res = await call('users', { next_page_token: 'bogus' });
    expect(res.body).toMatchObject({ ok: false, status: 400, error: { code: 'PROVIDER_ERROR', details: { page: 1, providerBody: { code: 300, message: expect.stringContaining('next page token') } } } });
  });
});

describe('zoom: writes and errors', () => {
  it('creates a meeting and lists it', async () => {
    const res = await call('meetingCreate', { userId: 'me', body: { topic: 'Weekly sync', type: 2, duration: 30 } });
    expect(res.body).toMatchObject({ ok: true, status: 201, data: { topic: 'Weekly sync', host_id: 'u1', join_url: expect.stringContaining('/j/') } });
    const listed = await call('meetings', { userId: 'me' });
    expect(listed.body.data.meetings.map((m: any) => m.topic)).toContain('Weekly sync');
  });

  it('answers Zoom\'s 404 { code: 1001 } in the envelope', async () => {
    const res = await call('meetingCreate', { userId: 'nobody@example.test', body: { topic: 'x' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, status: 404, data: null, error: { code: 'PROVIDER_ERROR', retryable: false, details: { providerBody: { code: 1001, message: 'User does not exist: nobody@example.test.' } } } });
  });
});

describe('zoom: an end user\'s OAuth connection', () => {
  it('connects with the client as HTTP Basic, sends a chat message as the end user, refreshes after a 401 and revokes on delete', async () => {
    const started = await t.api('POST', '/v1/connections', { service: 'zoom', endUserRef: 'bob' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const authorize = new URL(started.body.authorizeUrl);
    // zoom.us/oauth/authorize, moved to where the workspace points zoom (the fake).
    expect(authorize.origin + authorize.pathname).toBe(`${zoom.provider.url}/oauth/authorize`);
    const redirect = await fetch(authorize, { redirect: 'manual' });
    expect((await fetch(redirect.headers.get('location')!)).status).toBe(200);
    expect(zoom.issued).toHaveLength(1);
    const exchange = zoom.provider.requests.find((r) => r.url === '/oauth/token')!;
    expect(exchange.headers.authorization).toMatch(/^Basic /);
    expect(new URLSearchParams(exchange.body).has('client_secret')).toBe(false);
    t.canaries.push(zoom.issued[0]!.token);

    const sentMessage = await call('sendaChatMessage', { userId: 'me', body: { message: 'Standup moved to 10:30', to_channel: 'ch_general' } }, { selectors: { endUserRef: 'bob' } });
    expect(sentMessage.body).toMatchObject({ ok: true, status: 201, data: { id: expect.any(String) } });
    expect(zoom.chat.at(-1)).toMatchObject({ message: 'Standup moved to 10:30', to_channel: 'ch_general', from: 'u2' });

    // Zoom's access tokens last an hour; one it no longer takes is refreshed once and the call retried.
    zoom.expire(zoom.issued[0]!.token);
    const again = await call('sendaChatMessage', { userId: 'me', body: { message: 'again', to_contact: 'user3@example.test' } }, { selectors: { endUserRef: 'bob' } });
    expect(again.body).toMatchObject({ ok: true, status: 201 });
    expect(zoom.issued).toHaveLength(2);
    t.canaries.push(zoom.issued[1]!.token);
    const refresh = zoom.provider.requests.filter((r) => r.url === '/oauth/token').at(-1)!;
    expect(new URLSearchParams(refresh.body).get('grant_type')).toBe('refresh_token');
    expect(refresh.headers.authorization).toMatch(/^Basic /);

    const connection = (await t.api('GET', '/v1/connections?service=zoom')).body.connections?.find((c: any) => c.endUserRef === 'bob') ?? (await t.engine.store.getConnection('zoom', 'bob', 'default'));
    const deleted = await t.api('DELETE', `/v1/connections/${connection.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.revocation).toEqual({ revoked: true });
    expect(zoom.revoked).toHaveLength(1);
    const gone = await call('sendaChatMessage', { userId: 'me', body: { message: 'x', to_channel: 'ch_general' } }, { selectors: { endUserRef: 'bob' } });
    expect(gone.body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');
  });

  it('a chat message without a destination is Zoom\'s 400 { code: 300 }', async () => {
    const res = await call('sendaChatMessage', { userId: 'me', body: { message: 'lost' } });
    expect(res.body).toMatchObject({ ok: false, status: 400, error: { code: 'PROVIDER_ERROR', details: { providerBody: { code: 300 } } } });
  });
});
