// The official MCP TypeScript SDK's OAuth client against the Engine, the person's part in Chromium:
// discovery from the 401, registration (a client ID metadata document, or RFC 7591), consent
// approved on the Engine's page, the token, tools/list, execute, a refresh, and revocation with
// `svc-cli mcp token revoke` (after which the SDK sends the person back, who denies).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../fixtures/browser.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';
import { ChromiumOAuthProvider } from '../fixtures/mcp-oauth-browser.ts';
import { postForm, startClientSite, startMcpOAuthEngine, type ClientSite, type McpOAuthEngine } from '../fixtures/mcp-oauth.ts';

let e: McpOAuthEngine;
let browser: Browser;
let user: CliUser;
const sites: ClientSite[] = [];
const providers: ChromiumOAuthProvider[] = [];

beforeAll(async () => {
  e = await startMcpOAuthEngine();
  browser = await launchChromium();
  user = cliUser(e.t.url);
  expect((await user.cli(['login', '--with-token'], { input: e.t.cliToken })).code).toBe(0);
});
afterAll(async () => {
  await browser?.close();
  for (const s of sites) await s.close();
  user?.cleanup();
  // Nothing the clients held (codes, verifiers, tokens) may have reached a log line.
  for (const p of providers) e?.t.canaries.push(...p.secrets);
  await e?.stop();
});

async function client(clientId?: 'document') {
  const site = await startClientSite('Document Client');
  sites.push(site);
  const provider = new ChromiumOAuthProvider(browser, site, clientId ? `${site.url}/client.json` : undefined);
  providers.push(provider);
  return provider;
}

