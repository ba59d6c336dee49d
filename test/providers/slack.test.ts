// Slack as a first-class provider (spec/services/slack/v1/engine.yaml) against a fake Slack on
// loopback (test/fixtures/providers/slack.ts): cursor and numbered pages to the end and under a
// caller bound, chat.postMessage as a form, Slack's HTTP 200 { ok: false } answered as a
// PROVIDER_ERROR, the description's `token` parameter owned by the Engine, an end user's OAuth v2
// install, and the same calls through MCP execute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishApps, withMcpClient } from '../fixtures/providers/app.ts';
import { startSlack, type FakeSlack } from '../fixtures/providers/slack.ts';

const BOT_TOKEN = 'xoxb-canary-slack-5f1e0c';
const CLIENT = { id: 'slack-client-1', secret: 'canary-slack-client-secret-9a7b' };
const OPERATIONS = ['chat_postMessage', 'conversations_list', 'conversations_history', 'files_list', 'users_list', 'auth_test'];

let t: TestEngine;
let slack: FakeSlack;
let sdk: { versionId: string; token: string };
let mcp: { url: string; token: string };

beforeAll(async () => {
  slack = await startSlack({ botToken: BOT_TOKEN, channels: 5, files: 5, client: CLIENT });
  t = await startTestEngine();
  t.canaries.push(BOT_TOKEN, CLIENT.secret);
  await pointService(t, 'slack', slack.apiUrl, BOT_TOKEN);
  expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/slack', { clientId: CLIENT.id, clientSecret: CLIENT.secret })).status).toBe(204);
  ({ sdk, mcp } = await publishApps(t, 'slack-app', { services: ['slack=v1'], operations: OPERATIONS.map((op) => `slack=${op}`) }));
});
afterAll(async () => {
  await t?.stop();
  await slack?.provider.stop();
});

