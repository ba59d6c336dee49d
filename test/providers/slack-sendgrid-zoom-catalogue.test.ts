// The bundled Slack, SendGrid and Zoom catalogues as reviewed in their engine.yaml: every list
// operation that takes a paging argument is paged (or is a written exception), each policy's items
// pointer names a list in the description's answer (or is a written exception taken from the
// provider's docs), the credential is no caller input; and svc-cli and search_docs show them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema, ServiceIndex } from '../../src/catalog/index.ts';
import { GENERATED_CATALOG_DIR } from '../../src/catalog/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';
import { publishApps, withMcpClient } from '../fixtures/providers/app.ts';

const load = (service: string) => JSON.parse(readFileSync(join(GENERATED_CATALOG_DIR, `${service}@v1.json`), 'utf8')) as ServiceIndex;
const PAGING_ARGUMENTS = new Set(['cursor', 'next_page_token', 'page_token', 'offset', 'page', 'page_number', 'lastSeenID']);

/** Operations with a paging argument that the Engine does not page, each for the reason engine.yaml gives. */
const NOT_PAGED: Record<string, string[]> = {
  slack: ['admin_emoji_list'], // its page is an object keyed by emoji name
  // date-series reports: limit/offset page the rows inside each day
  sendgrid: ['GET_browsers-stats', 'GET_categories-stats', 'GET_devices-stats', 'GET_geo-stats', 'GET_mailbox_providers-stats', 'GET_stats', 'GET_subusers-stats', 'GET_user-webhooks-parse-stats'],
  zoom: [],
};
/** Paged operations whose answer schema in the description declares no list: items taken from the provider's method docs. */
const ITEMS_FROM_DOCS: Record<string, string[]> = {
  slack: [
    'admin_apps_approved_list', 'admin_apps_requests_list', 'admin_apps_restricted_list', 'admin_conversations_ekm_listOriginalConnectedChannelInfo',
    'admin_conversations_search', 'admin_inviteRequests_approved_list', 'admin_inviteRequests_denied_list', 'admin_inviteRequests_list',
    'admin_teams_admins_list', 'admin_teams_list', 'admin_teams_owners_list', 'admin_users_list', 'apps_event_authorizations_list',
    'apps_permissions_users_list', 'files_remote_list', 'search_messages',
  ],
  sendgrid: [],
  zoom: [],
};

