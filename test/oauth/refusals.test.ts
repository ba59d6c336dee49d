// What the authorization server and the MCP servers refuse, one refusal at a time, each with its
// precise OAuth error (RFC 6749 §4.1.2.1 and §5.2, RFC 6750 §3.1, RFC 7591 §3.2.2, RFC 8707), never
// a 500: a token on another server, a reused refresh token or code (the grant revoked), an
// unregistered redirect URI, a missing or wrong PKCE verifier, a metadata document that is
// unreachable or names another client, an expired code. No secret reaches a log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { initializeMessage, rawMcp } from '../fixtures/mcp.ts';
import { authorizeUrl, pkce, postForm, publishAgents, startClientSite, startMcpOAuthEngine, submitConsent, type ClientSite, type McpOAuthEngine } from '../fixtures/mcp-oauth.ts';

const CODE_TTL_S = 2;
let e: McpOAuthEngine;
let site: ClientSite;
let clientId: string;
let otherVersion: string;

beforeAll(async () => {
  e = await startMcpOAuthEngine({ SVC_MCP_OAUTH_CODE_TTL_S: String(CODE_TTL_S) });
  site = await startClientSite('Refused Client');
  clientId = `${site.url}/client.json`;
  otherVersion = await publishAgents(e.t, e.crm, 'other', ['contacts/list']);
});
afterAll(async () => {
  await site?.close();
  await e?.stop();
});

/** Approves a request for `resource` (default: agents) and returns its code, verifier and redirect URI. */
async function approvedCode(resource = e.mcpUrl, redirectUri = site.callback) {
  const { verifier, challenge } = pkce();
  const consent = await submitConsent(authorizeUrl(e.t.url, { response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', resource }));
  expect(consent.status, consent.html).toBe(303);
  const code = new URL(consent.location!).searchParams.get('code')!;
  e.t.canaries.push(code, verifier);
  return { code, verifier, redirectUri };
}

const exchange = (fields: Record<string, string | undefined>) => postForm(e.t.url, '/oauth/token', { grant_type: 'authorization_code', client_id: clientId, ...fields });

async function tokensFor(resource = e.mcpUrl) {
  const { code, verifier } = await approvedCode(resource);
  const res = await exchange({ code, code_verifier: verifier, redirect_uri: site.callback, resource });
  expect(res.status).toBe(200);
  e.t.canaries.push(res.body.access_token, res.body.refresh_token);
  return res.body as { access_token: string; refresh_token: string };
}

/** An OAuth refusal: its status, and a body of exactly `error` and a description. */
function refusal(res: { status: number; body: any }, status: number, error: string, description: RegExp) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error, error_description: expect.stringMatching(description) });
}

describe('an access token on another MCP server', () => {
  it('is refused 401 invalid_token: on another server, and on another version of its own', async () => {
    const { access_token } = await tokensFor();
    const elsewhere = await rawMcp(`${e.t.url}/mcp/${otherVersion}`, access_token).post(initializeMessage());
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${e.t.url}/.well-known/oauth-protected-resource/mcp/${otherVersion}", error="invalid_token", error_description="the access token was issued for another MCP server (${e.mcpUrl}); authorize this one"`,
    );
    expect(elsewhere.body.error.message).toMatch(/issued for another MCP server/);
    // A new version of 'agents' is another resource: its URL is another one.
    const next = await e.t.api('POST', '/v1/mcp/publish', { name: 'agents', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] });
    expect(next.body.versionId).not.toBe(e.versionId);
    expect((await rawMcp(`${e.t.url}/mcp/${next.body.versionId}`, access_token).post(initializeMessage())).status).toBe(401);
    // On its own server it works.
    expect((await rawMcp(e.mcpUrl, access_token).post(initializeMessage())).status).toBe(200);
    // A token asked for another resource than the one approved is refused at the exchange.
    const { code, verifier } = await approvedCode();
    refusal(await exchange({ code, code_verifier: verifier, redirect_uri: site.callback, resource: `${e.t.url}/mcp/${otherVersion}` }), 400, 'invalid_target', /resource must be/);
  });

  it('is refused at authorization for a resource that is not one of this Engine\'s MCP servers', async () => {
    const { challenge } = pkce();
    const consent = await submitConsent(authorizeUrl(e.t.url, { response_type: 'code', client_id: clientId, redirect_uri: site.callback, code_challenge: challenge, code_challenge_method: 'S256', resource: 'https://elsewhere.example/mcp' }));
    expect(consent.status).toBe(302);
    const answer = new URL(consent.location!);
    expect(answer.origin + answer.pathname).toBe(site.callback);
    expect(answer.searchParams.get('error')).toBe('invalid_target');
    expect(answer.searchParams.get('error_description')).toMatch(/is not an MCP server of this Engine/);
  });
});

