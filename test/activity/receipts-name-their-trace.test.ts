// A receipt and a trace name each other while the Engine traces (src/telemetry): each receipt keeps
// the W3C trace ID its call ran in (the caller's, from its traceparent, sampled or not), the call's
// span carries the receipt's ID (`svc.receipt.id`), and `GET /v1/versions/{id}/receipts?trace_id=`
// and `svc-cli sdk activity --trace` list the receipts of one trace. Spans come from a real OTLP/HTTP
// receiver on loopback; an untraced Engine keeps no trace ID.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { faultyDescription, FAULTY_OPERATIONS, startFaultyProvider, type FaultyProvider } from '../fixtures/faulty-provider.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../fixtures/otlp-receiver.ts';
import { publishApps, withMcpClient, type ProviderApps } from '../fixtures/providers/app.ts';

const API_KEY = 'sk_live_canary_receipt_trace_91d2';

let receiver: OtlpReceiver;
let provider: FaultyProvider;
let t: TestEngine;
let apps: ProviderApps;
let user: CliUser;
/** The trace of the MCP execute below, for the CLI's `mcp activity`. */
let mcpTrace: string;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const traceparentOf = (traceId: string, sampled = true) => `00-${traceId}-${hex(8)}-${sampled ? '01' : '00'}`;

interface Receipt {
  id: string;
  operation: string;
  surface: string;
  traceId?: string;
}
const receiptsOf = async (engine: TestEngine, versionId: string, query = '') => {
  const res = await engine.api('GET', `/v1/versions/${versionId}/receipts${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { receipts: Receipt[]; next: string | null };
};
const executeRest = (versionId: string, token: string, id: string, traceparent?: string) =>
  fetch(`${t.url}/v1/apps/${versionId}/executions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(traceparent ? { traceparent } : {}) },
    body: JSON.stringify({ operation: 'faulty.getItem', input: { id } }),
  });
/** The trace ID the provider got in the traceparent of the request for item `id`. */
const sentTraceId = (id: string) => /^00-([0-9a-f]{32})-/.exec(String(provider.received.find((r) => r.id === id)?.headers.traceparent))?.[1];
const spansWithReceipt = (spans: ReceivedSpan[], receiptId: string) => spans.filter((s) => s.attributes['svc.receipt.id'] === receiptId);

