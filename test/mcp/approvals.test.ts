// Approvals (issue 31 §3): operations an MCP server's definition marks `requireApproval` stop
// `execute` with a structured "approval required" result naming the call; a person approves with
// `svc-cli mcp approve <id>` (or through the MCP client's elicitation) and the agent's re-run of
// the same call with the same token passes exactly once. Nothing reaches the provider before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import type { FakeProvider } from '../fixtures/fake-provider.ts';
import { ITEMS_OPERATIONS, startItemsProvider } from '../fixtures/items-provider.ts';
import { withMcpClient } from '../fixtures/providers/app.ts';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';
import { initializeMessage, PROTOCOL, rawMcp } from '../fixtures/mcp.ts';

let t: TestEngine;
let provider: FakeProvider;
let user: CliUser;
let server: { url: string; token: string; versionId: string };
const definition = { name: 'gated', services: ['items=v1'], operations: ITEMS_OPERATIONS.map((op) => `items=${op}`), requireApproval: ['destructive', 'items.createItem'] };

beforeAll(async () => {
  t = await startTestEngine();
  provider = await startItemsProvider(t);
  const published = await t.api('POST', '/v1/mcp/publish', definition);
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  server = published.body;
  t.canaries.push(server.token);
  user = cliUser(t.url);
});
afterAll(async () => {
  await t?.stop();
  await provider?.stop();
  user?.cleanup();
});

const run = async (client: Client, code: string) => (await client.callTool({ name: 'execute', arguments: { code } })) as any;
const sent = (method: string) => provider.requests.filter((r) => r.method === method).length;
const approve = (id: string) => user.cli(['mcp', 'approve', id], { env: { SVC_CLI_TOKEN: t.cliToken } });

