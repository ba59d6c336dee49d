// SDK definitions: precise validation errors, semantic labels derived from the change, and the
// execution token returned on the first publish only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1' });
  await t.api('PUT', '/v1/workspace/services/github', { version: 'v1' });
});
afterAll(async () => t.stop());

const def = (operations: string[], services = ['demo-crm=v1']) => ({ name: 'crm', services, operations });

describe('SDK apps', () => {
  it.each([
    [def(['demo-crm=contacts/get'], ['demo-crmm=v1']), 'services[0]', "unknown service 'demo-crmm'; did you mean 'demo-crm'"],
    [def(['demo-crm=contacts/get'], ['demo-crm=v9']), 'services[0]', "service 'demo-crm' has no version 'v9' (available: v1)"],
    [def(['demo-crm=contacts/gett']), 'operations[0]', "unknown operation 'contacts/gett' in demo-crm@v1; did you mean 'contacts/get'"],
    [def(['github=issues/create']), 'operations[0]', "service 'github' is not among the selected services"],
    [def(['demo-crm=nothing/*']), 'operations[0]', "no operation of demo-crm@v1 matches 'nothing/*'"],
  ])('validate refuses %j naming %s', async (body, field, message) => {
    const res = await t.api('POST', '/v1/sdks/validate', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field } });
    expect(res.body.error.message).toContain(message);
  });

  it('refuses a service that the workspace has not enabled', async () => {
    await t.api('DELETE', '/v1/workspace/services/github');
    const res = await t.api('POST', '/v1/sdks/validate', def(['github=issues/create'], ['github=v1']));
    expect(res.body.error.message).toContain('not enabled in the workspace; run `svc-cli workspace service add github --version v1`');
    await t.api('PUT', '/v1/workspace/services/github', { version: 'v1' });
  });

  it('expands globs into the sorted operation list', async () => {
    const res = await t.api('POST', '/v1/sdks/validate', def(['demo-crm=contacts/*', 'demo-crm=files/get']));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'crm',
      services: [{ name: 'demo-crm', version: 'v1' }],
      operations: ['demo-crm.contacts/create', 'demo-crm.contacts/get', 'demo-crm.contacts/list', 'demo-crm.files/get'],
    });
  });

  it('labels versions from the change and returns the token once', async () => {
    const plan0 = await t.api('POST', '/v1/sdks/plan', def(['demo-crm=contacts/get']));
    expect(plan0.body).toMatchObject({ currentVersion: null, nextVersion: '1.0.0', summary: { add: 2, remove: 0, change: 0 } });

    const first = await t.api('POST', '/v1/sdks/publish', def(['demo-crm=contacts/get']));
    expect(first.body).toMatchObject({ name: 'crm', version: '1.0.0', published: true });
    expect(first.body.token).toMatch(/^svc_sdk_[A-Za-z0-9_-]{43}$/);
    expect(first.body.versionId).toMatch(/^ver_[0-9A-HJKMNP-TV-Z]{26}$/);

    const same = await t.api('POST', '/v1/sdks/publish', def(['demo-crm=contacts/get']));
    expect(same.body).toEqual({ name: 'crm', version: '1.0.0', versionId: first.body.versionId, published: false });
    const samePlan = await t.api('POST', '/v1/sdks/plan', def(['demo-crm=contacts/get']));
    expect(samePlan.body).toMatchObject({ nextVersion: null, changes: [] });

    const added = await t.api('POST', '/v1/sdks/publish', def(['demo-crm=contacts/get', 'demo-crm=deals/list']));
    expect(added.body).toMatchObject({ version: '1.1.0', published: true });
    expect(added.body).not.toHaveProperty('token');

    const plan = await t.api('POST', '/v1/sdks/plan', def(['demo-crm=deals/list']));
    expect(plan.body).toMatchObject({ currentVersion: '1.1.0', nextVersion: '2.0.0', changes: [{ action: '-', kind: 'operation', id: 'demo-crm.contacts/get' }] });
    const removed = await t.api('POST', '/v1/sdks/publish', def(['demo-crm=deals/list']));
    expect(removed.body).toMatchObject({ version: '2.0.0', published: true });
    expect(removed.body).not.toHaveProperty('token');

    const versions = await t.api('GET', '/v1/sdks/crm/versions');
    expect(versions.body.versions.map((v: any) => v.version)).toEqual(['2.0.0', '1.1.0', '1.0.0']);
    const old = versions.body.versions.find((v: any) => v.version === '1.0.0');
    expect(old.operations).toEqual(['demo-crm.contacts/get']);

    // The one token works for every version of its app.
    const row = await t.engine.store.listTokens('sdk', 'crm');
    expect(row).toHaveLength(1);
    expect(row[0]!.hash).not.toBe(first.body.token);
  });

  it('lists apps with their latest version and 404s an unknown app', async () => {
    const res = await t.api('GET', '/v1/sdks');
    expect(res.body.sdks.find((s: any) => s.name === 'crm').version).toBe('2.0.0');
    expect((await t.api('GET', '/v1/sdks/nope/versions')).status).toBe(404);
  });

  it('validates the definition shape itself', async () => {
    const res = await t.api('POST', '/v1/sdks/publish', { name: 'Bad Name', services: [], operations: ['x'] });
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors.map((e: any) => e.instancePath)).toEqual(expect.arrayContaining(['/name', '/services', '/operations/0']));
  });
});
