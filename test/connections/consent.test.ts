// OAuth connections per end user, consent and its edges: selectors that name an end user with
// authType 'api_key' are refused (never dropped for the workspace key); the re-consent command an
// error gives names the connection that needs it (its auth name too); the callback page repeats no
// free text from its query, only an RFC 6749 error code; `svc-cli connection create` reports a
// consent only when one completed for exactly that connection (neither a token refresh of it nor
// one of the end user's other connections). Against demo-crm's real OAuth server and the real CLI.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoProvider } from '../../src/demo-provider/index.ts';
import { startCrmApp, type PublishedApp } from '../fixtures/apps.ts';
import type { TestEngine } from '../fixtures/engine.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';
import { consent, expireAccessToken } from '../fixtures/oauth.ts';

const CLIENT_SECRET = 'consent-hardening-client-secret-canary';
let fx: PublishedApp<DemoProvider>;
let t: TestEngine;
let crm: DemoProvider;
let sdk: { versionId: string; token: string };
let user: CliUser;

beforeAll(async () => {
  fx = await startCrmApp({ operations: ['account/get'], oauthClient: { id: 'svc-consent-hardening', secret: CLIENT_SECRET } });
  ({ t, provider: crm, sdk } = fx);
  user = cliUser(t.url);
});
afterAll(async () => {
  await fx?.stop();
  user?.cleanup();
});

async function connect(endUserRef: string, account: string, authName?: string) {
  const started = await t.api('POST', '/v1/connections', { service: 'demo-crm', endUserRef, ...(authName ? { authName } : {}) });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const done = await consent(started.body.authorizeUrl, account);
  expect(done.status).toBe(200);
}

const accountOf = (selectors: Record<string, string>) => t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.account/get', input: {}, selectors });

/** Does what an operator does with the `svc-cli connection create …` an error message suggests. */
async function followAdvice(message: string) {
  const command = /`svc-cli connection create (\S+) (.*?)`/.exec(message);
  expect(command, message).not.toBeNull();
  const flags = command![2]!;
  const endUserRef = /--end-user (\S+)/.exec(flags)![1]!;
  const authName = /--auth-name (\S+)/.exec(flags)?.[1];
  await connect(endUserRef, `${endUserRef}-again@crm`, authName);
}

