// MCP deployments and tokens: immutable versions, the unrestricted first token, narrowed tokens
// with allowlists, expiry and fixed bindings, revocation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1' });
});
afterAll(async () => t.stop());

const def = { name: 'agents', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/*'] };

describe('MCP deploys', () => {
  it('deploys, returns the unrestricted token once and lists the active version', async () => {
    const plan = await t.api('POST', '/v1/mcp/plan', def);
    expect(plan.body).toMatchObject({ nextVersion: '1.0.0', summary: { add: 4 } });
    const first = await t.api('POST', '/v1/mcp/publish', def);
    expect(first.body).toMatchObject({ name: 'agents', version: '1.0.0', published: true, url: `${t.url}/mcp/${first.body.versionId}` });
    expect(first.body.token).toMatch(/^svc_mcp_/);
    t.canaries.push(first.body.token);
    const again = await t.api('POST', '/v1/mcp/publish', def);
    expect(again.body).toMatchObject({ published: false, versionId: first.body.versionId });
    expect(again.body).not.toHaveProperty('token');
    const second = await t.api('POST', '/v1/mcp/publish', { ...def, operations: [...def.operations, 'demo-crm=deals/list'] });
    expect(second.body).toMatchObject({ version: '1.1.0', published: true });
    expect(second.body).not.toHaveProperty('token');

    const list = await t.api('GET', '/v1/mcp');
    expect(list.body.servers).toEqual([
      expect.objectContaining({ name: 'agents', version: '1.1.0', active: true, url: `${t.url}/mcp/${second.body.versionId}` }),
      expect.objectContaining({ name: 'agents', version: '1.0.0', active: false }),
    ]);
    const tokens = await t.api('GET', '/v1/mcp/agents/tokens');
    expect(tokens.body.tokens).toEqual([expect.objectContaining({ allow: null, expiresAt: null, revokedAt: null })]);
    // SDK and MCP namespaces are separate.
    expect((await t.api('GET', '/v1/sdks')).body.sdks).toEqual([]);
  });

  it('creates narrowed tokens with allowlists, expiry and bindings, by name or version ID', async () => {
    const servers = (await t.api('GET', '/v1/mcp')).body.servers;
    const created = await t.api('POST', `/v1/mcp/${servers[0].versionId}/tokens`, {
      allow: ['demo-crm.contacts/get', 'demo-crm.deals/*', 'demo-crm.contacts/get'],
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      binding: { endUserRef: 'user-1', authName: 'work' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ allow: ['demo-crm.contacts/get', 'demo-crm.deals/*'], binding: { endUserRef: 'user-1', authName: 'work' } });
    t.canaries.push(created.body.token);
    const listed = (await t.api('GET', '/v1/mcp/agents/tokens')).body.tokens;
    expect(listed).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(created.body.token);

    expect((await t.api('DELETE', `/v1/tokens/${created.body.id}`)).status).toBe(204);
    expect((await t.api('DELETE', `/v1/tokens/${created.body.id}`)).status).toBe(404);
    const after = (await t.api('GET', '/v1/mcp/agents/tokens')).body.tokens.find((x: any) => x.id === created.body.id);
    expect(after.revokedAt).not.toBeNull();
  });

  it('refuses bad token requests with precise errors', async () => {
    expect((await t.api('POST', '/v1/mcp/agents/tokens', { allow: [] })).status).toBe(400);
    expect((await t.api('POST', '/v1/mcp/agents/tokens', { allow: ['github.*.x'] })).status).toBe(400);
    const past = await t.api('POST', '/v1/mcp/agents/tokens', { allow: ['*'], expiresAt: '2001-01-01T00:00:00Z' });
    expect(past.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'expiresAt' } });
    expect((await t.api('POST', '/v1/mcp/nope/tokens', { allow: ['*'] })).status).toBe(404);
  });
});