const call = (operation: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => t.execute(sdk.versionId, sdk.token, { operation: `slack.${operation}`, input, ...extra });
const sent = (from: number) => slack.provider.requests.slice(from).map((r) => new URL(r.url, 'http://x'));

describe('slack: paging', () => {
  it('pages conversations.list to the end by response_metadata.next_cursor, with the bot token as Bearer and no token argument', async () => {
    const before = slack.provider.requests.length;
    const res = await call('conversations_list', { limit: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 200, error: null });
    expect(res.body.data.channels.map((c: any) => c.id)).toEqual(['C0001', 'C0002', 'C0003', 'C0004', 'C0005']);
    expect(res.body.data.response_metadata.next_cursor).toBe('');
    const urls = sent(before);
    expect(urls.map((u) => u.pathname)).toEqual(['/api/conversations.list', '/api/conversations.list', '/api/conversations.list']);
    expect(urls[0]!.searchParams.has('cursor')).toBe(false);
    expect(urls.slice(1).every((u) => u.searchParams.get('cursor') && u.searchParams.get('limit') === '2')).toBe(true);
    expect(urls.every((u) => !u.searchParams.has('token'))).toBe(true);
    expect(slack.provider.requests.slice(before).every((r) => r.headers.authorization === `Bearer ${BOT_TOKEN}`)).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain(BOT_TOKEN);
  });

  it('stops at a caller bound and hands back the cursor that continues where it stopped', async () => {
    const first = await call('conversations_list', { limit: 2 }, { pagination: { maxPages: 2 } });
    expect(first.body.data.channels.map((c: any) => c.id)).toEqual(['C0001', 'C0002', 'C0003', 'C0004']);
    expect(first.body.continuation).toEqual({ more: true, input: { cursor: expect.any(String) } });
    const rest = await call('conversations_list', { limit: 2, ...first.body.continuation.input });
    expect(rest.body.data.channels.map((c: any) => c.id)).toEqual(['C0005']);
    // A bound at or over the Engine's limit for the operation is refused before any request.
    const before = slack.provider.requests.length;
    const refused = await call('conversations_list', {}, { pagination: { maxPages: 20 } });
    expect(refused.body.error).toMatchObject({ code: 'ENGINE_PAGINATION_INVALID', details: { engine_max_pages: 20 } });
    expect(slack.provider.requests.length).toBe(before);
  });

  it('pages files.list by number and stops at paging.pages without asking for a page past it', async () => {
    const before = slack.provider.requests.length;
    // The description types count and page as strings; the Engine sends the next page number as one.
    const res = await call('files_list', { count: '2' });
    expect(res.body.ok).toBe(true);
    expect(res.body.data.files.map((f: any) => f.id)).toEqual(['F0001', 'F0002', 'F0003', 'F0004', 'F0005']);
    expect(sent(before).map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3']);
    const bounded = await call('files_list', { count: '2' }, { pagination: { maxPages: 1 } });
    expect(bounded.body.data.files).toHaveLength(2);
    expect(bounded.body.continuation).toEqual({ more: true, input: { page: '2' } });
    const rest = await call('files_list', { count: '2', ...bounded.body.continuation.input });
    expect(rest.body.data.files.map((f: any) => f.id)).toEqual(['F0003', 'F0004', 'F0005']);
  });
});

describe('slack: writes and failures', () => {
  it('posts a message as a form body, as the description says, and answers Slack\'s message', async () => {
    const before = slack.provider.requests.length;
    const res = await call('chat_postMessage', { body: { channel: 'C0002', text: 'Deploy finished ✓' } });
    expect(res.body).toMatchObject({ ok: true, status: 200, data: { ok: true, channel: 'C0002', ts: expect.any(String), message: { text: 'Deploy finished ✓' } } });
    const [request] = slack.provider.requests.slice(before);
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({ channel: 'C0002', text: 'Deploy finished ✓' });
    expect(request!.headers.token).toBeUndefined();
    expect(slack.messages.get('C0002')!.map((m) => m.text)).toContain('Deploy finished ✓');
    const history = await call('conversations_history', { channel: 'C0002' });
    expect(history.body.data.messages[0]).toMatchObject({ text: 'Deploy finished ✓', ts: res.body.data.ts });
  });

  it('answers Slack\'s HTTP 200 { ok: false } as a PROVIDER_ERROR with Slack\'s answer in details', async () => {
    const res = await call('chat_postMessage', { body: { channel: 'C9999', text: 'nowhere' } });
    expect(res.status).toBe(200); // the provider answered
    expect(res.body).toMatchObject({
      ok: false,
      status: 200,
      data: null,
      error: { code: 'PROVIDER_ERROR', retryable: false, details: { providerBody: { ok: false, error: 'channel_not_found' } } },
    });
    expect(res.body.error.message).toContain('slack');
    const noText = await call('chat_postMessage', { body: { channel: 'C0001' } });
    expect(noText.body.error.details.providerBody).toEqual({ ok: false, error: 'no_text' });
  });

  it('fails a traversal on a page that says ok: false, naming the page', async () => {
    const res = await call('conversations_list', { limit: 2, cursor: 'not-a-cursor' });
    expect(res.body).toMatchObject({ ok: false, status: 200, error: { code: 'PROVIDER_ERROR', details: { page: 1, providerBody: { ok: false, error: 'invalid_cursor' } } } });
  });

  it('answers a revoked workspace token (invalid_auth) as a PROVIDER_ERROR and never shows the token', async () => {
    expect((await t.api('PUT', '/v1/buckets/default/secrets/slack', { value: 'xoxb-canary-revoked-77' })).status).toBe(204);
    t.canaries.push('xoxb-canary-revoked-77');
    try {
      const res = await call('auth_test', {});
      expect(res.body).toMatchObject({ ok: false, error: { code: 'PROVIDER_ERROR', details: { providerBody: { ok: false, error: 'invalid_auth' } } } });
      expect(JSON.stringify(res.body)).not.toContain('xoxb-canary-revoked-77');
    } finally {
      expect((await t.api('PUT', '/v1/buckets/default/secrets/slack', { value: BOT_TOKEN })).status).toBe(204);
    }
  });

  it('owns the description\'s token parameter: a caller cannot pass one, in the query or in a form body', async () => {
    const before = slack.provider.requests.length;
    const res = await call('conversations_list', { token: 'xoxp-caller-token' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('ENGINE_INVALID_INPUT');
    const post = await call('chat_postMessage', { token: 'xoxp-caller-token', body: { channel: 'C0001', text: 'x' } });
    expect(post.body.error.code).toBe('ENGINE_INVALID_INPUT');
    expect(slack.provider.requests.length).toBe(before);
  });
});

describe('slack: an end user\'s OAuth v2 install', () => {
  it('installs through Slack\'s authorize page and oauth.v2.access, then calls with the end user\'s bot token', async () => {
    const started = await t.api('POST', '/v1/connections', { service: 'slack', endUserRef: 'alice' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const authorize = new URL(started.body.authorizeUrl);
    // Slack's authorize URL, moved to where the workspace points slack (the fake), scopes comma-separated.
    expect(authorize.origin + authorize.pathname).toBe(`${slack.provider.url}/oauth/v2/authorize`);
    expect(authorize.searchParams.get('scope')).toBe('channels:history,channels:read,chat:write,files:read,groups:history,groups:read,im:history,im:read,mpim:read,reactions:read,users:read');
    const redirect = await fetch(authorize, { redirect: 'manual' });
    const callback = await fetch(redirect.headers.get('location')!);
    expect(callback.status).toBe(200);
    expect(slack.issued).toHaveLength(1);
    t.canaries.push(slack.issued[0]!);

    const before = slack.provider.requests.length;
    const res = await call('chat_postMessage', { body: { channel: 'C0003', text: 'from alice' } }, { selectors: { endUserRef: 'alice' } });
    expect(res.body).toMatchObject({ ok: true, data: { channel: 'C0003' } });
    expect(slack.provider.requests.slice(before).map((r) => r.headers.authorization)).toEqual([`Bearer ${slack.issued[0]}`]);
    // The code exchange carried the client in the form, as Slack's oauth.v2.access reads it.
    const exchange = slack.provider.requests.find((r) => r.url === '/api/oauth.v2.access')!;
    expect(new URLSearchParams(exchange.body).get('client_id')).toBe(CLIENT.id);
  });
});

describe('slack: through MCP execute', () => {
  it('lists every channel and posts a message from one script', async () => {
    await withMcpClient(mcp, async (client) => {
      const code = `
        const list = await call("slack.conversations_list", { limit: 2 });
        const posted = await call("slack.chat_postMessage", { body: { channel: list.data.channels[4].id, text: "hello from execute" } });
        const failed = await call("slack.chat_postMessage", { body: { channel: "C404", text: "x" } });
        return { channels: list.data.channels.length, ts: posted.data.ts, ok: posted.ok, failed: failed.error.code, why: failed.error.details.providerBody.error };`;
      const result = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent.result).toEqual({ channels: 5, ts: expect.any(String), ok: true, failed: 'PROVIDER_ERROR', why: 'channel_not_found' });
      expect(slack.messages.get('C0005')!.map((m) => m.text)).toEqual(['hello from execute']);
      const search = (await client.callTool({ name: 'search_docs', arguments: { query: 'post a message to a slack channel' } })) as any;
      expect(search.structuredContent.results.map((r: any) => r.operationId)).toContain('slack.chat_postMessage');
    });
  });
});
