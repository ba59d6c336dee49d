// The OpenTelemetry SDK's standard variables, as an operator sets them for a collector, against a
// real OTLP/HTTP receiver on loopback (test/fixtures/otlp-receiver.ts): the traces endpoint used as
// is, headers sent with each export (a collector's API key: a canary that no log line, error,
// /metrics answer, config dump or span may hold), gzip, OTLP JSON instead of the default protobuf
// (OTEL_EXPORTER_OTLP_PROTOCOL), and the samplers of OTEL_TRACES_SAMPLER.
// Bad values stop loadConfig with one line naming the variable, never echoing a secret.
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishFaulty, startFaultyProvider, type FaultyProvider } from '../fixtures/faulty-provider.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../fixtures/otlp-receiver.ts';

const COLLECTOR_KEY = 'otlp_key_canary_3b9e1d';
const TEAM_KEY = 'team canary/8a7c';

let receiver: OtlpReceiver;
/** Where OTEL_EXPORTER_OTLP_ENDPOINT points while OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set too: it must get nothing. */
let ignored: OtlpReceiver;
let provider: FaultyProvider;

beforeAll(async () => {
  [receiver, ignored, provider] = await Promise.all([startOtlpReceiver(), startOtlpReceiver(), startFaultyProvider()]);
});
afterAll(async () => {
  await Promise.all([receiver?.stop(), ignored?.stop(), provider?.stop()]);
});

const traceIdOf = (traceparent: unknown) => /^00-([0-9a-f]{32})-[0-9a-f]{16}-0([01])$/.exec(String(traceparent));
const requestsFor = (id: string) => provider.received.filter((r) => r.id === id);

