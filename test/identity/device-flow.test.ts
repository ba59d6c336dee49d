// CLI sign-in: the RFC 8628 device flow, the /signin page, the owner account and credentials.
import { hash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { createTestDatabase } from '../fixtures/postgres.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine({ SVC_DEVICE_INTERVAL_S: '1', SVC_DEVICE_CODE_TTL_S: '3' });
});
afterAll(async () => t.stop());

const post = async (path: string, body: unknown) => {
  const res = await fetch(t.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};
const poll = (device_code: string) => post('/v1/auth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code });
const signin = async (fields: Record<string, string>, headers: Record<string, string> = {}) => {
  const res = await fetch(`${t.url}/signin`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });
  return { status: res.status, html: await res.text(), headers: res.headers };
};

describe('device login', () => {
  it('prints a one-time sign-in code for the owner on first start', () => {
    expect(t.engine.signinCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(t.logs.join('')).not.toContain(t.engine.signinCode!);
  });

  it('serves an accessible sign-in page with no scripts', async () => {
    const res = await fetch(`${t.url}/signin?user_code=ABCD-EFGH`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<label for="user_code">');
    expect(html).toContain('value="ABCD-EFGH"');
    expect(html).not.toContain('<script');
  });

  it('tells one of two polls made at once to slow down, on SQLite and on PostgreSQL (each used to read the poll before both)', async () => {
    const start = await post('/v1/auth/device', { client_id: 'svc-cli' });
    const together = await Promise.all([poll(start.body.device_code), poll(start.body.device_code)]);
    expect(together.map((p) => p.body.error).sort()).toEqual(['authorization_pending', 'slow_down']);
    // On PostgreSQL the two polls' reads and writes interleave.
    const db = await createTestDatabase();
    const pg = await startTestEngine({ SVC_DEVICE_INTERVAL_S: '5' }, undefined, { databaseUrl: db.url });
    try {
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${pg.url}/v1/auth/device`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'svc-cli' }) });
        const { device_code } = (await res.json()) as { device_code: string };
        const pollPg = async () =>
          ((await (await fetch(`${pg.url}/v1/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code }) })).json()) as { error: string }).error;
        expect((await Promise.all([pollPg(), pollPg(), pollPg()])).sort()).toEqual(['authorization_pending', 'slow_down', 'slow_down']);
      }
    } finally {
      await pg.stop();
      await db.drop();
    }
  });

  it('issues a credential only after approval, once', async () => {
    const start = await post('/v1/auth/device', { client_id: 'svc-cli' });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ interval: 1, expires_in: 3, verification_uri: `${t.url}/signin` });
    expect(start.body.verification_uri_complete).toBe(`${t.url}/signin?user_code=${start.body.user_code}`);

    const pending = await poll(start.body.device_code);
    expect(pending).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
    const fast = await poll(start.body.device_code);
    expect(fast.body.error).toBe('slow_down');

    const wrong = await signin({ user_code: start.body.user_code, username: 'owner', password: 'nope', decision: 'approve' });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('role="alert"');

    const ok = await signin({ user_code: start.body.user_code, username: 'owner', password: t.engine.signinCode!, decision: 'approve' });
    expect(ok.status).toBe(200);
    expect(ok.html).toContain('signed in as owner');
    expect(ok.html).not.toContain('svc_cli_');

    await new Promise((r) => setTimeout(r, 1100));
    const granted = await poll(start.body.device_code);
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ token_type: 'Bearer', subject: 'owner' });
    expect(granted.body.access_token).toMatch(/^svc_cli_/);
    t.canaries.push(granted.body.access_token);

    const who = await fetch(`${t.url}/v1/auth/whoami`, { headers: { authorization: `Bearer ${granted.body.access_token}` } });
    expect(((await who.json()) as any).subject).toBe('owner');
    // Stored hashed only.
    const row = await t.engine.store.getTokenByHash((await import('../../src/ids/index.ts')).hashToken(granted.body.access_token));
    expect(row!.hash).not.toContain(granted.body.access_token);

    await new Promise((r) => setTimeout(r, 1100));
    expect((await poll(start.body.device_code)).body.error).toBe('invalid_grant');
  });

  it('the one-time sign-in code works once', async () => {
    const start = await post('/v1/auth/device', {});
    const reused = await signin({ user_code: start.body.user_code, username: 'owner', password: t.engine.signinCode!, decision: 'approve' });
    expect(reused.status).toBe(401);
  });

  it('stores sign-in codes under a keyed hash, never one computable from the code alone', async () => {
    const code = await t.engine.deps.accounts.issueSigninCode('owner');
    const db = new Database(join(t.dataDir, 'engine.db'), { readonly: true });
    try {
      const hashes = (db.prepare('SELECT hash FROM signin_codes').all() as { hash: string }[]).map((r) => r.hash);
      expect(hashes.length).toBeGreaterThanOrEqual(2); // the code printed at start and this one
      // An unkeyed hash of a ~38-bit code, read from a leaked database, is reversed by brute force.
      for (const unkeyed of [hash('sha256', code, 'hex'), hash('sha256', t.engine.signinCode!, 'hex')]) expect(hashes).not.toContain(unkeyed);
      expect(hashes.join()).not.toContain(code.replace('-', ''));
    } finally {
      db.close();
    }
    const start = await post('/v1/auth/device', {});
    const ok = await signin({ user_code: start.body.user_code, username: 'owner', password: code, decision: 'approve' });
    expect(ok.status).toBe(200);
  });

  it('reports a denied code as access_denied', async () => {
    const code = await t.engine.deps.accounts.issueSigninCode('owner');
    const start = await post('/v1/auth/device', {});
    const denied = await signin({ user_code: start.body.user_code, username: 'owner', password: code, decision: 'deny' });
    expect(denied.html).toContain('denied');
    expect((await poll(start.body.device_code)).body.error).toBe('access_denied');
  });

  it('reports an expired code as expired_token and refuses it on the page', async () => {
    const start = await post('/v1/auth/device', {});
    await new Promise((r) => setTimeout(r, 3100));
    expect((await poll(start.body.device_code)).body.error).toBe('expired_token');
    const code = await t.engine.deps.accounts.issueSigninCode('owner');
    const late = await signin({ user_code: start.body.user_code, username: 'owner', password: code, decision: 'approve' });
    expect(late.status).toBe(400);
    expect(late.html).toContain('expired');
  });

  it('refuses a sign-in posted from another origin', async () => {
    const start = await post('/v1/auth/device', {});
    const code = await t.engine.deps.accounts.issueSigninCode('owner');
    const res = await signin({ user_code: start.body.user_code, username: 'owner', password: code, decision: 'approve' }, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect((await poll(start.body.device_code)).body.error).toBe('authorization_pending');
  });

  it('logout revokes the presented credential', async () => {
    const { token } = await t.engine.deps.tokens.issue('cli', 'someone');
    t.canaries.push(token);
    const headers = { authorization: `Bearer ${token}` };
    expect((await fetch(`${t.url}/v1/auth/logout`, { method: 'POST', headers })).status).toBe(204);
    expect((await fetch(`${t.url}/v1/auth/whoami`, { headers })).status).toBe(401);
  });

  it('sets the owner password from SVC_OWNER_PASSWORD instead of printing a code', async () => {
    const other = await startTestEngine({ SVC_OWNER_PASSWORD: 'correct horse battery staple' });
    try {
      expect(other.engine.signinCode).toBeNull();
      expect(await other.engine.deps.accounts.authenticate('owner', 'correct horse battery staple')).toBe('owner');
      expect(await other.engine.deps.accounts.authenticate('owner', 'wrong')).toBeNull();
    } finally {
      await other.stop();
    }
  });
});
