// CLI credentials have a lifecycle (issue 30 §3): a sign-in's credential expires (90 days, or
// `--expires`), `svc-cli auth credentials list|revoke` shows and ends any of them, and a credential
// that expired or was revoked is told as such, with `svc-cli login` as the way back.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';

let t: TestEngine;
let user: CliUser;

beforeAll(async () => {
  t = await startTestEngine({ SVC_DEVICE_INTERVAL_S: '1', SVC_DEVICE_CODE_TTL_S: '60' });
  user = cliUser(t.url);
});
afterAll(async () => {
  await t?.stop();
  user?.cleanup();
});

const DAY = 86_400_000;
const stored = (u: CliUser) => JSON.parse(readFileSync(join(u.configHome, 'svc-cli', 'credentials.json'), 'utf8')).engines[t.url];

/** `svc-cli <args…> --no-browser`, approved on the sign-in page as a browser would. */
async function login(u: CliUser, args: string[]) {
  const running = u.start([...args, '--no-browser']);
  const [, userCode] = await running.waitFor(/approve the code ([A-Z0-9-]+)/);
  const res = await fetch(`${t.url}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ user_code: userCode!, username: 'owner', password: await t.engine.deps.accounts.issueSigninCode('owner'), decision: 'approve' }).toString(),
  });
  expect(res.status).toBe(200);
  const r = await running.result;
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  t.canaries.push(stored(u).token);
  return r;
}

describe('svc-cli login and its credential', () => {
  it('issues a credential that expires in 90 days, and says when', async () => {
    const r = await login(user, ['login']);
    const { expiresAt } = stored(user);
    expect(Math.abs(Date.parse(expiresAt) - (Date.now() + 90 * DAY))).toBeLessThan(60_000);
    expect(r.stdout).toContain(`The credential expires ${expiresAt}`);
    const who = await user.cli(['whoami', '--json']);
    expect(Math.abs(Date.parse(JSON.parse(who.stdout).expiresAt) - Date.parse(expiresAt))).toBeLessThan(60_000);
  });

  it('takes --expires for a shorter or longer life, under `auth login` too', async () => {
    const other = cliUser(t.url);
    try {
      await login(other, ['auth', 'login', '--expires', '7d']);
      expect(Math.abs(Date.parse(stored(other).expiresAt) - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
      const row = (await t.engine.store.listTokens('cli', 'owner')).at(-1)!;
      expect(Math.abs(Date.parse(row.expiresAt!) - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
    } finally {
      other.cleanup();
    }
  });

  it('refuses --expires never, beyond 365 days, or with --with-token, before anything is sent', async () => {
    for (const [args, what] of [
      [['login', '--expires', 'never'], /^svc-cli: --expires never is not allowed: a CLI credential grants full access, so it always expires — /],
      [['login', '--expires', '400d'], /^svc-cli: --expires '400d' is more than 365d away — /],
      [['login', '--with-token', '--expires', '7d'], /^svc-cli: --expires applies to a sign-in, not to --with-token — /],
    ] as const) {
      const r = await user.cli([...args], { input: '' });
      expect(r.code, args.join(' ')).toBe(2);
      expect(oneErrorLine(r.stderr)).toMatch(what);
    }
  });
});

describe('svc-cli auth credentials', () => {
  it('lists the live CLI credentials, marking the one in use, and revokes one by ID', async () => {
    const ci = await t.engine.deps.tokens.issue('cli', 'ci-bot');
    t.canaries.push(ci.token);
    const list = await user.cli(['auth', 'credentials', 'list']);
    expect(list.code).toBe(0);
    const mine = stored(user);
    const whoami = JSON.parse((await user.cli(['whoami', '--json'])).stdout);
    expect(list.stdout).toMatch(new RegExp(`${whoami.credentialId}\\s+owner\\s+.*active \\(this CLI\\)`));
    expect(list.stdout).toMatch(new RegExp(`${ci.row.id}\\s+ci-bot\\s+`));
    expect(list.stdout).not.toContain(mine.token);
    expect(list.stdout).not.toContain('svc_cli_');

    const revoked = await user.cli(['auth', 'credentials', 'revoke', ci.row.id]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked ${ci.row.id}`);
    // The holder is refused, told so, and told how to sign in again.
    const holder = cliUser(t.url);
    try {
      mkdirSync(join(holder.configHome, 'svc-cli'), { recursive: true, mode: 0o700 });
      writeFileSync(join(holder.configHome, 'svc-cli', 'credentials.json'), JSON.stringify({ engines: { [t.url]: { token: ci.token, subject: 'ci-bot', savedAt: new Date().toISOString() } } }), { mode: 0o600 });
      const r = await holder.cli(['sdk', 'list']);
      expect(r.code).toBe(1);
      expect(oneErrorLine(r.stderr)).toMatch(/^svc-cli: the CLI credential was revoked at \S+Z — run `svc-cli login` to sign in again$/);
    } finally {
      holder.cleanup();
    }

    // Revoked ones are listed only with --all; --json gives the same rows.
    expect((await user.cli(['auth', 'credentials', 'list'])).stdout).not.toContain(ci.row.id);
    const all = JSON.parse((await user.cli(['auth', 'credentials', 'list', '--all', '--json'])).stdout);
    expect(all.credentials.find((c: { id: string }) => c.id === ci.row.id)).toMatchObject({ subject: 'ci-bot', current: false, revokedAt: expect.any(String) });
    expect(all.credentials.find((c: { current: boolean }) => c.current)).toMatchObject({ id: whoami.credentialId, subject: 'owner', revokedAt: null });
  });

  it('refuses an ID that is no live credential, and a credential value given as one without echoing it', async () => {
    const gone = await user.cli(['auth', 'credentials', 'revoke', 'tok_01JZZZZZZZZZZZZZZZZZZZZZZZ']);
    expect(gone.code).toBe(1);
    expect(oneErrorLine(gone.stderr)).toBe('svc-cli: no live CLI credential tok_01JZZZZZZZZZZZZZZZZZZZZZZZ — list them with `svc-cli auth credentials list`');
    const value = stored(user).token;
    const pasted = await user.cli(['auth', 'credentials', 'revoke', value]);
    expect(pasted.code).toBe(2);
    expect(pasted.stderr).not.toContain(value);
  });
});

describe('an expired CLI credential', () => {
  it('is told as expired, with svc-cli login as the way back', { timeout: 30_000 }, async () => {
    // Signed in with a live credential, whose stored copy is then swapped for one that has expired
    // (as time would do it, without waiting for it).
    const live = await t.engine.deps.tokens.issue('cli', 'owner');
    const expired = await t.engine.deps.tokens.issue('cli', 'owner', { expiresAt: new Date(Date.now() - 1_000).toISOString() });
    t.canaries.push(live.token, expired.token);
    const other = cliUser(t.url);
    try {
      expect((await other.cli(['login', '--with-token'], { input: live.token })).code).toBe(0);
      const file = join(other.configHome, 'svc-cli', 'credentials.json');
      const stored = JSON.parse(readFileSync(file, 'utf8')) as { engines: Record<string, { token: string; expiresAt?: string | null }> };
      for (const entry of Object.values(stored.engines)) Object.assign(entry, { token: expired.token, expiresAt: expired.row.expiresAt });
      writeFileSync(file, JSON.stringify(stored));
      const r = await other.cli(['bucket', 'list']);
      expect(r.code).toBe(1);
      expect(oneErrorLine(r.stderr)).toBe(`svc-cli: the CLI credential expired at ${expired.row.expiresAt} — run \`svc-cli login\` to sign in again`);
    } finally {
      other.cleanup();
    }
  });
});
