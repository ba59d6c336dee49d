// A canary secret and the execution token never appear in any response, receipt or log line,
// whatever the outcome of the call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, publishSdk, type TestEngine } from './helpers/engine.ts';
import { startFakeProvider, json, type FakeProvider } from './helpers/fake-provider.ts';

const CANARY = 'sk_live_CANARY_4f1e2d3c';
let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };
const seen: string[] = [];

beforeAll(async () => {
  // A hostile provider: it echoes the credential in bodies and headers, on success and on error.
  provider = await startFakeProvider((req, res) => {
    const auth = String(req.headers.authorization);
    if (req.url.includes('con_err')) return json(res, 403, { error: `key ${auth} is not allowed` }, { 'x-echo': auth });
    if (req.url.startsWith('/v1/contacts?')) {
      return json(res, 200, { data: [{ id: 'con_1', note: auth }], has_more: false });
    }
    json(res, 200, { id: 'con_1', seen: auth, nested: { again: [auth] } }, { 'x-echo': auth });
  });
  t = await startTestEngine();
  sdk = await publishSdk(t, { name: 'canary', service: 'demo-crm', baseUrl: provider.url, secret: CANARY, operations: ['contacts/get', 'contacts/list', 'contacts/create'] });
});

afterAll(async () => {
  await t.stop(); // fails if a canary reached a log line
  await provider.stop();
});

describe('secrets never leak', () => {
  it('keeps the canary out of every response, receipt and log line', async () => {
    const calls = [
      { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' } },
      { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_err' } },
      { operation: 'demo-crm.contacts/list', input: {} },
      { operation: 'demo-crm.contacts/create', input: { body: { name: CANARY } } },
      { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' }, pagination: { maxPages: 2 } },
      { operation: 'demo-crm.deals/list', input: {} },
    ];
    for (const body of calls) {
      const res = await fetch(`${t.url}/v1/apps/${sdk.versionId}/executions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      seen.push(JSON.stringify([...res.headers]), await res.text());
    }
    expect(provider.requests.filter((r) => r.headers.authorization === `Bearer ${CANARY}`).length).toBe(3);
    for (const path of ['/v1/buckets', '/v1/workspace/services', '/v1/sdks', `/v1/versions/${sdk.versionId}/receipts`, '/v1/catalog/services']) {
      seen.push(JSON.stringify((await t.api('GET', path)).body));
    }
    const everything = [...seen, ...t.logs].join('\n');
    // The caller's own input may contain the string (contacts/create above) only inside its validation
    // error; strip that one echo of caller input and check the rest.
    const withoutCallerEcho = everything.split(`"name":"${CANARY}"`).join('');
    expect(withoutCallerEcho).not.toContain(CANARY);
    expect(everything).not.toContain(sdk.token);
    expect(everything).not.toContain(t.cliToken);
    expect(everything).toContain('[redacted]');
  });
});
