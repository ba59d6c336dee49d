// GitLab, Asana and Jira as the catalogue shows them (generated/catalog from spec/services):
// `svc-cli workspace services list` names them with their operation counts, search_docs finds
// their operations, and each carries the reviewed auth of its engine.yaml and pagination on every
// list operation and on no other.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';

let t: TestEngine;
let user: CliUser;

beforeAll(async () => {
  t = await startTestEngine();
  user = cliUser(t.url);
  expect((await user.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
});
afterAll(async () => {
  user?.cleanup();
  await t?.stop();
});

it('svc-cli workspace services list shows the three providers, and finds them by name', async () => {
  const list = await user.cli(['workspace', 'services', 'list', '--json']);
  expect(list.code, list.stderr).toBe(0);
  const services = JSON.parse(list.stdout).services as { name: string; title: string; versions: { operations: number; baseUrl: string }[] }[];
  const shown = (name: string) => services.find((s) => s.name === name);
  expect(shown('gitlab')).toMatchObject({ title: 'GitLab', versions: [{ operations: 356, baseUrl: 'https://gitlab.com/api' }] });
  expect(shown('asana')).toMatchObject({ title: 'Asana', versions: [{ operations: 166, baseUrl: 'https://app.asana.com/api/1.0' }] });
  expect(shown('jira')).toMatchObject({ title: 'Jira Cloud platform REST API', versions: [{ operations: 496, baseUrl: 'https://your-domain.atlassian.net' }] });
  const found = await user.cli(['workspace', 'services', 'list', '--q', 'jira']);
  expect(found.code, found.stderr).toBe(0);
  expect(found.stdout).toContain('jira');
  expect(found.stdout).not.toContain('asana');
});

it('carries the reviewed auth, and pagination on every list operation and on no other', () => {
  const { catalog } = t.engine.deps;
  const gitlab = catalog.get('gitlab', 'v1')!;
  const asana = catalog.get('asana', 'v1')!;
  const jira = catalog.get('jira', 'v1')!;
  expect(gitlab.auth).toEqual([
    { name: 'private_token', type: 'api_key', in: 'header', header: 'PRIVATE-TOKEN', prefix: '' },
    { name: 'oauth', type: 'oauth2', authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', revocationUrl: '/oauth/revoke', scopes: ['api'] },
  ]);
  expect(asana.auth.map((a) => a.type)).toEqual(['api_key', 'oauth2']);
  expect(jira.auth).toEqual([{ name: 'api_token', type: 'http_basic' }, expect.objectContaining({ type: 'oauth2', tokenUrl: 'https://auth.atlassian.com/oauth/token' })]);
  const takes = (op: (typeof gitlab.operations)[number], name: string) => op.parameters.some((p) => p.in === 'query' && p.name === name);
  // GitLab: every GET taking page follows the Link header; nothing else pages.
  const gitlabLists = gitlab.operations.filter((op) => op.method === 'GET' && takes(op, 'page'));
  expect(gitlabLists).toHaveLength(55);
  expect(gitlab.operations.filter((op) => op.pagination)).toEqual(gitlabLists);
  for (const op of gitlabLists) expect(op.pagination, op.id).toMatchObject({ style: 'link_header', items: '' });
  // Asana: every GET taking offset whose answer is a data array.
  const asanaLists = asana.operations.filter((op) => op.method === 'GET' && takes(op, 'offset') && JSON.stringify(op.responses['200']).includes('"data":{"items"'));
  expect(asanaLists).toHaveLength(45);
  expect(asana.operations.filter((op) => op.pagination)).toEqual(asanaLists);
  for (const op of asanaLists) expect(op.pagination, op.id).toMatchObject({ style: 'cursor', pageInput: 'offset', continuation: '/next_page/offset', items: '/data' });
  // Jira: every operation taking startAt, each with the items of its answer.
  const jiraLists = jira.operations.filter((op) => takes(op, 'startAt'));
  expect(jiraLists).toHaveLength(68);
  expect(jira.operations.filter((op) => op.pagination)).toEqual(jiraLists);
  const byItems = new Map<string, number>();
  for (const op of jiraLists) byItems.set(op.pagination!.items, (byItems.get(op.pagination!.items) ?? 0) + 1);
  expect(Object.fromEntries(byItems)).toEqual({ '/values': 56, '': 8, '/dashboards': 1, '/comments': 1, '/worklogs': 1, '/issues': 1 });
  for (const op of jiraLists.filter((o) => o.pagination!.items === '/values')) expect(op.pagination, op.id).toMatchObject({ style: 'offset', pageInput: 'startAt', last: '/isLast', total: '/total' });
  expect(gitlab.omitted?.map((o) => o.operationId)).toEqual(['postV3ProjectsId(refRef)triggerBuilds', 'postV3ProjectsIdUploads']);
});

it('search_docs finds their operations', async () => {
  for (const service of ['gitlab', 'asana', 'jira']) expect((await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1' })).status).toBe(200);
  const published = await t.api('POST', '/v1/mcp/publish', { name: 'trackers', services: ['gitlab=v1', 'asana=v1', 'jira=v1'], operations: ['gitlab=*', 'asana=*', 'jira=*'] });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  const server = published.body;
  t.canaries.push(server.token);
  const client = new Client({ name: 'catalogue-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
  try {
    const search = async (query: string) => ((await client.callTool({ name: 'search_docs', arguments: { query } })) as any).structuredContent.results.map((r: any) => r.operationId) as string[];
    expect(await search('create a jira issue')).toContain('jira.createIssue');
    expect(await search('create a new project issue')).toContain('gitlab.postV3ProjectsIdIssues');
    expect(await search('get tasks from a project')).toContain('asana.getTasksForProject');
  } finally {
    await client.close();
  }
});
