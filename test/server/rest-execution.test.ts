// REST execution against the Engine on a loopback port, with fake providers that are real HTTP servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { pointService, startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

const SECRET = 'canary-rest-7f3a9c1e5b';

let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };
let other: { versionId: string; token: string };

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res, socket) => {
    const id = req.url.split('/')[3]?.split('?')[0];
    if (req.headers.authorization !== `Bearer ${SECRET}`) return json(res, 401, { error: 'bad key' });
    if (req.method === 'GET' && id === 'con_404') return json(res, 404, { error: { type: 'not_found', message: 'no such contact' } });
    if (req.method === 'GET' && id === 'con_500') return json(res, 500, { error: { type: 'boom' } });
    if (req.method === 'GET' && id === 'con_slow') return; // never answers
    if (req.method === 'GET' && id === 'con_reset') return void socket.destroy();
    if (req.method === 'GET' && id === 'con_huge') return json(res, 200, { id, blob: 'x'.repeat(3000) });
    if (req.method === 'GET') return json(res, 200, { id, name: 'Ada', email: 'ada@example.test', labels: {}, created_at: '2026-01-01T00:00:00Z' });
    if (req.method === 'POST') return json(res, 201, { id: 'con_new', ...JSON.parse(req.body) });
    json(res, 405, {});
  });
  t = await startTestEngine({ SVC_PROVIDER_TIMEOUT_MS: '400', SVC_REST_MAX_RESULT_BYTES: '2048', SVC_MAX_REQUEST_BYTES: '4096' });
  sdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get', 'contacts/create'] });
  other = (await t.api('POST', '/v1/sdks/publish', { name: 'other', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
});

afterAll(async () => {
  await t.stop();
  await provider.stop();
});

const call = (operation: string, input: unknown, token = sdk.token, versionId = sdk.versionId) => t.execute(versionId, token, { operation, input });

describe('REST execution', () => {
  it('returns the envelope for a successful call, with the credential injected by the Engine', async () => {
    const res = await call('demo-crm.contacts/get', { contact_id: 'con_0001' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, status: 200, data: expect.objectContaining({ id: 'con_0001', name: 'Ada' }), error: null });
    expect(provider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('sends the request body of a mutation and returns the provider status', async () => {
    const res = await call('demo-crm.contacts/create', { body: { name: 'Bob', email: 'bob@example.test', labels: { team: 'ops' } } });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.status).toBe(201);
    expect(JSON.parse(provider.requests.at(-1)!.body)).toEqual({ name: 'Bob', email: 'bob@example.test', labels: { team: 'ops' } });
  });

  it('reports a provider 4xx as ok:false with the provider status, HTTP 200', async () => {
    const res = await call('demo-crm.contacts/get', { contact_id: 'con_404' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, status: 404, data: null, error: { code: 'PROVIDER_ERROR', retryable: false } });
    expect(res.body.error.details.providerBody).toEqual({ error: { type: 'not_found', message: 'no such contact' } });
  });

  it('reports a provider 5xx as retryable', async () => {
    const res = await call('demo-crm.contacts/get', { contact_id: 'con_500' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, status: 500, error: { code: 'PROVIDER_ERROR', retryable: true } });
  });

  it('times out a provider that never answers with PROVIDER_TIMEOUT (504, outcome unknown)', async () => {
    const started = Date.now();
    const res = await call('demo-crm.contacts/get', { contact_id: 'con_slow' });
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({ ok: false, status: 504, error: { code: 'PROVIDER_TIMEOUT', details: { provider_execution: 'unknown' } } });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('classifies a connection reset after the request was sent as an unknown outcome', async () => {
    const res = await call('demo-crm.contacts/get', { contact_id: 'con_reset' });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: 'ENGINE_OUTCOME_UNKNOWN', details: { provider_execution: 'unknown' } });
  });

  it('reports an unreachable provider as PROVIDER_UNREACHABLE (502, not started)', async () => {
    const port = await closedPort();
    await pointService(t, 'demo-crm', `http://127.0.0.1:${port}`, SECRET);
    try {
      const res = await call('demo-crm.contacts/get', { contact_id: 'con_0001' });
      expect(res.status).toBe(502);
      expect(res.body.error).toMatchObject({ code: 'PROVIDER_UNREACHABLE', retryable: true, details: { provider_execution: 'not_started' } });
    } finally {
      await pointService(t, 'demo-crm', provider.url, SECRET);
    }
  });

  it('rejects invalid input with ENGINE_INVALID_INPUT naming the instancePath, before any provider request', async () => {
    const before = provider.requests.length;
    const res = await call('demo-crm.contacts/create', { body: { name: '', email: 'x@example.test', labels: { ok: 'yes', bad: 7 } } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('ENGINE_INVALID_INPUT');
    const paths = res.body.error.details.errors.map((e: { instancePath: string }) => e.instancePath);
    expect(paths).toContain('/body/name');
    expect(paths).toContain('/body/labels/bad');
    expect(paths).not.toContain('/body/labels/ok');
    const unknown = await call('demo-crm.contacts/get', { contact_id: 'con_0001', authorization: 'Bearer stolen' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("unknown property 'authorization'");
    expect(provider.requests.length).toBe(before);
  });

  it('refuses a token of another SDK app (401)', async () => {
    const res = await call('demo-crm.contacts/get', { contact_id: 'con_0001' }, other.token, sdk.versionId);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ ok: false, status: 401, error: { code: 'ENGINE_UNAUTHENTICATED' } });
  });

  it('refuses an operation that the version does not select (403) and an unknown one (404)', async () => {
    const before = provider.requests.length;
    const notSelected = await call('demo-crm.deals/list', {});
    expect(notSelected.status).toBe(403);
    expect(notSelected.body.error.code).toBe('ENGINE_FORBIDDEN_OPERATION');
    const unknown = await call('demo-crm.nope/never', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('ENGINE_UNKNOWN_OPERATION');
    expect(provider.requests.length).toBe(before);
  });

  it('refuses an unknown, malformed, missing or revoked token (401)', async () => {
    const fake = `svc_sdk_${'A'.repeat(43)}`;
    expect((await call('demo-crm.contacts/get', { contact_id: 'con_0001' }, fake)).status).toBe(401);
    expect((await call('demo-crm.contacts/get', { contact_id: 'con_0001' }, 'garbage')).status).toBe(401);
    const missing = await fetch(`${t.url}/v1/apps/${sdk.versionId}/executions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(missing.status).toBe(401);
    const extra = await t.api('POST', '/v1/sdks/publish', { name: 'revoked', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] });
    const row = await t.engine.store.getTokenByHash((await import('../../src/ids/index.ts')).hashToken(extra.body.token));
    expect(await t.engine.deps.tokens.revoke(row!.id)).toBe(true);
    const revoked = await call('demo-crm.contacts/get', { contact_id: 'con_0001' }, extra.body.token, extra.body.versionId);
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.message).toContain('revoked');
  });

  it('refuses an oversized request body (413) and an oversized provider result (413), never cutting it', async () => {
    const big = await call('demo-crm.contacts/create', { body: { name: 'x'.repeat(5000), email: 'a@example.test' } });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('ENGINE_INPUT_TOO_LARGE');
    const huge = await call('demo-crm.contacts/get', { contact_id: 'con_huge' });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ ok: false, data: null, error: { code: 'ENGINE_RESULT_TOO_LARGE', details: { limitBytes: 2048 } } });
  });

  it('rejects malformed JSON and a wrong content type with 400', async () => {
    const bad = await fetch(`${t.url}/v1/apps/${sdk.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'application/json' },
      body: '{"operation":',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe('ENGINE_INVALID_INPUT');
    const text = await fetch(`${t.url}/v1/apps/${sdk.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(text.status).toBe(400);
    const extraField = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: {}, extra: 1 });
    expect(extraField.status).toBe(400);
    expect(extraField.body.error.details.errors[0].message).toContain("unknown property 'extra'");
  });

  it('records one receipt per call with what ran and what came back', async () => {
    const res = await t.api('GET', `/v1/versions/${sdk.versionId}/receipts?limit=100`);
    expect(res.status).toBe(200);
    const receipts = res.body.receipts;
    const success = receipts.find((r: any) => r.operation === 'demo-crm.contacts/get' && r.ok);
    expect(success).toMatchObject({ versionId: sdk.versionId, surface: 'rest', status: 200, pages: 1, errorCode: null });
    expect(success.bytes).toBeGreaterThan(0);
    expect(success.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(success.providerDurationMs).toBeGreaterThan(0);
    expect(receipts.some((r: any) => r.errorCode === 'PROVIDER_TIMEOUT')).toBe(true);
    expect(receipts.some((r: any) => r.errorCode === 'ENGINE_INVALID_INPUT' && r.pages === 0)).toBe(true);
    expect(JSON.stringify(receipts)).not.toContain(SECRET);
    expect(JSON.stringify(receipts)).not.toContain(sdk.token);
  });
});
