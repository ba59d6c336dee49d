// Imported descriptions found by review to end in a 500, a stalled Engine, or a request other than
// the one described (a parameter dropped or merged, a path rewritten, a style ignored): each is
// now refused at import naming the field, sent as described, or left out and reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';

let t: TestEngine;
let provider: FakeProvider;
let other: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider((_req, res) => json(res, 200, { ok: true }));
  other = await startFakeProvider((_req, res) => json(res, 200, { ok: true, other: true }));
  t = await startTestEngine();
});

afterAll(async () => {
  await t?.stop();
  await provider?.stop();
  await other?.stop();
});

let serial = 0;
const fresh = (prefix: string) => `${prefix}-${++serial}`;

interface OpOptions {
  path?: string;
  method?: string;
  operationId?: unknown;
  parameters?: unknown[];
  requestBody?: unknown;
  schemas?: Record<string, unknown>;
  servers?: unknown[];
}

/** An OpenAPI 3.0 document of one operation (as an object). */
function one(o: OpOptions): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    servers: [{ url: provider.url }],
    paths: {
      [o.path ?? '/p']: {
        [o.method ?? 'get']: {
          operationId: o.operationId ?? 'op',
          ...(o.parameters ? { parameters: o.parameters } : {}),
          ...(o.requestBody ? { requestBody: o.requestBody } : {}),
          ...(o.servers ? { servers: o.servers } : {}),
          responses: { '200': { description: 'ok' } },
        },
      },
    },
    ...(o.schemas ? { components: { schemas: o.schemas } } : {}),
  };
}

const importDoc = (name: string, document: string | object) =>
  t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document: typeof document === 'string' ? document : JSON.stringify(document) });

/** Asserts a 400 ENGINE_INVALID_INPUT naming `field` (what import-omitted-operations.test.ts expects of every refusal). */
function refused(res: { status: number; body: any }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('ENGINE_INVALID_INPUT');
  expect(res.body.error.details.field).toBe(field);
}

/** Imports, publishes and calls `op` once; returns the request the provider received. */
async function callOnce(doc: object, input: object, at: FakeProvider = provider, operation = 'op') {
  const name = fresh('call');
  const imported = await importDoc(name, doc);
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: `s-${name}`, operations: [operation] });
  const before = { main: provider.requests.length, other: other.requests.length };
  const res = await t.execute(sdk.versionId, sdk.token, { operation: `${name}.${operation}`, input });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const received = at === provider ? provider.requests.slice(before.main) : other.requests.slice(before.other);
  expect(received.length).toBe(1);
  return received[0]!;
}

describe('hostile schemas answer with a precise 400, not a 500', () => {
  it('two component schemas with the same $id (or $anchor) are refused, naming the field', async () => {
    // serviceAjv() runs ajv.addSchema over components.schemas outside checkCallable's try: a plain Error → 500.
    const doc = one({ schemas: { A: { $id: 'https://example.com/s', type: 'string' }, B: { $id: 'https://example.com/s', type: 'integer' } } });
    const res = await importDoc(fresh('dupid'), doc);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('ENGINE_INVALID_INPUT');
    expect(res.body.error.details.field).toMatch(/^document\.components\.schemas\.[AB]\.\$id$/);
  });

  it('a deeply nested component schema (4,000 levels, 100 KB) is refused with a 400, not a stack-overflow 500', async () => {
    // ajv.addSchema (serviceAjv) walks components.schemas recursively, outside checkCallable's try.
    const depth = 4000;
    const deep = `${'{"type":"array","items":'.repeat(depth)}{"type":"string"}${'}'.repeat(depth)}`;
    const document = JSON.stringify(one({ schemas: { Deep: 'DEEP' } })).replace('"DEEP"', deep);
    const res = await importDoc(fresh('deep'), document);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('ENGINE_INVALID_INPUT');
  });

  it('a deeply nested JSON document is not blamed on a YAML alias cycle it does not have', async () => {
    // JSON.stringify's RangeError (too deep) is caught as if it were a cycle made by YAML aliases.
    const depth = 6000;
    const deep = `${'{"type":"array","items":'.repeat(depth)}{"type":"string"}${'}'.repeat(depth)}`;
    const document = JSON.stringify(one({ schemas: { Deep: 'DEEP' } })).replace('"DEEP"', deep);
    const res = await importDoc(fresh('deepjson'), document);
    expect(res.status).toBe(400);
    expect(res.body.error.message).not.toContain('YAML alias');
  });

  it('a schema with more than 1,000 properties is refused (compiling 20,000 held the event loop for 3 s)', async () => {
    const wide = (n: number) => {
      const properties: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) properties[`p${i}`] = { type: 'string' };
      return one({ method: 'post', requestBody: { content: { 'application/json': { schema: { type: 'object', properties } } } } });
    };
    refused(await importDoc(fresh('wide'), wide(20_000)), "document.paths['/p'].post.requestBody.content['application/json'].schema.properties");
    expect((await importDoc(fresh('wide'), wide(1_000))).status).toBe(201);
  }, 60_000);

  it('a $ref cycle with no schema in between is named where it is, not as a stack overflow of the operation', async () => {
    const doc = one({ parameters: [{ name: 'q', in: 'query', schema: { $ref: '#/components/schemas/A' } }], schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } });
    const res = await importDoc(fresh('refcycle'), doc);
    expect(res.status).toBe(400);
    expect(res.body.error.message).not.toContain('Maximum call stack size exceeded');
    expect(res.body.error.details.field).toMatch(/^document\.components\.schemas\.[AB]\.\$ref$/);
  });
});

