// The Engine's gRPC service (spec/engine.proto) against a fake provider: the same execution as
// REST (same envelopes, receipts with surface 'grpc'), deadline propagation to the provider call,
// and graceful shutdown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { startGrpcServer } from '../../src/grpc/index.ts';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';

const SECRET = 'canary-grpc-51d0e8a2c4';
/** JSON whose text a parse and re-serialise would change: an integer past 2^53, a trailing zero, spacing. */
const EXACT_BODY = '{ "id": "con_exact", "n": 12345678901234567890, "f": 1.50 }';

let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };
let client: RawEngineClient;
/** Contact IDs whose provider request ended before the fake provider answered. */
const aborted = new Set<string>();

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (req.headers.authorization !== `Bearer ${SECRET}`) return json(res, 401, { error: 'bad key' });
    const id = url.pathname.split('/')[3];
    if (url.pathname === '/v1/contacts') {
      const after = url.searchParams.get('starting_after');
      const page = after ? Number(after.slice(4)) : 0;
      return json(res, 200, { data: [{ id: `con_${page + 1}` }], has_more: page + 1 < 3 });
    }
    if (id === 'con_exact') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(EXACT_BODY);
      return;
    }
    if (id?.startsWith('con_slow')) {
      const delay = Number(id.slice('con_slow'.length));
      res.on('close', () => {
        if (!res.writableEnded) aborted.add(id);
      });
      await new Promise((r) => setTimeout(r, delay));
      if (!res.destroyed) json(res, 200, { id, slow: true });
      return;
    }
    if (req.method === 'GET') return json(res, 200, { id, big: 12345678901234567890n.toString() });
    json(res, 405, {});
  });
  t = await startTestEngine({ SVC_GRPC_PORT: '0', SVC_PROVIDER_TIMEOUT_MS: '10000' });
  sdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get', 'contacts/list'] });
  client = new RawEngineClient(t.engine.grpcUrl);
});

afterAll(async () => {
  client?.close();
  await t?.stop();
  await provider?.stop();
});

const rest = (body: unknown, token = sdk.token, versionId = sdk.versionId) => t.execute(versionId, token, body);

