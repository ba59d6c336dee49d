// Provider pagination traversal at its limits (docs/guides/recipes.md, Pagination): a later page
// that fails keeps what was read on the receipt and names the page; a
// caller bound that stops early says so, with the input that reads on, over REST, MCP and gRPC.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider, type RecordedRequest } from '../fixtures/fake-provider.ts';
import { openSession, rawMcp } from '../fixtures/mcp.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';

type Handler = (req: RecordedRequest, res: ServerResponse, socket: Socket) => void;

/** REST result cap of this Engine: small, so a few pages of 20 KB cross it. */
const CAP = 64 * 1024;

let t: TestEngine;
let crm: FakeProvider;
let gh: FakeProvider;
let offsets: FakeProvider;
let crmSdk: { versionId: string; token: string };
let ghSdk: { versionId: string; token: string };
let crmHandler: Handler;

/** demo-crm cursor pages (starting_after / has_more): page k holds con_k; `pad` bytes of filler per item. */
const cursorPage = (req: RecordedRequest, res: ServerResponse, total: number, pad = 0) => {
  const after = new URL(req.url, 'http://x').searchParams.get('starting_after');
  const page = after ? Number(after.slice(4)) : 0;
  json(res, 200, { data: [{ id: `con_${page + 1}`, pad: 'x'.repeat(pad) }], has_more: page + 1 < total });
};
const pageOf = (req: RecordedRequest) => {
  const after = new URL(req.url, 'http://x').searchParams.get('starting_after');
  return after ? Number(after.slice(4)) + 1 : 1;
};

beforeAll(async () => {
  crm = await startFakeProvider((req, res, socket) => crmHandler(req, res, socket));
  // GitHub-style Link-header pages: page k of 5 holds { id: k }.
  gh = await startFakeProvider((req, res) => {
    const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 1);
    json(res, 200, [{ id: page }], page < 5 ? { link: `<${gh.url}/orgs/acme/repos?page=${page + 1}>; rel="next", <${gh.url}/orgs/acme/repos?page=5>; rel="last"` } : {});
  });
  // Offset-style pages of 2 items over 7 items (0..6).
  offsets = await startFakeProvider((req, res) => {
    const q = new URL(req.url, 'http://x').searchParams;
    const offset = Number(q.get('offset') ?? 0);
    json(res, 200, { items: Array.from({ length: Math.max(0, Math.min(2, 7 - offset)) }, (_, i) => offset + i) });
  });
  t = await startTestEngine({ SVC_REST_MAX_RESULT_BYTES: String(CAP), SVC_PROVIDER_TIMEOUT_MS: '1500' });
  crmSdk = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: 'crm-review-key-5d2e', operations: ['contacts/list'] });
  ghSdk = await publishSdk(t, { name: 'gh', service: 'github', baseUrl: gh.url, secret: 'gh-review-key-9b41', operations: ['repos/list-for-org'] });
});

afterAll(async () => {
  await t?.stop();
  await crm?.stop();
  await gh?.stop();
  await offsets?.stop();
});

/** The newest receipt of a version: what the Engine recorded for the call just made. */
const lastReceipt = async (versionId: string) =>
  (await t.api('GET', `/v1/versions/${versionId}/receipts?limit=1`)).body.receipts[0] as { operation: string; pages: number; bytes: number; providerDurationMs: number; errorCode: string | null };

const listContacts = () => t.execute(crmSdk.versionId, crmSdk.token, { operation: 'demo-crm.contacts/list', input: {} });

