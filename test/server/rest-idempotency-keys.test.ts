// Idempotency keys over REST (src/execution/idempotency.ts, src/calls): the Idempotency-Key header,
// or idempotencyKey in the body, on a physical call as on a Unified one. The same key and request
// answers the first answer (Idempotent-Replayed: true) without sending anything, after a restart
// too; another request is 409; a call still running is 409 retryable; a key is one token's; nothing
// is kept when nothing was sent or the provider answered 429; bad keys are 400 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { publishUnifiedTasks } from '../fixtures/apps.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishFaulty, startFaultyProvider, type Fault, type FaultyProvider } from '../fixtures/faulty-provider.ts';

let t: TestEngine;
let provider: FaultyProvider;
let crm: DemoProvider;
let app: { versionId: string; token: string };
let unified: { versionId: string; token: string };
let ids = 0;

beforeAll(async () => {
  provider = await startFaultyProvider();
  crm = await startDemoProvider();
  t = await startTestEngine();
  app = await publishFaulty(t, 'faulty', provider.url);
  unified = await publishUnifiedTasks(t, crm);
});
afterAll(async () => {
  await t?.stop();
  await provider?.stop();
  await crm?.stop();
});

interface Sent {
  status: number;
  replayed: string | null;
  body: any;
}

async function execute(on: { versionId: string; token: string }, body: unknown, key?: string): Promise<Sent> {
  const res = await fetch(`${t.url}/v1/apps/${on.versionId}/executions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${on.token}`, 'content-type': 'application/json', ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.json() };
}

/** A POST of a fresh call ID with `faults` planned; its body and ID. */
function post(faults: Fault[] = ['ok']) {
  const id = `call-${++ids}`;
  provider.plan(id, faults);
  return { id, body: { operation: 'faulty.createItem', input: { id, body: { name: id } } } };
}
const receipts = async () => (await t.api('GET', `/v1/versions/${app.versionId}/receipts?limit=1000`)).body.receipts.length as number;

describe('the same key and request', () => {
  it('answers the first answer without sending anything, and says so, after a restart too', async () => {
    const { id, body } = post();
    const first = await execute(app, body, 'key-replay');
    expect(first).toMatchObject({ status: 200, replayed: null, body: { ok: true, data: { id, received: 1 } } });
    const written = await receipts();
    const again = await execute(app, body, 'key-replay');
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect(provider.counts.get(id)).toBe(1);
    expect(await receipts()).toBe(written); // nothing ran: no receipt
    await t.restart();
    expect(await execute(app, body, 'key-replay')).toEqual({ ...first, replayed: 'true' });
    expect(provider.counts.get(id)).toBe(1);
  });

  it('takes the key from the body as from the header', async () => {
    const { id, body } = post();
    const first = await execute(app, { ...body, idempotencyKey: 'key-in-body' });
    const again = await execute(app, body, 'key-in-body');
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect(provider.counts.get(id)).toBe(1);
  });

  it('replays an unknown outcome rather than send a POST the provider may have acted on again', async () => {
    const { id, body } = post(['reset', 'ok']);
    const first = await execute(app, body, 'key-unknown');
    expect(first).toMatchObject({ status: 502, body: { error: { code: 'ENGINE_OUTCOME_UNKNOWN' } } });
    expect(await execute(app, body, 'key-unknown')).toEqual({ ...first, replayed: 'true' });
    expect(provider.counts.get(id)).toBe(1);
  });

  it('replays a Unified call given the header', async () => {
    const body = { operation: 'unified.tasks.create', input: { title: 'Header key' }, targets: ['crm'] };
    const tasks = crm.tasks.length;
    const first = await execute(unified, body, 'unified-header');
    expect(first.body.ok).toBe(true);
    const again = await execute(unified, body, 'unified-header');
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect(crm.tasks.length).toBe(tasks + 1);
    const clash = await execute(unified, { ...body, idempotencyKey: 'another' }, 'unified-header');
    expect(clash).toMatchObject({ status: 400, body: { error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'Idempotency-Key' } } } });
  });
});