describe('gRPC Execute', () => {
  it('returns the same envelope as REST, data carried losslessly as JSON', async () => {
    const input = { contact_id: 'con_0001' };
    const viaGrpc = await client.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson: JSON.stringify(input) });
    const viaRest = await rest({ operation: 'demo-crm.contacts/get', input });
    expect(viaGrpc.error).toBeUndefined();
    expect(viaGrpc.envelope).toEqual(viaRest.body);
    expect(viaGrpc.envelope).toMatchObject({ ok: true, status: 200, data: { id: 'con_0001', big: '12345678901234567890' }, error: null });
    expect(provider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it("carries the provider's JSON text as it came, exactly as REST splices it", async () => {
    const input = { contact_id: 'con_exact' };
    const viaGrpc = await client.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson: JSON.stringify(input) });
    expect(viaGrpc.wire?.ok).toBe(true);
    expect(viaGrpc.wire?.dataJson).toBe(EXACT_BODY);
    const res = await fetch(`${t.engine.url}/v1/apps/${sdk.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'demo-crm.contacts/get', input }),
    });
    expect(await res.text()).toBe(`{"ok":true,"status":200,"data":${EXACT_BODY},"error":null}`);
  });

  it('answers an input well past the request limit with the 413 envelope, not a transport error', async () => {
    const limit = t.engine.deps.config.maxRequestBytes;
    const inputJson = JSON.stringify({ contact_id: 'con_1', pad: 'x'.repeat(limit + 70 * 1024) });
    const call = await client.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson });
    expect(call.error).toBeUndefined();
    expect(call.envelope).toMatchObject({ ok: false, status: 413, error: { code: 'ENGINE_INPUT_TOO_LARGE' } });
  });

  it('pages with the Engine policy and honours a caller bound, like REST', async () => {
    const all = await client.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/list' });
    expect(all.envelope).toMatchObject({ ok: true, data: { data: [{ id: 'con_1' }, { id: 'con_2' }, { id: 'con_3' }], has_more: false } });
    const bounded = await client.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/list', pagination: { maxPages: 2 } });
    expect(bounded.envelope).toEqual((await rest({ operation: 'demo-crm.contacts/list', pagination: { maxPages: 2 } })).body);
    expect(bounded.envelope).toMatchObject({ ok: true, data: { data: [{ id: 'con_1' }, { id: 'con_2' }], has_more: true } });
  });

  it.each([
    ['no token', { token: undefined }, { operation: 'demo-crm.contacts/get' }],
    ['a malformed token', { token: 'nope' }, { operation: 'demo-crm.contacts/get' }],
    ['a version ID that is not one', {}, { operation: 'demo-crm.contacts/get', versionId: 'ver_bad' }, 'version_id'],
    ['another app’s version', {}, { operation: 'demo-crm.contacts/get', versionId: 'ver_00000000000000000000000000' }],
    ['an empty operation', {}, { operation: '' }, 'operation'],
    ['an unknown operation', {}, { operation: 'demo-crm.nope' }],
    ['an operation not selected', {}, { operation: 'demo-crm.deals/list' }],
    ['input that is not an object', {}, { operation: 'demo-crm.contacts/get', input: [1] }, 'input_json'],
    ['input the schema refuses', {}, { operation: 'demo-crm.contacts/get', input: { contact_id: 7 } }],
    ['an invalid pagination bound', {}, { operation: 'demo-crm.contacts/list', pagination: { maxPages: 20 } }],
    ['pagination on an operation without it', {}, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' }, pagination: { maxPages: 1 } }],
    ['pagination without a bound', {}, { operation: 'demo-crm.contacts/list', pagination: {} }],
    ['an unknown selector value', {}, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' }, selectors: { authType: 'password' } }],
  ])('refuses %s with the envelope REST gives', async (_label, who: { token?: string | undefined }, req: Record<string, any>, grpcField?: string) => {
    const token = 'token' in who ? who.token : sdk.token;
    const versionId = req.versionId ?? sdk.versionId;
    const body = { operation: req.operation, ...(req.input !== undefined ? { input: req.input } : {}), ...(req.pagination ? { pagination: req.pagination } : {}), ...(req.selectors ? { selectors: req.selectors } : {}) };
    const viaRest = await t.execute(versionId, token ?? '', body);
    const viaGrpc = await client.execute(token, {
      versionId,
      operation: req.operation,
      inputJson: req.input !== undefined ? JSON.stringify(req.input) : '',
      pagination: req.pagination,
      selectors: req.selectors,
    });
    expect(viaRest.body.ok).toBe(false);
    if (grpcField === undefined) return void expect(viaGrpc.envelope).toEqual(viaRest.body);
    // A refusal of the request's shape names the field as the caller sent it: REST's body/input is gRPC's input_json.
    const { message, details, ...rest } = viaGrpc.envelope!.error!;
    expect({ ...viaGrpc.envelope, error: rest }).toEqual({ ...viaRest.body, error: { ...viaRest.body.error, message: undefined, details: undefined } });
    expect(message).toMatch(new RegExp(`^${grpcField} `));
    expect(details).toMatchObject({ field: grpcField });
  });

  it('refuses input_json that is not JSON as invalid input', async () => {
    const res = await client.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson: '{nope' });
    expect(res.envelope).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'input_json' } } });
  });

  it('writes receipts with surface grpc', async () => {
    await client.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson: '{"contact_id":"con_receipt1"}' });
    const res = await t.api('GET', `/v1/versions/${sdk.versionId}/receipts?limit=200`);
    const receipts = res.body.receipts as { operation: string; surface: string; ok: boolean; tokenId: string | null }[];
    expect(receipts.some((r) => r.surface === 'grpc' && r.operation === 'demo-crm.contacts/get' && r.ok && r.tokenId)).toBe(true);
    expect(receipts.some((r) => r.surface === 'rest')).toBe(true);
  });

  it('propagates the call deadline to the provider request', async () => {
    const res = await client.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson: '{"contact_id":"con_slow3000"}' }, { deadlineMs: 300 });
    expect(res.error?.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    expect(res.ms).toBeLessThan(2000);
    // The Engine aborted its provider request at the deadline instead of waiting 3 s (or its own 10 s timeout).
    await expect.poll(() => aborted.has('con_slow3000'), { timeout: 2000 }).toBe(true);
    await expect
      .poll(async () => {
        const receipts = (await t.api('GET', `/v1/versions/${sdk.versionId}/receipts?limit=200`)).body.receipts as { surface: string; errorCode: string | null }[];
        return receipts.some((r) => r.surface === 'grpc' && r.errorCode === 'ENGINE_OUTCOME_UNKNOWN');
      })
      .toBe(true);
  });
});

describe('gRPC shutdown', () => {
  it('lets a call in flight finish, then refuses new calls', async () => {
    const server = await startGrpcServer(t.engine.deps, { host: '127.0.0.1', port: 0, shutdownGraceMs: 5_000 });
    const local = new RawEngineClient(`127.0.0.1:${server.port}`);
    try {
      const inFlight = local.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson: '{"contact_id":"con_slow400"}' });
      await new Promise((r) => setTimeout(r, 150));
      const stopped = server.stop();
      const done = await inFlight;
      expect(done.envelope).toMatchObject({ ok: true, data: { id: 'con_slow400', slow: true } });
      await stopped;
      const after = await local.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson: '{"contact_id":"c"}' }, { deadlineMs: 2000 });
      expect(after.error?.code).toBe(GrpcStatus.UNAVAILABLE);
    } finally {
      local.close();
      await server.stop();
    }
  });

  it('cancels calls still running when the grace period ends', async () => {
    const server = await startGrpcServer(t.engine.deps, { host: '127.0.0.1', port: 0, shutdownGraceMs: 200 });
    const local = new RawEngineClient(`127.0.0.1:${server.port}`);
    try {
      const inFlight = local.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson: '{"contact_id":"con_slow3001"}' });
      await new Promise((r) => setTimeout(r, 150));
      const started = performance.now();
      await server.stop();
      expect(performance.now() - started).toBeLessThan(1500);
      const done = await inFlight;
      expect(done.error?.code).toBe(GrpcStatus.CANCELLED);
      // Cancelling the call aborted the provider request too.
      await expect.poll(() => aborted.has('con_slow3001'), { timeout: 2000 }).toBe(true);
    } finally {
      local.close();
    }
  });
});
