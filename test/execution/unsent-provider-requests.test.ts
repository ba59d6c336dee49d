// A provider request the Engine never sent is reported as not sent. With one connection allowed per
// provider origin (SVC_PROVIDER_MAX_CONNECTIONS=1), a second call waits for the first; if its caller
// hangs up, or its deadline passes, while it waits, nothing reached the provider, and the envelope
// and receipt say so (ENGINE_CANCELLED / PROVIDER_TIMEOUT with provider_execution not_started)
// instead of "the provider may have acted".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadConfig } from '../../src/config/index.ts';
import { Dispatcher } from '../../src/execution/index.ts';
import { loopbackEgress } from '../fixtures/egress.ts';
import { EngineError } from '../../src/envelope/index.ts';
import { pointService, startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

let crm: FakeProvider;
/** Requests the provider holds until a test releases them. */
const held: ServerResponse[] = [];
const releaseAll = () => {
  for (const res of held.splice(0)) if (!res.writableEnded) json(res, 200, { id: 'con_held' });
};

beforeAll(async () => {
  crm = await startFakeProvider(async (req, res) => {
    if (req.url.startsWith('/v1/contacts/con_hold')) return void held.push(res);
    if (req.method === 'POST') return json(res, 201, { id: 'con_new' });
    return json(res, 200, { id: 'con_1' });
  });
});

afterAll(async () => {
  releaseAll();
  await crm?.stop();
});

type Receipt = { operation: string; status: number; ok: boolean; errorCode: string | null; providerDurationMs: number };

async function receiptsOf(t: TestEngine, versionId: string): Promise<Receipt[]> {
  return (await t.api('GET', `/v1/versions/${versionId}/receipts?limit=100`)).body.receipts;
}

/** Waits until the provider holds `n` requests. */
async function untilHeld(n: number) {
  const started = Date.now();
  while (held.length < n) {
    if (Date.now() - started > 5_000) throw new Error(`the provider never held ${n} request(s)`);
    await sleep(5);
  }
}

describe('a call that waits for a provider connection', () => {
  let t: TestEngine;
  let sdk: { versionId: string; token: string };
  beforeAll(async () => {
    t = await startTestEngine({ SVC_PROVIDER_MAX_CONNECTIONS: '1' });
    sdk = await publishSdk(t, { name: 'queued', service: 'demo-crm', baseUrl: crm.url, secret: 'crm-key-queued', operations: ['contacts/get', 'contacts/create'] });
  });
  afterAll(async () => {
    releaseAll();
    await t?.stop();
  });

  it('is cancelled unsent when its caller hangs up, and its receipt says ENGINE_CANCELLED', async () => {
    const first = t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_hold' } });
    await untilHeld(1);
    const before = crm.requests.length;
    const abort = new AbortController();
    const second = fetch(`${t.url}/v1/apps/${sdk.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'demo-crm.contacts/create', input: { body: { name: 'never sent', email: 'never@example.com' } } }),
      signal: abort.signal,
    }).catch((err: Error) => err);
    await sleep(200); // the create now waits for the one connection, which the held call keeps
    abort.abort();
    expect(await second).toBeInstanceOf(Error);
    await sleep(300); // the Engine notices the closed connection within ~100 ms
    releaseAll();
    expect((await first).body).toMatchObject({ ok: true, data: { id: 'con_held' } });
    await sleep(200); // were the create still queued, the freed connection would now carry it
    expect(crm.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);

    const create = (await receiptsOf(t, sdk.versionId)).find((r) => r.operation === 'demo-crm.contacts/create');
    expect(create).toMatchObject({ ok: false, status: 499, errorCode: 'ENGINE_CANCELLED' });
  });

  it('a request that was being sent when its caller hung up still says the outcome is unknown', async () => {
    const before = crm.requests.length;
    const abort = new AbortController();
    const call = fetch(`${t.url}/v1/apps/${sdk.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'demo-crm.contacts/get', input: { contact_id: 'con_holdinflight' } }),
      signal: abort.signal,
    }).catch((err: Error) => err);
    await untilHeld(1);
    abort.abort();
    expect(await call).toBeInstanceOf(Error);
    let receipt: Receipt | undefined;
    for (let i = 0; i < 100 && !receipt; i++) {
      receipt = (await receiptsOf(t, sdk.versionId)).find((r) => r.errorCode === 'ENGINE_OUTCOME_UNKNOWN');
      if (!receipt) await sleep(20);
    }
    expect(receipt).toMatchObject({ operation: 'demo-crm.contacts/get', status: 502 });
    expect(crm.requests.length - before).toBe(1);
    releaseAll();
  });
});