describe('a definition marks operations requireApproval', () => {
  it('records the operations it names, `destructive` expanded, and plans a change of them', async () => {
    const version = await t.engine.deps.mcp.version(server.versionId);
    expect(version?.requireApproval).toEqual(['items.createItem', 'items.deleteItem']);
    const plan = await t.api('POST', '/v1/mcp/plan', { ...definition, requireApproval: ['destructive'] });
    expect(plan.body.changes).toEqual([{ action: '-', kind: 'approval', id: 'items.createItem' }]);
  });

  it('takes --require-approval in svc-cli mcp init, and plan and apply carry it', async () => {
    const env = { SVC_CLI_TOKEN: t.cliToken };
    const init = await user.cli(['mcp', 'init', 'gated-cli', '--service', 'items=v1', '--operation', 'items=*', '--require-approval', 'destructive'], { env });
    expect(init.code, init.stderr).toBe(0);
    const plan = await user.cli(['mcp', 'plan'], { env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('approval required for items.deleteItem');
    const applied = await user.cli(['mcp', 'apply', '--json'], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const { versionId, token } = JSON.parse(applied.stdout);
    t.canaries.push(token);
    expect((await t.engine.deps.mcp.version(versionId))?.requireApproval).toEqual(['items.deleteItem']);
    const sdk = await user.cli(['sdk', 'init', 'nope', '--service', 'items=v1', '--operation', 'items=*', '--require-approval', 'destructive'], { env });
    expect(sdk.code).toBe(2);
    expect(oneErrorLine(sdk.stderr)).toContain('--require-approval applies to MCP servers only');
  });

  it('refuses an entry that matches no selected operation, naming it', async () => {
    const refused = await t.api('POST', '/v1/mcp/plan', { ...definition, requireApproval: ['items.getItem', 'items.nothing'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.field).toBe('requireApproval[1]');
  });
});

describe('execute stops for approval, and the approved re-run passes once', () => {
  it('stops with the approval, the call and its params summarised; nothing is sent', async () => {
    const deletes = sent('DELETE');
    await withMcpClient(server, async (client) => {
      const stop = await run(client, `const item = await call('items.getItem', { id: 'a1' });
        await call('items.deleteItem', { id: 'a1' });
        return 'deleted'`);
      expect(stop.isError).toBe(true);
      const answer = stop.structuredContent;
      expect(answer).toMatchObject({
        code: 'MCP_APPROVAL_REQUIRED',
        approval: { operation: 'items.deleteItem', params: { id: 'a1' }, approve: expect.stringMatching(/^svc-cli mcp approve apr_/) },
        recovery: { recovery_action: 'await_approval', automatic_replay: false },
      });
      expect(answer.approval.id).toMatch(/^apr_[0-9A-HJKMNP-TV-Z]{26}$/);
      // The GET before it was sent: re-running the whole script is not "unchanged".
      expect(answer.recovery.execute_request).toBe('do_not_replay');
      expect(sent('DELETE')).toBe(deletes);

      // Asked again before anyone approved: the same approval, still waiting.
      const again = (await run(client, `return await call('items.deleteItem', { id: 'a1' })`)).structuredContent;
      expect(again.approval.id).toBe(answer.approval.id);
      expect(again.recovery).toMatchObject({ execute_request: 'unchanged', provider_execution: 'not_started' });

      // A person reads what waits before approving it.
      const waiting = await user.cli(['mcp', 'approvals', '--json'], { env: { SVC_CLI_TOKEN: t.cliToken } });
      expect(waiting.code, waiting.stderr).toBe(0);
      expect(JSON.parse(waiting.stdout).approvals).toContainEqual(
        expect.objectContaining({ id: answer.approval.id, server: 'gated', operation: 'items.deleteItem', params: { id: 'a1' }, approvedAt: null }),
      );
      const table = await user.cli(['mcp', 'approvals'], { env: { SVC_CLI_TOKEN: t.cliToken } });
      expect(table.stdout).toMatch(new RegExp(`${answer.approval.id}\\s+gated\\s+items\\.deleteItem\\s+\\{"id":"a1"\\}`));

      const approved = await approve(answer.approval.id);
      expect(approved.code, approved.stderr).toBe(0);
      const after = (await t.api('GET', '/v1/mcp/approvals')).body.approvals as { id: string }[];
      expect(after.map((a) => a.id)).not.toContain(answer.approval.id);
      expect(approved.stdout).toContain(`Approved ${answer.approval.id}: items.deleteItem on gated`);

      const passed = (await run(client, `return await call('items.deleteItem', { id: 'a1' })`)).structuredContent;
      expect(passed.result).toMatchObject({ ok: true, data: { method: 'DELETE', url: '/items/a1' } });
      expect(sent('DELETE')).toBe(deletes + 1);

      // Single use: the next run asks for a new approval.
      const next = (await run(client, `return await call('items.deleteItem', { id: 'a1' })`)).structuredContent;
      expect(next.code).toBe('MCP_APPROVAL_REQUIRED');
      expect(next.approval.id).not.toBe(answer.approval.id);
      expect(sent('DELETE')).toBe(deletes + 1);
    });
  });

  it('gives the approval back when the approved call is refused before anything is sent', async () => {
    await withMcpClient(server, async (client) => {
      const stop = (await run(client, `return await call('items.deleteItem', { id: 'b2' })`)).structuredContent;
      expect(stop.code).toBe('MCP_APPROVAL_REQUIRED');
      expect((await approve(stop.approval.id)).code).toBe(0);
      const deletes = sent('DELETE');
      // Disabled between the approval and the re-run: the call is refused before dispatch.
      expect((await t.api('DELETE', '/v1/workspace/services/items')).status).toBeLessThan(300);
      try {
        const refused = (await run(client, `return await call('items.deleteItem', { id: 'b2' })`)).structuredContent;
        expect(JSON.stringify(refused)).toContain('ENGINE_CONFLICT');
        expect(sent('DELETE')).toBe(deletes);
      } finally {
        expect((await t.api('PUT', '/v1/workspace/services/items', { version: 'v1', baseUrl: provider.url })).status).toBe(200);
      }
      // The same approval lets the re-run through, once.
      const passed = (await run(client, `return await call('items.deleteItem', { id: 'b2' })`)).structuredContent;
      expect(passed.result).toMatchObject({ ok: true, data: { method: 'DELETE', url: '/items/b2' } });
      expect(sent('DELETE')).toBe(deletes + 1);
      expect((await run(client, `return await call('items.deleteItem', { id: 'b2' })`)).structuredContent.code).toBe('MCP_APPROVAL_REQUIRED');
    });
  });

  it('refuses a gated call its input would stop before asking anyone, so no approval is spent on it', async () => {
    const before = ((await t.api('GET', '/v1/mcp/approvals')).body.approvals as unknown[]).length;
    await withMcpClient(server, async (client) => {
      const refused = (await run(client, `return await call('items.createItem', { body: { name: 42 } })`)).structuredContent;
      expect(refused).toMatchObject({ code: 'ENGINE_INVALID_INPUT' });
      expect(refused.approval).toBeUndefined();
    });
    expect(((await t.api('GET', '/v1/mcp/approvals')).body.approvals as unknown[]).length).toBe(before);
  });

  it('approves only the call it names: other params, or another token, ask again', async () => {
    const posts = sent('POST');
    await withMcpClient(server, async (client) => {
      const stop = (await run(client, `return await call('items.createItem', { body: { name: 'n', password: 'hunter2-canary' } })`)).structuredContent;
      expect(stop.approval.params).toEqual({ body: { name: 'n', password: '[redacted]' } });
      expect(JSON.stringify(stop)).not.toContain('hunter2-canary');
      expect((await approve(stop.approval.id)).code).toBe(0);
      const other = (await run(client, `return await call('items.createItem', { body: { name: 'other' } })`)).structuredContent;
      expect(other.code).toBe('MCP_APPROVAL_REQUIRED');
      const narrowed = await t.api('POST', '/v1/mcp/gated/tokens', { allow: ['*'], expiresAt: null });
      t.canaries.push(narrowed.body.token);
      await withMcpClient({ url: server.url, token: narrowed.body.token }, async (second) => {
        const elsewhere = (await run(second, `return await call('items.createItem', { body: { name: 'n', password: 'hunter2-canary' } })`)).structuredContent;
        expect(elsewhere.code).toBe('MCP_APPROVAL_REQUIRED');
      });
      const passed = (await run(client, `return await call('items.createItem', { body: { name: 'n', password: 'hunter2-canary' } })`)).structuredContent;
      expect(passed.result).toMatchObject({ ok: true, data: { method: 'POST' } });
    });
    expect(sent('POST')).toBe(posts + 1);
  });

  it('leaves a receipt of each stop', async () => {
    const receipts = (await t.api('GET', `/v1/versions/${server.versionId}/receipts?limit=1000`)).body.receipts as any[];
    expect(receipts.filter((r) => r.errorCode === 'ENGINE_APPROVAL_REQUIRED').length).toBeGreaterThanOrEqual(4);
  });

  it('makes no further call once a run stopped, even when the script catches the stop', async () => {
    const gets = sent('GET');
    await withMcpClient(server, async (client) => {
      const stop = await run(client, `try { await call('items.deleteItem', { id: 'b1' }) } catch (e) {}
        return await call('items.getItem', { id: 'b1' })`);
      expect(stop.structuredContent.code).toBe('MCP_APPROVAL_REQUIRED');
    });
    expect(sent('GET')).toBe(gets);
  });
});

describe('approving', () => {
  it('an unknown approval ID is 404 naming approval_id; a malformed one 400', async () => {
    const unknown = await t.api('POST', '/v1/mcp/approvals/apr_01JD8Z6Q0R6V7S1K2M3N4P5Q6R/approve');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details.field).toBe('approval_id');
    const malformed = await t.api('POST', '/v1/mcp/approvals/nope/approve');
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body.error)).toContain('approval_id');
    const cli = await approve('apr_01JD8Z6Q0R6V7S1K2M3N4P5Q6R');
    expect(cli.code).toBe(1);
    expect(oneErrorLine(cli.stderr)).toContain('no approval apr_01JD8Z6Q0R6V7S1K2M3N4P5Q6R');
  });

  it('an expired approval is 409 naming approval_id, and lets nothing through', async () => {
    const at = Date.now() - 20 * 60_000;
    const row = {
      id: 'apr_01JD8Z6Q0R6V7S1K2M3N4P5Q6S',
      versionId: server.versionId,
      tokenId: 'tok_x',
      operation: 'items.deleteItem',
      paramsHash: 'h',
      summary: {},
      createdAt: new Date(at).toISOString(),
      expiresAt: new Date(at + 15 * 60_000).toISOString(),
      approvedAt: null,
      approvedBy: null,
      usedAt: null,
    };
    await t.engine.deps.store.approvals.insert(row);
    const expired = await t.api('POST', `/v1/mcp/approvals/${row.id}/approve`);
    expect(expired.status).toBe(409);
    expect(expired.body.error).toMatchObject({ code: 'ENGINE_CONFLICT', details: { field: 'approval_id' } });
    expect(expired.body.error.message).toContain('expired');
  });
});

describe('elicitation', () => {
  /** An MCP client that declares elicitation and answers every question with `action`. */
  async function withElicitingClient<T>(action: 'accept' | 'decline', fn: (client: Client, asked: string[]) => Promise<T>): Promise<T> {
    const client = new Client({ name: 'eliciting-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return action === 'accept' ? { action, content: {} } : { action };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
    try {
      return await fn(client, asked);
    } finally {
      await client.close();
    }
  }

  it('asks the client’s user; accepted, the call proceeds in the same run', async () => {
    const deletes = sent('DELETE');
    await withElicitingClient('accept', async (client, asked) => {
      const answer = (await run(client, `return await call('items.deleteItem', { id: 'e1' })`)).structuredContent;
      expect(answer.result).toMatchObject({ ok: true, data: { method: 'DELETE', url: '/items/e1' } });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('items.deleteItem');
    });
    expect(sent('DELETE')).toBe(deletes + 1);
  });

  it('asks on a stream the client opens just after its call (within the wait), not only on one open before', async () => {
    const deletes = sent('DELETE');
    const mcp = rawMcp(server.url, server.token);
    const init = await mcp.post({ ...initializeMessage(), params: { ...initializeMessage().params, capabilities: { elicitation: {} } } });
    const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL };
    expect((await mcp.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    const call = mcp.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'execute', arguments: { code: `return await call('items.deleteItem', { id: 'e3' })` } } }, headers);
    // The call waits for a stream once its approval is recorded; the stream opens only then.
    const waiting = async () => ((await t.api('GET', '/v1/mcp/approvals')).body.approvals as { params: { id?: string } }[]).some((a) => a.params.id === 'e3');
    for (let tries = 0; !(await waiting()); tries++) {
      if (tries > 100) throw new Error('the gated call never asked');
      await new Promise((r) => setTimeout(r, 10));
    }
    const stream = new AbortController();
    const res = await fetch(server.url, { headers: { authorization: `Bearer ${server.token}`, accept: 'text/event-stream', ...headers }, signal: stream.signal });
    const reader = res.body!.getReader();
    let seen = '';
    const read = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        seen += Buffer.from(value).toString('utf8');
        const question = /data: (\{.*"elicitation\/create".*\})/.exec(seen);
        if (question) return JSON.parse(question[1]!) as { id: number };
      }
    })();
    const timeout = new Promise<undefined>((r) => setTimeout(() => r(undefined), 3_000));
    const question = await Promise.race([read, timeout]);
    try {
      expect(question, `no elicitation/create on the stream opened after the call: ${seen}`).toBeDefined();
      expect((await mcp.post({ jsonrpc: '2.0', id: question!.id, result: { action: 'decline' } }, headers)).status).toBe(202);
      expect((await call).body.result.structuredContent).toMatchObject({ code: 'ENGINE_APPROVAL_DECLINED' });
    } finally {
      stream.abort();
      await call.catch(() => undefined);
    }
    expect(sent('DELETE')).toBe(deletes);
  });

  it('declined, the call is refused and nothing is sent', async () => {
    const deletes = sent('DELETE');
    await withElicitingClient('decline', async (client) => {
      const answer = (await run(client, `return await call('items.deleteItem', { id: 'e2' })`)).structuredContent;
      expect(answer).toMatchObject({ code: 'ENGINE_APPROVAL_DECLINED', details: { reason: 'approval_declined', field: 'operation' } });
    });
    expect(sent('DELETE')).toBe(deletes);
  });
});
