// unified.tasks.create over real providers' catalogue entries (spec/unified/tasks.create.yaml):
// a GitHub issue, a GitLab issue (a form), an Asana task and a Jira issue (an Atlassian Document
// description) from one input, through REST and MCP execute, against fakes on loopback; a failing
// provider is reported on its own step, and a target whose service the app leaves out is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { startGitLab, type FakeGitLab } from '../fixtures/providers/gitlab.ts';
import { startAsana, type FakeAsana } from '../fixtures/providers/asana.ts';
import { startJira, type FakeJira } from '../fixtures/providers/jira.ts';

const SECRETS = { github: 'ghp_CANARY_tasks_1a2b', gitlab: 'glpat-CANARY-tasks-3c4d', asana: '2/1/2:CANARY_tasks_5e6f', jiraToken: 'ATATT-CANARY-tasks-7a8b' };
const EMAIL = 'bot@acme.example';

let t: TestEngine;
let github: FakeProvider;
let gitlab: FakeGitLab;
let asana: FakeAsana;
let jira: FakeJira;
let sdk: { versionId: string; token: string };
let mcp: { url: string; token: string };

beforeAll(async () => {
  github = await startFakeProvider((req, res) => {
    if (req.method === 'POST' && req.url === '/repos/acme/web/issues') {
      if (req.headers.authorization !== `Bearer ${SECRETS.github}`) return json(res, 401, { message: 'Bad credentials' });
      return json(res, 201, { number: 7, html_url: 'https://github.example/acme/web/issues/7', title: JSON.parse(req.body).title });
    }
    json(res, 404, { message: 'Not Found' });
  });
  gitlab = await startGitLab({ token: SECRETS.gitlab });
  asana = await startAsana({ token: SECRETS.asana });
  jira = await startJira({ email: EMAIL, apiToken: SECRETS.jiraToken });
  t = await startTestEngine();
  t.canaries.push(...Object.values(SECRETS));
  const enable = async (service: string, baseUrl: string, secret: string) => {
    expect((await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1', baseUrl })).status).toBe(200);
    expect((await t.api('PUT', `/v1/buckets/default/secrets/${service}`, { value: secret })).status).toBe(204);
  };
  await enable('github', github.url, SECRETS.github);
  await enable('gitlab', gitlab.apiUrl, SECRETS.gitlab);
  await enable('asana', asana.apiUrl, SECRETS.asana);
  await enable('jira', jira.siteUrl, `${EMAIL}:${SECRETS.jiraToken}`);
  // No demo-crm: the crm target is out of this app's reach.
  const definition = { services: ['github=v1', 'gitlab=v1', 'asana=v1', 'jira=v1'], operations: ['unified=tasks.create'] };
  const published = await t.api('POST', '/v1/sdks/publish', { name: 'tasks', ...definition });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  sdk = published.body;
  const deployed = await t.api('POST', '/v1/mcp/publish', { name: 'tasks-agents', ...definition });
  expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
  mcp = deployed.body;
  t.canaries.push(sdk.token, mcp.token);
});
afterAll(async () => {
  await t?.stop();
  await Promise.all([github?.stop(), gitlab?.stop(), asana?.stop(), jira?.stop()]);
});

const input = { title: 'Renewal call', notes: 'Ask about seats', owner: 'acme', repo: 'web', gitlabProject: '42', asanaProject: '1201', jiraProject: 'WEB' };
const rest = (body: Record<string, unknown>) => t.execute(sdk.versionId, sdk.token, { operation: 'unified.tasks.create', ...body });

describe('unified.tasks.create over GitHub, GitLab, Asana and Jira', () => {
  it('creates one task on each provider from one input, over REST', async () => {
    const res = await rest({ input, targets: ['github', 'gitlab', 'asana', 'jira'] });
    expect(res.status).toBe(200);
    expect(res.body.ok, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data.output.tasks).toEqual([
      { provider: 'github', id: '7', url: 'https://github.example/acme/web/issues/7' },
      { provider: 'gitlab', id: '1', url: 'https://gitlab.example/acme/web/-/issues/1' },
      { provider: 'asana', id: asana.tasks.get('1201')![0]!.gid, url: asana.tasks.get('1201')![0]!.permalink_url },
      { provider: 'jira', id: 'WEB-1', url: null },
    ]);
    expect(res.body.data.steps.map((s: any) => [s.target, s.operation, s.status, s.httpStatus])).toEqual([
      ['github', 'github.issues/create', 'succeeded', 201],
      ['gitlab', 'gitlab.postV3ProjectsIdIssues', 'succeeded', 201],
      ['asana', 'asana.createTask', 'succeeded', 201],
      ['jira', 'jira.createIssue', 'succeeded', 201],
    ]);
    // Each provider got its own shape of the same task.
    expect(Object.fromEntries(new URLSearchParams(gitlab.provider.requests.at(-1)!.body))).toEqual({ title: 'Renewal call', description: 'Ask about seats' });
    expect(JSON.parse(asana.provider.requests.at(-1)!.body)).toEqual({ data: { name: 'Renewal call', notes: 'Ask about seats', projects: ['1201'] } });
    expect(JSON.parse(jira.provider.requests.at(-1)!.body)).toEqual({
      fields: {
        project: { key: 'WEB' },
        summary: 'Renewal call',
        issuetype: { name: 'Task' },
        description: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Ask about seats' }] }] },
      },
    });
  });

  it("reports a provider's refusal on its own step while the other targets succeed", async () => {
    const res = await rest({ input: { title: 'No such project', gitlabProject: '42', jiraProject: 'NOPE' }, targets: ['gitlab', 'jira'] });
    expect(res.body.ok).toBe(false);
    expect(res.body.error).toMatchObject({ code: 'UNIFIED_STEP_FAILED', message: expect.stringContaining("step 'jira' (jira.createIssue) failed") });
    expect(res.body.data.output.tasks).toEqual([{ provider: 'gitlab', id: '2', url: 'https://gitlab.example/acme/web/-/issues/2' }]);
    expect(res.body.data.steps.map((s: any) => [s.target, s.status, s.httpStatus])).toEqual([
      ['gitlab', 'succeeded', 201],
      ['jira', 'failed', 400],
    ]);
  });

  it('refuses the crm target, whose service this app leaves out, without sending anything', async () => {
    const before = [github, gitlab.provider, asana.provider, jira.provider].reduce((n, p) => n + p.requests.length, 0);
    const res = await rest({ input: { title: 'CRM task' }, targets: ['crm'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', message: "target 'crm' of unified.tasks.create calls service 'demo-crm', which this version does not select; its targets here: github, gitlab, asana, jira" });
    expect([github, gitlab.provider, asana.provider, jira.provider].reduce((n, p) => n + p.requests.length, 0)).toBe(before);
  });

  it('runs through MCP execute, and search_docs names the new targets', async () => {
    const client = new Client({ name: 'tasks-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { authorization: `Bearer ${mcp.token}` } } }));
    try {
      const code = 'return await call("unified.tasks.create", { input: { title: "From an agent", asanaProject: "1201", jiraProject: "WEB", jiraIssueType: "Bug" }, targets: ["asana", "jira"] })';
      const result = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.result).toMatchObject({ ok: true, data: { output: { tasks: [{ provider: 'asana' }, { provider: 'jira', id: 'WEB-2' }] } } });
      const sent = JSON.parse(jira.provider.requests.at(-1)!.body);
      expect(sent.fields).toEqual({ project: { key: 'WEB' }, summary: 'From an agent', issuetype: { name: 'Bug' } });
      const targets = (await client.callTool({ name: 'search_docs', arguments: { operationId: 'unified.tasks.create', section: 'targets' } })) as any;
      expect(Object.keys(targets.structuredContent.sections.targets).sort()).toEqual(['asana', 'crm', 'github', 'gitlab', 'jira']);
      expect(targets.structuredContent.sections.targets.jira).toMatchObject({ operation: 'jira.createIssue' });
    } finally {
      await client.close();
    }
  });
});