describe('refusals', () => {
  it('refuses the key with another request (409), naming the header, and sends nothing', async () => {
    const { body } = post();
    await execute(app, body, 'key-other');
    const { id, body: otherBody } = post();
    const res = await execute(app, otherBody, 'key-other');
    expect(res).toMatchObject({ status: 409, body: { ok: false, error: { code: 'ENGINE_IDEMPOTENCY_CONFLICT', retryable: false, details: { field: 'Idempotency-Key' } } } });
    expect(provider.counts.get(id)).toBeUndefined();
  });

  it('refuses a duplicate while the first call runs (409, retryable), then replays the first', async () => {
    const { id, body } = post([{ status: 200, delayMs: 800 }]);
    const first = execute(app, body, 'key-running');
    await new Promise((r) => setTimeout(r, 300));
    const duplicate = await execute(app, body, 'key-running');
    expect(duplicate).toMatchObject({ status: 409, body: { error: { code: 'ENGINE_IDEMPOTENCY_CONFLICT', retryable: true, message: expect.stringContaining('still running') } } });
    const done = await first;
    expect(done.body.ok).toBe(true);
    expect(await execute(app, body, 'key-running')).toEqual({ ...done, replayed: 'true' });
    expect(provider.counts.get(id)).toBe(1);
  });

  it('keeps a key per token: another app’s call with the same key runs on its own', async () => {
    const { id, body } = post();
    await execute(app, body, 'key-shared');
    const second = await publishFaulty(t, 'faulty-two', provider.url);
    const res = await execute(second, { ...body, operation: 'faulty-two.createItem' }, 'key-shared');
    expect(res).toMatchObject({ status: 200, replayed: null, body: { ok: true, data: { received: 2 } } });
    expect(provider.counts.get(id)).toBe(2);
  });

  it.each([
    ['a space', 'order 1'],
    ['a character past ASCII', 'commande-é'],
    ['201 characters', 'k'.repeat(201)],
  ])('refuses a header key with %s (400 naming Idempotency-Key), sending nothing', async (_what, key) => {
    const { id, body } = post();
    const res = await execute(app, body, key);
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'Idempotency-Key' } } } });
    expect(provider.counts.get(id)).toBeUndefined();
  });

  it('refuses a body key that is empty or holds a control character, and two different keys', async () => {
    const { id, body } = post();
    for (const idempotencyKey of ['', 'tab\there']) {
      const res = await execute(app, { ...body, idempotencyKey });
      expect(res).toMatchObject({ status: 400, body: { error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'idempotencyKey' } } } });
    }
    const both = await execute(app, { ...body, idempotencyKey: 'one' }, 'two');
    expect(both).toMatchObject({ status: 400, body: { error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'Idempotency-Key' } } } });
    expect(provider.counts.get(id)).toBeUndefined();
  });
});

describe('keys that keep nothing', () => {
  it('a call refused before anything was sent: the key carries the corrected request', async () => {
    const refused = await execute(app, { operation: 'faulty.createItem', input: { body: {} } }, 'key-corrected');
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'ENGINE_INVALID_INPUT' } } });
    const { id, body } = post();
    expect(await execute(app, body, 'key-corrected')).toMatchObject({ status: 200, body: { ok: true } });
    expect(provider.counts.get(id)).toBe(1);
  });

  it('a 429 the provider answered: it did not act, so the same key sends the call again', async () => {
    const { id, body } = post([{ status: 429, headers: { 'retry-after': '60' } }, 'ok']);
    const limited = await execute(app, body, 'key-429');
    expect(limited).toMatchObject({ status: 200, body: { ok: false, status: 429 } });
    const again = await execute(app, body, 'key-429');
    expect(again).toMatchObject({ status: 200, replayed: null, body: { ok: true, data: { received: 2 } } });
    expect(provider.counts.get(id)).toBe(2);
  });
});
