// Retries of provider requests, only where a repeat cannot act twice (src/execution/retry.ts),
// against a provider on loopback that fails on purpose (test/fixtures/faulty-provider.ts) and
// counts what it received per call: idempotent methods retried after 502/503/504, a reset and a
// timeout; every method after a 429 and after a failed TLS handshake; POST and PATCH never after
// an answer or a cut that may have acted. Retry-After (seconds and HTTP-date) and RateLimit-Reset
// are waited for; a wait past the Engine's longest is left to the caller. The envelope's details
// and the receipt list the attempts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishFaulty, startFaultyProvider, trustTestProviderCertificate, type FaultyProvider } from '../fixtures/faulty-provider.ts';

let t: TestEngine;
let provider: FaultyProvider;
let tlsProvider: FaultyProvider;
let app: { versionId: string; token: string };
let tlsApp: { versionId: string; token: string };
let ids = 0;

beforeAll(async () => {
  trustTestProviderCertificate();
  provider = await startFaultyProvider();
  tlsProvider = await startFaultyProvider({ tls: { handshakeFailures: 1 } });
  t = await startTestEngine({ SVC_PROVIDER_TIMEOUT_MS: '4000', SVC_PROVIDER_ATTEMPT_TIMEOUT_MS: '1000' });
  app = await publishFaulty(t, 'faulty', provider.url);
  tlsApp = await publishFaulty(t, 'faulty-tls', tlsProvider.url);
  // A first call warms the path (a cold one may pass the attempt timeout on a busy machine).
  await t.execute(app.versionId, app.token, { operation: 'faulty.getItem', input: { id: 'warm-up' } });
});
afterAll(async () => {
  await t?.stop();
  await provider?.stop();
  await tlsProvider?.stop();
});

const OPERATION = { GET: 'getItem', PUT: 'putItem', DELETE: 'deleteItem', POST: 'createItem', PATCH: 'patchItem' } as const;
type Method = keyof typeof OPERATION;

/** One call of `method` on a fresh call ID, after planning its faults. */
async function call(method: Method, faults: Parameters<FaultyProvider['plan']>[1], on = { provider, app, service: 'faulty' }) {
  const id = `call-${++ids}`;
  on.provider.plan(id, faults);
  const body = method === 'GET' || method === 'DELETE' ? {} : { body: { name: id } };
  const started = performance.now();
  const res = await t.execute(on.app.versionId, on.app.token, { operation: `${on.service}.${OPERATION[method]}`, input: { id, ...body } });
  return { id, res, ms: performance.now() - started, received: () => on.provider.counts.get(id) ?? 0 };
}

/** The newest receipt of the app (calls here run one at a time). */
async function lastReceipt(versionId = app.versionId) {
  return (await t.api('GET', `/v1/versions/${versionId}/receipts?limit=1`)).body.receipts[0];
}

describe('retried: the request cannot act twice', () => {
  it('retries a GET after 503 and 502 and answers the success, listing the attempts on the receipt', async () => {
    const { res, received } = await call('GET', [{ status: 503 }, { status: 502 }, 'ok']);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 200, data: { received: 3 } });
    expect(received()).toBe(3);
    const receipt = await lastReceipt();
    expect(receipt).toMatchObject({ ok: true, status: 200, attempts: [{ status: 503, waitMs: 0 }, { status: 502 }, { status: 200 }] });
    // Jittered backoff: half of each step fixed (100 ms, then 200 ms).
    expect(receipt.attempts[1].waitMs).toBeGreaterThanOrEqual(50);
    expect(receipt.attempts[2].waitMs).toBeGreaterThanOrEqual(100);
    expect(receipt.providerDurationMs).toBeCloseTo(receipt.attempts.reduce((s: number, a: any) => s + a.durationMs, 0), 1);
  });

  it('retries PUT and DELETE after a connection reset once the request arrived, and after 504', async () => {
    const put = await call('PUT', ['reset', 'ok']);
    expect(put.res.body).toMatchObject({ ok: true, data: { received: 2 } });
    expect((await lastReceipt()).attempts).toMatchObject([{ error: 'ENGINE_OUTCOME_UNKNOWN' }, { status: 200 }]);
    const del = await call('DELETE', [{ status: 504 }, 'ok']);
    expect(del.res.body).toMatchObject({ ok: true, data: { received: 2 } });
  });

  it('retries a GET that timed out after the provider received it, within the attempt timeout', async () => {
    const { res, received, ms } = await call('GET', ['hang', 'ok']);
    expect(res.body).toMatchObject({ ok: true, data: { received: 2 } });
    expect(received()).toBe(2);
    expect(ms).toBeGreaterThanOrEqual(1000); // the first attempt was cut at SVC_PROVIDER_ATTEMPT_TIMEOUT_MS
    expect((await lastReceipt()).attempts).toMatchObject([{ error: 'PROVIDER_TIMEOUT' }, { status: 200 }]);
  });

  it('retries a POST after 429: the provider says it did not act', async () => {
    const { res, received } = await call('POST', [{ status: 429 }, 'ok']);
    expect(res.body).toMatchObject({ ok: true, data: { received: 2 } });
    expect(received()).toBe(2);
  });

  it('retries a POST whose TLS handshake failed: nothing of the request was written', async () => {
    const { res, received } = await call('POST', ['ok'], { provider: tlsProvider, app: tlsApp, service: 'faulty-tls' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, data: { received: 1 } });
    expect(received()).toBe(1); // the first connection never carried the request
    expect((await lastReceipt(tlsApp.versionId)).attempts).toMatchObject([{ error: 'PROVIDER_UNREACHABLE' }, { status: 200 }]);
  });

  it('gives up after three attempts and lists them in the envelope details', async () => {
    const { res, received } = await call('GET', [{ status: 503 }, { status: 503 }, { status: 503 }, 'ok']);
    expect(received()).toBe(3);
    expect(res.body).toMatchObject({ ok: false, status: 503, error: { code: 'PROVIDER_ERROR', details: { attempts: [{ status: 503 }, { status: 503 }, { status: 503 }] } } });
  });
});

