// A browser-based MCP client on another loopback port (the Inspector's UI in direct mode, a web
// app) in Debian's Chromium: it initializes, reads the session ID, lists the tools, reads the 401's
// WWW-Authenticate, discovers the authorization server and registers itself, all across origins
// (src/server/cors.ts, src/mcp/cors.ts). An origin that is not allowed gets no CORS answer, and
// neither does the consent page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { launchChromium } from '../fixtures/browser.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishAgents } from '../fixtures/mcp-oauth.ts';

let t: TestEngine;
let crm: DemoProvider;
let site: Server;
let siteUrl: string;
let browser: Browser;
let page: Page;
let mcpUrl: string;
let token: string;

beforeAll(async () => {
  crm = await startDemoProvider();
  t = await startTestEngine();
  t.canaries.push(crm.apiKey);
  mcpUrl = `${t.url}/mcp/${await publishAgents(t, crm)}`;
  const issued = await t.api('POST', '/v1/mcp/agents/tokens', { allow: ['*'] });
  token = issued.body.token;
  t.canaries.push(token);
  // The client's own page, on a loopback port of its own: another origin than the Engine's.
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>client</title>'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(siteUrl);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await t?.stop();
  await crm?.stop();
});

describe('a browser MCP client on another loopback origin', () => {
  it('initializes, reads the session ID, lists the tools, and reads the 401 challenge', async () => {
    const seen = await page.evaluate(
      async ({ url, bearer }) => {
        const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
        const post = (body: unknown, extra: Record<string, string> = {}) => fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
        const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'browser', version: '1.0.0' } } });
        const session = init.headers.get('mcp-session-id');
        const ready = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session ?? '' });
        const listed = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': session ?? '' });
        const tools = ((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
        const anonymous = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
        return { init: init.status, session, ready: ready.status, tools, anonymous: anonymous.status, challenge: anonymous.headers.get('www-authenticate') };
      },
      { url: mcpUrl, bearer: token },
    );
    expect(seen).toMatchObject({ init: 200, ready: 202, tools: ['search_docs', 'execute'], anonymous: 401 });
    expect(seen.session).toMatch(/.+/);
    expect(seen.challenge).toMatch(/^Bearer .*resource_metadata="/);
  });

  it('discovers the authorization server and registers itself', async () => {
    const found = await page.evaluate(
      async ({ url, redirect }) => {
        const headers = { 'mcp-protocol-version': '2025-11-25' };
        const resource = new URL(url);
        const prm = (await (await fetch(`${resource.origin}/.well-known/oauth-protected-resource${resource.pathname}`, { headers })).json()) as { resource: string; authorization_servers: string[] };
        const as = (await (await fetch(`${prm.authorization_servers[0]}/.well-known/oauth-authorization-server`, { headers })).json()) as { registration_endpoint: string };
        const registered = await fetch(as.registration_endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ client_name: 'Browser client', redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
        });
        return { resource: prm.resource, registered: registered.status, clientId: ((await registered.json()) as { client_id?: string }).client_id };
      },
      { url: mcpUrl, redirect: `${siteUrl}callback` },
    );
    expect(found.resource).toBe(mcpUrl);
    expect(found.registered).toBe(201);
    expect(found.clientId).toMatch(/.+/);
  });
});

describe('CORS refusals', () => {
  const preflight = (path: string, origin: string) =>
    fetch(`${t.url}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });

  it('answers a preflight from an origin that is not allowed with 403 and no CORS headers', async () => {
    const refused = await preflight(new URL(mcpUrl).pathname, 'http://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await refused.json()) as { error: { details: { field: string } } }).error.details.field).toBe('origin');
  });

  it('allows a loopback origin on /mcp and any origin on the token endpoint, but none on the consent page', async () => {
    const mcp = await preflight(new URL(mcpUrl).pathname, 'http://localhost:6274');
    expect(mcp.status).toBe(204);
    expect(mcp.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(mcp.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
    const tokenEndpoint = await preflight('/oauth/token', 'https://app.example');
    expect(tokenEndpoint.status).toBe(204);
    expect(tokenEndpoint.headers.get('access-control-allow-origin')).toBe('*');
    const consent = await preflight('/oauth/authorize', 'https://app.example');
    expect(consent.headers.get('access-control-allow-origin')).toBeNull();
  });
});