describe('OAuth connections: consent hardening', () => {
  // README: "An end user or auth name is never dropped for the workspace's key: without an end user,
  // with `authType: "api_key"`, or on a service without OAuth, it is a `400` naming the selector."
  it("an end user named with authType 'api_key' is refused, not dropped for the workspace API key", async () => {
    await connect('alice', 'alice@crm');
    const before = crm.requests.length;
    const res = await accountOf({ endUserRef: 'alice', authType: 'api_key' });
    expect(res.body.data).not.toEqual({ account: 'api-key', via: 'api_key' });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'selectors.endUserRef', provider_execution: 'not_started' } });
    expect(crm.requests.length).toBe(before);
  });

  it('the re-consent command a named connection\'s error suggests re-connects that connection', async () => {
    // needs_reauth: carol's 'work' connection has a dead refresh token.
    await connect('carol', 'carol-work@crm', 'work');
    await expireAccessToken(t, 'carol', 'work');
    crm.oauth.refuseRefresh = true;
    try {
      expect((await accountOf({ endUserRef: 'carol', authName: 'work' })).body.error.code).toBe('ENGINE_CREDENTIAL_REFRESH_FAILED');
    } finally {
      crm.oauth.refuseRefresh = false;
    }
    const dead = await accountOf({ endUserRef: 'carol', authName: 'work' });
    expect(dead.body.error.message).toContain('needs re-authorisation');
    await followAdvice(dead.body.error.message);
    const after = await accountOf({ endUserRef: 'carol', authName: 'work' });
    expect(after.body.error?.message ?? null, 'the advised command left the work connection needing re-authorisation').toBeNull();

    // ENGINE_CREDENTIAL_MISSING for a connection name the end user does not have yet.
    const missing = await accountOf({ endUserRef: 'carol', authName: 'billing' });
    expect(missing.body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');
    await followAdvice(missing.body.error.message);
    const billing = await accountOf({ endUserRef: 'carol', authName: 'billing' });
    expect(billing.body.error?.message ?? null, 'the advised command did not create the billing connection').toBeNull();
  });

  it('quotes what a shell would split or run in the re-consent command, so it names exactly that connection', async () => {
    // sh reads the command back into its words (printf runs it, nothing else): the end user and auth
    // name come out as they went in, with nothing substituted, split or redirected.
    const words = (message: string) => {
      const command = /`(svc-cli connection create .*)`/.exec(message)![1]!;
      return execFileSync('sh', ['-c', `printf '%s\\0' ${command}`], { encoding: 'utf8' }).split('\0').slice(0, -1);
    };
    for (const [endUserRef, authName] of [
      ["o'brien; echo $(id) `id` > x", 'work'],
      ['-n dave', 'default'],
      ['eve & \\ "quoted" * ?', 'billing team'],
    ] as const) {
      const res = await accountOf({ endUserRef, authName });
      expect(res.body.error.code).toBe('ENGINE_CREDENTIAL_MISSING');
      const args = ['svc-cli', 'connection', 'create', 'demo-crm', ...(endUserRef.startsWith('-') ? [`--end-user=${endUserRef}`] : ['--end-user', endUserRef])];
      expect(words(res.body.error.message)).toEqual(authName === 'default' ? args : [...args, '--auth-name', authName]);
    }
  });

  it('the callback page repeats no free text from its `error` parameter (only an RFC 6749 error code)', async () => {
    const bait = 'Your account is locked. Sign in again at https://evil.example/login to restore access';
    const res = await fetch(`${t.url}/v1/oauth/callback?error=${encodeURIComponent(bait)}`);
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(html).toContain('Not connected');
    expect(html).not.toContain('evil.example');
    // A real RFC 6749 code is still shown.
    expect(await (await fetch(`${t.url}/v1/oauth/callback?error=access_denied`)).text()).toContain('access_denied');
  });

  describe('svc-cli connection create', () => {
    const create = (endUser: string, extra: string[] = []) =>
      user.start(['connection', 'create', 'demo-crm', '--end-user', endUser, '--no-browser', '--timeout', '6', ...extra], { env: { SVC_CLI_TOKEN: t.cliToken }, timeoutMs: 20_000 });

    it("is not satisfied by a refresh of another of the end user's connections (auth 'work' while 'default' is being connected)", async () => {
      await connect('dan', 'dan@crm');
      await connect('dan', 'dan-work@crm', 'work');
      const running = create('dan');
      await running.waitFor(/Open this URL in a browser: (\S+)/);
      // The app keeps using dan's 'work' connection: its token is refreshed while the CLI waits.
      await expireAccessToken(t, 'dan', 'work');
      expect((await accountOf({ endUserRef: 'dan', authName: 'work' })).body.data).toEqual({ account: 'dan-work@crm', via: 'oauth' });
      const r = await running.result;
      // Nobody opened the consent URL: the CLI must not report a connection.
      expect(r.stdout).not.toContain('Connected');
      expect(r.code).toBe(1);
    });

    it('is not satisfied by a token refresh of the connection being re-consented', async () => {
      await connect('erin', 'erin@crm');
      const running = create('erin', ['--auth-name', 'default']);
      await running.waitFor(/Open this URL in a browser: (\S+)/);
      // The app keeps calling as erin; her access token is refreshed while the CLI waits.
      await expireAccessToken(t, 'erin');
      expect((await accountOf({ endUserRef: 'erin' })).body.data).toEqual({ account: 'erin@crm', via: 'oauth' });
      const r = await running.result;
      expect(r.stdout).not.toContain('Connected');
      expect(r.code).toBe(1);
    });
  });
});