/** Connects as the SDK does: a 401 starts the authorization (the person approves in Chromium), then finishAuth, then a new connection. */
async function authorizeAndConnect(provider: ChromiumOAuthProvider): Promise<Client> {
  const first = new StreamableHTTPClientTransport(new URL(e.mcpUrl), { authProvider: provider });
  await expect(new Client({ name: 'oauth-e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  const code = provider.lastAnswer?.get('code');
  expect(code, `the authorization answered ${provider.lastAnswer}`).toBeTruthy();
  await first.finishAuth(code!);
  const connected = new Client({ name: 'oauth-e2e', version: '1.0.0' });
  await connected.connect(new StreamableHTTPClientTransport(new URL(e.mcpUrl), { authProvider: provider }));
  return connected;
}

const execute = async (c: Client, code: string) => {
  const result = (await c.callTool({ name: 'execute', arguments: { code } })) as { isError?: boolean; structuredContent?: any; content: { text: string }[] };
  if (result.isError) throw new Error(result.content[0]!.text);
  return result.structuredContent.result;
};

const grantsOf = async () => (await e.t.api('GET', '/v1/mcp/agents/tokens')).body.tokens.filter((t: any) => t.client);

describe('the SDK client with a client ID metadata document', { timeout: 120_000 }, () => {
  it('is approved in Chromium, lists the tools, executes, refreshes, and is refused once revoked', async () => {
    const provider = await client('document');
    const connected = await authorizeAndConnect(provider);
    // The Engine read the client's metadata document (its name shown on the consent page).
    expect(provider.site.fetched).toContain('/client.json');

    const { tools } = await connected.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['execute', 'search_docs']);
    const contacts = await execute(connected, 'const r = await call("demo-crm.contacts/list", {}); return { ok: r.ok, n: r.data.data.length };');
    expect(contacts).toMatchObject({ ok: true });

    // Refresh: a new access token and a new refresh token; the old refresh token is spent.
    const before = provider.tokens()!;
    expect(await auth(provider, { serverUrl: e.mcpUrl })).toBe('AUTHORIZED');
    const after = provider.tokens()!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    // The same session goes on with the new access token (sessions belong to the grant).
    expect(await execute(connected, 'return 1 + 1')).toBe(2);

    // Listed beside the static token, named by its document, and revoked with the CLI.
    const [grant] = await grantsOf();
    expect(grant.client).toMatchObject({ id: `${provider.site.url}/client.json`, name: 'Document Client', versionId: e.versionId });
    const list = await user.cli(['mcp', 'token', 'list', 'agents']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`OAuth: Document Client (${new URL(provider.site.callback).host})`);
    expect(list.stdout).toContain('static');
    const revoked = await user.cli(['mcp', 'token', 'revoke', grant.id]);
    expect(revoked.code, revoked.stderr).toBe(0);

    // Refused: the SDK's refresh gets invalid_grant, so it sends the person back; they deny.
    provider.choices = { decision: 'Deny' };
    await expect(execute(connected, 'return 1')).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.lastAnswer!.get('error')).toBe('access_denied');
    await connected.close();
  });
});

describe('the SDK client registering dynamically (RFC 7591)', { timeout: 120_000 }, () => {
  it('registers, is approved for fewer operations and a shorter life, and calls only those', async () => {
    const provider = await client();
    provider.choices = {
      keep: ['demo-crm.contacts/get'],
      lifetime: '7 days',
      inspect: async (page) => {
        expect(await page.locator('#consent-client').textContent()).toContain('SDK Test Client');
        expect(await page.locator('#consent-redirect').textContent()).toBe(new URL(provider.site.callback).host);
        expect(await page.locator('#consent-server').textContent()).toContain('agents 1.0.0');
        expect(await page.getByRole('note').textContent()).toContain('this computer');
      },
    };
    const connected = await authorizeAndConnect(provider);
    expect(provider.clientInformation()!.client_id).toMatch(/^mcpc_/);

    const get = await execute(connected, 'const r = await call("demo-crm.contacts/get", { contact_id: "con_0001" }); return r.ok;');
    expect(get).toBe(true);
    await expect(execute(connected, 'return await call("demo-crm.contacts/list", {});')).rejects.toThrow(/ENGINE_FORBIDDEN_OPERATION.*outside this token's allowlist/);

    const grant = (await grantsOf()).find((g: any) => g.client.id === provider.clientInformation()!.client_id);
    expect(grant).toMatchObject({ allow: ['demo-crm.contacts/get'], client: { name: 'SDK Test Client' } });
    const days = (Date.parse(grant.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    // RFC 7009: the client signing out revokes its grant.
    const out = await postForm(e.t.url, '/oauth/revoke', { token: provider.tokens()!.refresh_token, client_id: provider.clientInformation()!.client_id });
    expect(out.status).toBe(200);
    expect((await grantsOf()).find((g: any) => g.id === grant.id).revokedAt).not.toBeNull();
    await connected.close();
  });
});

describe('the SDK client when its access token expires', { timeout: 120_000 }, () => {
  let short: McpOAuthEngine;
  beforeAll(async () => {
    short = await startMcpOAuthEngine({ SVC_MCP_OAUTH_ACCESS_TOKEN_TTL_S: '2' });
  });
  afterAll(async () => {
    for (const p of providers) short?.t.canaries.push(...p.secrets);
    await short?.stop();
  });

  it('refreshes on the 401 by itself and goes on in the same session', async () => {
    const site = await startClientSite('Document Client');
    sites.push(site);
    const provider = new ChromiumOAuthProvider(browser, site, `${site.url}/client.json`);
    providers.push(provider);
    const url = `${short.t.url}/mcp/${short.versionId}`;
    const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    await expect(new Client({ name: 'oauth-e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    await first.finishAuth(provider.lastAnswer!.get('code')!);
    const connected = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    const before = provider.tokens()!;
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await execute(connected, 'return 40 + 2')).toBe(42);
    expect(provider.tokens()!.access_token).not.toBe(before.access_token);
    // One refresh, no reuse: the grant is still live.
    expect((await short.t.api('GET', '/v1/mcp/agents/tokens')).body.tokens.find((t: any) => t.client).revokedAt).toBeNull();
    await connected.close();
  });
});