/** An Engine with `env`, the faulty provider imported and published; `calls` runs REST executions against it, then it stops. */
async function withEngine(env: Record<string, string>, calls: (t: TestEngine, call: (id: string, headers?: Record<string, string>) => Promise<void>) => Promise<void>): Promise<TestEngine> {
  const t = await startTestEngine(env);
  try {
    t.canaries.push(COLLECTOR_KEY, encodeURIComponent(TEAM_KEY), TEAM_KEY);
    const app = await publishFaulty(t, 'faulty', provider.url);
    await calls(t, async (id, headers = {}) => {
      const res = await fetch(`${t.url}/v1/apps/${app.versionId}/executions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ operation: 'faulty.getItem', input: { id } }),
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    });
  } finally {
    await t.stop(); // flushes the batch; fails if a canary reached a log line
  }
  return t;
}

describe('the exporter settings', () => {
  // JSON is the SDK's exporter; protobuf the SDK's HTTP export path with the Engine's serializer (src/telemetry/otlp-protobuf.ts).
  it.each([
    ['JSON', 'http/json', 'tenant-7', /^application\/json/],
    ['protobuf', 'http/protobuf', 'tenant-8', /^application\/x-protobuf/],
  ] as const)('sends to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, gzipped %s, with the headers of both variables, which nothing else holds', async (label, protocol, tenant, contentType) => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: ignored.url,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/${tenant}/traces`,
      OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${COLLECTOR_KEY},x-team=overridden`,
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: ` X-Team = ${encodeURIComponent(TEAM_KEY)} `,
      OTEL_EXPORTER_OTLP_COMPRESSION: 'none',
      OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip',
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol === 'http/json' ? 'http/protobuf' : 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol,
    };
    // A config dump (JSON, or util.inspect as console.log and pino print objects) shows no header value.
    const config = loadConfig(env);
    expect(config.otlpTraces).toMatchObject({ url: `${receiver.url}/${tenant}/traces`, compression: 'gzip', protocol, sampler: { name: 'parentbased_always_on' } });
    expect(config.otlpTraces!.headers.values()).toEqual({ 'x-api-key': COLLECTOR_KEY, 'x-team': TEAM_KEY });
    for (const dump of [JSON.stringify(config), inspect(config, { depth: 10, showHidden: true })]) {
      expect(dump).toContain('2 secret header(s)');
      for (const canary of [COLLECTOR_KEY, TEAM_KEY, encodeURIComponent(TEAM_KEY)]) expect(dump).not.toContain(canary);
    }

    let metrics = '';
    await withEngine(env, async (t, call) => {
      await call(`gzipped ${label}`);
      metrics = await (await fetch(`${t.url}/metrics`)).text();
    });
    const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(requestsFor(`gzipped ${label}`)[0]!.headers.traceparent))!;
    const traceId = sent[1];
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === traceId && s.kind === 2));
    // Either encoding decodes to the same tree (test/telemetry/otlp-traces.test.ts): the request, its provider attempt under it.
    const request = spans.find((s) => s.traceId === traceId && s.kind === 2)!;
    expect(request).toMatchObject({ name: 'POST /v1/apps/{version_id}/executions', parentSpanId: '', service: 'svc-engine', attributes: { 'svc.operation': 'faulty.getItem', 'svc.status': 200, 'http.response.status_code': 200 } });
    expect(spans.filter((s) => s.parentSpanId === request.spanId)).toMatchObject([{ spanId: sent[2], name: 'GET', kind: 3, attributes: { 'http.response.status_code': 200, 'server.address': '127.0.0.1' } }]);
    expect(ignored.requests).toEqual([]);
    const mine = receiver.requests.flatMap((r, i) => (r.path.startsWith(`/${tenant}/`) ? [i] : []));
    expect(mine.length).toBeGreaterThan(0);
    for (const r of mine.map((i) => receiver.requests[i]!)) {
      expect(r).toMatchObject({ path: `/${tenant}/traces`, contentEncoding: 'gzip' });
      expect(r.contentType).toMatch(contentType);
      expect(r.headers['x-api-key']).toBe(COLLECTOR_KEY);
      expect(r.headers['x-team']).toBe(TEAM_KEY); // percent-decoded; the traces variable wins
    }
    // The receiver gunzipped the bodies: readable spans, and none holds a header value.
    const exported = Buffer.concat(mine.map((i) => receiver.bodies[i]!)).toString('utf8');
    expect(exported).toContain('faulty.getItem');
    expect(metrics).toContain('svc_requests_total');
    for (const canary of [COLLECTOR_KEY, TEAM_KEY, encodeURIComponent(TEAM_KEY)]) {
      expect(exported.includes(canary), 'a header value was exported on a span').toBe(false);
      expect(metrics.includes(canary), 'a header value is on /metrics').toBe(false);
      expect(provider.received.some((r) => JSON.stringify(r.headers).includes(canary)), 'a header value reached the provider').toBe(false);
    }
  });
});

describe('OTEL_TRACES_SAMPLER', () => {
  const sampledParent = () => {
    const traceId = randomBytes(16).toString('hex');
    return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
  };
  const exportedTrace = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);

  it('traceidratio with OTEL_TRACES_SAMPLER_ARG=0 exports nothing, even under a sampled caller', async () => {
    const caller = sampledParent();
    await withEngine({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' }, async (_t, call) => {
      await call('ratio-0-root');
      await call('ratio-0-child', { traceparent: caller.traceparent });
    });
    // The provider still gets the trace context, marked not sampled.
    const root = traceIdOf(requestsFor('ratio-0-root')[0]!.headers.traceparent)!;
    const child = traceIdOf(requestsFor('ratio-0-child')[0]!.headers.traceparent)!;
    expect([root[2], child[1], child[2]]).toEqual(['0', caller.traceId, '0']);
    expect([...exportedTrace(root[1]!), ...exportedTrace(caller.traceId)]).toEqual([]);
  });

  it('parentbased_traceidratio with 0 exports no trace of its own but honours a sampled caller', async () => {
    const caller = sampledParent();
    await withEngine({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.0' }, async (_t, call) => {
      await call('parent-0-root');
      await call('parent-0-child', { traceparent: caller.traceparent });
    });
    const root = traceIdOf(requestsFor('parent-0-root')[0]!.headers.traceparent)!;
    expect(root[2]).toBe('0');
    expect(exportedTrace(root[1]!)).toEqual([]);
    expect(traceIdOf(requestsFor('parent-0-child')[0]!.headers.traceparent)!.slice(1)).toEqual([caller.traceId, '1']);
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === caller.traceId && s.kind === 2));
    expect(spans.filter((s) => s.traceId === caller.traceId).map((s) => s.name)).toEqual(expect.arrayContaining(['POST /v1/apps/{version_id}/executions', 'GET']));
  });
});

describe('bad values', () => {
  const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
  it.each([
    ['a traces endpoint that is not http(s)', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `grpc://u:${COLLECTOR_KEY}@collector:4317` }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL'],
    ['a traces endpoint with a fragment', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `https://collector/v1/traces#${COLLECTOR_KEY}` }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL'],
    ['a header without a name', { ...on, OTEL_EXPORTER_OTLP_HEADERS: `x-team=core,${COLLECTOR_KEY}` }, 'OTEL_EXPORTER_OTLP_HEADERS entry 2 must be name=value'],
    ['a header name with a space', { ...on, OTEL_EXPORTER_OTLP_TRACES_HEADERS: `api key=${COLLECTOR_KEY}` }, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS entry 1 must be name=value'],
    ['a header value that is not percent-encoding', { ...on, OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${COLLECTOR_KEY}%zz` }, 'OTEL_EXPORTER_OTLP_HEADERS entry 1 must be name=value'],
    ['a header value with a line break', { ...on, OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${COLLECTOR_KEY}%0d%0aX-Evil: 1` }, 'OTEL_EXPORTER_OTLP_HEADERS entry 1 must be name=value'],
    ['an unknown compression', { ...on, OTEL_EXPORTER_OTLP_COMPRESSION: 'brotli' }, "OTEL_EXPORTER_OTLP_COMPRESSION must be gzip or none (got 'brotli')"],
    ['an unknown traces compression', { ...on, OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'GZIP' }, "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION must be gzip or none (got 'GZIP')"],
    ['an unknown protocol', { ...on, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf2' }, "OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (got 'http/protobuf2')"],
    ['grpc, which the Engine does not speak', { ...on, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc is not supported: the Engine exports OTLP over HTTP'],
    ['an unknown sampler', { ...on, OTEL_TRACES_SAMPLER: 'jaeger_remote' }, "OTEL_TRACES_SAMPLER must be one of parentbased_always_on, always_on, always_off, traceidratio, parentbased_always_off, parentbased_traceidratio (got 'jaeger_remote')"],
    ['a ratio above 1', { ...on, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, "OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 for traceidratio, such as 0.1 for 1 trace in 10 (got '1.5')"],
    ['a ratio that is no number', { ...on, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '10%' }, "OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 for parentbased_traceidratio"],
    ['a queue size that is no whole number', { ...on, OTEL_BSP_MAX_QUEUE_SIZE: '2k' }, "OTEL_BSP_MAX_QUEUE_SIZE must be a whole number of spans from 1 (got '2k')"],
    ['an export delay of 0', { ...on, OTEL_BSP_SCHEDULE_DELAY: '0' }, "OTEL_BSP_SCHEDULE_DELAY must be a whole number of milliseconds from 1 to 2147483647 (got '0')"],
    ['a negative export timeout', { ...on, OTEL_BSP_EXPORT_TIMEOUT: '-5' }, "OTEL_BSP_EXPORT_TIMEOUT must be a whole number of milliseconds from 1 to 2147483647 (got '-5')"],
    // Past a Node timer's limit, setTimeout fires after 1 ms: every export would time out at once.
    ['an export timeout past a timer', { ...on, OTEL_BSP_EXPORT_TIMEOUT: '3000000000' }, "OTEL_BSP_EXPORT_TIMEOUT must be a whole number of milliseconds from 1 to 2147483647 (got '3000000000')"],
    ['an export delay past a timer', { ...on, OTEL_BSP_SCHEDULE_DELAY: '2147483648' }, 'OTEL_BSP_SCHEDULE_DELAY must be a whole number of milliseconds from 1 to 2147483647'],
    ['a batch larger than the queue', { ...on, OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512' }, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE (512) must not exceed OTEL_BSP_MAX_QUEUE_SIZE (100)'],
  ])('%s: refused naming the variable, no secret echoed', (_name, env, message) => {
    let error: Error | undefined;
    try {
      loadConfig(env);
    } catch (err) {
      error = err as Error;
    }
    expect(error?.name).toBe('ConfigError');
    expect(error!.message).toContain(message);
    expect(error!.message).not.toContain(COLLECTOR_KEY);
  });

  it('are read only when tracing is on: with no endpoint, no OTEL_* variable stops the start', () => {
    expect(loadConfig({ OTEL_TRACES_SAMPLER: 'jaeger_remote', OTEL_EXPORTER_OTLP_HEADERS: 'nonsense', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).otlpTraces).toBeUndefined();
  });
});

describe('the protocol', () => {
  it('is http/protobuf by default (as the specification says), OTEL_EXPORTER_OTLP_PROTOCOL otherwise, and the traces variable wins', () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(loadConfig(on).otlpTraces!.protocol).toBe('http/protobuf');
    expect(loadConfig({ ...on, OTEL_EXPORTER_OTLP_PROTOCOL: ' http/json ' }).otlpTraces!.protocol).toBe('http/json');
    expect(loadConfig({ ...on, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }).otlpTraces!.protocol).toBe('http/protobuf');
    expect(loadConfig({ ...on, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }).otlpTraces!.protocol).toBe('http/json');
  });
});

describe('the traces URL', () => {
  it('is OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, which turns tracing on alone, or the base endpoint (its path kept) with /v1/traces', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/otlp?tenant=7' }).otlpTraces).toMatchObject({
      url: 'https://collector.example/otlp?tenant=7',
      urlVariable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      compression: 'none',
      protocol: 'http/protobuf',
      sampler: { name: 'parentbased_always_on', ratio: 1 },
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/otlp/' }).otlpTraces).toMatchObject({ url: 'http://collector:4318/otlp/v1/traces', urlVariable: 'OTEL_EXPORTER_OTLP_ENDPOINT' });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '.25' }).otlpTraces!.sampler).toEqual({ name: 'parentbased_traceidratio', ratio: 0.25 });
  });
});

describe('the batch queue (OTEL_BSP_*)', () => {
  it("has the specification's defaults, takes each variable, and a smaller queue makes the default batch no larger", () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(loadConfig(on).otlpTraces!.batch).toEqual({ maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 5000, exportTimeoutMillis: 30_000 });
    const set = { ...on, OTEL_BSP_MAX_QUEUE_SIZE: '4096', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: ' 1024 ', OTEL_BSP_SCHEDULE_DELAY: '250', OTEL_BSP_EXPORT_TIMEOUT: '10000' };
    expect(loadConfig(set).otlpTraces!.batch).toEqual({ maxQueueSize: 4096, maxExportBatchSize: 1024, scheduledDelayMillis: 250, exportTimeoutMillis: 10_000 });
    expect(loadConfig({ ...on, OTEL_BSP_MAX_QUEUE_SIZE: '100' }).otlpTraces!.batch.maxExportBatchSize).toBe(100);
  });
});
