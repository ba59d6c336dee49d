// The execute tool end to end through the official MCP SDK client: the script environment, its
// limits, per-call authorisation, outcome classification and recovery contracts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { openSession, rawMcp } from '../fixtures/mcp.ts';

const SECRET = 'canary-execute-2b9d';
let t: TestEngine;
let provider: FakeProvider;
let server: { versionId: string; url: string; token: string };
let client: Client;

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res, socket) => {
    const url = new URL(req.url, 'http://x');
    const id = url.pathname.split('/')[3];
    if (id === 'con_reset') return void socket.destroy();
    if (id === 'con_slow') return; // never answers
    if (id === 'con_big') return json(res, 200, { id, blob: 'x'.repeat(1024 * 1024) });
    if (url.pathname === '/v1/contacts') return json(res, 200, { data: [{ id: 'con_1' }, { id: 'con_2' }], has_more: false });
    json(res, 200, { id, name: 'Ada', echo: req.headers.authorization === `Bearer ${SECRET}` });
  });
  t = await startTestEngine({ SVC_EXECUTE_BUDGET_MS: '3000', SVC_PROVIDER_TIMEOUT_MS: '1500' });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: SECRET });
  server = (await t.api('POST', '/v1/mcp/publish', { name: 'exec', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/*', 'demo-crm=files/get'] })).body;
  t.canaries.push(SECRET, server.token);
  client = await connect(server.token);
});
afterAll(async () => {
  await client.close();
  await t.stop();
  await provider.stop();
});

async function connect(token: string) {
  const c = new Client({ name: 'exec-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return c;
}

async function run(code: string, extra: Record<string, unknown> = {}, on = client) {
  const result = (await on.callTool({ name: 'execute', arguments: { code, ...extra } })) as any;
  return { isError: result.isError === true, body: result.structuredContent as any, text: result.content[0].text as string };
}
const value = async (code: string) => {
  const r = await run(code);
  if (r.isError) throw new Error(`execute failed: ${r.text}`);
  return r.body.result;
};

describe('execute: script environment', () => {
  it('runs a TypeScript body, strips types and returns the value', async () => {
    expect(await value('const n: number = 40; interface X { a: string }\nreturn n + 2;')).toBe(42);
    expect(await value('return;')).toBeNull();
  });

  it('calls an approved operation and returns the envelope', async () => {
    const envelope = await value('return await call("demo-crm.contacts/get", { contact_id: "con_7" });');
    expect(envelope).toMatchObject({ ok: true, status: 200, data: { id: 'con_7', name: 'Ada', echo: true }, error: null });
  });

  it('exposes no require, import, process, Buffer, fetch or host globals', async () => {
    expect(await value('return [typeof require, typeof process, typeof Buffer, typeof fetch, typeof WebAssembly, typeof globalThis.process].join()')).toBe(
      'undefined,undefined,undefined,undefined,undefined,undefined',
    );
    const escape = await run("return this.constructor.constructor('return process')().env");
    expect(escape.isError).toBe(true);
    expect(escape.body.code).toBe('MCP_SCRIPT_ERROR');
    const imported = await run('import fs from "node:fs"; return 1');
    expect(imported.body.code).toBe('MCP_SCRIPT_SYNTAX_ERROR');
  });

  it('starts every execute in a fresh context: globals and prototype changes of earlier executes are gone', async () => {
    expect(await value('globalThis.leaked = "from an earlier run"; Object.prototype.polluted = 1; Array.prototype.toJSON = () => "hijacked"; return [1]')).toBe('hijacked');
    for (let i = 0; i < 3; i++) {
      expect(await value('return [typeof globalThis.leaked, typeof ({}).polluted, [1, 2]]')).toEqual(['undefined', 'undefined', [1, 2]]);
    }
  });

  it('reports thrown errors and syntax errors with line numbers', async () => {
    const thrown = await run('const a = 1;\n\nthrow new Error("boom");');
    expect(thrown.body).toMatchObject({ code: 'MCP_SCRIPT_ERROR', line: 3 });
    expect(thrown.body.message).toContain('Error: boom (line 3');
    expect(thrown.body.recovery).toEqual({ execute_request: 'correct_arguments', provider_execution: 'not_started', automatic_replay: false });
    const syntax = await run('const x = ;');
    expect(syntax.body).toMatchObject({ code: 'MCP_SCRIPT_SYNTAX_ERROR', line: 1 });
  });

  it('decodes and encodes base64 exactly as the interface says', async () => {
    expect(await value('return [decodeBase64("aGVsbG8gd29ybGQ="), decodeBase64("aGVsbG8gd29ybGQ"), decodeBase64("8J-YgA"), decodeBase64("8J+YgA==")]')).toEqual([
      'hello world',
      'hello world',
      '😀',
      '😀',
    ]);
    expect(await value('return [encodeBase64("😀?"), encodeBase64("😀?", true), atob("aGk=")]')).toEqual(['8J+YgD8=', '8J-YgD8', 'hi']);
    expect(await value('return atob("/w==").charCodeAt(0)')).toBe(255);
    for (const [code, message] of [
      ['decodeBase64("/w==")', 'not valid UTF-8'],
      ['decodeBase64("a===")', 'padding'],
      ['decodeBase64("ab+c_d")', 'neither standard base64 nor base64url'],
      ['atob("aGk-")', 'URL-safe alphabet'],
      ['decodeBase64(42)', 'must be a string'],
      ['decodeBase64("A".repeat(1398105))', 'longer than 1398104'],
      ['encodeBase64("x".repeat(1048577))', 'larger than 1048576'],
      ['encodeBase64("\\ud800")', 'unpaired surrogate'],
    ]) {
      const r = await run(`return ${code};`);
      expect(r.isError, code).toBe(true);
      expect(r.body.message, code).toContain(message);
    }
    expect(await value('return decodeBase64(encodeBase64("x".repeat(1048576))).length')).toBe(1048576);
  });

  it('has timers with numeric handles, validated delays and at most 1,000 pending', async () => {
    expect(await value('let n = 0; const h = setTimeout(() => n++, 5); const g = setTimeout(() => n += 10, 5); clearTimeout(g); await sleep(30); await new Promise(r => setTimeout(r, 5)); return [typeof h, n]')).toEqual([
      'number',
      1,
    ]);
    expect(await value('for (let i = 0; i < 1000; i++) setTimeout(() => {}, 60000); return "ok"')).toBe('ok');
    const flood = await run('for (let i = 0; i < 1001; i++) setTimeout(() => {}, 60000); return "no"');
    expect(flood.body.message).toContain('at most 1000 timers');
    for (const delay of ['-1', 'Infinity', 'NaN', '2147483648']) {
      const r = await run(`setTimeout(() => {}, ${delay}); return 1`);
      expect(r.body.message, delay).toContain('from 0 to 2147483647');
      const s = await run(`await sleep(${delay}); return 1`);
      expect(s.isError, delay).toBe(true);
    }
  });

  it('keeps session values for the connection, and session.get takes exactly one string', async () => {
    expect(await value('await session.set("greeting", { hello: "world" }); return 1')).toBe(1);
    expect(await value('return await session.get("greeting")')).toEqual({ hello: 'world' });
    const two = await run('return await session.get("greeting", "extra")');
    expect(two.body.message).toContain('exactly one argument');
    const other = await connect(server.token);
    expect((await run('return await session.get("greeting")', {}, other)).body.result).toBeNull();
    await other.close();
  });
});

describe('execute: limits', () => {
  it('allows 10 calls and refuses the 11th before dispatch', async () => {
    const before = provider.requests.length;
    expect(await value('for (let i = 0; i < 10; i++) await call("demo-crm.contacts/get", { contact_id: "con_" + i }); return "ten"')).toBe('ten');
    expect(provider.requests.length - before).toBe(10);
    const eleven = await run('for (let i = 0; i < 11; i++) await call("demo-crm.contacts/get", { contact_id: "con_" + i }); return "eleven"');
    expect(eleven.body.code).toBe('MCP_CALL_LIMIT');
    expect(eleven.body.recovery).toEqual({ execute_request: 'do_not_replay', provider_execution: 'unknown', automatic_replay: false });
    expect(provider.requests.length - before).toBe(20);
  });

  it('times out when sleep exceeds the budget', async () => {
    const r = await run('await sleep(10000); return 1');
    expect(r.body.code).toBe('MCP_EXECUTE_TIMEOUT');
    expect(r.body.recovery.provider_execution).toBe('not_started');
  });

  it('admits a final value of 1 MiB and refuses 1 MiB + 1 byte', async () => {
    const ok = await run('return "x".repeat(1048576 - 2)');
    expect(ok.body.code).toBe('MCP_RESULT_STORED');
    const over = await run('return "x".repeat(1048576 - 1)');
    expect(over.body.code).toBe('ENGINE_RESULT_TOO_LARGE');
  });

  it('refuses a physical result over 1 MiB', async () => {
    const envelope = await value('return await call("demo-crm.contacts/get", { contact_id: "con_big" })');
    expect(envelope).toMatchObject({ ok: false, status: 413, error: { code: 'ENGINE_RESULT_TOO_LARGE' } });
  });

  it('validates outputBudgetBytes', async () => {
    for (const budget of [1023, 65537, 'big']) {
      const r = await run('return 1', { outputBudgetBytes: budget });
      expect(r.body.code).toBe('ENGINE_INVALID_INPUT');
      expect(r.body.recovery.execute_request).toBe('correct_arguments');
    }
  });
});

describe('execute: authorisation and recovery', () => {
  it('refuses an operation outside the allowlist mid-script, after earlier calls ran', async () => {
    const narrow = await t.api('POST', '/v1/mcp/exec/tokens', { allow: ['demo-crm.contacts/get'] });
    t.canaries.push(narrow.body.token);
    const c = await connect(narrow.body.token);
    const before = provider.requests.length;
    const r = await run('const a = await call("demo-crm.contacts/get", { contact_id: "con_1" });\nconst b = await call("demo-crm.contacts/list", {});\nreturn [a, b];', {}, c);
    expect(r.body.code).toBe('ENGINE_FORBIDDEN_OPERATION');
    expect(r.body.recovery).toEqual({ execute_request: 'do_not_replay', provider_execution: 'unknown', automatic_replay: false });
    expect(provider.requests.length - before).toBe(1);
    await t.engine.deps.activity.flush();
    const receipts = (await t.engine.store.listReceipts(server.versionId, 100)).filter((r) => r.tokenId === narrow.body.id);
    // The refused call leaves its receipt too (newest first), as the same call over REST does.
    expect(receipts.map((r) => [r.operation, r.pages, r.ok, r.errorCode])).toEqual([
      ['demo-crm.contacts/list', 0, false, 'ENGINE_FORBIDDEN_OPERATION'],
      ['demo-crm.contacts/get', 1, true, null],
    ]);
    await c.close();
  });

  it('refuses provider credentials and unknown parameters before dispatch', async () => {
    const before = provider.requests.length;
    const r = await run('return await call("demo-crm.contacts/get", { contact_id: "con_1", Authorization: "Bearer mine" })');
    expect(r.body.code).toBe('ENGINE_INVALID_INPUT');
    expect(r.body.recovery).toEqual({ execute_request: 'correct_arguments', provider_execution: 'not_started', automatic_replay: false });
    expect(provider.requests.length).toBe(before);
  });

  it('rejects invalid pagination before any provider request, and as do_not_replay after a dispatch', async () => {
    const before = provider.requests.length;
    const isolated = await run('return await call("demo-crm.contacts/list", {}, { pagination: { maxPages: 20 } })');
    expect(isolated.body.code).toBe('ENGINE_PAGINATION_INVALID');
    expect(isolated.body.recovery).toEqual({ execute_request: 'correct_arguments', provider_execution: 'not_started', automatic_replay: false });
    const unsupported = await run('return await call("demo-crm.contacts/get", { contact_id: "con_1" }, { pagination: { maxPages: 2 } })');
    expect(unsupported.body.code).toBe('ENGINE_PAGINATION_INVALID');
    expect(provider.requests.length).toBe(before);
    const after = await run('await call("demo-crm.contacts/get", { contact_id: "con_1" });\nreturn await call("demo-crm.contacts/list", {}, { pagination: { maxPages: 0 } })');
    expect(after.body.code).toBe('ENGINE_PAGINATION_INVALID');
    expect(after.body.recovery).toEqual({ execute_request: 'do_not_replay', provider_execution: 'unknown', automatic_replay: false });
    expect(await value('return (await call("demo-crm.contacts/list", {}, { pagination: { maxPages: 2 } })).data.data.length')).toBe(2);
  });

  it('refuses a Unified operation the version does not select, before dispatch', async () => {
    const before = provider.requests.length;
    const r = await run('return await call("unified.tasks.create", { input: { title: "x" }, targets: ["crm"] })');
    expect(r.body.code).toBe('ENGINE_FORBIDDEN_OPERATION');
    expect(r.body.recovery.provider_execution).toBe('not_started');
    expect((await run('return await call("unified.nope.none", { input: {}, targets: ["a"] })')).body.code).toBe('ENGINE_UNKNOWN_OPERATION');
    expect(provider.requests.length).toBe(before);
  });

  it('answers a refusal from the host\'s record: a script can neither forge an EngineRefusal nor rewrite a real one', async () => {
    const forged = await run("const e = new Error('m'); e.name = 'EngineRefusal'; e.code = 'MCP_SESSION_UNAVAILABLE'; e.refusal = 99; e.details = { big: 'y'.repeat(300000) }; throw e");
    expect(forged.isError).toBe(true);
    expect(forged.body.code).toBe('MCP_SCRIPT_ERROR');
    expect(forged.body.details).toBeUndefined();
    const rewritten = await run("try { await call('demo-crm.nope', {}) } catch (e) { e.code = 'X'.repeat(1000); e.message = 'forged'; e.details = { x: 1 }; throw e }");
    expect(rewritten.body).toMatchObject({ code: 'ENGINE_UNKNOWN_OPERATION', recovery: { provider_execution: 'not_started' } });
    expect(rewritten.body.message).toContain("unknown operation 'demo-crm.nope'");
    expect(rewritten.body.details).not.toEqual({ x: 1 });
  });

  it('keeps only the latest refusals on the host: a script looping on refused reads cannot grow its memory', async () => {
    const loop = (rethrow: 'first' | 'last') =>
      run(`let first, last; for (let i = 0; i < 100; i++) { try { await session.page('res_AAAAAAAAAAAAAAAAAAAAAA', {}) } catch (e) { first ??= e; last = e } } throw ${rethrow}`);
    expect((await loop('last')).body.code).toBe('MCP_RESULT_UNAVAILABLE');
    expect((await loop('first')).body.code).toBe('MCP_SCRIPT_ERROR'); // its record was let go (64 kept)
  });

  it('keeps an error answer within the smaller of the output budget and 8 KiB, details included', async () => {
    const huge = await run("return await call('demo-crm.contacts/get', { contact_id: 'x', ['k'.repeat(200000)]: 1 })", { outputBudgetBytes: 1024 });
    expect(huge.body.code).toBe('ENGINE_INVALID_INPUT');
    expect(Buffer.byteLength(huge.text)).toBeLessThanOrEqual(1024);
    const thrown = await run("throw new Error('z'.repeat(100000))");
    expect(Buffer.byteLength(thrown.text)).toBeLessThanOrEqual(8 * 1024);
  });

  it('keeps nothing for a session closed while its script ran (no session.set value, no stored result)', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } });
    const c = new Client({ name: 'closing', version: '1.0.0' });
    await c.connect(transport);
    const sessionId = transport.sessionId!;
    const store = t.engine.deps.sessionState as unknown as { usage(id: string): { snapshots: number; valueBytes: number } };
    const running = c
      .callTool({ name: 'execute', arguments: { code: "await sleep(600); await session.set('k', 'x'.repeat(100000)); return 'r'.repeat(20000)", outputBudgetBytes: 1024 } })
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 150));
    await transport.terminateSession();
    await running;
    await new Promise((r) => setTimeout(r, 700)); // past the script's sleep: it has tried to store by now
    expect(await t.engine.deps.sessionState.hasSession(sessionId)).toBe(false);
    expect(store.usage(sessionId)).toMatchObject({ snapshots: 0, valueBytes: 0 });
    await c.close();
  });

  it('runs a script again, on another sandbox process, when its process stopped before the script reached the Engine', async () => {
    await value('return 0'); // the workers are up: the run below starts at once
    const pending = run('await sleep(1000); return "ran again"');
    await new Promise((r) => setTimeout(r, 300));
    const killed = t.engine.deps.sandbox.pids;
    for (const pid of killed) process.kill(pid, 'SIGKILL');
    const r = await pending;
    // Nothing it did had reached the host, so nothing could have acted: running it again is safe.
    expect(r.isError, JSON.stringify(r.body)).toBeFalsy();
    expect(r.body).toEqual({ result: 'ran again' });
  });

  it('tells a script whose sandbox process stopped under it, having sent nothing to a provider, to run again unchanged', async () => {
    // session.get reaches the host (so the Engine does not run it again itself), but no provider.
    await value('return 0');
    const pending = run('await session.get("k"); await sleep(3000); return 1');
    await new Promise((r) => setTimeout(r, 300));
    const killed = t.engine.deps.sandbox.pids;
    for (const pid of killed) process.kill(pid, 'SIGKILL');
    const r = await pending;
    // Every killed worker noticed as gone (a run sent to one in between would be lost, and say so).
    while (t.engine.deps.sandbox.pids.some((pid) => killed.includes(pid))) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(r.isError).toBe(true);
    expect(r.body).toMatchObject({ code: 'MCP_SCRIPT_ERROR', recovery: { execute_request: 'unchanged', provider_execution: 'not_started', automatic_replay: false } });
    expect(await value('return "again"')).toBe('again');
  });

  it('classifies provider outcomes truthfully', async () => {
    const reset = await value('return await call("demo-crm.contacts/get", { contact_id: "con_reset" })');
    expect(reset.error).toMatchObject({ code: 'ENGINE_OUTCOME_UNKNOWN', details: { provider_execution: 'unknown' } });
    const slow = await value('return await call("demo-crm.contacts/get", { contact_id: "con_slow" })');
    expect(slow.error).toMatchObject({ code: 'PROVIDER_TIMEOUT', details: { provider_execution: 'unknown' } });
    const invalid = await run('return await call("demo-crm.contacts/get", {})');
    expect(invalid.body.recovery.provider_execution).toBe('not_started');
    const thrownAfterReset = await run('await call("demo-crm.contacts/get", { contact_id: "con_reset" }); throw new Error("after")');
    expect(thrownAfterReset.body.code).toBe('MCP_EXECUTION_OUTCOME_UNKNOWN');

    const port = await new Promise<number>((r) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => r(p));
      });
    });
    await pointService(t, 'demo-crm', `http://127.0.0.1:${port}`, SECRET);
    try {
      const refused = await value('return await call("demo-crm.contacts/get", { contact_id: "con_1" })');
      expect(refused.error).toMatchObject({ code: 'PROVIDER_UNREACHABLE', details: { provider_execution: 'not_started' } });
      const thrown = await run('await call("demo-crm.contacts/get", { contact_id: "con_1" }); throw new Error("x")');
      expect(thrown.body.recovery.provider_execution).toBe('not_started');
    } finally {
      await pointService(t, 'demo-crm', provider.url, SECRET);
    }
  });

  it('is cancelled through the SDK client: the runtime stops and later calls never happen', async () => {
    const controller = new AbortController();
    const pending = client.callTool({ name: 'execute', arguments: { code: 'await sleep(500); return await call("demo-crm.contacts/get", { contact_id: "con_after_cancel" })' } }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 900));
    expect(provider.requests.some((r) => r.url.includes('con_after_cancel'))).toBe(false);
    // The session keeps working afterwards.
    expect(await value('return "still here"')).toBe('still here');
  });

  it('answers a cancelled call over raw HTTP with MCP_EXECUTE_CANCELLED, so its request ends', async () => {
    const mcp = rawMcp(server.url, server.token);
    const headers = await openSession(mcp);
    const started = Date.now();
    const pending = mcp.post({ jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'execute', arguments: { code: 'await sleep(20000); return 1' } } }, headers);
    await new Promise((r) => setTimeout(r, 200));
    expect((await mcp.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 77 } }, headers)).status).toBe(202);
    const answered = await pending;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answered.body).toMatchObject({ id: 77, result: { isError: true, structuredContent: { code: 'MCP_EXECUTE_CANCELLED' } } });
  });

  it('writes a receipt per call linked to the MCP version and token', async () => {
    await value('return await call("demo-crm.contacts/get", { contact_id: "con_receipt" })');
    await t.engine.deps.activity.flush();
    const receipts = await t.engine.store.listReceipts(server.versionId, 5);
    expect(receipts[0]).toMatchObject({ versionId: server.versionId, surface: 'mcp', operation: 'demo-crm.contacts/get', ok: true });
    expect(receipts[0]!.tokenId).toMatch(/^tok_/);
  });

  it('never lets the secret into a script', async () => {
    const r = await run('return JSON.stringify(await call("demo-crm.contacts/get", { contact_id: "con_1" }))');
    expect(r.text).not.toContain(SECRET);
  });
});