describe('a refresh token used twice', () => {
  it('is refused invalid_grant and revokes the whole grant: its newer tokens stop working too', async () => {
    const first = await tokensFor();
    const second = await postForm(e.t.url, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: clientId });
    expect(second.status).toBe(200);
    e.t.canaries.push(second.body.access_token, second.body.refresh_token);
    expect((await rawMcp(e.mcpUrl, second.body.access_token).post(initializeMessage())).status).toBe(200);

    refusal(await postForm(e.t.url, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: clientId }), 400, 'invalid_grant', /already used; the grant is revoked/);
    refusal(await postForm(e.t.url, '/oauth/token', { grant_type: 'refresh_token', refresh_token: second.body.refresh_token, client_id: clientId }), 400, 'invalid_grant', /grant was revoked/);
    const after = await rawMcp(e.mcpUrl, second.body.access_token).post(initializeMessage());
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('grant was revoked');
  });

  it('is refused for another client, and a code exchanged twice revokes the grant it made', async () => {
    const { refresh_token } = await tokensFor();
    refusal(await postForm(e.t.url, '/oauth/token', { grant_type: 'refresh_token', refresh_token, client_id: 'mcpc_someone_else' }), 400, 'invalid_grant', /another client_id/);

    const { code, verifier } = await approvedCode();
    const ok = await exchange({ code, code_verifier: verifier, redirect_uri: site.callback });
    expect(ok.status).toBe(200);
    e.t.canaries.push(ok.body.access_token, ok.body.refresh_token);
    refusal(await exchange({ code, code_verifier: verifier, redirect_uri: site.callback }), 400, 'invalid_grant', /already exchanged; the grant it made is revoked/);
    expect((await rawMcp(e.mcpUrl, ok.body.access_token).post(initializeMessage())).status).toBe(401);
  });
});

