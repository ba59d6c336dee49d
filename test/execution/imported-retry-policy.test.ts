// An imported API declares what engine.yaml declares for a bundled one (src/catalog/policy.ts): the
// header in which the provider honours an idempotency key, and the attempts of one request. A keyed
// POST is then retried after a 503 with the same derived key each time; an unkeyed one never is;
// the attempts stop at the declared count; a bad declaration is refused naming its field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { faultyDescription, publishFaulty, startFaultyProvider, type FaultyProvider } from '../fixtures/faulty-provider.ts';

let t: TestEngine;
let provider: FaultyProvider;
let app: { versionId: string; token: string };
let ids = 0;

beforeAll(async () => {
  provider = await startFaultyProvider();
  t = await startTestEngine();
  app = await publishFaulty(t, 'payments', provider.url, { idempotency: { header: 'Idempotency-Key' }, retry: { maxAttempts: 2 } });
});
afterAll(async () => {
  await t?.stop();
  await provider?.stop();
});

async function call(operation: string, faults: Parameters<FaultyProvider['plan']>[1], key?: string) {
  const id = `call-${++ids}`;
  provider.plan(id, faults);
  const input = operation === 'createItem' ? { id, body: { name: id } } : { id };
  const res = await t.execute(app.versionId, app.token, { operation: `payments.${operation}`, input, ...(key ? { idempotencyKey: key } : {}) });
  return { res, received: () => provider.received.filter((r) => r.id === id) };
}

describe('an imported API with idempotency and retry declared', () => {
  it('retries a keyed POST after 503, sending the same derived key (never the caller’s) each time', async () => {
    const { res, received } = await call('createItem', [{ status: 503 }, 'ok'], 'order-1042');
    expect(res.body).toMatchObject({ ok: true, data: { received: 2 } });
    const keys = received().map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[1]).toBe(keys[0]);
    expect(keys[0]).not.toContain('order-1042');
  });

  it('does not retry the same POST without a key, and sends no key header', async () => {
    const { res, received } = await call('createItem', [{ status: 503 }, 'ok']);
    expect(res.body).toMatchObject({ ok: false, status: 503 });
    expect(received()).toHaveLength(1);
    expect(received()[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('stops at the declared attempts', async () => {
    const { res, received } = await call('getItem', [{ status: 503 }, { status: 503 }, 'ok']);
    expect(res.body).toMatchObject({ ok: false, status: 503 });
    expect(received()).toHaveLength(2);
  });

  it('refuses a declaration it cannot use, naming the field', async () => {
    const document = faultyDescription(provider.url);
    const badHeader = await t.api('POST', '/v1/workspace/imports', { name: 'bad-header', version: 'v1', document, idempotency: { header: 'Idempotency Key' } });
    expect(badHeader.status).toBe(400);
    expect(badHeader.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'idempotency.header' } });
    const tooMany = await t.api('POST', '/v1/workspace/imports', { name: 'too-many', version: 'v1', document, retry: { maxAttempts: 11 } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'retry.maxAttempts' } });
  });
});
