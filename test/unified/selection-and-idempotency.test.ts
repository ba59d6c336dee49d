// Unified operations selected on their own: the version (and a token's allowlist) admits the
// Unified operation and its steps run as its implementation at the pinned service versions;
// publishing refuses a Unified operation none of whose targets has its services pinned, and a
// call refuses a target whose service is not pinned; idempotency keys keep only calls that reached
// a provider and replay them with the first call's HTTP status; an MCP refusal says whether the
// version or the token's allowlist left the operation out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Apps } from '../../src/apps/index.ts';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';
import { cliUser, oneErrorLine } from '../fixtures/cli.ts';

let t: TestEngine;
let github: FakeProvider;
let crm: DemoProvider;
/** SDK `only`: both services pinned, `unified=tasks.create` the one operation selected. */
let sdk: { versionId: string; token: string };
let mcp: { url: string; token: string };

beforeAll(async () => {
  github = await startFakeProvider(async (req, res, socket) => {
    if (req.url === '/repos/acme/web/issues') return json(res, 201, { number: 7, html_url: 'https://github.example/acme/web/issues/7' });
    if (req.url === '/repos/acme/slow/issues') {
      await new Promise((r) => setTimeout(r, 400));
      return json(res, 201, { number: 8, html_url: null });
    }
    // The request arrived; the connection drops before any answer: the outcome is unknown.
    if (req.url === '/repos/acme/hang/issues') return void socket.destroy();
    json(res, 404, {});
  });
  crm = await startDemoProvider();
  t = await startTestEngine();
  await t.api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: github.url });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
  await t.api('PUT', '/v1/buckets/default/secrets/github', { value: 'gh-selection-secret' });
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey });
  t.canaries.push('gh-selection-secret', crm.apiKey);
  const published = await t.api('POST', '/v1/sdks/publish', { name: 'only', services: ['demo-crm=v1', 'github=v1'], operations: ['unified=tasks.create'] });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  sdk = published.body;
  const deployed = await t.api('POST', '/v1/mcp/publish', {
    name: 'only',
    services: ['demo-crm=v1', 'github=v1'],
    operations: ['unified=tasks.create', 'demo-crm=deals/list', 'demo-crm=contacts/list'],
  });
  expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
  mcp = deployed.body;
  t.canaries.push(sdk.token, mcp.token);
});
afterAll(async () => {
  await t.stop();
  await github.stop();
  await crm.stop();
});

const rest = (operation: string, body: Record<string, unknown>) => t.execute(sdk.versionId, sdk.token, { operation, ...body });
const requests = () => github.requests.length + crm.requests.length;

