// Read-only tokens (issue 31 §3): an SDK or MCP token created with --read-only calls only operations
// whose hint is read-only; any other is refused before anything is sent — on REST, on gRPC and
// mid-script in execute (with a recovery contract saying why) — and leaves a receipt, while a GET
// passes. search_docs shows each operation's hints, and token lists show which tokens read only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import type { FakeProvider } from '../fixtures/fake-provider.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';
import { ITEMS_OPERATIONS, startItemsProvider } from '../fixtures/items-provider.ts';
import { publishApps, withMcpClient, type ProviderApps } from '../fixtures/providers/app.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';

let t: TestEngine;
let provider: FakeProvider;
let apps: ProviderApps;
let grpc: RawEngineClient;
let user: CliUser;
/** Read-only tokens of the SDK app and of the MCP server. */
let sdkReadOnly: { id: string; token: string };
let mcpReadOnly: { id: string; token: string };

beforeAll(async () => {
  t = await startTestEngine({ SVC_GRPC_PORT: '0' });
  provider = await startItemsProvider(t);
  apps = await publishApps(t, 'items', { services: ['items=v1'], operations: ITEMS_OPERATIONS.map((op) => `items=${op}`) });
  const sdk = await t.api('POST', '/v1/sdks/items/tokens', { expiresAt: null, readOnly: true });
  expect(sdk.status, JSON.stringify(sdk.body)).toBe(201);
  expect(sdk.body.readOnly).toBe(true);
  const mcp = await t.api('POST', '/v1/mcp/items-agents/tokens', { allow: ['*'], expiresAt: null, readOnly: true });
  expect(mcp.status, JSON.stringify(mcp.body)).toBe(201);
  expect(mcp.body.readOnly).toBe(true);
  sdkReadOnly = sdk.body;
  mcpReadOnly = mcp.body;
  t.canaries.push(sdk.body.token, mcp.body.token);
  grpc = new RawEngineClient(t.engine.grpcUrl);
  user = cliUser(t.url);
});
afterAll(async () => {
  await t?.stop();
  await provider?.stop();
  user?.cleanup();
});

const receipts = async (versionId: string) => (await t.api('GET', `/v1/versions/${versionId}/receipts?limit=1000`)).body.receipts as any[];
const run = async (client: Client, code: string) => (await client.callTool({ name: 'execute', arguments: { code } })) as any;
const mcpAs = (token: string) => ({ url: apps.mcp.url, token });

describe('search_docs shows safety hints', () => {
  it('derives them from the method in ranked and exact answers', async () => {
    await withMcpClient(apps.mcp, async (client) => {
      const hints = async (operationId: string) => {
        const exact = ((await client.callTool({ name: 'search_docs', arguments: { operationId } })) as any).structuredContent;
        return { read_only: exact.read_only, destructive: exact.destructive };
      };
      expect(await hints('items.getItem')).toEqual({ read_only: true, destructive: false });
      expect(await hints('items.createItem')).toEqual({ read_only: false, destructive: false });
      expect(await hints('items.replaceItem')).toEqual({ read_only: false, destructive: false });
      expect(await hints('items.deleteItem')).toEqual({ read_only: false, destructive: true });
      const ranked = ((await client.callTool({ name: 'search_docs', arguments: { query: 'delete an item', limit: 5 } })) as any).structuredContent;
      const deleting = ranked.results.find((r: any) => r.operationId === 'items.deleteItem');
      expect(deleting).toMatchObject({ read_only: false, destructive: true, changes_data: true });
    });
  });

  it('marks operations that are not read-only as not callable for a read-only token', async () => {
    await withMcpClient(mcpAs(mcpReadOnly.token), async (client) => {
      const browse = ((await client.callTool({ name: 'search_docs', arguments: {} })) as any).structuredContent;
      const callable = Object.fromEntries(browse.operations.map((o: any) => [o.operationId, o.callable]));
      expect(callable).toEqual({ 'items.createItem': false, 'items.deleteItem': false, 'items.getItem': true, 'items.replaceItem': false });
    });
  });
});