describe('waits the provider asks for', () => {
  it('waits Retry-After in seconds', async () => {
    const { res, ms } = await call('POST', [{ status: 429, headers: { 'retry-after': '1' } }, 'ok']);
    expect(res.body.ok).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(1000);
    expect((await lastReceipt()).attempts[1].waitMs).toBeGreaterThanOrEqual(1000);
  });

  it('waits until a Retry-After HTTP-date', async () => {
    const at = new Date(Math.ceil((Date.now() + 1000) / 1000) * 1000);
    const { res } = await call('GET', [{ status: 503, headers: { 'retry-after': at.toUTCString() } }, 'ok']);
    expect(res.body.ok).toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
  });

  it('waits RateLimit-Reset, and the reset of a RateLimit field', async () => {
    const reset = await call('GET', [{ status: 429, headers: { 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' } }, 'ok']);
    expect(reset.res.body.ok).toBe(true);
    expect(reset.ms).toBeGreaterThanOrEqual(1000);
    const field = await call('GET', [{ status: 429, headers: { ratelimit: '"default";r=0;t=1' } }, 'ok']);
    expect(field.res.body.ok).toBe(true);
    expect(field.ms).toBeGreaterThanOrEqual(1000);
  });

  it('stops waiting, and sends nothing more, when the REST client hangs up during the wait', async () => {
    const id = `call-${++ids}`;
    provider.plan(id, [{ status: 429, headers: { 'retry-after': '3' } }, 'ok']);
    const receipts = async () => (await t.api('GET', `/v1/versions/${app.versionId}/receipts?limit=1000`)).body.receipts.length as number;
    const before = await receipts();
    const abort = new AbortController();
    const answered = fetch(`${t.url}/v1/apps/${app.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'faulty.getItem', input: { id } }),
      signal: abort.signal,
    }).catch((err: Error) => err);
    while (!provider.counts.get(id)) await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    const gone = Date.now();
    expect(await answered).toBeInstanceOf(Error);
    // The call ends, its receipt written, well before the 3 s the provider asked for.
    while ((await receipts()) === before && Date.now() - gone < 5_000) await new Promise((r) => setTimeout(r, 50));
    expect(Date.now() - gone).toBeLessThan(2_000);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(provider.counts.get(id)).toBe(1);
  });

  it('answers the 429 when the provider asks for a longer wait than the Engine takes', async () => {
    const { res, received, ms } = await call('GET', [{ status: 429, headers: { 'retry-after': '60' } }, 'ok']);
    expect(res.body).toMatchObject({ ok: false, status: 429, error: { code: 'PROVIDER_ERROR' } });
    expect(received()).toBe(1);
    expect(ms).toBeLessThan(5_000); // no wait at all (waiting 60 s, or even the Engine's longest of 10 s, would show)
  });
});

describe('not retried: the provider may have acted', () => {
  it.each(['POST', 'PATCH'] as const)('%s after 503 answers it, saying why it was not sent again', async (method) => {
    const { res, received } = await call(method, [{ status: 503 }, 'ok']);
    expect(received()).toBe(1);
    expect(res.body).toMatchObject({ ok: false, status: 503, error: { code: 'PROVIDER_ERROR', details: { not_retried: expect.stringContaining(`${method} is not idempotent`) } } });
    expect(res.body.error.details.attempts).toBeUndefined();
  });

  it('POST after a reset once the request arrived: outcome unknown, sent once', async () => {
    const { res, received } = await call('POST', ['reset', 'ok']);
    expect(received()).toBe(1);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'ENGINE_OUTCOME_UNKNOWN', details: { provider_execution: 'unknown', not_retried: expect.any(String) } } });
  });

  it('POST that timed out after the provider received it: the whole budget, sent once', async () => {
    const { res, received, ms } = await call('POST', ['hang', 'ok']);
    expect(received()).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(4000); // no attempt timeout: it could not be retried anyway
    expect(res.body).toMatchObject({ ok: false, status: 504, error: { code: 'PROVIDER_TIMEOUT', details: { provider_execution: 'unknown' } } });
  });

  it('an Idempotency-Key the provider does not honour does not make a POST repeatable', async () => {
    const id = `call-${++ids}`;
    provider.plan(id, [{ status: 503 }, 'ok']);
    const res = await fetch(`${t.url}/v1/apps/${app.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json', 'idempotency-key': `order-${id}` },
      body: JSON.stringify({ operation: 'faulty.createItem', input: { id, body: {} } }),
    });
    expect(((await res.json()) as any).error.details.not_retried).toContain('POST is not idempotent');
    expect(provider.counts.get(id)).toBe(1);
    // Nor is a key forwarded to a provider whose engine.yaml declares none.
    expect(provider.received.find((r) => r.id === id)!.headers['idempotency-key']).toBeUndefined();
  });
});