async function mcpClient(token: string) {
  const client = new Client({ name: 'selection', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}${new URL(mcp.url).pathname}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}
const execute = async (client: Client, code: string) => ((await client.callTool({ name: 'execute', arguments: { code } })) as any).structuredContent;

describe('a Unified operation selected without its physical steps', () => {
  it('runs its steps over REST and gRPC at the pinned services, while the step operations stay unselected for direct calls', async () => {
    const tasks = crm.tasks.length;
    const res = await rest('unified.tasks.create', { input: { title: 'Only unified', owner: 'acme', repo: 'web' }, targets: ['github', 'crm'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.data.steps.map((s: any) => [s.target, s.operation, s.status])).toEqual([
      ['github', 'github.issues/create', 'succeeded'],
      ['crm', 'demo-crm.tasks/create', 'succeeded'],
    ]);
    expect(res.body.data.output.tasks.map((x: any) => x.provider).sort()).toEqual(['crm', 'github']);
    expect(crm.tasks.length).toBe(tasks + 1);

    const grpc = new RawEngineClient(t.engine.grpcUrl);
    try {
      const call = await grpc.execute(sdk.token, { versionId: sdk.versionId, operation: 'unified.tasks.create', inputJson: JSON.stringify({ input: { title: 'Over gRPC' }, targets: ['crm'] }) });
      expect(call.envelope).toMatchObject({ ok: true, data: { output: { tasks: [{ provider: 'crm' }] } } });
    } finally {
      grpc.close();
    }

    // Selecting the Unified operation admits nothing else: its step operations called directly are refused, before dispatch.
    const before = requests();
    for (const [operation, input] of [
      ['github.issues/create', { owner: 'acme', repo: 'web', body: { title: 'direct' } }],
      ['demo-crm.tasks/create', { body: { title: 'direct' } }],
    ] as const) {
      const direct = await rest(operation, { input });
      expect(direct.status).toBe(403);
      expect(direct.body.error).toMatchObject({ code: 'ENGINE_FORBIDDEN_OPERATION', message: `operation '${operation}' is not selected in this version` });
    }
    expect(requests()).toBe(before);
  });

  it('over MCP, a token whose allowlist admits the Unified operation runs it; refusals say whether the version or the allowlist left an operation out', async () => {
    const narrowed = await t.api('POST', '/v1/mcp/only/tokens', { allow: ['unified.tasks.create', 'demo-crm.contacts/list'] });
    expect(narrowed.status).toBe(201);
    t.canaries.push(narrowed.body.token);
    const client = await mcpClient(narrowed.body.token);
    try {
      const ran = await execute(client, 'return await call("unified.tasks.create", { input: { title: "Via MCP", owner: "acme", repo: "web" }, targets: ["github", "crm"] })');
      expect(ran.result).toMatchObject({ ok: true, data: { steps: [{ status: 'succeeded' }, { status: 'succeeded' }] } });

      const before = requests();
      const outsideAllowlist = await execute(client, 'return await call("demo-crm.deals/list", {})');
      expect(outsideAllowlist).toMatchObject({ code: 'ENGINE_FORBIDDEN_OPERATION', message: expect.stringContaining("operation 'demo-crm.deals/list' is outside this token's allowlist") });
      const notSelected = await execute(client, 'return await call("github.issues/create", { owner: "acme", repo: "web", body: { title: "x" } })');
      expect(notSelected).toMatchObject({ code: 'ENGINE_FORBIDDEN_OPERATION', message: expect.stringContaining("operation 'github.issues/create' is not selected in this version") });
      expect(requests()).toBe(before);
      const allowed = await execute(client, 'return (await call("demo-crm.contacts/list", {})).ok');
      expect(allowed.result).toBe(true);
    } finally {
      await client.close();
    }

    // A token that does not admit the Unified operation cannot run it, whatever the version selects.
    const physicalOnly = await t.api('POST', '/v1/mcp/only/tokens', { allow: ['demo-crm.contacts/list'] });
    t.canaries.push(physicalOnly.body.token);
    const other = await mcpClient(physicalOnly.body.token);
    try {
      const before = requests();
      const refused = await execute(other, 'return await call("unified.tasks.create", { input: { title: "No" }, targets: ["crm"] })');
      expect(refused).toMatchObject({ code: 'ENGINE_FORBIDDEN_OPERATION', message: expect.stringContaining("operation 'unified.tasks.create' is outside this token's allowlist") });
      expect(requests()).toBe(before);
    } finally {
      await other.close();
    }
  });

  it('refuses validate, plan and publish (SDK and MCP) when no target can run, naming the missing service, its version and the steps', async () => {
    const definition = { name: 'half', services: ['github=v1'], operations: ['github=issues/get', 'unified=deals.create_for_contact'] };
    const expected =
      "operations[1]: unified.deals.create_for_contact needs demo-crm=v1 selected (its steps: 'findContact' calls demo-crm.contacts/list, 'createDeal' calls demo-crm.deals/create); add --service 'demo-crm=v1'";
    for (const path of ['/v1/sdks/validate', '/v1/sdks/plan', '/v1/sdks/publish', '/v1/mcp/plan', '/v1/mcp/publish']) {
      const res = await t.api('POST', path, definition);
      expect(res.status, path).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', message: expected, details: { field: 'operations[1]' } });
    }
    // Several steps on several missing services: each service once, with every step that needs it.
    const { store, catalog, workspace, tokens } = t.engine.deps;
    const steps = {
      issue: { operation: 'github.issues/create', dependsOn: [], input: '{}' },
      members: { operation: 'github.orgs/list-members', dependsOn: [], input: '{}' },
      task: { operation: 'demo-crm.tasks/create', dependsOn: [], input: '{}' },
    };
    const apps = new Apps('sdk', { store, catalog, workspace, tokens, unified: [{ name: 'unified.things.make', summary: 'Make', description: '', input: {}, output: {}, steps, mapOutput: '{}' }] });
    await expect(apps.resolve({ name: 'none', services: [], operations: ['unified=things.make'] })).rejects.toThrow(
      "operations[0]: unified.things.make needs github=v1 and demo-crm=v1 selected (its steps: 'issue' calls github.issues/create, 'members' calls github.orgs/list-members, 'task' calls demo-crm.tasks/create); add --service 'github=v1' --service 'demo-crm=v1'",
    );
    // The CLI shows the Engine's reason against the flag that asked for the operation.
    const user = cliUser(t.url);
    try {
      const init = await user.cli(['sdk', 'init', 'half', '--service', 'github=v1', '--operation', 'unified=deals.create_for_contact'], { env: { SVC_CLI_TOKEN: t.cliToken } });
      expect(init.code).toBe(1);
      expect(oneErrorLine(init.stderr)).toContain("--operation 'unified=deals.create_for_contact': unified.deals.create_for_contact needs demo-crm=v1 selected (its steps: 'findContact' calls demo-crm.contacts/list");
    } finally {
      user.cleanup();
    }
  });

  it('publishes a Unified operation with the services of some targets only, and refuses the others when called, before sending', async () => {
    // tasks.create spans five providers: an app selects it with those it uses.
    const published = await t.api('POST', '/v1/sdks/publish', { name: 'crm-tasks', services: ['demo-crm=v1'], operations: ['unified=tasks.create'] });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    t.canaries.push(published.body.token);
    const call = (targets: string[]) => t.execute(published.body.versionId, published.body.token, { operation: 'unified.tasks.create', input: { title: 'Some targets', owner: 'acme', repo: 'web' }, targets });
    const before = requests();
    const refused = await call(['github', 'crm']);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'ENGINE_INVALID_INPUT',
      message: "target 'github' of unified.tasks.create calls service 'github', which this version does not select; its targets here: crm",
      details: { field: 'targets' },
    });
    expect(requests()).toBe(before);
    const ran = await call(['crm']);
    expect(ran.body).toMatchObject({ ok: true, data: { output: { tasks: [{ provider: 'crm' }] } } });
  });

  it('runs a step only at the version pinned: another version in the workspace refuses it, and a pinned version without the step operation is refused at publish', async () => {
    const document = [
      'openapi: 3.0.3',
      "info: { title: demo-crm next, version: '2' }",
      `servers: [{ url: '${crm.url}' }]`,
      'paths:',
      '  /v1/ping:',
      '    get:',
      '      operationId: ping/get',
      "      responses: { '200': { description: ok } }",
    ].join('\n');
    expect((await t.api('POST', '/v1/workspace/imports', { name: 'demo-crm', version: 'v2', document })).status).toBe(201);
    expect((await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v2', baseUrl: crm.url })).status).toBe(200);
    try {
      const pinned = await t.api('POST', '/v1/sdks/validate', { name: 'next', services: ['demo-crm=v2', 'github=v1'], operations: ['unified=tasks.create'] });
      expect(pinned.status).toBe(400);
      expect(pinned.body.error.message).toBe(
        "operations[0]: unified.tasks.create cannot run at the selected service versions: its step 'crm' calls demo-crm.tasks/create, which demo-crm=v2 does not have",
      );
      const before = crm.requests.length;
      const res = await rest('unified.tasks.create', { input: { title: 'Pinned' }, targets: ['crm'] });
      expect(res.status).toBe(409);
      expect(res.body.data.steps[0]).toMatchObject({ target: 'crm', status: 'refused', dispatched: false, error: { code: 'ENGINE_CONFLICT', message: "service 'demo-crm' is not enabled at v1 in the workspace" } });
      expect(crm.requests.length).toBe(before);
    } finally {
      await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
    }
  });
});

describe('idempotency keys of Unified calls', () => {
  it('keeps nothing when no step reached a provider, so the same key may be retried', async () => {
    const body = { input: { title: 'Retry me' }, targets: ['crm'], idempotencyKey: 'retry-unreachable' };
    await pointService(t, 'demo-crm', 'http://127.0.0.1:9', crm.apiKey);
    let first;
    try {
      first = await rest('unified.tasks.create', body);
    } finally {
      await pointService(t, 'demo-crm', crm.url, crm.apiKey);
    }
    expect(first.status).toBe(502);
    expect(first.body).toMatchObject({ ok: false, status: 502, error: { details: { provider_execution: 'not_started', steps: [{ error: { code: 'PROVIDER_UNREACHABLE' } }] } } });

    const tasks = crm.tasks.length;
    const retried = await rest('unified.tasks.create', body);
    expect(retried.status).toBe(200);
    expect(retried.body.ok).toBe(true);
    expect(crm.tasks.length).toBe(tasks + 1);
    // That call reached the provider: its answer is kept and replayed.
    const replay = await rest('unified.tasks.create', body);
    expect(replay).toEqual(retried);
    expect(crm.tasks.length).toBe(tasks + 1);

    // A step refused before dispatch (the service is not enabled) keeps nothing either.
    const refusedBody = { input: { title: 'Later' }, targets: ['crm'], idempotencyKey: 'retry-refused' };
    expect((await t.api('DELETE', '/v1/workspace/services/demo-crm')).status).toBe(204);
    let refused;
    try {
      refused = await rest('unified.tasks.create', refusedBody);
    } finally {
      await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
    }
    expect(refused.status).toBe(409);
    expect(refused.body.data.steps[0]).toMatchObject({ status: 'refused', error: { code: 'ENGINE_CONFLICT' } });
    const afterwards = await rest('unified.tasks.create', refusedBody);
    expect(afterwards.status).toBe(200);
    expect(afterwards.body.ok).toBe(true);
  });

  it('replays a call that reached a provider with the first call’s HTTP status and envelope, not 200', async () => {
    const body = { input: { title: 'Lost answer', owner: 'acme', repo: 'hang' }, targets: ['github'], idempotencyKey: 'unknown-outcome' };
    const first = await rest('unified.tasks.create', body);
    expect(first.status).toBe(502);
    expect(first.body).toMatchObject({ ok: false, status: 502, error: { code: 'UNIFIED_STEP_FAILED', details: { provider_execution: 'unknown' } } });
    expect(first.body.data.steps[0]).toMatchObject({ status: 'failed', dispatched: true, error: { code: 'ENGINE_OUTCOME_UNKNOWN' } });
    const sent = github.requests.length;
    const replay = await rest('unified.tasks.create', body);
    expect(replay.status).toBe(502);
    expect(replay.body).toEqual(first.body);
    expect(github.requests.length).toBe(sent); // never sent again: the provider may have acted
    await t.restart();
    const afterRestart = await rest('unified.tasks.create', body);
    expect(afterRestart).toEqual(first);
    expect(github.requests.length).toBe(sent);
  });

  it('refuses a concurrent call with the same key while the first runs, then replays the first', async () => {
    const body = { input: { title: 'Twice at once', owner: 'acme', repo: 'slow' }, targets: ['github'], idempotencyKey: 'concurrent' };
    const sent = github.requests.length;
    const first = rest('unified.tasks.create', body);
    await new Promise((r) => setTimeout(r, 100));
    const second = await rest('unified.tasks.create', body);
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'ENGINE_IDEMPOTENCY_CONFLICT', retryable: true, message: expect.stringContaining('still running') });
    const done = await first;
    expect(done.status).toBe(200);
    expect(done.body.ok).toBe(true);
    expect(github.requests.length).toBe(sent + 1);
    const replay = await rest('unified.tasks.create', body);
    expect(replay).toEqual(done);
    expect(github.requests.length).toBe(sent + 1);
  });
});
