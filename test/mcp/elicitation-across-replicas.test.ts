// Elicitation when the MCP client's GET stream, its tool call and its answer reach different
// replicas (src/mcp/elicitation.ts): two real Engines (test/fixtures/replicas.ts) share PostgreSQL
// and a private redis-server (test/fixtures/redis-server.ts), which the last test stops. The
// official SDK client declares elicitation; its fetch sends the GET stream and initialize to A,
// tools/call to B, and its answer to the replica a test names, and records where each went.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FakeProvider } from '../fixtures/fake-provider.ts';
import { ITEMS_OPERATIONS, startItemsProvider } from '../fixtures/items-provider.ts';
import { initializeMessage, PROTOCOL, rawMcp } from '../fixtures/mcp.ts';
import { cutSubscribers, startRedisServer, type RedisServer } from '../fixtures/redis-server.ts';
import { startReplicas, type Replica, type ReplicaSet } from '../fixtures/replicas.ts';

const PASSWORD = 'elicit-relay-password-canary';

let redis: RedisServer;
let set: ReplicaSet;
/** A holds the client's GET stream; B runs its tool calls. */
let a: Replica, b: Replica;
let provider: FakeProvider;
/** The gated MCP server's version and token. */
let versionId: string, token: string;
/** Every message the replicas relayed on the elicitation channel. */
const relayed: string[] = [];
let listener: Redis;

beforeAll(async () => {
  redis = await startRedisServer();
  set = await startReplicas({ replicas: 2, env: { REDIS_URL: redis.url, SVC_EXECUTE_BUDGET_MS: '10000' } });
  [a, b] = set.replicas as [Replica, Replica];
  provider = await startItemsProvider({ api: (method, path, body) => set.api(a, method, path, body) });
  const published = await set.api(b, 'POST', '/v1/mcp/publish', { name: 'gated', services: ['items=v1'], operations: ITEMS_OPERATIONS.map((op) => `items=${op}`), requireApproval: ['destructive', 'items.createItem'] });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  ({ versionId, token } = published.body);
  set.canaries.push(token, PASSWORD);
  listener = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  listener.on('error', () => undefined);
  await listener.subscribe(`${set.redisKeyPrefix}chan:mcp:elicit`);
  listener.on('message', (_channel: string, message: string) => relayed.push(message));
}, 120_000);
afterAll(async () => {
  listener?.disconnect();
  await set?.stop();
  await provider?.stop();
  await redis?.stop();
}, 60_000);

type Where = 'A' | 'B';
interface Routed {
  client: Client;
  sessionId: () => string | undefined;
  /** Where each request went: `GET`, `DELETE`, or the POSTed message's method (`answer` for a response). */
  routes: { what: string; to: Where }[];
  asked: string[];
}

