// The control plane: routes come from the spec, every route needs a CLI credential, and
// workspace enablement, base URL overrides and OpenAPI import behave as documented.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../generated/engine-api/routes.ts';
import { createHandlers, createHttpApp } from '../../src/server/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let t: TestEngine;
let provider: FakeProvider;
beforeAll(async () => {
  t = await startTestEngine();
  provider = await startFakeProvider((req, res) => json(res, 200, { pets: [{ id: 1, name: 'Rex' }], url: req.url, key: req.headers['x-api-key'] ?? null }));
});
afterAll(async () => {
  await t.stop();
  await provider.stop();
});

const PETSTORE = `
openapi: 3.0.3
info: { title: Pet Store, version: '1' }
servers: [{ url: https://pets.example.test/api }]
paths:
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      summary: List pets
      parameters:
        - { name: limit, in: query, schema: { type: integer, maximum: 100, nullable: true } }
        - { name: X-Api-Key, in: header, schema: { type: string } }
      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Pets' } } } } }
components:
  schemas:
    Pets: { type: object, properties: { pets: { type: array, items: { type: object } } } }
`;

describe('control plane', () => {
  it('fails start-up when a spec operation has no handler', () => {
    const handlers = createHandlers(t.engine.deps);
    const missing = { ...handlers } as Record<string, unknown>;
    delete missing.listBuckets;
    expect(() => createHttpApp(t.engine.deps, missing as never)).toThrow('declares operations with no handler: listBuckets');
    expect(() => createHttpApp(t.engine.deps, handlers)).not.toThrow();
    expect(Object.keys(handlers).sort()).toEqual(routes.map((r) => r.operationId).sort());
  });

  it('requires a valid CLI credential on every control-plane route', async () => {
    for (const route of routes.filter((r) => r.security === 'cliCredential')) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      const res = await fetch(t.url + path, { method: route.method, headers: { authorization: 'Bearer svc_cli_' + 'x'.repeat(43) } });
      expect(res.status, `${route.method} ${path}`).toBe(401);
      expect(((await res.json()) as any).error.code).toBe('ENGINE_UNAUTHENTICATED');
    }
    const sdkToken = await t.engine.deps.tokens.issue('sdk', 'someapp');
    const res = await fetch(`${t.url}/v1/buckets`, { headers: { authorization: `Bearer ${sdkToken.token}` } });
    expect(res.status).toBe(401);
  });

  it('answers unknown routes and methods with an envelope', async () => {
    const res = await t.api('GET', '/v1/nope');
    expect(res).toMatchObject({ status: 404, body: { ok: false, status: 404, error: { code: 'ENGINE_NOT_FOUND' } } });
    const method = await t.api('PATCH', '/v1/buckets');
    expect(method.status).toBe(405);
    expect(method.body.error.code).toBe('ENGINE_METHOD_NOT_ALLOWED');
  });

  it('enables a service with a base URL override and refuses unknown services and versions', async () => {
    const res = await t.api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: 'https://ghe.example.test/api/v3/' });
    expect(res.body).toMatchObject({ name: 'github', version: 'v1', baseUrl: 'https://ghe.example.test/api/v3', baseUrlOverridden: true });
    const plain = await t.api('PUT', '/v1/workspace/services/github', { version: 'v1' });
    expect(plain.body).toMatchObject({ baseUrl: 'https://api.github.com', baseUrlOverridden: false });
    expect((await t.api('PUT', '/v1/workspace/services/no-such-service', { version: 'v1' })).body.error).toMatchObject({ code: 'ENGINE_NOT_FOUND', details: { field: 'service' } });
    expect((await t.api('PUT', '/v1/workspace/services/github', { version: 'v7' })).body.error.message).toContain("no version 'v7'");
    expect((await t.api('PUT', '/v1/workspace/services/github', { version: '7' })).status).toBe(400);
    expect((await t.api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: 'ftp://x' })).status).toBe(400);
    expect((await t.api('DELETE', '/v1/workspace/services/github')).status).toBe(204);
    expect((await t.api('DELETE', '/v1/workspace/services/github')).status).toBe(404);
  });

  it('imports an OpenAPI 3.0 service, enables it and calls it with an API-key header', async () => {
    const imported = await t.api('POST', '/v1/workspace/imports', { name: 'petstore', version: 'v1', document: PETSTORE, auth: { type: 'api_key', in: 'header', name: 'X-Api-Key' } });
    expect(imported.status).toBe(201);
    expect(imported.body).toEqual({ name: 'petstore', title: 'Pet Store', versions: [{ version: 'v1', operations: 1, source: 'imported', baseUrl: 'https://pets.example.test/api' }] });
    const list = await t.api('GET', '/v1/catalog/services?q=pet');
    expect(list.body.services.map((s: any) => s.name)).toEqual(['petstore']);

    await t.api('PUT', '/v1/workspace/services/petstore', { version: 'v1', baseUrl: provider.url + '/api' });
    await t.api('PUT', '/v1/buckets/default/secrets/petstore', { value: 'pet-key' });
    const sdk = (await t.api('POST', '/v1/sdks/publish', { name: 'pets', services: ['petstore=v1'], operations: ['petstore=listPets'] })).body;
    // The auth header is the Engine's: the import drops it from the caller's parameters.
    const refused = await t.execute(sdk.versionId, sdk.token, { operation: 'petstore.listPets', input: { 'X-Api-Key': 'mine' } });
    expect(refused.status).toBe(400);
    const res = await t.execute(sdk.versionId, sdk.token, { operation: 'petstore.listPets', input: { limit: null } });
    expect(provider.requests.at(-1)!.headers['x-api-key']).toBe('pet-key');
    // This fake echoes the key back; the Engine never hands a credential to the caller.
    expect(res.body).toMatchObject({ ok: true, data: { url: '/api/pets', key: '[redacted]' } });

    await t.restart();
    expect((await t.api('GET', '/v1/catalog/services?q=pet')).body.services).toHaveLength(1);
  });

  it('refuses a broken import with a precise error', async () => {
    const notOpenApi = await t.api('POST', '/v1/workspace/imports', { name: 'x', version: 'v1', document: 'asyncapi: "2.0"' });
    expect(notOpenApi.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT' });
    expect(notOpenApi.body.error.message).toContain('not an OpenAPI 3.0 or 3.1 (or Swagger 2.0) description');
    const badYaml = await t.api('POST', '/v1/workspace/imports', { name: 'x', version: 'v1', document: 'a: [' });
    expect(badYaml.body.error.message).toContain('not valid JSON or YAML');
    const noServer = await t.api('POST', '/v1/workspace/imports', { name: 'x', version: 'v1', document: 'openapi: 3.1.0\ninfo: {title: x, version: "1"}\npaths: {}' });
    expect(noServer.body.error.message).toContain('no operation can be called');
    const badRef = await t.api('POST', '/v1/workspace/imports', {
      name: 'x',
      version: 'v1',
      baseUrl: 'http://127.0.0.1:1',
      document: JSON.stringify({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: { '/a': { get: { operationId: 'a', parameters: [{ $ref: '#/components/parameters/missing' }], responses: {} } } } }),
    });
    expect(badRef.body.error.message).toContain('does not resolve');
    const bundled = await t.api('POST', '/v1/workspace/imports', { name: 'github', version: 'v1', document: PETSTORE });
    expect(bundled.body.error.message).toContain('bundled catalog service');
  });
});
