// Failed sign-ins make a client address wait, and failures from many addresses close an account
// to clients it does not know. A browser that signed in before carries a signed device cookie
// (OWASP's device cookies) and is counted on its own: guesses from elsewhere, even from its own
// address, never lock it out, and the cookie by itself proves nothing (a wrong password with it is
// still a counted failure).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../fixtures/browser.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { DEVICE_COOKIE_TTL_MS, SIGNIN_DEVICE_FAILURES, SIGNIN_FAILURES } from '../../src/identity/index.ts';

let t: TestEngine;
/** A fresh Engine for the enclosing describe: the lockouts one trips would refuse the next. */
function ownEngine(env: Record<string, string> = {}) {
  beforeAll(async () => {
    t = await startTestEngine({ SVC_DEVICE_INTERVAL_S: '1', SVC_DEVICE_CODE_TTL_S: '60', ...env });
  });
  afterAll(async () => t?.stop());
}

const startDevice = async () => {
  const res = await fetch(`${t.url}/v1/auth/device`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'svc-cli' }) });
  return ((await res.json()) as { user_code: string }).user_code;
};
const signin = async (userCode: string, password: string, cookie?: string, username = 'owner') => {
  const res = await fetch(`${t.url}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ user_code: userCode, username, password, decision: 'approve' }).toString(),
  });
  return { status: res.status, setCookie: res.headers.get('set-cookie'), html: await res.text() };
};
const status = async (userCode: string) => (await t.engine.store.getDeviceCodeByUserCode(userCode))?.status;
const code = () => t.engine.deps.accounts.issueSigninCode('owner');

describe('sign-in device cookies', () => {
  ownEngine();
  let cookie = '';

  it('gives a browser that signs in a signed, script-proof device cookie for the sign-in form only', async () => {
    const secret = await code();
    const first = await signin(await startDevice(), secret);
    expect(first.status).toBe(200);
    expect(first.html).toContain('Signed in');
    const setCookie = first.setCookie!;
    expect(setCookie).toMatch(/^svc_signin_device=[A-Za-z0-9._-]+; Path=\/signin; Max-Age=15552000; HttpOnly; SameSite=Strict$/);
    expect(setCookie).not.toContain(secret);
    cookie = setCookie.split(';')[0]!;
    // A failed sign-in gets none.
    expect((await signin(await startDevice(), 'wrong')).setCookie).toBeNull();
  });

  it('keeps signing in the known browser while guesses from its own address have locked that address out', async () => {
    const target = await startDevice();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await signin(target, `guess-${i}`)).status);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    // Without the cookie even the right secret is refused unchecked; with it, it is checked and works.
    expect((await signin(target, await code())).status).toBe(429);
    const known = await signin(target, await code(), `other=1; ${cookie}`);
    expect(known.status).toBe(200);
    expect(known.html).toContain('Signed in');
    expect(await status(target)).toBe('approved');
  });

  it('trusts no cookie that was altered, issued for another account, or expired', async () => {
    const target = await startDevice();
    const [name, value] = cookie.split('=') as [string, string];
    const parts = value.split('.');
    const tampered = `${name}=${parts.slice(0, 3).join('.')}.${parts[3]!.startsWith('A') ? 'B' : 'A'}${parts[3]!.slice(1)}`;
    const anotherAccount = `${name}=${await t.engine.deps.accounts.deviceCookie('someone-else')}`;
    const expired = `${name}=${await t.engine.deps.accounts.deviceCookie('owner', Date.now() - DEVICE_COOKIE_TTL_MS - 1_000)}`;
    const unsigned = `${name}=${Buffer.from('owner').toString('base64url')}.${Date.now().toString(36)}.${'A'.repeat(22)}.${'A'.repeat(43)}`;
    for (const c of [tampered, anotherAccount, expired, unsigned]) expect((await signin(target, await code(), c)).status, c).toBe(429);
    expect(await status(target)).toBe('pending');
  });

  it('limits guesses made with a known cookie on their own count', async () => {
    const target = await startDevice();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await signin(target, `guess-${i}`, cookie)).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await signin(target, await code(), cookie)).status).toBe(429);
    // Another browser that signed in is counted apart from this one.
    const other = `svc_signin_device=${await t.engine.deps.accounts.deviceCookie('owner')}`;
    expect((await signin(target, await code(), other)).status).toBe(200);
  });

  it('reads every device cookie a request carries: one set by another app on the host does not hide ours', async () => {
    const target = await startDevice();
    // Junk, including values of the right form, set first (browsers send older cookies first).
    const wellFormedJunk = Array.from({ length: 5 }, (_, i) => `svc_signin_device=${Buffer.from('owner').toString('base64url')}.${i}.${'J'.repeat(22)}.${'K'.repeat(43)}`);
    const shadowed = ['svc_signin_device=set-by-another-app', ...wellFormedJunk, `svc_signin_device=${await t.engine.deps.accounts.deviceCookie('owner')}`].join('; ');
    expect((await signin(target, await code(), shadowed)).status).toBe(200);
  });
});

describe('sign-in device cookies when the store fails', () => {
  ownEngine();
  it('signs in without a cookie when minting one fails', async () => {
    const store = t.engine.store;
    const getUser = store.getUser;
    const target = await startDevice();
    const secret = await code();
    let reads = 0;
    // The first read (the password check) answers; the one the cookie needs fails.
    store.getUser = (subject) => (++reads === 1 ? getUser.call(store, subject) : Promise.reject(Object.assign(new Error('database gone'), { code: 'SQLITE_IOERR' })));
    try {
      const answer = await signin(target, secret);
      expect(answer.status).toBe(200);
      expect(answer.html).toContain('Signed in');
      expect(answer.setCookie).toBeNull();
      expect(reads).toBe(2);
    } finally {
      store.getUser = getUser;
    }
    expect(await status(target)).toBe('approved');
    expect(t.logs.some((l) => l.includes('sign-in device cookie not issued'))).toBe(true);
  });
});

describe('sign-in device cookies, many of one account', () => {
  ownEngine();
  it(`share one bound of ${SIGNIN_DEVICE_FAILURES} failures a window, beside each one's ${SIGNIN_FAILURES}`, async () => {
    const target = await startDevice();
    const statuses: number[] = [];
    for (let device = 0; device < SIGNIN_DEVICE_FAILURES / SIGNIN_FAILURES; device++) {
      const cookie = `svc_signin_device=${await t.engine.deps.accounts.deviceCookie('owner')}`;
      for (let i = 0; i < SIGNIN_FAILURES; i++) statuses.push((await signin(target, `guess-${device}-${i}`, cookie)).status);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGNIN_DEVICE_FAILURES);
    // A browser that has not failed once is refused all the same, unchecked.
    const fresh = `svc_signin_device=${await t.engine.deps.accounts.deviceCookie('owner')}`;
    expect((await signin(target, await code(), fresh)).status).toBe(429);
    expect(await status(target)).toBe('pending');
  });
});

