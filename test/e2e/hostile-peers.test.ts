// Hostile peers, found by a security review: a provider (or its token endpoint) that stalls, floods
// or echoes; a bound MCP token that tries to leave its end user; a script that asks session.page
// for many fields. None may stall the Engine's event loop, exhaust its memory, outlast its timeout
// or obtain a credential.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ServerResponse } from 'node:http';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { consent } from '../fixtures/oauth.ts';

/** The longest gap between ticks of a 5 ms interval while `work` runs: how long the event loop was blocked. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, stallMs };
  } finally {
    clearInterval(timer);
  }
}

describe('a provider Link header cannot stall the Engine (src/execution/pagination.ts nextLink)', () => {
  let t: TestEngine;
  let github: FakeProvider;
  let sdk: { versionId: string; token: string };

  beforeAll(async () => {
    github = await startFakeProvider((req, res) => {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 1);
      // A first link whose `rel=` is followed by ~15,000 spaces (within undici's 16 KiB header
      // limit), then the real next link. The rel regex backtracks quadratically over the spaces.
      const hostile = `<${github.url}/elsewhere>;rel=${' '.repeat(15_000)}`;
      const next = page < 4 ? `, <${github.url}/orgs/acme/members?page=${page + 1}>; rel="next"` : '';
      json(res, 200, [{ id: page, login: `m${page}` }], { link: hostile + next });
    });
    t = await startTestEngine();
    sdk = await publishSdk(t, { name: 'gh-link', service: 'github', baseUrl: github.url, secret: 'gh-link-secret-canary', operations: ['orgs/list-members'] });
  });
  afterAll(async () => {
    await t?.stop();
    await github?.stop();
  });

  it('parses a long Link header in linear time: no single page blocks the event loop for long', async () => {
    // The Link header (at most 16 KiB) is parsed in linear time, so every other caller keeps being
    // served; a backtracking parse blocked the whole Engine for 0.5-1 s per page.
    const list = () => t.execute(sdk.versionId, sdk.token, { operation: 'github.orgs/list-members', input: { org: 'acme' } });
    await list(); // the first call compiles the operation's validator (a stall of its own)
    const { result, stallMs } = await longestStall(list);
    expect(result.body.ok).toBe(true);
    expect(result.body.data.map((m: { login: string }) => m.login)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(stallMs).toBeLessThan(400); // a backtracking version stalled 0.7 s and more
  });
});

describe('a token bound to an end user cannot leave its binding through a Unified call (src/execution/index.ts run, selectors)', () => {
  let t: TestEngine;
  let crm: DemoProvider;
  let mcpUrl: string;

  beforeAll(async () => {
    crm = await startDemoProvider({ oauth: { clients: { review: 'review-oauth-secret-canary' } } });
    t = await startTestEngine();
    t.canaries.push('review-oauth-secret-canary', crm.apiKey);
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
    await t.api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: 'http://127.0.0.1:9' }); // never called here
    await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey });
    await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'review', clientSecret: 'review-oauth-secret-canary' });
    const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'alice' });
    expect((await consent(started.body.authorizeUrl, 'alice@crm')).status).toBe(200);
    const published = await t.api('POST', '/v1/mcp/publish', { name: 'bound', services: ['demo-crm=v1', 'github=v1'], operations: ['unified=tasks.create', 'demo-crm=account/get'] });
    if (published.status !== 200) throw new Error(JSON.stringify(published.body));
    t.canaries.push(published.body.token);
    mcpUrl = `${t.url}${new URL(published.body.url).pathname}`;
  });
  afterAll(async () => {
    await t?.stop();
    await crm?.stop();
  });

  it("acts only as the bound end user: selectors.authType 'api_key' does not swap in the workspace API key", async () => {
    // README: a binding wins over any selectors the caller passes. A token bound to alice acts as
    // alice: a Unified call asking for `authType: 'api_key'` (the one way a script passes selectors)
    // is refused for that target, and no task is created with the workspace's shared API key.
    const token = await t.api('POST', '/v1/mcp/bound/tokens', { allow: ['unified.tasks.create', 'demo-crm.account/get'], binding: { endUserRef: 'alice' } });
    expect(token.status).toBe(201);
    t.canaries.push(token.body.token);
    const client = new Client({ name: 'bound-review', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token.body.token}` } } }));
    try {
      const before = crm.tasks.length;
      const code =
        'const r = await call("unified.tasks.create", { input: { title: "escape" }, targets: ["crm"], selectors: { crm: { authType: "api_key" } } }); ' +
        'const me = await call("demo-crm.account/get", {}); return { ok: r.ok, me: me.data }';
      const answer = (await client.callTool({ name: 'execute', arguments: { code } })) as { structuredContent?: { result?: { me?: unknown } } };
      // The physical call shows the binding itself works: alice, over OAuth.
      expect(answer.structuredContent?.result?.me).toEqual({ account: 'alice@crm', via: 'oauth' });
      expect((answer.structuredContent?.result as { ok?: boolean }).ok).toBe(false);
      const created = crm.tasks.slice(before).map((task) => task.created_by);
      expect(created.filter((who) => who !== 'alice@crm')).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe("an OAuth token endpoint's answer is read within a size cap (src/connections/index.ts tokenRequest)", () => {
  let t: TestEngine;
  let provider: FakeProvider;
  /** Bytes the token endpoint managed to hand to the Engine before it stopped reading. */
  let delivered = 0;
  const OFFERED = 64 * 1024 * 1024;

  async function stream(res: ServerResponse) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20); // JSON whitespace, never ending in a token
    res.write('{"pad":"');
    while (delivered < OFFERED && !res.destroyed) {
      delivered += chunk.length;
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
    if (!res.destroyed) res.end('"}');
  }

  beforeAll(async () => {
    provider = await startFakeProvider(async (req, res) => {
      if (req.url.startsWith('/oauth/token')) return stream(res);
      json(res, 404, {});
    });
    t = await startTestEngine();
    t.canaries.push('token-endpoint-client-secret-canary');
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
    const client = await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'c', clientSecret: 'token-endpoint-client-secret-canary' });
    expect(client.status).toBe(204);
  });
  afterAll(async () => {
    await t?.stop();
    await provider?.stop();
  });

  it('stops reading a token response far larger than any token answer, instead of buffering all of it', async () => {
    // A token answer is a few KB: the Engine reads at most 64 KiB and fails the exchange, rather
    // than buffering whatever a broken or hostile token endpoint sends for 10 s.
    const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'big' });
    expect(started.status).toBe(201);
    const state = new URL(started.body.authorizeUrl).searchParams.get('state')!;
    const callback = await fetch(`${t.url}/v1/oauth/callback?code=anything&state=${encodeURIComponent(state)}`);
    await callback.text();
    expect(callback.status).toBeGreaterThanOrEqual(400); // no token came back
    expect(delivered).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('a paged call is bounded by the provider timeout as a whole (src/execution/index.ts traverse)', () => {
  let t: TestEngine;
  let crm: FakeProvider;
  let sdk: { versionId: string; token: string };
  let served = 0;

  beforeAll(async () => {
    crm = await startFakeProvider(async (_req, res) => {
      // Each page arrives just inside the per-request timeout, and there is always one more.
      await new Promise((r) => setTimeout(r, 250));
      served++;
      json(res, 200, { data: [{ id: `con_${served}` }], has_more: true });
    });
    t = await startTestEngine({ SVC_PROVIDER_TIMEOUT_MS: '400' });
    sdk = await publishSdk(t, { name: 'slow-pages', service: 'demo-crm', baseUrl: crm.url, secret: 'slow-pages-secret-canary', operations: ['contacts/list'] });
  });
  afterAll(async () => {
    await t?.stop();
    await crm?.stop();
  });

  it('ends a traversal whose pages together outlast the provider timeout', async () => {
    // SVC_PROVIDER_TIMEOUT_MS bounds all pages of a call together, as the result cap does: the call
    // ends with PROVIDER_TIMEOUT shortly after 400 ms. Restarting the deadline per page let a
    // provider hold one call for engineMaxPages x the timeout (10 minutes by default).
    const started = performance.now();
    const res = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/list', input: {} });
    const elapsed = performance.now() - started;
    expect(res.body.ok).toBe(false);
    expect(elapsed).toBeLessThan(1_500);
    expect(res.body.error.code).toBe('PROVIDER_TIMEOUT');
  });
});

