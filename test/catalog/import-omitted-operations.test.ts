// Imported descriptions the Engine accepted (201) and then failed every call to with a 500, or
// could never call: an operation with such a problem is left out at import, listed in `omitted`
// with the field (`document.` plus the place in the description) and the reason, while the rest of
// the description imports (an optional parameter the Engine cannot send is dropped, with a warning);
// a problem of the import itself (auth, baseUrl) is refused with a 400 naming the field. Provider
// patterns run in linear time, so no input can stall the Engine.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeService, parsePolicy } from '../../src/catalog/index.ts';
import { importGetService, publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
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

let serial = 0;
/** A fresh service name per import (a version never changes once imported). */
const fresh = (prefix: string) => `${prefix}-${++serial}`;

interface OpOptions {
  path?: string;
  method?: string;
  operationId?: string;
  tags?: string[];
  parameters?: unknown[];
  requestBody?: unknown;
  schemas?: Record<string, unknown>;
  servers?: unknown[];
}

/** An OpenAPI 3.0 description of one operation beside a healthy one (`GET /healthy`), as JSON text. */
function describeOne(o: OpOptions): string {
  const path = o.path ?? '/p';
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    servers: o.servers ?? [{ url: provider.url }],
    paths: {
      '/healthy': { get: { operationId: 'healthy', responses: { '200': { description: 'ok' } } } },
      [path]: {
        [o.method ?? 'get']: {
          operationId: o.operationId ?? 'op',
          ...(o.tags ? { tags: o.tags } : {}),
          ...(o.parameters ? { parameters: o.parameters } : {}),
          ...(o.requestBody ? { requestBody: o.requestBody } : {}),
          responses: { '200': { description: 'ok' } },
        },
      },
    },
    ...(o.schemas ? { components: { schemas: o.schemas } } : {}),
  });
}

const importDoc = (name: string, document: string, extra: object = {}) => t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document, ...extra });

/**
 * Asserts the import went ahead (201) with the healthy operation, and that the problem at `field`
 * left its operation out (or dropped its optional parameter, with a warning); returns the reason.
 */
function leftOut(res: { status: number; body: any }, field: string): string {
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const version = res.body.versions[0];
  expect(version.operations).toBeGreaterThanOrEqual(1);
  const found = [...(version.omitted ?? []), ...(version.warnings ?? [])].find((o: { field: string }) => o.field === field);
  expect(found, JSON.stringify(version)).toBeDefined();
  return `${found.operationId}: ${found.reason}`;
}

/** Asserts a 400 ENGINE_INVALID_INPUT naming `field`; returns the message. */
function refused(res: { status: number; body: any }, field: string): string {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('ENGINE_INVALID_INPUT');
  expect(res.body.error.details.field).toBe(field);
  return res.body.error.message as string;
}

const query = (schema: unknown, name = 'q') => ({ name, in: 'query', schema });

