// Fault injection over 1,000 calls: a random mix of methods (GET, PUT, DELETE, POST, PATCH, a third
// of them with an Idempotency-Key the provider does not honour) against a provider that fails at
// random: a connection reset once the request arrived, 503, a timeout after acting, 429 (now and
// then with Retry-After). The provider counts per call ID the requests it may have acted on (all
// but those it answered 429): no POST or PATCH ever reaches it twice, while idempotent calls are
// retried, at most three attempts. The seed is in the test name, so a failure can be replayed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishFaulty, startFaultyProvider, type Fault, type FaultyProvider } from '../fixtures/faulty-provider.ts';

const CALLS = 1_000;
const CONCURRENCY = 32;
const SEED = Number(process.env.SVC_TEST_FAULT_SEED ?? Date.now() % 2 ** 31);

let t: TestEngine;
let provider: FaultyProvider;
let app: { versionId: string; token: string };

beforeAll(async () => {
  provider = await startFaultyProvider();
  t = await startTestEngine({ SVC_PROVIDER_TIMEOUT_MS: '1500', SVC_PROVIDER_ATTEMPT_TIMEOUT_MS: '300', SVC_LOG_LEVEL: 'warn' });
  app = await publishFaulty(t, 'faulty', provider.url);
});
afterAll(async () => {
  await t?.stop();
  await provider?.stop();
});

/** mulberry32: a small seeded generator, so that a run can be repeated. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const METHODS = ['GET', 'PUT', 'DELETE', 'POST', 'PATCH'] as const;
const OPERATION = { GET: 'getItem', PUT: 'putItem', DELETE: 'deleteItem', POST: 'createItem', PATCH: 'patchItem' } as const;
const MUTATIONS = new Set(['POST', 'PATCH']);

interface Planned {
  id: string;
  method: (typeof METHODS)[number];
  keyed: boolean;
  faults: Fault[];
}

it(`never sends a mutation the provider may have acted on twice, over ${CALLS} calls with faults (seed ${SEED})`, async () => {
  const next = random(SEED);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const fault = (): Fault => {
    const r = next();
    if (r < 0.2) return 'reset';
    if (r < 0.4) return { status: 503 };
    if (r < 0.5) return 'hang';
    if (r < 0.65) return { status: 429 };
    if (r < 0.7) return { status: 429, headers: { 'retry-after': pick(['0', '1']) } };
    return 'ok';
  };
  const planned: Planned[] = Array.from({ length: CALLS }, (_, i) => ({ id: `fi-${SEED}-${i}`, method: pick(METHODS), keyed: next() < 1 / 3, faults: [fault(), fault(), fault()] }));
  for (const p of planned) provider.plan(p.id, p.faults);

  const answers = new Map<string, any>();
  let at = 0;
  const worker = async () => {
    while (at < planned.length) {
      const p = planned[at++]!;
      const body = p.method === 'GET' || p.method === 'DELETE' ? {} : { body: { n: 1 } };
      const res = await fetch(`${t.url}/v1/apps/${app.versionId}/executions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json', ...(p.keyed ? { 'idempotency-key': `key-${p.id}` } : {}) },
        body: JSON.stringify({ operation: `faulty.${OPERATION[p.method]}`, input: { id: p.id, ...body } }),
      });
      answers.set(p.id, await res.json());
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));

  const twice = planned.filter((p) => MUTATIONS.has(p.method) && (provider.acted.get(p.id) ?? 0) > 1);
  expect(twice.map((p) => ({ ...p, received: provider.counts.get(p.id), answer: answers.get(p.id) }))).toEqual([]);
  for (const p of planned) expect(provider.counts.get(p.id) ?? 0, p.id).toBeLessThanOrEqual(3);

  // The run means something: idempotent calls were retried after each kind of fault, mutations after a 429,
  // and mutations that met another fault first were answered without a retry, saying why.
  const retriedAfter = (kind: (f: Fault) => boolean, mutation: boolean) =>
    planned.filter((p) => MUTATIONS.has(p.method) === mutation && kind(p.faults[0]!) && (provider.counts.get(p.id) ?? 0) > 1).length;
  expect(retriedAfter((f) => f === 'reset', false)).toBeGreaterThan(0);
  expect(retriedAfter((f) => f === 'hang', false)).toBeGreaterThan(0);
  expect(retriedAfter((f) => typeof f === 'object' && f.status === 503, false)).toBeGreaterThan(0);
  expect(retriedAfter((f) => typeof f === 'object' && f.status === 429, true)).toBeGreaterThan(0);
  const declined = planned.filter((p) => MUTATIONS.has(p.method) && (p.faults[0] === 'reset' || (typeof p.faults[0] === 'object' && p.faults[0].status === 503)));
  expect(declined.length).toBeGreaterThan(0);
  for (const p of declined) expect(answers.get(p.id)?.error?.details?.not_retried, p.id).toContain('not idempotent');
}, 180_000);
