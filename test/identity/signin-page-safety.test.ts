// What a browser sees of /signin and the OAuth callback (found by review): a cross-site post on a
// plain-HTTP host name, content sniffing, and one-time codes left valid by earlier starts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from '../fixtures/browser.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';

let t: TestEngine;
const startDevice = async () => {
  const res = await fetch(`${t.url}/v1/auth/device`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'svc-cli' }) });
  return (await res.json()) as { user_code: string; device_code: string };
};
const deviceStatus = async (userCode: string) => (await t.engine.store.getDeviceCodeByUserCode(userCode))?.status;

describe('cross-site posts of the sign-in form on a plain-HTTP host name', () => {
  let browser: Browser;
  let attacker: Server;
  let page = '';
  beforeAll(async () => {
    t = await startTestEngine({ SVC_DEVICE_INTERVAL_S: '1', SVC_DEVICE_CODE_TTL_S: '60' });
    // engine.test and attacker.test both resolve to loopback: an Engine reached at http://<lan-name>:<port>,
    // not at 127.0.0.1 or localhost (which Chromium treats as potentially trustworthy).
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--host-resolver-rules=MAP *.test 127.0.0.1'],
    });
    attacker = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    });
    await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => attacker?.close(r));
    await t?.stop();
  });

  // Found by review: handlers.ts submitSignin accepts `Origin: null` whenever Sec-Fetch-Site is absent, and Chromium sends no
  // Sec-Fetch-* to a non-trustworthy (plain HTTP, non-loopback) origin, so a sandboxed third-party iframe's post is taken as the Engine's own.
  it('refuses an approval posted from a sandboxed third-party iframe when the Engine is served over plain HTTP', async () => {
    const enginePort = new URL(t.url).port;
    const attackerPort = (attacker.address() as AddressInfo).port;
    const start = await startDevice();
    const code = await t.engine.deps.accounts.issueSigninCode('owner');
    const form =
      `<form id='f' method='post' action='http://engine.test:${enginePort}/signin'>` +
      `<input name='user_code' value='${start.user_code}'><input name='username' value='owner'>` +
      `<input name='password' value='${code}'><input name='decision' value='approve'></form>` +
      `<script>document.getElementById('f').submit()</script>`;
    page = `<!doctype html><p>cat pictures</p><iframe sandbox="allow-forms allow-scripts" srcdoc="${form}"></iframe>`;
    const tab = await browser.newPage();
    try {
      await tab.goto(`http://attacker.test:${attackerPort}/`);
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && (await deviceStatus(start.user_code)) === 'pending') await new Promise((r) => setTimeout(r, 100));
    } finally {
      await tab.close();
    }
    expect(await deviceStatus(start.user_code)).toBe('pending');
  });
});

describe('response headers of the HTML pages', () => {
  beforeAll(async () => {
    t = await startTestEngine();
  });
  afterAll(async () => t?.stop());

  // Found by review: pages.ts PAGE_HEADERS has no X-Content-Type-Options: nosniff (nor does any other Engine answer).
  it('sends X-Content-Type-Options: nosniff with the sign-in and OAuth callback pages', async () => {
    for (const path of ['/signin?user_code=BCDF-GHJK', '/v1/oauth/callback?error=access_denied']) {
      const res = await fetch(t.url + path);
      await res.text();
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});

describe('one-time sign-in codes across restarts', () => {
  // Found by review: accounts.ts ensureOwner issues a new one-time code at every start without retiring the earlier ones,
  // so each code printed by an earlier start (console, CI log, journald) keeps working for its full 24 h.
  it('retires the code printed by an earlier start once a new one is printed', async () => {
    const first = await startTestEngine();
    const old = first.engine.signinCode!;
    expect(old).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await first.stop({ keepData: true });
    const second = await startTestEngine({}, first.dataDir);
    try {
      const fresh = second.engine.signinCode!;
      expect(fresh).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      expect(fresh).not.toBe(old);
      expect(await second.engine.deps.accounts.authenticate('owner', old)).toBeNull();
      expect(await second.engine.deps.accounts.authenticate('owner', fresh)).toBe('owner');
    } finally {
      await second.stop();
    }
  });
});