describe('a redirect URI that was not registered', () => {
  it('is never redirected to: the person is told why, and an exchange naming another URI is refused', async () => {
    const { challenge } = pkce();
    const url = authorizeUrl(e.t.url, { response_type: 'code', client_id: clientId, redirect_uri: 'https://attacker.example/cb', code_challenge: challenge, code_challenge_method: 'S256', resource: e.mcpUrl });
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain('redirect_uri https://attacker.example/cb is not one of the redirect URIs registered for client');

    // A loopback redirect URI may name another port (RFC 8252 §7.3), not another path.
    const otherPort = site.callback.replace(/:\d+\//, ':1/');
    const loopback = await approvedCode(e.mcpUrl, otherPort);
    refusal(await exchange({ code: loopback.code, code_verifier: loopback.verifier, redirect_uri: site.callback }), 400, 'invalid_grant', /redirect_uri is not the one/);
    const otherPath = await fetch(authorizeUrl(e.t.url, { response_type: 'code', client_id: clientId, redirect_uri: `${site.url}/elsewhere`, code_challenge: challenge, code_challenge_method: 'S256', resource: e.mcpUrl }), { redirect: 'manual' });
    expect(otherPath.status).toBe(400);

    // Registration takes only https or loopback http redirect URIs.
    for (const [uri, why] of [
      ['http://example.com/cb', /may use http only on a loopback host/],
      ['cursor://anysphere/cb', /uses the scheme 'cursor'/],
      ['https://app.example/cb#frag', /must not have a fragment/],
    ] as const) {
      const res = await fetch(`${e.t.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [uri] }) });
      refusal({ status: res.status, body: await res.json() }, 400, 'invalid_redirect_uri', why);
    }
  });
});

describe('PKCE', () => {
  it('refuses an exchange without its verifier, or with another one; and a request without S256', async () => {
    const { code, verifier } = await approvedCode();
    refusal(await exchange({ code, redirect_uri: site.callback }), 400, 'invalid_request', /code_verifier is required/);
    refusal(await exchange({ code, redirect_uri: site.callback, code_verifier: pkce().verifier }), 400, 'invalid_grant', /does not match the code_challenge/);
    // Neither refusal spent the code.
    const ok = await exchange({ code, redirect_uri: site.callback, code_verifier: verifier });
    expect(ok.status).toBe(200);
    e.t.canaries.push(ok.body.access_token, ok.body.refresh_token);

    for (const [params, why] of [
      [{}, /code_challenge is required/],
      [{ code_challenge: pkce().challenge, code_challenge_method: 'plain' }, /code_challenge_method must be 'S256'/],
      [{ code_challenge: pkce().challenge }, /code_challenge_method must be 'S256'/],
    ] as const) {
      const res = await fetch(authorizeUrl(e.t.url, { response_type: 'code', client_id: clientId, redirect_uri: site.callback, resource: e.mcpUrl, state: 's', ...params }), { redirect: 'manual' });
      expect(res.status).toBe(302);
      const answer = new URL(res.headers.get('location')!).searchParams;
      expect(answer.get('error')).toBe('invalid_request');
      expect(answer.get('error_description')).toMatch(why);
      expect(answer.get('state')).toBe('s');
    }
  });
});

describe('a client ID metadata document', () => {
  let other: Server;
  let otherUrl: string;
  beforeAll(async () => {
    other = createServer((req, res) => res.writeHead(302, { location: `${site.url}/client.json` }).end());
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => other.close(() => r())));

  const page = async (id: string) => {
    const res = await fetch(authorizeUrl(e.t.url, { response_type: 'code', client_id: id, redirect_uri: site.callback, code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: e.mcpUrl }), { redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };

  it('that is unreachable, or whose client_id is not its URL, refuses the client (invalid_client), never redirecting', async () => {
    const closed = await page('http://127.0.0.1:1/client.json');
    expect(closed).toMatchObject({ status: 400, location: null });
    expect(closed.text).toContain('client metadata document is unreachable (ECONNREFUSED)');

    const good = site.document;
    try {
      site.document = { ...(good as object), client_id: 'https://someone-else.example/client.json' };
      expect((await page(clientId)).text).toContain('client_id is not its own URL');
      site.document = good;
      site.documentType = 'text/html';
      expect((await page(clientId)).text).toContain('must be application/json');
      site.documentType = 'application/json';
      site.document = { ...(good as object), client_secret: 'shh' };
      expect((await page(clientId)).text).toContain('must not hold a client_secret');
      site.document = { ...(good as object), client_name: 'x'.repeat(6000) };
      expect((await page(clientId)).text).toContain('larger than 5120 bytes');
      site.document = good;
      site.documentStatus = 404;
      expect((await page(clientId)).text).toContain('answered HTTP 404');
    } finally {
      site.document = good;
      site.documentStatus = 200;
    }
    // A redirect to another origin is not followed.
    expect((await page(`${otherUrl}/client.json`)).text).toContain('redirects to another host');
    // https only, outside tests; and no path, no metadata document.
    expect((await page('ftp://127.0.0.1/client.json')).text).toContain('is not registered here');
    expect((await page(site.url)).text).toContain('must have a path');
  });
});

describe('an expired code', () => {
  it('is refused invalid_grant', async () => {
    const { code, verifier } = await approvedCode();
    await new Promise((r) => setTimeout(r, CODE_TTL_S * 1000 + 300));
    refusal(await exchange({ code, code_verifier: verifier, redirect_uri: site.callback }), 400, 'invalid_grant', /code has expired/);
  });
});

describe('malformed requests', () => {
  it('are each an OAuth error naming the parameter, never a 500', async () => {
    refusal(await postForm(e.t.url, '/oauth/token', { client_id: clientId }), 400, 'invalid_request', /grant_type is required/);
    refusal(await postForm(e.t.url, '/oauth/token', { grant_type: 'password', client_id: clientId }), 400, 'unsupported_grant_type', /grant_type must be/);
    refusal(await postForm(e.t.url, '/oauth/token', { grant_type: 'authorization_code' }), 400, 'invalid_request', /client_id is required/);
    refusal(await exchange({ code: 'svc_oac_nope', code_verifier: pkce().verifier, redirect_uri: site.callback }), 400, 'invalid_grant', /not an authorization code this Engine issued/);
    const twice = await fetch(`${e.t.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=refresh_token&grant_type=authorization_code' });
    refusal({ status: twice.status, body: await twice.json() }, 400, 'invalid_request', /grant_type is given more than once/);
    const json = await fetch(`${e.t.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    refusal({ status: json.status, body: await json.json() }, 400, 'invalid_request', /must be application\/x-www-form-urlencoded/);
    const huge = await fetch(`${e.t.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `code=${'x'.repeat(20_000)}` });
    refusal({ status: huge.status, body: await huge.json() }, 400, 'invalid_request', /larger than 16384 bytes/);
    const notJson = await fetch(`${e.t.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    refusal({ status: notJson.status, body: await notJson.json() }, 400, 'invalid_client_metadata', /not JSON/);
    refusal(await postForm(e.t.url, '/oauth/revoke', { client_id: clientId }), 400, 'invalid_request', /token is required/);
    // An unknown client at the authorization endpoint: told on the page.
    const unknown = await fetch(authorizeUrl(e.t.url, { response_type: 'code', client_id: 'mcpc_unknown', redirect_uri: site.callback }), { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('client_id mcpc_unknown is not registered here');
    expect(e.t.logs.join('')).not.toMatch(/"level":50/); // nothing failed unexpectedly
  });
});
