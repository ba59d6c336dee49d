// Guesses at the sign-in form from one client must never lock another out (issue 30 §4): the review
// found ten wrong guesses from anywhere made the owner's correct one-time code answer 429 for 15
// minutes. Failures now count per client address, and the account closes to unknown clients only
// after failures from many distinct addresses, never to a browser that signed in before.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { SIGNIN_ACCOUNT_CLIENTS, SIGNIN_FAILURES } from '../../src/identity/index.ts';

let t: TestEngine;
function ownEngine(env: Record<string, string> = {}) {
  beforeAll(async () => {
    t = await startTestEngine({ SVC_DEVICE_INTERVAL_S: '1', SVC_DEVICE_CODE_TTL_S: '600', ...env });
  });
  afterAll(async () => t?.stop());
}

const startDevice = async () => {
  const res = await fetch(`${t.url}/v1/auth/device`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'svc-cli' }) });
  return ((await res.json()) as { user_code: string }).user_code;
};
const code = () => t.engine.deps.accounts.issueSigninCode('owner');
const status = async (userCode: string) => (await t.engine.store.getDeviceCodeByUserCode(userCode))?.status;

/**
 * Posts the sign-in form from the loopback address `from` (127.0.0.2, …: all of 127.0.0.0/8 is
 * this machine), so the Engine sees a different peer for each, as it would for different clients.
 */
function signinFrom(from: string, userCode: string, password: string, headers: Record<string, string> = {}) {
  const body = new URLSearchParams({ user_code: userCode, username: 'owner', password, decision: 'approve' }).toString();
  const url = new URL(`${t.url}/signin`);
  return new Promise<{ status: number; retryAfter: string | undefined; setCookie: string | undefined; html: string }>((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        let html = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (html += d));
        res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], setCookie: res.headers['set-cookie']?.[0], html }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('wrong guesses from one client address', () => {
  ownEngine();
  it("leave the owner's correct code from another address working, and make only the guessing address wait", async () => {
    const target = await startDevice();
    const guesses: number[] = [];
    for (let i = 0; i < SIGNIN_FAILURES; i++) guesses.push((await signinFrom('127.0.0.2', target, `BCDF-GHJ${i + 2}`)).status);
    expect(guesses).toEqual(Array(SIGNIN_FAILURES).fill(401));

    const owner = await signinFrom('127.0.0.3', target, await code());
    expect(owner.status).toBe(200);
    expect(owner.html).toContain('Signed in');
    expect(await status(target)).toBe('approved');

    const waiting = await signinFrom('127.0.0.2', await startDevice(), await code());
    expect(waiting.status).toBe(429);
    expect(Number(waiting.retryAfter)).toBeGreaterThan(0);
    expect(waiting.html).toContain('Too many failed sign-ins from this address');
  });
});

describe('an account that failing clients from many addresses have closed', () => {
  // Behind a trusted proxy every client has its X-Forwarded-For address: many clients, one test.
  ownEngine({ SVC_TRUSTED_PROXIES: '127.0.0.1' });
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const address = (n: number) => `198.51.${100 + Math.floor(n / 250)}.${(n % 250) + 1}`;

  it(`closes to unknown clients only after failures from ${SIGNIN_ACCOUNT_CLIENTS} distinct addresses, and never to a browser that signed in before`, async () => {
    const known = await signinFrom('127.0.0.1', await startDevice(), await code(), from('192.0.2.10'));
    expect(known.status).toBe(200);
    const cookie = known.setCookie!.split(';')[0]!;

    // One address short of the bound, each failing twice: repeats from one address count once.
    const target = await startDevice();
    for (let batch = 0; batch < SIGNIN_ACCOUNT_CLIENTS - 1; batch += 33) {
      const addresses = Array.from({ length: Math.min(33, SIGNIN_ACCOUNT_CLIENTS - 1 - batch) }, (_, i) => address(batch + i));
      const statuses = await Promise.all(addresses.flatMap((a) => [signinFrom('127.0.0.1', target, 'wrong-1', from(a)), signinFrom('127.0.0.1', target, 'wrong-2', from(a))]));
      expect(statuses.every((s) => s.status === 401)).toBe(true);
    }
    const stillOpen = await startDevice();
    expect((await signinFrom('127.0.0.1', stillOpen, await code(), from('203.0.113.1'))).status).toBe(200);

    // The next distinct address to fail closes the account to clients it does not know.
    expect((await signinFrom('127.0.0.1', target, 'wrong-3', from(address(SIGNIN_ACCOUNT_CLIENTS)))).status).toBe(401);
    const closed = await signinFrom('127.0.0.1', target, await code(), from('203.0.113.2'));
    expect(closed.status).toBe(429);
    expect(closed.html).toContain('from many addresses');
    expect(await status(target)).toBe('pending');

    // The browser that signed in before still signs in, from any address.
    const owner = await signinFrom('127.0.0.1', target, await code(), { ...from('203.0.113.3'), cookie });
    expect(owner.status).toBe(200);
    expect(await status(target)).toBe('approved');
  }, 60_000);
});
