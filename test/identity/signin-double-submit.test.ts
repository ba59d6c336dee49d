// The sign-in form submitted twice (a double click; the browser shows the second answer) answers the
// second submission with the outcome of the first, never "not right" or "unknown code": a one-time
// sign-in code is used up by the first, and the device code is no longer pending. Such a second
// submission is no guess and does not count towards the sign-in failure limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/postgres.ts';

let t: TestEngine;
const PASSWORD = 'double-submit-owner-password';

/** A fresh Engine for the enclosing describe: failed sign-ins one test makes count in the next. */
function ownEngine() {
  beforeAll(async () => {
    t = await startTestEngine({ SVC_OWNER_PASSWORD: PASSWORD, SVC_DEVICE_INTERVAL_S: '0' });
  });
  afterAll(async () => t?.stop());
}

async function startDevice(): Promise<{ device_code: string; user_code: string }> {
  const res = await fetch(`${t.url}/v1/auth/device`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'svc-cli' }) });
  expect(res.status).toBe(200);
  return (await res.json()) as { device_code: string; user_code: string };
}

async function signin(fields: Record<string, string>) {
  const res = await fetch(`${t.url}/signin`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  return { status: res.status, html: await res.text() };
}

async function poll(deviceCode: string) {
  const res = await fetch(`${t.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: 'svc-cli' }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const heading = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];

describe('a sign-in form submitted twice', () => {
  ownEngine();
  it('with the password: the second answer says the sign-in was approved, and svc-cli gets one credential', async () => {
    const device = await startDevice();
    const fields = { user_code: device.user_code, username: 'owner', password: PASSWORD, decision: 'approve' };
    const first = await signin(fields);
    expect(first.status).toBe(200);
    expect(heading(first.html)).toBe('Signed in');
    const second = await signin(fields);
    expect(second.status).toBe(200);
    expect(heading(second.html)).toBe('Already approved');
    expect(second.html).not.toContain('not right');
    const redeemed = await poll(device.device_code);
    expect(redeemed.status).toBe(200);
    t.canaries.push(redeemed.body.access_token);
    expect(redeemed.body.subject).toBe('owner');
    // Submitted again after svc-cli redeemed it: still the outcome.
    expect(heading((await signin(fields)).html)).toBe('Already approved');
  });

  it('after a denial: the second answer says it was denied', async () => {
    const device = await startDevice();
    const fields = { user_code: device.user_code, username: 'owner', password: PASSWORD, decision: 'deny' };
    expect(heading((await signin(fields)).html)).toBe('Sign-in denied');
    const second = await signin(fields);
    expect(second.status).toBe(200);
    expect(heading(second.html)).toBe('Sign-in denied');
    expect((await poll(device.device_code)).body.error).toBe('access_denied');
  });

  it('a wrong password for a code still pending is still refused', async () => {
    const device = await startDevice();
    const refused = await signin({ user_code: device.user_code, username: 'owner', password: 'not-the-password', decision: 'approve' });
    expect(refused.status).toBe(401);
    expect(refused.html).toContain('not right');
    expect((await poll(device.device_code)).body.error).toBe('authorization_pending');
  });

  it('with a one-time sign-in code, twice at once: neither answer is "not right"', async () => {
    const device = await startDevice();
    const code = await t.engine.deps.accounts.issueSigninCode('owner');
    t.canaries.push(code);
    const fields = { user_code: device.user_code, username: 'owner', password: code, decision: 'approve' };
    const answers = await Promise.all([signin(fields), signin(fields)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => heading(a.html)).sort()).toEqual(['Already approved', 'Signed in']);
    expect((await poll(device.device_code)).status).toBe(200);
  });
});

describe('a one-time sign-in code submitted twice at once', () => {
  ownEngine();
  it('counts no failed guess: the limit still allows 10 afterwards', async () => {
    const device = await startDevice();
    const code = await t.engine.deps.accounts.issueSigninCode('owner');
    t.canaries.push(code);
    const fields = { user_code: device.user_code, username: 'owner', password: code, decision: 'approve' };
    expect((await Promise.all([signin(fields), signin(fields)])).map((a) => a.status)).toEqual([200, 200]);
    const other = await startDevice();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await signin({ user_code: other.user_code, username: 'owner', password: `wrong-${i}`, decision: 'approve' })).status);
    expect(statuses).toEqual(Array(10).fill(401));
  });
});

describe('a one-time sign-in code submitted twice at once, on PostgreSQL', () => {
  // Each submission is its own transactions: the second may find the code used before the first
  // has recorded its decision.
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    t = await startTestEngine({ SVC_OWNER_PASSWORD: PASSWORD, SVC_DEVICE_INTERVAL_S: '0' }, undefined, { databaseUrl: db.url });
  });
  afterAll(async () => {
    await t?.stop();
    await db?.drop();
  });

  it('answers both with the outcome, five times over', async () => {
    for (let i = 0; i < 5; i++) {
      const device = await startDevice();
      const code = await t.engine.deps.accounts.issueSigninCode('owner');
      t.canaries.push(code);
      const fields = { user_code: device.user_code, username: 'owner', password: code, decision: 'approve' };
      const answers = await Promise.all([signin(fields), signin(fields)]);
      expect(answers.map((a) => heading(a.html)).sort()).toEqual(['Already approved', 'Signed in']);
    }
  });
});
