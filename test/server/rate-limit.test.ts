// Per-token rate limits (SVC_RATE_LIMIT_PER_MINUTE): a call past the limit is refused with 429
// ENGINE_RATE_LIMITED and Retry-After before anything reaches the provider, on every surface; the
// count is per token; and with Redis two replicas share one count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { openSession, rawMcp } from '../fixtures/mcp.ts';
import { startReplicas, type Replica, type ReplicaSet } from '../fixtures/replicas.ts';

const SECRET = 'rate-limit-secret-canary';
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => json(res, 200, { id: req.url.split('/')[3]?.split('?')[0] }));
});
afterAll(async () => provider?.stop());

const body = (id: string) => ({ operation: 'demo-crm.contacts/get', input: { contact_id: id } });

describe('one Engine, SVC_RATE_LIMIT_PER_MINUTE=3', () => {
  let t: TestEngine;
  beforeAll(async () => {
    t = await startTestEngine({ SVC_RATE_LIMIT_PER_MINUTE: '3' });
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
    await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: SECRET });
    t.canaries.push(SECRET);
  });
  afterAll(async () => t?.stop());

  it('refuses the 4th call of a token within the minute with 429 and Retry-After, before the provider; other tokens keep their own count', async () => {
    const sdk = (await t.api('POST', '/v1/sdks/publish', { name: 'limited', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
    const other = (await t.api('POST', '/v1/sdks/publish', { name: 'other', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
    t.canaries.push(sdk.token, other.token);
    for (let i = 0; i < 3; i++) expect((await t.execute(sdk.versionId, sdk.token, body(`con_rl${i}`))).body.ok).toBe(true);
    const before = provider.requests.length;
    const res = await fetch(`${t.url}/v1/apps/${sdk.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body('con_rlover')),
    });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const refused = await res.json();
    expect(refused).toMatchObject({ ok: false, status: 429, error: { code: 'ENGINE_RATE_LIMITED', retryable: true, details: { limit_per_minute: 3, provider_execution: 'not_started' } } });
    expect(provider.requests.length).toBe(before);
    expect((await t.execute(other.versionId, other.token, body('con_rlother'))).body.ok).toBe(true);
  });

  it('a Unified call whose step the limit refused answers 429 with Retry-After, before the provider', async () => {
    await t.api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: provider.url });
    const sdk = (await t.api('POST', '/v1/sdks/publish', { name: 'limited-unified', services: ['github=v1', 'demo-crm=v1'], operations: ['unified=tasks.create'] })).body;
    t.canaries.push(sdk.token);
    const unified = { operation: 'unified.tasks.create', input: { title: 'x' }, targets: ['crm'] };
    const post = () =>
      fetch(`${t.url}/v1/apps/${sdk.versionId}/executions`, { method: 'POST', headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'application/json' }, body: JSON.stringify(unified) });
    for (let i = 0; i < 3; i++) expect((await post()).status).not.toBe(429);
    const before = provider.requests.length;
    const res = await post();
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const refused = (await res.json()) as { error: unknown };
    expect(refused.error).toMatchObject({ code: 'UNIFIED_STEP_FAILED', details: { provider_execution: 'not_started', steps: [{ target: 'crm', error: { code: 'ENGINE_RATE_LIMITED' } }] } });
    expect(provider.requests.length).toBe(before);
  });

  it('counts call()s of an execute against the MCP token, and hands the refusal to the script', async () => {
    const server = (await t.api('POST', '/v1/mcp/publish', { name: 'limited-mcp', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
    t.canaries.push(server.token);
    const mcp = rawMcp(server.url, server.token);
    const headers = await openSession(mcp);
    const code = 'const out = []; for (let i = 0; i < 4; i++) { const r = await call("demo-crm.contacts/get", { contact_id: "con_m" + i }); out.push(r.ok ? "ok" : r.error.code); } return out';
    const answer = await mcp.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'execute', arguments: { code } } }, headers);
    expect(answer.body.result.structuredContent).toEqual({ result: ['ok', 'ok', 'ok', 'ENGINE_RATE_LIMITED'] });
  });
});

describe('two replicas on one Redis, SVC_RATE_LIMIT_PER_MINUTE=4', () => {
  let set: ReplicaSet;
  let a: Replica;
  let b: Replica;
  beforeAll(async () => {
    set = await startReplicas({ replicas: 2, env: { SVC_RATE_LIMIT_PER_MINUTE: '4' } });
    [a, b] = set.replicas as [Replica, Replica];
    set.canaries.push(SECRET);
    expect((await set.api(a, 'PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url })).status).toBe(200);
    expect((await set.api(b, 'PUT', '/v1/buckets/default/secrets/demo-crm', { value: SECRET })).status).toBe(204);
  }, 120_000);
  afterAll(async () => set?.stop(), 60_000);

  it('shares one count per token across replicas', async () => {
    const sdk = (await set.api(a, 'POST', '/v1/sdks/publish', { name: 'shared-limit', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
    set.canaries.push(sdk.token);
    const statuses: number[] = [];
    for (const on of [a, b, a, b, a, b]) statuses.push((await set.execute(on, sdk.versionId, sdk.token, body('con_shared'))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