describe('pagination at its limits', () => {
  it('keeps the pages read (receipt pages, provider time, failing page) when a later page fails with a reset, a timeout or the result cap', async () => {
    // Before: only a later-page error with provider_execution 'not_started' kept the pages read; a reset,
    // a timeout or the shared result cap was recorded as if nothing had reached the provider.
    const cases: [string, Handler, number, number][] = [
      // page 3's connection is reset mid-request: pages 1-2 were read; a GET is sent again after a
      // reset (src/execution/retry.ts), so page 3 goes out three times
      ['reset', (req, res, socket) => (pageOf(req) === 3 ? void socket.destroy() : cursorPage(req, res, 5)), 3, 5],
      // page 3 never answers: the traversal's deadline passes with pages 1-2 read, no time left to retry
      ['timeout', (req, res) => (pageOf(req) === 3 ? undefined : cursorPage(req, res, 5)), 3, 3],
      // ~20 KB pages under a 64 KiB cap: pages 1-3 fit, page 4 crosses the cap shared by all pages
      ['cap', (req, res) => cursorPage(req, res, 6, 20_000), 4, 4],
    ];
    for (const [name, handler, failingPage, requests] of cases) {
      crmHandler = handler;
      const before = crm.requests.length;
      const res = await listContacts();
      expect(crm.requests.length - before, name).toBe(requests);
      expect(res.body.ok, name).toBe(false);
      const receipt = await lastReceipt(crmSdk.versionId);
      expect(receipt.operation).toBe('demo-crm.contacts/list');
      expect({ name, pages: receipt.pages, timed: receipt.providerDurationMs > 0, bytes: receipt.bytes > 0 }).toEqual({ name, pages: failingPage - 1, timed: true, bytes: true });
      expect(res.body.error.details, name).toMatchObject({ page: failingPage });
      expect(res.body.error.details.provider_execution, name).toBe(name === 'cap' ? 'completed' : 'unknown');
    }
  });

  it('tells the caller that more pages follow when a caller bound stops a Link-header or offset traversal', async () => {
    // docs/guides/recipes.md, Pagination: "With a caller bound N: at most N pages, returned with the provider's continuation left
    // intact". A Link header's continuation is the header itself, which the envelope cannot carry: it
    // says `more`, with the declared query parameter the next link changes (GitHub's page).
    const bounded = await t.execute(ghSdk.versionId, ghSdk.token, { operation: 'github.repos/list-for-org', input: { org: 'acme' }, pagination: { maxPages: 2 } });
    expect(bounded.body).toMatchObject({ ok: true, data: [{ id: 1 }, { id: 2 }] });
    expect(bounded.body.continuation).toEqual({ more: true, input: { page: 3 } });
    // Reading on with that input gives the next pages; the last of them carries no continuation.
    const rest = await t.execute(ghSdk.versionId, ghSdk.token, { operation: 'github.repos/list-for-org', input: { org: 'acme', page: 3 }, pagination: { maxPages: 5 } });
    expect(rest.body).toMatchObject({ ok: true, data: [{ id: 3 }, { id: 4 }, { id: 5 }] });
    expect(rest.body).not.toHaveProperty('continuation');
    // A plain call (no bound) reads to the end: no continuation either.
    const all = await t.execute(ghSdk.versionId, ghSdk.token, { operation: 'github.repos/list-for-org', input: { org: 'acme' } });
    expect(all.body.data).toHaveLength(5);
    expect(all.body).not.toHaveProperty('continuation');

    // Offset style (an imported service whose operation gets an offset policy, as an engine.yaml would give it).
    const name = 'offsets';
    const document = {
      openapi: '3.0.3',
      info: { title: name, version: '1' },
      servers: [{ url: offsets.url }],
      paths: { '/items': { get: { operationId: 'list', parameters: [{ name: 'offset', in: 'query', schema: { type: 'integer' } }], responses: { '200': { description: 'ok' } } } } },
    };
    const imported = await t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document: JSON.stringify(document), auth: { type: 'api_key', in: 'header', name: 'X-Key' } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const sdk = await publishSdk(t, { name, service: name, baseUrl: offsets.url, secret: 'offsets-review-key-77c3', operations: ['list'] });
    const op = t.engine.deps.catalog.operation(name, 'v1', `${name}.list`)!;
    op.pagination = { style: 'offset', pageInput: 'offset', items: '/items', engineMaxPages: 10, callerBound: true };
    const offsetBounded = await t.execute(sdk.versionId, sdk.token, { operation: `${name}.list`, input: {}, pagination: { maxPages: 2 } });
    expect(offsetBounded.body).toMatchObject({ ok: true, data: { items: [0, 1, 2, 3] } });
    expect(offsetBounded.body.continuation).toEqual({ more: true, input: { offset: 4 } });
  });

  it('says more pages follow over MCP call() and gRPC too', async () => {
    const server = (await t.api('POST', '/v1/mcp/publish', { name: 'gh-mcp', services: ['github=v1'], operations: ['github=repos/list-for-org'] })).body;
    t.canaries.push(server.token);
    const mcp = rawMcp(server.url, server.token);
    const headers = await openSession(mcp);
    const code = 'const r = await call("github.repos/list-for-org", { org: "acme" }, { pagination: { maxPages: 2 } }); return { n: r.data.length, continuation: r.continuation }';
    const answer = await mcp.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'execute', arguments: { code } } }, headers);
    expect(answer.body.result.structuredContent).toEqual({ result: { n: 2, continuation: { more: true, input: { page: 3 } } } });

    const grpc = new RawEngineClient(t.engine.grpcUrl);
    try {
      const bounded = await grpc.execute(ghSdk.token, { versionId: ghSdk.versionId, operation: 'github.repos/list-for-org', inputJson: '{"org":"acme"}', pagination: { maxPages: 2 } });
      expect(JSON.parse(bounded.wire!.continuationJson!)).toEqual({ more: true, input: { page: 3 } });
      const whole = await grpc.execute(ghSdk.token, { versionId: ghSdk.versionId, operation: 'github.repos/list-for-org', inputJson: '{"org":"acme"}' });
      expect(whole.wire!.continuationJson).toBeUndefined();
    } finally {
      grpc.close();
    }
  });
});