describe('Dispatcher', () => {
  it('times out unsent when the deadline passes while waiting for a connection: provider_execution not_started, retryable even for a mutation', async () => {
    // Driven directly: through the Engine every REST call gets the same timeout, so the call holding
    // the connection would always time out (and free it) first.
    const dispatcher = new Dispatcher({ egress: loopbackEgress(), connectTimeoutMs: 1_000, maxConnections: 1 });
    try {
      const holding = dispatcher.send({ method: 'GET', url: `${crm.url}/v1/contacts/con_hold`, headers: {}, body: undefined }, { maxBytes: 1 << 20, timeoutMs: 5_000 }, null);
      await untilHeld(1);
      const before = crm.requests.length;
      const started = performance.now();
      const err = await dispatcher.send({ method: 'POST', url: `${crm.url}/v1/contacts`, headers: {}, body: '{}' }, { maxBytes: 1 << 20, timeoutMs: 300 }, null).catch((e: unknown) => e);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      expect(err).toBeInstanceOf(EngineError);
      expect(err).toMatchObject({ code: 'PROVIDER_TIMEOUT', status: 504, retryable: true, providerExecution: 'not_started' });
      expect((err as Error).message).toMatch(/nothing was sent/);
      expect((err as EngineError).toEnvelope()).toMatchObject({ status: 504, error: { details: { provider_execution: 'not_started' } } });
      releaseAll();
      expect(await holding).toMatchObject({ status: 200, data: { id: 'con_held' } });
      await sleep(200); // were the POST still queued, the freed connection would now carry it
      expect(crm.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
    } finally {
      releaseAll();
      await dispatcher.close({ abort: true });
    }
  });

  it('a connection that fails before the request is written (a TLS handshake cut short) is not started, even for a mutation', async () => {
    // Accepts TCP connections and closes each at once: the TLS handshake never completes.
    let accepted = 0;
    const cutter = createNetServer((socket) => {
      accepted++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => cutter.listen(0, '127.0.0.1', resolve));
    const dispatcher = new Dispatcher({ egress: loopbackEgress(), connectTimeoutMs: 1_000 });
    try {
      const url = `https://127.0.0.1:${(cutter.address() as AddressInfo).port}/v1/contacts`;
      const err = await dispatcher.send({ method: 'POST', url, headers: {}, body: '{}' }, { maxBytes: 1 << 20, timeoutMs: 2_000 }, null).catch((e: unknown) => e);
      expect(accepted).toBeGreaterThan(0);
      expect(err).toMatchObject({ code: 'PROVIDER_UNREACHABLE', retryable: true, providerExecution: 'not_started' });
    } finally {
      await dispatcher.close({ abort: true });
      await new Promise((resolve) => cutter.close(resolve));
    }
  });

  it('a request still queued when the Engine closes its provider connections (shutting down) is ENGINE_UNAVAILABLE, not the provider\'s fault', async () => {
    const dispatcher = new Dispatcher({ egress: loopbackEgress(), connectTimeoutMs: 1_000, maxConnections: 1 });
    const holding = dispatcher.send({ method: 'GET', url: `${crm.url}/v1/contacts/con_hold`, headers: {}, body: undefined }, { maxBytes: 1 << 20, timeoutMs: 5_000 }, null).catch((e: unknown) => e);
    await untilHeld(1);
    const queued = dispatcher.send({ method: 'POST', url: `${crm.url}/v1/contacts`, headers: {}, body: '{}' }, { maxBytes: 1 << 20, timeoutMs: 5_000 }, null).catch((e: unknown) => e);
    await sleep(50);
    await dispatcher.close({ abort: true });
    expect(await queued).toMatchObject({ code: 'ENGINE_UNAVAILABLE', retryable: true, providerExecution: 'not_started' });
    expect(await holding).toMatchObject({ providerExecution: 'unknown' }); // it was sent
    releaseAll();
  });

  it('a request timed out once sent may have acted: provider_execution unknown, retryable only when idempotent', async () => {
    const dispatcher = new Dispatcher({ egress: loopbackEgress(), connectTimeoutMs: 1_000 });
    try {
      const err = await dispatcher.send({ method: 'POST', url: `${crm.url}/v1/contacts/con_hold`, headers: {}, body: '{}' }, { maxBytes: 1 << 20, timeoutMs: 200 }, null).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'PROVIDER_TIMEOUT', retryable: false, providerExecution: 'unknown' });
    } finally {
      releaseAll();
      await dispatcher.close({ abort: true });
    }
  });

  it('sends nothing for a call whose caller is already gone', async () => {
    const dispatcher = new Dispatcher({ egress: loopbackEgress(), connectTimeoutMs: 1_000 });
    try {
      const before = crm.requests.length;
      const signal = AbortSignal.abort();
      const err = await dispatcher.send({ method: 'POST', url: `${crm.url}/v1/contacts`, headers: {}, body: '{}' }, { maxBytes: 1 << 20, timeoutMs: 1_000, signal }, null).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngineError);
      expect(err).toMatchObject({ code: 'ENGINE_CANCELLED', status: 499, providerExecution: 'not_started' });
      await sleep(100);
      expect(crm.requests.length).toBe(before);
    } finally {
      await dispatcher.close({ abort: true });
    }
  });
});

