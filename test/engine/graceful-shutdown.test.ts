// Graceful shutdown of a real Engine process (svc-engine serve, via test/fixtures/replicas.ts): on
// SIGTERM it refuses new connections, answers a new request on an open keep-alive connection with
// 503 ENGINE_UNAVAILABLE and `Connection: close`, lets the call in flight finish with its real
// result, and exits 0; a call that outlives the drain budget has its connection closed.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'undici';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { startReplicas, type Replica, type ReplicaSet } from '../fixtures/replicas.ts';

const SECRET = 'shutdown-provider-secret-canary';
let provider: FakeProvider;
let set: ReplicaSet;
let sdk: { versionId: string; token: string };
/** Per contact ID: how long the provider takes to answer. */
const delays = new Map<string, number>();

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => {
    const id = req.url.split('/')[3]!.split('?')[0]!;
    await new Promise((r) => setTimeout(r, delays.get(id) ?? 0));
    json(res, 200, { id, name: `contact ${id}` });
  });
  // Drain budget: the execute budget (5 s) plus the Engine's 3 s margin.
  set = await startReplicas({ replicas: 1, redis: false, env: { SVC_EXECUTE_BUDGET_MS: '5000' } });
  set.canaries.push(SECRET);
  const [r] = set.replicas as [Replica];
  expect((await set.api(r, 'PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url })).status).toBe(200);
  expect((await set.api(r, 'PUT', '/v1/buckets/default/secrets/demo-crm', { value: SECRET })).status).toBe(204);
  const published = await set.api(r, 'POST', '/v1/sdks/publish', { name: 'slow', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] });
  sdk = { versionId: published.body.versionId, token: published.body.token };
  set.canaries.push(sdk.token);
}, 120_000);
afterAll(async () => {
  await set?.stop();
  await provider?.stop();
}, 60_000);

/** One execution over `client` (one keep-alive connection); the raw status, headers and JSON body. */
async function call(client: Client, contactId: string) {
  const res = await client.request({
    method: 'POST',
    path: `/v1/apps/${sdk.versionId}/executions`,
    headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'demo-crm.contacts/get', input: { contact_id: contactId } }),
  });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as any };
}

/** Resolves with the connection error code of a fresh TCP connection ('connected' when it was accepted). */
function dial(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

const portOf = (r: Replica) => Number(new URL(r.url).port);

async function untilRefused(r: Replica) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const result = await dial(portOf(r));
    if (result === 'ECONNREFUSED') return;
    if (Date.now() > deadline) throw new Error(`new connections were still accepted 5 s after SIGTERM (${result})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const logged = (r: Replica, msg: string) => r.logLines().filter((l) => l.msg === msg);

describe('graceful shutdown of an Engine process', () => {
  it('finishes the call in flight with its real result, refuses new work, and exits 0', async () => {
    const r = set.replicas[0]!;
    const idle = new Client(r.url, { pipelining: 1 });
    const busy = new Client(r.url, { pipelining: 1 });
    try {
      // An open keep-alive connection that sits idle when the drain begins.
      expect((await call(idle, 'con_warmup')).body).toMatchObject({ ok: true, data: { id: 'con_warmup' } });
      delays.set('con_slow1', 1_500);
      const seen = provider.requests.length;
      const slow = call(busy, 'con_slow1');
      while (!provider.requests.slice(seen).some((q) => q.url.includes('con_slow1'))) await new Promise((resolve) => setTimeout(resolve, 10));

      r.child.kill('SIGTERM');
      await untilRefused(r);
      // A request on the connection that was already open is answered, not reset, and never reaches the provider.
      const before = provider.requests.length;
      const refused = await call(idle, 'con_late1');
      expect(refused.status).toBe(503);
      expect(refused.headers.connection).toBe('close');
      expect(refused.body).toMatchObject({ ok: false, status: 503, data: null, error: { code: 'ENGINE_UNAVAILABLE', retryable: true, details: { provider_execution: 'not_started' } } });
      expect(provider.requests.length).toBe(before);

      const done = await slow;
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ ok: true, status: 200, data: { id: 'con_slow1', name: 'contact con_slow1' }, error: null });
      expect(done.headers.connection).toBe('close');
      expect(await r.exited).toEqual({ code: 0, signal: null });
    } finally {
      await Promise.all([idle.close(), busy.close()]);
    }
    expect(logged(r, 'stopping: draining requests in flight (a second signal exits at once)')).toHaveLength(1);
    expect(logged(r, 'draining: no new connections; waiting for requests in flight')[0]).toMatchObject({ inFlight: 1, budgetMs: 8_000 });
    expect(logged(r, 'drained')[0]).toMatchObject({ inFlightAtStart: 1, abandoned: 0, refused: 1 });
  });

  it('closes the connection of a call that outlives the drain budget, then exits 0', async () => {
    // Execute budget 1 s: the drain waits 4 s; the provider answers after 8 s.
    const r = await set.add({ env: { SVC_EXECUTE_BUDGET_MS: '1000' } });
    delays.set('con_slower', 8_000);
    const busy = new Client(r.url, { pipelining: 1 });
    try {
      const seen = provider.requests.length;
      const slow = call(busy, 'con_slower').then(
        () => 'answered',
        (err: Error & { code?: string }) => err.code ?? err.message,
      );
      while (!provider.requests.slice(seen).some((q) => q.url.includes('con_slower'))) await new Promise((resolve) => setTimeout(resolve, 10));
      const signalled = Date.now();
      r.child.kill('SIGTERM');
      expect(await r.exited).toEqual({ code: 0, signal: null });
      const took = Date.now() - signalled;
      expect(took).toBeGreaterThanOrEqual(3_900);
      expect(took).toBeLessThan(7_500);
      expect(await slow).toBe('UND_ERR_SOCKET');
    } finally {
      await busy.close();
    }
    expect(logged(r, 'draining: budget spent; closing the connections of requests still in flight')[0]).toMatchObject({ abandoned: 1, budgetMs: 4_000 });
  }, 30_000);
});
