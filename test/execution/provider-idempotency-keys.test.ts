// A provider that honours idempotency keys of its own (Stripe: spec/services/stripe/v1/engine.yaml
// `idempotency`), against a fake Stripe on loopback that acts on a keyed POST once and gives the
// first answer back for the same key: the Engine sends a key derived from the caller's (never the
// caller's own, and another for another token), so a POST that timed out or lost its connection
// after Stripe acted is retried safely, within the call and when the caller repeats it; a POST
// without a key never is. The secret key and the caller's key are canaries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishApps, type ProviderApps } from '../fixtures/providers/app.ts';
import { startStripe, type FakeStripe } from '../fixtures/providers/stripe.ts';

const SECRET_KEY = 'sk_test_canary_idem_51Hx9c0ffee';

let t: TestEngine;
let stripe: FakeStripe;
let billing: ProviderApps;
let other: ProviderApps;

beforeAll(async () => {
  stripe = await startStripe({ secretKey: SECRET_KEY });
  t = await startTestEngine({ SVC_PROVIDER_TIMEOUT_MS: '6000', SVC_PROVIDER_ATTEMPT_TIMEOUT_MS: '1500' });
  t.canaries.push(SECRET_KEY);
  await pointService(t, 'stripe', stripe.provider.url, SECRET_KEY);
  const definition = { services: ['stripe=v1'], operations: ['stripe=PostCustomers', 'stripe=GetCustomers'] };
  billing = await publishApps(t, 'billing', definition);
  other = await publishApps(t, 'shop', definition);
});
afterAll(async () => {
  await t?.stop();
  await stripe?.stop();
});

/** Creates a customer over REST with `key` in the Idempotency-Key header (none when undefined). */
async function create(email: string, key: string | undefined, app = billing) {
  const res = await fetch(`${t.url}/v1/apps/${app.sdk.versionId}/executions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.sdk.token}`, 'content-type': 'application/json', ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify({ operation: 'stripe.PostCustomers', input: { body: { email } } }),
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as any };
}

const posts = (from: number) => stripe.provider.requests.slice(from).filter((r) => r.method === 'POST');
/** The key of the POSTs that created `email` (every attempt of one call carries the same). */
const keysOf = (email: string) => new Set(stripe.provider.requests.filter((r) => r.method === 'POST' && new URLSearchParams(r.body).get('email') === email).map((r) => r.headers['idempotency-key']));
const made = (email: string) => stripe.customers.filter((c) => c.email === email).length;

describe('a provider that honours idempotency keys', () => {
  it('gets a key derived from the caller’s, the same on every attempt and another for another token', async () => {
    const key = 'order-canary-7f3a';
    t.canaries.push(key);
    const first = await create('derived@example.test', key);
    expect(first.body).toMatchObject({ ok: true, data: { email: 'derived@example.test' } });
    const [sent, ...more] = keysOf('derived@example.test');
    expect(more).toEqual([]);
    expect(sent).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(sent).not.toContain(key);
    const theirs = await create('derived-shop@example.test', key, other);
    expect(theirs.body.ok).toBe(true);
    expect([...keysOf('derived-shop@example.test')]).toEqual([expect.not.stringMatching(sent as string)]);
    expect(JSON.stringify([first.body, theirs.body])).not.toContain(key);
  });

  it('retries a POST that timed out after Stripe acted, and Stripe answers the first answer: one customer', async () => {
    stripe.faults.push('hang');
    const before = stripe.provider.requests.length;
    const res = await create('timeout@example.test', 'order-timeout');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 200, data: { email: 'timeout@example.test' } });
    const sent = posts(before);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers['idempotency-key']).toBe(sent[0]!.headers['idempotency-key']);
    expect(made('timeout@example.test')).toBe(1);
    const receipt = (await t.api('GET', `/v1/versions/${billing.sdk.versionId}/receipts?limit=1`)).body.receipts[0];
    expect(receipt.attempts).toMatchObject([{ error: 'PROVIDER_TIMEOUT' }, { status: 200 }]);
  });

  it('retries a POST whose connection dropped after Stripe acted: one customer', async () => {
    stripe.faults.push('reset');
    const before = stripe.provider.requests.length;
    const res = await create('reset@example.test', 'order-reset');
    expect(res.body).toMatchObject({ ok: true, data: { email: 'reset@example.test' } });
    expect(posts(before)).toHaveLength(2);
    expect(made('reset@example.test')).toBe(1);
  });

  it('never retries the same POST without a key: the outcome is unknown', async () => {
    stripe.faults.push('reset');
    const before = stripe.provider.requests.length;
    const res = await create('nokey@example.test', undefined);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'ENGINE_OUTCOME_UNKNOWN', details: { provider_execution: 'unknown', not_retried: expect.stringContaining('POST') } } });
    expect(posts(before)).toHaveLength(1);
    expect(made('nokey@example.test')).toBe(1);
  });

  it('lets the caller repeat a call whose every attempt was lost: Stripe answers it once more, not twice', async () => {
    stripe.faults.push('reset', 'reset', 'reset');
    const before = stripe.provider.requests.length;
    const lost = await create('lost@example.test', 'order-lost');
    expect(lost.body).toMatchObject({ ok: false, error: { code: 'ENGINE_OUTCOME_UNKNOWN', details: { attempts: [{}, {}, {}] } } });
    expect(made('lost@example.test')).toBe(1);
    // The Engine kept nothing (the provider recognises the repeat): the same key goes to Stripe again.
    const again = await create('lost@example.test', 'order-lost');
    expect(again.body).toMatchObject({ ok: true, data: { email: 'lost@example.test' } });
    expect(again.replayed).toBeNull();
    expect(posts(before)).toHaveLength(4);
    expect(made('lost@example.test')).toBe(1);
    // That answer is kept: a third time is the Engine's replay, nothing sent.
    const third = await create('lost@example.test', 'order-lost');
    expect(third.replayed).toBe('true');
    expect(third.body).toEqual(again.body);
    expect(posts(before)).toHaveLength(4);
  });
});
