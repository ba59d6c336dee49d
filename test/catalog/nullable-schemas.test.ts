// A nullable schema beside a `$ref` or a combinator (OpenAPI 3.0's `nullable: true`, which the catalog
// rewrites to `anyOf: [schema, {type: 'null'}]`, or 3.1's `anyOf` with a null alternative) is named
// and explained as the description wrote it: an import refusal inside it names `….owner.$ref`, not
// `….owner.anyOf[0].$ref`, and a call whose value breaks it hears what is wrong with the value,
// not "must be null" and "must match a schema in anyOf".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let t: TestEngine;
let provider: FakeProvider;
let serial = 0;

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => json(res, 201, { ok: true }));
  t = await startTestEngine();
});
afterAll(async () => {
  await t?.stop();
  await provider?.stop();
});

const OWNER = { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string', minLength: 1 } } };

/** A description of `POST /pets` (createPet) whose body has the given properties. */
function describePets(openapi: '3.0.3' | '3.1.0', properties: Record<string, unknown>, schemas: Record<string, unknown> = { Owner: OWNER }): string {
  return JSON.stringify({
    openapi,
    info: { title: 'Nullable', version: '1' },
    servers: [{ url: provider.url }],
    paths: {
      '/pets': {
        post: {
          operationId: 'createPet',
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties } } } },
          responses: { '201': { description: 'ok' } },
        },
      },
    },
    components: { schemas },
  });
}

const BODY = "document.paths['/pets'].post.requestBody.content['application/json'].schema";

async function importDoc(document: string) {
  const name = `nullable-${++serial}`;
  return { name, res: await t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document }) };
}

describe('an import refusal inside a nullable schema', () => {
  it.each([
    {
      what: 'a $ref that does not resolve beside 3.0 nullable',
      properties: { owner: { $ref: '#/components/schemas/Nope', nullable: true } },
      field: `${BODY}.properties.owner.$ref`,
      says: "$ref '#/components/schemas/Nope' does not resolve",
    },
    {
      what: 'a pattern that is no regular expression in an allOf beside 3.0 nullable',
      properties: { tag: { allOf: [{ type: 'string', pattern: '(' }], nullable: true } },
      field: `${BODY}.properties.tag.allOf[0].pattern`,
      says: 'pattern',
    },
    {
      what: 'a keyword JSON Schema refuses in an allOf beside 3.0 nullable',
      properties: { tag: { allOf: [{ type: 'string', minLength: -1 }], nullable: true } },
      field: `${BODY}.properties.tag.allOf[0].minLength`,
      says: 'must be >= 0',
    },
  ])('names the place as written: $what', async ({ properties, field, says }) => {
    const { res } = await importDoc(describePets('3.0.3', properties));
    if (says === 'pattern') {
      // A pattern the Engine cannot check is dropped from its check, with a warning; the operation imports.
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const warning = res.body.versions[0].warnings.find((w: { field: string }) => w.field === field);
      expect(warning, JSON.stringify(res.body)).toBeDefined();
      expect(warning.reason).not.toContain('anyOf');
      return;
    }
    // The description's only operation is left out for it, so nothing is callable: refused, naming it.
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.details.field).toBe(field);
    expect(res.body.error.message).toContain('createPet: ');
    expect(res.body.error.message).toContain(says);
    expect(res.body.error.message).not.toContain('anyOf');
  });
});

describe('a call whose value breaks a nullable schema', () => {
  async function sdkFor(openapi: '3.0.3' | '3.1.0', properties: Record<string, unknown>) {
    const { name, res } = await importDoc(describePets(openapi, properties));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await t.api('PUT', `/v1/workspace/services/${name}`, { version: 'v1' })).status).toBe(200);
    expect((await t.api('PUT', `/v1/buckets/default/secrets/${name}`, { value: `key-${name}` })).status).toBe(204);
    const published = await t.api('POST', '/v1/sdks/publish', { name: `app-${name}`, services: [`${name}=v1`], operations: [`${name}=createPet`] });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    t.canaries.push(published.body.token, `key-${name}`);
    const call = (body: unknown) => t.execute(published.body.versionId, published.body.token, { operation: `${name}.createPet`, input: { body } });
    return call;
  }

  it.each([
    { spelling: "3.0: { $ref, nullable: true }", openapi: '3.0.3' as const, owner: { $ref: '#/components/schemas/Owner', nullable: true } },
    { spelling: "3.1: anyOf [{ $ref }, { type: 'null' }]", openapi: '3.1.0' as const, owner: { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'null' }] } },
    { spelling: "3.1: anyOf [{ type: 'null' }, { $ref }] (null first)", openapi: '3.1.0' as const, owner: { anyOf: [{ type: 'null' }, { $ref: '#/components/schemas/Owner' }] } },
  ])('says what is wrong with the value, not "must be null": $spelling', async ({ openapi, owner }) => {
    const call = await sdkFor(openapi, { owner });
    const refused = await call({ owner: { nam: 'Ada' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', message: "input/body/owner is missing required property 'name' (and 1 more)", details: { field: 'input.body.owner.name' } });
    expect(refused.body.error.details.errors).toEqual([
      { instancePath: '/body/owner', message: "is missing required property 'name'", keyword: 'required', params: { missingProperty: 'name' } },
      { instancePath: '/body/owner', message: "has unknown property 'nam'", keyword: 'additionalProperties', params: { additionalProperty: 'nam' } },
    ]);
    // A wrong type: the object's own type error, once.
    const wrongType = await call({ owner: 'Ada' });
    expect(wrongType.body.error.details.errors.map((e: { message: string }) => e.message)).toEqual(['must be object']);
    // Both alternatives still work.
    expect((await call({ owner: null })).body).toMatchObject({ ok: true, status: 201 });
    expect((await call({ owner: { name: 'Ada' } })).body).toMatchObject({ ok: true, status: 201 });
  });

  it('keeps every error of an anyOf with more than one alternative besides null', async () => {
    const call = await sdkFor('3.1.0', { id: { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^p_' }, { type: 'null' }] } });
    const refused = await call({ id: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.errors.map((e: { keyword: string }) => e.keyword)).toEqual(['type', 'pattern', 'type', 'anyOf']);
  });
});
