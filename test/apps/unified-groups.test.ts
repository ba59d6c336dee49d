// A group of Unified operations (`unified=*`) selects those that can run on the app's services;
// one named alone that cannot run is refused, naming the services it needs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
  for (const service of ['github', 'demo-crm']) await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1' });
});
afterAll(async () => {
  await t?.stop();
});

describe('Unified operations selected by group', () => {
  it('selects, of unified=*, the operations one target of which runs on the selected services', async () => {
    const published = await t.api('POST', '/v1/mcp/publish', { name: 'groups', services: ['github=v1', 'demo-crm=v1'], operations: ['unified=*'] });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const operations = (await t.engine.deps.mcp.version(published.body.versionId))!.operations;
    expect(operations).toContain('unified.tasks.create'); // its github and crm targets run
    expect(operations).not.toContain('unified.messages.send'); // Slack, SendGrid, Zoom and Twilio are not selected
  });

  it('refuses a Unified operation named alone that no target of can run, naming what it needs', async () => {
    const refused = await t.api('POST', '/v1/mcp/publish', { name: 'alone', services: ['github=v1'], operations: ['unified=messages.send'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'operations[0]' } });
    expect(refused.body.error.message).toContain("--service 'slack=v1'");
  });
});