describe('sign-in device cookies and a new password', () => {
  ownEngine();
  it('retires the cookies issued before the password was set', async () => {
    const before = (await signin(await startDevice(), await code())).setCookie!.split(';')[0]!;
    await t.engine.deps.accounts.ensureOwner('a-new-password-3d9f'); // SVC_OWNER_PASSWORD set at a restart
    const target = await startDevice();
    for (let i = 0; i < 11; i++) await signin(target, `guess-${i}`);
    expect((await signin(target, 'a-new-password-3d9f', before)).status).toBe(429);
    expect(await status(target)).toBe('pending');
    // A cookie issued under the new password is trusted.
    const after = `svc_signin_device=${await t.engine.deps.accounts.deviceCookie('owner')}`;
    expect((await signin(target, 'a-new-password-3d9f', after)).status).toBe(200);
  });
});

describe('sign-in device cookies behind an https public URL', () => {
  ownEngine({ SVC_PUBLIC_URL: 'https://engine.example.test' });
  it('marks the cookie Secure', async () => {
    const answer = await signin(await startDevice(), await code());
    expect(answer.status).toBe(200);
    expect(answer.setCookie).toMatch(/; Path=\/signin; Max-Age=\d+; HttpOnly; SameSite=Strict; Secure$/);
  });
});

describe('sign-in device cookies behind a public URL with a path', () => {
  ownEngine({ SVC_PUBLIC_URL: 'https://gateway.example.test/engine/' });
  it('scopes the cookie to the sign-in page as browsers reach it', async () => {
    const answer = await signin(await startDevice(), await code());
    expect(answer.status).toBe(200);
    expect(answer.setCookie).toMatch(/; Path=\/engine\/signin; Max-Age=\d+; HttpOnly; SameSite=Strict; Secure$/);
  });
  it('posts its form to the page it came from, where that cookie is sent', async () => {
    const userCode = await startDevice();
    const page = await (await fetch(`${t.url}/signin?user_code=${userCode}`)).text();
    const action = /<form method="post" action="([^"]*)"/.exec(page)?.[1];
    expect(action).toBeDefined();
    // As a browser resolves it against the address it shows: under the public URL's path.
    expect(new URL(action!, `https://gateway.example.test/engine/signin?user_code=${userCode}`).pathname).toBe('/engine/signin');
    expect(new URL(action!, `${t.url}/signin?user_code=${userCode}`).pathname).toBe('/signin');
  });
});

describe('sign-in device cookies in Chromium', () => {
  ownEngine();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  const approve = async (page: Page) => {
    await page.goto(`${t.url}/signin?user_code=${await startDevice()}`);
    await page.getByLabel('Account').fill('owner');
    await page.getByLabel(/Password or one-time sign-in code/).fill(await code());
    await page.getByRole('button', { name: 'Approve' }).click();
    return (await page.getByRole('heading').first().textContent())?.trim();
  };

  it('signs in again from the browser that signed in before, while the account is locked to others', async () => {
    const known = await browser.newContext();
    expect(await approve(await known.newPage())).toBe('Signed in');
    const target = await startDevice();
    for (let i = 0; i < 11; i++) await signin(target, `guess-${i}`);
    expect(await approve(await known.newPage())).toBe('Signed in');
    const stranger = await browser.newContext();
    const page = await stranger.newPage();
    expect(await approve(page)).not.toBe('Signed in');
    expect(await page.content()).toContain('Too many failed sign-ins');
    await Promise.all([known.close(), stranger.close()]);
  });
});
