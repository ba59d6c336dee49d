// The authorization-code flow over plain HTTP, step by step as a client makes it: discovery from a
// 401, registration, consent, the code exchange, MCP requests with the access token on its one
// server, a rotated refresh, revocation. Each secret handed out is a log canary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializeMessage, rawMcp } from '../fixtures/mcp.ts';
import { authorizeUrl, pkce, postForm, startClientSite, startMcpOAuthEngine, submitConsent, type ClientSite, type McpOAuthEngine } from '../fixtures/mcp-oauth.ts';

let e: McpOAuthEngine;
let site: ClientSite;
beforeAll(async () => {
  e = await startMcpOAuthEngine();
  site = await startClientSite();
});
afterAll(async () => {
  await site?.close();
  await e?.stop();
});

describe('discovery', () => {
  it('answers an MCP request without a token 401 naming its resource metadata, which names the Engine', async () => {
    const res = await rawMcp(e.mcpUrl, '').post(initializeMessage());
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toBe(`Bearer resource_metadata="${e.t.url}/.well-known/oauth-protected-resource/mcp/${e.versionId}"`);
    const prm = await (await fetch(`${e.t.url}/.well-known/oauth-protected-resource/mcp/${e.versionId}`)).json();
    expect(prm).toEqual({ resource: e.mcpUrl, authorization_servers: [e.t.url], bearer_methods_supported: ['header'], resource_name: 'agents 1.0.0' });
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const meta = await (await fetch(e.t.url + path)).json();
      expect(meta).toMatchObject({
        issuer: e.t.url,
        authorization_endpoint: `${e.t.url}/oauth/authorize`,
        token_endpoint: `${e.t.url}/oauth/token`,
        registration_endpoint: `${e.t.url}/oauth/register`,
        code_challenge_methods_supported: ['S256'],
        client_id_metadata_document_supported: true,
        token_endpoint_auth_methods_supported: ['none'],
      });
    }
    expect((await fetch(`${e.t.url}/.well-known/oauth-protected-resource/mcp/ver_01J00000000000000000000000`)).status).toBe(404);
  });
});

describe('a client registered dynamically', () => {
  it('registers, is approved, exchanges its code and calls its MCP server; refreshes rotate', async () => {
    const registered = await fetch(`${e.t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'DCR Client', redirect_uris: [site.callback], token_endpoint_auth_method: 'client_secret_post' }),
    });
    expect(registered.status).toBe(201);
    const client = (await registered.json()) as any;
    expect(client).toMatchObject({ client_id: expect.stringMatching(/^mcpc_/), client_name: 'DCR Client', redirect_uris: [site.callback], token_endpoint_auth_method: 'none' });
    expect(client).not.toHaveProperty('client_secret');

    const { verifier, challenge } = pkce();
    e.t.canaries.push(verifier);
    const consent = await submitConsent(
      authorizeUrl(e.t.url, { response_type: 'code', client_id: client.client_id, redirect_uri: site.callback, code_challenge: challenge, code_challenge_method: 'S256', resource: e.mcpUrl, state: 'st-1' }),
    );
    expect(consent.status).toBe(303);
    const answer = new URL(consent.location!).searchParams;
    expect(answer.get('state')).toBe('st-1');
    expect(answer.get('iss')).toBe(e.t.url);
    const code = answer.get('code')!;
    e.t.canaries.push(code);

    const token = await postForm(e.t.url, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: site.callback, code_verifier: verifier, client_id: client.client_id, resource: e.mcpUrl });
    expect(token.status).toBe(200);
    expect(token.headers.get('cache-control')).toBe('no-store');
    expect(token.body).toEqual({ access_token: expect.stringMatching(/^svc_oat_/), token_type: 'Bearer', expires_in: 3600, refresh_token: expect.stringMatching(/^svc_ort_/) });
    e.t.canaries.push(token.body.access_token, token.body.refresh_token);

    const mcp = rawMcp(e.mcpUrl, token.body.access_token);
    const init = await mcp.post(initializeMessage());
    expect(init.status).toBe(200);

    const refreshed = await postForm(e.t.url, '/oauth/token', { grant_type: 'refresh_token', refresh_token: token.body.refresh_token, client_id: client.client_id, resource: e.mcpUrl });
    expect(refreshed.status).toBe(200);
    e.t.canaries.push(refreshed.body.access_token, refreshed.body.refresh_token);
    expect(refreshed.body.refresh_token).not.toBe(token.body.refresh_token);
    expect((await rawMcp(e.mcpUrl, refreshed.body.access_token).post(initializeMessage())).status).toBe(200);

    // The grant is listed beside the server's static token, and revoked the same way.
    const listed = (await e.t.api('GET', '/v1/mcp/agents/tokens')).body.tokens;
    const grant = listed.find((x: any) => x.client);
    expect(grant).toMatchObject({ allow: null, revokedAt: null, client: { id: client.client_id, name: 'DCR Client', redirectUri: site.callback, versionId: e.versionId, approvedBy: 'owner' } });
    expect((await e.t.api('DELETE', `/v1/tokens/${grant.id}?kind=mcp`)).status).toBe(204);
    const after = await rawMcp(e.mcpUrl, refreshed.body.access_token).post(initializeMessage());
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const again = await postForm(e.t.url, '/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: client.client_id });
    expect(again.body).toMatchObject({ error: 'invalid_grant' });
  });
});
