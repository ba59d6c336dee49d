// Values an execute script hands to the Engine cross as JSON text. JSON.stringify alone would
// change some silently (a function or symbol vanishes, NaN becomes null, a Map becomes {}): the
// script environment refuses each with a TypeError naming where it is, before anything reaches the
// host or the provider. As in JSON.stringify, toJSON is honoured and an object member that is
// undefined is left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

const SECRET = 'canary-json-args-7c1e';
let t: TestEngine;
let provider: FakeProvider;
let client: Client;

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/v1/contacts') return json(res, 200, { data: [], has_more: false, query: Object.fromEntries(url.searchParams) });
    json(res, 200, { id: url.pathname.split('/')[3] });
  });
  t = await startTestEngine({ SVC_EXECUTE_BUDGET_MS: '5000' });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: SECRET });
  const server = (await t.api('POST', '/v1/mcp/publish', { name: 'jsonargs', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/*'] })).body;
  t.canaries.push(SECRET, server.token);
  client = new Client({ name: 'json-args', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
});
afterAll(async () => {
  await client?.close();
  await t?.stop();
  await provider?.stop();
});

async function run(code: string) {
  const result = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
  return { isError: result.isError === true, body: result.structuredContent as any };
}

/** The message the script sees when it catches what call()/session.* threw. */
async function caught(expression: string): Promise<string> {
  const r = await run(`try { await ${expression}; return 'no error'; } catch (e) { return e.name + ': ' + e.message; }`);
  expect(r.isError).toBe(false);
  return r.body.result;
}

const LIST = "'demo-crm.contacts/list'";

describe('execute: arguments that are not JSON are refused, naming the path', () => {
  it.each([
    ['a symbol member', `call(${LIST}, { limit: Symbol() })`, 'call(): params.limit is a symbol, which is not JSON'],
    ['a function as params', `call(${LIST}, () => 1)`, 'call(): params is a function, which is not JSON'],
    ['a function member', `call(${LIST}, { limit: 1, filter: { since: () => 1 } })`, 'call(): params.filter.since is a function, which is not JSON'],
    ['an undefined array item', `call(${LIST}, { ids: ['a', undefined] })`, 'call(): params.ids[1] is undefined, which is not JSON'],
    ['an array hole', `call(${LIST}, { ids: [, 'b'] })`, 'call(): params.ids[0] is undefined, which is not JSON'],
    ['a BigInt', `call(${LIST}, { limit: 10n })`, 'call(): params.limit is a BigInt, which is not JSON'],
    ['NaN', `call(${LIST}, { limit: NaN })`, 'call(): params.limit is NaN, which is not JSON'],
    ['Infinity', `call(${LIST}, { limit: -Infinity })`, 'call(): params.limit is -Infinity, which is not JSON'],
    ['a Map', `call(${LIST}, { body: { tags: new Map() } })`, 'call(): params.body.tags is a Map, which is not JSON'],
    ['a forgotten await', `call(${LIST}, { starting_after: sleep(1) })`, 'call(): params.starting_after is a Promise (a missing await?), which is not JSON'],
    ['a member name that is not an identifier', `call(${LIST}, { 'x-y': [{ z: Symbol() }] })`, 'call(): params["x-y"][0].z is a symbol, which is not JSON'],
    ['a cycle', `(() => { const p = { a: {} }; p.a.back = p; return call(${LIST}, p); })()`, 'call(): params.a.back is a circular reference to params, which is not JSON'],
    ['a function in the options', `call(${LIST}, {}, { pagination: { maxPages: () => 1 } })`, 'call(): options.pagination.maxPages is a function, which is not JSON'],
    ['a function stored in the session', 'session.set("k", () => 1)', 'session.set: value is a function, which is not JSON'],
    ['a nested function stored in the session', 'session.set("k", { a: [1, { f() {} }] })', 'session.set: value.a[1].f is a function, which is not JSON'],
    ['undefined stored in the session', 'session.set("k", undefined)', 'session.set: value is undefined, which is not JSON (store null to keep "nothing")'],
    ['a symbol in session.page options', 'session.page("res_x", { path: Symbol() })', 'session.page: options.path is a symbol, which is not JSON'],
  ])('%s', async (_label, expression, message) => {
    const before = provider.requests.length;
    expect(await caught(expression)).toBe(`TypeError: ${message}`);
    expect(provider.requests.length).toBe(before);
  });

  it('leaves an operation ID that is not a string to the host: ENGINE_INVALID_INPUT naming operationId', async () => {
    for (const operation of ['Symbol("x")', '() => 1', '{ toString() { return "demo-crm.contacts/list" } }', 'undefined']) {
      const r = await run(`return await call(${operation}, {});`);
      expect(r.body).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'operationId' } });
      expect(r.body.message).toContain('call(): operationId must be a non-empty string');
    }
  });

  it('fails the execute, uncaught, with the message and the script line, and no call is made', async () => {
    const before = provider.requests.length;
    const r = await run(`const n = 1;\nreturn await call(${LIST}, { limit: Symbol() });`);
    expect(r.isError).toBe(true);
    expect(r.body).toMatchObject({ code: 'MCP_SCRIPT_ERROR', line: 2, recovery: { execute_request: 'correct_arguments', provider_execution: 'not_started' } });
    expect(r.body.message).toContain('TypeError: call(): params.limit is a symbol, which is not JSON (line 2');
    expect(provider.requests.length).toBe(before);
  });

  it('keeps nothing for a refused session.set', async () => {
    const r = await run('await session.set("kept", 1); try { await session.set("kept", () => 2); } catch {} return await session.get("kept");');
    expect(r.body.result).toBe(1);
  });
});

describe('execute: JSON.stringify semantics that stay', () => {
  it('leaves out object members that are undefined (an optional parameter not given)', async () => {
    const r = await run(`return await call(${LIST}, { limit: 2, starting_after: undefined });`);
    expect(r.isError).toBe(false);
    expect(r.body.result.data.query).toEqual({ limit: '2' });
  });

  it('honours toJSON: a Date crosses as its ISO string', async () => {
    const r = await run(`return await call(${LIST}, { starting_after: new Date(0) });`);
    expect(r.isError).toBe(false);
    expect(r.body.result.data.query).toEqual({ starting_after: '1970-01-01T00:00:00.000Z' });
    const stored = await run('await session.set("when", { at: new Date(0), n: null, list: [1, "a", true, null] }); return await session.get("when");');
    expect(stored.body.result).toEqual({ at: '1970-01-01T00:00:00.000Z', n: null, list: [1, 'a', true, null] });
  });

  it('accepts the same object twice (not a cycle) and keeps checking after a script replaced builtins', async () => {
    const shared = await run('const s = { x: [1] }; await session.set("dag", { a: s, b: [s, s] }); return await session.get("dag");');
    expect(shared.body.result).toEqual({ a: { x: [1] }, b: [{ x: [1] }, { x: [1] }] });
    const tampered = await caught(
      `(() => { Array.isArray = () => false; Array.prototype[Symbol.iterator] = function* () {}; Map.prototype.get = () => [undefined, '']; RegExp.prototype.test = () => false; JSON.stringify = () => '{}'; return call(${LIST}, { list: [1, { f: Symbol() }] }); })()`,
    );
    expect(tampered).toBe('TypeError: call(): params.list[1].f is a symbol, which is not JSON');
  });
});