describe('a read-only token is refused anything that is not read-only, before anything is sent', () => {
  it('on REST: a POST is 403 naming the reason, with a receipt; a GET passes', async () => {
    const before = provider.requests.length;
    const refused = await t.execute(apps.sdk.versionId, sdkReadOnly.token, { operation: 'items.createItem', input: { body: { name: 'x' } } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'ENGINE_FORBIDDEN_OPERATION', details: { field: 'operation', reason: 'read_only_token', provider_execution: 'not_started' } });
    expect(refused.body.error.message).toContain('read-only');
    expect(provider.requests.length).toBe(before);
    const read = await t.execute(apps.sdk.versionId, sdkReadOnly.token, { operation: 'items.getItem', input: { id: 'a' } });
    expect(read.body).toMatchObject({ ok: true, data: { method: 'GET', url: '/items/a' } });
    expect(provider.requests.length).toBe(before + 1);
    expect((await receipts(apps.sdk.versionId)).some((r) => r.operation === 'items.createItem' && r.errorCode === 'ENGINE_FORBIDDEN_OPERATION' && r.tokenId === sdkReadOnly.id)).toBe(true);
  });

  it('on gRPC: DELETE and PUT are refused the same way; a GET passes', async () => {
    const before = provider.requests.length;
    for (const operation of ['items.deleteItem', 'items.replaceItem']) {
      const call = await grpc.execute(sdkReadOnly.token, { versionId: apps.sdk.versionId, operation, inputJson: JSON.stringify({ id: 'a', body: {} }) });
      expect(call.envelope).toMatchObject({ ok: false, status: 403, error: { code: 'ENGINE_FORBIDDEN_OPERATION', details: { reason: 'read_only_token' } } });
    }
    expect(provider.requests.length).toBe(before);
    const read = await grpc.execute(sdkReadOnly.token, { versionId: apps.sdk.versionId, operation: 'items.getItem', inputJson: JSON.stringify({ id: 'b' }) });
    expect(read.envelope).toMatchObject({ ok: true, data: { method: 'GET' } });
    expect(provider.requests.length).toBe(before + 1);
  });

  it('mid-script in execute: the POST after a GET stops the run with a contract that says why', async () => {
    const before = provider.requests.length;
    await withMcpClient(mcpAs(mcpReadOnly.token), async (client) => {
      const answer = await run(client, `const item = await call('items.getItem', { id: 'c' });
        await call('items.createItem', { body: { name: 'copy' } });
        return item;`);
      expect(answer.isError).toBe(true);
      expect(answer.structuredContent).toMatchObject({
        code: 'ENGINE_FORBIDDEN_OPERATION',
        details: { field: 'operation', reason: 'read_only_token' },
        recovery: { recovery_action: 'request_token_without_read_only', automatic_replay: false },
      });
      expect(answer.structuredContent.guidance).toContain('--read-only');
      // The GET before it was sent: the outcome of the run is not "nothing happened".
      expect(answer.structuredContent.recovery.execute_request).toBe('do_not_replay');

      const caught = await run(client, `try { await call('items.deleteItem', { id: 'c' }); return 'sent' } catch (e) { return [e.code, e.details.reason] }`);
      expect(caught.structuredContent.result).toEqual(['ENGINE_FORBIDDEN_OPERATION', 'read_only_token']);
    });
    expect(provider.requests.map((r) => r.method).slice(before)).toEqual(['GET']);
    expect((await receipts((apps.mcp as any).versionId)).filter((r) => r.errorCode === 'ENGINE_FORBIDDEN_OPERATION' && r.tokenId === mcpReadOnly.id).map((r) => r.operation).sort()).toEqual([
      'items.createItem',
      'items.deleteItem',
    ]);
  });

  it('an unrestricted token of the same version still calls every operation', async () => {
    const before = provider.requests.length;
    const created = await t.execute(apps.sdk.versionId, apps.sdk.token, { operation: 'items.createItem', input: { body: { name: 'x' } } });
    expect(created.body).toMatchObject({ ok: true, data: { method: 'POST' } });
    expect(provider.requests.length).toBe(before + 1);
  });
});

describe('token lists and the CLI', () => {
  it('lists which tokens read only, over REST and in svc-cli', async () => {
    const sdkTokens = (await t.api('GET', '/v1/sdks/items/tokens')).body.tokens as any[];
    expect(sdkTokens.find((x) => x.id === sdkReadOnly.id)?.readOnly).toBe(true);
    expect(sdkTokens.filter((x) => x.id !== sdkReadOnly.id).every((x) => x.readOnly === false)).toBe(true);
    const env = { SVC_CLI_TOKEN: t.cliToken };
    const list = await user.cli(['mcp', 'token', 'list', 'items-agents'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${mcpReadOnly.id}\\s+\\*\\s+read-only`));
  });

  it('svc-cli sdk token create --read-only issues a read-only token', async () => {
    const created = await user.cli(['sdk', 'token', 'create', 'items', '--expires', '1d', '--read-only', '--json'], { env: { SVC_CLI_TOKEN: t.cliToken } });
    expect(created.code, created.stderr).toBe(0);
    const body = JSON.parse(created.stdout);
    t.canaries.push(body.token);
    expect(body.readOnly).toBe(true);
    const refused = await t.execute(apps.sdk.versionId, body.token, { operation: 'items.deleteItem', input: { id: 'z' } });
    expect(refused.body.error.details.reason).toBe('read_only_token');
  });
});
