// Unified operations: targets and dependencies, per-step authorisation, concurrency of
// independent steps, partial failures, selectors, per-target pagination and idempotency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ABANDONED_AFTER_MS, validateDefinition } from '../../src/unified/index.ts';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { consent } from '../fixtures/oauth.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';

let t: TestEngine;
let github: FakeProvider;
let crm: DemoProvider;
let sdk: { versionId: string; token: string };
let mcp: { url: string; token: string };
const stamps: { who: string; start: number; end: number }[] = [];
/** A stand-in demo-crm for timing and failure cases: slow tasks, a contact lookup, a failing deal. */
let slowCrm: FakeProvider;

beforeAll(async () => {
  github = await startFakeProvider(async (req, res) => {
    const start = Date.now();
    if (req.url.startsWith('/repos/acme/web/issues')) {
      await new Promise((r) => setTimeout(r, 300));
      stamps.push({ who: 'github', start, end: Date.now() });
      return json(res, 201, { number: 7, html_url: 'https://github.example/acme/web/issues/7', title: JSON.parse(req.body).title });
    }
    if (req.url.startsWith('/orgs/acme/members')) {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 1);
      return json(res, 200, [{ id: page * 100, login: `member${page}` }], page < 5 ? { link: `<${github.url}/orgs/acme/members?per_page=100&page=${page + 1}>; rel="next"` } : {});
    }
    json(res, 404, {});
  });
  crm = await startDemoProvider({ oauth: { clients: { uni: 'uni-secret' } } });
  slowCrm = await startFakeProvider(async (req, res) => {
    const start = Date.now();
    if (req.url === '/v1/tasks') {
      await new Promise((r) => setTimeout(r, 300));
      stamps.push({ who: 'crm', start, end: Date.now() });
      return json(res, 201, { id: 'task_slow', title: 'slow', status: 'open', created_at: new Date().toISOString() });
    }
    if (req.url.startsWith('/v1/contacts')) return json(res, 200, { data: [{ id: 'con_9', name: 'N', email: 'n@example.test' }], has_more: false });
    if (req.url === '/v1/deals') return json(res, 500, { error: { type: 'boom' } });
    json(res, 404, {});
  });
  t = await startTestEngine();
  t.canaries.push('uni-secret');
  await t.api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: github.url });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
  await t.api('PUT', '/v1/buckets/default/secrets/github', { value: 'gh-uni-secret' });
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey });
  await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'uni', clientSecret: 'uni-secret' });
  t.canaries.push('gh-uni-secret', crm.apiKey);
  const definition = { services: ['github=v1', 'demo-crm=v1'], operations: ['unified=tasks.create', 'unified=deals.create_for_contact', 'unified=people.list', 'github=issues/create', 'github=orgs/list-members', 'demo-crm=*'] };
  sdk = (await t.api('POST', '/v1/sdks/publish', { name: 'uni', ...definition })).body;
  mcp = (await t.api('POST', '/v1/mcp/publish', { name: 'uni', ...definition })).body;
  t.canaries.push(sdk.token, mcp.token);
  // Make the crm tasks endpoint slow (and failable) by wrapping the demo provider's router through a proxy fake.
});
afterAll(async () => {
  await t.stop();
  await github.stop();
  await crm.stop();
  await slowCrm.stop();
});

/** Runs `fn` with demo-crm pointed at the slow stand-in. */
async function withSlowCrm(fn: () => Promise<void>) {
  await pointService(t, 'demo-crm', slowCrm.url, crm.apiKey);
  try {
    await fn();
  } finally {
    await pointService(t, 'demo-crm', crm.url, crm.apiKey);
  }
}

const rest = (operation: string, body: Record<string, unknown>) => t.execute(sdk.versionId, sdk.token, { operation, ...body });
const requests = () => github.requests.length + crm.requests.length;