describe('malformed parameters are refused, not silently dropped or merged', () => {
  it.each([
    ['a non-string name', { name: 7, in: 'query', required: true, schema: { type: 'string' } }, 'name'],
    ["an unknown location ('Query')", { name: 'q', in: 'Query', required: true, schema: { type: 'string' } }, 'in'],
    ["a Swagger 2 location ('body')", { name: 'q', in: 'body', required: true, schema: { type: 'object' } }, 'in'],
  ])('a required parameter with %s is refused at import', async (_what, parameter, key) => {
    refused(await importDoc(fresh('badparam'), one({ parameters: [parameter] })), `document.paths['/p'].get.parameters[0].${key}`);
  });

  it('a path parameter that the path template does not hold is refused (its value would be dropped)', async () => {
    // /items has no {id}: the parameter becomes a required input whose value is never sent.
    refused(await importDoc(fresh('strayparam'), one({ path: '/items', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] })), "document.paths['/items'].get.parameters[0].name");
  });

  it('the same parameter declared twice in one list: the second, optional, is dropped with a warning, never silently replacing the first', async () => {
    const parameters = [
      { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'q', in: 'query', schema: { type: 'integer' } },
    ];
    const res = await importDoc(fresh('dupparam'), one({ parameters }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0].warnings).toEqual([{ operationId: 'op', field: "document.paths['/p'].get.parameters[1].name", reason: expect.stringContaining("'q' is declared twice in one list") }]);
    const required = [{ name: 'q', in: 'query', required: true, schema: { type: 'string' } }, { name: 'q', in: 'query', required: true, schema: { type: 'integer' } }];
    refused(await importDoc(fresh('dupparam'), one({ parameters: required })), "document.paths['/p'].get.parameters[1].name");
  });

  it('two header parameters whose names differ only in case: the second is dropped with a warning (HTTP field names are case-insensitive)', async () => {
    const parameters = [
      { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
      { name: 'x-trace', in: 'header', schema: { type: 'string' } },
    ];
    const res = await importDoc(fresh('headercase'), one({ parameters }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0].warnings[0]).toMatchObject({ field: "document.paths['/p'].get.parameters[1].name", reason: expect.stringContaining('case-insensitive') });
  });

  it('a non-string operationId is replaced by one made from the method and path, with a warning, never silently', async () => {
    const res = await importDoc(fresh('numid'), one({ operationId: 42 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0].warnings).toEqual([{ operationId: 'get_p', field: "document.paths['/p'].get.operationId", reason: expect.stringContaining('not a non-empty string') }]);
  });
});

describe('odd path templates', () => {
  it.each(['/a/{}', '/a/{id', '/a/id}'])('a path with an unmatched or empty placeholder (%s) is refused at import', async (path) => {
    const res = await importDoc(fresh('oddtemplate'), one({ path }));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
  });

  it.each([
    ['/a\tb', '/ab'],
    ['/a\nb', '/ab'],
    ['/v1/../admin', '/admin'],
  ])('a path template %j that the URL parser would rewrite (sent as %s) is refused at import', async (path) => {
    const res = await importDoc(fresh('rewritten'), one({ path }));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
  });

  it('a placeholder used twice is filled in both places', async () => {
    const doc = one({ path: '/a/{id}/b/{id}', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] });
    const req = await callOnce(doc, { id: '5' });
    expect(req.url).toBe('/a/5/b/5'); // sent: /a/5/b/%7Bid%7D
  });
});

