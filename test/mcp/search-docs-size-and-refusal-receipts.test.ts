// search_docs answers and MCP receipts, found by review: every answer (and refusal) stays within
// 64 KiB however long the catalog's texts; __proto__ keys and RFC 6901 pointers are kept exactly;
// an MCP call refused before dispatch leaves a receipt, as over REST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';

const LIMIT = 64 * 1024;
let t: TestEngine;
let client: Client;
let crm: DemoProvider;
let sdk: { versionId: string; token: string };
let mcpServer: { url: string; versionId: string; token: string };
let crmClient: Client;

const LONG_DESCRIPTION = 'This operation is described at great length by its provider. '.repeat(1400); // ~88 KB
const LONG_SUMMARY = (i: number) => `Zebra report ${i} `.padEnd(16_000, 'zebra stripes and more zebra stripes ');
const longName = (i: number) => `field_${i}_`.padEnd(1500, 'x');

const BIG = {
  openapi: '3.1.0',
  info: { title: 'Big', version: '1' },
  servers: [{ url: 'http://127.0.0.1:9' }],
  paths: {
    // No parameters, no body, no response schema: no section at all.
    '/ping': { get: { operationId: 'ping/get', summary: 'Ping the big service', description: LONG_DESCRIPTION, responses: { '204': { description: 'none' } } } },
    // One tiny parameter section and a very long description.
    '/long': {
      get: {
        operationId: 'long/get',
        summary: 'Get the long thing',
        description: LONG_DESCRIPTION,
        parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
        responses: { '204': { description: 'none' } },
      },
    },
    // A response section over 64 KiB whose property names are long.
    '/wide': {
      get: {
        operationId: 'wide/get',
        summary: 'Get the wide thing',
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [longName(i), { type: 'string' }])) } } },
          },
        },
      },
    },
    // Long summaries: five of them rank for "zebra".
    ...Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [`/zebra${i}`, { get: { operationId: `zebra${i}/get`, summary: LONG_SUMMARY(i), responses: { '204': { description: 'none' } } } }]),
    ),
    // A body property named __proto__ (a legal JSON key).
    '/proto': {
      post: {
        operationId: 'proto/create',
        summary: 'Create a proto',
        requestBody: { required: true, content: { 'application/json': { schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","description":"kept"},"name":{"type":"string"}}}') } } },
        responses: { '204': { description: 'none' } },
      },
    },
    // An array the schemaPath can index.
    '/arr': {
      post: {
        operationId: 'arr/create',
        summary: 'Create an arr',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' }, b: { type: 'string' } } } } } },
        responses: { '204': { description: 'none' } },
      },
    },
  },
};

beforeAll(async () => {
  crm = await startDemoProvider();
  t = await startTestEngine();
  const imported = await t.api('POST', '/v1/workspace/imports', { name: 'big', version: 'v1', document: JSON.stringify(BIG) });
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  expect((await t.api('PUT', '/v1/workspace/services/big', { version: 'v1' })).status).toBe(200);
  const server = (await t.api('POST', '/v1/mcp/publish', { name: 'review-docs', services: ['big=v1'], operations: ['big=*'] })).body;
  t.canaries.push(server.token);
  client = new Client({ name: 'review', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));

  sdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: crm.apiKey, operations: ['contacts/list', 'contacts/get'] });
  mcpServer = (await t.api('POST', '/v1/mcp/publish', { name: 'review-crm', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list', 'demo-crm=contacts/get'] })).body;
  t.canaries.push(mcpServer.token);
  crmClient = new Client({ name: 'review-crm', version: '1.0.0' });
  await crmClient.connect(new StreamableHTTPClientTransport(new URL(mcpServer.url), { requestInit: { headers: { authorization: `Bearer ${mcpServer.token}` } } }));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await crmClient?.close();
  await t?.stop();
  await crm?.stop();
});

async function search(args: Record<string, unknown>) {
  const result = (await client.callTool({ name: 'search_docs', arguments: args })) as any;
  const text = result.content[0].text as string;
  return { isError: result.isError === true, bytes: Buffer.byteLength(text), body: result.structuredContent };
}

describe('search_docs: 64 KiB answers', () => {
  it('exact detail of an operation with no sections and a long description stays within 64 KiB', async () => {
    const { bytes, body } = await search({ operationId: 'big.ping/get' });
    expect(body.operationId).toBe('big.ping/get');
    expect(bytes).toBeLessThanOrEqual(LIMIT);
  });

  it('a tiny section of an operation with a long description is returned, not refused as too large', async () => {
    const { isError, bytes, body } = await search({ operationId: 'big.long/get', section: 'parameters' });
    expect(bytes).toBeLessThanOrEqual(LIMIT);
    expect(isError, JSON.stringify(body).slice(0, 300)).toBe(false);
    expect(body.sections.parameters.q.in).toBe('query');
  });

  it('ENGINE_SECTION_TOO_LARGE naming long child keys stays within 64 KiB', async () => {
    const { isError, bytes, body } = await search({ operationId: 'big.wide/get', section: 'response:200', schemaPath: '/properties' });
    expect(isError).toBe(true);
    expect(body.code).toBe('ENGINE_SECTION_TOO_LARGE');
    expect(bytes).toBeLessThanOrEqual(LIMIT);
  });

  it('an intent search whose results have long summaries stays within 64 KiB', async () => {
    const { bytes, body } = await search({ query: 'zebra report', limit: 5 });
    expect(body.results.length).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(LIMIT);
  });
});

describe('search_docs: sections whole', () => {
  it('a schema property named __proto__ is kept in the section', async () => {
    const { body } = await search({ operationId: 'big.proto/create', section: 'request' });
    expect(Object.keys(body.sections.request.schema.properties)).toEqual(['__proto__', 'name']);
  });
});

describe('search_docs: schemaPath is RFC 6901', () => {
  it('"-1" is not an array index in RFC 6901: the path does not exist', async () => {
    const { isError, body } = await search({ operationId: 'big.arr/create', section: 'request', schemaPath: '/schema/required/-1' });
    expect(isError, JSON.stringify(body)).toBe(true);
    expect(body.code).toBe('ENGINE_UNKNOWN_SCHEMA_PATH');
  });
});

describe('activity receipts: refused calls on every surface', () => {
  const execute = async (code: string) => ((await crmClient.callTool({ name: 'execute', arguments: { code } })) as any).structuredContent;
  const receipts = async (versionId: string) => (await t.api('GET', `/v1/versions/${versionId}/receipts?limit=1000`)).body.receipts as any[];

  it('an MCP call refused for its pagination bound leaves a receipt, as the same REST call does', async () => {
    const rest = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/list', input: {}, pagination: { maxPages: 999 } });
    expect(rest.body.error.code).toBe('ENGINE_PAGINATION_INVALID');
    expect((await receipts(sdk.versionId)).some((r) => r.errorCode === 'ENGINE_PAGINATION_INVALID')).toBe(true);

    const answer = await execute(`return await call('demo-crm.contacts/list', {}, { pagination: { maxPages: 999 } });`);
    expect(answer.code).toBe('ENGINE_PAGINATION_INVALID');
    expect((await receipts(mcpServer.versionId)).some((r) => r.errorCode === 'ENGINE_PAGINATION_INVALID')).toBe(true);
  });

  it('an MCP call to an operation the version does not select leaves a receipt, as the same REST call does', async () => {
    const rest = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/create', input: {} });
    expect(rest.body.ok).toBe(false);
    const restCode = rest.body.error.code;
    expect((await receipts(sdk.versionId)).some((r) => r.operation === 'demo-crm.contacts/create' && r.errorCode === restCode)).toBe(true);

    const answer = await execute(`return await call('demo-crm.contacts/create', {});`);
    expect(answer.code).toBe(restCode);
    expect((await receipts(mcpServer.versionId)).some((r) => r.operation === 'demo-crm.contacts/create')).toBe(true);
  });
});