describe('Unified operations', () => {
  it('refuses bad targets and pagination with zero provider requests', async () => {
    const before = requests();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ input: { email: 'contact1@example.test', title: 'Deal' }, targets: ['createDeal'] }, 'ENGINE_INVALID_INPUT', "depends on 'findContact'"],
      [{ input: { title: 'x' }, targets: [] }, 'ENGINE_INVALID_INPUT', 'targets is required'],
      [{ input: { title: 'x' } }, 'ENGINE_INVALID_INPUT', 'targets is required'],
      [{ input: { title: 'x' }, targets: ['trello'] }, 'ENGINE_INVALID_INPUT', "unknown target 'trello'"],
      [{ input: {}, targets: ['crm'], pagination: { crm: { maxPages: 20 } } }, 'ENGINE_PAGINATION_INVALID', 'strictly lower'],
      [{ input: {}, targets: ['crm'], pagination: { github: { maxPages: 2 } } }, 'ENGINE_PAGINATION_INVALID', 'not among targets'],
    ];
    const ops = ['unified.deals.create_for_contact', 'unified.tasks.create', 'unified.tasks.create', 'unified.tasks.create', 'unified.people.list', 'unified.people.list'];
    for (const [i, [body, code, message]] of cases.entries()) {
      const res = await rest(ops[i]!, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.message).toContain(message);
    }
    expect(requests()).toBe(before);
  });

  it('refuses a third-argument pagination on a Unified call inside execute, before dispatch', async () => {
    const client = new Client({ name: 'uni', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { authorization: `Bearer ${mcp.token}` } } }));
    const before = requests();
    const r = (await client.callTool({ name: 'execute', arguments: { code: 'return await call("unified.people.list", { input: {}, targets: ["crm"] }, { pagination: { maxPages: 2 } })' } })) as any;
    expect(r.isError).toBe(true);
    expect(r.structuredContent.code).toBe('ENGINE_PAGINATION_INVALID');
    expect(r.structuredContent.recovery).toEqual({ execute_request: 'correct_arguments', provider_execution: 'not_started', automatic_replay: false });
    // Through execute, a valid Unified call works and search_docs offers it first for the outcome.
    const ok = (await client.callTool({ name: 'execute', arguments: { code: 'return await call("unified.tasks.create", { input: { title: "From MCP" }, targets: ["crm"] })' } })) as any;
    expect(ok.structuredContent.result).toMatchObject({ ok: true, data: { output: { tasks: [{ provider: 'crm' }] } } });
    const search = (await client.callTool({ name: 'search_docs', arguments: { query: 'create a task' } })) as any;
    expect(search.structuredContent.results[0]).toMatchObject({ operationId: 'unified.tasks.create', kind: 'unified', schema_status: { available_sections: ['input', 'targets', 'output'] } });
    const exact = (await client.callTool({ name: 'search_docs', arguments: { operationId: 'unified.deals.create_for_contact', section: 'targets' } })) as any;
    expect(exact.structuredContent.sections.targets.createDeal).toMatchObject({ operation: 'demo-crm.deals/create', dependsOn: ['findContact'] });
    expect(requests()).toBe(before + 1);
    await client.close();
  });

  it('runs independent targets concurrently: two 300 ms steps overlap on the providers', async () => {
    await withSlowCrm(async () => {
      stamps.length = 0;
      const res = await rest('unified.tasks.create', { input: { title: 'Both', owner: 'acme', repo: 'web' }, targets: ['github', 'crm'] });
      expect(res.body.ok).toBe(true);
      expect(res.body.data.output.tasks.map((x: any) => x.provider).sort()).toEqual(['crm', 'github']);
      expect(res.body.data.steps.map((s: any) => [s.target, s.status])).toEqual([
        ['github', 'succeeded'],
        ['crm', 'succeeded'],
      ]);
      const gh = stamps.find((x) => x.who === 'github')!;
      const c = stamps.find((x) => x.who === 'crm')!;
      // Each step took its provider's 300 ms (Date.now() may read a timer's 300 ms as 299).
      expect(gh.end - gh.start).toBeGreaterThanOrEqual(295);
      expect(c.end - c.start).toBeGreaterThanOrEqual(295);
      // Each started before the other finished, and both were done well within 600 ms of the first start.
      expect(c.start).toBeLessThan(gh.end);
      expect(gh.start).toBeLessThan(c.end);
      expect(Math.max(gh.end, c.end) - Math.min(gh.start, c.start)).toBeLessThan(500);
    });
  });

  it('reports exactly which step ran when the second step gets a provider 500', async () => {
    await withSlowCrm(async () => {
      const res = await rest('unified.deals.create_for_contact', { input: { email: 'n@example.test', title: 'Deal' }, targets: ['findContact', 'createDeal'] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: false, status: 500, error: { code: 'UNIFIED_STEP_FAILED' } });
      expect(res.body.data.steps).toEqual([
        expect.objectContaining({ target: 'findContact', operation: 'demo-crm.contacts/list', status: 'succeeded', httpStatus: 200, dispatched: true }),
        expect.objectContaining({ target: 'createDeal', operation: 'demo-crm.deals/create', status: 'failed', httpStatus: 500, dispatched: true }),
      ]);
      expect(res.body.error.message).toContain('steps that reached a provider: findContact, createDeal');
      expect(res.body.data.steps[0].providerDurationMs).toBeGreaterThan(0);
    });
  });

  it('reports the step that failed, not one skipped because of it, whatever the order of targets', async () => {
    await pointService(t, 'demo-crm', 'http://127.0.0.1:9', crm.apiKey); // unreachable
    try {
      const outcomes = [];
      for (const targets of [['findContact', 'createDeal'], ['createDeal', 'findContact']]) {
        const res = await rest('unified.deals.create_for_contact', { input: { email: 'n@example.test', title: 'Deal' }, targets });
        outcomes.push({ status: res.body.status, message: res.body.error.message.split(';')[0] });
      }
      expect(outcomes[0]).toEqual(outcomes[1]);
      expect(outcomes[0]!.status).toBe(502);
      expect(outcomes[0]!.message).toContain("step 'findContact'");
    } finally {
      await pointService(t, 'demo-crm', crm.url, crm.apiKey);
    }
  });

  it('stops dependent steps when a mapping leaves the input invalid, and chains when it does not', async () => {
    const res = await rest('unified.deals.create_for_contact', { input: { email: 'nobody@example.test', title: 'Deal' }, targets: ['findContact', 'createDeal'] });
    // No contact: the mapping yields no contact_id, the Engine refuses the step before dispatch.
    expect(res.body.data.steps[0]).toMatchObject({ target: 'findContact', status: 'succeeded' });
    expect(res.body.data.steps[1]).toMatchObject({ target: 'createDeal', status: 'refused' });
    const found = await rest('unified.deals.create_for_contact', { input: { email: 'contact2@example.test', title: 'Deal', amount: 5 }, targets: ['findContact', 'createDeal'] });
    expect(found.body).toMatchObject({ ok: true, data: { output: { contactId: 'con_0002', dealId: expect.stringMatching(/^deal_/) } } });
  });

  it('works over gRPC with the same body carried in input_json', async () => {
    const grpc = new RawEngineClient(t.engine.grpcUrl);
    try {
      const body = { input: { email: 'contact3@example.test', title: 'Over gRPC' }, targets: ['findContact', 'createDeal'] };
      const call = await grpc.execute(sdk.token, { versionId: sdk.versionId, operation: 'unified.deals.create_for_contact', inputJson: JSON.stringify(body) });
      expect(call.envelope).toMatchObject({ ok: true, data: { output: { contactId: 'con_0003' } } });
      const refused = await grpc.execute(sdk.token, { versionId: sdk.versionId, operation: 'unified.deals.create_for_contact', inputJson: JSON.stringify({ ...body, targets: ['createDeal'] }) });
      expect(refused.envelope).toMatchObject({ ok: false, error: { code: 'ENGINE_INVALID_INPUT' } });
      // The message's flat selectors and pagination cannot say which target they mean: refused, never dropped.
      const before = crm.requests.length;
      for (const extra of [{ selectors: { endUserRef: 'alice' } }, { pagination: { maxPages: 999 } }]) {
        const flat = await grpc.execute(sdk.token, { versionId: sdk.versionId, operation: 'unified.tasks.create', inputJson: JSON.stringify({ input: { title: 'Flat' }, targets: ['crm'] }), ...extra });
        expect(flat.envelope).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field: Object.keys(extra)[0] } } });
      }
      expect(crm.requests.length).toBe(before);
    } finally {
      grpc.close();
    }
  });

  it('pages each target under its own bound', async () => {
    const res = await rest('unified.people.list', { input: { org: 'acme' }, targets: ['crm', 'github'], pagination: { github: { maxPages: 2 } } });
    expect(res.body.ok).toBe(true);
    const people = res.body.data.output.people;
    expect(people.filter((p: any) => p.provider === 'github').map((p: any) => p.name)).toEqual(['member1', 'member2']);
    expect(people.filter((p: any) => p.provider === 'crm').length).toBe(crm.contacts.length);
  });

  it('replays an idempotent call without dispatching, refuses the key with another input, and keeps it across a restart', async () => {
    const body = { input: { title: 'Once' }, targets: ['crm'], idempotencyKey: 'key-1' };
    const first = await rest('unified.tasks.create', body);
    expect(first.body.ok).toBe(true);
    const before = crm.requests.length;
    const replay = await rest('unified.tasks.create', body);
    expect(replay.body).toEqual(first.body);
    expect(crm.requests.length).toBe(before);
    const other = await rest('unified.tasks.create', { ...body, input: { title: 'Twice' } });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('ENGINE_IDEMPOTENCY_CONFLICT');
    await t.restart();
    const afterRestart = await rest('unified.tasks.create', body);
    expect(afterRestart.body).toEqual(first.body);
    expect(crm.requests.length).toBe(before);
  });

  // An Engine stopped mid-call leaves its key pending: it was "still running" for the key's 24 hours.
  it('answers a key whose call never finished, long after it started, as outcome unknown (not still running)', async () => {
    const body = { input: { title: 'Abandoned' }, targets: ['crm'], idempotencyKey: 'key-abandoned' };
    expect((await rest('unified.tasks.create', body)).body.ok).toBe(true);
    const db = new Database(join(t.dataDir, 'engine.db'));
    const leave = (startedAgoMs: number) =>
      db.prepare(`UPDATE idempotency_keys SET state = 'pending', result = NULL, created_at = ? WHERE key = 'key-abandoned'`).run(new Date(Date.now() - startedAgoMs).toISOString());
    try {
      const before = crm.requests.length;
      leave(ABANDONED_AFTER_MS - 60_000);
      const running = await rest('unified.tasks.create', body);
      expect(running.status).toBe(409);
      expect(running.body.error).toMatchObject({ code: 'ENGINE_IDEMPOTENCY_CONFLICT', retryable: true });
      leave(ABANDONED_AFTER_MS + 60_000);
      const abandoned = await rest('unified.tasks.create', body);
      expect(abandoned.status).toBe(502);
      expect(abandoned.body.error).toMatchObject({ code: 'ENGINE_OUTCOME_UNKNOWN', retryable: false, details: { field: 'idempotencyKey' } });
      expect(abandoned.body.error.message).toContain('never finished');
      expect(crm.requests.length).toBe(before);
    } finally {
      db.close();
    }
  });

  it('keeps idempotency keys per token: a token bound to another end user never gets the stored result', async () => {
    for (const [user, account] of [['alice', 'alice@crm'], ['bob', 'bob@crm']]) {
      const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: user });
      expect((await consent(started.body.authorizeUrl, account!)).status).toBe(200);
    }
    const code = 'const r = await call("unified.tasks.create", { input: { title: "Sync" }, targets: ["crm"], idempotencyKey: "shared-key" }); return r.data.output.tasks[0].id';
    const runAs = async (endUserRef: string) => {
      const token = await t.api('POST', '/v1/mcp/uni/tokens', { allow: ['*'], binding: { endUserRef } });
      t.canaries.push(token.body.token);
      const client = new Client({ name: `key-${endUserRef}`, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}${new URL(mcp.url).pathname}`), { requestInit: { headers: { authorization: `Bearer ${token.body.token}` } } }));
      try {
        const first = ((await client.callTool({ name: 'execute', arguments: { code } })) as any).structuredContent.result as string;
        const again = ((await client.callTool({ name: 'execute', arguments: { code } })) as any).structuredContent.result as string;
        expect(again).toBe(first); // the same token replays
        return first;
      } finally {
        await client.close();
      }
    };
    const [byAlice, byBob] = [await runAs('alice'), await runAs('bob')];
    expect(byBob).not.toBe(byAlice);
    const createdBy = (id: string) => crm.tasks.find((task) => task.id === id)?.created_by;
    expect(createdBy(byAlice)).toBe('alice@crm');
    expect(createdBy(byBob)).toBe('bob@crm');
  });

  it('routes each target by its selectors, and a fixed binding wins over the caller', async () => {
    for (const [user, account] of [['alice', 'alice@crm'], ['bob', 'bob@crm']]) {
      const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: user });
      expect((await consent(started.body.authorizeUrl, account!)).status).toBe(200);
    }
    const byAlice = await rest('unified.tasks.create', { input: { title: 'A' }, targets: ['crm'], selectors: { crm: { endUserRef: 'alice' } } });
    const byBob = await rest('unified.tasks.create', { input: { title: 'B' }, targets: ['crm'], selectors: { crm: { endUserRef: 'bob' } } });
    expect(byAlice.body.ok && byBob.body.ok).toBe(true);
    expect(byAlice.body.data.steps[0].status).toBe('succeeded');
    const createdBy = (id: string) => crm.tasks.find((task) => task.id === id)?.created_by;
    expect(createdBy(byAlice.body.data.output.tasks[0].id)).toBe('alice@crm');
    expect(createdBy(byBob.body.data.output.tasks[0].id)).toBe('bob@crm');
    const bound = await t.api('POST', '/v1/mcp/uni/tokens', { allow: ['*'], binding: { endUserRef: 'alice' } });
    t.canaries.push(bound.body.token);
    const client = new Client({ name: 'bound', version: '1.0.0' });
    // The Engine restarted in an earlier test: reach the MCP server at its current address.
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}${new URL(mcp.url).pathname}`), { requestInit: { headers: { authorization: `Bearer ${bound.body.token}` } } }));
    const r = (await client.callTool({
      name: 'execute',
      arguments: { code: 'const a = await call("unified.tasks.create", { input: { title: "C" }, targets: ["crm"], selectors: { crm: { endUserRef: "bob" } } }); const me = await call("demo-crm.account/get", {}); return { ok: a.ok, me: me.data }' },
    })) as any;
    expect(r.structuredContent.result).toEqual({ ok: true, me: { account: 'alice@crm', via: 'oauth' } });
    expect(crm.tasks.at(-1)!.created_by).toBe('alice@crm');
    await client.close();
  });
});

