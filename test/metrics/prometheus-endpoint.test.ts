// GET /metrics: Prometheus text through prom-client, unauthenticated. After REST executions,
// control-plane calls, gRPC executions, MCP executes (inline, stored, refused) and an OAuth refresh,
// the counters for each moved by what was done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DemoProvider } from '../../src/demo-provider/index.ts';
import { startCrmApp, type PublishedApp } from '../fixtures/apps.ts';
import type { TestEngine } from '../fixtures/engine.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';
import { consent } from '../fixtures/oauth.ts';

const CLIENT_SECRET = 'metrics-oauth-client-secret-canary';
let fx: PublishedApp<DemoProvider>;
let t: TestEngine;
let crm: DemoProvider;
let sdk: { versionId: string; token: string };
let mcpServer: { url: string; token: string };

beforeAll(async () => {
  fx = await startCrmApp({ operations: ['account/get'], oauthClient: { id: 'svc-metrics', secret: CLIENT_SECRET, accessTokenTtlSeconds: 61 } });
  ({ t, provider: crm, sdk } = fx);
  const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'alice' });
  expect((await consent(started.body.authorizeUrl, 'alice@crm')).status).toBe(200);
  mcpServer = (await t.api('POST', '/v1/mcp/publish', { name: 'metered', services: ['demo-crm=v1'], operations: ['demo-crm=account/get'] })).body;
  t.canaries.push(mcpServer.token);
});
afterAll(() => fx?.stop());

type Samples = Map<string, number>;

/** Parses the exposition text into `name{a="x",b="y"}` (labels sorted) → value. */
function parse(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels = [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => `${k}="${v}"`).sort();
    samples.set(`${m[1]}{${labels.join(',')}}`, Number(m[3]));
  }
  return samples;
}

const key = (name: string, labels: Record<string, string> = {}) =>
  `${name}{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',')}}`;

async function scrape(): Promise<{ samples: Samples; res: Response }> {
  const res = await fetch(`${t.url}/metrics`);
  return { samples: parse(await res.text()), res };
}

const value = (s: Samples, name: string, labels?: Record<string, string>) => s.get(key(name, labels)) ?? 0;

