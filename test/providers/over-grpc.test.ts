// The new providers through the gRPC surface the typed packages call (src/grpc → src/calls), as
// over REST: Stripe's customers paged to the end and a form write, Twilio's Messages paged by
// next_page_uri under a caller bound and a Message created with HTTP Basic; the secrets never in an answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';
import { publishApps } from '../fixtures/providers/app.ts';
import { startStripe, type FakeStripe } from '../fixtures/providers/stripe.ts';
import { startTwilio, type FakeTwilio } from '../fixtures/providers/twilio.ts';

const STRIPE_KEY = 'sk_test_canary_grpc_5e2b';
const SID = 'AC0123456789abcdef0123456789abcdef';
const TWILIO_TOKEN = 'canary-twilio-grpc-token-91c3';

let t: TestEngine;
let stripe: FakeStripe;
let twilio: FakeTwilio;
let client: RawEngineClient;
let app: { versionId: string; token: string };
const answers: string[] = [];

beforeAll(async () => {
  stripe = await startStripe({ secretKey: STRIPE_KEY, customers: 25 });
  twilio = await startTwilio({ accountSid: SID, authToken: TWILIO_TOKEN, messages: 7 });
  t = await startTestEngine();
  t.canaries.push(STRIPE_KEY, TWILIO_TOKEN, Buffer.from(`${SID}:${TWILIO_TOKEN}`).toString('base64'));
  await pointService(t, 'stripe', stripe.provider.url, STRIPE_KEY);
  await pointService(t, 'twilio', twilio.apiUrl, `${SID}:${TWILIO_TOKEN}`);
  const apps = await publishApps(t, 'grpc-providers', {
    services: ['stripe=v1', 'twilio=v1'],
    operations: ['stripe=GetCustomers', 'stripe=PostCustomers', 'twilio=ListMessage', 'twilio=CreateMessage'],
  });
  app = apps.sdk;
  client = new RawEngineClient(t.engine.grpcUrl);
});
afterAll(async () => {
  client?.close();
  await t?.stop();
  await stripe?.stop();
  await twilio?.stop();
});

const execute = async (operation: string, input: Record<string, unknown>, pagination?: { maxPages: number }) => {
  const reply = await client.execute(app.token, { versionId: app.versionId, operation, inputJson: JSON.stringify(input), ...(pagination ? { pagination } : {}) });
  expect(reply.error).toBeUndefined();
  answers.push(JSON.stringify(reply.envelope));
  return reply.envelope!;
};

describe('new providers over gRPC', () => {
  it('pages Stripe customers to the end and creates one from a form', async () => {
    const list = await execute('stripe.GetCustomers', { limit: 10 });
    expect(list).toMatchObject({ ok: true, status: 200 });
    expect((list.data as { data: { id: string }[] }).data.map((c) => c.id)).toEqual(stripe.customers.map((c) => c.id));
    const made = await execute('stripe.PostCustomers', { body: { email: 'grpc@example.test', metadata: { via: 'grpc' } } });
    expect(made).toMatchObject({ ok: true, data: { email: 'grpc@example.test', metadata: { via: 'grpc' } } });
    expect(stripe.forms.at(-1)).toMatchObject({ email: 'grpc@example.test', 'metadata[via]': 'grpc' });
  });

  it('stops Twilio Messages at a caller bound with a continuation, and sends a message with HTTP Basic', async () => {
    const bounded = await execute('twilio.ListMessage', { AccountSid: SID, PageSize: 3 }, { maxPages: 2 });
    expect(bounded).toMatchObject({ ok: true, continuation: { more: true } });
    expect((bounded.data as { messages: unknown[] }).messages).toHaveLength(6);
    const sent = await execute('twilio.CreateMessage', { AccountSid: SID, body: { To: '+15558675310', From: '+15005550006', Body: 'over gRPC' } });
    expect(sent).toMatchObject({ ok: true, status: 201, data: { body: 'over gRPC' } });
    const basic = `Basic ${Buffer.from(`${SID}:${TWILIO_TOKEN}`).toString('base64')}`;
    expect(twilio.provider.requests.length).toBeGreaterThanOrEqual(3);
    expect(twilio.provider.requests.map((r) => r.headers.authorization)).toEqual(twilio.provider.requests.map(() => basic));
  });

  it('never answers with either secret, in any form', () => {
    const all = answers.join('\n');
    for (const secret of [STRIPE_KEY, TWILIO_TOKEN, Buffer.from(`${SID}:${TWILIO_TOKEN}`).toString('base64')]) expect(all).not.toContain(secret);
  });
});
