// Identity against hostile clients, found by a security review: guesses at the owner's secret and
// bursts of device authorizations are limited, answers that carry credentials are never cached,
// the sign-in form refuses posts from other sites, and a password retires earlier one-time codes.
// Each describe has its own Engine: the limits one test trips would refuse the next.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../fixtures/browser.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { SIGNIN_FIRST_DELAY_MS } from '../../src/identity/index.ts';

let t: TestEngine;
/** A fresh Engine for the enclosing describe. */
function ownEngine() {
  beforeAll(async () => {
    t = await startTestEngine({ SVC_DEVICE_INTERVAL_S: '1', SVC_DEVICE_CODE_TTL_S: '60' });
  });
  afterAll(async () => t?.stop());
}

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

const post = async (path: string, body: unknown) => {
  const res = await fetch(t.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};
const startDevice = () => post('/v1/auth/device', { client_id: 'svc-cli' });
const signin = async (fields: Record<string, string>, headers: Record<string, string> = {}) => {
  const res = await fetch(`${t.url}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
};
const deviceStatus = async (userCode: string) => (await t.engine.store.getDeviceCodeByUserCode(userCode))?.status;

describe('sign-in guessing', () => {
  ownEngine();
  // POST /signin is the only thing between an unauthenticated network client and an owner CLI
  // credential (anyone can start a device flow). After 10 failed sign-ins from a client address in
  // an hour, that address waits 30 s, then twice as long after each further failure: the Engine
  // stops checking its secrets meanwhile and answers 429 with Retry-After; it had checked ~1,200
  // guesses a second (an scrypt hash each with a password set).
  it('answers 429 after repeated failed sign-ins instead of checking every guess', async () => {
    const start = await startDevice();
    expect(start.status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const guess = `BCDF-${String(1000 + i).replace(/[01]/g, 'Z')}`; // code-shaped: exercises the one-time-code path too
      statuses.push((await signin({ user_code: start.body.user_code, username: 'owner', password: guess, decision: 'approve' })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    // While it lasts, even the right secret is not checked (and so not consumed).
    const code = await t.engine.deps.accounts.issueSigninCode('owner');
    const locked = await signin({ user_code: start.body.user_code, username: 'owner', password: code, decision: 'approve' });
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(SIGNIN_FIRST_DELAY_MS / 1000);
    expect(locked.html).toContain('Too many failed sign-ins from this address');
    expect(await deviceStatus(start.body.user_code)).toBe('pending');
  });

  // Starting a device authorization is unauthenticated and stores a row: 30 a minute per client.
  it('rate limits a burst of unauthenticated device authorizations', async () => {
    const answers = await Promise.all(Array.from({ length: 300 }, () => startDevice()));
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(30);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.error.code).toBe('ENGINE_RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('sign-in guessing in a concurrent burst', () => {
  ownEngine();
  // Found by review: each guess read the count before any recorded its failure, and a password
  // check awaits a hash, so a concurrent burst all saw zero and every guess was checked.
  it('checks at most 10 guesses of a concurrent burst', async () => {
    const start = await startDevice();
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signin({ user_code: start.body.user_code, username: 'burst-target', password: `wrong-guess-${i}`, decision: 'approve' }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    // The refused 20 checked nothing and count nothing: the client's window holds the 10 real guesses.
    expect((await t.engine.deps.coordinator.hit('signin-failures:client:127.0.0.1', 60_000)).count).toBe(11);
  });
});

describe('sign-in guessing behind a load balancer', () => {
  beforeAll(async () => {
    // A range: the loopback peer is in it.
    t = await startTestEngine({ SVC_DEVICE_INTERVAL_S: '1', SVC_TRUSTED_PROXIES: '127.0.0.0/8' });
  });
  afterAll(async () => t?.stop());
  // Behind a proxy every client has its address: one client's failures locked out all of them.
  it('keys client limits by the X-Forwarded-For entry the trusted proxy added', async () => {
    const start = await startDevice();
    const guess = (xff: string, i: number) =>
      signin({ user_code: start.body.user_code, username: `user-${xff}-${i}`, password: 'wrong', decision: 'approve' }, { 'x-forwarded-for': xff }).then((r) => r.status);
    const attacker: number[] = [];
    for (let i = 0; i < 12; i++) attacker.push(await guess('203.0.113.7', i));
    expect(attacker.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(attacker.slice(10)).toEqual([429, 429]);
    // Another client behind the same proxy is not locked out.
    expect(await guess('198.51.100.2', 0)).toBe(401);
    // A forged entry to the left of what the proxy added changes nothing: the proxy's entry counts.
    expect(await guess('198.51.100.99, 203.0.113.7', 99)).toBe(429);
  });
});

describe('cache headers on credentials', () => {
  ownEngine();
  // RFC 6749 §5.1 (used by RFC 8628 §3.5): a token response has `Cache-Control: no-store`. Every
  // API answer gets it: many carry tokens (publish, MCP tokens) or workspace state.
  it('answers the CLI credential from /v1/auth/token with Cache-Control: no-store', async () => {
    const start = await startDevice();
    const code = await t.engine.deps.accounts.issueSigninCode('owner');
    expect((await signin({ user_code: start.body.user_code, username: 'owner', password: code, decision: 'approve' })).status).toBe(200);
    const granted = await post('/v1/auth/token', { grant_type: DEVICE_GRANT, device_code: start.body.device_code });
    expect(granted.status).toBe(200);
    t.canaries.push(granted.body.access_token);
    expect(granted.headers.get('cache-control') ?? '').toContain('no-store');
  });

  // RFC 8628 §3.4: a device code is redeemed by the client it was issued to (found by review).
  it('redeems a device code only for the client_id it was issued to', async () => {
    const start = await post('/v1/auth/device', { client_id: 'ci-runner' });
    const code = await t.engine.deps.accounts.issueSigninCode('owner');
    expect((await signin({ user_code: start.body.user_code, username: 'owner', password: code, decision: 'approve' })).status).toBe(200);
    for (const other of [{ client_id: 'svc-cli' }, {}]) {
      const refused = await post('/v1/auth/token', { grant_type: DEVICE_GRANT, device_code: start.body.device_code, ...other });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'invalid_grant', error_description: 'this device code was issued to another client_id' });
    }
    const granted = await post('/v1/auth/token', { grant_type: DEVICE_GRANT, device_code: start.body.device_code, client_id: 'ci-runner' });
    expect(granted.status).toBe(200);
    t.canaries.push(granted.body.access_token);
  });

  // The device authorization answer holds the device_code, which redeems the credential once approved.
  it('answers the device_code from /v1/auth/device with Cache-Control: no-store', async () => {
    const start = await startDevice();
    expect(start.status).toBe(200);
    expect(start.headers.get('cache-control') ?? '').toContain('no-store');
  });
});

describe('cross-site posts of the sign-in form', () => {
  ownEngine();
  let browser: Browser;
  let attacker: Server;
  let attackerUrl = '';
  let page = '';
  beforeAll(async () => {
    browser = await launchChromium();
    attacker = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    });
    await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => attacker?.close(r));
  });

  // A third-party page gets `Origin: null` for free from a sandboxed iframe (and the sign-in page's
  // no-referrer policy makes Chromium send `Origin: null` from the page itself), so such a post is
  // judged by Sec-Fetch-Site: cross-site is refused. Defence in depth: the form carries no session,
  // so the attacker would still need the owner's secret; X-Frame-Options cannot help, as the POST
  // is processed before the browser declines to show the answer.
  it('refuses an approval posted from a sandboxed third-party iframe (Origin: null)', async () => {
    const start = await startDevice();
    const code = await t.engine.deps.accounts.issueSigninCode('owner');
    const form =
      `<form id='f' method='post' action='${t.url}/signin'>` +
      `<input name='user_code' value='${start.body.user_code}'><input name='username' value='owner'>` +
      `<input name='password' value='${code}'><input name='decision' value='approve'></form>` +
      `<script>document.getElementById('f').submit()</script>`;
    page = `<!doctype html><p>cat pictures</p><iframe sandbox="allow-forms allow-scripts" srcdoc="${form}"></iframe>`;
    const tab = await browser.newPage();
    try {
      await tab.goto(attackerUrl);
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && (await deviceStatus(start.body.user_code)) === 'pending') await new Promise((r) => setTimeout(r, 100));
    } finally {
      await tab.close();
    }
    expect(await deviceStatus(start.body.user_code)).toBe('pending');
  });
});

describe('owner sign-in secrets', () => {
  // Once the operator sets SVC_OWNER_PASSWORD, one-time sign-in codes printed by earlier starts (on a
  // console, in a CI log, in journald) stop working, rather than for the rest of their 24 h.
  it('revokes earlier one-time sign-in codes when SVC_OWNER_PASSWORD is set', async () => {
    const first = await startTestEngine();
    const code = first.engine.signinCode!;
    expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await first.stop({ keepData: true });
    const second = await startTestEngine({ SVC_OWNER_PASSWORD: 'correct horse battery staple' }, first.dataDir);
    try {
      expect(second.engine.signinCode).toBeNull();
      expect(await second.engine.deps.accounts.authenticate('owner', code)).toBeNull();
    } finally {
      await second.stop();
    }
  });
});

describe('expired sign-in state', () => {
  ownEngine();
  // Device codes and consent states are written by unauthenticated or end-user requests: once
  // expired (and a day of grace), the Engine deletes them, at start and hourly.
  it('is deleted a day after it expires, at start', async () => {
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString();
    const yesterdayish = new Date(Date.now() - 20 * 3600 * 1000).toISOString();
    for (const [userCode, expiresAt] of [['OLDC-ODES', twoDaysAgo], ['RECE-NTLY', yesterdayish]] as const) {
      await t.engine.store.insertDeviceCode({ hash: `hash-${userCode}`, userCode, clientId: 'svc-cli', status: 'pending', subject: null, createdAt: twoDaysAgo, expiresAt, lastPolledAt: null, requestedFrom: null, requestedAgent: null, credentialTtlSeconds: null });
    }
    await t.restart();
    for (let waited = 0; (await t.engine.store.getDeviceCodeByUserCode('OLDC-ODES')) !== null; waited += 20) {
      if (waited > 5000) throw new Error('the expired device code was not deleted');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await t.engine.store.getDeviceCodeByUserCode('RECE-NTLY')).not.toBeNull(); // still within its day of grace
  });
});
