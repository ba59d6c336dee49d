// `svc-cli login` through the RFC 8628 device flow against the real sign-in page: approve, deny,
// and a code that expires. The page is driven over HTTP as a browser would submit it.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';

let t: TestEngine;
let user: CliUser;

beforeAll(async () => {
  t = await startTestEngine({ SVC_DEVICE_INTERVAL_S: '1', SVC_DEVICE_CODE_TTL_S: '4' });
  user = cliUser(t.url);
});
afterAll(async () => {
  await t?.stop();
  user?.cleanup();
});

async function submit(userCode: string, password: string, decision: 'approve' | 'deny') {
  const res = await fetch(`${t.url}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ user_code: userCode, username: 'owner', password, decision }).toString(),
  });
  return res.status;
}

/** Starts `svc-cli login --no-browser` and returns the running process and the code it shows. */
async function startLogin() {
  const running = user.start(['login', '--no-browser']);
  const [, userCode] = await running.waitFor(/approve the code ([A-Z0-9-]+)/);
  const [, url] = await running.waitFor(/Open this URL in a browser: (\S+)/);
  return { running, userCode: userCode!, url: url! };
}

describe('svc-cli login (device flow)', () => {
  it('stores the credential once the owner approves on the sign-in page', async () => {
    const { running, userCode, url } = await startLogin();
    expect(url).toBe(`${t.url}/signin?user_code=${userCode}`);
    expect(await submit(userCode, t.engine.signinCode!, 'approve')).toBe(200);
    const r = await running.result;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Logged in to ${t.url} as owner.`);
    expect(r.stdout).not.toContain('svc_cli_');

    const file = join(user.configHome, 'svc-cli', 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')).engines[t.url];
    expect(stored).toMatchObject({ subject: 'owner' });
    expect(stored.token).toMatch(/^svc_cli_/);
    t.canaries.push(stored.token);
    expect((await user.cli(['whoami'])).stdout).toContain('as owner');
  });

  it('prints the URL instead of claiming a browser opened when the host has no graphical session', async () => {
    // No --no-browser; the helper's environment has no DISPLAY or WAYLAND_DISPLAY, as over SSH or in CI.
    const running = user.start(['login']);
    const [, userCode] = await running.waitFor(/approve the code ([A-Z0-9-]+)/);
    const [, url] = await running.waitFor(/Open this URL in a browser: (\S+)/);
    expect(url).toBe(`${t.url}/signin?user_code=${userCode}`);
    expect(await submit(userCode!, await t.engine.deps.accounts.issueSigninCode('owner'), 'deny')).toBe(200);
    const r = await running.result;
    expect(r.stdout).not.toContain('Opened');
  });

  it('fails with one line when the sign-in is denied', async () => {
    const { running, userCode } = await startLogin();
    expect(await submit(userCode, await t.engine.deps.accounts.issueSigninCode('owner'), 'deny')).toBe(200);
    const r = await running.result;
    expect(r.code).toBe(1);
    expect(oneErrorLine(r.stderr)).toBe('svc-cli: the sign-in was denied on the sign-in page — run `svc-cli login` again and approve it');
  });

  it('fails with one line when the code expires unapproved', async () => {
    const { running } = await startLogin();
    const r = await running.result;
    expect(r.code).toBe(1);
    expect(oneErrorLine(r.stderr)).toMatch(/^svc-cli: the sign-in code expired before it was approved — run `svc-cli login` again/);
  });
});
