// Control-plane input that used to be accepted wrongly or answered with a 500: each is now a
// precise 4xx naming its field, and what was accepted still works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importGetService, startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let t: TestEngine;
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider((_req, res) => json(res, 200, { ok: true }));
  t = await startTestEngine();
});

afterAll(async () => {
  await t?.stop();
  await provider?.stop();
});

const document = (paths: string, servers = `[{ url: '${'http://127.0.0.1:1'}' }]`) => `openapi: 3.0.3
info: { title: T, version: '1' }
servers: ${servers}
paths:
${paths}`;
const PING = `  /ping:
    get:
      operationId: ping
      responses: { '200': { description: ok } }
`;
const importDoc = (name: string, doc: string, extra: object = {}) => t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document: doc, ...extra });

function refused(res: { status: number; body: any }, field: string, status = 400) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.details.field).toBe(field);
  return res.body.error.message as string;
}

describe('service import', () => {
  it('refuses a path that does not start with / (it could move the request, key included, to another host)', async () => {
    const message = refused(await importDoc('hijack', document(`  "@127.0.0.1:9/stolen":\n    get:\n      operationId: steal\n      responses: { '200': { description: ok } }\n`)), "document.paths['@127.0.0.1:9/stolen']");
    expect(message).toContain("must start with '/'");
  });

  it('refuses a base URL with credentials, a query or fragment, or no host', async () => {
    for (const url of ['http://user:s3cret@127.0.0.1:1', 'http://127.0.0.1:1/api?x=1', 'http://127.0.0.1:1/api#f', 'https://']) {
      const res = await importDoc('baseurls', document(PING), { baseUrl: url });
      expect(refused(res, 'baseUrl'), url).toContain('baseUrl');
      expect(JSON.stringify(res.body)).not.toContain('s3cret');
    }
  });

  it('never changes an imported version: a second import of it is a 409 naming the version', async () => {
    expect((await importDoc('stable', document(PING))).status).toBe(201);
    const again = await importDoc('stable', document(PING));
    expect(refused(again, 'version', 409)).toContain('another version');
    expect(again.body.error.code).toBe('ENGINE_CONFLICT');
    expect((await t.api('POST', '/v1/workspace/imports', { name: 'stable', version: 'v2', document: document(PING) })).status).toBe(201);
  });

  it('leaves out an operation whose grouped path is also a group (its package download was a 500), and imports the rest', async () => {
    const ops = `  /pets:\n    get:\n      operationId: pets\n      responses: { '200': { description: ok } }\n  /pets/all:\n    get:\n      operationId: list\n      tags: [pets]\n      responses: { '200': { description: ok } }\n`;
    const res = await importDoc('clash', document(ops));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0].operations).toBe(1);
    expect(res.body.versions[0].omitted).toEqual([
      { operationId: 'pets', field: "document.paths['/pets'].get", reason: 'its grouped path pets is also a group of other operations', hint: expect.stringContaining('grouping override') },
    ]);
  });

  it("reserves the name 'unified'", async () => {
    refused(await importDoc('unified', document(PING)), 'name');
  });

  it('imports operations named like Object members (constructor, toString) instead of failing with a 500', async () => {
    const ops = ['constructor', 'toString', '__proto__'].map((id) => `  /${id.replace(/_/g, 'u')}:\n    get:\n      operationId: ${id}\n      responses: { '200': { description: ok } }\n`).join('');
    const res = await importDoc('members', document(ops));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0].operations).toBe(3);
  });

  it('refuses a YAML alias that refers to itself instead of overflowing the stack', async () => {
    const cyclic = `  /tree:\n    get:\n      operationId: tree\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: &node { type: object, properties: { child: *node } }\n`;
    expect(refused(await importDoc('cyclic', document(cyclic)), 'document')).toContain('cycle');
  });

  it('refuses an auth header name or prefix an HTTP request cannot carry', async () => {
    refused(await importDoc('badauth', document(PING), { auth: { type: 'api_key', in: 'header', name: 'X Api\r\nKey' } }), 'auth.name');
    refused(await importDoc('badauth', document(PING), { auth: { type: 'api_key', in: 'header', name: 'X-Key', prefix: 'Bearer\r\nX: ' } }), 'auth.prefix');
  });
});

describe('workspace base URL override', () => {
  it('refuses credentials, a query or fragment, no host or a bad port, and never echoes a password', async () => {
    for (const baseUrl of ['http://user:s3cret@127.0.0.1:8790', 'http://127.0.0.1:8790/api?x=1', 'http://127.0.0.1:8790/#frag', 'https://', 'http://127.0.0.1:99999']) {
      const res = await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl });
      refused(res, 'baseUrl');
      expect(JSON.stringify(res.body)).not.toContain('s3cret');
    }
    const ok = await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: `${provider.url}/` });
    expect(ok.status).toBe(200);
    expect(ok.body.baseUrl).toBe(provider.url);
  });
});