describe('Unified definitions at gen time', () => {
  const base = {
    name: 'unified.things.make',
    summary: 'Make a thing',
    description: '',
    input: { type: 'object' },
    output: { type: 'object' },
    mapOutput: '{}',
  };
  const known = (id: string) => id === 'demo-crm.contacts/list' || id === 'demo-crm.deals/create';

  it('rejects a cycle with the steps named', () => {
    const steps = {
      a: { operation: 'demo-crm.contacts/list', dependsOn: ['b'], input: '{}' },
      b: { operation: 'demo-crm.deals/create', dependsOn: ['a'], input: '{}' },
    };
    expect(() => validateDefinition({ ...base, steps }, 'x.yaml', known)).toThrow('x.yaml: steps form a cycle: a → b → a');
  });

  it('rejects an unknown operation', () => {
    expect(() => validateDefinition({ ...base, steps: { a: { operation: 'demo-crm.nope/none', input: '{}' } } }, 'x.yaml', known)).toThrow(
      "x.yaml: step 'a' names unknown operation 'demo-crm.nope/none'",
    );
  });

  it('rejects mappings of undeclared steps, schemas that do not compile and bad names', () => {
    expect(() => validateDefinition({ ...base, steps: { a: { operation: 'demo-crm.contacts/list', input: '{ "x": steps.ghost.data }' } } }, 'x.yaml', known)).toThrow("references undeclared step 'ghost'");
    expect(() => validateDefinition({ ...base, input: { type: 'nonsense' }, steps: { a: { operation: 'demo-crm.contacts/list', input: '{}' } } }, 'x.yaml', known)).toThrow('the input schema does not compile');
    expect(() => validateDefinition({ ...base, name: 'tasks.create', steps: { a: { operation: 'demo-crm.contacts/list', input: '{}' } } }, 'x.yaml', known)).toThrow('unified.<domain>.<action>');
    expect(() => validateDefinition({ ...base, steps: { a: { operation: 'demo-crm.contacts/list', input: '{ "x": ' } } }, 'x.yaml', known)).toThrow('not a valid JSONata mapping');
  });
});