async function importFaulty(engine: TestEngine, name: string): Promise<ProviderApps> {
  const imported = await engine.api('POST', '/v1/workspace/imports', { name: 'faulty', version: 'v1', document: faultyDescription(provider.url), auth: { type: 'api_key', in: 'header', name: 'x-api-key' } });
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  await pointService(engine, 'faulty', provider.url, API_KEY);
  return publishApps(engine, name, { services: ['faulty=v1'], operations: FAULTY_OPERATIONS.map((op) => `faulty=${op}`) });
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  provider = await startFaultyProvider();
  t = await startTestEngine({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' }); // exports every 50 ms, not 5 s
  t.canaries.push(API_KEY);
  apps = await importFaulty(t, 'linked');
  user = cliUser(t.url);
});
afterAll(async () => {
  user?.cleanup();
  await t?.stop();
  await provider?.stop();
  await receiver?.stop();
});

describe('a traced Engine', () => {
  it('REST: the receipt keeps the caller’s trace ID, and the request’s span names the receipt', async () => {
    const traceId = hex(16);
    expect((await executeRest(apps.sdk.versionId, apps.sdk.token, 'rest-linked', traceparentOf(traceId))).status).toBe(200);
    const { receipts, next } = await receiptsOf(t, apps.sdk.versionId, `?trace_id=${traceId}`);
    expect(receipts).toHaveLength(1);
    expect(next).toBeNull();
    expect(receipts[0]).toMatchObject({ operation: 'faulty.getItem', surface: 'rest', traceId });
    const spans = await receiver.waitFor((all) => spansWithReceipt(all, receipts[0]!.id).length > 0);
    expect(spansWithReceipt(spans, receipts[0]!.id)).toMatchObject([{ traceId, kind: 2, name: 'POST /v1/apps/{version_id}/executions' }]);
  });

  it('gRPC: a call without a traceparent keeps the trace the Engine started, the one its provider got', async () => {
    const client = new RawEngineClient(t.engine.grpcUrl);
    try {
      const call = await client.execute(apps.sdk.token, { versionId: apps.sdk.versionId, operation: 'faulty.getItem', inputJson: JSON.stringify({ id: 'grpc-linked' }) });
      expect(call.envelope).toMatchObject({ ok: true, status: 200 });
    } finally {
      client.close();
    }
    const traceId = sentTraceId('grpc-linked');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const { receipts } = await receiptsOf(t, apps.sdk.versionId, `?trace_id=${traceId}`);
    expect(receipts).toMatchObject([{ surface: 'grpc', traceId }]);
    const spans = await receiver.waitFor((all) => spansWithReceipt(all, receipts[0]!.id).length > 0);
    expect(spansWithReceipt(spans, receipts[0]!.id)).toMatchObject([{ traceId, name: 'svc.engine.v1.Engine/Execute' }]);
  });

  it('MCP: each call() of an execute has its receipt in the trace, named by that call’s span', async () => {
    const traceId = (mcpTrace = hex(16));
    const result = await withMcpClient(
      apps.mcp,
      async (client) =>
        ((await client.callTool({ name: 'execute', arguments: { code: `await call('faulty.getItem', { id: 'mcp-1' }); await call('faulty.getItem', { id: 'mcp-2' }); return 'done';` } })) as any)
          .structuredContent,
      { traceparent: traceparentOf(traceId) },
    );
    expect(result).toEqual({ result: 'done' });
    const { receipts } = await receiptsOf(t, apps.mcp.versionId, `?trace_id=${traceId}`);
    expect(receipts).toHaveLength(2);
    expect(receipts.every((r) => r.surface === 'mcp' && r.traceId === traceId)).toBe(true);
    const spans = await receiver.waitFor((all) => receipts.every((r) => spansWithReceipt(all, r.id).length > 0));
    for (const receipt of receipts) expect(spansWithReceipt(spans, receipt.id)).toMatchObject([{ traceId, name: 'call faulty.getItem' }]);
  });

  it('a trace the caller did not sample still names its receipts (its ID went to the provider), and exports nothing', async () => {
    const traceId = hex(16);
    expect((await executeRest(apps.sdk.versionId, apps.sdk.token, 'unsampled-linked', traceparentOf(traceId, false))).status).toBe(200);
    expect(sentTraceId('unsampled-linked')).toBe(traceId);
    expect((await receiptsOf(t, apps.sdk.versionId, `?trace_id=${traceId}`)).receipts).toMatchObject([{ traceId }]);
    // A sampled call made after it is exported: by then the unsampled one would have been too.
    const after = hex(16);
    await executeRest(apps.sdk.versionId, apps.sdk.token, 'after-unsampled', traceparentOf(after));
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === after));
    expect(spans.filter((s) => s.traceId === traceId)).toEqual([]);
  });

  it('lists a trace’s receipts a page at a time, newest first, and only that trace’s', async () => {
    const traceId = hex(16);
    for (const id of ['page-1', 'page-2', 'page-3']) expect((await executeRest(apps.sdk.versionId, apps.sdk.token, id, traceparentOf(traceId))).status).toBe(200);
    await executeRest(apps.sdk.versionId, apps.sdk.token, 'other-trace', traceparentOf(hex(16)));
    const all = (await receiptsOf(t, apps.sdk.versionId, `?trace_id=${traceId}`)).receipts;
    expect(all).toHaveLength(3);
    expect(all.map((r) => r.id)).toEqual([...all.map((r) => r.id)].sort().reverse());
    const first = await receiptsOf(t, apps.sdk.versionId, `?trace_id=${traceId}&limit=2`);
    expect(first.receipts.map((r) => r.id)).toEqual(all.slice(0, 2).map((r) => r.id));
    expect(first.next).toBe(all[1]!.id);
    const second = await receiptsOf(t, apps.sdk.versionId, `?trace_id=${traceId}&limit=2&before=${first.next}`);
    expect(second).toEqual({ receipts: [all[2]], next: null });
    // A trace with no call here: an empty page, not an error.
    expect(await receiptsOf(t, apps.sdk.versionId, `?trace_id=${hex(16)}`)).toEqual({ receipts: [], next: null });
  });

  it('refuses a trace_id that is not a W3C trace ID, naming the field', async () => {
    for (const bad of ['xyz', 'A'.repeat(32), '0'.repeat(31), `${'0'.repeat(32)}0`]) {
      const res = await t.api('GET', `/v1/versions/${apps.sdk.versionId}/receipts?trace_id=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(JSON.stringify(res.body.error)).toContain('trace_id');
    }
  });

  it('svc-cli sdk activity --trace lists a trace’s receipts, with their trace in a column', async () => {
    const traceId = hex(16);
    expect((await executeRest(apps.sdk.versionId, apps.sdk.token, 'cli-linked', traceparentOf(traceId))).status).toBe(200);
    const ref = `${apps.sdk.name}@${apps.sdk.version}`;
    const cli = (...args: string[]) => user.cli(args, { env: { SVC_CLI_TOKEN: t.cliToken } });
    // Viewers may show the ID in capitals: the CLI takes either case.
    const table = await cli('sdk', 'activity', ref, '--trace', traceId.toUpperCase());
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^STARTED\s+OPERATION\s+SURFACE\s+STATUS\s+OK\s+PROVIDER MS\s+PAGES\s+BYTES\s+ERROR\s+TRACE$/m);
    expect(table.stdout.trim().split('\n')).toHaveLength(2);
    expect(table.stdout).toMatch(new RegExp(`faulty\\.getItem\\s+rest\\s+200\\s+yes.*\\s${traceId}$`, 'm'));
    const json = JSON.parse((await cli('sdk', 'activity', ref, '--trace', traceId, '--json')).stdout);
    expect(json.receipts).toMatchObject([{ operation: 'faulty.getItem', traceId }]);
    const none = await cli('sdk', 'activity', ref, '--trace', hex(16));
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('in trace');
    const bad = await cli('sdk', 'activity', ref, '--trace', 'not-a-trace');
    expect(bad.code).toBe(2);
    expect(oneErrorLine(bad.stderr)).toContain('--trace must be a W3C trace ID');
  });

  it('svc-cli mcp activity shows an MCP server’s receipts: its active version by name, or a version named', async () => {
    const cli = (...args: string[]) => user.cli(args, { env: { SVC_CLI_TOKEN: t.cliToken } });
    const name = apps.mcp.name;
    const byName = JSON.parse((await cli('mcp', 'activity', name, '--trace', mcpTrace, '--json')).stdout);
    expect(byName).toMatchObject({ name, version: apps.mcp.version, versionId: apps.mcp.versionId });
    expect(byName.receipts).toHaveLength(2);
    expect(byName.receipts.every((r: Receipt) => r.surface === 'mcp' && r.traceId === mcpTrace)).toBe(true);
    const byVersion = JSON.parse((await cli('mcp', 'activity', `${name}@${apps.mcp.version}`, '--json')).stdout);
    expect(byVersion.versionId).toBe(apps.mcp.versionId);
    const table = await cli('mcp', 'activity', name, '--limit', '1');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/faulty\.getItem\s+mcp\s+200\s+yes/);
    // The next page names the version shown, not "the active one", which may change between pages.
    expect(table.stderr).toContain(`Older receipts: svc-cli mcp activity ${name}@${apps.mcp.version} --before rcp_`);
    const unknown = await cli('mcp', 'activity', 'no-such-agent');
    expect(unknown.code).not.toBe(0);
    expect(oneErrorLine(unknown.stderr)).toContain('no MCP server named no-such-agent');
    const noVersion = await cli('mcp', 'activity', `${name}@9.9.9`);
    expect(oneErrorLine(noVersion.stderr)).toContain(`has no version 9.9.9 (versions: ${apps.mcp.version})`);
    const malformed = await cli('mcp', 'activity', 'Not An Agent');
    expect(malformed.code).toBe(2);
    expect(oneErrorLine(malformed.stderr)).toContain('is not <mcp_name> or <mcp_name>@<version>');
  });
});

describe('an untraced Engine', () => {
  it('keeps no trace ID on its receipts, even when the caller sent a traceparent', async () => {
    await t.stop(); // one Engine per process traces (src/telemetry/setup.ts): the traced one stops first
    const plain = await startTestEngine({ OTEL_EXPORTER_OTLP_ENDPOINT: '' });
    try {
      plain.canaries.push(API_KEY);
      const app = await importFaulty(plain, 'untraced');
      const traceId = hex(16);
      const res = await fetch(`${plain.url}/v1/apps/${app.sdk.versionId}/executions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.sdk.token}`, 'content-type': 'application/json', traceparent: traceparentOf(traceId) },
        body: JSON.stringify({ operation: 'faulty.getItem', input: { id: 'untraced' } }),
      });
      expect(res.status).toBe(200);
      const { receipts } = await receiptsOf(plain, app.sdk.versionId);
      expect(receipts).toHaveLength(1);
      expect(receipts[0]).not.toHaveProperty('traceId');
      expect((await receiptsOf(plain, app.sdk.versionId, `?trace_id=${traceId}`)).receipts).toEqual([]);
    } finally {
      await plain.stop();
    }
  });
});