describe('credential values', () => {
  it('refuses a secret or OAuth client value no request could carry, naming the field and never echoing it', async () => {
    const cases: [string, string][] = [
      ['sk_live_canary_nl\n', 'starts or ends with whitespace'],
      [' sk_live_canary_sp', 'starts or ends with whitespace'],
      ['   ', 'is empty or only whitespace'],
      ['sk_live\r\nX-Evil: 1', 'control character'],
      ['sk_live\u0000canary', 'control character'],
      ['sk_live_\ud800', 'lone UTF-16 surrogate'],
    ];
    for (const [value, problem] of cases) {
      const res = await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'value' } });
      expect(res.body.error.message).toContain(problem);
      expect(JSON.stringify(res.body)).not.toContain('sk_live');
    }
    const client = await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'c', clientSecret: 'secret\n' });
    expect(client.status).toBe(400);
    expect(client.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'clientSecret' } });
    // A value with inner spaces and any printable Unicode is fine.
    expect((await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: 'key with späces/+=' })).status).toBe(204);
  });
});

describe('tokens', () => {
  let server: string;
  beforeAll(async () => {
    const published = await t.api('POST', '/v1/mcp/publish', { name: 'edges', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/*'] });
    expect(published.status).toBe(200);
    server = published.body.name;
  });

  it('refuses an expiry the Engine cannot read (a leap second), which would never expire', async () => {
    const res = await t.api('POST', `/v1/mcp/${server}/tokens`, { allow: ['demo-crm.contacts/get'], expiresAt: '2016-12-31T23:59:60Z' });
    refused(res, 'expiresAt');
  });

  it('refuses an allowlist entry that matches no operation of the server', async () => {
    const res = await t.api('POST', `/v1/mcp/${server}/tokens`, { allow: ['demo-crm.contacts/get', 'demo-crm.contcts/*'] });
    expect(refused(res, 'allow[1]')).toContain('matches no operation');
    expect((await t.api('POST', `/v1/mcp/${server}/tokens`, { allow: ['demo-crm.contacts/*'] })).status).toBe(201);
  });

  it('keeps a token value sent where its ID belongs out of the debug log (the route template is logged, not the path)', async () => {
    const issued = await t.api('POST', `/v1/mcp/${server}/tokens`, { allow: ['demo-crm.contacts/get'] });
    t.canaries.push(issued.body.token);
    const res = await t.api('DELETE', `/v1/tokens/${issued.body.token}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const lines = t.logs.filter((l) => l.includes('"msg":"request"') && l.includes('DELETE'));
    expect(lines.at(-1)).toContain('"route":"/v1/tokens/:token_id"');
    expect(t.logs.join('\n')).not.toContain(issued.body.token);
  });

  it('revokes execution tokens only: a CLI credential is not revoked through DELETE /v1/tokens/{id}', async () => {
    const other = await t.engine.deps.tokens.issue('cli', 'someone-else');
    t.canaries.push(other.token);
    const res = await t.api('DELETE', `/v1/tokens/${other.row.id}`);
    expect(res.status).toBe(404);
    expect((await t.engine.deps.tokens.verify(other.token, 'cli')).id).toBe(other.row.id); // still live
  });

  it('lists the receipts of an MCP version', async () => {
    const versions = await t.api('GET', `/v1/mcp/${server}/versions`);
    const versionId = versions.body.versions?.[0]?.versionId ?? (await t.api('GET', '/v1/mcp')).body.servers.find((s: any) => s.name === server).versionId;
    const res = await t.api('GET', `/v1/versions/${versionId}/receipts`);
    expect(res.status).toBe(200);
    expect(res.body.receipts).toEqual([]);
  });
});

describe('pages', () => {
  it('answers a sign-in post whose Origin is not a URL with the refusal page, not a 500', async () => {
    const res = await fetch(`${t.url}/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'garbage' },
      body: new URLSearchParams({ user_code: 'ABCD-EFGH', username: 'x', password: 'y', decision: 'approve' }).toString(),
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Refused');
  });

  it('answers an OAuth callback whose token endpoint is unreachable with the not-connected page, not a 500', async () => {
    const sdk = await publishSdk(t, { name: 'oauthedge', service: 'demo-crm', baseUrl: 'http://127.0.0.1:9', secret: 'unused-key-oauth-edge', operations: ['account/get'] });
    expect(sdk.versionId).toMatch(/^ver_/);
    expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'c', clientSecret: 'client-secret-edge' })).status).toBe(204);
    t.canaries.push('client-secret-edge');
    const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'u-edge' });
    expect(started.status).toBe(201);
    const state = new URL(started.body.authorizeUrl).searchParams.get('state')!;
    const res = await fetch(`${t.url}/v1/oauth/callback?code=abc&state=${encodeURIComponent(state)}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).not.toBe(500);
    const page = await res.text();
    expect(page).toContain('Not connected');
    expect(page).toContain('token endpoint unreachable');
  });
});

describe('imports used by calls', () => {
  it('calls an imported operation named constructor', async () => {
    await importGetService(t, { name: 'objnames', url: provider.url, path: '/c/{id}', operationId: 'constructor', parameters: ['{ name: id, in: path, required: true, schema: { type: string } }'] });
    const sdk = await publishSdk(t, { name: 'objnames', service: 'objnames', baseUrl: provider.url, secret: 'unused-objnames', operations: ['constructor'] });
    const res = await t.execute(sdk.versionId, sdk.token, { operation: 'objnames.constructor', input: { id: 'x' } });
    expect(res.body).toMatchObject({ ok: true, data: { ok: true } });
  });
});
