// The consent page in Chromium: what it shows a person (the client, where it sends them back, the
// server and its operations), signing in on it, denying, and the forms it refuses: one posted from
// another origin, one not opened in this browser, one that keeps no operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '../fixtures/browser.ts';
import { authorizeUrl, OWNER_PASSWORD, pkce, startClientSite, startMcpOAuthEngine, type ClientSite, type McpOAuthEngine } from '../fixtures/mcp-oauth.ts';

let e: McpOAuthEngine;
let site: ClientSite;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  e = await startMcpOAuthEngine();
  site = await startClientSite('Consent Client');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await e?.stop();
});

const request = (state = 'st') =>
  authorizeUrl(e.t.url, { response_type: 'code', client_id: `${site.url}/client.json`, redirect_uri: site.callback, code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: e.mcpUrl, state });

async function open(url = request()) {
  context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(url);
  return { page, response: response! };
}

describe('the consent page', { timeout: 60_000 }, () => {
  it('shows the client, its redirect host, the server and its operations, and approves after signing in', async () => {
    const { page, response } = await open();
    const csp = response.headers()['content-security-policy']!;
    expect(csp).toContain(`form-action 'self' ${site.url}`);
    expect(csp).toContain("default-src 'none'");
    expect(response.headers()['x-frame-options']).toBe('DENY');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Allow Consent Client to use agents?');
    expect(await page.locator('#consent-client').textContent()).toBe('Consent Client (described at 127.0.0.1:' + new URL(site.url).port + ')');
    expect(await page.locator('#consent-redirect').textContent()).toBe(new URL(site.url).host);
    expect(await page.locator('#consent-server').textContent()).toContain(`agents 1.0.0 ${e.mcpUrl}`);
    expect(await page.getByRole('note').textContent()).toContain('Any program running here could listen there');
    const boxes = page.getByRole('checkbox');
    expect(await boxes.count()).toBe(2);
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(true);
    expect(await page.getByLabel('Access lasts').inputValue()).toBe('30d');
    expect(await page.locator('script').count()).toBe(0);

    // A wrong password: the page again, saying so, with the choices kept.
    await (await boxes.all())[1]!.uncheck();
    await page.getByLabel(/Password or one-time sign-in code/).fill('not-the-password');
    const wrong = page.waitForResponse((r) => r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Approve' }).click();
    expect((await wrong).status()).toBe(401);
    expect(await page.getByRole('alert').textContent()).toBe('The account or password is not right.');
    expect(await (await page.getByRole('checkbox').all())[1]!.isChecked()).toBe(false);

    const answered = site.nextCallback();
    await page.getByLabel(/Password or one-time sign-in code/).fill(OWNER_PASSWORD);
    await page.getByRole('button', { name: 'Approve' }).click();
    const answer = await answered;
    e.t.canaries.push(answer.get('code')!);
    expect(answer.get('code')).toMatch(/^svc_oac_/);
    expect(answer.get('state')).toBe('st');
    expect(page.url()).toContain(site.callback);
    await context.close();
  });

  it('denies without signing in: the client learns access_denied', async () => {
    const { page } = await open(request('deny-me'));
    const answered = site.nextCallback();
    await page.getByRole('button', { name: 'Deny' }).click();
    const answer = await answered;
    expect(Object.fromEntries(answer)).toEqual({ error: 'access_denied', error_description: 'the person denied access', state: 'deny-me', iss: e.t.url });
    await context.close();
  });

  it('asks to keep at least one operation', async () => {
    const { page } = await open();
    for (const box of await page.getByRole('checkbox').all()) await box.uncheck();
    await page.getByLabel(/Password or one-time sign-in code/).fill(OWNER_PASSWORD);
    await page.getByRole('button', { name: 'Approve' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Keep at least one operation of this server.');
    await context.close();
  });

  it('refuses the form posted from another origin, or in a browser that did not open the page', async () => {
    // The page's fields, copied into a form on the client's own site (another origin) that posts to the Engine.
    const { page } = await open();
    const fields = await page.locator('input[type=hidden]').evaluateAll((inputs) => inputs.map((i) => [(i as unknown as { name: string }).name, (i as unknown as { value: string }).value]));
    const form = `<form method="post" action="${e.t.url}/oauth/authorize">${fields.map(([n, v]) => `<input type="hidden" name="${n}" value="${v}">`).join('')}<input name="username" value="owner"><input name="password" value="${OWNER_PASSWORD}"><button name="decision" value="approve">Go</button></form>`;
    site.document = form;
    site.documentType = 'text/html';
    try {
      await page.goto(`${site.url}/client.json`);
      const refused = page.waitForResponse((r) => r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Go' }).click();
      expect((await refused).status()).toBe(403);
      expect(await page.getByRole('status').textContent()).toContain('only be submitted from the Engine’s own consent page');
    } finally {
      site.documentType = 'application/json';
      site.document = { client_id: `${site.url}/client.json`, client_name: 'Consent Client', redirect_uris: [site.callback] };
    }
    await context.close();

    // Same origin, but a browser that never opened the page (no consent cookie): refused.
    const fresh = await fetch(`${e.t.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: e.t.url },
      body: new URLSearchParams([...fields, ['username', 'owner'], ['password', OWNER_PASSWORD], ['decision', 'approve']] as [string, string][]).toString(),
      redirect: 'manual',
    });
    expect(fresh.status).toBe(403);
    expect(await fresh.text()).toContain('not opened in this browser');
  });
});
