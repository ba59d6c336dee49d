// Control-plane inputs found by review to end in a 500, a plain-text answer or a silently changed
// value: each now gets the envelope, and a 4xx naming the field, on SQLite and PostgreSQL alike.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { toEnvelope } from '../../src/envelope/index.ts';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/postgres.ts';

const json = (body: unknown) => ({ 'content-type': 'application/json', body: typeof body === 'string' ? body : JSON.stringify(body) });

async function call(t: TestEngine, method: string, path: string, options: { body?: unknown; auth?: boolean; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(options.auth === false ? {} : { authorization: `Bearer ${t.cliToken}` }), ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    const j = json(options.body);
    headers['content-type'] ??= j['content-type'];
    body = j.body;
  }
  const res = await fetch(t.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, body: parsed };
}

describe('SQLite engine', () => {
  let t: TestEngine;
  beforeAll(async () => {
    t = await startTestEngine();
  });
  afterAll(async () => t?.stop());

  it('answers an HTTP method the router does not know with the error envelope, not a plain-text 501', async () => {
    const res = await call(t, 'PROPFIND', '/v1/buckets');
    expect(res.type).toContain('application/json');
    expect(res.body).toMatchObject({ ok: false, status: 501, error: { code: 'ENGINE_METHOD_NOT_ALLOWED', details: { provider_execution: 'not_started' } } });
    expect(res.body.status).toBe(res.status);
  });

  it('an unexpected failure (500) says whether a provider was reached is unknown, and shows nothing of the error', () => {
    const envelope = toEnvelope(new Error('svc_sdk_CANARY internal detail'));
    expect(envelope).toMatchObject({ ok: false, status: 500, error: { code: 'ENGINE_INTERNAL', details: { provider_execution: 'unknown' } } });
    expect(JSON.stringify(envelope)).not.toContain('CANARY');
  });

  it('starts a device authorization without a body (the body is optional) when the client sends Content-Length: 0', async () => {
    // fetch sends `content-length: 0` and no Content-Type for a bodyless POST.
    const res = await call(t, 'POST', '/v1/auth/device', { auth: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body.device_code).toEqual(expect.any(String));
  });
});

describe('end-user references', () => {
  const CLIENT_SECRET = 'review-oauth-client-secret-canary';
  let t: TestEngine;
  let crm: DemoProvider;
  let sdk: { versionId: string; token: string };
  beforeAll(async () => {
    crm = await startDemoProvider({ oauth: { clients: { 'svc-test': CLIENT_SECRET }, accessTokenTtlSeconds: 3600 } });
    t = await startTestEngine();
    sdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: crm.apiKey, operations: ['account/get'] });
    t.canaries.push(CLIENT_SECRET);
    expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-test', clientSecret: CLIENT_SECRET })).status).toBe(204);
  });
  afterAll(async () => {
    await t?.stop();
    await crm?.stop();
  });

  // A store keeping UTF-8 turned 'alice\ud800' into 'alice\ufffd': two references, one connection.
  it('refuses an end-user reference with an unpaired surrogate or a control character, wherever one is given', async () => {
    for (const ref of ['alice\ud800', 'alice\udfff', 'bob\u0007']) {
      const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: ref });
      expect(started.status).toBe(400);
      expect(started.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'endUserRef' } });
      expect(started.body.error.message).toContain('unpaired UTF-16 surrogates');
      const call = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, selectors: { endUserRef: ref } });
      expect(call.status).toBe(400);
      expect(call.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'selectors.endUserRef' } });
    }
    expect((await t.api('POST', '/v1/mcp/publish', { name: 'refs', services: ['demo-crm=v1'], operations: ['demo-crm=account/get'] })).status).toBe(200);
    const token = await t.api('POST', '/v1/mcp/refs/tokens', { allow: ['*'], binding: { endUserRef: 'alice\ud800' } });
    expect(token.status).toBe(400);
    expect(token.body.error.details.field).toBe('binding.endUserRef');
    // A well-formed reference outside ASCII is fine.
    expect((await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'ålice 😀' })).status).toBe(201);
  });
});

describe('PostgreSQL store', () => {
  let db: TestDatabase;
  let a: TestEngine;
  let b: TestEngine;
  beforeAll(async () => {
    db = await createTestDatabase();
    // Replicas share one master key (README, "Scale out"): a replica with another is refused at start.
    const key = { SVC_MASTER_KEY: randomBytes(32).toString('hex') };
    a = await startTestEngine(key, undefined, { databaseUrl: db.url });
    b = await startTestEngine(key, undefined, { databaseUrl: db.url });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await db?.drop();
  });

  it('refuses a NUL character in a string field with a 400 naming it, not a 500 from the database', async () => {
    expect((await a.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: 'http://127.0.0.1:9' })).status).toBe(200);
    expect((await a.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'c', clientSecret: 'pg-client-secret-canary' })).status).toBe(204);
    a.canaries.push('pg-client-secret-canary');
    expect((await a.api('POST', '/v1/mcp/publish', { name: 'nul', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/*'] })).status).toBe(200);
    const cases = [
      // Unauthenticated: anyone can make the Engine log an internal error.
      ['POST /v1/auth/device client_id', await call(a, 'POST', '/v1/auth/device', { auth: false, body: { client_id: 'cli\u0000' } })],
      ['POST /v1/connections endUserRef', await call(a, 'POST', '/v1/connections', { body: { service: 'demo-crm', endUserRef: 'u\u0000' } })],
      ['POST /v1/mcp/{name}/tokens binding', await call(a, 'POST', '/v1/mcp/nul/tokens', { body: { allow: ['*'], binding: { endUserRef: 'u\u0000' } } })],
      ['GET /v1/mcp/{name}/tokens name', await call(a, 'GET', '/v1/mcp/%00/tokens')],
    ] as const;
    const statuses = Object.fromEntries(cases.map(([label, res]) => [label, res.status]));
    // Each had been a 500 ENGINE_INTERNAL (PostgreSQL refuses NUL in text and \u0000 in jsonb).
    for (const [label, res] of cases) {
      expect(res.status, `${label}: ${JSON.stringify(statuses)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${label}: ${JSON.stringify(statuses)}`).toBeLessThan(500);
    }
  });

  it('on a second replica, answers OAuth set-up for a service imported on the first with a 4xx (and shows its base URL), not a 500', async () => {
    const document = `openapi: 3.0.3\ninfo: { title: Imp, version: '1' }\nservers: [{ url: 'http://127.0.0.1:1' }]\npaths:\n  /ping:\n    get:\n      operationId: ping\n      responses: { '200': { description: ok } }\n`;
    expect((await a.api('POST', '/v1/workspace/imports', { name: 'imp', version: 'v1', document })).status).toBe(201);
    expect((await a.api('PUT', '/v1/workspace/services/imp', { version: 'v1' })).status).toBe(200);
    // Replica a answers 400 "has no OAuth 2.0 auth"; replica b has not read the import.
    const client = await call(b, 'PUT', '/v1/buckets/default/oauth-clients/imp', { body: { clientId: 'c', clientSecret: 'pg-client-secret-canary' } });
    const connection = await call(b, 'POST', '/v1/connections', { body: { service: 'imp', endUserRef: 'u' } });
    const listed = (await b.api('GET', '/v1/workspace/services')).body.services.find((s: any) => s.name === 'imp');
    // They had been 500, 500, and baseUrl ''.
    expect([client.status, connection.status, listed?.baseUrl]).toEqual([400, 400, 'http://127.0.0.1:1']);
  });
});
