// Executes share the sandbox fairly between tokens (src/sandbox/fair-queue.ts, src/mcp/execute.ts):
// a token runs at most SVC_EXECUTE_CONCURRENCY_PER_TOKEN executes at once, its next ones wait their
// turn and past SVC_EXECUTE_QUEUE_PER_TOKEN are refused with MCP_BUSY (nothing ran, retry later),
// while another token's execute runs at once. Scripts are compiled behind that admission and a
// nesting pre-check, and one that compiles too long is stopped.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';

type ToolAnswer = { isError?: boolean; structuredContent: any };

let t: TestEngine;
let provider: FakeProvider;
let a: Client;
let b: Client;

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'fair-share', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

const execute = (client: Client, code: string) => client.callTool({ name: 'execute', arguments: { code } }, undefined, { timeout: 60_000 }) as Promise<ToolAnswer>;

async function until(check: () => boolean, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Provider calls for a contact whose ID starts with `con_held` wait for release(): an execute stays running as long as the test needs, however loaded the machine. */
let release: () => void = () => {};
const released = new Promise<void>((resolve) => (release = resolve));

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => {
    if (req.url.includes('/con_held')) await released;
    json(res, 200, { id: 'con_1' });
  });
  t = await startTestEngine({ SVC_EXECUTE_BUDGET_MS: '20000', SVC_EXECUTE_CONCURRENCY_PER_TOKEN: '2', SVC_EXECUTE_QUEUE_PER_TOKEN: '1' });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
  // The held calls must reach the provider: without a secret they would fail at once, holding nothing.
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: 'fair-share-secret' });
  const server = (await t.api('POST', '/v1/mcp/publish', { name: 'fair', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
  const other = (await t.api('POST', `/v1/mcp/${server.versionId}/tokens`, { allow: ['demo-crm.contacts/get'] })).body;
  t.canaries.push(server.token, other.token, 'fair-share-secret');
  [a, b] = await Promise.all([connect(server.url, server.token), connect(server.url, other.token)]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await t.stop();
  await provider.stop();
});

describe('fair sharing of executes between tokens', () => {
  it("runs two of a token's executes at once, queues its third, refuses its fourth with MCP_BUSY, and runs another token's at once", async () => {
    const queue = t.engine.deps.executeQueue;
    const finished: string[] = [];
    const run = (client: Client, label: string, code: string) =>
      execute(client, code).then((answer) => {
        finished.push(label);
        return answer;
      });
    // Busy until released: each waits on a provider call the fake provider holds (a call that failed instead answers with its envelope).
    const held = (label: string) => `const r = await call('demo-crm.contacts/get', { contact_id: 'con_held${label}' }); return r.ok ? "${label}" : r`;
    const busy = [run(a, 'busy1', held('busy1')), run(a, 'busy2', held('busy2'))];
    await until(() => queue.stats.running === 2);
    const third = run(a, 'third', 'return "third"');
    await until(() => queue.stats.waiting === 1);

    const fourth = await execute(a, 'return "fourth"');
    expect(fourth.isError).toBe(true);
    expect(fourth.structuredContent).toEqual({
      code: 'MCP_BUSY',
      message: expect.stringContaining('nothing ran'),
      retryable: true,
      retry_after_ms: 1000,
      recovery: { recovery_action: 'retry_after_delay', execute_request: 'unchanged', provider_execution: 'not_started', automatic_replay: true },
    });

    // Another token is not behind the first one's queue.
    const other = await run(b, 'other', 'return 1');
    expect(other.structuredContent).toEqual({ result: 1 });
    expect(finished).toEqual(['other']);

    release();
    expect((await Promise.all(busy)).map((r) => r.structuredContent)).toEqual([{ result: 'busy1' }, { result: 'busy2' }]);
    expect((await third).structuredContent).toEqual({ result: 'third' });
    // The third ran only once one of its token's two had finished.
    expect(finished.indexOf('third')).toBeGreaterThan(Math.min(finished.indexOf('busy1'), finished.indexOf('busy2')));
    expect(queue.stats).toEqual({ running: 0, waiting: 0, tenantsWaiting: 0 });
  }, 60_000);

  it('refuses a script nested past the bounds before compiling it, saying where', async () => {
    const deep = `const a = 1;\nreturn ${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const answer = await execute(a, deep);
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({
      code: 'MCP_SCRIPT_TOO_COMPLEX',
      message: expect.stringMatching(/nests more than 64 levels deep.*\(line 2, column \d+\)$/),
      line: 2,
      recovery: { execute_request: 'correct_arguments', provider_execution: 'not_started', automatic_replay: false },
    });
    const arrows = await execute(a, `return ${'x => '.repeat(40)}1`);
    expect(arrows.structuredContent).toMatchObject({ code: 'MCP_SCRIPT_TOO_COMPLEX', message: expect.stringContaining('arrow functions nest more than 16 deep') });
    expect((await execute(a, 'return [[[1]]]')).structuredContent).toEqual({ result: [[[1]]] });
  });

  it('stops a compilation that runs past its time, and the next script compiles', async () => {
    // Within the nesting bounds, yet esbuild's error reporting takes its time over 16,500 duplicate declarations.
    const answer = await execute(a, 'let x;'.repeat(16_500));
    expect(answer.structuredContent).toMatchObject({ code: 'MCP_SCRIPT_TOO_COMPLEX', message: expect.stringContaining('longer than 3 s to compile') });
    expect((await execute(b, 'const n: number = 2; return n')).structuredContent).toEqual({ result: 2 });
  }, 60_000);
});