describe('an echoed secret spelt with JSON \\u escapes is redacted (src/execution/dispatch.ts characterPattern)', () => {
  const SECRET = 'crmEchoKey7q2w9z';
  let t: TestEngine;
  let crm: FakeProvider;
  let sdk: { versionId: string; token: string };

  beforeAll(async () => {
    crm = await startFakeProvider((req, res) => {
      // An echo of the request's Authorization header, serialised by an encoder that escapes every
      // character (valid JSON; JSON.parse turns it back into the key).
      const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const escaped = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"id":"con_1","name":"x","email":"x@example.test","echo":"${escaped}"}`);
    });
    t = await startTestEngine();
    sdk = await publishSdk(t, { name: 'echo', service: 'demo-crm', baseUrl: crm.url, secret: SECRET, operations: ['contacts/get'] });
  });
  afterAll(async () => {
    await t?.stop();
    await crm?.stop();
  });

  it('never hands the caller the key the provider echoed, whichever JSON escapes spell it', async () => {
    // Every JSON spelling of every character is matched, letters and digits included: a key echoed
    // as \u0063\u0072... would otherwise reach envelope.data through JSON.parse.
    const res = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' } });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
  });
});

describe('session.page with many fields cannot stall the Engine (src/retention/page.ts checkFields)', () => {
  let t: TestEngine;
  let server: { url: string; token: string };

  beforeAll(async () => {
    t = await startTestEngine();
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: 'http://127.0.0.1:9' }); // never called here
    const published = await t.api('POST', '/v1/mcp/publish', { name: 'pager', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] });
    if (published.status !== 200) throw new Error(JSON.stringify(published.body));
    server = published.body;
    t.canaries.push(server.token);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('checks the requested fields in time linear in rows + fields, not rows x fields, on the thread that serves everyone', async () => {
    // session.page runs on the main thread: checking fields costs each row the smaller of its key
    // count and the fields still missing, and a page selects at most 100 fields. Checking every
    // row against every field cost ~8.5 ms per absent field on a 1 MiB snapshot of `{}` rows.
    const client = new Client({ name: 'pager', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}${new URL(server.url).pathname}`), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
    try {
      const stored = (await client.callTool({ name: 'execute', arguments: { code: 'return Array.from({ length: 340000 }, () => ({}));', outputBudgetBytes: 1024 } })) as any;
      expect(stored.structuredContent.code).toBe('MCP_RESULT_STORED');
      const ref = stored.structuredContent.result_ref as string;
      const page = (n: number) => `const fields = Array.from({ length: ${n} }, (_, i) => 'f' + i); try { await session.page(${JSON.stringify(ref)}, { fields }); } catch (e) { return e.message; }`;
      // The quickest of two runs, against a one-field page's: what a busy machine adds to both cancels out.
      const quickest = async (fields: number) => {
        let best: { result: any; stallMs: number } | undefined;
        for (let i = 0; i < 2; i++) {
          const run = await longestStall(() => client.callTool({ name: 'execute', arguments: { code: page(fields) } }) as Promise<any>);
          if (!best || run.stallMs < best.stallMs) best = run;
        }
        return best!;
      };
      const one = await quickest(1);
      const hundred = await quickest(100);
      expect(hundred.result.structuredContent.result).toContain("session.page field 'f0' is absent from every row"); // refused, as it should be
      expect(hundred.stallMs - one.stallMs).toBeLessThan(400); // checking every row against every field stalled 0.7 s and more
      const tooMany = (await client.callTool({ name: 'execute', arguments: { code: page(101) } })) as any;
      expect(tooMany.structuredContent.result).toBe('session.page fields lists 101 names; at most 100 (omit fields for whole rows)');
    } finally {
      await client.close();
    }
  });
});
