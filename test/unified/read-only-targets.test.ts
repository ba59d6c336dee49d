// Unified operations under safety hints (issue 31 §3): a Unified operation is read-only only when
// every target it runs is; a read-only token runs unified.contacts.list, and is refused
// unified.deals.create_for_contact before any step (naming the target that writes) — nothing
// reaches demo-crm, not even its read step. search_docs shows the hints per target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishApps, withMcpClient, type ProviderApps } from '../fixtures/providers/app.ts';

let t: TestEngine;
let crm: DemoProvider;
let apps: ProviderApps;
let readOnly: string;

beforeAll(async () => {
  crm = await startDemoProvider();
  t = await startTestEngine();
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey });
  t.canaries.push(crm.apiKey);
  apps = await publishApps(t, 'unified-safety', { services: ['demo-crm=v1'], operations: ['unified=contacts.list', 'unified=deals.create_for_contact'] });
  const issued = await t.api('POST', '/v1/sdks/unified-safety/tokens', { expiresAt: null, readOnly: true });
  readOnly = issued.body.token;
  t.canaries.push(readOnly);
});
afterAll(async () => {
  await t?.stop();
  await crm?.stop();
});

describe('a read-only token and Unified operations', () => {
  it('runs a Unified operation whose targets all read', async () => {
    const listed = await t.execute(apps.sdk.versionId, readOnly, { operation: 'unified.contacts.list', input: {}, targets: ['crm'] });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.ok).toBe(true);
  });

  it('refuses one whose targets write, before any step, naming the target', async () => {
    const before = crm.requests.length;
    const refused = await t.execute(apps.sdk.versionId, readOnly, {
      operation: 'unified.deals.create_for_contact',
      input: { email: 'ada@example.com', title: 'Deal' },
      targets: ['findContact', 'createDeal'],
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'ENGINE_FORBIDDEN_OPERATION', details: { reason: 'read_only_token', field: 'operation' } });
    expect(refused.body.error.message).toContain("'createDeal'");
    expect(crm.requests.length).toBe(before);
  });

  it('search_docs shows a Unified operation read-only only when every target is, and each target’s hints', async () => {
    await withMcpClient(apps.mcp, async (client) => {
      const exact = async (operationId: string) => ((await client.callTool({ name: 'search_docs', arguments: { operationId } })) as any).structuredContent;
      expect(await exact('unified.contacts.list')).toMatchObject({ read_only: true, destructive: false });
      const deals = await exact('unified.deals.create_for_contact');
      expect(deals).toMatchObject({ read_only: false, destructive: false });
      expect(deals.sections.targets).toMatchObject({ findContact: { read_only: true }, createDeal: { read_only: false, destructive: false } });
    });
  });
});
