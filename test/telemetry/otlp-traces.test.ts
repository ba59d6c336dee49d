// OpenTelemetry traces (src/telemetry) exported as OTLP protobuf (the default protocol) to a real
// OTLP/HTTP receiver on loopback (test/fixtures/otlp-receiver.ts, which decodes them): the span
// tree of an MCP execute with two calls, one of them retried after a 503, under the caller's
// traceparent; a REST call and a gRPC call (the request's span carries the call's attributes) under
// the caller's span, with the provider getting a traceparent of the same trace from each attempt;
// input values only for the service SVC_TRACE_INPUT_SERVICES lists; the spans still batched exported when
// the Engine stops; a trace the sampler leaves out exports nothing. The provider's API key, the
// tokens and a value planted in the input are canaries that no exported byte may hold.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { publishUnifiedTasks } from '../fixtures/apps.ts';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { faultyDescription, FAULTY_OPERATIONS, startFaultyProvider, type FaultyProvider } from '../fixtures/faulty-provider.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';
import { renderTree, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../fixtures/otlp-receiver.ts';
import { publishApps, withMcpClient, type ProviderApps } from '../fixtures/providers/app.ts';

const API_KEY = 'sk_live_canary_otel_7c1f2e9a';
const INPUT_CANARY = 'in_canary_5d4e3f';
/** Exports every 50 ms (OTEL_BSP_SCHEDULE_DELAY; 5 s by default), so the tests wait for spans, not for a timer. An Engine reads its own settings, not this process's environment. */
const PROMPT = { OTEL_BSP_SCHEDULE_DELAY: '50' };

let receiver: OtlpReceiver;
let provider: FaultyProvider;
let t: TestEngine;
let apps: ProviderApps;
let open: ProviderApps;
let crm: DemoProvider;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
/** A caller's span: a W3C traceparent and its parts. */
const callerSpan = () => {
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
};

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  provider = await startFaultyProvider();
  crm = await startDemoProvider();
  t = await startTestEngine({ ...PROMPT, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, SVC_TRACE_INPUT_SERVICES: 'faulty-open' });
  t.canaries.push(API_KEY, INPUT_CANARY);
  for (const [name, auth] of [['faulty', { type: 'api_key', in: 'header', name: 'x-api-key' }], ['faulty-open', undefined]] as const) {
    const imported = await t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document: faultyDescription(provider.url), ...(auth ? { auth } : {}) });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  }
  await pointService(t, 'faulty', provider.url, API_KEY);
  await pointService(t, 'faulty-open', provider.url, 'unused-open-secret');
  const definition = (name: string) => ({ services: [`${name}=v1`], operations: FAULTY_OPERATIONS.map((op) => `${name}=${op}`) });
  apps = await publishApps(t, 'traced', definition('faulty'));
  open = await publishApps(t, 'traced-open', definition('faulty-open'));
});
afterAll(async () => {
  await t?.stop();
  await provider?.stop();
  await receiver?.stop();
  await crm?.stop();
});

const children = (spans: ReceivedSpan[], parent: ReceivedSpan) => spans.filter((s) => s.parentSpanId === parent.spanId).sort((a, b) => (a.start < b.start ? -1 : 1));
/** The value of a traceparent header: version, trace ID, parent span ID, flags. */
const parts = (traceparent: unknown) => {
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(traceparent));
  expect(m, String(traceparent)).not.toBeNull();
  return { traceId: m![1]!, parentId: m![2]! };
};
const requestsFor = (id: string) => provider.received.filter((r) => r.id === id);

