// SDK/MCP definitions and workspace plan/apply, found by review: group globs over tag-grouped services, malformed entries named
// as written, a "not enabled" hint that enables, and base URLs plan refuses exactly as apply would.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';

let t: TestEngine;
let user: CliUser;
beforeAll(async () => {
  t = await startTestEngine();
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1' });
  user = cliUser(t.url);
  expect((await user.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
});
afterAll(async () => {
  await t?.stop();
  user?.cleanup();
});

/** An OpenAPI document of GET operations with flat operationIds, grouped by their first tag (docs/architecture.md, identifiers). */
const flatDocument = (ops: [path: string, operationId: string, tag: string][]) =>
  [
    'openapi: 3.0.3',
    "info: { title: flat, version: '1' }",
    "servers: [{ url: 'http://127.0.0.1:9' }]",
    'paths:',
    ...ops.flatMap(([path, id, tag]) => [`  ${path}:`, '    get:', `      operationId: ${id}`, `      tags: [${tag}]`, "      responses: { '200': { description: ok } }"]),
  ].join('\n');

describe('definition selectors and messages', { timeout: 60_000 }, () => {
  // Found by review: a '<service>=group/*' glob matches operationId prefixes, not the grouped path, so a tag-grouped (flat-ID) service's group cannot be selected.
  it("selects a tag-grouped service's group with '<service>=<group>/*'", async () => {
    const imported = await t.api('POST', '/v1/workspace/imports', {
      name: 'flat',
      version: 'v1',
      document: flatDocument([['/customers', 'PostCustomers', 'customers'], ['/customers/search', 'GetCustomer', 'customers'], ['/charges', 'GetCharges', 'charges']]),
    });
    expect(imported.status).toBe(201);
    expect((await t.api('PUT', '/v1/workspace/services/flat', { version: 'v1' })).status).toBe(200);
    const res = await t.api('POST', '/v1/sdks/validate', { name: 'flat', services: ['flat=v1'], operations: ['flat=customers/*'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.operations).toEqual(['flat.GetCustomer', 'flat.PostCustomers']);
  });

  // Found by review: two identical applies at once (replicas, or two terminals): the loser was a 409, not "nothing to do".
  it('answers the second of two identical concurrent applies as published already', async () => {
    const def = { name: 'twice', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] };
    const results = await Promise.all([t.engine.deps.sdk.publish(def), t.engine.deps.sdk.publish(def)]);
    expect(results.map((r) => r.published).sort()).toEqual([false, true]);
    expect(results[0]!.versionId).toBe(results[1]!.versionId);
    expect(results.filter((r) => 'token' in r && r.token)).toHaveLength(1);
    for (const r of results) if ('token' in r && r.token) t.canaries.push(r.token);
    // Different definitions at once: the loser's plan is stale, and it says so.
    const other = { ...def, operations: ['demo-crm=contacts/list'] };
    const raced = await Promise.allSettled([t.engine.deps.sdk.publish({ ...def, operations: ['demo-crm=contacts/get', 'demo-crm=contacts/list'] }), t.engine.deps.sdk.publish(other)]);
    expect(raced.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason.message))).toEqual([expect.stringContaining('published concurrently')]);
  });

  // Found by review: a token's allowlist was checked against the latest version even when a version ID was named;
  // expiries were stored exactly as sent (any offset or case), so token lists mixed forms.
  it('checks an MCP token allowlist against the version named, and keeps expiries in one form', async () => {
    const v1 = await t.api('POST', '/v1/mcp/publish', { name: 'versioned', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] });
    t.canaries.push(v1.body.token);
    const v2 = await t.api('POST', '/v1/mcp/publish', { name: 'versioned', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] });
    expect(v2.body.version).toBe('2.0.0');
    const byId = await t.api('POST', `/v1/mcp/${v1.body.versionId}/tokens`, { allow: ['demo-crm.contacts/get'], expiresAt: '2030-01-01T00:00:00+14:00' });
    expect(byId.status, JSON.stringify(byId.body)).toBe(201);
    t.canaries.push(byId.body.token);
    expect(byId.body.expiresAt).toBe('2029-12-31T10:00:00.000Z');
    const byName = await t.api('POST', '/v1/mcp/versioned/tokens', { allow: ['demo-crm.contacts/get'] });
    expect(byName.status).toBe(400);
    expect(byName.body.error.message).toContain('matches no operation of versioned 2.0.0');
  });

  // Found by review: versions listed as text (v1, v10, v2).
  it('lists available versions in numeric order', async () => {
    for (const version of ['v10', 'v2', 'v1']) {
      const imported = await t.api('POST', '/v1/workspace/imports', { name: 'numbered', version, document: flatDocument([['/things', 'GetThings', 'things']]) });
      expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    }
    const res = await t.api('POST', '/v1/sdks/validate', { name: 'numbered', services: ['numbered=v3'], operations: ['numbered=GetThings'] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('(available: v1, v2, v10)');
  });

  // Found by review: cli/lib/definition.ts relabel() matches `services[0]` or `/services/0`, but the Engine's schema errors now name the field `services.0`, so a malformed entry in the file is reported as a raw pattern with "check the arguments (see --help)".
  it.each([
    ['services', 'demo-crm=', { services: ['demo-crm='], operations: ['demo-crm=contacts/get'] }],
    ['services', 'a=b=c', { services: ['a=b=c'], operations: ['demo-crm=contacts/get'] }],
    ['operations', '=x', { services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get', '=x'] }],
  ])('names the malformed %s entry %s of the definition file', async (list, entry, body) => {
    const file = join(user.home, 'malformed.json');
    writeFileSync(file, JSON.stringify({ name: 'crm', ...body }));
    const index = (body as Record<string, string[]>)[list]!.indexOf(entry);
    for (const command of ['validate', 'plan', 'apply']) {
      const r = await user.cli(['sdk', command, '--file', file]);
      expect(r.code).toBe(1);
      const line = oneErrorLine(r.stderr);
      expect(line, command).toContain(`malformed.json ${list}[${index}] ('${entry}')`);
      expect(line, command).not.toContain('check the arguments');
    }
  });

  // Found by review: the "not enabled" refusal says to run only `workspace service add`, which edits svc.workspace.json and enables nothing; the refusal persists after following it.
  it('tells how to enable a service the definition needs in a way that actually enables it', async () => {
    const r = await user.cli(['sdk', 'init', 'gh', '--service', 'github=v1', '--operation', 'github=issues/create', '--file', 'gh.json']);
    expect(r.code).toBe(1);
    const line = oneErrorLine(r.stderr);
    expect(line).toContain('not enabled in the workspace');
    const add = await user.cli(['workspace', 'service', 'add', 'github', '--version', 'v1', '--file', 'ws.json']);
    expect(add.code).toBe(0);
    // Doing exactly what the message said did not help:
    const again = await user.cli(['sdk', 'init', 'gh', '--service', 'github=v1', '--operation', 'github=issues/create', '--file', 'gh.json']);
    expect(again.code).toBe(1);
    expect(line).toContain('workspace apply');
  });
});

describe('workspace plan and apply', { timeout: 60_000 }, () => {
  // Found by review: workspace plan (checkBaseUrl) accepts base URLs the Engine's BaseUrl schema/baseUrlProblem refuses, so apply enables the first services and then stops half-way.
  it.each(['HTTP://127.0.0.1:9', 'http://127.0.0.1:9/{v}', 'http://127.0.0.1:9/a b'])('refuses base URL %s at plan time, and apply changes nothing', async (baseUrl) => {
    const engine = await startTestEngine();
    const u = cliUser(engine.url);
    try {
      expect((await u.cli(['login', '--with-token'], { input: engine.cliToken })).code).toBe(0);
      writeFileSync(join(u.home, 'svc.workspace.json'), JSON.stringify({ services: { 'demo-crm': { version: 'v1' }, github: { version: 'v1', baseUrl } } }));
      const plan = await u.cli(['workspace', 'plan']);
      const apply = await u.cli(['workspace', 'apply']);
      expect(apply.code).not.toBe(0);
      // Whatever apply refuses, it refuses before changing anything (plan.ts: "apply never stops half-way on a bad entry").
      expect((await engine.api('GET', '/v1/workspace/services')).body.services).toEqual([]);
      expect(plan.code, plan.stdout).not.toBe(0);
    } finally {
      await engine.stop();
      u.cleanup();
    }
  });
});