/** An SDK client declaring elicitation, answering `action` (after `beforeAnswer`); its answers POSTed to `answerTo`. */
async function routedClient(action: 'accept' | 'decline', answerTo: Where, beforeAnswer?: () => Promise<void>): Promise<Routed> {
  const routes: Routed['routes'] = [];
  const asked: string[] = [];
  const replica = { A: a, B: b };
  const fetchRouted = async (input: string | URL | Request, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const message = method === 'POST' && typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined;
    const what = message ? (message.method ?? 'answer') : method;
    const to: Where = what === 'tools/call' ? 'B' : what === 'answer' ? answerTo : 'A';
    routes.push({ what, to });
    const url = new URL(String(input instanceof Request ? input.url : input));
    return fetch(`${replica[to].url}${url.pathname}`, init);
  };
  const client = new Client({ name: 'eliciting-replicas-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(String(request.params.message));
    await beforeAnswer?.();
    return action === 'accept' ? { action, content: {} } : { action };
  });
  const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp/${versionId}`), { fetch: fetchRouted, requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { client, sessionId: () => transport.sessionId, routes, asked };
}

const run = async (client: Client, code: string) => ((await client.callTool({ name: 'execute', arguments: { code } })) as any).structuredContent;
const sent = (method: string) => provider.requests.filter((r) => r.method === method).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(25);
  }
}

describe('elicitation across replicas: stream on A, tools/call on B', () => {
  it('asks on A for B’s call; the answer POSTed to B reaches A’s server, and the accepted call runs on B', async () => {
    const posts = sent('POST');
    const from = relayed.length;
    const { client, sessionId, routes, asked } = await routedClient('accept', 'B');
    try {
      const answer = await run(client, `return await call('items.createItem', { body: { name: 'n1', password: ${JSON.stringify(PASSWORD)} } })`);
      expect(answer.result, JSON.stringify(answer)).toMatchObject({ ok: true, data: { method: 'POST', url: '/items' } });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('items.createItem');
      expect(asked[0]).not.toContain(PASSWORD);
      // The stream was A's, the call and the answer B's: nothing here went by one replica alone.
      expect(routes).toContainEqual({ what: 'GET', to: 'A' });
      expect(routes).toContainEqual({ what: 'tools/call', to: 'B' });
      expect(routes).toContainEqual({ what: 'answer', to: 'B' });
      expect(routes.filter((r) => r.to === 'B').map((r) => r.what).sort()).toEqual(['answer', 'tools/call']);
      // The question went B → A, the answer B → A, the result A → B; none carried a secret, the token or the session ID.
      const mine = relayed.slice(from).map((m) => JSON.parse(m) as { k: string });
      expect(mine.map((m) => m.k)).toEqual(expect.arrayContaining(['ask', 'answer', 'result']));
      for (const m of relayed.slice(from)) for (const secret of [PASSWORD, token, sessionId()!]) expect(m).not.toContain(secret);
    } finally {
      await client.close();
    }
    expect(sent('POST')).toBe(posts + 1);
    // The approval was used by that call: none waits.
    expect(((await set.api(a, 'GET', '/v1/mcp/approvals')).body.approvals as { operation: string }[]).filter((x) => x.operation === 'items.createItem')).toEqual([]);
  }, 60_000);

  it('honours a decline POSTed to A: the call on B is refused and nothing is sent', async () => {
    const deletes = sent('DELETE');
    const { client, routes, asked } = await routedClient('decline', 'A');
    try {
      const answer = await run(client, `return await call('items.deleteItem', { id: 'd1' })`);
      expect(answer).toMatchObject({ code: 'ENGINE_APPROVAL_DECLINED', details: { reason: 'approval_declined', field: 'operation' } });
      expect(asked).toHaveLength(1);
      expect(routes).toContainEqual({ what: 'tools/call', to: 'B' });
      expect(routes).toContainEqual({ what: 'answer', to: 'A' });
    } finally {
      await client.close();
    }
    expect(sent('DELETE')).toBe(deletes);
  }, 60_000);

  it('stops for svc-cli mcp approve when no replica holds a stream of the session within the wait', async () => {
    const deletes = sent('DELETE');
    const on = (r: Replica) => rawMcp(`${r.url}/mcp/${versionId}`, token);
    const init = await on(a).post({ ...initializeMessage(), params: { ...initializeMessage().params, capabilities: { elicitation: {} } } });
    expect(init.status).toBe(200);
    const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL };
    expect((await on(a).post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    const from = relayed.length;
    const res = await on(b).post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'execute', arguments: { code: `return await call('items.deleteItem', { id: 'n1' })` } } }, headers);
    expect(res.body.result.structuredContent).toMatchObject({ code: 'MCP_APPROVAL_REQUIRED', approval: { operation: 'items.deleteItem' } });
    // The question was offered to the other replicas, and nobody took it.
    expect(relayed.slice(from).map((m) => (JSON.parse(m) as { k: string }).k)).toEqual(['ask']);
    expect(sent('DELETE')).toBe(deletes);
  }, 60_000);
});

describe('elicitation across replicas while Redis pub/sub or Redis is away', () => {
  it('keeps an accept whose result cannot travel back: the replica that asked recorded it, and the re-run passes unasked', async () => {
    const deletes = sent('DELETE');
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    admin.on('error', () => undefined);
    let restore: (() => Promise<void>) | undefined;
    // A asks for B's call; before the client answers (to A, which asked), every subscriber is cut, B's too.
    const { client, asked } = await routedClient('accept', 'A', async () => void ({ restore } = await cutSubscribers(admin)));
    let stopped: any;
    try {
      stopped = await run(client, `return await call('items.deleteItem', { id: 'k1' })`);
    } finally {
      await restore?.();
      await client.close();
    }
    expect(asked).toHaveLength(1);
    // B never heard the result: its run ended with its budget, nothing sent.
    expect(['MCP_APPROVAL_REQUIRED', 'MCP_EXECUTE_TIMEOUT']).toContain(stopped.code);
    expect(sent('DELETE')).toBe(deletes);
    const channel = `${set.redisKeyPrefix}chan:mcp:elicit`;
    await until('both replicas and the listener subscribe again', async () => Number((await admin.pubsub('NUMSUB', channel))[1]) === 3);
    admin.disconnect();
    // Nobody is asked again and nobody approved by CLI: the accept A recorded lets the re-run through.
    const again = await routedClient('decline', 'B');
    try {
      const passed = await run(again.client, `return await call('items.deleteItem', { id: 'k1' })`);
      expect(passed.result, JSON.stringify(passed)).toMatchObject({ ok: true, data: { method: 'DELETE', url: '/items/k1' } });
      expect(again.asked).toEqual([]);
    } finally {
      await again.client.close();
    }
    expect(sent('DELETE')).toBe(deletes + 1);
  }, 60_000);

  it('stops for svc-cli mcp approve, within the budget; the approval given by CLI lets the re-run through', async () => {
    const deletes = sent('DELETE');
    const { client, sessionId, asked } = await routedClient('accept', 'B');
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    admin.on('error', () => undefined);
    let answer: any;
    try {
      // B runs the script; Redis goes while it sleeps, before its gated call asks.
      const pending = run(client, `await session.set("running", 1); await sleep(3000); return await call('items.deleteItem', { id: 'r1' })`);
      await until('the execute runs on B', async () => (await admin.hget(`${set.redisKeyPrefix}ss:{${sessionId()}}:kv`, 'running')) === '1');
      // The key is visible before B has its reply: stopping Redis then would fail the write, not the gated call (the script sleeps 3 s anyway).
      await new Promise((resolve) => setTimeout(resolve, 500));
      admin.disconnect();
      await redis.stop();
      answer = await pending;
    } finally {
      await client.close().catch(() => undefined);
    }
    // The stop asks for the CLI, as on one replica with no stream; nobody was asked, nothing sent.
    expect(answer).toMatchObject({ code: 'MCP_APPROVAL_REQUIRED', approval: { operation: 'items.deleteItem', params: { id: 'r1' }, approve: expect.stringMatching(/^svc-cli mcp approve apr_/) } });
    expect(asked).toEqual([]);
    expect(sent('DELETE')).toBe(deletes);

    // Redis back (empty: the session is gone), the approval waits in PostgreSQL; approved, a new session's re-run passes once.
    redis = await startRedisServer(redis.port);
    await until('both replicas are ready again', async () => (await Promise.all([a, b].map((r) => fetch(`${r.url}/readyz`).then((x) => x.status)))).every((s) => s === 200), 30_000);
    const waiting = (await set.api(a, 'GET', '/v1/mcp/approvals')).body.approvals as { id: string }[];
    expect(waiting.map((x) => x.id)).toContain(answer.approval.id);
    expect((await set.api(b, 'POST', `/v1/mcp/approvals/${answer.approval.id}/approve`)).status).toBe(200);
    const again = await routedClient('decline', 'B');
    try {
      const passed = await run(again.client, `return await call('items.deleteItem', { id: 'r1' })`);
      expect(passed.result).toMatchObject({ ok: true, data: { method: 'DELETE', url: '/items/r1' } });
      expect(again.asked).toEqual([]);
    } finally {
      await again.client.close();
    }
    expect(sent('DELETE')).toBe(deletes + 1);
  }, 90_000);
});
