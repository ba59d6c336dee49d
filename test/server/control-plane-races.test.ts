// Races between concurrent control-plane requests, on one Engine and across two Engines sharing
// one PostgreSQL database (test/fixtures/postgres.ts). Each test fires the requests that race and
// checks the outcome a serial order would allow; each failed before its fix.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliUser, oneErrorLine } from '../fixtures/cli.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { openSession, rawMcp } from '../fixtures/mcp.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/postgres.ts';

let db: TestDatabase;
let a: TestEngine;
let b: TestEngine;
let provider: FakeProvider;
/** Requests to the provider's /slow wait for this to be called. */
let releaseSlow: () => void = () => {};
let slowGate: Promise<void> = Promise.resolve();

const gateDocument = (url: string) =>
  [
    'openapi: 3.0.3',
    "info: { title: Gate, version: '1' }",
    `servers: [{ url: '${url}' }]`,
    'paths:',
    '  /slow:',
    '    get:',
    '      operationId: slow',
    "      responses: { '200': { description: ok } }",
    '  /fast:',
    '    get:',
    '      operationId: fast',
    "      responses: { '200': { description: ok } }",
  ].join('\n');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A loopback proxy to `upstream` that holds every workspace write (PUT or DELETE under
 * /v1/workspace/services) for `delayMs` before passing it on, as a slow link would: two applies
 * started together then both read the workspace before either writes, every time.
 */
async function slowWorkspaceWrites(upstream: string, delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if ((req.method === 'PUT' || req.method === 'DELETE') && req.url?.startsWith('/v1/workspace/services')) await sleep(delayMs);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
    const answer = await fetch(upstream + req.url, { method: req.method!, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    const body = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k))));
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => {
    if (req.url.startsWith('/slow')) await slowGate;
    json(res, 200, { path: req.url });
  });
  db = await createTestDatabase();
  const key = { SVC_MASTER_KEY: randomBytes(32).toString('hex') };
  a = await startTestEngine(key, undefined, { databaseUrl: db.url });
  b = await startTestEngine(key, undefined, { databaseUrl: db.url });
  expect((await a.api('POST', '/v1/workspace/imports', { name: 'gate', version: 'v1', document: gateDocument(provider.url) })).status).toBe(201);
  expect((await b.api('PUT', '/v1/workspace/services/gate', { version: 'v1' })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await db?.drop();
  await provider?.stop();
}, 60_000);

describe('an MCP token revoked while a script runs', () => {
  it('makes no further call() once the revocation has returned, on another replica', async () => {
    const published = await a.api('POST', '/v1/mcp/publish', { name: 'gated', services: ['gate=v1'], operations: ['gate=*'] });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    a.canaries.push(published.body.token);
    const mcp = rawMcp(`${b.url}/mcp/${published.body.versionId}`, published.body.token);
    const headers = await openSession(mcp);
    const tokenId = (await a.api('GET', '/v1/mcp/gated/tokens')).body.tokens[0].id as string;

    slowGate = new Promise((resolve) => (releaseSlow = resolve));
    const before = provider.requests.length;
    const code = "const first = await call('gate.slow', {}); const second = await call('gate.fast', {}); return { first: first.status, second: second.status };";
    const running = mcp.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'execute', arguments: { code } } }, headers);
    // The script's first call is at the provider: the token is revoked on the other replica meanwhile.
    for (let i = 0; !provider.requests.slice(before).some((r) => r.url === '/slow'); i++) {
      if (i > 500) throw new Error('the script never reached the provider');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await a.api('DELETE', `/v1/tokens/${tokenId}`)).status).toBe(204);
    releaseSlow();
    const answer = await running;

    expect(provider.requests.slice(before).map((r) => r.url)).toEqual(['/slow']);
    expect(answer.body.result.isError).toBe(true);
    expect(answer.body.result.structuredContent).toMatchObject({ code: 'ENGINE_UNAUTHENTICATED' });
    // And the next request is refused, as it was before.
    expect((await mcp.post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, headers)).status).toBe(401);
  });
});

describe('two workspace applies planned from one state, through two replicas', () => {
  it('land one desired state whole: never a mix of both (the other is told to plan again)', async () => {
    const proxies = await Promise.all([a, b].map((e) => slowWorkspaceWrites(e.url, 1_000)));
    const users = proxies.map((p) => cliUser(p.url));
    // Both keep gate (the MCP server above calls it); each adds a service of its own.
    const desired: Record<string, { version: string }>[] = [
      { gate: { version: 'v1' }, 'demo-crm': { version: 'v1' } },
      { gate: { version: 'v1' }, github: { version: 'v1' } },
    ];
    const listed = (services: Record<string, { version: string }>) => Object.entries(services).map(([name, { version }]) => `${name}=${version}`).sort();
    try {
      users.forEach((u, i) => writeFileSync(join(u.home, 'svc.workspace.json'), JSON.stringify({ services: desired[i] })));
      for (let round = 0; round < 3; round++) {
        for (const service of ['demo-crm', 'github']) await a.api('DELETE', `/v1/workspace/services/${service}`);
        const results = await Promise.all(users.map((u, i) => u.cli(['workspace', 'apply'], { env: { SVC_CLI_TOKEN: [a, b][i]!.cliToken } })));
        const final = (await b.api('GET', '/v1/workspace/services')).body.services.map((s: { name: string; version: string }) => `${s.name}=${s.version}`).sort();
        const landed = results.flatMap((r, i) => (r.code === 0 ? [listed(desired[i]!)] : []));
        expect(landed.length, JSON.stringify(results)).toBeGreaterThanOrEqual(1);
        expect(landed, `round ${round}: the workspace is ${final.join(', ')}`).toContainEqual(final);
        for (const r of results.filter((x) => x.code !== 0)) expect(oneErrorLine(r.stderr)).toMatch(/the workspace changed since revision wsr_\S+ was read \(another apply\?\); nothing was changed — run `svc-cli workspace plan`/);
      }
    } finally {
      for (const u of users) u.cleanup();
      await Promise.all(proxies.map((p) => p.close()));
    }
  }, 120_000);
});

describe('mcp list while the server is published again on another replica', () => {
  it('marks the newest version it lists active, never an older one beside it', async () => {
    const name = 'listed-while-published';
    const publish = (on: TestEngine, operations: string[]) => on.api('POST', '/v1/mcp/publish', { name, services: ['gate=v1'], operations });
    const first = await publish(a, ['gate=slow']);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    a.canaries.push(first.body.token);
    let publishing = true;
    const skewed: string[] = [];
    const lister = (async () => {
      while (publishing) {
        const versions = ((await b.api('GET', '/v1/mcp')).body.servers as { name: string; version: string; active: boolean; createdAt: string }[]).filter((s) => s.name === name);
        const newest = versions.reduce((x, y) => (y.createdAt > x.createdAt ? y : x));
        const active = versions.filter((v) => v.active).map((v) => v.version);
        if (active.length !== 1 || active[0] !== newest.version) skewed.push(`active ${active.join(',') || 'none'} beside newest ${newest.version}`);
      }
    })();
    try {
      // Each publish removes or adds an operation: a new major or minor version every time.
      for (let i = 0; i < 40; i++) expect((await publish(a, i % 2 ? ['gate=slow'] : ['gate=slow', 'gate=fast'])).status).toBe(200);
    } finally {
      publishing = false;
      await lister;
    }
    expect(skewed).toEqual([]);
  }, 60_000);
});
