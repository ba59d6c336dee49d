// People in a real browser: approving `svc-cli login --no-browser` on the sign-in page, and
// completing demo-crm's OAuth consent for `svc-cli connection create`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { launchChromium } from '../fixtures/browser.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { CLI_ENTRY } from '../fixtures/cli.ts';

let t: TestEngine;
let crm: DemoProvider;
let browser: Browser;
let home: string;

beforeAll(async () => {
  t = await startTestEngine({ SVC_DEVICE_INTERVAL_S: '1' });
  crm = await startDemoProvider({ oauth: { clients: { 'svc-browser': 'browser-client-secret' } } });
  t.canaries.push('browser-client-secret');
  browser = await launchChromium();
  home = mkdtempSync(join(tmpdir(), 'svc-browser-home-'));
});
afterAll(async () => {
  await browser?.close();
  await t.stop();
  await crm.stop();
  rmSync(home, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}): { child: ChildProcessWithoutNullStreams; output: () => string; done: Promise<number> } {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: { ...process.env, SVC_ENGINE_URL: t.url, XDG_CONFIG_HOME: home, NO_COLOR: '1', ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const done = new Promise<number>((r) => child.on('close', (code) => r(code ?? -1)));
  return { child, output: () => out, done };
}

async function waitFor(read: () => string, pattern: RegExp, ms = 15_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const m = read().match(pattern);
    if (m) return m;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; output so far:\n${read()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('in a browser', () => {
  it('approves `svc-cli login --no-browser` on the sign-in page, then whoami shows the owner', async () => {
    const login = cli(['login', '--no-browser']);
    const [url] = await waitFor(login.output, /http:\/\/\S+\/signin\?user_code=[A-Z0-9-]+/);
    const code = /user_code=([A-Z0-9-]+)/.exec(url)![1]!;
    expect(login.output()).toContain(code);

    const page = await browser.newPage();
    await page.goto(url);
    expect(await page.getByLabel('Code from your terminal').inputValue()).toBe(code);
    await page.getByLabel('Account').fill('owner');
    await page.getByLabel(/Password or one-time sign-in code/).fill(t.engine.signinCode!);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Signed in' }).waitFor();
    expect(await page.content()).not.toContain('svc_cli_');
    await page.screenshot({ path: join(home, 'signin.png') });
    await page.close();

    expect(await login.done).toBe(0);
    expect(login.output()).not.toMatch(/svc_cli_/);
    const who = cli(['whoami']);
    expect(await who.done).toBe(0);
    expect(who.output()).toContain('owner');
  });

  it('completes demo-crm OAuth consent for `svc-cli connection create`', async () => {
    const { token } = await t.engine.deps.tokens.issue('cli', 'owner');
    t.canaries.push(token);
    const env = { SVC_CLI_TOKEN: token };
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
    await t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-browser', clientSecret: 'browser-client-secret' });

    const create = cli(['connection', 'create', 'demo-crm', '--end-user', 'alice', '--no-browser'], env);
    const [url] = await waitFor(create.output, new RegExp(`${crm.url.replace(/[.]/g, '\\.')}/oauth/authorize\\?\\S+`));
    const page = await browser.newPage();
    await page.goto(url);
    await page.getByLabel('demo-crm account').fill('alice@crm');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByRole('heading', { name: 'Connected' }).waitFor();
    expect(page.url()).toContain(`${t.url}/v1/oauth/callback`);
    await page.close();

    expect(await create.done).toBe(0);
    expect(create.output()).toContain('Connected demo-crm for end user alice');
    const list = cli(['connection', 'list', '--json'], env);
    expect(await list.done).toBe(0);
    const { connections } = JSON.parse(list.output());
    expect(connections).toEqual(expect.arrayContaining([expect.objectContaining({ service: 'demo-crm', endUserRef: 'alice', status: 'active' })]));
  });
});