/** Whether `pointer` names an array in `schema`, following $refs into the service's schemas and allOf/anyOf/oneOf. */
function namesArray(index: ServiceIndex, schema: JsonSchema | null | undefined, pointer: string): boolean {
  const deref = (s: unknown): any => {
    for (let hops = 0; s && typeof s === 'object' && typeof (s as any).$ref === 'string' && hops < 30; hops++) s = index.schemas[(s as any).$ref.split('/').pop()];
    return s;
  };
  const child = (s: unknown, key: string): unknown => {
    const node = deref(s);
    if (!node || typeof node !== 'object') return undefined;
    if (node.properties && key in node.properties) return node.properties[key];
    for (const part of [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
      const found = child(part, key);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const isArray = (s: unknown): boolean => {
    const node = deref(s);
    return !!node && (node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array')) || [...(node.allOf ?? []), ...(node.anyOf ?? [])].some(isArray));
  };
  let node: unknown = schema;
  for (const token of pointer.split('/').slice(1)) node = node === undefined ? undefined : child(node, token);
  return isArray(node);
}

describe('the reviewed catalogues', () => {
  for (const service of ['slack', 'sendgrid', 'zoom']) {
    it(`${service}: every operation with a paging argument is paged, and each items pointer names a list`, () => {
      const index = load(service);
      const unpaged = index.operations.filter((op) => !op.pagination && op.parameters.some((p) => p.in === 'query' && PAGING_ARGUMENTS.has(p.name))).map((op) => op.providerOperationId);
      expect(unpaged.sort()).toEqual([...NOT_PAGED[service]!].sort());
      const unmatched = index.operations
        .filter((op) => op.pagination && !namesArray(index, Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1], op.pagination.items))
        .map((op) => op.providerOperationId);
      expect(unmatched.sort()).toEqual([...ITEMS_FROM_DOCS[service]!].sort());
      // A page input is a declared query parameter, so a caller bound's continuation can be passed back.
      for (const op of index.operations.filter((o) => o.pagination?.pageInput)) {
        expect(op.parameters.some((p) => p.in === 'query' && p.name === op.pagination!.pageInput), op.id).toBe(true);
      }
    });
  }

  it('slack: the description\'s token parameter and form field are the Engine\'s, never an input', () => {
    const index = load('slack');
    const withToken = index.operations.filter((op) => op.parameters.some((p) => p.name === 'token') || Object.hasOwn((op.body?.schema as any)?.properties ?? {}, 'token'));
    expect(withToken.map((op) => op.id)).toEqual([]);
    expect(index.providerError).toEqual({ pointer: '/ok', equals: false });
    // Slack's writes are forms: chat.postMessage is callable with its fields.
    const post = index.operations.find((op) => op.providerOperationId === 'chat_postMessage')!;
    expect(post.body).toMatchObject({ contentType: 'application/x-www-form-urlencoded' });
    expect(Object.keys((post.body!.schema as any).properties)).toEqual(expect.arrayContaining(['channel', 'text', 'blocks', 'thread_ts']));
  });
});

describe('svc-cli and search_docs show the providers', () => {
  let t: TestEngine;
  let user: CliUser;
  beforeAll(async () => {
    t = await startTestEngine();
    user = cliUser(t.url);
    expect((await user.cli(['login', '--with-token'], { input: `${t.cliToken}\n` })).code).toBe(0);
  });
  afterAll(async () => {
    user?.cleanup();
    await t?.stop();
  });

  it('lists slack, sendgrid and zoom in `workspace services list`, and finds each by query', async () => {
    const all = await user.cli(['workspace', 'services', 'list', '--json']);
    expect(all.code, all.stderr).toBe(0);
    const services = new Map((JSON.parse(all.stdout).services as any[]).map((s) => [s.name, s]));
    for (const [name, title] of [['slack', 'Slack Web API'], ['sendgrid', 'Twilio SendGrid v3 API'], ['zoom', 'Zoom API']] as const) {
      expect(services.get(name), name).toMatchObject({ title, versions: [{ version: 'v1', operations: load(name).operations.length, source: 'catalog' }] });
    }
    const table = await user.cli(['workspace', 'services', 'list', '--query', 'zoom']);
    expect(table.stdout).toMatch(/^zoom\s+v1\s+372\s+catalog\s+\S+\s+Zoom API$/m);
  });

  it('search_docs finds each provider\'s operations for what they do', async () => {
    for (const service of ['slack', 'sendgrid', 'zoom']) await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1' });
    const { mcp } = await publishApps(t, 'providers', { services: ['slack=v1', 'sendgrid=v1', 'zoom=v1'], operations: ['slack=*', 'sendgrid=*', 'zoom=*'] });
    await withMcpClient(mcp, async (client) => {
      const search = async (query: string) => ((await client.callTool({ name: 'search_docs', arguments: { query } })) as any).structuredContent.results.map((r: any) => r.operationId);
      expect(await search('post a message to a slack channel')).toContain('slack.chat_postMessage');
      expect(await search('send a mail')).toContain('sendgrid.POST_mail-send');
      expect(await search('create a zoom meeting')).toContain('zoom.meetingCreate');
      const exact = (await client.callTool({ name: 'search_docs', arguments: { operationId: 'zoom.users' } })) as any;
      expect(exact.structuredContent.pagination).toMatchObject({ supported: true, caller_bound_supported: true, engine_max_pages: 20 });
    });
  });
});
