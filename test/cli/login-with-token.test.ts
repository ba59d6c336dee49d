// Automation without a browser: a credential created on the Engine host with
// `svc-engine credential create` is piped into `svc-cli login --with-token`; revoking it with
// `svc-engine credential revoke` locks the CLI out. SVC_CLI_TOKEN overrides for one command.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { REPO, cliUser, oneErrorLine, run, type CliUser } from '../fixtures/cli.ts';

let t: TestEngine;
let user: CliUser;

beforeAll(async () => {
  t = await startTestEngine();
  user = cliUser(t.url);
});
afterAll(async () => {
  await t?.stop();
  user?.cleanup();
});

const svcEngine = (...args: string[]) =>
  run(process.execPath, ['--no-node-snapshot', join(REPO, 'src/bin/svc-engine.ts'), ...args], {
    env: { PATH: process.env.PATH, HOME: user.home, SVC_DATA_DIR: t.dataDir, SVC_LOG_LEVEL: 'silent' },
  });

describe('svc-cli in automation', () => {
  let credential: string;
  let credentialId: string;

  it('logs in with a credential piped from `svc-engine credential create`', async () => {
    const created = await svcEngine('credential', 'create', '--subject', 'ci');
    expect(created.code).toBe(0);
    credential = created.stdout.trim();
    expect(credential).toMatch(/^svc_cli_/);
    credentialId = /created CLI credential (tok_\w+)/.exec(created.stderr)![1]!;
    t.canaries.push(credential);

    const login = await user.cli(['login', '--with-token'], { input: created.stdout });
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('as ci');
    expect(login.stdout).not.toContain(credential);

    const file = join(user.configHome, 'svc-cli', 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(user.configHome, 'svc-cli')).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).toContain(credential);

    const who = await user.cli(['whoami', '--json']);
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ engineUrl: t.url, subject: 'ci', credentialId });
  });

  it('gets a credential from `svc-engine credential create` that expires in 90 days, or as --expires says', { timeout: 120_000 }, async () => {
    const DAY = 86_400_000;
    const expiry = (stderr: string) => Date.parse(/expiring (\S+);/.exec(stderr)![1]!);
    const [plain, week, forever, bad] = await Promise.all([
      svcEngine('credential', 'create', '--subject', 'ci-default'),
      svcEngine('credential', 'create', '--subject', 'ci-week', '--expires', '7d'),
      svcEngine('credential', 'create', '--subject', 'ci-forever', '--expires', 'never'),
      svcEngine('credential', 'create', '--subject', 'ci', '--expires', 'soon'),
    ]);
    t.canaries.push(plain.stdout.trim(), week.stdout.trim(), forever.stdout.trim());
    expect(Math.abs(expiry(plain.stderr) - (Date.now() + 90 * DAY))).toBeLessThan(60_000);
    expect(Math.abs(expiry(week.stderr) - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
    expect(forever.stderr).toContain('expiring never;');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--expires must be a number of minutes, hours or days (30m, 12h, 90d) or never');
    expect(bad.stdout).toBe('');
  });

  it('lets SVC_CLI_TOKEN override the stored credential for one command', async () => {
    const other = await t.engine.deps.tokens.issue('cli', 'robot');
    t.canaries.push(other.token);
    const r = await user.cli(['whoami'], { env: { SVC_CLI_TOKEN: other.token } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('as robot (credential from SVC_CLI_TOKEN)');
    const back = await user.cli(['whoami']);
    expect(back.stdout).toContain('as ci');
  });

  it('is locked out once the credential is revoked on the Engine host', async () => {
    const revoked = await svcEngine('credential', 'revoke', credentialId);
    expect(revoked.code).toBe(0);
    const who = await user.cli(['whoami']);
    expect(who.code).toBe(1);
    expect(oneErrorLine(who.stderr)).toMatch(/^svc-cli: the CLI credential was revoked at \S+Z — run `svc-cli login` to sign in again$/);
    // logout still cleans up locally when the Engine already refuses the credential
    const logout = await user.cli(['logout']);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain('already expired or revoked');
    expect((await user.cli(['whoami'])).stderr).toContain('not logged in');
  });
});
