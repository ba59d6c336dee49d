// Paginated aggregates keep the provider's integers past 2^53 exactly on REST and gRPC (the text
// carries the provider's digits; a parse into doubles would round them), and the MCP sandbox
// still sees plain numbers.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';

// Pages as the providers write them (compact, so the aggregate's text is their items joined).
// 9007199254740993 is 2^53 + 1 and reads back as ...992; the long digit strings must stay strings.
const CRM_PAGES = [
  '{"data":[{"id":"con_1","n":9007199254740993,"small":7,"f":1.5,"phone":"12345678901234567890"}],"has_more":true}',
  '{"data":[{"id":"con_2","n":-12345678901234567890,"small":-3,"f":0.25}],"has_more":true}',
  '{"data":[{"id":"con_3","n":1,"small":0,"f":2.5}],"total":12345678901234567891,"has_more":false}',
];
const CRM_AGGREGATE =
  '{"data":[{"id":"con_1","n":9007199254740993,"small":7,"f":1.5,"phone":"12345678901234567890"},' +
  '{"id":"con_2","n":-12345678901234567890,"small":-3,"f":0.25},{"id":"con_3","n":1,"small":0,"f":2.5}],' +
  '"total":12345678901234567891,"has_more":false}';

/** Cursor pages whose continuation (the last item's ID) is itself an integer past 2^53. */
const BIG_CURSOR = '12345678901234567891';
const CURSOR_PAGES: Record<string, string> = {
  first: `{"data":[{"id":${BIG_CURSOR},"v":1.5}],"has_more":true}`,
  [BIG_CURSOR]: '{"data":[{"id":"con_last","v":2}],"has_more":false}',
};

const GITHUB_PAGES = ['[{"id":9007199254740993,"name":"a","stars":1.5}]', '[{"id":-12345678901234567890,"name":"b","stars":7}]', '[{"id":42,"name":"c","stars":0}]'];
const GITHUB_AGGREGATE = '[{"id":9007199254740993,"name":"a","stars":1.5},{"id":-12345678901234567890,"name":"b","stars":7},{"id":42,"name":"c","stars":0}]';

let t: TestEngine;
let crm: FakeProvider;
let github: FakeProvider;
let crmSdk: { versionId: string; token: string };
let ghSdk: { versionId: string; token: string };
let grpc: RawEngineClient;
let mcp: Client;
/** Which pages the fake CRM serves. */
let crmMode: 'aggregate' | 'cursor' | 'error' = 'aggregate';
/** An error answer whose body holds integers past 2^53 (a provider echoing the resource it refused). */
const ERROR_BODY = '{"error":{"type":"conflict","id":12345678901234567891,"small":7}}';

const raw = (res: import('node:http').ServerResponse, body: string, headers: Record<string, string> = {}) => {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(body);
};

beforeAll(async () => {
  crm = await startFakeProvider((req, res) => {
    const after = new URL(req.url, 'http://x').searchParams.get('starting_after');
    if (crmMode === 'error') {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(ERROR_BODY);
      return;
    }
    if (crmMode === 'cursor') return raw(res, CURSOR_PAGES[after ?? 'first'] ?? '{"data":[],"has_more":false}');
    raw(res, CRM_PAGES[after ? Number(after.slice(4)) : 0]!);
  });
  github = await startFakeProvider((req, res) => {
    const url = new URL(req.url, github.url);
    const page = Number(url.searchParams.get('page') ?? 1);
    const next = new URL(url);
    next.searchParams.set('page', String(page + 1));
    raw(res, GITHUB_PAGES[page - 1]!, page < GITHUB_PAGES.length ? { link: `<${next.href}>; rel="next"` } : {});
  });
  t = await startTestEngine({ SVC_GRPC_PORT: '0' });
  crmSdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: 'crm-key-precision', operations: ['contacts/list'] });
  ghSdk = await publishSdk(t, { name: 'gh', service: 'github', baseUrl: github.url, secret: 'gh-key-precision', operations: ['repos/list-for-org'] });
  grpc = new RawEngineClient(t.engine.grpcUrl);
  const server = (await t.api('POST', '/v1/mcp/publish', { name: 'precision', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] })).body;
  t.canaries.push(server.token);
  mcp = new Client({ name: 'precision-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
});

afterAll(async () => {
  await mcp?.close();
  grpc?.close();
  await t?.stop();
  await crm?.stop();
  await github?.stop();
});

