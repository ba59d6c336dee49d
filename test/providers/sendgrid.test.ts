// Twilio SendGrid as a first-class provider (spec/services/sendgrid/v1/engine.yaml) against a fake
// SendGrid on loopback (test/fixtures/providers/sendgrid.ts): offset pages, the next page's URL in
// _metadata.next, lastSeenID, each to the end and under a caller bound; mail send; SendGrid's
// { errors: [...] } answered in the envelope; the API key only ever as Bearer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointService, publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startSendGrid, type FakeSendGrid } from '../fixtures/providers/sendgrid.ts';

const API_KEY = 'SG.canary-sendgrid-key.3c9d';
const OPERATIONS = ['POST_mail-send', 'GET_suppression-blocks', 'GET_mc-lists', 'GET_verified_senders'];

let t: TestEngine;
let sendgrid: FakeSendGrid;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  sendgrid = await startSendGrid({ apiKey: API_KEY, blocks: 7, lists: 5, senders: 4 });
  t = await startTestEngine();
  sdk = await publishSdk(t, { name: 'mailer', service: 'sendgrid', baseUrl: sendgrid.apiUrl, secret: API_KEY, operations: OPERATIONS });
});
afterAll(async () => {
  await t?.stop();
  await sendgrid?.stop();
});

const call = (operation: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => t.execute(sdk.versionId, sdk.token, { operation: `sendgrid.${operation}`, input, ...extra });
const sent = (from: number) => sendgrid.provider.requests.slice(from).map((r) => new URL(r.url, 'http://x'));

describe('sendgrid: paging', () => {
  it('pages a limit/offset collection (a root array) to the end, the API key as Bearer', async () => {
    const before = sendgrid.provider.requests.length;
    const res = await call('GET_suppression-blocks', { limit: 3 });
    expect(res.body).toMatchObject({ ok: true, status: 200, error: null });
    expect(res.body.data.map((b: any) => b.email)).toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => `blocked${i}@example.test`));
    // Offsets follow the items read; the traversal ends on the empty page after the last.
    expect(sent(before).map((u) => u.searchParams.get('offset'))).toEqual([null, '3', '6', '7']);
    expect(sendgrid.provider.requests.slice(before).every((r) => r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
    const bounded = await call('GET_suppression-blocks', { limit: 3 }, { pagination: { maxPages: 2 } });
    expect(bounded.body.data).toHaveLength(6);
    expect(bounded.body.continuation).toEqual({ more: true, input: { offset: 6 } });
  });

  it('follows the next page\'s URL in _metadata.next until there is none, and stops at a caller bound with its page_token', async () => {
    const before = sendgrid.provider.requests.length;
    const res = await call('GET_mc-lists', { page_size: 2 });
    expect(res.body.ok).toBe(true);
    expect(res.body.data.result.map((l: any) => l.id)).toEqual(['list-1', 'list-2', 'list-3', 'list-4', 'list-5']);
    expect(res.body.data._metadata.next).toBeUndefined();
    expect(sent(before).map((u) => u.searchParams.get('page_token'))).toEqual([null, 't2', 't4']);
    const bounded = await call('GET_mc-lists', { page_size: 2 }, { pagination: { maxPages: 2 } });
    expect(bounded.body.data.result).toHaveLength(4);
    expect(bounded.body.continuation).toEqual({ more: true, input: { page_token: 't4' } });
    const rest = await call('GET_mc-lists', { page_size: 2, ...bounded.body.continuation.input });
    expect(rest.body.data.result.map((l: any) => l.id)).toEqual(['list-5']);
  });

  it('never follows a _metadata.next that leaves the provider\'s origin', async () => {
    // The fake builds next links from its own URL; pointed at 127.0.0.1 through another host name, they name another origin.
    await pointService(t, 'sendgrid', sendgrid.apiUrl.replace('127.0.0.1', 'localhost'), API_KEY);
    try {
      const before = sendgrid.provider.requests.length;
      const res = await call('GET_mc-lists', { page_size: 2 });
      expect(res.body).toMatchObject({ ok: false, status: 502, error: { code: 'PROVIDER_ERROR' } });
      expect(res.body.error.message).toContain('another origin');
      expect(sendgrid.provider.requests.length - before).toBe(1);
    } finally {
      await pointService(t, 'sendgrid', sendgrid.apiUrl, API_KEY);
    }
  });

  it('continues verified senders from the last ID seen', async () => {
    const before = sendgrid.provider.requests.length;
    const res = await call('GET_verified_senders', { limit: 3 });
    expect(res.body.data.results.map((s: any) => s.id)).toEqual([100, 101, 102, 103]);
    expect(sent(before).map((u) => u.searchParams.get('lastSeenID'))).toEqual([null, '102', '103']);
  });
});

describe('sendgrid: mail send', () => {
  it('sends a mail (SendGrid answers 202 with no body)', async () => {
    const mail = {
      personalizations: [{ to: [{ email: 'ada@example.test' }] }],
      from: { email: 'sender1@example.test' },
      subject: 'Build green',
      content: [{ type: 'text/plain', value: 'All checks passed.' }],
    };
    const res = await call('POST_mail-send', { body: mail });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 202, error: null });
    expect(sendgrid.sent.at(-1)).toEqual(mail);
  });

  it('answers SendGrid\'s { errors } in the envelope, field by field', async () => {
    const res = await call('POST_mail-send', { body: { personalizations: [{ to: [{ email: 'ada@example.test' }] }], subject: 'x', content: [{ type: 'text/plain', value: 'x' }] } });
    // The description requires `from`: refused before anything is sent.
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('ENGINE_INVALID_INPUT');
    const provider = await call('POST_mail-send', { body: { personalizations: [{ to: [{ email: 'ada@example.test' }] }], from: { email: 'unverified@example.test' }, subject: 'x', content: [{ type: 'text/plain', value: 'x' }] } });
    expect(provider.status).toBe(200);
    expect(provider.body).toMatchObject({
      ok: false,
      status: 403,
      data: null,
      error: { code: 'PROVIDER_ERROR', retryable: false, details: { providerBody: { errors: [{ field: 'from', message: expect.stringContaining('verified Sender Identity') }] } } },
    });
  });

  it('answers a refused API key (401) without showing it', async () => {
    expect((await t.api('PUT', '/v1/buckets/default/secrets/sendgrid', { value: 'SG.canary-wrong-key' })).status).toBe(204);
    t.canaries.push('SG.canary-wrong-key');
    try {
      const res = await call('GET_suppression-blocks', {});
      expect(res.body).toMatchObject({ ok: false, status: 401, error: { code: 'PROVIDER_ERROR', details: { providerBody: { errors: [{ message: expect.stringContaining('authorization grant is invalid') }] } } } });
      expect(JSON.stringify(res.body)).not.toContain('canary');
    } finally {
      expect((await t.api('PUT', '/v1/buckets/default/secrets/sendgrid', { value: API_KEY })).status).toBe(204);
    }
  });
});
