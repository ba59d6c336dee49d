// Twilio as a first-class provider (spec/services/twilio/v1/engine.yaml) against a fake Twilio on
// loopback (test/fixtures/providers/twilio.ts): Messages paged by next_page_uri (a path on the API
// host) to the end and under a caller bound; a Message created from a form; Twilio's
// { code, message, more_info, status } in the envelope; Account SID and Auth Token only as HTTP Basic.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_CATALOG_DIR, type ServiceIndex } from '../../src/catalog/index.ts';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishApps, withMcpClient } from '../fixtures/providers/app.ts';
import { startTwilio, type FakeTwilio } from '../fixtures/providers/twilio.ts';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'canary-twilio-auth-token-7d41';
const SECRET = `${SID}:${TOKEN}`;
const BASIC = Buffer.from(SECRET).toString('base64');
const OPERATIONS = ['ListMessage', 'CreateMessage'];

let t: TestEngine;
let twilio: FakeTwilio;
let apps: Awaited<ReturnType<typeof publishApps>>;
/** Every answer the Engine gave, searched for the secret at the end. */
const answers: string[] = [];

beforeAll(async () => {
  twilio = await startTwilio({ accountSid: SID, authToken: TOKEN, messages: 7 });
  t = await startTestEngine();
  t.canaries.push(TOKEN, BASIC);
  await pointService(t, 'twilio', twilio.apiUrl, SECRET);
  apps = await publishApps(t, 'texter', { services: ['twilio=v1'], operations: OPERATIONS.map((op) => `twilio=${op}`) });
});
afterAll(async () => {
  await t?.stop();
  await twilio?.stop();
});

const call = async (operation: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const res = await t.execute(apps.sdk.versionId, apps.sdk.token, { operation: `twilio.${operation}`, input, ...extra });
  answers.push(JSON.stringify(res.body));
  return res;
};
const sent = (from: number) => twilio.provider.requests.slice(from);
const sids = (from: number, to: number) => twilio.messages.slice(from, to).map((m) => m.sid);

describe('twilio: the reviewed catalogue', () => {
  it('has every operation, HTTP Basic, and every list (a next_page_uri answer) paged by it with its one array', () => {
    const index = JSON.parse(readFileSync(join(GENERATED_CATALOG_DIR, 'twilio@v1.json'), 'utf8')) as ServiceIndex;
    expect(index.operations).toHaveLength(195);
    expect(index.baseUrl).toBe('https://api.twilio.com');
    expect(index.auth).toEqual([{ name: 'account_sid_auth_token', type: 'http_basic' }]);
    const lists = index.operations.filter((op) => Object.hasOwn((op.responses['200'] as any)?.properties ?? {}, 'next_page_uri'));
    expect(lists).toHaveLength(61);
    expect(index.operations.filter((op) => op.pagination).map((op) => op.id).sort()).toEqual(lists.map((op) => op.id).sort());
    for (const op of lists) {
      const arrays = Object.entries((op.responses['200'] as any).properties).filter(([, s]: [string, any]) => s.type === 'array').map(([key]) => `/${key}`);
      expect(op.pagination, op.id).toEqual({ style: 'next_url', continuation: '/next_page_uri', items: arrays[0], engineMaxPages: 20, callerBound: true });
      expect(arrays, op.id).toHaveLength(1);
      expect(op.parameters.filter((p) => p.in === 'query' && ['Page', 'PageSize', 'PageToken'].includes(p.name)), op.id).toHaveLength(3);
    }
    // Writes are forms, as Twilio reads them.
    expect(index.operations.find((op) => op.providerOperationId === 'CreateMessage')!.body).toMatchObject({ contentType: 'application/x-www-form-urlencoded' });
  });
});

describe('twilio: paging Messages by next_page_uri', () => {
  it('follows next_page_uri (relative to the API host) to its null, Account SID and Auth Token as HTTP Basic', async () => {
    const before = twilio.provider.requests.length;
    const res = await call('ListMessage', { AccountSid: SID, PageSize: 3 });
    expect(res.body).toMatchObject({ ok: true, status: 200, error: null });
    expect(res.body.data.messages.map((m: any) => m.sid)).toEqual(sids(0, 7));
    expect(res.body.data.next_page_uri).toBeNull();
    const urls = sent(before).map((r) => new URL(r.url, 'http://x'));
    expect(urls.map((u) => u.pathname)).toEqual(Array(3).fill(`/2010-04-01/Accounts/${SID}/Messages.json`));
    expect(urls.map((u) => u.searchParams.get('PageToken'))).toEqual([null, `PA${sids(2, 3)[0]}`, `PA${sids(5, 6)[0]}`]);
    expect(sent(before).every((r) => r.headers.authorization === `Basic ${BASIC}`)).toBe(true);
  });

  it('stops at a caller bound with the next Page and PageToken, and reads on from them', async () => {
    const bounded = await call('ListMessage', { AccountSid: SID, PageSize: 3 }, { pagination: { maxPages: 2 } });
    expect(bounded.body.ok).toBe(true);
    expect(bounded.body.data.messages.map((m: any) => m.sid)).toEqual(sids(0, 6));
    expect(bounded.body.continuation).toEqual({ more: true, input: { Page: 2, PageToken: `PA${sids(5, 6)[0]}` } });
    const rest = await call('ListMessage', { AccountSid: SID, PageSize: 3, ...bounded.body.continuation.input });
    expect(rest.body.data.messages.map((m: any) => m.sid)).toEqual(sids(6, 7));
    const tooMany = await call('ListMessage', { AccountSid: SID }, { pagination: { maxPages: 20 } });
    expect(tooMany.body.error.code).toBe('ENGINE_PAGINATION_INVALID');
  });

  it('keeps a filter on the pages that follow', async () => {
    const before = twilio.provider.requests.length;
    const res = await call('ListMessage', { AccountSid: SID, To: '+15550000002', PageSize: 1 });
    expect(res.body.data.messages.map((m: any) => m.sid)).toEqual([1, 3, 5].map((i) => sids(i, i + 1)[0]));
    expect(sent(before).map((r) => new URL(r.url, 'http://x').searchParams.get('To'))).toEqual(Array(3).fill('+15550000002'));
  });

  it('never follows a next_page_uri to another origin', async () => {
    for (const hostile of [`//localhost:${new URL(twilio.apiUrl).port}/2010-04-01/Accounts/${SID}/Messages.json?Page=1`, `${twilio.apiUrl.replace('127.0.0.1', 'localhost')}/2010-04-01/Accounts/${SID}/Messages.json?Page=1`]) {
      twilio.nextPageOverride = hostile;
      try {
        const before = twilio.provider.requests.length;
        const res = await call('ListMessage', { AccountSid: SID, PageSize: 3 });
        expect(res.body).toMatchObject({ ok: false, status: 502, error: { code: 'PROVIDER_ERROR' } });
        expect(res.body.error.message).toContain('another origin');
        expect(twilio.provider.requests.length - before).toBe(1);
      } finally {
        twilio.nextPageOverride = undefined;
      }
    }
  });
});