describe('schemas the executor cannot compile leave their operation out at import (a pattern is dropped, with a warning)', () => {
  it('refuses a pattern that is not a regular expression, naming the operation and the pattern', async () => {
    const message = leftOut(await importDoc(fresh('badpattern'), describeOne({ path: '/pets/{id}', operationId: 'getPet', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '(' } }] })), "document.paths['/pets/{id}'].get.parameters[0].schema.pattern");
    expect(message).toContain('getPet');
    expect(message).toContain('not a valid regular expression');
  });

  it('refuses a bad pattern nested in a component schema the request body refers to, and in patternProperties', async () => {
    const body = { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } };
    const pet = { type: 'object', properties: { tag: { type: 'array', items: { type: 'string', pattern: '[' } } } };
    leftOut(await importDoc(fresh('nestedpattern'), describeOne({ method: 'post', requestBody: body, schemas: { Pet: pet } })), 'document.components.schemas.Pet.properties.tag.items.pattern');
    const map = { type: 'object', patternProperties: { '^x-(': { type: 'string' } } };
    leftOut(await importDoc(fresh('patternprops'), describeOne({ parameters: [query(map)] })), "document.paths['/p'].get.parameters[0].schema.patternProperties['^x-(']");
  });

  it('refuses a $ref to a schema that does not exist', async () => {
    const message = leftOut(await importDoc(fresh('missingref'), describeOne({ parameters: [query({ $ref: '#/components/schemas/Nope' })] })), "document.paths['/p'].get.parameters[0].schema.$ref");
    expect(message).toContain("'#/components/schemas/Nope' does not resolve");
    // Through a component that exists, to one that does not.
    const schemas = { Outer: { type: 'object', properties: { inner: { $ref: '#/components/schemas/Missing' } } } };
    leftOut(await importDoc(fresh('missingref'), describeOne({ parameters: [query({ $ref: '#/components/schemas/Outer' })], schemas })), 'document.components.schemas.Outer.properties.inner.$ref');
  });

  it('refuses a schema type that JSON Schema does not have', async () => {
    const message = leftOut(await importDoc(fresh('badtype'), describeOne({ parameters: [query({ type: 'strang' })] })), "document.paths['/p'].get.parameters[0].schema.type");
    expect(message).toContain("'strang' is not a JSON Schema type");
  });

  it('refuses what the JSON Schema meta-schema refuses, naming the keyword', async () => {
    const message = leftOut(await importDoc(fresh('badmeta'), describeOne({ parameters: [query({ type: 'string', minLength: -1 })] })), "document.paths['/p'].get.parameters[0].schema.minLength");
    expect(message).toContain('must be >= 0');
  });

  it('names a parameter found through a $ref where it is defined', async () => {
    const document = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      servers: [{ url: provider.url }],
      paths: { '/p': { get: { operationId: 'op', parameters: [{ $ref: '#/components/parameters/Q' }], responses: { '200': { description: 'ok' } } } } },
      components: { parameters: { Q: { name: 'q', in: 'query', schema: { type: 'string', pattern: '(' } } } },
    });
    // Alone, the operation still imports: the pattern is dropped, with a warning naming where it is defined.
    expect(leftOut(await importDoc(fresh('refparam'), document), 'document.components.parameters.Q.schema.pattern')).toContain('not checked by the Engine');
  });

  it('still imports and calls an operation whose schemas compile (YAML too)', async () => {
    const name = fresh('goodschema');
    await importGetService(t, { name, url: provider.url, path: '/g/{id}', operationId: 'get', parameters: ["{ name: id, in: path, required: true, schema: { type: string, pattern: '^[a-z]+$' } }"] });
    const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: `s-${name}`, operations: ['get'] });
    expect((await t.execute(sdk.versionId, sdk.token, { operation: `${name}.get`, input: { id: 'abc' } })).body).toMatchObject({ ok: true });
    const bad = await t.execute(sdk.versionId, sdk.token, { operation: `${name}.get`, input: { id: 'ABC' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('must match pattern');
  });
});

