// Idempotency keys and retries over gRPC: the key in metadata `idempotency-key` (replayed answers
// say so in the reply's metadata `idempotent-replayed`), shared with REST for the same token; 409
// and 400 naming the metadata entry; a Unified call's key from metadata; retries that stop at the
// call's deadline rather than wait past it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { publishUnifiedTasks } from '../fixtures/apps.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishFaulty, startFaultyProvider, type Fault, type FaultyProvider } from '../fixtures/faulty-provider.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';

let t: TestEngine;
let provider: FaultyProvider;
let crm: DemoProvider;
let client: RawEngineClient;
let app: { versionId: string; token: string };
let unified: { versionId: string; token: string };
let ids = 0;

beforeAll(async () => {
  provider = await startFaultyProvider();
  crm = await startDemoProvider();
  t = await startTestEngine();
  app = await publishFaulty(t, 'faulty', provider.url);
  unified = await publishUnifiedTasks(t, crm);
  client = new RawEngineClient(t.engine.grpcUrl);
});
afterAll(async () => {
  client?.close();
  await t?.stop();
  await provider?.stop();
  await crm?.stop();
});

function call(method: 'createItem' | 'getItem', faults: Fault[] = ['ok']) {
  const id = `call-${++ids}`;
  provider.plan(id, faults);
  return { id, req: { versionId: app.versionId, operation: `faulty.${method}`, inputJson: JSON.stringify(method === 'getItem' ? { id } : { id, body: { name: id } }) } };
}
const key = (value: string | string[]) => ({ metadata: { 'idempotency-key': value } });

describe('idempotency keys in gRPC metadata', () => {
  it('answers the first answer again for the same key and request, saying so in the reply metadata, and shares the key with REST', async () => {
    const { id, req } = call('createItem');
    const first = await client.execute(app.token, req, key('grpc-key-1'));
    expect(first.envelope).toMatchObject({ ok: true, data: { id, received: 1 } });
    expect(first.headers?.['idempotent-replayed']).toBeUndefined();
    const again = await client.execute(app.token, req, key('grpc-key-1'));
    expect(again.envelope).toEqual(first.envelope);
    expect(again.headers?.['idempotent-replayed']).toBe('true');
    const overRest = await fetch(`${t.url}/v1/apps/${app.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json', 'idempotency-key': 'grpc-key-1' },
      body: JSON.stringify({ operation: req.operation, input: JSON.parse(req.inputJson) }),
    });
    expect(overRest.headers.get('idempotent-replayed')).toBe('true');
    expect(((await overRest.json()) as any).data).toEqual(first.envelope!.data);
    expect(provider.counts.get(id)).toBe(1);
  });

  it('refuses the key with another request (409) and a bad or doubled key (400), naming idempotency-key, sending nothing', async () => {
    await client.execute(app.token, call('createItem').req, key('grpc-key-2'));
    const other = call('createItem');
    const conflict = await client.execute(app.token, other.req, key('grpc-key-2'));
    expect(conflict.envelope).toMatchObject({ ok: false, status: 409, error: { code: 'ENGINE_IDEMPOTENCY_CONFLICT', details: { field: 'idempotency-key' } } });
    for (const bad of ['two words', 'k'.repeat(201), ['one', 'two']]) {
      const refused = await client.execute(app.token, other.req, key(bad));
      expect(refused.envelope).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'idempotency-key' } } });
    }
    expect(provider.counts.get(other.id)).toBeUndefined();
  });

  it('gives a Unified call the key from metadata', async () => {
    const req = { versionId: unified.versionId, operation: 'unified.tasks.create', inputJson: JSON.stringify({ input: { title: 'From metadata' }, targets: ['crm'] }) };
    const tasks = crm.tasks.length;
    const first = await client.execute(unified.token, req, key('grpc-unified'));
    expect(first.envelope?.ok).toBe(true);
    const again = await client.execute(unified.token, req, key('grpc-unified'));
    expect(again.envelope).toEqual(first.envelope);
    expect(again.headers?.['idempotent-replayed']).toBe('true');
    expect(crm.tasks.length).toBe(tasks + 1);
  });
});

describe('retries over gRPC', () => {
  it('retries a GET after 503, and lists why a POST was not retried', async () => {
    const get = call('getItem', [{ status: 503 }, 'ok']);
    expect((await client.execute(app.token, get.req)).envelope).toMatchObject({ ok: true, data: { received: 2 } });
    const post = call('createItem', [{ status: 503 }, 'ok']);
    const refused = await client.execute(app.token, post.req);
    expect(refused.envelope).toMatchObject({ ok: false, status: 503, error: { details: { not_retried: expect.stringContaining('POST') } } });
    expect(provider.counts.get(post.id)).toBe(1);
  });

  it('does not wait for a retry past the call’s deadline: the 429 comes back in time', async () => {
    const { id, req } = call('getItem', [{ status: 429, headers: { 'retry-after': '5' } }, 'ok']);
    const res = await client.execute(app.token, req, { deadlineMs: 2_000 });
    expect(res.error).toBeUndefined();
    expect(res.envelope).toMatchObject({ ok: false, status: 429 });
    expect(res.ms).toBeLessThan(2_000);
    expect(provider.counts.get(id)).toBe(1);
  });
});