describe('twilio: sending a message', () => {
  it('creates a Message from a form (To, From, Body)', async () => {
    const before = twilio.provider.requests.length;
    const res = await call('CreateMessage', { AccountSid: SID, body: { To: '+15558675310', From: '+15005550006', Body: 'Build green' } });
    expect(res.body).toMatchObject({ ok: true, status: 201, error: null, data: { to: '+15558675310', from: '+15005550006', body: 'Build green', status: 'queued' } });
    const [request] = sent(before);
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({ To: '+15558675310', From: '+15005550006', Body: 'Build green' });
    expect(twilio.messages.at(-1)!.sid).toBe(res.body.data.sid);
  });

  it('answers Twilio\'s { code, message, more_info, status } in the envelope', async () => {
    // The description requires To: refused before anything is sent.
    const before = twilio.provider.requests.length;
    const missing = await call('CreateMessage', { AccountSid: SID, body: { From: '+15005550006', Body: 'x' } });
    expect(missing.body.error.code).toBe('ENGINE_INVALID_INPUT');
    expect(twilio.provider.requests.length).toBe(before);
    const res = await call('CreateMessage', { AccountSid: SID, body: { To: '12345', From: '+15005550006', Body: 'x' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: false,
      status: 400,
      data: null,
      error: { code: 'PROVIDER_ERROR', details: { providerBody: { code: 21211, message: expect.stringContaining('not a valid phone number'), more_info: 'https://www.twilio.com/docs/errors/21211', status: 400 } } },
    });
  });

  it('answers a refused Auth Token (401, 20003) without showing it', async () => {
    const wrong = `${SID}:canary-twilio-wrong-token`;
    t.canaries.push('canary-twilio-wrong-token', Buffer.from(wrong).toString('base64'));
    expect((await t.api('PUT', '/v1/buckets/default/secrets/twilio', { value: wrong })).status).toBe(204);
    try {
      const res = await call('ListMessage', { AccountSid: SID });
      expect(res.body).toMatchObject({ ok: false, status: 401, error: { code: 'PROVIDER_ERROR', details: { providerBody: { code: 20003, message: 'Authenticate' } } } });
    } finally {
      expect((await t.api('PUT', '/v1/buckets/default/secrets/twilio', { value: SECRET })).status).toBe(204);
    }
  });
});

describe('twilio: through MCP execute', () => {
  it('lists every message and sends one from one script', async () => {
    await withMcpClient(apps.mcp, async (client) => {
      const code = `
        const list = await call("twilio.ListMessage", { AccountSid: ${JSON.stringify(SID)}, PageSize: 2 });
        const sent = await call("twilio.CreateMessage", { AccountSid: ${JSON.stringify(SID)}, body: { To: list.data.messages[0].to, From: "+15005550006", Body: "hello from execute" } });
        const failed = await call("twilio.CreateMessage", { AccountSid: ${JSON.stringify(SID)}, body: { To: "+15550000001", From: "+15005550006" } });
        return { count: list.data.messages.length, to: sent.data.to, status: sent.status, failed: failed.error.code, twilioCode: failed.error.details.providerBody.code };`;
      const result = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
      answers.push(JSON.stringify(result));
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent.result).toEqual({ count: twilio.messages.length - 1, to: '+15550000001', status: 201, failed: 'PROVIDER_ERROR', twilioCode: 21602 });
      expect(twilio.messages.at(-1)!.body).toBe('hello from execute');
    });
  });
});

describe('twilio: the secret', () => {
  it('never appears in any answer, as given or base64-encoded', () => {
    expect(answers.length).toBeGreaterThan(10);
    for (const answer of answers) for (const canary of [TOKEN, BASIC, 'canary-twilio-wrong-token']) expect(answer).not.toContain(canary);
  });
});