describe('names the Engine cannot send are refused, or leave their operation out, at import', () => {
  it('refuses an API-key query parameter name holding a lone surrogate', async () => {
    const message = refused(await importDoc(fresh('surrogateauth'), describeOne({}), { auth: { type: 'api_key', in: 'query', name: 'k\ud800' } }), 'auth.name');
    expect(message).toContain('unpaired UTF-16 surrogate');
  });

  it('refuses an API-key header the Engine owns', async () => {
    refused(await importDoc(fresh('ownedauth'), describeOne({}), { auth: { type: 'api_key', in: 'header', name: 'Transfer-Encoding' } }), 'auth.name');
  });

  it('refuses a query parameter name holding a lone surrogate', async () => {
    leftOut(await importDoc(fresh('surrogateparam'), describeOne({ parameters: [query({ type: 'string' }, 'q\ud800')] })), "document.paths['/p'].get.parameters[0].name");
  });

  it('refuses a header parameter whose name is not an HTTP token', async () => {
    const message = leftOut(await importDoc(fresh('spacedheader'), describeOne({ parameters: [{ name: 'x y', in: 'header', schema: { type: 'string' } }] })), "document.paths['/p'].get.parameters[0].name");
    expect(message).toContain('not a valid HTTP header name');
  });

  it.each(['Transfer-Encoding', 'Content-Length', 'Connection', 'Host', 'Upgrade', 'Keep-Alive', 'TE', 'Trailer', 'Expect', 'Proxy-Authorization'])(
    'refuses a header parameter named %s (a header the Engine owns)',
    async (header) => {
      const parameters = [{ name: 'id', in: 'query', schema: { type: 'string' } }, { name: header, in: 'header', schema: { type: 'string' } }];
      const message = leftOut(await importDoc(fresh('ownedheader'), describeOne({ parameters })), "document.paths['/p'].get.parameters[1].name");
      expect(message).toContain('the Engine sets itself');
    },
  );

  it('refuses a JSON media type that cannot be a Content-Type header', async () => {
    const requestBody = { content: { 'application/json\r\nX-Injected: 1': { schema: { type: 'object' } } } };
    leftOut(await importDoc(fresh('badmedia'), describeOne({ method: 'post', requestBody })), "document.paths['/p'].post.requestBody.content['application/json\\r\\nX-Injected: 1']");
  });

  it('still sends an ordinary header parameter', async () => {
    const name = fresh('goodheader');
    await importGetService(t, { name, url: provider.url, path: '/h', operationId: 'get', parameters: ['{ name: X-Request-Id, in: header, schema: { type: string } }'] });
    const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: `s-${name}`, operations: ['get'] });
    const before = provider.requests.length;
    expect((await t.execute(sdk.versionId, sdk.token, { operation: `${name}.get`, input: { 'X-Request-Id': 'r-1' } })).body).toMatchObject({ ok: true });
    expect(provider.requests.slice(before)[0]?.headers['x-request-id']).toBe('r-1');
  });
});

