// Two Engines on one PostgreSQL database (replicas behind one public URL) share MCP clients'
// grants: a client registered and approved on one exchanges its code on the other, its access token
// works on both, and a refresh token spent on one and presented again on the other revokes the
// grant everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { initializeMessage, rawMcp } from '../fixtures/mcp.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { authorizeUrl, OWNER_PASSWORD, pkce, postForm, startClientSite, startMcpOAuthEngine, submitConsent, type ClientSite, type McpOAuthEngine } from '../fixtures/mcp-oauth.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/postgres.ts';

const PUBLIC_URL = 'http://engine.test';
let db: TestDatabase;
let a: McpOAuthEngine;
let b: TestEngine;
let site: ClientSite;

beforeAll(async () => {
  db = await createTestDatabase();
  const env = { SVC_MASTER_KEY: randomBytes(32).toString('hex'), SVC_PUBLIC_URL: PUBLIC_URL };
  a = await startMcpOAuthEngine(env, { databaseUrl: db.url });
  b = await startTestEngine({ ...env, SVC_OWNER_PASSWORD: OWNER_PASSWORD, SVC_TEST_MCP_OAUTH_LOOPBACK_CLIENT_IDS: '1' }, undefined, { databaseUrl: db.url });
  site = await startClientSite('Replicated Client');
});
afterAll(async () => {
  await site?.close();
  await b?.stop();
  await a?.stop();
  await db?.drop();
});

describe('grants on PostgreSQL', () => {
  it('are shared by replicas: code, access and refresh tokens, and the revocation a reused refresh token causes', async () => {
    const resource = `${PUBLIC_URL}/mcp/${a.versionId}`;
    const registered = (await (
      await fetch(`${b.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Replicated Client', redirect_uris: [site.callback] }) })
    ).json()) as { client_id: string };
    const { verifier, challenge } = pkce();
    // Approved on A (the client was registered on B).
    const consent = await submitConsent(authorizeUrl(a.t.url, { response_type: 'code', client_id: registered.client_id, redirect_uri: site.callback, code_challenge: challenge, code_challenge_method: 'S256', resource }));
    expect(consent.status, consent.html).toBe(303);
    const code = new URL(consent.location!).searchParams.get('code')!;
    // Exchanged on B.
    const token = await postForm(b.url, '/oauth/token', { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: site.callback, client_id: registered.client_id, resource });
    expect(token.status).toBe(200);
    const secrets = [code, verifier, token.body.access_token, token.body.refresh_token];
    a.t.canaries.push(...secrets);
    b.canaries.push(...secrets);
    for (const engine of [a.t.url, b.url]) expect((await rawMcp(`${engine}/mcp/${a.versionId}`, token.body.access_token).post(initializeMessage())).status).toBe(200);

    // Refreshed on A; the spent refresh token presented on B revokes the grant on both.
    const refreshed = await postForm(a.t.url, '/oauth/token', { grant_type: 'refresh_token', refresh_token: token.body.refresh_token, client_id: registered.client_id });
    expect(refreshed.status).toBe(200);
    a.t.canaries.push(refreshed.body.access_token, refreshed.body.refresh_token);
    b.canaries.push(refreshed.body.access_token, refreshed.body.refresh_token);
    const reused = await postForm(b.url, '/oauth/token', { grant_type: 'refresh_token', refresh_token: token.body.refresh_token, client_id: registered.client_id });
    expect(reused.body).toMatchObject({ error: 'invalid_grant' });
    for (const engine of [a.t.url, b.url]) expect((await rawMcp(`${engine}/mcp/${a.versionId}`, refreshed.body.access_token).post(initializeMessage())).status).toBe(401);
    expect((await b.api('GET', '/v1/mcp/agents/tokens')).body.tokens.find((t: any) => t.client).revokedAt).not.toBeNull();
  });
});
