// The output budget, result snapshots and session.get/set/page inside execute, at their edges
// (src/retention/, src/mcp/execute.ts, src/sandbox/bootstrap.ts) against the interface document.
// Each test drives the real Engine through the official MCP SDK client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let t: TestEngine;
let provider: FakeProvider;
let server: { versionId: string; url: string; token: string };
let client: Client;

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => json(res, 200, { id: 'x' }));
  t = await startTestEngine({ SVC_EXECUTE_BUDGET_MS: '10000' });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: 'snap-review-secret' });
  server = (await t.api('POST', '/v1/mcp/publish', { name: 'snapreview', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/*'] })).body;
  t.canaries.push('snap-review-secret', server.token);
  client = await connect();
});
afterAll(async () => {
  await client?.close().catch(() => undefined);
  await t?.stop();
  await provider?.stop();
}, 60_000);

async function connect() {
  const c = new Client({ name: 'snap-review', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
  return c;
}
async function run(code: string, extra: Record<string, unknown> = {}, on = client) {
  const result = (await on.callTool({ name: 'execute', arguments: { code, ...extra } })) as any;
  return { isError: result.isError === true, body: result.structuredContent as any, text: result.content[0].text as string, bytes: Buffer.byteLength(result.content[0].text) };
}
/** Ends an MCP session over raw HTTP, as another connection of the same token (or the token's session cap) can, while its POST is still being answered. */
async function endSession(transport: StreamableHTTPClientTransport) {
  const res = await fetch(server.url, { method: 'DELETE', headers: { authorization: `Bearer ${server.token}`, 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': transport.protocolVersion! } });
  expect(res.status).toBe(200);
}

async function ownConnection() {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } });
  const c = new Client({ name: 'snap-review-closing', version: '1.0.0' });
  await c.connect(transport);
  return { c, transport };
}

describe('review: session closed while execute runs', () => {
  it('does not claim provider_execution "not_started" for an oversized result whose script already reached the provider', async () => {
    const { c, transport } = await ownConnection();
    const before = provider.requests.length;
    const running = run(
      'await call("demo-crm.contacts/create", { body: { name: "Ada", email: "ada@example.com" } }); await sleep(800); return "r".repeat(20000)',
      { outputBudgetBytes: 1024 },
      c,
    );
    await new Promise((r) => setTimeout(r, 300));
    await endSession(transport);
    const r = await running;
    expect(provider.requests.length - before).toBe(1); // the create reached the provider
    expect(r.isError).toBe(true);
    expect(r.body.code).toBe('MCP_SESSION_UNAVAILABLE');
    // Observed: { provider_execution: 'not_started', execute_request: 'reformat_if_session_state_used' }, i.e.
    // "a script not using session state may keep its arguments": replaying it creates the contact twice.
    expect(r.body.recovery.provider_execution).not.toBe('not_started');
    expect(r.body.recovery.execute_request).toBe('do_not_replay');
    await c.close().catch(() => undefined);
  });

  it('answers session.set on a closed session with the MCP_SESSION_UNAVAILABLE recovery contract of the Errors table', async () => {
    const { c, transport } = await ownConnection();
    const running = run('await sleep(800); await session.set("k", 1); return 1', {}, c);
    await new Promise((r) => setTimeout(r, 300));
    await endSession(transport);
    const r = await running;
    expect(r.body.code).toBe('MCP_SESSION_UNAVAILABLE');
    // Observed: { execute_request: 'correct_arguments', provider_execution: 'not_started', automatic_replay: false }, no recovery_action.
    expect(r.body.recovery).toEqual({ recovery_action: 'reinitialize_connection', execute_request: 'reformat_if_session_state_used', provider_execution: 'not_started', automatic_replay: false });
    await c.close().catch(() => undefined);
  });
});

describe('review: the returned value', () => {
  it('refuses a returned value JSON cannot hold (a forgotten await, a Map) instead of silently returning {}', async () => {
    const r = await run('const contacts = call("demo-crm.contacts/get", { contact_id: "c1" }); return { contacts, index: new Map([["c1", 1]]) }');
    // Observed: isError false, {"result":{"contacts":{},"index":{}}}: the data is silently replaced by empty objects.
    expect(r.text).not.toBe('{"result":{"contacts":{},"index":{}}}');
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Promise/);
  });
});

describe('review: session.page result_ref', () => {
  it('reads result_ref#pointer (the session.get form) as the path, and never calls a live snapshot or a session.set key unavailable', async () => {
    const stored = await run('return { data: Array.from({ length: 100 }, (_, i) => ({ id: i, t: "x".repeat(40) })) }', { outputBudgetBytes: 1024 });
    expect(stored.body.code).toBe('MCP_RESULT_STORED');
    const ref: string = stored.body.result_ref;
    // Before: MCP_RESULT_UNAVAILABLE ("expired, was evicted…"), recovery do_not_replay, for a live snapshot.
    const viaPointer = await run(`const p = await session.page(${JSON.stringify(`${ref}#/data`)}, {}); return [p.total, p.returned]`, { outputBudgetBytes: 1024 });
    const viaPath = await run(`const p = await session.page(${JSON.stringify(ref)}, { path: "/data" }); return [p.total, p.returned]`, { outputBudgetBytes: 1024 });
    expect(viaPointer.isError).toBeFalsy();
    expect(viaPointer.body.result).toEqual(viaPath.body.result);
    expect(viaPointer.body.result[0]).toBe(100);
    const both = await run(`return await session.page(${JSON.stringify(`${ref}#/data`)}, { path: "/other" })`, { outputBudgetBytes: 1024 });
    expect(both.body.code).toBe('ENGINE_INVALID_INPUT');
    expect(both.body.message).toContain('give the path once');
    // A session.set key is no stored result: a plain input error, not "unavailable, do not replay".
    const key = await run(`await session.set("contacts", [1, 2]); return await session.page("contacts", {})`, { outputBudgetBytes: 1024 });
    expect(key.body.code).toBe('ENGINE_INVALID_INPUT');
    expect(key.body.message).toContain('session.get reads values kept with session.set');
  });
});
