// `svc-cli connection create|list` against demo-crm's real OAuth server: the CLI prints the
// consent URL (--no-browser), a "browser" completes the consent, and the CLI sees the connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';
import { consent } from '../fixtures/oauth.ts';

const CLIENT_SECRET = 'cli-oauth-client-secret-canary';
let t: TestEngine;
let crm: DemoProvider;
let user: CliUser;

beforeAll(async () => {
  crm = await startDemoProvider({ oauth: { clients: { 'svc-cli-test': CLIENT_SECRET } } });
  t = await startTestEngine();
  t.canaries.push(CLIENT_SECRET);
  user = cliUser(t.url);
  expect((await user.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
  expect((await user.cli(['workspace', 'service', 'add', 'demo-crm', '--version', 'v1', '--base-url', crm.url])).code).toBe(0);
  expect((await user.cli(['workspace', 'apply'])).code).toBe(0);
});
afterAll(async () => {
  await t?.stop();
  await crm?.stop();
  user?.cleanup();
});

describe('svc-cli connection', () => {
  it('needs the OAuth client first, and says how to store it', async () => {
    const r = await user.cli(['connection', 'create', 'demo-crm', '--end-user', 'alice', '--no-browser']);
    expect(r.code).toBe(1);
    expect(oneErrorLine(r.stderr)).toContain('--oauth-client-id');
  });

  it('stores the OAuth client secret from stdin', async () => {
    const r = await user.cli(['secret', 'set', 'demo-crm', '--oauth-client-id', 'svc-cli-test', '--value-stdin'], { input: CLIENT_SECRET });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`OAuth client svc-cli-test for demo-crm stored in bucket default (effective now); sent only to ${crm.url}.\n`);
  });

  it('connects an end user once the consent completes', async () => {
    const running = user.start(['connection', 'create', 'demo-crm', '--end-user', 'alice', '--no-browser']);
    const [, url] = await running.waitFor(/Open this URL in a browser: (\S+)/);
    expect(new URL(url!).origin).toBe(crm.url);
    expect((await consent(url!, 'alice@crm')).status).toBe(200);
    const r = await running.result;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Connected demo-crm for end user alice \(connection \S+, auth default\)\./);

    const list = await user.cli(['connection', 'list', '--service', 'demo-crm', '--json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).connections).toMatchObject([{ service: 'demo-crm', endUserRef: 'alice', authName: 'default', status: 'active' }]);
    expect(list.stdout).not.toMatch(/access_token|refresh_token|accessToken|refreshToken/);
    const table = await user.cli(['connection', 'list']);
    expect(table.stdout).toMatch(/demo-crm\s+alice\s+default\s+active/);
  });

  it('waits for a fresh consent when the end user is already connected, and times out clearly', async () => {
    const r = await user.cli(['connection', 'create', 'demo-crm', '--end-user', 'alice', '--no-browser', '--timeout', '1']);
    expect(r.code).toBe(1);
    expect(oneErrorLine(r.stderr)).toMatch(/^svc-cli: the consent for demo-crm \(end user alice\) was not completed by \S+ — run the command again/);
  });
});