describe('an MCP execute', () => {
  it('is a tree under the caller’s span: HTTP request → execute → each call() → one span per provider attempt, and session storage', async () => {
    const caller = callerSpan();
    const [a, b] = [`mcp-a-${INPUT_CANARY}`, `mcp-b-${INPUT_CANARY}`];
    provider.plan(b, [{ status: 503 }, 'ok']);
    const result = await withMcpClient(
      apps.mcp,
      async (client) =>
        (
          (await client.callTool({
            name: 'execute',
            arguments: {
              code: `const first = await call('faulty.getItem', { id: '${a}' });
                const second = await call('faulty.getItem', { id: '${b}' });
                await session.set('last', { id: '${b}' });
                return [first.status, second.status, (await session.get('last')).id.length];`,
            },
          })) as any
        ).structuredContent,
      { traceparent: caller.traceparent },
    );
    expect(result).toEqual({ result: [200, 200, b.length] });
    expect(requestsFor(b)).toHaveLength(2);

    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === caller.traceId && s.name === 'execute' && s.attributes['svc.execute.outcome'] === 'OK'));
    const execute = spans.find((s) => s.traceId === caller.traceId && s.name === 'execute')!;
    // Its parent is the HTTP request's SERVER span, whose parent is the caller's span.
    const request = spans.find((s) => s.spanId === execute.parentSpanId)!;
    expect(request).toMatchObject({ kind: 2, parentSpanId: caller.spanId, attributes: { 'http.request.method': 'POST', 'http.response.status_code': 200 } });
    expect(request.name).toMatch(/^POST \/mcp\//);
    expect(execute.attributes).toMatchObject({ 'gen_ai.tool.name': 'execute', 'mcp.method.name': 'tools/call' });

    const [first, second, ...storage] = children(spans, execute);
    expect(first).toMatchObject({ name: 'call faulty.getItem', attributes: { 'svc.surface': 'mcp', 'svc.operation': 'faulty.getItem', 'svc.service': 'faulty', 'svc.status': 200 } });
    expect(second).toMatchObject({ name: 'call faulty.getItem', attributes: { 'svc.status': 200, 'svc.attempts': 2 } });
    expect(storage.map((s) => s.name)).toEqual(['session set_value', 'session get_value']);
    expect(storage[0]!.attributes).toMatchObject({ 'svc.session.store': 'memory', 'svc.session.bytes': expect.any(Number) });

    const [only] = children(spans, first!);
    expect(children(spans, first!)).toHaveLength(1);
    const expectedAttempt = { name: 'GET', kind: 3, attributes: { 'http.request.method': 'GET', 'server.address': '127.0.0.1', 'url.scheme': 'http' } };
    expect(only).toMatchObject({ ...expectedAttempt, attributes: { ...expectedAttempt.attributes, 'http.response.status_code': 200 } });
    const attempts = children(spans, second!);
    expect(attempts.map((s) => s.attributes['http.response.status_code'])).toEqual([503, 200]);
    expect(attempts[0]).toMatchObject({ ...expectedAttempt, status: 2, attributes: { 'error.type': '503' } });

    // Each attempt sent the provider its own span as the parent, in the caller's trace.
    const sent = requestsFor(b).map((r) => parts(r.headers.traceparent));
    expect(sent).toEqual(attempts.map((s) => ({ traceId: caller.traceId, parentId: s.spanId })));
    expect(parts(requestsFor(a)[0]!.headers.traceparent)).toEqual({ traceId: caller.traceId, parentId: only!.spanId });
    expect(requestsFor(a)[0]!.headers['x-api-key']).toBe(API_KEY); // the canary did reach the provider

    // The rendered tree (docs/operations/observability.md shows one).
    const tree = renderTree(spans, request.spanId, (s) => [s.attributes['http.response.status_code'], s.attributes['svc.status'], s.attributes['error.type']].filter((v) => v !== undefined).join(' '));
    console.log(`span tree of an execute with two calls and a retry:\n${tree}`);
    expect(tree.split('\n')).toHaveLength(9);
  });
});

