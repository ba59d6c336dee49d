// MCP execute, found by review: only the two tools' own names are tools; session.page takes the
// '' key discovery lists; a run floods the bridge to the host (session.get by the hundred thousand,
// or megabytes again and again) without stalling other tenants' runs or jamming a sandbox thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { openSession, rawMcp } from '../fixtures/mcp.ts';

let t: TestEngine;
let provider: FakeProvider;
let server: { versionId: string; url: string; token: string };
/** A second token of the same MCP server: another sandbox tenant. */
let otherToken: string;
let client: Client;

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    json(res, 200, { id: url.pathname.split('/')[3], name: 'Ada' });
  });
  t = await startTestEngine({ SVC_EXECUTE_BUDGET_MS: '5000' });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: 'review-secret-7f3a' });
  server = (await t.api('POST', '/v1/mcp/publish', { name: 'review', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/*'] })).body;
  otherToken = (await t.api('POST', '/v1/mcp/review/tokens', { allow: ['demo-crm.contacts/get'] })).body.token;
  t.canaries.push('review-secret-7f3a', server.token, otherToken);
  client = await connect(server.token);
});
afterAll(async () => {
  await client?.close().catch(() => undefined);
  await t?.stop();
  await provider?.stop();
}, 60_000);

async function connect(token: string) {
  const c = new Client({ name: 'review', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return c;
}

async function run(code: string, extra: Record<string, unknown> = {}, on = client) {
  const result = (await on.callTool({ name: 'execute', arguments: { code, ...extra } })) as any;
  return { isError: result.isError === true, body: result.structuredContent as any, text: result.content[0].text as string };
}

describe('tools/call', () => {
  it('refuses tool names inherited from Object.prototype as unknown tools instead of running execute unvalidated', async () => {
    const mcp = rawMcp(server.url, server.token);
    const headers = await openSession(mcp);
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__']) {
      // `code` over the schema's 100,000-character maxLength and a budget outside 1,024–65,536: execute would refuse both.
      const r = await mcp.post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: { code: `return 42 // ${'x'.repeat(100_001)}`, outputBudgetBytes: 999_999 } } }, headers);
      expect(r.status, name).toBe(200);
      expect(r.body.error, `${name}: ${JSON.stringify(r.body.error)}`).toBeUndefined();
      expect(r.body.result?.isError, `${name}: ${JSON.stringify(r.body.result)}`).toBe(true);
      expect(r.body.result.structuredContent.code, name).toBe('ENGINE_UNKNOWN_TOOL');
    }
  });
});

describe('session.page', () => {
  it('pages by a field the MCP_RESULT_STORED envelope itself lists (the empty key "")', async () => {
    const stored = await run('return { data: Array.from({ length: 200 }, (_, i) => ({ "": "v" + i, a: "x".repeat(50) })) }', { outputBudgetBytes: 1024 });
    expect(stored.body.code).toBe('MCP_RESULT_STORED');
    expect(stored.body.collections[0]).toMatchObject({ path: '/data', fields: ['', 'a'] });
    const page = await run(`return await session.page(${JSON.stringify(stored.body.result_ref)}, { path: "/data", fields: [""], offset: 0 })`, { outputBudgetBytes: 1024 });
    expect(page.isError, page.text).toBe(false);
    expect(page.body.result.items[0]).toEqual({ '': 'v0' });
  });
});

describe('sandbox isolation between tenants', () => {
  it("keeps another token's short scripts within their budget while one script floods session.get with 4 MB values", async () => {
    const victims = await Promise.all([connect(otherToken), connect(otherToken)]);
    // Started first so that each sandbox thread hosts one of them.
    const pending = victims.map((c) => run('await sleep(300); return "ok"', {}, c));
    await new Promise((r) => setTimeout(r, 100));
    const bomb = run('await session.set("big", "x".repeat(4000000)); const ps = []; for (let i = 0; i < 300; i++) ps.push(session.get("big").then((v) => v.length)); return (await Promise.all(ps)).length');
    const answers = await Promise.all(pending);
    await bomb;
    // A 300 ms sleep in a 5 s budget: nothing the other token does may turn it into a timeout.
    for (const a of answers) expect(a.body, a.text).toEqual({ result: 'ok' });
    await Promise.all(victims.map((c) => c.close()));
  }, 60_000);

  it("leaves the sandbox usable for other tokens after a script floods session.get with 200,000 concurrent calls", async () => {
    const victim = await connect(otherToken);
    await run('const ps = []; for (let i = 0; i < 200000; i++) ps.push(session.get("k")); await Promise.all(ps); return ps.length');
    // The flooding execute has answered: its run is over. Another token's trivial scripts must run.
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all([run('return 1', {}, victim), run('return 2', {}, victim)]);
      expect(answers.map((a) => a.body), answers.map((a) => a.text).join(' | ')).toEqual([{ result: 1 }, { result: 2 }]);
    }
    await victim.close();
  }, 90_000);
});
