// svc-cli sdk invoke beyond a plain call: by version ID with only the execution token (no login),
// selectors for an end user's connection, and Unified operations with --targets and
// --idempotency-key. Real Engine, real demo-crm, a fake GitHub; svc-cli runs as a child process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';
import { consent } from '../fixtures/oauth.ts';

describe('svc-cli sdk invoke options', { timeout: 90_000 }, () => {
  let t: TestEngine;
  let crm: DemoProvider;
  let github: FakeProvider;
  let sdk: { versionId: string; token: string };
  /** Logged in: resolves crm@1.0.0 through the control plane. */
  let admin: CliUser;
  /** Never logged in: holds only the execution token. */
  let caller: CliUser;

  beforeAll(async () => {
    github = await startFakeProvider((req, res) => {
      if (req.method === 'POST' && req.url === '/repos/acme/web/issues') return json(res, 201, { number: 7, html_url: 'https://github.example/acme/web/issues/7', title: JSON.parse(req.body).title });
      json(res, 404, {});
    });
    crm = await startDemoProvider({ oauth: { clients: { inv: 'inv-client-secret' } } });
    t = await startTestEngine();
    await t.api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: github.url });
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
    await t.api('PUT', '/v1/buckets/default/secrets/github', { value: 'gh-invoke-secret-canary' });
    await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey });
    await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'inv', clientSecret: 'inv-client-secret' });
    sdk = (
      await t.api('POST', '/v1/sdks/publish', {
        name: 'inv',
        services: ['github=v1', 'demo-crm=v1'],
        operations: ['unified=tasks.create', 'github=issues/create', 'demo-crm=account/get', 'demo-crm=contacts/get'],
      })
    ).body;
    t.canaries.push('gh-invoke-secret-canary', crm.apiKey, 'inv-client-secret', sdk.token);
    const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef: 'u_42' });
    expect((await consent(started.body.authorizeUrl, 'u42@crm')).html).toContain('connected for u_42');
    admin = cliUser(t.url);
    expect((await admin.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
    caller = cliUser(t.url);
  });

  afterAll(async () => {
    await t?.stop();
    await crm?.stop();
    await github?.stop();
    admin?.cleanup();
    caller?.cleanup();
  });

  const envelopeOf = (stdout: string) => JSON.parse(stdout) as { ok: boolean; status: number; data: any; error: any };

  it('calls by version ID with only SVC_EXECUTION_TOKEN: no login needed', async () => {
    const r = await caller.cli(['sdk', 'invoke', sdk.versionId, 'demo-crm.contacts/get', '--params', '{"contact_id": "con_0001"}'], { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(r.code, r.stderr).toBe(0);
    expect(envelopeOf(r.stdout)).toMatchObject({ ok: true, status: 200, data: { id: 'con_0001' } });
    // The name@version form still needs the control plane, and says so.
    const named = await caller.cli(['sdk', 'invoke', 'inv@1.0.0', 'demo-crm.contacts/get'], { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(named.code).toBe(1);
    expect(named.stderr).toMatch(/login/);
    expect(r.stdout + r.stderr + named.stderr).not.toContain(sdk.token);
  });

  it("--selectors routes the call through an end user's connection", async () => {
    const asKey = await caller.cli(['sdk', 'invoke', sdk.versionId, 'demo-crm.account/get'], { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(envelopeOf(asKey.stdout).data).toEqual({ account: 'api-key', via: 'api_key' });
    const asUser = await caller.cli(['sdk', 'invoke', sdk.versionId, 'demo-crm.account/get', '--selectors', '{"endUserRef": "u_42"}'], { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(asUser.code, asUser.stderr).toBe(0);
    expect(envelopeOf(asUser.stdout).data).toEqual({ account: 'u42@crm', via: 'oauth' });
  });

  it('refuses malformed --selectors locally (exit 2) and names --selectors for a field the Engine refuses (exit 1)', async () => {
    const notJson = await caller.cli(['sdk', 'invoke', sdk.versionId, 'demo-crm.account/get', '--selectors', '{endUserRef'], { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('--selectors is not valid JSON');
    const list = await caller.cli(['sdk', 'invoke', sdk.versionId, 'demo-crm.account/get', '--selectors', '["u_42"]'], { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('--selectors must be a JSON object');
    const refused = await caller.cli(['sdk', 'invoke', sdk.versionId, 'demo-crm.account/get', '--selectors', '{"endUserRef": 42}'], { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(refused.code).toBe(1);
    expect(envelopeOf(refused.stdout).error.code).toBe('ENGINE_INVALID_INPUT');
    expect(refused.stderr).toContain('fix --selectors');
    const both = await caller.cli(['sdk', 'invoke', sdk.versionId, 'demo-crm.account/get', '--max-pages', '2', '--pagination', '{"maxPages": 2}'], { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/mutually exclusive|conflict/i);
  });

  it('calls a Unified operation with --targets and --idempotency-key; a replay returns the first answer', async () => {
    const args = ['sdk', 'invoke', 'inv@1.0.0', 'unified.tasks.create', '--targets', 'github', '--idempotency-key', 'follow-up-42', '--params', '{"title": "Follow up", "owner": "acme", "repo": "web"}'];
    const first = await admin.cli(args, { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(first.code, first.stderr).toBe(0);
    const envelope = envelopeOf(first.stdout);
    expect(envelope.data.output.tasks).toEqual([{ provider: 'github', id: '7', url: 'https://github.example/acme/web/issues/7' }]);
    const issuesBefore = github.requests.filter((r) => r.method === 'POST').length;
    const replay = await admin.cli(args, { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(replay.code, replay.stderr).toBe(0);
    expect(envelopeOf(replay.stdout).data.output).toEqual(envelope.data.output);
    expect(github.requests.filter((r) => r.method === 'POST').length).toBe(issuesBefore); // nothing sent again
  });

  it('names --targets when a Unified call is refused for its targets', async () => {
    const missing = await admin.cli(['sdk', 'invoke', 'inv@1.0.0', 'unified.tasks.create', '--params', '{"title": "x"}'], { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(missing.code).toBe(1);
    expect(envelopeOf(missing.stdout).error.message).toContain('targets is required');
    expect(missing.stderr).toContain('fix --targets');
    const unknown = await admin.cli(['sdk', 'invoke', 'inv@1.0.0', 'unified.tasks.create', '--targets', 'trello', '--params', '{"title": "x"}'], { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(unknown.code).toBe(1);
    expect(envelopeOf(unknown.stdout).error.message).toContain("unknown target 'trello'");
    const empty = await admin.cli(['sdk', 'invoke', 'inv@1.0.0', 'unified.tasks.create', '--targets', '', '--params', '{"title": "x"}'], { env: { SVC_EXECUTION_TOKEN: sdk.token } });
    expect(empty.code).toBe(2);
  });
});