describe('GET /metrics', () => {
  it('serves Prometheus text without credentials', async () => {
    const { res, samples } = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(samples.has(key('process_cpu_user_seconds_total'))).toBe(true);
  });

  it('counts requests per surface, execute outcomes, snapshot bytes and OAuth refreshes', async () => {
    const before = (await scrape()).samples;

    // REST: three executions, one of which refreshes alice's expired OAuth token first.
    const row = (await t.engine.store.getConnection('demo-crm', 'alice', 'default'))!;
    await t.engine.store.updateConnectionTokens(row.id, row.generation, { tokens: row.tokens, status: row.status, accessExpiresAt: new Date(Date.now() - 1000).toISOString(), updatedAt: row.updatedAt });
    const refreshesBefore = crm.oauth.tokenRequests.refresh_token;
    for (const selectors of [{ endUserRef: 'alice' }, undefined, undefined]) {
      const res = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, ...(selectors ? { selectors } : {}) });
      expect(res.status).toBe(200);
    }
    expect(crm.oauth.tokenRequests.refresh_token - refreshesBefore).toBe(1);
    // Control plane: two calls, one refused.
    expect((await t.api('GET', '/v1/workspace/services')).status).toBe(200);
    expect((await t.api('GET', '/v1/sdks/nope/versions')).status).toBe(404);
    // gRPC: one execution, one refused token.
    const grpc = new RawEngineClient(t.engine.grpcUrl);
    expect((await grpc.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.account/get' })).envelope?.ok).toBe(true);
    expect((await grpc.execute('svc_sdk_wrong', { versionId: sdk.versionId, operation: 'demo-crm.account/get' })).envelope?.status).toBe(401);
    grpc.close();

    // MCP: an inline result, a stored snapshot and a syntax error.
    const client = new Client({ name: 'metrics', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpServer.url), { requestInit: { headers: { authorization: `Bearer ${mcpServer.token}` } } }));
    const execute = async (code: string) => ((await client.callTool({ name: 'execute', arguments: { code } })) as any).structuredContent;
    expect(await execute('return 1 + 1')).toEqual({ result: 2 });
    expect((await execute('return "s".repeat(40000)')).code).toBe('MCP_RESULT_STORED');
    expect((await execute('return (')).code).toBe('MCP_SCRIPT_SYNTAX_ERROR');
    await client.close();

    // Requests are counted when their response ends: poll until the last ones are in.
    let after = before;
    const delta = (name: string, labels?: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    for (let i = 0; i < 50 && delta('svc_requests_total', { surface: 'mcp', status: '200' }) < 4; i++) {
      after = (await scrape()).samples;
      await new Promise((r) => setTimeout(r, 20));
    }
    after = (await scrape()).samples;

    expect(delta('svc_requests_total', { surface: 'rest', status: '200' })).toBe(3);
    expect(delta('svc_request_duration_seconds_count', { surface: 'rest' })).toBe(3);
    expect(delta('svc_request_duration_seconds_sum', { surface: 'rest' })).toBeGreaterThan(0);
    // Buckets are cumulative, end at +Inf = count, and never decrease toward larger bounds.
    const bounds = ['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '30', '+Inf'];
    const buckets = bounds.map((le) => value(after, 'svc_request_duration_seconds_bucket', { surface: 'rest', le }));
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]).toBeGreaterThanOrEqual(buckets[i - 1]!);
    expect(buckets.at(-1)).toBe(value(after, 'svc_request_duration_seconds_count', { surface: 'rest' }));
    expect(delta('svc_request_duration_seconds_bucket', { surface: 'rest', le: '30' })).toBe(3);
    expect(delta('svc_requests_total', { surface: 'control_plane', status: '200' })).toBe(1);
    expect(delta('svc_requests_total', { surface: 'control_plane', status: '404' })).toBe(1);
    expect(delta('svc_requests_total', { surface: 'grpc', status: '200' })).toBe(1);
    expect(delta('svc_requests_total', { surface: 'grpc', status: '401' })).toBe(1);
    expect(delta('svc_request_duration_seconds_count', { surface: 'grpc' })).toBe(2);
    // initialize, notifications/initialized, three tools/call, and the close's DELETE at least
    expect(delta('svc_requests_total', { surface: 'mcp', status: '200' })).toBeGreaterThanOrEqual(4);
    expect(delta('svc_request_duration_seconds_count', { surface: 'mcp' })).toBeGreaterThanOrEqual(5);
    expect(delta('svc_requests_total', { surface: 'other', status: '200' })).toBeGreaterThanOrEqual(1); // the scrapes themselves

    expect(delta('svc_execute_outcomes_total', { code: 'OK' })).toBe(1);
    expect(delta('svc_execute_outcomes_total', { code: 'MCP_RESULT_STORED' })).toBe(1);
    expect(delta('svc_execute_outcomes_total', { code: 'MCP_SCRIPT_SYNTAX_ERROR' })).toBe(1);
    expect(delta('svc_snapshot_bytes_stored_total')).toBe(40002);
    expect(delta('svc_oauth_refreshes_total', { result: 'refreshed' })).toBe(1);
    expect(delta('svc_oauth_refreshes_total', { result: 'failed' })).toBe(0);
  });

  it('drops held snapshot bytes when the MCP session ends', async () => {
    const client = new Client({ name: 'metrics', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(mcpServer.url), { requestInit: { headers: { authorization: `Bearer ${mcpServer.token}` } } });
    await client.connect(transport);
    const before = value((await scrape()).samples, 'svc_snapshot_bytes');
    expect((((await client.callTool({ name: 'execute', arguments: { code: 'return "h".repeat(30000)' } })) as any).structuredContent).code).toBe('MCP_RESULT_STORED');
    expect(value((await scrape()).samples, 'svc_snapshot_bytes') - before).toBe(30002);
    await transport.terminateSession();
    await client.close();
    expect(value((await scrape()).samples, 'svc_snapshot_bytes')).toBe(before);
  });
});
