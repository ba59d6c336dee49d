// Malformed MCP requests get precise client errors, never -32603 Internal error or a raw Zod dump:
// params the SDK's schema refuses are -32602 Invalid params naming the field (the answer the SDK
// itself means to give: Server.setRequestHandler throws InvalidParams for tools/call, but the
// Protocol layer's own parse throws first), an empty batch is -32600 Invalid Request (JSON-RPC 2.0
// §6), and a batch on a session of protocol 2025-06-18 or later is refused (batching was removed in
// 2025-06-18: "The body of the POST request MUST be a single JSON-RPC request, notification, or
// response").
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ErrorCode, CallToolResultSchema, EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { initializeMessage, openSession, PROTOCOL, rawMcp, type RawMcp } from '../fixtures/mcp.ts';

let t: TestEngine;
let server: { versionId: string; url: string; token: string };
let mcp: RawMcp;

beforeAll(async () => {
  t = await startTestEngine();
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1' });
  server = (await t.api('POST', '/v1/mcp/publish', { name: 'invalid', services: ['demo-crm=v1'], operations: ['demo-crm=*'] })).body;
  t.canaries.push(server.token);
  mcp = rawMcp(server.url, server.token);
});
afterAll(async () => t.stop());

/** A single-line message that names the field and carries no Zod dump. */
const expectPrecise = (error: { code: number; message: string }, field: string, text: RegExp) => {
  expect(error.code).toBe(-32602);
  expect(error.message).not.toMatch(/\n|"expected"|"path"|\[\s*\{/);
  expect(error.message).toContain(field);
  expect(error.message).toMatch(text);
};

describe('MCP: invalid params are -32602 naming the field', () => {
  it.each([
    ['no name', {}, 'params.name', /params\.name is required/],
    ['a numeric name', { name: 5 }, 'params.name', /params\.name must be a string, not a number/],
    ['array arguments', { name: 'search_docs', arguments: [] }, 'params.arguments', /params\.arguments must be an object, not an array/],
    ['null arguments', { name: 'search_docs', arguments: null }, 'params.arguments', /params\.arguments must be an object, not null/],
    ['string arguments', { name: 'search_docs', arguments: 'x' }, 'params.arguments', /params\.arguments must be an object, not a string/],
    ['a bad task ttl', { name: 'search_docs', task: { ttl: 'soon' } }, 'params.task.ttl', /params\.task\.ttl must be a number, not a string/],
  ])('tools/call with %s', async (_label, params, field, text) => {
    const headers = await openSession(mcp);
    const res = await mcp.post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }, headers);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(7);
    expectPrecise(res.body.error, field, text);
    expect(res.body.error.message).toMatch(/^Invalid params for tools\/call: /);
  });

  it('tools/call with no params at all', async () => {
    const headers = await openSession(mcp);
    const res = await mcp.post({ jsonrpc: '2.0', id: 8, method: 'tools/call' }, headers);
    expectPrecise(res.body.error, 'params', /params is required/);
  });

  it('tools/list and logging/setLevel with params the SDK refuses', async () => {
    const headers = await openSession(mcp);
    const list = await mcp.post({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { cursor: 5 } }, headers);
    expectPrecise(list.body.error, 'params.cursor', /params\.cursor must be a string, not a number/);
    const level = await mcp.post({ jsonrpc: '2.0', id: 11, method: 'logging/setLevel', params: { level: 'loud' } }, headers);
    expectPrecise(level.body.error, 'params.level', /params\.level must be one of "debug", "info"/);
    // The session still works.
    expect((await mcp.post({ jsonrpc: '2.0', id: 12, method: 'tools/list' }, headers)).body.result.tools).toHaveLength(2);
  });

  it('initialize without params (or with a bad one) is -32602 and opens no session', async () => {
    for (const [params, field, text] of [
      [undefined, 'params', /params is required/],
      [{ capabilities: {}, clientInfo: { name: 'x', version: '1' } }, 'params.protocolVersion', /params\.protocolVersion is required/],
      [{ protocolVersion: 5, capabilities: {}, clientInfo: { name: 'x', version: '1' } }, 'params.protocolVersion', /must be a string, not a number/],
      [{ protocolVersion: PROTOCOL, capabilities: [], clientInfo: { name: 'x', version: '1' } }, 'params.capabilities', /params\.capabilities must be an object, not an array/],
      [{ protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'x' } }, 'params.clientInfo.version', /params\.clientInfo\.version is required/],
    ] as const) {
      const res = await mcp.post({ jsonrpc: '2.0', id: 1, method: 'initialize', ...(params ? { params } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(1);
      expectPrecise(res.body.error, field, text);
      expect(res.body.error.message).toMatch(/^Invalid params for initialize: /);
      expect(res.headers.get('mcp-session-id')).toBeNull();
    }
  });

  it('reaches the official SDK client as an McpError with code InvalidParams', async () => {
    const client = new Client({ name: 'invalid-params', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
    try {
      const bad = client.request({ method: 'tools/call', params: { name: 5 as unknown as string } }, CallToolResultSchema);
      await expect(bad).rejects.toBeInstanceOf(McpError);
      await expect(bad).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('params.name must be a string, not a number') });
      const nullArgs = client.request({ method: 'tools/call', params: { name: 'search_docs', arguments: null as unknown as Record<string, unknown> } }, CallToolResultSchema);
      await expect(nullArgs).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('params.arguments must be an object, not null') });
      // Valid requests on the same client still work.
      await expect(client.request({ method: 'ping' }, EmptyResultSchema)).resolves.toEqual({});
    } finally {
      await client.close();
    }
  });
});

