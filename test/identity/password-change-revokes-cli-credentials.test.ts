// A new owner password revokes the owner's CLI credentials (issue 30 §3): the owner's password is
// SVC_OWNER_PASSWORD, read at each start, and a start with another value (or the first value after
// one-time codes) replaces it. Whoever approved a sign-in with the old secret, or phished one, loses
// the credential it got; credentials of other subjects, made on the Engine host, are not the
// password's and stay.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
let t: TestEngine | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

/** Signs svc-cli in through the device flow, approving with `secret`; returns the credential. */
async function signIn(engine: TestEngine, secret: string): Promise<string> {
  const post = (path: string, body: unknown) => fetch(engine.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
  const start = await post('/v1/auth/device', { client_id: 'svc-cli' });
  const approved = await fetch(`${engine.url}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ user_code: start.user_code, username: 'owner', password: secret, decision: 'approve' }).toString(),
  });
  expect(approved.status).toBe(200);
  const { access_token } = await post('/v1/auth/token', { grant_type: DEVICE_GRANT, device_code: start.device_code });
  engine.canaries.push(access_token);
  return access_token;
}
const whoami = async (engine: TestEngine, token: string) => {
  const res = await fetch(`${engine.url}/v1/auth/whoami`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as any };
};
/** Restarts on the same data with another environment, as an operator would. */
async function restartWith(env: Record<string, string>): Promise<TestEngine> {
  const dataDir = t!.dataDir;
  await t!.stop({ keepData: true });
  t = await startTestEngine(env, dataDir);
  return t;
}

describe('a new owner password', () => {
  it("revokes the owner's CLI credentials and keeps those of other subjects", async () => {
    t = await startTestEngine({ SVC_OWNER_PASSWORD: 'first-password-8c1e' });
    const owners = await signIn(t, 'first-password-8c1e');
    const ci = await t.engine.deps.tokens.issue('cli', 'ci-bot');
    t.canaries.push(ci.token);

    // The same password at a restart changes nothing.
    let engine = await restartWith({ SVC_OWNER_PASSWORD: 'first-password-8c1e' });
    expect((await whoami(engine, owners)).status).toBe(200);

    engine = await restartWith({ SVC_OWNER_PASSWORD: 'second-password-51aa' });
    const refused = await whoami(engine, owners);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'ENGINE_UNAUTHENTICATED', details: { reason: 'revoked' } });
    expect(refused.body.error.message).toMatch(/^the CLI credential was revoked at \d{4}-/);
    expect((await whoami(engine, ci.token)).status).toBe(200);
    expect(engine.logs.some((l) => l.includes("the owner's password changed") && l.includes('"revoked":1'))).toBe(true);
    // Signing in again with the new password works.
    expect((await whoami(engine, await signIn(engine, 'second-password-51aa'))).status).toBe(200);
  });

  it('set for the first time, after one-time codes, revokes the credentials those codes approved', async () => {
    t = await startTestEngine();
    const owners = await signIn(t, t.engine.signinCode!);
    expect((await whoami(t, owners)).status).toBe(200);
    const engine = await restartWith({ SVC_OWNER_PASSWORD: 'now-a-password-77d0' });
    expect((await whoami(engine, owners)).body.error?.details?.reason).toBe('revoked');
  });
});