describe('request building from an imported operation', () => {
  it('a pipeDelimited query array is joined with "|" (it was joined with commas)', async () => {
    const doc = one({ parameters: [{ name: 'ids', in: 'query', style: 'pipeDelimited', explode: false, schema: { type: 'array', items: { type: 'string' } } }] });
    const req = await callOnce(doc, { ids: ['a', 'b'] });
    expect(decodeURIComponent(req.url)).toBe('/p?ids=a|b');
  });

  it('a spaceDelimited query array is joined with encoded spaces', async () => {
    const doc = one({ parameters: [{ name: 'ids', in: 'query', style: 'spaceDelimited', explode: false, schema: { type: 'array', items: { type: 'string' } } }] });
    expect((await callOnce(doc, { ids: ['a', 'b c'] })).url).toBe('/p?ids=a%20b%20c');
  });

  it('a path parameter holding an array or an object is sent in simple style, each part escaped', async () => {
    const doc = one({ path: '/p/{ids}', parameters: [{ name: 'ids', in: 'path', required: true, schema: { type: 'array', items: { type: 'string' } } }] });
    expect((await callOnce(doc, { ids: ['a', 'b/c', 'd,e'] })).url).toBe('/p/a,b%2Fc,d%2Ce');
    const exploded = one({ path: '/p/{point}', parameters: [{ name: 'point', in: 'path', required: true, explode: true, schema: { type: 'object' } }] });
    expect((await callOnce(exploded, { point: { x: '1', y: 'a b' } })).url).toBe('/p/x=1,y=a%20b');
  });

  it('a header parameter holding an object is sent as key,value pairs', async () => {
    const doc = one({ parameters: [{ name: 'X-Point', in: 'header', schema: { type: 'object' } }] });
    expect((await callOnce(doc, { 'X-Point': { x: 1, y: 2 } })).headers['x-point']).toBe('x,1,y,2');
  });

  it.each([
    ['a matrix-style path parameter', { path: '/p/{id}', parameters: [{ name: 'id', in: 'path', required: true, style: 'matrix', schema: { type: 'string' } }] }, "document.paths['/p/{id}'].get.parameters[0].style"],
    ['a required cookie parameter', { parameters: [{ name: 'session', in: 'cookie', required: true, schema: { type: 'string' } }] }, "document.paths['/p'].get.parameters[0].in"],
    ['a required query parameter whose content is not JSON', { parameters: [{ name: 'q', in: 'query', required: true, content: { 'text/plain': { schema: { type: 'string' } } } }] }, "document.paths['/p'].get.parameters[0].content"],
  ])('%s leaves its only operation out, so the import is refused naming it (the Engine could not send it as described)', async (_what, options, field) => {
    refused(await importDoc(fresh('unsendable'), one(options as OpOptions)), field);
  });

  it('an optional query parameter whose content is not JSON is dropped with a warning; the operation imports', async () => {
    const res = await importDoc(fresh('unsendable'), one({ parameters: [{ name: 'q', in: 'query', content: { 'text/plain': { schema: { type: 'string' } } } }] }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0]).toMatchObject({ operations: 1, warnings: [{ operationId: 'op', field: "document.paths['/p'].get.parameters[0].content" }] });
  });

  it.each(['/v1/%2e%2e/admin', '/v1/%2E/x', '/a\\b'])('a path template %j the URL parser would rewrite is refused at import', async (path) => {
    refused(await importDoc(fresh('rewritten'), one({ path })), `document.paths['${path.replace(/\\/g, '\\\\')}']`);
  });

  it('a header parameter holding an array is sent in simple style (a,b), not as JSON text', async () => {
    const doc = one({ parameters: [{ name: 'X-Tags', in: 'header', schema: { type: 'array', items: { type: 'string' } } }] });
    const req = await callOnce(doc, { 'X-Tags': ['a', 'b'] });
    expect(req.headers['x-tags']).toBe('a,b'); // sent: ["a","b"]
  });

  it('a query parameter described with `content: application/json` is sent under its name as JSON', async () => {
    const doc = one({ parameters: [{ name: 'filter', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } }] });
    const req = await callOnce(doc, { filter: { a: 1 } });
    expect(req.url).toBe(`/p?filter=${encodeURIComponent('{"a":1}')}`); // sent: /p?a=1 (the parameter name is lost)
  });

  it("an operation served at its own address (servers[]) is left out and reported, never sent to the service's base URL", async () => {
    const doc = one({ method: 'post', servers: [{ url: other.url }] });
    (doc.paths as Record<string, unknown>)['/kept'] = { get: { operationId: 'kept', responses: { '200': { description: 'ok' } } } };
    const name = fresh('opservers');
    const imported = await importDoc(name, doc);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.versions[0].operations).toBe(1);
    expect(imported.body.versions[0].omitted).toEqual([{ operationId: 'op', field: "document.paths['/p'].post.servers", reason: expect.stringContaining(other.url) }]);
    const published = await t.api('POST', '/v1/sdks/publish', { name, services: [`${name}=v1`], operations: [`${name}=op`] });
    expect(published.status).toBe(400);
    // Alone, it leaves nothing callable: the import is refused, naming it.
    refused(await importDoc(fresh('opservers'), one({ method: 'post', servers: [{ url: other.url }] })), "document.paths['/p'].post.servers");
  });

  it('an operation whose required request body has no JSON or form media type is left out and reported, not sent with no body', async () => {
    const requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { a: { type: 'string' } } } } } };
    const doc = one({ method: 'post', requestBody });
    (doc.paths as Record<string, unknown>)['/kept'] = { get: { operationId: 'kept', responses: { '200': { description: 'ok' } } } };
    const res = await importDoc(fresh('formbody'), doc);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0].omitted).toEqual([
      { operationId: 'op', field: "document.paths['/p'].post.requestBody.content", reason: expect.stringContaining('multipart/form-data') },
    ]);
  });
});