describe('a request dropped while it waits for a connection', () => {
  it('leaves the keep-alive connection it waited for open: later requests reuse it', async () => {
    // undici hands a queued request its abort function only once a connection takes it, and that
    // abort destroys the connection: each caller that gave up while queued would cost a healthy
    // socket (a new TCP and TLS handshake for the next call).
    const sockets = new Set<Socket>();
    const parked: ServerResponse[] = [];
    const provider = await startFakeProvider(async (req, res, socket) => {
      sockets.add(socket);
      if (req.url.endsWith('/con_park')) return void parked.push(res);
      json(res, 200, { id: req.url.split('/').at(-1) });
    });
    const dispatcher = new Dispatcher({ egress: loopbackEgress(), connectTimeoutMs: 1_000, maxConnections: 1 });
    const get = (id: string, limits: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
      dispatcher.send({ method: 'GET', url: `${provider.url}/v1/contacts/${id}`, headers: {}, body: undefined }, { maxBytes: 1 << 20, timeoutMs: 5_000, ...limits }, null);
    try {
      expect(await get('con_a')).toMatchObject({ status: 200, data: { id: 'con_a' } });
      const holding = get('con_park');
      while (!parked.length) await sleep(5);
      const gaveUp = new AbortController();
      const cancelled = get('con_cancelled', { signal: gaveUp.signal }).catch((e: unknown) => e);
      const timedOut = get('con_late', { timeoutMs: 200 }).catch((e: unknown) => e);
      await sleep(50);
      gaveUp.abort();
      expect(await cancelled).toMatchObject({ code: 'ENGINE_CANCELLED', providerExecution: 'not_started' });
      expect(await timedOut).toMatchObject({ code: 'PROVIDER_TIMEOUT', providerExecution: 'not_started' });
      json(parked[0]!, 200, { id: 'con_park' });
      expect(await holding).toMatchObject({ status: 200, data: { id: 'con_park' } });
      expect(await get('con_b')).toMatchObject({ status: 200, data: { id: 'con_b' } });
      expect(provider.requests.map((r) => r.url)).toEqual(['/v1/contacts/con_a', '/v1/contacts/con_park', '/v1/contacts/con_b']);
      expect(sockets.size).toBe(1);
    } finally {
      for (const res of parked) if (!res.writableEnded) res.destroy();
      await dispatcher.close({ abort: true });
      await provider.stop();
    }
  });
});

describe('SVC_PROVIDER_MAX_CONNECTIONS', () => {
  it('defaults to 256 and refuses a value that is not a positive integer, naming the variable', () => {
    expect(loadConfig({}).providerMaxConnections).toBe(256);
    expect(loadConfig({ SVC_PROVIDER_MAX_CONNECTIONS: '8' }).providerMaxConnections).toBe(8);
    for (const bad of ['0', '-1', 'many', '1.5']) expect(() => loadConfig({ SVC_PROVIDER_MAX_CONNECTIONS: bad })).toThrow(/SVC_PROVIDER_MAX_CONNECTIONS/);
  });
});

describe('a Unified step that timed out before anything was sent, inside an MCP execute', () => {
  // The provider is an https address whose TLS handshake never answers: the 300 ms deadline passes
  // before undici writes a byte, so the step's PROVIDER_TIMEOUT is not_started (dispatched: false).
  let engine: TestEngine;
  let silent: ReturnType<typeof createNetServer>;
  const held: Socket[] = [];
  let client: Client;

  beforeAll(async () => {
    silent = createNetServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    engine = await startTestEngine({ SVC_PROVIDER_TIMEOUT_MS: '300', SVC_EXECUTE_BUDGET_MS: '5000' });
    await pointService(engine, 'demo-crm', `https://127.0.0.1:${(silent.address() as AddressInfo).port}`, 'crm-key-silent');
    await pointService(engine, 'github', crm.url, 'gh-key-silent');
    engine.canaries.push('crm-key-silent', 'gh-key-silent');
    const deployed = await engine.api('POST', '/v1/mcp/publish', { name: 'silent', services: ['github=v1', 'demo-crm=v1'], operations: ['unified=tasks.create'] });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
    engine.canaries.push(deployed.body.token);
    client = new Client({ name: 'unsent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(deployed.body.url), { requestInit: { headers: { authorization: `Bearer ${deployed.body.token}` } } }));
  });
  afterAll(async () => {
    await client?.close();
    await engine?.stop();
    for (const s of held) s.destroy();
    await new Promise((resolve) => silent?.close(resolve));
  });

  it('with another step that reached its provider: the outcome is known step by step, not unknown for the whole run', async () => {
    const result = (await client.callTool({
      name: 'execute',
      arguments: { code: 'const r = await call("unified.tasks.create", { input: { title: "t", owner: "o", repo: "r" }, targets: ["crm", "github"] }); throw new Error(JSON.stringify(r.error.details.steps.map((s) => [s.target, s.status, s.dispatched, s.error && s.error.code])))' },
    })) as { isError?: boolean; structuredContent: any };
    expect(result.isError).toBe(true);
    const steps = JSON.parse(/Error: (\[.*\])/.exec(result.structuredContent.message)![1]!);
    expect(steps).toContainEqual(['crm', 'refused', false, 'PROVIDER_TIMEOUT']);
    expect(steps.find((s: unknown[]) => s[0] === 'github')[2]).toBe(true); // reached its provider, which answered
    expect(result.structuredContent).toMatchObject({ code: 'MCP_SCRIPT_ERROR', recovery: { execute_request: 'do_not_replay' } });
  });

  it('leaves the run free to be corrected (MCP_SCRIPT_ERROR, correct_arguments), not an unknown outcome', async () => {
    const result = (await client.callTool({
      name: 'execute',
      arguments: { code: 'const r = await call("unified.tasks.create", { input: { title: "t" }, targets: ["crm"] }); throw new Error(r.error.details.steps[0].error.code + " " + r.error.details.steps[0].dispatched)' },
    })) as { isError?: boolean; structuredContent: any };
    expect(result.isError).toBe(true);
    expect(result.structuredContent.message).toContain('PROVIDER_TIMEOUT false');
    expect(result.structuredContent).toMatchObject({ code: 'MCP_SCRIPT_ERROR', recovery: { execute_request: 'correct_arguments', provider_execution: 'not_started' } });
  });
});
