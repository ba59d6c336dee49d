// Deleting a connection revokes its grant at the provider (RFC 7009) when the service declares a
// revocation endpoint, and says whether the provider confirmed; the local delete stands either way.
// And demo-crm's authorization endpoint redirects only to a registered redirect URI.
// Real Engine, real svc-cli, real demo-crm on loopback; other providers are real HTTP servers on 127.0.0.1.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuth2Auth, ServiceIndex } from '../../src/catalog/index.ts';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { consent } from '../fixtures/oauth.ts';

const CLIENT_ID = 'rev';
const CLIENT_SECRET = 'connection-revocation-client-secret-canary';

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

describe('deleting a connection revokes the grant at the provider', { timeout: 90_000 }, () => {
  let t: TestEngine;
  let crm: DemoProvider;
  let user: CliUser;

  /** Enables `service` at `baseUrl` and sets its OAuth client. */
  const enable = async (service: string, baseUrl: string) => {
    expect((await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1', baseUrl })).status).toBe(200);
    expect((await t.api('PUT', `/v1/buckets/default/oauth-clients/${service}`, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })).status).toBe(204);
  };
  /**
   * A service made from demo-crm's catalog entry with its OAuth revocation endpoint replaced (or
   * removed), stored as another replica's import is: the Engine finds it in the Store.
   */
  const addService = async (service: string, revocationUrl: string | undefined, baseUrl: string) => {
    const demo = t.engine.deps.catalog.get('demo-crm', 'v1')!;
    const auth = demo.auth.map((a) => {
      if (a.type !== 'oauth2') return a;
      const { revocationUrl: _, ...rest } = a;
      return { ...rest, ...(revocationUrl === undefined ? {} : { revocationUrl }) } satisfies OAuth2Auth;
    });
    const index: ServiceIndex = { ...demo, service, auth };
    expect(await t.engine.store.insertImportedService({ service, version: 'v1', index: JSON.stringify(index), importedAt: new Date().toISOString() })).toBe(true);
    await enable(service, baseUrl);
  };
  /** Connects `endUserRef` through the provider's consent; returns the connection's ID and its tokens (added to the canaries). */
  const connect = async (service: string, endUserRef: string): Promise<{ id: string; tokens: Tokens }> => {
    const started = await t.api('POST', '/v1/connections', { service, endUserRef });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect((await consent(started.body.authorizeUrl, `${endUserRef}@crm`)).html).toContain(`connected for ${endUserRef}`);
    const row = (await t.engine.store.getConnection(service, endUserRef, 'default'))!;
    const tokens = JSON.parse(t.engine.deps.vault.open(`connection/${service}/${endUserRef}/default`, row.tokens)) as Tokens;
    t.canaries.push(tokens.accessToken, tokens.refreshToken);
    return { id: row.id, tokens };
  };
  /** What `provider` answers a call made with `accessToken` directly (no Engine in between). */
  const providerAnswers = async (provider: DemoProvider, accessToken: string) => {
    const res = await fetch(`${provider.url}/v1/account`, { headers: { authorization: `Bearer ${accessToken}` } });
    return { status: res.status, body: await res.json() };
  };
  const listed = async () => ((await t.api('GET', '/v1/connections')).body.connections as { id: string }[]).map((c) => c.id);
  /** Neither the tokens nor the client secret appear in `text`. */
  const noSecretsIn = (text: string, tokens: Tokens) => {
    for (const secret of [tokens.accessToken, tokens.refreshToken, CLIENT_SECRET]) expect(text.includes(secret)).toBe(false);
  };

  beforeAll(async () => {
    crm = await startDemoProvider({ oauth: { clients: { [CLIENT_ID]: CLIENT_SECRET } } });
    t = await startTestEngine();
    t.canaries.push(CLIENT_SECRET);
    await enable('demo-crm', crm.url);
    user = cliUser(t.url);
    expect((await user.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
  });

  afterAll(async () => {
    await t?.stop(); // fails when a token or the client secret reached a log line
    await crm?.stop();
    user?.cleanup();
  });

  it('DELETE /v1/connections/{id}: the provider revokes the grant, and its access and refresh tokens are refused from then on', async () => {
    const alice = await connect('demo-crm', 'alice');
    expect(await providerAnswers(crm, alice.tokens.accessToken)).toEqual({ status: 200, body: { account: 'alice@crm', via: 'oauth' } });
    const seen = crm.oauth.revocations.length;

    const deleted = await t.api('DELETE', `/v1/connections/${alice.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ connection: expect.objectContaining({ id: alice.id, service: 'demo-crm', endUserRef: 'alice', authName: 'default' }), revocation: { revoked: true } });
    noSecretsIn(JSON.stringify(deleted.body), alice.tokens);
    expect(await listed()).not.toContain(alice.id);
    // The provider saw one revocation, made with the refresh token, and it named a live grant.
    expect(crm.oauth.revocations.slice(seen)).toEqual([{ tokenTypeHint: 'refresh_token', revoked: true }]);
    // Revoking the grant revoked every token of it: the access token is refused, the refresh token too.
    expect((await providerAnswers(crm, alice.tokens.accessToken)).status).toBe(401);
    const refresh = await fetch(`${crm.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: alice.tokens.refreshToken, client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
    });
    expect({ status: refresh.status, body: await refresh.json() }).toEqual({ status: 400, body: { error: 'invalid_grant' } });
    expect((await t.api('DELETE', `/v1/connections/${alice.id}`)).status).toBe(404);
  });

  it('svc-cli connection delete says the grant was revoked, in words and with --json', async () => {
    const bob = await connect('demo-crm', 'bob');
    const text = await user.cli(['connection', 'delete', 'demo-crm', '--end-user', 'bob']);
    expect({ code: text.code, stderr: text.stderr }).toEqual({ code: 0, stderr: '' });
    expect(text.stdout).toBe(`Deleted connection ${bob.id} and revoked its grant at demo-crm; calls for that end user are refused until they connect again.\n`);
    expect((await providerAnswers(crm, bob.tokens.accessToken)).status).toBe(401);

    const carol = await connect('demo-crm', 'carol');
    const asJson = await user.cli(['connection', 'delete', carol.id, '--json']);
    expect(asJson.code, asJson.stderr).toBe(0);
    expect(JSON.parse(asJson.stdout)).toEqual({ connection: expect.objectContaining({ id: carol.id, endUserRef: 'carol' }), revocation: { revoked: true } });
    expect((await providerAnswers(crm, carol.tokens.accessToken)).status).toBe(401);
    for (const [out, tokens] of [[text, bob.tokens], [asJson, carol.tokens]] as const) noSecretsIn(out.stdout + out.stderr, tokens);
  });

  it('a service that declares no revocation endpoint: deleted here, the answer says revocation is not supported, nothing is sent', async () => {
    await addService('crm-norevoke', undefined, crm.url);
    const dave = await connect('crm-norevoke', 'dave');
    const seen = crm.requests.length + crm.oauth.revocations.length;
    const deleted = await t.api('DELETE', `/v1/connections/${dave.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.revocation).toEqual({
      revoked: false,
      reason: 'not_supported',
      message: "crm-norevoke declares no token revocation endpoint; revoke the grant in the provider's settings",
    });
    expect(await listed()).not.toContain(dave.id);
    expect(crm.requests.length + crm.oauth.revocations.length).toBe(seen);
    // The grant stays at the provider (nothing revoked it).
    expect((await providerAnswers(crm, dave.tokens.accessToken)).status).toBe(200);

    const erin = await connect('crm-norevoke', 'erin');
    const cli = await user.cli(['connection', 'delete', 'crm-norevoke', '--end-user', 'erin']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toBe(
      `Deleted connection ${erin.id} locally; the provider did not confirm revocation: crm-norevoke declares no token revocation endpoint; revoke the grant in the provider's settings. Calls for that end user are refused until they connect again.\n`,
    );
    expect(await listed()).not.toContain(erin.id);
  });

  it('a provider that is down: deleted here all the same, and the answer says the provider did not confirm', async () => {
    const down = await startDemoProvider({ oauth: { clients: { [CLIENT_ID]: CLIENT_SECRET } } });
    await addService('crm-down', '/oauth/revoke', down.url);
    const frank = await connect('crm-down', 'frank');
    const grace = await connect('crm-down', 'grace');
    await down.stop();

    const deleted = await t.api('DELETE', `/v1/connections/${frank.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.revocation).toEqual({ revoked: false, reason: 'unreachable', message: "crm-down's revocation endpoint unreachable (ECONNREFUSED)" });
    expect(await listed()).not.toContain(frank.id);
    // Calls for that end user are refused at once: the Engine forgot the tokens.
    expect(await t.engine.store.getConnection('crm-down', 'frank', 'default')).toBeNull();

    const cli = await user.cli(['connection', 'delete', 'crm-down', '--end-user', 'grace']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(`Deleted connection ${grace.id} locally; the provider did not confirm revocation: crm-down's revocation endpoint unreachable (ECONNREFUSED).`);
    expect(await listed()).not.toContain(grace.id);
    expect(t.logs.filter((l) => l.includes('oauth revocation not confirmed') && l.includes('"reason":"unreachable"'))).toHaveLength(2);
  });

  it('a provider that refuses: the answer names only an RFC 6749 error code or the status, never what it echoed', async () => {
    // A revocation endpoint elsewhere (an absolute revocationUrl) that echoes the request in its error.
    const echo: FakeProvider = await startFakeProvider((req, res) => {
      const form = new URLSearchParams(req.body);
      json(res, 400, { error: form.get('token'), error_description: req.body });
    });
    try {
      await addService('crm-echo', `${echo.url}/revoke`, crm.url);
      const heidi = await connect('crm-echo', 'heidi');
      const deleted = await t.api('DELETE', `/v1/connections/${heidi.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body.revocation).toEqual({ revoked: false, reason: 'refused', message: "crm-echo's revocation endpoint answered HTTP 400" });
      noSecretsIn(JSON.stringify(deleted.body), heidi.tokens);
      // The request was RFC 7009's, authenticated as the token endpoint's are.
      expect(echo.requests).toHaveLength(1);
      expect(echo.requests[0]).toMatchObject({ method: 'POST', url: '/revoke', headers: expect.objectContaining({ 'content-type': 'application/x-www-form-urlencoded' }) });
      expect(Object.fromEntries(new URLSearchParams(echo.requests[0]!.body))).toEqual({
        token: heidi.tokens.refreshToken,
        token_type_hint: 'refresh_token',
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
      });

      const ivan = await connect('crm-echo', 'ivan');
      const cli = await user.cli(['connection', 'delete', ivan.id, '--json']);
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout).revocation).toEqual({ revoked: false, reason: 'refused', message: "crm-echo's revocation endpoint answered HTTP 400" });
      noSecretsIn(cli.stdout + cli.stderr, ivan.tokens);
      expect(await listed()).not.toContain(ivan.id);
    } finally {
      await echo.stop();
    }
  });

  it('demo-crm answers an RFC 6749 error for a revocation it cannot accept, and 200 for a token it does not know', async () => {
    const revoke = async (form: Record<string, string>) => {
      const res = await fetch(`${crm.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const client = { client_id: CLIENT_ID, client_secret: CLIENT_SECRET };
    expect(await revoke({ token: 'x', client_id: CLIENT_ID, client_secret: 'wrong' })).toEqual({ status: 401, body: { error: 'invalid_client' } });
    expect(await revoke(client)).toEqual({ status: 400, body: { error: 'invalid_request' } });
    expect(await revoke({ ...client, token: 'x', token_type_hint: 'id_token' })).toEqual({ status: 400, body: { error: 'unsupported_token_type' } });
    expect(await revoke({ ...client, token: 'no-such-token' })).toEqual({ status: 200, body: null });
  });
});

describe('demo-crm redirects consent only to a registered redirect URI', { timeout: 60_000 }, () => {
  let crm: DemoProvider;
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
  const authorize = (provider: DemoProvider, redirectUri: string, clientId = CLIENT_ID) =>
    fetch(
      `${provider.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, state: 's', code_challenge: challenge, code_challenge_method: 'S256' })}`,
      { redirect: 'manual' },
    );
  const submit = (provider: DemoProvider, redirectUri: string) =>
    fetch(`${provider.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: redirectUri, state: 's', code_challenge: challenge, account: 'mallory@crm', decision: 'allow' }),
      redirect: 'manual',
    });
  /** A 400 error page, with no redirect. */
  const refused = async (res: Response) => ({ status: res.status, location: res.headers.get('location'), type: res.headers.get('content-type'), body: await res.text() });

  beforeAll(async () => {
    crm = await startDemoProvider({ oauth: { clients: { [CLIENT_ID]: CLIENT_SECRET } } });
  });
  afterAll(async () => {
    await crm?.stop();
  });

  it('refuses a redirect_uri that is not the Engine callback on loopback, on the consent page and on its form, with an error page', async () => {
    for (const uri of [
      'https://attacker.example/v1/oauth/callback',
      'http://127.0.0.1:8700/steal',
      'http://127.0.0.1.attacker.example/v1/oauth/callback',
      'http://user@127.0.0.1:8700/v1/oauth/callback',
      'http://127.0.0.1:8700/v1/oauth/callback?next=https://attacker.example',
      'http://127.0.0.1:8700/v1/oauth/callback/../../steal',
      'https://127.0.0.1:8700/v1/oauth/callback',
      'not a url',
    ]) {
      for (const res of [await authorize(crm, uri), await submit(crm, uri)]) {
        const page = await refused(res);
        expect({ uri, status: page.status, location: page.location }).toEqual({ uri, status: 400, location: null });
        expect(page.type).toContain('text/html');
        expect(page.body).toContain('redirect_uri is not registered for this client');
      }
    }
    // An unknown client is refused the same way, before its redirect URI is looked at.
    const unknown = await refused(await authorize(crm, 'https://attacker.example/cb', 'nobody'));
    expect({ status: unknown.status, location: unknown.location }).toEqual({ status: 400, location: null });
    expect(unknown.body).toContain('unknown client_id');
    // The Engine's callback on loopback, at any port, is accepted (RFC 8252 §7.3).
    for (const uri of ['http://127.0.0.1:8700/v1/oauth/callback', 'http://localhost:1234/v1/oauth/callback', 'http://[::1]:9/v1/oauth/callback']) {
      expect((await authorize(crm, uri)).status, uri).toBe(200);
      const allowed = await submit(crm, uri);
      expect(allowed.status, uri).toBe(302);
      expect(allowed.headers.get('location')!.startsWith(`${uri}?`), uri).toBe(true);
    }
  });

  it('with redirect URIs registered in its options, accepts exactly those', async () => {
    const registered = await startDemoProvider({ oauth: { clients: { [CLIENT_ID]: CLIENT_SECRET }, redirectUris: ['https://engine.example.test/v1/oauth/callback'] } });
    try {
      expect((await authorize(registered, 'https://engine.example.test/v1/oauth/callback')).status).toBe(200);
      for (const uri of ['http://127.0.0.1:8700/v1/oauth/callback', 'https://engine.example.test/v1/oauth/callback/']) {
        expect({ uri, ...(await refused(await submit(registered, uri))) }).toMatchObject({ uri, status: 400, location: null });
      }
    } finally {
      await registered.stop();
    }
  });

  it('`svc-engine dev` registers the Engine callback it uses, also at an SVC_PUBLIC_URL that is not loopback', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-revocation-dev-'));
    const child = spawn(process.execPath, ['--no-node-snapshot', resolve(import.meta.dirname, '../../src/bin/svc-engine.ts'), 'dev'], {
      env: { PATH: process.env.PATH, HOME: dir, SVC_DATA_DIR: join(dir, 'data'), SVC_HTTP_PORT: '0', SVC_GRPC_PORT: '0', SVC_DEMO_PORT: '0', SVC_PUBLIC_URL: 'https://engine.example.test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      const deadline = Date.now() + 30_000;
      while (!/Ctrl-C stops both/.test(stdout)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`dev did not start: ${stdout}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const demoUrl = /demo-crm\s+(http:\/\/\S+)/.exec(stdout)![1]!;
      const params = (redirectUri: string) =>
        new URLSearchParams({ response_type: 'code', client_id: 'svc-engine-dev', redirect_uri: redirectUri, state: 's', code_challenge: challenge, code_challenge_method: 'S256' });
      const get = (redirectUri: string) => fetch(`${demoUrl}/oauth/authorize?${params(redirectUri)}`, { redirect: 'manual' });
      expect((await get('https://engine.example.test/v1/oauth/callback')).status).toBe(200);
      expect((await get('https://attacker.example/v1/oauth/callback')).status).toBe(400);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'close');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