describe('names and URLs that could never be called are refused, or leave their operation out, at import', () => {
  it.each([
    ['__proto__', 'path'],
    ['toString', 'query'],
    ['constructor', 'header'],
  ])('refuses a parameter named %s (every JavaScript object has it)', async (param, where) => {
    const path = where === 'path' ? `/p/{${param}}` : '/p';
    const parameters = [{ name: param, in: where, required: where === 'path', schema: { type: 'string' } }];
    const message = leftOut(await importDoc(fresh('protoparam'), describeOne({ path, parameters })), `document.paths['${path}'].get.parameters[0].name`);
    expect(message).toContain(param);
  });

  it.each(['/', 'a//b', 'repos/', '-/x'])('refuses operationId %s, which gives a package method or group no name', async (operationId) => {
    const message = leftOut(await importDoc(fresh('emptyname'), describeOne({ operationId })), "document.paths['/p'].get.operationId");
    expect(message).toContain('no name');
  });

  it('refuses a tag that would make a group named like an Object member', async () => {
    leftOut(await importDoc(fresh('protogroup'), describeOne({ tags: ['constructor'] })), "document.paths['/p'].get.tags[0]");
  });

  it('uses the defaults of server variables for the base URL', async () => {
    const servers = [{ url: 'https://{region}.example.com/{base}', variables: { region: { default: 'eu', enum: ['eu', 'us'] }, base: { default: 'v2' } } }];
    const res = await importDoc(fresh('servervars'), describeOne({ servers }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0].baseUrl).toBe('https://eu.example.com/v2');
  });

  it('imports a server variable with no default without a base URL, saying so; refuses a {variable} in a given base URL', async () => {
    const res = await importDoc(fresh('servervars'), describeOne({ servers: [{ url: 'https://{region}.example.com' }] }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.versions[0].baseUrl).toBe('');
    expect(res.body.versions[0].warnings).toEqual([{ operationId: '*', field: 'baseUrl', reason: expect.stringContaining('{region}') }]);
    // A given baseUrl is checked as a URI by the request schema already.
    const given = await importDoc(fresh('servervars'), describeOne({}), { baseUrl: 'https://{region}.example.com' });
    expect(given.status).toBe(400);
    expect(given.body.error.details.errors[0].instancePath).toBe('/baseUrl');
  });
});

describe('patterns run in linear time', () => {
  it("answers a catastrophic pattern's worst input at once instead of stalling the Engine", async () => {
    const name = fresh('redos');
    await importGetService(t, { name, url: provider.url, path: '/r', operationId: 'get', parameters: ["{ name: q, in: query, schema: { type: string, pattern: '^(a+)+$' } }"] });
    const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: `s-${name}`, operations: ['get'] });
    // With backtracking this input took about 5 s (doubling with each further 'a'), the whole Engine stalled.
    const started = performance.now();
    const res = await t.execute(sdk.versionId, sdk.token, { operation: `${name}.get`, input: { q: `${'a'.repeat(30)}!` } });
    const elapsed = performance.now() - started;
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors[0]).toMatchObject({ instancePath: '/q', keyword: 'pattern' });
    expect(elapsed).toBeLessThan(1000);
    expect((await t.execute(sdk.versionId, sdk.token, { operation: `${name}.get`, input: { q: 'a'.repeat(10_000) } })).body).toMatchObject({ ok: true });
  });

  it('bounds the work of a large pattern over a long input: a 413 naming the field, at once', async () => {
    const name = fresh('bigpattern');
    // 3,000 RE2 instructions, every one live on every character of a random a/b string.
    const parameters = [query({ type: 'string', pattern: '(a|b)*a(a|b){999}$' })];
    const requestBody = { content: { 'application/json': { schema: { type: 'object', properties: { content: { type: 'string', pattern: '^(?:[A-Za-z0-9+/]{4})*$' } } } } } };
    expect((await importDoc(name, describeOne({ method: 'post', parameters, requestBody }))).status).toBe(201);
    const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: `s-${name}`, operations: ['op'] });
    let text = '';
    for (let i = 0, x = 1; i < 400_000; i++) text += (x = (x * 1103515245 + 12345) % 2 ** 31) & 0x10000 ? 'a' : 'b'; // pseudo-random: no small DFA
    const started = performance.now();
    const res = await t.execute(sdk.versionId, sdk.token, { operation: `${name}.op`, input: { q: text } });
    expect(performance.now() - started).toBeLessThan(2000); // unbounded, this took about 10 s
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(413);
    // The field is named as every other input refusal names one (dots, not the instancePath's slashes).
    expect(res.body.error).toMatchObject({ code: 'ENGINE_INPUT_TOO_LARGE', details: { field: 'input.q' } });
    expect(res.body.error.message).toContain('too long to check against its pattern');
    // A small pattern over a long value (GitHub's base64 content) is still checked.
    expect((await t.execute(sdk.versionId, sdk.token, { operation: `${name}.op`, input: { body: { content: 'QUJD'.repeat(150_000) } } })).body).toMatchObject({ ok: true });
  });

  it('checks uniqueItems over a long array of objects at once (pairwise, 60,000 items took most of a minute)', async () => {
    const name = fresh('unique');
    const requestBody = { content: { 'application/json': { schema: { type: 'object', properties: { tags: { type: 'array', uniqueItems: true } } } } } };
    expect((await importDoc(name, describeOne({ method: 'post', requestBody }))).status).toBe(201);
    const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: `s-${name}`, operations: ['op'] });
    const tags = Array.from({ length: 60_000 }, (_, i) => ({ n: i }));
    const started = performance.now();
    expect((await t.execute(sdk.versionId, sdk.token, { operation: `${name}.op`, input: { body: { tags } } })).body).toMatchObject({ ok: true });
    expect(performance.now() - started).toBeLessThan(3000);
    const dup = await t.execute(sdk.versionId, sdk.token, { operation: `${name}.op`, input: { body: { tags: [{ a: 1, b: [2] }, { n: 0 }, { b: [2], a: 1 }] } } });
    expect(dup.status).toBe(400);
    expect(dup.body.error.details.errors[0]).toMatchObject({ instancePath: '/body/tags', keyword: 'uniqueItems', params: { i: 2, j: 0 } });
  });

  it.each([
    ['^(?=a)a$', 'lookahead'],
    ['(?<!a)b', 'lookbehind'],
    ['^(a)\\1$', 'backreference'],
  ])('refuses %s (a %s, which needs backtracking)', async (pattern) => {
    const message = leftOut(await importDoc(fresh('backtrack'), describeOne({ parameters: [query({ type: 'string', pattern })] })), "document.paths['/p'].get.parameters[0].schema.pattern");
    expect(message).toContain('cannot be checked in linear time');
  });

  it('keeps ECMAScript meaning: \\s includes no-break space, . stops at line ends, \\u escapes, named groups', async () => {
    const name = fresh('semantics');
    const parameters = [
      query({ type: 'string', pattern: '^a\\sb$' }, 'space'),
      query({ type: 'string', pattern: '^.+$' }, 'line'),
      query({ type: 'string', pattern: '^\\u00e9+$' }, 'accent'),
      query({ type: 'string', pattern: '^(?<year>\\d{4})-\\d{2}$' }, 'month'),
    ];
    expect((await importDoc(name, describeOne({ parameters }))).status).toBe(201);
    const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: `s-${name}`, operations: ['op'] });
    const call = (input: object) => t.execute(sdk.versionId, sdk.token, { operation: `${name}.op`, input });
    expect((await call({ space: 'a\u00a0b', line: 'x', accent: 'éé', month: '2024-05' })).status).toBe(200);
    for (const input of [{ space: 'a_b' }, { line: 'a\nb' }, { line: 'a\u2028b' }, { accent: 'e' }, { month: '24-05' }]) {
      expect((await call(input)).status, JSON.stringify(input)).toBe(400);
    }
  });
});

