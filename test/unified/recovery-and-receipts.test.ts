// Unified operations against the contract (found by review): recovery contracts that say a provider may have acted, a result
// independent of the order of targets, receipts for refused calls, and steps whose first page was read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { ABANDONED_AFTER_MS } from '../../src/unified/index.ts';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let t: TestEngine;
let github: FakeProvider;
let crm: DemoProvider;
let sdk: { versionId: string; token: string };
let mcp: { url: string; versionId: string; token: string };
const GH_SECRET = 'gh-review-secret';

beforeAll(async () => {
  github = await startFakeProvider(async (req, res, socket) => {
    if (req.url === '/repos/acme/web/issues') return json(res, 201, { number: 7, html_url: 'https://github.example/acme/web/issues/7' });
    if (req.url === '/repos/acme/missing/issues') return json(res, 404, { message: 'Not Found' });
    // The request arrived; the connection drops before any answer: the outcome is unknown.
    if (req.url === '/repos/acme/hang/issues') return void socket.destroy();
    json(res, 404, {});
  });
  crm = await startDemoProvider();
  t = await startTestEngine();
  await t.api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: github.url });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
  await t.api('PUT', '/v1/buckets/default/secrets/github', { value: GH_SECRET });
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey });
  t.canaries.push(GH_SECRET, crm.apiKey);
  const definition = { services: ['github=v1', 'demo-crm=v1'], operations: ['unified=tasks.create', 'unified=people.list', 'demo-crm=contacts/list'] };
  const published = await t.api('POST', '/v1/sdks/publish', { name: 'review', ...definition });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  sdk = published.body;
  const deployed = await t.api('POST', '/v1/mcp/publish', { name: 'review', ...definition });
  expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
  mcp = deployed.body;
  t.canaries.push(sdk.token, mcp.token);
});
afterAll(async () => {
  await t?.stop();
  await github?.stop();
  await crm?.stop();
});

const rest = (operation: string, body: Record<string, unknown>) => t.execute(sdk.versionId, sdk.token, { operation, ...body });