describe('a REST and a gRPC call', () => {
  it('REST: the request span is a child of the caller’s, and the provider gets a traceparent of the same trace', async () => {
    const caller = callerSpan();
    const id = `rest-${INPUT_CANARY}`;
    const res = await fetch(`${t.url}/v1/apps/${apps.sdk.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apps.sdk.token}`, 'content-type': 'application/json', traceparent: caller.traceparent, tracestate: 'vendor=abc' },
      body: JSON.stringify({ operation: 'faulty.getItem', input: { id } }),
    });
    expect(res.status).toBe(200);
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === caller.traceId && s.kind === 2));
    const rest = spans.find((s) => s.traceId === caller.traceId && s.kind === 2)!;
    // The request is the call: one span with both's attributes, the provider attempt under it.
    expect(rest).toMatchObject({
      name: 'POST /v1/apps/{version_id}/executions',
      parentSpanId: caller.spanId,
      attributes: { 'http.route': '/v1/apps/{version_id}/executions', 'http.response.status_code': 200, 'svc.surface': 'rest', 'svc.operation': 'faulty.getItem', 'svc.service': 'faulty', 'svc.status': 200 },
    });
    const [attempt, ...more] = children(spans, rest);
    expect(more).toEqual([]);
    expect(attempt).toMatchObject({ name: 'GET', kind: 3 });
    const [received] = requestsFor(id);
    expect(parts(received!.headers.traceparent)).toEqual({ traceId: caller.traceId, parentId: attempt!.spanId });
    expect(received!.headers.tracestate).toBe('vendor=abc');
  });

  it('gRPC: the Execute span is a child of the caller’s span from its metadata', async () => {
    const caller = callerSpan();
    const id = `grpc-${INPUT_CANARY}`;
    const client = new RawEngineClient(t.engine.grpcUrl);
    try {
      const call = await client.execute(apps.sdk.token, { versionId: apps.sdk.versionId, operation: 'faulty.getItem', inputJson: JSON.stringify({ id }) }, { metadata: { traceparent: caller.traceparent } });
      expect(call.envelope).toMatchObject({ ok: true, status: 200 });
    } finally {
      client.close();
    }
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === caller.traceId && s.kind === 2));
    const grpc = spans.find((s) => s.traceId === caller.traceId && s.kind === 2)!;
    expect(grpc).toMatchObject({ name: 'svc.engine.v1.Engine/Execute', parentSpanId: caller.spanId, attributes: { 'rpc.system': 'grpc', 'rpc.grpc.status_code': 0, 'svc.status': 200, 'svc.surface': 'grpc', 'svc.operation': 'faulty.getItem' } });
    const [attempt] = children(spans, grpc);
    expect(attempt).toMatchObject({ name: 'GET', kind: 3 });
    expect(parts(requestsFor(id)[0]!.headers.traceparent)).toEqual({ traceId: caller.traceId, parentId: attempt!.spanId });
  });

  it('a call without a traceparent starts a trace of its own', async () => {
    const id = 'no-parent';
    const res = await t.execute(apps.sdk.versionId, apps.sdk.token, { operation: 'faulty.getItem', input: { id } });
    expect(res.status).toBe(200);
    const { traceId, parentId } = parts(requestsFor(id)[0]!.headers.traceparent);
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === traceId && s.kind === 2));
    expect(spans.find((s) => s.traceId === traceId && s.kind === 2)!.parentSpanId).toBe('');
    expect(spans.find((s) => s.spanId === parentId)).toMatchObject({ name: 'GET', kind: 3 });
  });
});

describe('a Unified call', () => {
  it('has a span per step, its provider attempts under it', async () => {
    const tasks = await publishUnifiedTasks(t, crm);
    const caller = callerSpan();
    const res = await fetch(`${t.url}/v1/apps/${tasks.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tasks.token}`, 'content-type': 'application/json', traceparent: caller.traceparent },
      body: JSON.stringify({ operation: 'unified.tasks.create', input: { title: `Call ${INPUT_CANARY}` }, targets: ['crm'] }),
    });
    expect(((await res.json()) as any).ok).toBe(true);
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === caller.traceId && s.kind === 2));
    const rest = spans.find((s) => s.traceId === caller.traceId && s.kind === 2)!;
    expect(rest.attributes).toMatchObject({ 'svc.operation': 'unified.tasks.create', 'svc.service': 'unified', 'svc.status': 200 });
    const [step] = children(spans, rest);
    expect(step).toMatchObject({ name: 'unified step crm', attributes: { 'svc.unified.operation': 'unified.tasks.create', 'svc.unified.target': 'crm', 'svc.unified.step_status': 'succeeded' } });
    expect(children(spans, step!)).toMatchObject([{ name: 'POST', kind: 3, attributes: { 'http.response.status_code': expect.any(Number) } }]);
  });
});

describe('input values', () => {
  it('go on a REST request’s span only for a service SVC_TRACE_INPUT_SERVICES lists, and never its body', async () => {
    const caller = callerSpan();
    const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json', traceparent: caller.traceparent });
    const post = (app: ProviderApps, operation: string, input: unknown) =>
      fetch(`${t.url}/v1/apps/${app.sdk.versionId}/executions`, { method: 'POST', headers: headers(app.sdk.token), body: JSON.stringify({ operation, input }) });
    expect((await post(open, 'faulty-open.putItem', { id: 'shown-id', body: { secret: INPUT_CANARY } })).status).toBe(200);
    expect((await post(apps, 'faulty.putItem', { id: `hidden-${INPUT_CANARY}`, body: { n: 1 } })).status).toBe(200);
    const spans = await receiver.waitFor((all) => all.filter((s) => s.traceId === caller.traceId && s.kind === 2).length === 2);
    const requestOf = (operation: string) => spans.find((s) => s.traceId === caller.traceId && s.kind === 2 && s.attributes['svc.operation'] === operation)!;
    expect(requestOf('faulty-open.putItem').attributes).toMatchObject({ 'svc.input.id': 'shown-id' });
    expect(Object.keys(requestOf('faulty-open.putItem').attributes)).not.toContain('svc.input.body');
    expect(Object.keys(requestOf('faulty.putItem').attributes).filter((k) => k.startsWith('svc.input'))).toEqual([]);
  });
});