describe('MCP: messages that are not JSON-RPC are -32600 Invalid Request naming the member', () => {
  it.each([
    ['params that are a number', { jsonrpc: '2.0', id: 9, method: 'tools/list', params: 5 }, /^Invalid Request: params must be an object, not a number$/],
    ['params that are an array', { jsonrpc: '2.0', id: 9, method: 'ping', params: [1] }, /^Invalid Request: params must be an object, not an array$/],
    ['a bad progress token', { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'x', _meta: { progressToken: true } } }, /params\._meta\.progressToken must be a string or a number, not a boolean/],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, /^Invalid Request: id must be a string or an integer, not a non-integer number$/],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }, /^Invalid Request: id must be a string or a number, not null$/],
    ['a numeric method', { jsonrpc: '2.0', id: 1, method: 5 }, /^Invalid Request: method must be a string, not a number$/],
    ['another JSON-RPC version', { jsonrpc: '1.0', id: 1, method: 'ping' }, /^Invalid Request: jsonrpc must be "2.0"$/],
    ['an unknown member', { jsonrpc: '2.0', id: 1, method: 'ping', extra: 1 }, /^Invalid Request: the message has unknown member "extra"$/],
    ['a number', 5, /^Invalid Request: the message must be a JSON-RPC object, not a number$/],
    ['null', null, /^Invalid Request: the message must be a JSON-RPC object, not null$/],
    ['a notification with bad params', { jsonrpc: '2.0', method: 'notifications/initialized', params: 'x' }, /^Invalid Request: params must be an object, not a string$/],
  ])('%s', async (_label, message, text) => {
    const headers = await openSession(mcp);
    for (const h of [headers, {}]) {
      const res = await mcp.post(message, h);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(text) } });
    }
  });

  it('names the element of a batch', async () => {
    const res = await mcp.post([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping', params: 5 }], await openSession(mcp));
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: -32600, message: 'Invalid Request: message [1]: params must be an object, not a number' });
  });
});

describe('MCP: batches', () => {
  it('answers an empty batch with one -32600 Invalid Request (id null), with or without a session', async () => {
    const headers = await openSession(mcp);
    for (const h of [headers, {}]) {
      const res = await mcp.post([], h);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: .*empty/) } });
    }
  });

  it('refuses a batch on a 2025-06-18 (or later) session: the revision removed batching', async () => {
    const headers = await openSession(mcp);
    const res = await mcp.post(
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ],
      headers,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('2025-06-18') } });
    // An initialize sent as a batch asks for such a version too: refused, no session opened.
    const init = await mcp.post([initializeMessage('2025-11-25')]);
    expect(init.status).toBe(400);
    expect(init.body.error.code).toBe(-32600);
    expect(init.headers.get('mcp-session-id')).toBeNull();
  });

  it('still serves a batch on a 2025-03-26 session, answering a bad request in it with -32602 and the rest normally', async () => {
    const init = await mcp.post(initializeMessage('2025-03-26'));
    expect(init.status).toBe(200);
    const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-03-26' };
    expect((await mcp.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    const res = await mcp.post(
      [
        { jsonrpc: '2.0', id: 'bad', method: 'tools/call', params: { name: 5 } },
        { jsonrpc: '2.0', id: 'good', method: 'tools/list' },
      ],
      headers,
    );
    expect(res.status).toBe(200);
    const byId = Object.fromEntries((res.body as any[]).map((m) => [m.id, m]));
    expectPrecise(byId.bad.error, 'params.name', /params\.name must be a string/);
    expect(byId.good.result.tools).toHaveLength(2);
  });
});

describe('MCP: a compressed request body', () => {
  // Found by the API fuzz: the transport read a gzip body as if it were the JSON it encodes.
  it('is refused with 415 naming content-encoding, not read as JSON', async () => {
    const body = gzipSync(JSON.stringify(initializeMessage()));
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-encoding': 'gzip' },
      body,
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('accept-encoding')).toBe('identity');
    const answer = (await res.json()) as { error: { message: string; data: Record<string, unknown> } };
    expect(answer.error.message).toContain('Content-Encoding is not supported');
    expect(answer.error.data).toMatchObject({ code: 'ENGINE_INVALID_INPUT', field: 'content-encoding' });
  });
});