/** The REST execution's reply as text: JSON.parse in the test would round the very digits under test. */
async function restText(sdk: { versionId: string; token: string }, body: unknown): Promise<string> {
  const res = await fetch(`${t.engine.url}/v1/apps/${sdk.versionId}/executions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.text();
}

const okEnvelope = (data: string) => `{"ok":true,"status":200,"data":${data},"error":null}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The newest receipt of the version: what the Engine recorded for the call just made. */
async function lastReceipt(versionId: string) {
  const receipts = (await t.api('GET', `/v1/versions/${versionId}/receipts`)).body.receipts;
  return receipts[0] as { operation: string; pages: number; bytes: number; sha256: string };
}

describe('paginated aggregates keep integers past 2^53 exactly', () => {
  it('cursor pagination: REST answers with the provider digits, and the receipt describes that text', async () => {
    crmMode = 'aggregate';
    const text = await restText(crmSdk, { operation: 'demo-crm.contacts/list', input: {} });
    expect(text).toBe(okEnvelope(CRM_AGGREGATE));
    expect(text).toContain('"n":9007199254740993,');
    expect(text).toContain('"n":-12345678901234567890,');
    const receipt = await lastReceipt(crmSdk.versionId);
    expect(receipt).toMatchObject({ operation: 'demo-crm.contacts/list', pages: 3 });
    expect(receipt.bytes).toBe(Buffer.byteLength(CRM_AGGREGATE));
    expect(receipt.sha256).toBe(sha256(CRM_AGGREGATE));
  });

  it('Link-header pagination: REST answers with the provider digits', async () => {
    const text = await restText(ghSdk, { operation: 'github.repos/list-for-org', input: { org: 'acme' } });
    expect(text).toBe(okEnvelope(GITHUB_AGGREGATE));
    const receipt = await lastReceipt(ghSdk.versionId);
    expect(receipt).toMatchObject({ operation: 'github.repos/list-for-org', pages: 3, bytes: Buffer.byteLength(GITHUB_AGGREGATE), sha256: sha256(GITHUB_AGGREGATE) });
  });

  it('a caller bound keeps the read pages exact too', async () => {
    const text = await restText(ghSdk, { operation: 'github.repos/list-for-org', input: { org: 'acme' }, pagination: { maxPages: 2 } });
    const more = ',"continuation":{"more":true,"input":{"page":3}}}';
    expect(text).toBe(okEnvelope('[{"id":9007199254740993,"name":"a","stars":1.5},{"id":-12345678901234567890,"name":"b","stars":7}]').slice(0, -1) + more);
  });

  it('gRPC carries the same exact aggregate text', async () => {
    crmMode = 'aggregate';
    const call = await grpc.execute(crmSdk.token, { versionId: crmSdk.versionId, operation: 'demo-crm.contacts/list' });
    expect(call.error).toBeUndefined();
    expect(call.wire).toMatchObject({ ok: true, status: 200 });
    expect(call.wire!.dataJson).toBe(CRM_AGGREGATE);
    const link = await grpc.execute(ghSdk.token, { versionId: ghSdk.versionId, operation: 'github.repos/list-for-org', inputJson: '{"org":"acme"}' });
    expect(link.wire!.dataJson).toBe(GITHUB_AGGREGATE);
  });

  it('follows a cursor past 2^53 with its exact digits', async () => {
    crmMode = 'cursor';
    const before = crm.requests.length;
    const text = await restText(crmSdk, { operation: 'demo-crm.contacts/list', input: {} });
    expect(crm.requests.slice(before).map((r) => new URL(r.url, 'http://x').searchParams.get('starting_after'))).toEqual([null, BIG_CURSOR]);
    expect(text).toBe(okEnvelope(`{"data":[{"id":${BIG_CURSOR},"v":1.5},{"id":"con_last","v":2}],"has_more":false}`));
  });

  it("keeps the digits of a provider's error body on REST and gRPC, at the page it failed", async () => {
    crmMode = 'error';
    const res = await fetch(`${t.engine.url}/v1/apps/${crmSdk.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${crmSdk.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'demo-crm.contacts/list', input: {} }),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain(`"details":{"providerBody":${ERROR_BODY},"page":1}`);
    const call = await grpc.execute(crmSdk.token, { versionId: crmSdk.versionId, operation: 'demo-crm.contacts/list' });
    expect(call.wire!.error!.detailsJson).toBe(`{"providerBody":${ERROR_BODY},"page":1}`);
    // The sandbox still gets plain numbers (the same as JSON.parse of the body).
    const code = 'const r = await call("demo-crm.contacts/list", {}); return [r.ok, typeof r.error.details.providerBody.error.id, r.error.details.providerBody.error.small];';
    const result = (await mcp.callTool({ name: 'execute', arguments: { code } })) as any;
    expect(result.structuredContent.result).toEqual([false, 'number', 7]);
    crmMode = 'aggregate';
  });

  it('hands the MCP sandbox plain numbers', async () => {
    crmMode = 'aggregate';
    const code = 'const r = await call("demo-crm.contacts/list", {}); return r.data.data.map((c) => [typeof c.n, c.n, c.small, c.f]).concat([[typeof r.data.total]]);';
    const result = (await mcp.callTool({ name: 'execute', arguments: { code } })) as any;
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent.result).toEqual([
      ['number', 9007199254740992, 7, 1.5],
      ['number', -12345678901234567000, -3, 0.25],
      ['number', 1, 0, 2.5],
      ['number'],
    ]);
  });
});
