// search_docs rules: 64 KiB answers, whole-or-omitted sections with exact schema_status,
// pagination fields for ranked versus exact results, and precise errors without guesses.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';

const LIMIT = 64 * 1024;
let t: TestEngine;
let client: Client;

const props = (n: number, prefix: string) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}_${i}`, { type: 'string', description: `Field ${i} of the huge schema. `.repeat(4) }]));

const HUGE = {
  openapi: '3.1.0',
  info: { title: 'Huge', version: '1' },
  servers: [{ url: 'http://127.0.0.1:9' }],
  paths: {
    '/things': {
      post: {
        operationId: 'things/create',
        summary: 'Create a thing with a deliberately huge schema',
        // A parameter named tooLarge once read as the Engine's own "section too large" marker.
        parameters: [{ name: 'dry_run', in: 'query', schema: { type: 'boolean' } }, { name: 'tooLarge', in: 'query', schema: { type: 'boolean' } }],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: props(200, 'in') } } } },
        responses: {
          '201': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: props(200, 'out') } } } },
          '400': { description: 'bad', content: { 'application/json': { schema: { type: 'object', properties: props(1200, 'err') } } } },
        },
      },
    },
  },
};

// Component schemas that fan out ten ways per level: Level2 dereferences to about 74,000 schema
// nodes, past the Engine's dereferencing budget, though the document itself is small. Level3 builds
// but is over 64 KiB; Level4 fits.
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const level = (k: number) =>
  k === 6
    ? { type: 'object', properties: { leaf: { type: 'integer', description: 'Only reachable through five $refs.' } } }
    : { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, ref(`Level${k + 1}`)])) };
const DEEP = {
  openapi: '3.1.0',
  info: { title: 'Deep', version: '1' },
  servers: [{ url: 'http://127.0.0.1:9' }],
  paths: {
    '/report': {
      get: {
        operationId: 'report/get',
        summary: 'Get a report whose schema is too large to dereference',
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref('Report') } } } },
      },
    },
  },
  components: {
    schemas: {
      Report: {
        type: 'object',
        properties: {
          summary: ref('Summary'),
          sections: { type: 'array', items: ref('Level2') },
          loop: ref('Loop'),
          self: ref('Self'),
          tree: ref('Tree'),
        },
      },
      Summary: { type: 'object', properties: { total: ref('Count') } },
      Count: { type: 'integer', minimum: 0 },
      Loop: ref('Loop2'),
      Loop2: ref('Loop'),
      Self: ref('Self'),
      Tree: { type: 'object', properties: { child: ref('Tree') } },
      ...Object.fromEntries([2, 3, 4, 5, 6].map((k) => [`Level${k}`, level(k)])),
    },
  },
};

beforeAll(async () => {
  t = await startTestEngine();
  const imported = await t.api('POST', '/v1/workspace/imports', { name: 'huge', version: 'v1', document: JSON.stringify(HUGE) });
  expect(imported.status).toBe(201);
  const deep = await t.api('POST', '/v1/workspace/imports', { name: 'deep', version: 'v1', document: JSON.stringify(DEEP) });
  expect(deep.status).toBe(201);
  for (const service of ['huge', 'deep', 'github', 'demo-crm']) await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1' });
  const server = (await t.api('POST', '/v1/mcp/publish', { name: 'docs', services: ['huge=v1', 'deep=v1', 'github=v1', 'demo-crm=v1'], operations: ['huge=*', 'deep=*', 'github=*', 'demo-crm=*'] })).body;
  t.canaries.push(server.token);
  client = new Client({ name: 'docs-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
});
afterAll(async () => {
  await client.close();
  await t.stop();
});

async function search(args: Record<string, unknown>) {
  const result = (await client.callTool({ name: 'search_docs', arguments: args })) as any;
  const text = result.content[0].text as string;
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(LIMIT);
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return { isError: result.isError === true, body: result.structuredContent };
}

describe('search_docs', () => {
  it('omits sections that do not fit and says so exactly', async () => {
    const { body } = await search({ operationId: 'huge.things/create' });
    expect(body.schema_status.available_sections).toEqual(['parameters', 'request', 'response:201', 'response:400']);
    expect(body.schema_status.complete).toBe(false);
    expect(Object.keys(body.sections)).toEqual(body.schema_status.included_sections);
    expect(body.schema_status.included_sections).toContain('parameters');
    expect(Object.keys(body.sections.parameters)).toEqual(expect.arrayContaining(['dry_run', 'tooLarge']));
    expect(body.schema_status.included_sections).not.toContain('response:400');
  });

  it('returns each section that fits on its own, whole', async () => {
    for (const section of ['parameters', 'request', 'response:201']) {
      const { body } = await search({ operationId: 'huge.things/create', section });
      expect(body.schema_status).toMatchObject({ complete: true, included_sections: [section] });
      expect(Object.keys(body.sections)).toEqual([section]);
    }
    const request = (await search({ operationId: 'huge.things/create', section: 'request' })).body.sections.request;
    expect(Object.keys(request.schema.properties)).toHaveLength(200);
  });

  it('refuses a section too large even alone, pointing to schemaPath, which then retrieves a subtree', async () => {
    const tooBig = await search({ operationId: 'huge.things/create', section: 'response:400' });
    expect(tooBig.isError).toBe(true);
    expect(tooBig.body.code).toBe('ENGINE_SECTION_TOO_LARGE');
    expect(tooBig.body.message).toContain('schemaPath');
    const sub = await search({ operationId: 'huge.things/create', section: 'response:400', schemaPath: '/properties/err_7' });
    expect(sub.body.sections['response:400']).toEqual({ type: 'string', description: expect.stringContaining('Field 7') });
  });

  it('leads through schemaPath into a section too large to dereference', async () => {
    const at = (schemaPath?: string) => search({ operationId: 'deep.report/get', section: 'response:200', ...(schemaPath === undefined ? {} : { schemaPath }) });
    const detail = (await search({ operationId: 'deep.report/get' })).body;
    expect(detail.schema_status).toEqual({ complete: false, included_sections: [], available_sections: ['response:200'] });
    const whole = await at();
    expect(whole.body.code).toBe('ENGINE_SECTION_TOO_LARGE');
    expect(whole.body.message).toContain('(children: /type, /properties)');
    // The pointer reads as in the dereferenced section: each $ref on the way is followed.
    expect((await at('/properties/summary')).body.sections['response:200']).toEqual({ type: 'object', properties: { total: { type: 'integer', minimum: 0 } } });
    expect((await at('/properties/summary/properties/total/type')).body.sections['response:200']).toBe('integer');
    const level4 = (await at('/properties/sections/items/properties/f0/properties/f1')).body.sections['response:200'];
    expect(level4.properties.f3.properties.f9.properties.leaf).toEqual({ type: 'integer', description: 'Only reachable through five $refs.' });
  });

  it('names the children of a subtree too large in turn, and refuses paths that do not exist', async () => {
    const at = (schemaPath: string) => search({ operationId: 'deep.report/get', section: 'response:200', schemaPath });
    const sections = await at('/properties/sections');
    expect(sections.body.code).toBe('ENGINE_SECTION_TOO_LARGE');
    expect(sections.body.message).toContain(`at '/properties/sections'`);
    expect(sections.body.message).toContain('(children: /type, /items)');
    const items = await at('/properties/sections/items');
    expect(items.body.code).toBe('ENGINE_SECTION_TOO_LARGE');
    expect(items.body.message).toContain('(children: /type, /properties)');
    // Level3 dereferences within the budget but is over 64 KiB.
    const level3 = await at('/properties/sections/items/properties/f0');
    expect(level3.body.code).toBe('ENGINE_SECTION_TOO_LARGE');
    expect(level3.body.message).toContain('(children: /type, /properties)');
    for (const missing of ['/properties/nope', '/properties/sections/items/properties/f10', '/properties/summary/$ref', '/properties/tree/properties/child/properties']) {
      expect((await at(missing)).body.code, missing).toBe('ENGINE_UNKNOWN_SCHEMA_PATH');
    }
  });

  it('ends cyclic $ref chains where dereferencing cuts them', async () => {
    const at = async (schemaPath: string) => (await search({ operationId: 'deep.report/get', section: 'response:200', schemaPath })).body.sections['response:200'];
    expect(await at('/properties/loop')).toEqual({ $comment: 'recursive: same shape as Loop' });
    expect(await at('/properties/self')).toEqual({ $comment: 'recursive: same shape as Self' });
    expect(await at('/properties/tree')).toEqual({ type: 'object', properties: { child: { $comment: 'recursive: same shape as Tree' } } });
    expect(await at('/properties/tree/properties/child')).toEqual({ $comment: 'recursive: same shape as Tree' });
  });

  it('gives precise errors for unknown operationId, section and schemaPath, with no guesses', async () => {
    const op = await search({ operationId: 'github.issues/creat' });
    expect(op).toMatchObject({ isError: true, body: { code: 'ENGINE_UNKNOWN_OPERATION' } });
    expect(op.body.message).not.toContain('issues/create');
    const section = await search({ operationId: 'github.issues/create', section: 'response:999' });
    expect(section.body.code).toBe('ENGINE_UNKNOWN_SECTION');
    const path = await search({ operationId: 'github.issues/create', section: 'request', schemaPath: '/schema/properties/nope' });
    expect(path.body.code).toBe('ENGINE_UNKNOWN_SCHEMA_PATH');
    const badPointer = await search({ operationId: 'github.issues/create', section: 'request', schemaPath: 'schema' });
    expect(badPointer.body.code).toBe('ENGINE_INVALID_INPUT');
    const badLimit = await search({ query: 'x', limit: 6 });
    expect(badLimit.body.code).toBe('ENGINE_INVALID_INPUT');
    const unknownArg = await search({ query: 'x', operation: 'y' });
    expect(unknownArg.body.message).toContain('/operation');
  });

  it('gives ranked physical results only the ranked pagination fields', async () => {
    const { body } = await search({ query: 'list repositories for an organization', limit: 5 });
    const paged = body.results.find((r: any) => r.operationId === 'github.repos/list-for-org');
    expect(paged.pagination).toEqual({ supported: true, exact_lookup_required: true, usage: expect.stringContaining('search_docs({ operationId: "github.repos/list-for-org" })') });
    const { body: create } = await search({ query: 'create an issue' });
    const single = create.results.find((r: any) => r.operationId === 'github.issues/create');
    expect(single.pagination).toEqual({ supported: false, usage: expect.stringContaining('call("github.issues/create", params)') });
    for (const r of [...body.results, ...create.results]) {
      expect(r.pagination).not.toHaveProperty('caller_bound_supported');
      expect(r.pagination).not.toHaveProperty('engine_max_pages');
    }
  });

  it('gives exact physical detail the authoritative pagination fields', async () => {
    const paged = (await search({ operationId: 'demo-crm.contacts/list' })).body;
    expect(paged.pagination).toMatchObject({ supported: true, caller_bound_supported: true, engine_max_pages: 20 });
    expect(paged.pagination.usage).toContain('{ pagination: { maxPages: N } }');
    const single = (await search({ operationId: 'demo-crm.contacts/create' })).body;
    expect(single.pagination).toMatchObject({ supported: false, caller_bound_supported: false });
    expect(single.pagination).not.toHaveProperty('engine_max_pages');
  });

  it('keeps every answer within 64 KiB, including wide intent searches', async () => {
    for (const query of ['repository', 'list', 'create update delete', 'huge thing']) {
      const { body } = await search({ query, limit: 5 });
      for (const r of body.results) expect(Object.keys(r.sections)).toEqual(r.schema_status.included_sections);
    }
  });

  it('keeps the analyses of what it searched in the data directory, for the next start', async () => {
    await search({ query: 'create a contact' });
    const dir = join(t.dataDir, 'search');
    for (let i = 0; i < 100 && !(existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.json'))); i++) await new Promise((r) => setTimeout(r, 20));
    const kept = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(kept.length).toBeGreaterThan(0);
    const ids = kept.flatMap((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { analyses: { id: string }[] }).analyses.map((a) => a.id));
    expect(ids).toContain('demo-crm.contacts/create');
  });

  it('filters browse mode by service', async () => {
    const { body } = await search({ service: 'huge' });
    expect(body).toEqual({ operations: [{ operationId: 'huge.things/create', summary: expect.any(String), callable: true }], total: 1, truncated: false });
  });
});
