// A hostile corpus: scripts that try to escape the sandbox, exhaust it or confuse the host.
// Each must end with a clean tool error (or a harmless value), the Engine must keep serving,
// and the next execute on the same session must work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let t: TestEngine;
let provider: FakeProvider;
let client: Client;

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => json(res, 200, { id: 'con_1', name: 'Ada', __proto__x: 1, constructor: 'c' }));
  t = await startTestEngine({ SVC_EXECUTE_BUDGET_MS: '1500' });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: 'hostile-canary-secret' });
  const server = (await t.api('POST', '/v1/mcp/publish', { name: 'hostile', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
  t.canaries.push('hostile-canary-secret', server.token);
  client = new Client({ name: 'hostile', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
});
afterAll(async () => {
  await client.close();
  await t.stop();
  await provider.stop();
});

/** [name, script, what a clean outcome looks like: an error code, or the exact value returned] */
const CORPUS: [string, string, { error?: string | RegExp; value?: unknown }][] = [
  ['constructor chain to process', "return this.constructor.constructor('return process')()", { error: 'MCP_SCRIPT_ERROR' }],
  ['Function constructor to process', "return Function('return process')().env", { error: 'MCP_SCRIPT_ERROR' }],
  ['async function constructor', "const AF = (async () => {}).constructor; return await AF('return process')()", { error: 'MCP_SCRIPT_ERROR' }],
  ['globalThis has no host objects', "return ['process','require','module','Buffer','fetch','setImmediate','queueMicrotask' in globalThis && 'ok'].map(n => typeof globalThis[n])", { value: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined'] }],
  ['require', "return require('fs')", { error: 'MCP_SCRIPT_ERROR' }],
  ['dynamic import', "return await import('node:fs')", { error: /MCP_SCRIPT_(ERROR|SYNTAX_ERROR)/ }],
  ['static import', "import fs from 'fs'; return 1", { error: 'MCP_SCRIPT_SYNTAX_ERROR' }],
  ['process.binding', "return process.binding('fs')", { error: 'MCP_SCRIPT_ERROR' }],
  ['eval to process', "return eval('process')", { error: 'MCP_SCRIPT_ERROR' }],
  // The host serialises a returned value again, recursively: past 128 levels it is refused, not a stack overflow.
  ['deeply nested value too large to answer inline', "let v = {}; let c = v; for (let i = 0; i < 3000; i++) { c.a = [{ b: 1 }, 'y']; c = c.a[0]; } return [v, 'x'.repeat(20000)]", { error: 'MCP_SCRIPT_ERROR' }],
  ['deeply nested small value', 'let v = 1; for (let i = 0; i < 2000; i++) v = [v]; return v', { error: 'MCP_SCRIPT_ERROR' }],
  ['a value 128 levels deep', 'let v = 0; for (let i = 0; i < 128; i++) v = [v]; return v', { value: Array.from({ length: 128 }).reduce<unknown>((v) => [v], 0) }],
  ['call reaches host via its constructor', "return call.constructor('return process')()", { error: 'MCP_SCRIPT_ERROR' }],
  ['session object is frozen', "session.get = () => 'mine'; return await session.get('x')", { value: null }],
  ['redefining call is ignored', "globalThis.call = () => 1; return typeof (await call('demo-crm.contacts/get', { contact_id: 'con_1' })).ok", { value: 'boolean' }],
  ['strict-mode redefinition throws', "'use strict'; return (() => { 'use strict'; globalThis.call = () => 1; })()", { error: 'MCP_SCRIPT_ERROR' }],
  ['prototype pollution of call results', "const r = await call('demo-crm.contacts/get', { contact_id: 'con_1' }); r.__proto__.polluted = 'yes'; Object.prototype.evil = 1; return { polluted: ({}).polluted, keys: Object.keys(r.data).sort() }", { value: { polluted: 'yes', keys: ['__proto__x', 'constructor', 'id', 'name'] } }],
  ['JSON __proto__ key stays data', "const r = JSON.parse('{\"__proto__\": {\"x\": 1}}'); return ({}).x === undefined", { value: true }],
  ['infinite loop', 'while (true) {}', { error: 'MCP_EXECUTE_TIMEOUT' }],
  ['infinite loop after await', 'await sleep(1); for (;;) {}', { error: 'MCP_EXECUTE_TIMEOUT' }],
  ['memory bomb (array)', "const a = []; for (;;) a.push(new Array(1e6).fill(1))", { error: /MCP_SCRIPT_ERROR|MCP_EXECUTE_TIMEOUT/ }],
  ['memory bomb (string doubling)', "let s = 'x'; for (;;) s += s", { error: /MCP_SCRIPT_ERROR|MCP_EXECUTE_TIMEOUT/ }],
  ['memory bomb (ArrayBuffer)', 'const bufs = []; for (;;) bufs.push(new ArrayBuffer(64 * 1024 * 1024))', { error: /MCP_SCRIPT_ERROR|MCP_EXECUTE_TIMEOUT/ }],
  // V8 aborts the process an isolate lives in when a Map's growth overshoots the limit: only the sandbox worker's.
  ['memory bomb (Map)', 'const m = new Map(); for (let i = 0; ; i++) m.set(i, { i })', { error: /MCP_SCRIPT_ERROR|MCP_EXECUTE_TIMEOUT/ }],
  ['memory bomb (small objects)', 'const a = []; for (;;) a.push({ i: a.length })', { error: /MCP_SCRIPT_ERROR|MCP_EXECUTE_TIMEOUT/ }],
  // Checking a value for JSON keeps only the current path: a large flat value fits beside itself.
  ['returning 300,000 empty objects', 'const rows = Array.from({ length: 300000 }, () => ({})); return rows.length', { value: 300000 }],
  ['promise flood', 'const ps = []; for (let i = 0; i < 1e7; i++) ps.push(Promise.resolve(i)); await Promise.all(ps); return 1', { error: /MCP_SCRIPT_ERROR|MCP_EXECUTE_TIMEOUT/ }],
  ['microtask loop', 'const spin = () => Promise.resolve().then(spin); spin(); await sleep(5000)', { error: /MCP_SCRIPT_ERROR|MCP_EXECUTE_TIMEOUT/ }],
  ['timer flood', 'for (let i = 0; i < 100000; i++) setTimeout(() => {}, 1)', { error: 'MCP_SCRIPT_ERROR' }],
  ['timer recursion', 'const again = () => setTimeout(again, 0); again(); await sleep(3000)', { error: 'MCP_EXECUTE_TIMEOUT' }],
  ['huge string result', "return 'x'.repeat(2 * 1024 * 1024)", { error: 'ENGINE_RESULT_TOO_LARGE' }],
  ['huge string allocation', "return 'x'.repeat(2 ** 29).length", { error: /MCP_SCRIPT_ERROR|MCP_EXECUTE_TIMEOUT/ }],
  ['deep recursion', 'const f = (n) => f(n + 1) + 1; return f(0)', { error: 'MCP_SCRIPT_ERROR' }],
  ['deeply nested result', "let v = {}; for (let i = 0; i < 100000; i++) v = { v }; return v", { error: /MCP_SCRIPT_ERROR|MCP_EXECUTE_TIMEOUT/ }],
  ['Atomics.wait', 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return 1', { error: 'MCP_SCRIPT_ERROR' }],
  ['SharedArrayBuffer is absent', 'return typeof SharedArrayBuffer', { value: 'undefined' }],
  ['WebAssembly is absent', 'return typeof WebAssembly', { value: 'undefined' }],
  ['cyclic result', 'const a = {}; a.self = a; return a', { error: 'MCP_SCRIPT_ERROR' }],
  ['BigInt result', 'return 10n', { error: 'MCP_SCRIPT_ERROR' }],
  ['function result', 'return () => 1', { error: 'MCP_SCRIPT_ERROR' }], // refused as a call() param would be, not turned into null
  ['throwing toJSON', 'return { toJSON() { throw new Error("nope") } }', { error: 'MCP_SCRIPT_ERROR' }],
  ['throw a non-error', 'throw 42', { error: 'MCP_SCRIPT_ERROR' }],
  ['throw an object with a throwing getter', 'throw { get message() { throw new Error("getter") } }', { error: 'MCP_SCRIPT_ERROR' }],
  ['JSON.stringify monkeypatch', 'JSON.stringify = () => "{not json"; return { a: 1 }', { value: { a: 1 } }],
  ['Promise.prototype.then monkeypatch', 'Promise.prototype.then = function () { return this }; return 1', { value: 1 }],
  ['unhandled rejection inside a timer', 'setTimeout(() => { throw new Error("in timer") }, 0); await sleep(20); return 1', { error: 'MCP_SCRIPT_ERROR' }],
  ['call with a function as params', "return await call('demo-crm.contacts/get', () => 1)", { error: 'MCP_SCRIPT_ERROR' }],
  ['call with a symbol member', "return await call('demo-crm.contacts/get', { contact_id: Symbol() })", { error: 'MCP_SCRIPT_ERROR' }],
  ['call with a non-string operation', 'return await call({ toString() { return "demo-crm.contacts/get" } }, {})', { error: 'ENGINE_INVALID_INPUT' }],
  ['call with a credential header', "return await call('demo-crm.contacts/get', { contact_id: 'con_1', authorization: 'Bearer x' })", { error: 'ENGINE_INVALID_INPUT' }],
  ['call an unselected operation', "return await call('demo-crm.contacts/create', { body: { name: 'x', email: 'a@b.c' } })", { error: 'ENGINE_FORBIDDEN_OPERATION' }],
  ['call outside the catalogue', "return await call('github.repos/get', { owner: 'a', repo: 'b' })", { error: 'ENGINE_UNKNOWN_OPERATION' }],
  ['session.set with a huge value', "await session.set('big', 'x'.repeat(5 * 1024 * 1024)); return 1", { error: /MCP_SESSION_QUOTA|ENGINE_|MCP_SCRIPT_ERROR/ }],
  ['session.page on a forged ref', "return await session.page('res_AAAAAAAAAAAAAAAAAAAAAA', {})", { error: /MCP_RESULT_UNAVAILABLE|MCP_SCRIPT_ERROR/ }],
  ['base64 bomb', "return decodeBase64('A'.repeat(1398104)).length", { error: 'MCP_SCRIPT_ERROR' }],
  ['host paths in a base64 error stack', "try { decodeBase64('@@') } catch (e) { return /\\/work\\/|file:|src\\//.test(String(e.stack)) ? e.stack : e.name }", { value: 'SyntaxError' }],
  ['stack overflow in a getter during return', 'const o = {}; Object.defineProperty(o, "x", { enumerable: true, get() { return o.x } }); return o', { error: 'MCP_SCRIPT_ERROR' }],
];

describe('hostile scripts', () => {
  it(`has at least 40 scripts`, () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CORPUS)('%s ends cleanly and the session still works', async (_name, code, expected) => {
    const result = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
    const body = result.structuredContent;
    if (expected.error !== undefined) {
      expect(result.isError, JSON.stringify(body)).toBe(true);
      if (typeof expected.error === 'string') expect(body.code).toBe(expected.error);
      else expect(body.code ?? '').toMatch(expected.error);
      expect(body.recovery).toBeDefined();
      expect(JSON.stringify(body)).not.toContain('hostile-canary-secret');
      expect(body.message).not.toMatch(/\/work\/|node_modules|isolated-vm/);
    } else {
      expect(result.isError ?? false, JSON.stringify(body)).toBe(false);
      expect(body.result).toEqual(expected.value);
    }
    const next = (await client.callTool({ name: 'execute', arguments: { code: 'return 6 * 7' } })) as any;
    expect(next.structuredContent).toEqual({ result: 42 });
  });

  it('leaves the Engine process untouched', async () => {
    expect((Object.prototype as Record<string, unknown>).evil).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    const res = await t.api('GET', '/v1/mcp');
    expect(res.status).toBe(200);
  });
});
