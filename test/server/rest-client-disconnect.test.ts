// A REST client that hangs up stops the work the Engine does for it: the provider request in flight
// is cancelled and a traversal asks for no further pages. The receipt says the outcome is unknown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let t: TestEngine;
let crm: FakeProvider;
let sdk: { versionId: string; token: string };
/** Provider requests whose connection closed before the provider answered. */
let closedUnanswered = 0;
/** Holds the list's second page until the Engine lets go of it, so a hang-up lands mid-request. */
let holdSecondPage = false;

/** Resolves 'closed' when the Engine drops the request, or 'due' after 5 s. */
const closedOrDue = (res: import('node:http').ServerResponse) =>
  Promise.race([new Promise<'closed'>((resolve) => res.once('close', () => resolve('closed'))), sleep(5_000).then(() => 'due' as const)]);

beforeAll(async () => {
  crm = await startFakeProvider(async (req, res) => {
    if (req.url.startsWith('/v1/contacts/con_slow')) {
      // Answers after 5 s unless the Engine gives up on the request first.
      if ((await closedOrDue(res)) === 'closed') return void (res.writableFinished || closedUnanswered++);
      return json(res, 200, { id: 'con_slow' });
    }
    // An endless list, 150 ms a page: only a client's limit or its going away ends the traversal.
    const after = Number(new URL(req.url, 'http://x').searchParams.get('starting_after')?.slice(4) ?? 0);
    if (holdSecondPage && after === 1) {
      if ((await closedOrDue(res)) === 'closed') return;
    } else await sleep(150);
    json(res, 200, { data: [{ id: `con_${after + 1}` }], has_more: true });
  });
  t = await startTestEngine();
  sdk = await publishSdk(t, { name: 'gone', service: 'demo-crm', baseUrl: crm.url, secret: 'crm-key-disconnect', operations: ['contacts/get', 'contacts/list'] });
});

afterAll(async () => {
  await t?.stop();
  await crm?.stop();
});

/** Starts an execution and hangs up once the provider has seen `requests` more requests. */
async function hangUpAfter(requests: number, body: unknown): Promise<void> {
  const before = crm.requests.length;
  const abort = new AbortController();
  const answered = fetch(`${t.url}/v1/apps/${sdk.versionId}/executions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: abort.signal,
  }).catch((err: Error) => err);
  while (crm.requests.length - before < requests) await sleep(10);
  abort.abort();
  expect(await answered).toBeInstanceOf(Error);
}

const receipts = async () => (await t.api('GET', `/v1/versions/${sdk.versionId}/receipts?limit=100`)).body.receipts as { operation: string; errorCode: string | null; pages: number }[];

describe('a REST client that disconnects', () => {
  it('cancels the provider request in flight, and the receipt says the outcome is unknown', async () => {
    const started = Date.now();
    await hangUpAfter(1, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_slow' } });
    while (closedUnanswered === 0 && Date.now() - started < 4_000) await sleep(20);
    expect(closedUnanswered).toBe(1); // well before the provider's 5 s answer
    let receipt: { errorCode: string | null } | undefined;
    while (!receipt && Date.now() - started < 4_000) {
      receipt = (await receipts()).find((r) => r.operation === 'demo-crm.contacts/get');
      if (!receipt) await sleep(20);
    }
    expect(receipt?.errorCode).toBe('ENGINE_OUTCOME_UNKNOWN');
  });

  it('asks for no further pages of a traversal', async () => {
    // The second page is held, so the hang-up lands while it is in flight however slow the machine:
    // otherwise it could land between pages, where nothing is in flight and the code is ENGINE_CANCELLED.
    holdSecondPage = true;
    const before = crm.requests.length;
    await hangUpAfter(2, { operation: 'demo-crm.contacts/list', input: {} });
    await sleep(1_000); // ~6 more pages, were the traversal still running
    holdSecondPage = false;
    expect(crm.requests.length - before).toBe(2);
    const list = (await receipts()).find((r) => r.operation === 'demo-crm.contacts/list');
    expect(list).toMatchObject({ errorCode: 'ENGINE_OUTCOME_UNKNOWN' });
  });

  it('still gets a whole answer when it stays', async () => {
    const res = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/list', input: {}, pagination: { maxPages: 2 } });
    expect(res.body).toMatchObject({ ok: true, status: 200, data: { data: [{ id: 'con_1' }, { id: 'con_2' }] } });
  });
});
