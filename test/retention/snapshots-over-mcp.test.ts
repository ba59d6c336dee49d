// Result retention end to end through the official MCP SDK client: a 10,000-row provider result
// is stored as a session snapshot and read completely by following next_request and nextOffset
// alone; snapshots never cross sessions and DELETE releases them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

const ROWS = 10_000;
let t: TestEngine;
let provider: FakeProvider;
let server: { url: string; token: string };

beforeAll(async () => {
  // About 70 bytes a row: 10,000 rows stay under the 1 MiB physical-result cap.
  const rows = Array.from({ length: ROWS }, (_, i) => ({ id: `con_${i}`, name: `C${i} ü\\"q"`, ...(i % 7 ? {} : { tier: 'gold' }) }));
  provider = await startFakeProvider((req, res) => json(res, 200, { data: rows, has_more: false }));
  t = await startTestEngine();
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: 'retention-secret' });
  server = (await t.api('POST', '/v1/mcp/publish', { name: 'big', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] })).body;
  t.canaries.push('retention-secret', server.token);
});
afterAll(async () => {
  await t.stop();
  await provider.stop();
});

async function connect() {
  const client = new Client({ name: 'retention', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } });
  await client.connect(transport);
  return { client, transport };
}

const execute = async (client: Client, args: Record<string, unknown>) => {
  const r = (await client.callTool({ name: 'execute', arguments: args })) as any;
  return { isError: r.isError === true, body: r.structuredContent, bytes: Buffer.byteLength(r.content[0].text) };
};

describe('result retention', () => {
  it('stores a 10,000-row result and reads every row exactly once via next_request and nextOffset', async () => {
    const { client } = await connect();
    const budget = 8192;
    const stored = await execute(client, { code: 'return (await call("demo-crm.contacts/list", {})).data', outputBudgetBytes: budget });
    expect(stored.isError).toBe(false);
    expect(stored.bytes).toBeLessThanOrEqual(budget);
    const envelope = stored.body;
    expect(envelope.code).toBe('MCP_RESULT_STORED');
    expect(envelope.result_ref).toMatch(/^res_/);
    expect(JSON.stringify(envelope.preview)).not.toMatch(/C1 |con_1|gold/);
    expect(envelope.collections[0]).toMatchObject({ path: '/data', count: ROWS });

    // Follow the envelope's own request, then nextOffset, changing nothing else.
    let request = envelope.next_request;
    expect(request.tool).toBe('execute');
    const seen = new Set<string>();
    let pages = 0;
    for (;;) {
      const page = await execute(client, request.arguments);
      expect(page.isError, JSON.stringify(page.body)).toBe(false);
      expect(page.bytes).toBeLessThanOrEqual(budget);
      const p = page.body.result;
      for (const row of p.items) {
        expect(seen.has(row.id)).toBe(false);
        seen.add(row.id);
      }
      pages++;
      if (p.complete) {
        expect(p.nextOffset).toBeNull();
        break;
      }
      expect(p.returned).toBeGreaterThan(0);
      expect(p.nextOffset).toBe(p.offset + p.returned);
      request = { ...request, arguments: { ...request.arguments, code: request.arguments.code.replace(/("?offset"?\s*:\s*)\d+/, `$1${p.nextOffset}`) } };
    }
    expect(seen.size).toBe(ROWS);
    expect(pages).toBeGreaterThan(10);
    await client.close();
  });

  it('never lets another session read a snapshot, and releases it on DELETE', async () => {
    const a = await connect();
    const stored = (await execute(a.client, { code: 'return (await call("demo-crm.contacts/list", {})).data' })).body;
    expect(stored.code).toBe('MCP_RESULT_STORED');
    const read = `return await session.page(${JSON.stringify(stored.result_ref)}, { path: "/data", fields: ["id"], offset: 0 })`;
    expect((await execute(a.client, { code: read })).body.result.items[0]).toEqual({ id: 'con_0' });

    const b = await connect();
    const foreign = await execute(b.client, { code: read });
    expect(foreign.isError).toBe(true);
    expect(foreign.body.code).toBe('MCP_RESULT_UNAVAILABLE');
    const viaGet = await execute(b.client, { code: `return await session.get(${JSON.stringify(stored.result_ref + '#/data/0/id')})` });
    expect(viaGet.body.code).toBe('MCP_RESULT_UNAVAILABLE');
    await b.client.close();

    expect((await execute(a.client, { code: `return await session.get(${JSON.stringify(stored.result_ref + '#/data/3/id')})` })).body.result).toBe('con_3');
    await a.transport.terminateSession();
    await a.client.close();
    expect(await t.engine.deps.sessionState.getSnapshot('any', stored.result_ref).catch((e: Error & { code?: string }) => e.code)).toBe('MCP_RESULT_UNAVAILABLE');
  });

  it('refuses a row that cannot fit without cutting it', async () => {
    const { client } = await connect();
    const stored = (await execute(client, { code: 'return [{ big: "y".repeat(5000) }, { big: "z" }]', outputBudgetBytes: 2048 })).body;
    expect(stored.code).toBe('MCP_RESULT_STORED');
    const page = await execute(client, { code: `return await session.page(${JSON.stringify(stored.result_ref)}, {})`, outputBudgetBytes: 2048 });
    expect(page.isError).toBe(true);
    expect(page.body.code).toBe('MCP_RESULT_ROW_TOO_LARGE');
    await client.close();
  });
});
