// Google Calendar as a first-class provider (spec/services/google-calendar/v1/engine.yaml) against
// a fake Google on loopback (test/fixtures/providers/google-calendar.ts): an end user's OAuth
// connection (offline access, the calendar scope, PKCE) at the fake's authorize and token
// endpoints; events paged to the end by nextPageToken, a caller bound and the Engine's limit; an
// event inserted; Google's error body in the envelope; the same through MCP execute. Tokens and
// the client secret are canaries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishApps, withMcpClient } from '../fixtures/providers/app.ts';
import { startGoogleCalendar, type FakeGoogleCalendar } from '../fixtures/providers/google-calendar.ts';

const CLIENT = { id: '123-canary.apps.googleusercontent.com', secret: 'GOCSPX-canary-google-secret-4f2a' };
const OPERATIONS = ['calendar.events.list', 'calendar.events.insert', 'calendar.events.get', 'calendar.calendarList.list'];
const alice = { selectors: { endUserRef: 'alice' } };

let t: TestEngine;
let google: FakeGoogleCalendar;
let sdk: { versionId: string; token: string };
let mcp: { url: string; token: string };

beforeAll(async () => {
  google = await startGoogleCalendar({ client: CLIENT, events: 25 });
  t = await startTestEngine();
  t.canaries.push(CLIENT.secret);
  expect((await t.api('PUT', '/v1/workspace/services/google-calendar', { version: 'v1', baseUrl: google.apiUrl })).status).toBe(200);
  expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/google-calendar', { clientId: CLIENT.id, clientSecret: CLIENT.secret })).status).toBe(204);
  const apps = await publishApps(t, 'scheduler', { services: ['google-calendar=v1'], operations: OPERATIONS.map((op) => `google-calendar=${op}`) });
  sdk = apps.sdk;
  // An agent acting for alice: its token is bound to her connection.
  const bound = await t.api('POST', '/v1/mcp/scheduler-agents/tokens', { allow: ['*'], binding: { endUserRef: 'alice' } });
  expect(bound.status, JSON.stringify(bound.body)).toBe(201);
  mcp = { url: apps.mcp.url, token: bound.body.token };
  t.canaries.push(mcp.token);
});
afterAll(async () => {
  await t?.stop();
  await google?.stop();
});

const call = (operation: string, input: Record<string, unknown>, extra: Record<string, unknown> = alice) => t.execute(sdk.versionId, sdk.token, { operation: `google-calendar.${operation}`, input, ...extra });
const sent = (from: number) => google.provider.requests.slice(from).map((r) => ({ url: new URL(r.url, 'http://x'), authorization: r.headers.authorization }));

