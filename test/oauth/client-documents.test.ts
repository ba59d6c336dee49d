// Fetching client ID metadata documents (src/oauth/client-documents.ts) under the Engine's egress
// policy, with a real document server on loopback: http is taken only with the test-only setting,
// and never past the egress policy; Cache-Control is honoured. And the settings that govern grants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { EgressPolicy } from '../../src/egress/index.ts';
import { OAuthError } from '../../src/oauth/index.ts';
import { ClientDocuments } from '../../src/oauth/client-documents.ts';
import { loopbackEgress } from '../fixtures/egress.ts';
import { startClientSite, type ClientSite } from '../fixtures/mcp-oauth.ts';

let site: ClientSite;
const documents: ClientDocuments[] = [];
const make = (egress: EgressPolicy, allowLoopbackHttp: boolean) => {
  const d = new ClientDocuments({ egress, allowLoopbackHttp });
  documents.push(d);
  return d;
};
beforeAll(async () => {
  site = await startClientSite('Cached Client');
});
afterAll(async () => {
  for (const d of documents) await d.close();
  await site?.close();
});

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(OAuthError);
  return err as OAuthError;
};

describe('client ID metadata documents', () => {
  it('are fetched over loopback http only with the test-only setting, and never past the egress policy', async () => {
    const id = `${site.url}/client.json`;
    const strict = await refusal(make(loopbackEgress(), false).metadata(id));
    expect(strict).toMatchObject({ code: 'invalid_client', message: `client_id ${id}: a client ID URL must use https` });

    // The setting relaxes the scheme, not where the Engine may connect: without loopback in SVC_EGRESS_ALLOW, nothing is fetched.
    const fenced = await refusal(make(new EgressPolicy([]), true).metadata(id));
    expect(fenced.message).toContain('must not name 127.0.0.1, an address the Engine does not connect to');
    const byName = await refusal(make(new EgressPolicy([]), true).metadata(id.replace('127.0.0.1', 'localhost')));
    expect(byName.message).toMatch(/not fetched: the Engine does not connect to localhost \((127\.0\.0\.1|::1)\)/);
    expect(site.fetched).toEqual([]);

    expect(await make(loopbackEgress(), true).metadata(id)).toEqual({ clientId: id, clientName: 'Cached Client', redirectUris: [site.callback], source: 'document' });
  });

  it('are kept as long as Cache-Control allows, and fetched again without it', async () => {
    const id = `${site.url}/client.json`;
    const d = make(loopbackEgress(), true);
    site.fetched.length = 0;
    await d.metadata(id);
    await d.metadata(id);
    expect(site.fetched).toEqual(['/client.json', '/client.json']);
    site.cacheControl = 'max-age=300';
    site.fetched.length = 0;
    await d.metadata(id);
    site.document = { ...(site.document as object), client_name: 'Renamed' };
    expect((await d.metadata(id)).clientName).toBe('Cached Client');
    expect(site.fetched).toEqual(['/client.json']);
  });
});

describe('settings', () => {
  it('reads the access token and code lifetimes and the test-only switch, refusing what they cannot be', () => {
    expect(loadConfig({})).toMatchObject({ mcpOAuthAccessTokenTtlSeconds: 3600, mcpOAuthCodeTtlSeconds: 60, mcpOAuthLoopbackClientIds: false });
    expect(loadConfig({ SVC_MCP_OAUTH_ACCESS_TOKEN_TTL_S: '600', SVC_MCP_OAUTH_CODE_TTL_S: '30', SVC_TEST_MCP_OAUTH_LOOPBACK_CLIENT_IDS: '1' })).toMatchObject({
      mcpOAuthAccessTokenTtlSeconds: 600,
      mcpOAuthCodeTtlSeconds: 30,
      mcpOAuthLoopbackClientIds: true,
    });
    expect(() => loadConfig({ SVC_MCP_OAUTH_ACCESS_TOKEN_TTL_S: '100000' })).toThrow('SVC_MCP_OAUTH_ACCESS_TOKEN_TTL_S must be an integer from 1 to 86400');
    expect(() => loadConfig({ SVC_MCP_OAUTH_CODE_TTL_S: '0' })).toThrow('SVC_MCP_OAUTH_CODE_TTL_S must be an integer from 1 to 600');
    expect(() => loadConfig({ SVC_TEST_MCP_OAUTH_LOOPBACK_CLIENT_IDS: 'yes' })).toThrow("SVC_TEST_MCP_OAUTH_LOOPBACK_CLIENT_IDS must be 1 or 0 (got 'yes')");
  });
});