async function mcpClient() {
  const client = new Client({ name: 'review', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}${new URL(mcp.url).pathname}`), { requestInit: { headers: { authorization: `Bearer ${mcp.token}` } } }));
  return client;
}
const execute = async (client: Client, code: string) => ((await client.callTool({ name: 'execute', arguments: { code } })) as any).structuredContent;

/** Leaves the kept key `key` as a call that started long ago and never finished (an Engine stopped mid-call). */
function abandon(key: string) {
  const db = new Database(join(t.dataDir, 'engine.db'));
  try {
    const changed = db
      .prepare(`UPDATE idempotency_keys SET state = 'pending', result = NULL, created_at = ? WHERE key = ?`)
      .run(new Date(Date.now() - ABANDONED_AFTER_MS - 60_000).toISOString(), key).changes;
    expect(changed).toBe(1);
  } finally {
    db.close();
  }
}

describe('Unified review', () => {
  // Found by review: src/unified/operations.ts ENGINE_OUTCOME_UNKNOWN for an abandoned key is built without providerExecution, so REST says provider_execution 'not_started' although "its steps may have reached a provider".
  it('REST: an abandoned idempotency key answers provider_execution unknown', async () => {
    const body = { input: { title: 'Abandoned REST' }, targets: ['crm'], idempotencyKey: 'review-abandoned-rest' };
    expect((await rest('unified.tasks.create', body)).body.ok).toBe(true);
    abandon('review-abandoned-rest');
    const res = await rest('unified.tasks.create', body);
    expect(res.body.error.code).toBe('ENGINE_OUTCOME_UNKNOWN');
    expect(res.body.error.details.provider_execution).toBe('unknown');
  });

  // Found by review: src/mcp/execute.ts + src/unified/operations.ts: the abandoned-key refusal inside execute gets recovery correct_arguments/not_started instead of do_not_replay/unknown.
  it('MCP: an abandoned idempotency key gives a do_not_replay / unknown recovery contract', async () => {
    const client = await mcpClient();
    try {
      const code = 'return await call("unified.tasks.create", { input: { title: "Abandoned MCP" }, targets: ["crm"], idempotencyKey: "review-abandoned-mcp" })';
      expect((await execute(client, code)).result).toMatchObject({ ok: true });
      abandon('review-abandoned-mcp');
      const answer = await execute(client, code);
      expect(answer.code).toBe('ENGINE_OUTCOME_UNKNOWN');
      expect(answer.recovery).toMatchObject({ execute_request: 'do_not_replay', provider_execution: 'unknown' });
    } finally {
      await client.close();
    }
  });

  // Found by review: src/mcp/execute.ts host.call never sets state.unknownOutcome for a Unified call whose step outcome is unknown, so a later throw is MCP_SCRIPT_ERROR, not MCP_EXECUTION_OUTCOME_UNKNOWN as for the same physical call.
  it('MCP: a Unified step with an unknown outcome, then a script error, answers MCP_EXECUTION_OUTCOME_UNKNOWN', async () => {
    const client = await mcpClient();
    try {
      const answer = await execute(
        client,
        'const r = await call("unified.tasks.create", { input: { title: "Lost", owner: "acme", repo: "hang" }, targets: ["github"] }); if (r.data.steps[0].error.code !== "ENGINE_OUTCOME_UNKNOWN") return r; throw new Error("after")',
      );
      expect(answer.code).toBe('MCP_EXECUTION_OUTCOME_UNKNOWN');
      expect(answer.recovery).toMatchObject({ execute_request: 'do_not_replay', provider_execution: 'unknown' });
    } finally {
      await client.close();
    }
  });

  // Found by review: src/unified/operations.ts run(): the reported failed step is the first in `targets` order, so the envelope status and message depend on the order of targets (the idempotency hash treats both orders as one request).
  it('two failing steps give the same envelope status and error whatever the order of targets', async () => {
    await pointService(t, 'demo-crm', 'http://127.0.0.1:9', crm.apiKey); // unreachable: crm step 502, not dispatched
    try {
      const answers = [];
      for (const targets of [['github', 'crm'], ['crm', 'github']]) {
        const res = await rest('unified.tasks.create', { input: { title: 'Both fail', owner: 'acme', repo: 'missing' }, targets });
        expect(res.body.ok).toBe(false);
        answers.push({ http: res.status, status: res.body.status, code: res.body.error.code, failed: res.body.error.message.split(';')[0] });
      }
      expect(answers[1]).toEqual(answers[0]);
    } finally {
      await pointService(t, 'demo-crm', crm.url, crm.apiKey);
    }
  });

  // Found by review: src/unified/operations.ts validate() throws before any Executor call, so a Unified call refused for its target-keyed pagination leaves no activity receipt (a physical call refused the same way does).
  it('a Unified call refused for its target-keyed pagination leaves a receipt, as a physical one does', async () => {
    const receipts = async () => (await t.api('GET', `/v1/versions/${sdk.versionId}/receipts?limit=1000`)).body.receipts as any[];
    const physical = await rest('demo-crm.contacts/list', { input: {}, pagination: { maxPages: 999 } });
    expect(physical.body.error.code).toBe('ENGINE_PAGINATION_INVALID');
    const physicalReceipts = (await receipts()).filter((r) => r.errorCode === 'ENGINE_PAGINATION_INVALID').length;
    expect(physicalReceipts).toBe(1);
    const unified = await rest('unified.people.list', { input: {}, targets: ['crm'], pagination: { crm: { maxPages: 999 } } });
    expect(unified.status).toBe(400);
    expect(unified.body.error.code).toBe('ENGINE_PAGINATION_INVALID');
    expect((await receipts()).filter((r) => r.errorCode === 'ENGINE_PAGINATION_INVALID').length).toBe(physicalReceipts + 1);
  });

  // Found by review: src/execution/index.ts traverse(): a later page that cannot connect throws PROVIDER_UNREACHABLE (not_started) out of the traversal, so a step whose first page reached the provider is reported 'refused', dispatched: false, provider_execution not_started.
  it('a step whose first page reached the provider is reported as dispatched when a later page is unreachable', async () => {
    let pager: FakeProvider | undefined;
    pager = await startFakeProvider(async (req, res) => {
      if (req.url.startsWith('/orgs/acme/members')) {
        res.on('finish', () => void pager!.stop());
        return json(res, 200, [{ id: 1, login: 'member1' }], { link: `<${pager!.url}/orgs/acme/members?per_page=100&page=2>; rel="next"`, connection: 'close' });
      }
      json(res, 404, {});
    });
    await pointService(t, 'github', pager.url, GH_SECRET);
    try {
      const res = await rest('unified.people.list', { input: { org: 'acme' }, targets: ['github'] });
      expect(pager.requests.length).toBe(1); // the first page reached the provider
      expect(res.body.ok).toBe(false);
      expect(res.body.data.steps[0]).toMatchObject({ target: 'github', dispatched: true });
      expect(res.body.error.details.provider_execution).toBe('unknown');
    } finally {
      await pointService(t, 'github', github.url, GH_SECRET);
    }
  });

  // Found by review: a step that starts after the caller went away (its signal fired, or its REST
  // connection closed, between steps) was dispatched with the fired signal and reported as reaching
  // the provider (ENGINE_OUTCOME_UNKNOWN, dispatched), so an idempotency key kept a call nothing ran.
  it('a step that would start after the caller went away is skipped, not reported as dispatched', async () => {
    const gone = new AbortController();
    gone.abort();
    const scope = {
      surface: 'rest' as const,
      versionId: sdk.versionId,
      tokenId: null,
      services: new Map([['github', 'v1'], ['demo-crm', 'v1']]),
      admits: (id: string) => ['unified.tasks.create', 'github.issues/create', 'demo-crm.tasks/create'].includes(id),
      resultCapBytes: 1 << 20,
      signal: gone.signal,
    };
    const before = [github.requests.length, crm.requests.length];
    const result = await t.engine.deps.unified.call(scope, 'unified.tasks.create', { input: { title: 'Late', owner: 'acme', repo: 'web' }, targets: ['github', 'crm'] });
    expect([github.requests.length, crm.requests.length]).toEqual(before);
    expect(result.dispatched).toBe(false);
    for (const step of result.envelope.error!.details!.steps as any[]) {
      expect(step).toMatchObject({ status: 'skipped', dispatched: false, error: { code: 'UNIFIED_STEP_SKIPPED' } });
    }
    expect(result.envelope.error!.details!.provider_execution).toBe('not_started');
  });
});
