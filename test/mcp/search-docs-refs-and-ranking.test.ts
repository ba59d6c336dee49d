// search_docs against the interface (docs/search.md; docs/architecture.md, MCP results)
// at its edges: $refs to escaped component names and pointers into a component are resolved, and
// keywords beside a $ref kept; an operation with 700 required parameters still answers within
// 64 KiB; a summary equal to the intent ranks in the default 3; a service named in the query (or
// a pasted operation ID) does not push the obvious operation down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';

const LIMIT = 64 * 1024;

// OpenAPI 3.1 references the catalog accepts (and the Engine's input validator resolves): a
// component whose name holds '/' (escaped '~1' in the pointer), a pointer into a component, and a
// $ref with sibling keywords, which in 3.1 / JSON Schema 2020-12 apply alongside the target.
const REFS = {
  openapi: '3.1.0',
  info: { title: 'Refs', version: '1' },
  servers: [{ url: 'http://127.0.0.1:9' }],
  paths: {
    '/pets': {
      post: {
        operationId: 'pets/create',
        summary: 'Create a pet',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  kind: { $ref: '#/components/schemas/Pet~1Kind' },
                  name: { $ref: '#/components/schemas/Pet/properties/name' },
                  nick: { $ref: '#/components/schemas/Name', maxLength: 3, description: 'Short nickname' },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'ok' } },
      },
    },
  },
  components: {
    schemas: {
      'Pet/Kind': { type: 'string', enum: ['cat', 'dog'] },
      Pet: { type: 'object', properties: { name: { type: 'string', minLength: 2 } } },
      Name: { type: 'string' },
    },
  },
};

// One operation with many required query parameters (long, but ordinary, names).
const WIDE = {
  openapi: '3.1.0',
  info: { title: 'Wide', version: '1' },
  servers: [{ url: 'http://127.0.0.1:9' }],
  paths: {
    '/search': {
      get: {
        operationId: 'records/search',
        summary: 'Search records with many required filters',
        parameters: Array.from({ length: 700 }, (_, i) => ({ name: `filter_${'x'.repeat(90)}_${i}`, in: 'query', required: true, schema: { type: 'string' } })),
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

let t: TestEngine;
let client: Client;
let wide: Client;

async function connect(server: { url: string; token: string }) {
  const c = new Client({ name: 'search-docs-hardening', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
  return c;
}

beforeAll(async () => {
  t = await startTestEngine();
  for (const [name, document] of [['refs', REFS], ['wide', WIDE]] as const) {
    const imported = await t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document: JSON.stringify(document) });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  }
  for (const service of ['github', 'demo-crm', 'refs', 'wide']) await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1' });
  const server = (await t.api('POST', '/v1/mcp/publish', { name: 'hardening', services: ['github=v1', 'demo-crm=v1', 'refs=v1'], operations: ['github=*', 'demo-crm=*', 'refs=*', 'unified=*'] })).body;
  const wideServer = (await t.api('POST', '/v1/mcp/publish', { name: 'wide', services: ['wide=v1'], operations: ['wide=*'] })).body;
  t.canaries.push(server.token, wideServer.token);
  client = await connect(server);
  wide = await connect(wideServer);
});
afterAll(async () => {
  await client.close();
  await wide.close();
  await t.stop();
});

async function search(args: Record<string, unknown>, c = client) {
  const result = (await c.callTool({ name: 'search_docs', arguments: args })) as any;
  const text = result.content[0].text as string;
  return { isError: result.isError === true, body: result.structuredContent, bytes: Buffer.byteLength(text) };
}

describe('search_docs hardening', () => {
  it('exact detail resolves $refs to escaped component names and pointers into a component (no raw $ref the agent cannot follow)', async () => {
    const { isError, body } = await search({ operationId: 'refs.pets/create', section: 'request' });
    expect(isError).toBe(false);
    expect(body.schema_status.complete).toBe(true);
    const props = body.sections.request.schema.properties;
    // Not { $ref: '#/components/schemas/Pet~1Kind' } nor { $ref: '#/components/schemas/Pet/properties/name' }.
    expect(props.kind).toEqual({ type: 'string', enum: ['cat', 'dog'] });
    expect(props.name).toEqual({ type: 'string', minLength: 2 });
  });

  it('exact detail keeps the keywords next to a $ref that the Engine enforces on input', async () => {
    // The Engine's validator applies the sibling maxLength: 3.
    const refused = (await client.callTool({ name: 'execute', arguments: { code: `return await call('refs.pets/create', { body: { kind: 'cat', name: 'Tom', nick: 'abcdef' } })` } })) as any;
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.message).toContain('/body/nick must NOT have more than 3 characters');
    // search_docs says complete: true, so it must show that limit (not a plain { type: 'string' }).
    const { body } = await search({ operationId: 'refs.pets/create', section: 'request', schemaPath: '/schema/properties/nick' });
    expect(body.schema_status.complete).toBe(true);
    expect(body.sections.request).toMatchObject({ type: 'string', maxLength: 3, description: 'Short nickname' });
  });

  it('keeps intent and exact answers within 64 KiB when an operation has many required parameters', async () => {
    // Interface rule 3: "Every response is at most 64 KiB of UTF-8 JSON", though the call form could list 700 long names.
    for (const args of [{ query: 'search records' }, { operationId: 'wide.records/search' }]) {
      const { isError, bytes, body } = await search(args, wide);
      expect(isError, JSON.stringify(args)).toBe(false);
      expect(bytes, JSON.stringify(args)).toBeLessThanOrEqual(LIMIT);
      // What was shortened is said: the call form counts the parameters it does not list.
      const detail = body.results ? body.results[0] : body;
      expect(detail.operationId).toBe('wide.records/search');
      expect(detail.shortened).toContain('call');
      expect(detail.call).toMatch(/\d+ more required parameters \(see the parameters section\)/);
      expect(detail.schema_status.complete).toBe(false);
    }
  });

  it('ranks the operation whose summary is exactly the intent within the default 3 results', async () => {
    const expected: [string, string][] = [
      ['get the authenticated user', 'github.users/get-authenticated'],
      ['get an organization', 'github.orgs/get'],
      ['create a team', 'github.teams/create'],
      ['get a deployment', 'github.repos/get-deployment'],
    ];
    const misses: string[] = [];
    for (const [query, operationId] of expected) {
      const ids = (await search({ query })).body.results.map((r: any) => r.operationId);
      if (!ids.includes(operationId)) misses.push(`${query} → ${ids.join(', ')} (wanted ${operationId})`);
    }
    expect(misses).toEqual([]);
  });

  it('does not let the service name in a query push the obvious operation down', async () => {
    // "create an issue" ranks github.issues/create first; naming the service, or pasting the ID, should not change that.
    for (const query of ['create a GitHub issue', 'github.issues/create']) {
      const { body } = await search({ query });
      const ids = body.results.map((r: any) => r.operationId);
      expect(ids[0], `${query} → ${ids.join(', ')}`).toBe('github.issues/create');
      // The service named is the filter, and the answer says so.
      expect(body.service_filter).toEqual(['github']);
    }
  });
});
