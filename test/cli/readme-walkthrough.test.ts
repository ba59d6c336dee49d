// The README walkthrough end to end through the real svc-cli: login, workspace, secret, SDK
// init/plan/apply/invoke/activity, MCP deploy and tokens — against a real Engine and the bundled
// demo-crm provider on loopback.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';

let t: TestEngine;
let crm: DemoProvider;
let user: CliUser;
let executionToken: string;
let versionId: string;

beforeAll(async () => {
  crm = await startDemoProvider();
  t = await startTestEngine();
  user = cliUser(t.url);
  t.canaries.push(crm.apiKey);
});
afterAll(async () => {
  await t?.stop();
  await crm?.stop();
  user?.cleanup();
});

const cli = (...args: string[]) => user.cli(args);

describe('svc-cli walkthrough', { timeout: 90_000 }, () => {
  it('prints its version', async () => {
    const r = await cli('--version');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')).version);
  });

  it('logs in with a credential from stdin and stores it privately', async () => {
    const { token } = await t.engine.deps.tokens.issue('cli', 'tester');
    t.canaries.push(token);
    const r = await user.cli(['login', '--with-token'], { input: `${token}\n` });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Logged in to ${t.url} as tester`);
    expect(r.stdout).not.toContain(token);
    const file = join(user.configHome, 'svc-cli', 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(user.configHome, 'svc-cli')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).engines[t.url].token).toBe(token);

    const who = await cli('whoami');
    expect(who.code).toBe(0);
    expect(who.stdout).toContain('as tester');
    expect(who.stdout).not.toContain(token);
  });

  it('selects demo-crm in svc.workspace.json, plans and applies it', async () => {
    const add = await cli('workspace', 'service', 'add', 'demo-crm', '--version', 'v1', '--base-url', crm.url);
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    expect(add.stdout).toContain('Selected demo-crm@v1');
    expect(JSON.parse(readFileSync(join(user.home, 'svc.workspace.json'), 'utf8'))).toEqual({
      services: { 'demo-crm': { version: 'v1', baseUrl: crm.url } },
    });

    const plan = await cli('workspace', 'plan');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toBe(`  + demo-crm v1 (base URL ${crm.url})\nPlan: 1 to enable, 0 to change, 0 to disable.\n`);
    // plan changes nothing
    expect((await t.api('GET', '/v1/workspace/services')).body.services).toEqual([]);

    const apply = await cli('workspace', 'apply');
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Applied: 1 enabled, 0 changed, 0 disabled.');
    const enabled = (await t.api('GET', '/v1/workspace/services')).body.services;
    expect(enabled).toMatchObject([{ name: 'demo-crm', version: 'v1', baseUrl: crm.url, baseUrlOverridden: true }]);

    const again = await cli('workspace', 'apply');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('Nothing to do: the workspace already matches svc.workspace.json.\n');
    expect((await cli('workspace', 'plan')).stdout).toContain('No changes');

    const list = await cli('workspace', 'services', 'list', '--q', 'crm', '--json');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).services.map((s: { name: string }) => s.name)).toContain('demo-crm');
  });

  it('stores the provider secret from stdin without echoing it', async () => {
    const r = await user.cli(['secret', 'set', 'demo-crm', '--value-stdin'], { input: crm.apiKey + '\n' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Secret for demo-crm stored in bucket default (effective now); sent only to ${crm.url}.\n`);
    const buckets = await cli('bucket', 'list', '--json');
    expect(JSON.parse(buckets.stdout).buckets).toMatchObject([{ name: 'default', secrets: [{ service: 'demo-crm' }] }]);
    expect(buckets.stdout + r.stdout).not.toContain(crm.apiKey);
  });

  it('defines, plans and publishes an SDK; the token is printed on the first apply only', async () => {
    const init = await cli('sdk', 'init', 'crm', '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/*', '--operation', 'demo-crm=files/get');
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('Wrote svc.sdk.json: SDK crm with 1 service, 4 operations.');
    expect(JSON.parse(readFileSync(join(user.home, 'svc.sdk.json'), 'utf8'))).toEqual({
      name: 'crm',
      services: ['demo-crm=v1'],
      // The expanded list, not the glob (docs/architecture.md, apps): a later catalog change cannot alter what apply publishes.
      operations: ['demo-crm=contacts/create', 'demo-crm=contacts/get', 'demo-crm=contacts/list', 'demo-crm=files/get'],
    });

    const validate = await cli('sdk', 'validate');
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('demo-crm.contacts/list');

    const plan = await cli('sdk', 'plan');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('  + service demo-crm v1');
    expect(plan.stdout).toContain('  + operation demo-crm.contacts/list');
    expect(plan.stdout).toContain('  + operation demo-crm.files/get');
    expect(plan.stdout).toContain('Plan: 5 to add, 0 to remove, 0 to change.');
    expect(plan.stdout).toContain('Apply would publish crm@1.0.0.');

    const apply = await cli('sdk', 'apply', '--json');
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const published = JSON.parse(apply.stdout);
    expect(published).toMatchObject({ name: 'crm', version: '1.0.0', published: true });
    expect(published.versionId).toMatch(/^ver_[0-9A-Z]{26}$/);
    expect(published.token).toMatch(/^svc_sdk_/);
    executionToken = published.token;
    versionId = published.versionId;
    t.canaries.push(executionToken);

    const again = await cli('sdk', 'apply');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`Nothing to do: crm@1.0.0 (${versionId}) is unchanged; no new version, no new token.\n`);
    expect(again.stdout).not.toContain('svc_sdk_');
    const againJson = JSON.parse((await cli('sdk', 'apply', '--json')).stdout);
    expect(againJson).toEqual({ name: 'crm', version: '1.0.0', versionId, published: false });
  });

  it('invokes an operation with the execution token and prints the envelope', async () => {
    const r = await user.cli(['sdk', 'invoke', 'crm@1.0.0', 'demo-crm.contacts/list', '--params', '{"limit": 10}'], {
      env: { SVC_EXECUTION_TOKEN: executionToken },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const envelope = JSON.parse(r.stdout);
    expect(envelope).toMatchObject({ ok: true, status: 200, error: null });
    // the Engine pages to the end: all 25 seeded contacts
    expect(envelope.data.data).toHaveLength(25);
    expect(envelope.data.has_more).toBe(false);

    const missing = await user.cli(['sdk', 'invoke', 'crm@1.0.0', 'demo-crm.contacts/get', '--params', '{"contact_id": "con_nope"}'], {
      env: { SVC_EXECUTION_TOKEN: executionToken },
    });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, status: 404 });
    expect(oneErrorLine(missing.stderr)).toMatch(/^svc-cli: demo-crm\.contacts\/get failed \(/);
  });

  it('shows the activity receipts', async () => {
    const text = await cli('sdk', 'activity', 'crm@1.0.0');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^STARTED\s+OPERATION\s+SURFACE\s+STATUS\s+OK\s+PROVIDER MS\s+PAGES\s+BYTES\s+ERROR$/m);
    expect(text.stdout).toMatch(/demo-crm\.contacts\/list\s+rest\s+200\s+yes\s+\d+\s+3\s+\d+/);

    const json = await cli('sdk', 'activity', 'crm@1.0.0', '--json', '--limit', '1');
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toMatchObject({ name: 'crm', version: '1.0.0', versionId });
    expect(parsed.receipts).toHaveLength(1);
    expect(parsed.receipts[0]).toMatchObject({ operation: 'demo-crm.contacts/get', status: 404, ok: false });

    // Page by page, newest first, with the hint to the next page: every receipt once, then no next.
    const all = JSON.parse((await cli('sdk', 'activity', 'crm@1.0.0', '--json', '--limit', '1000')).stdout).receipts.map((r: { id: string }) => r.id);
    expect(all.length).toBeGreaterThanOrEqual(2);
    const paged: string[] = [];
    let before: string | undefined;
    for (let pages = 0; pages <= all.length; pages++) {
      const page = JSON.parse((await cli('sdk', 'activity', 'crm@1.0.0', '--json', '--limit', '1', ...(before ? ['--before', before] : []))).stdout);
      paged.push(...page.receipts.map((r: { id: string }) => r.id));
      if (!page.next) break;
      expect(page.next).toBe(page.receipts[0].id);
      before = page.next;
    }
    expect(paged).toEqual(all);
    const first = await cli('sdk', 'activity', 'crm@1.0.0', '--limit', '1');
    expect(first.stderr).toContain(`Older receipts: svc-cli sdk activity crm@1.0.0 --before ${all[0]}`);
    const bad = await cli('sdk', 'activity', 'crm@1.0.0', '--before', 'yesterday');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--before must be a receipt ID');
  });

  it('plans a removed operation as a major version', async () => {
    const init = await cli('sdk', 'init', 'crm', '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/*');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('Updated svc.sdk.json');
    const plan = await cli('sdk', 'plan');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toBe(
      ['SDK crm: changes from 1.0.0', '  - operation demo-crm.files/get', 'Plan: 0 to add, 1 to remove, 0 to change.', 'Apply would publish crm@2.0.0.', ''].join('\n'),
    );
    const apply = await cli('sdk', 'apply');
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Published SDK crm@2.0.0');
    expect(apply.stdout).toMatch(/version ID {2}ver_/);
    expect(apply.stdout).not.toContain('svc_sdk_');
    const list = JSON.parse((await cli('sdk', 'list', '--json')).stdout);
    expect(list.sdks).toMatchObject([{ name: 'crm', version: '2.0.0' }]);
  });

  it('downloads the typed packages and the README of the applied version with --download', async () => {
    const r = await cli('sdk', 'apply', '--download', '--dir', 'packages');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Nothing to do: crm@2.0.0');
    expect(r.stdout).toContain('Downloaded crm@2.0.0 to packages/');
    // Install commands run from where svc-cli ran, not from --dir.
    expect(r.stdout).toMatch(/^  svc-sdk-crm-2\.0\.0\.tgz +TypeScript package: npm install \.\/packages\/svc-sdk-crm-2\.0\.0\.tgz$/m);
    expect(r.stdout).toMatch(/Python wheel: pip install \.\/packages\/svc_sdk_crm-2\.0\.0-py3-none-any\.whl$/m);
    const files = ['svc-sdk-crm-2.0.0.tgz', 'svc_sdk_crm-2.0.0-py3-none-any.whl', 'svc_sdk_crm-2.0.0.tar.gz', 'svc-sdk-crm-2.0.0-README.md'];
    for (const f of files) expect(statSync(join(user.home, 'packages', f)).size).toBeGreaterThan(0);
    expect(readFileSync(join(user.home, 'packages', files[3]!), 'utf8')).toContain('client.DemoCrm.contacts.list');
    const json = JSON.parse((await cli('sdk', 'apply', '--download', '--dir', 'packages', '--json')).stdout);
    expect(json.downloads.map((d: { kind: string }) => d.kind)).toEqual(['typescript', 'python-wheel', 'python-sdist', 'readme']);
    expect(json.downloads[0].file).toBe(join(user.home, 'packages', files[0]!));
  });

  it('deploys an MCP server, then narrows and revokes its tokens', async () => {
    const init = await cli('mcp', 'init', 'crm-agent', '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/*');
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(existsSync(join(user.home, 'svc.mcp.json'))).toBe(true);

    const plan = await cli('mcp', 'plan');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Apply would deploy crm-agent@1.0.0.');

    const apply = await cli('mcp', 'apply', '--json');
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const deployed = JSON.parse(apply.stdout);
    expect(deployed).toMatchObject({ name: 'crm-agent', version: '1.0.0', published: true });
    expect(deployed.url).toBe(`${t.url}/mcp/${deployed.versionId}`);
    expect(deployed.token).toMatch(/^svc_mcp_/);
    t.canaries.push(deployed.token);

    const again = await cli('mcp', 'apply');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nothing to do');
    expect(again.stdout).not.toContain('svc_mcp_');

    const list = await cli('mcp', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`crm-agent\\s+1\\.0\\.0\\s+${deployed.versionId}\\s+yes\\s+${deployed.url.replace(/[.]/g, '\\.')}`));

    const created = await cli('mcp', 'token', 'create', 'crm-agent', '--allow', 'demo-crm.contacts/list', '--expires', '7d', '--end-user', 'alice', '--json');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const narrowed = JSON.parse(created.stdout);
    expect(narrowed).toMatchObject({ allow: ['demo-crm.contacts/list'], binding: { endUserRef: 'alice' } });
    expect(narrowed.id).toMatch(/^tok_/);
    expect(narrowed.token).toMatch(/^svc_mcp_/);
    t.canaries.push(narrowed.token);
    const days = (Date.parse(narrowed.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);

    const tokens = await cli('mcp', 'token', 'list', 'crm-agent', '--json');
    expect(tokens.code).toBe(0);
    const listed = JSON.parse(tokens.stdout).tokens;
    expect(listed).toHaveLength(2);
    expect(listed.find((x: { id: string }) => x.id === narrowed.id)).toMatchObject({ allow: ['demo-crm.contacts/list'], revokedAt: null });
    expect(listed.find((x: { id: string }) => x.id !== narrowed.id)).toMatchObject({ allow: null, expiresAt: null });
    expect(tokens.stdout).not.toContain('svc_mcp_');

    const revoke = await cli('mcp', 'token', 'revoke', narrowed.id);
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toContain(`Revoked ${narrowed.id}`);
    const table = await cli('mcp', 'token', 'list', 'crm-agent');
    expect(table.stdout).toMatch(new RegExp(`${narrowed.id}\\s+demo-crm\\.contacts/list\\s+read-write\\s+\\S+\\s+never\\s+revoked`));
  });

  it('logs out: the credential is revoked at the Engine and removed locally', async () => {
    const stored = JSON.parse(readFileSync(join(user.configHome, 'svc-cli', 'credentials.json'), 'utf8')).engines[t.url].token;
    const r = await cli('logout');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Logged out of ${t.url}`);
    expect(existsSync(join(user.configHome, 'svc-cli', 'credentials.json'))).toBe(false);
    const res = await fetch(`${t.url}/v1/auth/whoami`, { headers: { authorization: `Bearer ${stored}` } });
    expect(res.status).toBe(401);
    const who = await cli('whoami');
    expect(who.code).toBe(1);
    expect(who.stderr).toBe(`svc-cli: not logged in to ${t.url} — run \`svc-cli login\` (or pipe a credential to \`svc-cli login --with-token\`)\n`);
  });
});
