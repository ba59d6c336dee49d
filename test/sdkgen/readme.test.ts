// The README of an SDK version: reads it as downloaded and checks the generated-SDK checklist —
// version ID and label, install steps, a quickstart reading SVC_EXECUTION_TOKEN, a table of
// exactly the selected operations with their paths in both languages, an example per operation
// with the svc-cli and curl equivalents, the envelope and error codes, pagination and selectors.
// (That every path resolves on the client is checked by the TypeScript and Python package tests.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_STATUS } from '../../src/envelope/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { download } from '../fixtures/sdk-packages.ts';

let t: TestEngine;
let readme: string;
let version: { versionId: string; version: string; operations: string[] };

beforeAll(async () => {
  t = await startTestEngine({ SVC_GRPC_PORT: '0' });
  for (const service of ['demo-crm', 'github']) {
    expect((await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1', baseUrl: 'http://127.0.0.1:9' })).status).toBe(200);
  }
  const res = await t.api('POST', '/v1/sdks/publish', {
    name: 'docs',
    services: ['demo-crm=v1', 'github=v1'],
    operations: ['demo-crm=contacts/*', 'demo-crm=deals/list', 'github=issues/create', 'github=issues/list-for-repo', 'github=repos/get', 'unified=tasks.create'],
  });
  expect(res.status).toBe(200);
  t.canaries.push(res.body.token);
  version = (await t.api('GET', '/v1/sdks/docs/versions')).body.versions[0];
  readme = (await download(t, 'docs', version.version, 'readme')).bytes.toString('utf8');
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

const section = (title: string) => {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `section "${title}"`).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 4);
  return readme.slice(start, end < 0 ? undefined : end);
};

describe('SDK README', () => {
  it('names the SDK, its version label and version ID', () => {
    expect(readme.split('\n')[0]).toBe(`# docs ${version.version} — svc-engine SDK`);
    expect(readme).toContain(`| Version label | \`${version.version}\` |`);
    expect(readme).toContain(`| Version ID | \`${version.versionId}\` |`);
  });

  it('gives install steps for npm and pip and a quickstart reading SVC_EXECUTION_TOKEN', () => {
    const install = section('Install');
    expect(install).toContain(`npm install ./svc-sdk-docs-${version.version}.tgz`);
    expect(install).toContain(`pip install ./svc_sdk_docs-${version.version}-py3-none-any.whl`);
    const quick = section('Quickstart');
    expect(quick).toContain("import { Client } from '@svc-sdk/docs';");
    expect(quick).toContain('token: process.env.SVC_EXECUTION_TOKEN!');
    expect(quick).toContain('from svc_sdk_docs import Client');
    expect(quick).toContain('token=os.environ["SVC_EXECUTION_TOKEN"]');
  });

  it('lists exactly the selected operations with both grouped paths, ID and summary', () => {
    const rows = [...section('Operations').matchAll(/^\| `(client\.[\w.]+)` \| `(client\.[\w.]+)` \| `([^`]+)` \| (.*) \|$/gm)];
    expect(rows.map((r) => r[3])).toEqual(version.operations);
    const byId = Object.fromEntries(rows.map((r) => [r[3], { ts: r[1], py: r[2], summary: r[4] }]));
    expect(byId['github.issues/create']).toEqual({ ts: 'client.Github.issues.create', py: 'client.Github.issues.create', summary: 'Create an issue' });
    expect(byId['github.issues/list-for-repo']).toMatchObject({ ts: 'client.Github.issues.listForRepo', py: 'client.Github.issues.list_for_repo' });
    expect(byId['demo-crm.contacts/get']).toMatchObject({ ts: 'client.DemoCrm.contacts.get', py: 'client.DemoCrm.contacts.get', summary: 'Get a contact' });
    expect(byId['unified.tasks.create']).toMatchObject({ ts: 'client.Unified.tasks.create', py: 'client.Unified.tasks.create' });
  });

  it('shows an example call for each operation, with the svc-cli and curl equivalents', () => {
    const examples = section('Examples');
    const headings = [...examples.matchAll(/^### `([^`]+)`$/gm)].map((m) => m[1]);
    expect(headings).toEqual(version.operations);
    for (const id of version.operations) {
      const block = examples.slice(examples.indexOf(`### \`${id}\``)).split('\n### ')[0]!;
      expect(block).toMatch(/```ts\nconst result = await client\.\w+(\.\w+)+\(/);
      expect(block).toMatch(/```python\nresult = client\.\w+(\.\w+)+\(/);
      if (!id.startsWith('unified.')) expect(block).toContain(`svc-cli sdk invoke docs@${version.version} ${id} --params '`);
      expect(block).toContain(`curl -sS -X POST "$SVC_ENGINE_URL/v1/apps/${version.versionId}/executions"`);
      const body = /-d '(.*)'$/m.exec(block)![1]!;
      expect(JSON.parse(body)).toMatchObject({ operation: id, input: expect.any(Object), ...(id.startsWith('unified.') ? { targets: ['github', 'crm'] } : {}) });
    }
    expect(examples).toContain(`client.Github.issues.create({ "owner": "<owner>", "repo": "<repo>", "body": { "title": "<title>" } })`);
    expect(examples).toContain(`client.Github.issues.create({"owner": "<owner>", "repo": "<repo>", "body": {"title": "<title>"}})`);
  });

  it('explains the envelope and every error code', () => {
    const envelope = section('The result envelope');
    for (const field of ['ok', 'status', 'data', 'error']) expect(envelope).toContain(`| \`${field}\` |`);
    for (const [code, status] of Object.entries(ENGINE_STATUS)) expect(envelope).toContain(`| \`${code}\` | ${status} |`);
    expect(envelope).toContain('| `PROVIDER_ERROR` |');
    expect(envelope).toContain('| `TRANSPORT_UNAVAILABLE` | 503 / 504 |');
  });

  it('documents pagination for exactly the paginated operations', () => {
    const pagination = section('Pagination');
    const rows = [...pagination.matchAll(/^\| `(client\.[\w.]+)` \| (\w+) \| (\d+) \| (.*) \|$/gm)];
    expect(rows.map((r) => r[1])).toEqual(['client.DemoCrm.contacts.list', 'client.DemoCrm.deals.list', 'client.Github.issues.listForRepo']);
    expect(rows[0]![4]).toContain('`{ pagination: { maxPages: N } }`');
    expect(rows[0]![4]).toContain('`max_pages=N`');
  });

  it('documents selectors for OAuth end users', () => {
    const selectors = section('Selectors for OAuth end users');
    expect(selectors).toContain('OAuth services in this SDK: `demo-crm`');
    expect(selectors).toContain("{ selectors: { endUserRef: 'user-42' } }");
    expect(selectors).toContain('selectors={"end_user_ref": "user-42"}');
  });
});