describe('stopping', () => {
  it('exports the spans still batched before the Engine stops', async () => {
    await t.stop();
    // A batch that would wait a minute: only the flush on stop can send it.
    const second = await startTestEngine({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '60000' });
    try {
      second.canaries.push(API_KEY);
      expect((await second.api('POST', '/v1/workspace/imports', { name: 'faulty', version: 'v1', document: faultyDescription(provider.url), auth: { type: 'api_key', in: 'header', name: 'x-api-key' } })).status).toBe(201);
      await pointService(second, 'faulty', provider.url, API_KEY);
      const app = await publishApps(second, 'flushed', { services: ['faulty=v1'], operations: ['faulty=getItem'] });
      t.canaries.push(...second.canaries);
      expect((await second.execute(app.sdk.versionId, app.sdk.token, { operation: 'faulty.getItem', input: { id: 'flushed' } })).status).toBe(200);
      const { traceId } = parts(requestsFor('flushed')[0]!.headers.traceparent);
      expect(receiver.spans.some((s) => s.traceId === traceId)).toBe(false);
    } finally {
      await second.stop();
    }
    const { traceId } = parts(requestsFor('flushed')[0]!.headers.traceparent);
    expect(receiver.spans.filter((s) => s.traceId === traceId).map((s) => s.name)).toEqual(expect.arrayContaining(['POST /v1/apps/{version_id}/executions', 'GET']));
  });
});

describe('sampling', () => {
  it('a trace the sampler leaves out exports nothing, and the provider still gets its traceparent, not sampled', async () => {
    const third = await startTestEngine({ ...PROMPT, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'parentbased_always_off' });
    try {
      expect((await third.api('POST', '/v1/workspace/imports', { name: 'faulty', version: 'v1', document: faultyDescription(provider.url), auth: { type: 'api_key', in: 'header', name: 'x-api-key' } })).status).toBe(201);
      await pointService(third, 'faulty', provider.url, API_KEY);
      const app = await publishApps(third, 'unsampled', { services: ['faulty=v1'], operations: ['faulty=getItem'] });
      t.canaries.push(...third.canaries);
      expect((await third.execute(app.sdk.versionId, app.sdk.token, { operation: 'faulty.getItem', input: { id: 'unsampled' } })).status).toBe(200);
    } finally {
      await third.stop();
    }
    const traceparent = String(requestsFor('unsampled')[0]!.headers.traceparent);
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(receiver.spans.filter((s) => s.traceId === parts(traceparent).traceId)).toEqual([]);
  });
});

describe('a collector that refuses the spans', () => {
  it('is one warning in the log, without its answer, and calls go on', async () => {
    const refusing = createServer((req, res) => req.resume().once('end', () => res.writeHead(400, { 'content-type': 'text/plain' }).end(`collector-answer ${API_KEY}`)));
    refusing.listen(0, '127.0.0.1');
    await once(refusing, 'listening');
    const fourth = await startTestEngine({ ...PROMPT, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}` });
    try {
      expect((await fourth.api('GET', '/v1/workspace/services')).status).toBe(200);
    } finally {
      await fourth.stop();
      refusing.close();
    }
    const warnings = fourth.logs.filter((line) => line.includes('exporting traces to OTEL_EXPORTER_OTLP_ENDPOINT failed'));
    expect(warnings).toHaveLength(1);
    expect(fourth.logs.join('')).not.toContain('collector-answer');
  });
});

describe('what is exported', () => {
  it('never holds the API key, a token or a planted input value, in any byte', async () => {
    expect(receiver.requests.length).toBeGreaterThan(0);
    // Protobuf, the default (OTEL_EXPORTER_OTLP_PROTOCOL unset): its strings are UTF-8 bytes as they are,
    // so a search of the bytes read one per character finds any ASCII value they hold.
    expect(receiver.requests.every((r) => r.path === '/v1/traces' && r.contentType === 'application/x-protobuf')).toBe(true);
    const exported = Buffer.concat(receiver.bodies).toString('latin1');
    expect(exported).toContain('faulty.getItem'); // the bytes hold the spans' text: a search in them means something
    for (const canary of [...t.canaries, INPUT_CANARY]) expect(exported.includes(canary), `a canary (${canary.slice(0, 6)}…) was exported`).toBe(false);
    expect(receiver.spans.every((s) => s.service === 'svc-engine')).toBe(true);
  });
});
