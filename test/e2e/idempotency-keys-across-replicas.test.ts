// Idempotency keys across replicas on one PostgreSQL database: a key claimed on one replica is
// replayed (or refused for another request) on the other, and the key derived for a provider that
// honours keys (Stripe) is the same on both, so a call whose outcome one replica lost can be
// repeated on the other without acting twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultyDescription, FAULTY_OPERATIONS, startFaultyProvider, type FaultyProvider } from '../fixtures/faulty-provider.ts';
import { startStripe, type FakeStripe } from '../fixtures/providers/stripe.ts';
import { startReplicas, type Replica, type ReplicaSet } from '../fixtures/replicas.ts';

const SECRET_KEY = 'sk_test_canary_replicas_51Hx9';

let set: ReplicaSet;
let a: Replica;
let b: Replica;
let provider: FaultyProvider;
let stripe: FakeStripe;
let app: { versionId: string; token: string };

beforeAll(async () => {
  provider = await startFaultyProvider();
  stripe = await startStripe({ secretKey: SECRET_KEY });
  set = await startReplicas({ replicas: 2, redis: false });
  [a, b] = set.replicas as [Replica, Replica];
  set.canaries.push(SECRET_KEY);
  expect((await set.api(a, 'POST', '/v1/workspace/imports', { name: 'faulty', version: 'v1', document: faultyDescription(provider.url) })).status).toBe(201);
  expect((await set.api(a, 'PUT', '/v1/workspace/services/faulty', { version: 'v1', baseUrl: provider.url })).status).toBe(200);
  expect((await set.api(b, 'PUT', '/v1/workspace/services/stripe', { version: 'v1', baseUrl: stripe.provider.url })).status).toBe(200);
  expect((await set.api(b, 'PUT', '/v1/buckets/default/secrets/stripe', { value: SECRET_KEY })).status).toBe(204);
  const published = await set.api(a, 'POST', '/v1/sdks/publish', { name: 'keys', services: ['faulty=v1', 'stripe=v1'], operations: [...FAULTY_OPERATIONS.map((op) => `faulty=${op}`), 'stripe=PostCustomers'] });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  app = published.body;
  set.canaries.push(app.token);
}, 120_000);
afterAll(async () => {
  await set?.stop();
  await provider?.stop();
  await stripe?.stop();
});

async function execute(on: Replica, body: unknown, key: string) {
  const res = await fetch(`${on.url}/v1/apps/${app.versionId}/executions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as any };
}

describe('idempotency keys shared by replicas through PostgreSQL', () => {
  it('replays on one replica the call another made, and refuses the key there with another request', async () => {
    provider.plan('replica-1', ['ok']);
    const body = { operation: 'faulty.createItem', input: { id: 'replica-1', body: { n: 1 } } };
    const first = await execute(a, body, 'replica-key-1');
    expect(first.body).toMatchObject({ ok: true, data: { received: 1 } });
    const replay = await execute(b, body, 'replica-key-1');
    expect(replay).toEqual({ ...first, replayed: 'true' });
    const other = await execute(b, { ...body, input: { id: 'replica-2', body: {} } }, 'replica-key-1');
    expect(other.body.error).toMatchObject({ code: 'ENGINE_IDEMPOTENCY_CONFLICT', details: { field: 'Idempotency-Key' } });
    expect(provider.counts.get('replica-1')).toBe(1);
    expect(provider.counts.get('replica-2')).toBeUndefined();
  });

  it('sends Stripe the same derived key from both replicas: a call lost on one is repeated on the other, one customer', async () => {
    stripe.faults.push('reset', 'reset', 'reset');
    const body = { operation: 'stripe.PostCustomers', input: { body: { email: 'replicas@example.test' } } };
    const lost = await execute(a, body, 'replica-stripe');
    expect(lost.body).toMatchObject({ ok: false, error: { code: 'ENGINE_OUTCOME_UNKNOWN' } });
    const repeated = await execute(b, body, 'replica-stripe');
    expect(repeated.body).toMatchObject({ ok: true, data: { email: 'replicas@example.test' } });
    const keys = new Set(stripe.provider.requests.filter((r) => r.method === 'POST').map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect(stripe.customers.filter((c) => c.email === 'replicas@example.test')).toHaveLength(1);
  });
});