describe('services imported before these checks', () => {
  it('answer a call to an operation whose schema does not compile with a 409 naming it, not a 500', async () => {
    const name = fresh('stored');
    // As an earlier Engine stored it: normalised, never compiled.
    const document = JSON.parse(describeOne({ parameters: [query({ type: 'string', pattern: '(' })] }));
    const index = normalizeService({ service: name, version: 'v1', document, policy: parsePolicy({ baseUrl: provider.url }, 'test') });
    expect(await t.engine.store.insertImportedService({ service: name, version: 'v1', index: JSON.stringify(index), importedAt: new Date().toISOString() })).toBeTruthy();
    const sdk = await publishSdk(t, { name, service: name, baseUrl: provider.url, secret: `s-${name}`, operations: ['op'] });
    for (let i = 0; i < 2; i++) {
      const res = await t.execute(sdk.versionId, sdk.token, { operation: `${name}.op`, input: { q: 'x' } });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'ENGINE_CONFLICT', details: { field: 'operation' } });
      expect(res.body.error.message).toContain(`operation '${name}.op' cannot be called`);
    }
  });
});

describe('large descriptions', () => {
  it("imports the real GitHub description (every operation's validator compiles, patterns included)", async () => {
    const document = readFileSync(new URL('../../node_modules/@octokit/openapi/generated/api.github.com.json', import.meta.url), 'utf8');
    const res = await importDoc(fresh('gh'), document, { baseUrl: 'https://api.github.com' });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(201);
    expect(res.body.versions[0].operations).toBeGreaterThan(1000);
  }, 60_000);
});