describe('google-calendar: an end user\'s OAuth connection', () => {
  it('is refused before Google sees anything while the end user has no connection', async () => {
    const before = google.provider.requests.length;
    const res = await call('calendar.events.list', { calendarId: 'primary' });
    expect(res.body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_MISSING', message: expect.stringContaining("no google-calendar connection for end user 'alice'") });
    expect(google.provider.requests.length).toBe(before);
  });

  it('connects at the authorize and token endpoints with offline access and the calendar scope', async () => {
    const started = await t.api('POST', '/v1/connections', { service: 'google-calendar', endUserRef: 'alice' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const authorize = new URL(started.body.authorizeUrl);
    // Google's accounts.google.com URL, moved to where the workspace points the service, its own parameters kept.
    expect(authorize.origin + authorize.pathname).toBe(`${google.provider.url}/o/oauth2/v2/auth`);
    expect(Object.fromEntries([...authorize.searchParams].filter(([k]) => !['state', 'code_challenge', 'redirect_uri'].includes(k)))).toEqual({
      access_type: 'offline',
      prompt: 'consent',
      response_type: 'code',
      client_id: CLIENT.id,
      scope: 'https://www.googleapis.com/auth/calendar',
      code_challenge_method: 'S256',
    });
    const redirect = await fetch(authorize, { redirect: 'manual' });
    const callback = await fetch(redirect.headers.get('location')!);
    expect(callback.status).toBe(200);
    expect(google.issued).toHaveLength(1);
    t.canaries.push(google.issued[0]!);
    const exchange = google.provider.requests.find((r) => r.url === '/token')!;
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).toMatchObject({ grant_type: 'authorization_code', client_id: CLIENT.id, client_secret: CLIENT.secret, code_verifier: expect.any(String) });
  });
});

describe('google-calendar: paging', () => {
  it('pages events to the end by nextPageToken with the end user\'s token', async () => {
    const before = google.provider.requests.length;
    const res = await call('calendar.events.list', { calendarId: 'primary', maxResults: 10 });
    expect(res.body).toMatchObject({ ok: true, status: 200, error: null, data: { kind: 'calendar#events', nextSyncToken: 'sync-1' } });
    expect(res.body.data.items.map((e: any) => e.summary)).toEqual(Array.from({ length: 25 }, (_, i) => `Meeting ${i + 1}`));
    const urls = sent(before);
    expect(urls.map((u) => u.url.pathname)).toEqual(Array(3).fill('/calendar/v3/calendars/primary/events'));
    expect(urls[0]!.url.searchParams.has('pageToken')).toBe(false);
    expect(urls.slice(1).every((u) => u.url.searchParams.get('pageToken') && u.url.searchParams.get('maxResults') === '10')).toBe(true);
    expect(urls.every((u) => u.authorization === `Bearer ${google.issued[0]}`)).toBe(true);
  });

  it('stops at a caller bound with the page token that reads on, and at the Engine limit with an error', async () => {
    const first = await call('calendar.events.list', { calendarId: 'primary', maxResults: 10 }, { ...alice, pagination: { maxPages: 1 } });
    expect(first.body.data.items).toHaveLength(10);
    expect(first.body.continuation).toEqual({ more: true, input: { pageToken: expect.any(String) } });
    const rest = await call('calendar.events.list', { calendarId: 'primary', maxResults: 10, ...first.body.continuation.input }, { ...alice, pagination: { maxPages: 5 } });
    expect(rest.body.data.items).toHaveLength(15);
    expect(rest.body.continuation).toBeUndefined();
    const limited = await call('calendar.events.list', { calendarId: 'primary', maxResults: 1 });
    expect(limited.body).toMatchObject({ ok: false, error: { code: 'ENGINE_PAGINATION_LIMIT', details: { engine_max_pages: 20 } } });
  });
});

describe('google-calendar: refresh', () => {
  it('renews an expired access token with the refresh token, and keeps it when Google answers none', async () => {
    // The stored access token made to look expired, as test/fixtures/oauth.ts does for demo-crm.
    const expire = async () => {
      const row = (await t.engine.store.getConnection('google-calendar', 'alice', 'default'))!;
      await t.engine.store.updateConnectionTokens(row.id, row.generation, { tokens: row.tokens, status: row.status, accessExpiresAt: new Date(Date.now() - 1000).toISOString(), updatedAt: row.updatedAt });
    };
    for (const round of [1, 2]) {
      await expire();
      const issued = google.issued.length;
      const res = await call('calendar.calendarList.list', {});
      expect(res.body.ok, `round ${round}`).toBe(true);
      // Each refresh sent the one refresh token Google issued at consent.
      const refreshes = google.provider.requests.filter((r) => r.url === '/token' && new URLSearchParams(r.body).get('grant_type') === 'refresh_token');
      expect(refreshes).toHaveLength(round);
      expect(new Set(refreshes.map((r) => new URLSearchParams(r.body).get('refresh_token'))).size).toBe(1);
      expect(google.issued.length).toBe(issued + 1);
      t.canaries.push(google.issued.at(-1)!);
      expect(google.provider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${google.issued.at(-1)}`);
    }
  });
});

describe('google-calendar: writes and errors', () => {
  it('inserts an event as JSON and reads it back', async () => {
    const body = { summary: 'Design review', start: { dateTime: '2025-04-01T15:00:00Z' }, end: { dateTime: '2025-04-01T16:00:00Z' }, attendees: [{ email: 'bob@example.test' }] };
    const made = await call('calendar.events.insert', { calendarId: 'primary', sendUpdates: 'all', body });
    expect(made.body).toMatchObject({ ok: true, data: { kind: 'calendar#event', summary: 'Design review' } });
    const insert = google.provider.requests.at(-1)!;
    expect(new URL(insert.url, 'http://x').searchParams.get('sendUpdates')).toBe('all');
    expect(JSON.parse(insert.body)).toEqual(body);
    const read = await call('calendar.events.get', { calendarId: 'primary', eventId: made.body.data.id });
    expect(read.body.data.attendees).toEqual([{ email: 'bob@example.test' }]);
  });

  it("answers Google's error body in the envelope", async () => {
    const missing = await call('calendar.events.list', { calendarId: 'nobody@example.test' });
    expect(missing.body).toMatchObject({ ok: false, status: 404, error: { code: 'PROVIDER_ERROR', details: { providerBody: { error: { code: 404, status: 'NOT_FOUND', message: 'Not Found' } } } } });
    const invalid = await call('calendar.events.insert', { calendarId: 'primary', body: { summary: 'no times' } });
    expect(invalid.body).toMatchObject({ ok: false, status: 400, error: { code: 'PROVIDER_ERROR', details: { providerBody: { error: { code: 400, status: 'INVALID_ARGUMENT' } } } } });
  });
});

describe('google-calendar: through MCP execute', () => {
  it('lists calendars and events for the bound end user from one script', async () => {
    await withMcpClient(mcp, async (client) => {
      const code = `
        const calendars = await call("google-calendar.calendar.calendarList.list", {});
        const events = await call("google-calendar.calendar.events.list", { calendarId: calendars.data.items[0].id, maxResults: 10, q: "Meeting" });
        return { calendars: calendars.data.items.map((c) => c.id), events: events.data.items.length };`;
      const result = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
      expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
      expect(result.structuredContent.result).toEqual({ calendars: ['primary'], events: 25 });
      const search = (await client.callTool({ name: 'search_docs', arguments: { query: 'list calendar events' } })) as any;
      expect(search.structuredContent.results.map((r: any) => r.operationId)).toContain('google-calendar.calendar.events.list');
    });
  });
});
