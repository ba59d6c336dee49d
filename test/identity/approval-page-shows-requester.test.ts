// The device-approval page says who asked before anyone approves (issue 30 §3): the address the
// sign-in was started from (and whether it is this browser's), its User-Agent, when, and that
// approving grants full access for the credential's lifetime. A phished code no longer reads like
// any other.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../fixtures/browser.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine({ SVC_DEVICE_INTERVAL_S: '1', SVC_DEVICE_CODE_TTL_S: '600' });
});
afterAll(async () => t?.stop());

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** POST /v1/auth/device from the loopback address `from`, with this User-Agent. */
function startDeviceFrom(from: string, userAgent: string, body: Record<string, unknown> = {}) {
  const text = JSON.stringify({ client_id: 'svc-cli', ...body });
  const url = new URL(`${t.url}/v1/auth/device`);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'user-agent': userAgent } },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}
const page = async (query = '') => {
  const res = await fetch(`${t.url}/signin${query}`);
  return { status: res.status, html: await res.text() };
};
const approve = async (userCode: string) => {
  const res = await fetch(`${t.url}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ user_code: userCode, username: 'owner', password: await t.engine.deps.accounts.issueSigninCode('owner'), decision: 'approve' }).toString(),
  });
  return res.status;
};
const redeem = async (deviceCode: string) => {
  const res = await fetch(`${t.url}/v1/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: DEVICE_GRANT, device_code: deviceCode }) });
  const body = (await res.json()) as { access_token: string; expires_in: number };
  t.canaries.push(body.access_token);
  return body;
};

describe('the device-approval page', () => {
  it('shows the requesting address, its User-Agent and time, and warns that approving grants full access', async () => {
    const start = await startDeviceFrom('127.0.0.2', 'svc-cli/0.1.0\t<b>not markup</b>', { credential_expires_in: 7 * 86_400 });
    expect(start.status).toBe(200);
    const shown = await page(`?user_code=${start.body.user_code}`);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('Who is asking');
    expect(shown.html).toMatch(/From address<\/dt><dd>127\.0\.0\.2 \(this browser is at 127\.0\.0\.1\)/);
    expect(shown.html).toContain('svc-cli/0.1.0\ufffd&lt;b&gt;not markup&lt;/b&gt;');
    expect(shown.html).not.toContain('<b>not markup');
    expect(shown.html).toMatch(/Asked at<\/dt><dd>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(\d+ s ago\)/);
    expect(shown.html).toContain('Approving grants full access');
    expect(shown.html).toContain('for 7 days or until revoked');
    expect(shown.html).toMatch(/<input id="user_code" name="user_code" value="[A-Z0-9-]+" required readonly/);
  });

  it('says when the request came from the address of the browser looking at it', async () => {
    const start = await startDeviceFrom('127.0.0.1', 'svc-cli/0.1.0');
    expect((await page(`?user_code=${start.body.user_code}`)).html).toContain('127.0.0.1 (the same as this browser)');
  });

  it('asks for the code first when it has none, and says so when the code is unknown, before showing any approval form', async () => {
    const bare = await page();
    expect(bare.html).toContain('<form method="get" action="signin">');
    expect(bare.html).not.toContain('Who is asking');
    expect(bare.html).not.toContain('name="password"');
    const unknown = await page('?user_code=BCDF-GHJK');
    expect(unknown.status).toBe(200);
    expect(unknown.html).toContain('That code is unknown, already used or expired');
    expect(unknown.html).toContain('value="BCDF-GHJK"');
    expect(unknown.html).not.toContain('name="password"');
  });

  it('issues the credential for the lifetime asked, or 90 days by default, counted from when it is issued', async () => {
    const week = await startDeviceFrom('127.0.0.1', 'svc-cli/0.1.0', { credential_expires_in: 7 * 86_400 });
    expect(await approve(week.body.user_code)).toBe(200);
    const weekly = await redeem(week.body.device_code);
    expect(weekly.expires_in).toBe(7 * 86_400);
    const row = (await t.engine.store.listTokens('cli', 'owner')).at(-1)!;
    expect(Math.abs(Date.parse(row.expiresAt!) - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);

    const plain = await startDeviceFrom('127.0.0.1', 'svc-cli/0.1.0');
    expect((await page(`?user_code=${plain.body.user_code}`)).html).toContain('for 90 days or until revoked');
    expect(await approve(plain.body.user_code)).toBe(200);
    expect((await redeem(plain.body.device_code)).expires_in).toBe(90 * 86_400);
  });

  it('refuses a lifetime beyond 365 days, naming the field', async () => {
    const refused = await startDeviceFrom('127.0.0.1', 'svc-cli/0.1.0', { credential_expires_in: 366 * 86_400 });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('ENGINE_INVALID_INPUT');
    expect(JSON.stringify(refused.body.error)).toContain('credential_expires_in');
  });
});

describe('the device-approval page in Chromium', () => {
  it('shows who asked before the password is asked for, also for a code typed in by hand', async () => {
    const start = await startDeviceFrom('127.0.0.2', 'svc-cli/0.1.0 (linux x64)');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${t.url}/signin`);
      expect(await page.getByLabel(/Password/).count()).toBe(0);
      await page.getByLabel('Code from your terminal').fill(start.body.user_code);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Who is asking' }).waitFor();
      const text = await page.locator('main').innerText();
      expect(text).toMatch(/From address\s+127\.0\.0\.2 \(this browser is at 127\.0\.0\.1\)/);
      expect(text).toMatch(/Program\s+svc-cli\/0\.1\.0 \(linux x64\)/);
      expect(text).toContain('Approving grants full access.');
      await page.getByLabel('Account').fill('owner');
      await page.getByLabel(/Password or one-time sign-in code/).fill(await t.engine.deps.accounts.issueSigninCode('owner'));
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('heading', { name: 'Signed in' }).waitFor();
      await redeem(start.body.device_code);
    } finally {
      await browser.close();
    }
  });
});
