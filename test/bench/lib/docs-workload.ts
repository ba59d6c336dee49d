// The search_docs workload shared by test/bench/search-docs.bench.ts and mcp-server.bench.ts:
// fixed query lists for the bundled GitHub catalogue, and a synthetic catalogue of N operations
// built like an imported service — a generated OpenAPI 3.1 document (seeded, so every run sees
// the same operations) normalised by the Engine's own normalizeService and loaded through
// Catalog.load from a temporary catalogue directory, exactly like the bundled services.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog, normalizeService, parsePolicy, type ServiceIndex } from '../../../src/catalog/index.ts';
import type { SearchArgs } from '../../../src/docs/index.ts';
import { SqliteStore } from '../../../src/store/index.ts';

/** Outcomes an agent would ask the GitHub catalogue for, phrased the way agents phrase them. */
export const GITHUB_INTENTS: string[] = [
  'create an issue in a github repository',
  'list repositories for an organization',
  'merge a pull request',
  'add labels to an issue',
  'get the contents of a file in a repo',
  'list workflow runs for a repository',
  'create a release',
  'search code',
  'list commits on a branch',
  'add a collaborator to a repository',
  'get the authenticated user',
  'create a gist',
  'list members of a team',
  'create a webhook for a repository',
  'download a workflow artifact',
  'reply to a pull request review comment',
  'star a repository',
  'check my rate limit',
  'delete a branch protection rule',
  'list open pull requests',
];

/** Exact lookups: whole detail (every section that fits 64 KiB) and single sections. */
export const GITHUB_EXACT: SearchArgs[] = [
  { operationId: 'github.issues/create' },
  { operationId: 'github.repos/get' },
  { operationId: 'github.pulls/create' },
  { operationId: 'github.repos/list-for-org' },
  { operationId: 'github.actions/list-workflow-runs-for-repo' },
  { operationId: 'github.repos/get-content' },
  { operationId: 'github.search/code' },
  { operationId: 'github.users/get-authenticated' },
  { operationId: 'github.issues/create', section: 'request', schemaPath: '/schema/properties/title' },
  { operationId: 'github.pulls/list', section: 'parameters' },
];

export const GITHUB_BROWSE: SearchArgs[] = [{}, { service: 'github' }];

/** Intent queries over the synthetic catalogue's vocabulary. */
export const SYNTH_INTENTS: string[] = [
  'list invoices for a customer',
  'refund a payment',
  'archive a project',
  'add a note to a ticket',
  'export reports as csv',
  'restore a database backup',
  'cancel a subscription',
  'assign a task to a user',
  'list deployment events',
  'update warehouse settings',
  'delete a webhook',
  'search contacts in a workspace',
  'approve an expense',
  'get certificate versions',
  'create a shipment for an organization',
  'transfer a domain to another owner',
  'retry a failed pipeline',
  'remove a member from a team',
  'list alerts in a region',
  'publish a survey',
];

export const SYNTH_SERVICE = 'acme';

/** Exact lookups over the synthetic catalogue (IDs that the generator always produces). */
export const SYNTH_EXACT: SearchArgs[] = [
  { operationId: 'acme.invoices/get' },
  { operationId: 'acme.invoices/create' },
  { operationId: 'acme.customers/list-for-org' },
  { operationId: 'acme.projects/update' },
  { operationId: 'acme.tickets/list' },
  { operationId: 'acme.payments/get' },
  { operationId: 'acme.deployments/create' },
  { operationId: 'acme.subscriptions/delete' },
  { operationId: 'acme.invoices/create', section: 'request', schemaPath: '/schema/properties/name' },
  { operationId: 'acme.tickets/list', section: 'parameters' },
];

export const SYNTH_BROWSE: SearchArgs[] = [{}, { service: SYNTH_SERVICE }];

/** Loads the bundled catalogue (demo-crm + github) the way the Engine does, on an in-memory store. */
export async function loadBundledCatalog(): Promise<{ catalog: Catalog; store: SqliteStore; loadMs: number }> {
  const store = new SqliteStore(':memory:');
  const t0 = performance.now();
  const catalog = await Catalog.load(store);
  return { catalog, store, loadMs: performance.now() - t0 };
}

// ---------------------------------------------------------------------------------------------
// Synthetic catalogue

/** mulberry32: small seeded PRNG so the synthetic catalogue is identical on every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    sample: <T>(xs: readonly T[], n: number): T[] => {
      const copy = [...xs];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, n);
    },
  };
}

type Word = { one: string; many: string };
const w = (one: string, many = `${one}s`): Word => ({ one, many });

const NOUNS: Word[] = [
  w('invoice'), w('customer'), w('subscription'), w('payment'), w('refund'), w('order'), w('product'), w('price'), w('coupon'), w('shipment'),
  w('warehouse'), w('employee'), w('team'), w('project'), w('task'), w('ticket'), w('document'), w('folder'), w('report'), w('dashboard'),
  w('alert'), w('incident'), w('deployment'), w('pipeline'), w('build'), w('artifact'), w('cluster'), w('volume'), w('snapshot'), w('database'),
  w('backup'), w('certificate'), w('domain'), w('campaign'), w('contact'), w('lead'), w('opportunity', 'opportunities'), w('vendor'), w('contract'), w('asset'),
  w('location'), w('device'), w('sensor'), w('webhook'), w('expense'), w('budget'), w('calendar'), w('meeting'), w('survey'), w('account'),
];

const SUBS: Word[] = [
  w('note'), w('attachment'), w('label'), w('member'), w('permission'), w('event'), w('version'), w('setting'), w('metric'), w('log'),
  w('comment'), w('approval'), w('export'), w('link'), w('tag'), w('reviewer'),
];

interface Scope {
  prefix: string;
  suffix: string;
  phrase: string;
  param?: { name: string; description: string };
}
const SCOPES: Scope[] = [
  { prefix: '', suffix: '', phrase: '' },
  { prefix: '/orgs/{org}', suffix: 'for-org', phrase: ' for an organization', param: { name: 'org', description: 'The organization name. The name is not case sensitive.' } },
  { prefix: '/projects/{project_id}', suffix: 'in-project', phrase: ' in a project', param: { name: 'project_id', description: 'The unique identifier of the project.' } },
  { prefix: '/workspaces/{workspace_id}', suffix: 'in-workspace', phrase: ' in a workspace', param: { name: 'workspace_id', description: 'The ID of the workspace that owns the resource.' } },
  { prefix: '/regions/{region}', suffix: 'in-region', phrase: ' in a region', param: { name: 'region', description: 'The region slug, for example `eu-west-1`.' } },
  { prefix: '/users/{username}', suffix: 'for-user', phrase: ' for a user', param: { name: 'username', description: 'The handle for the user account.' } },
];

const EXTRA_ACTIONS: { verb: string; summary: string[]; past: string }[] = [
  { verb: 'archive', summary: ['Archive {a}', 'Archive {a} so it is hidden from lists'], past: 'archived' },
  { verb: 'restore', summary: ['Restore an archived {one}', 'Restore {a}'], past: 'restored' },
  { verb: 'export', summary: ['Export {a}', 'Export {a} as CSV or JSON'], past: 'exported' },
  { verb: 'approve', summary: ['Approve {a}', 'Approve a pending {one}'], past: 'approved' },
  { verb: 'cancel', summary: ['Cancel {a}', 'Cancel a scheduled {one}'], past: 'cancelled' },
  { verb: 'assign', summary: ['Assign {a} to a user', 'Assign an owner to {a}'], past: 'assigned' },
  { verb: 'sync', summary: ['Synchronize {a} with its source', 'Trigger a sync for {a}'], past: 'synced' },
  { verb: 'validate', summary: ['Validate {a}', 'Check {a} for errors'], past: 'validated' },
  { verb: 'duplicate', summary: ['Duplicate {a}', 'Copy {a}'], past: 'duplicated' },
  { verb: 'lock', summary: ['Lock {a}', 'Lock {a} against changes'], past: 'locked' },
  { verb: 'unlock', summary: ['Unlock {a}'], past: 'unlocked' },
  { verb: 'transfer', summary: ['Transfer {a} to another owner', 'Move {a} to another organization'], past: 'transferred' },
  { verb: 'retry', summary: ['Retry a failed {one}', 'Re-run {a}'], past: 'retried' },
  { verb: 'preview', summary: ['Preview {a}', 'Render a preview of {a}'], past: 'previewed' },
  { verb: 'publish', summary: ['Publish {a}', 'Make {a} public'], past: 'published' },
  { verb: 'refund', summary: ['Refund {a}', 'Issue a refund for {a}'], past: 'refunded' },
];

const FIELD_POOL: [string, Record<string, unknown>][] = [
  ['amount', { type: 'integer', description: 'Amount in the smallest currency unit.', minimum: 0 }],
  ['currency', { type: 'string', description: 'Three-letter ISO currency code.', pattern: '^[A-Z]{3}$' }],
  ['due_date', { type: 'string', format: 'date' }],
  ['priority', { type: 'string', enum: ['low', 'normal', 'high', 'urgent'] }],
  ['region', { type: 'string', description: 'Region slug.' }],
  ['quantity', { type: 'integer', minimum: 1 }],
  ['email', { type: 'string', format: 'email' }],
  ['phone', { type: ['string', 'null'] }],
  ['address', { $ref: '#/components/schemas/Address' }],
  ['total', { $ref: '#/components/schemas/Money' }],
  ['parent_id', { type: ['string', 'null'], description: 'ID of the parent object, if any.' }],
  ['external_id', { type: 'string', maxLength: 255 }],
  ['tier', { type: 'string', enum: ['free', 'team', 'business', 'enterprise'] }],
  ['score', { type: 'number', minimum: 0, maximum: 100 }],
  ['tags', { type: 'array', items: { type: 'string' }, maxItems: 50 }],
  ['archived', { type: 'boolean' }],
  ['locked', { type: 'boolean' }],
  ['revision', { type: 'integer', description: 'Incremented on every change.' }],
  ['notes', { type: 'string', maxLength: 10000 }],
  ['starts_at', { type: 'string', format: 'date-time' }],
  ['ends_at', { type: ['string', 'null'], format: 'date-time' }],
  ['visibility', { type: 'string', enum: ['private', 'internal', 'public'] }],
  ['capacity', { type: 'integer' }],
  ['settings', { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } }],
];

const FILTERS: { name: string; schema: Record<string, unknown>; description: string }[] = [
  { name: 'status', schema: { type: 'string', enum: ['active', 'pending', 'archived', 'all'], default: 'active' }, description: 'Only return objects in this state.' },
  { name: 'owner', schema: { type: 'string' }, description: 'Filter by the handle of the owner.' },
  { name: 'label', schema: { type: 'string' }, description: 'A comma-separated list of label names.' },
  { name: 'created_after', schema: { type: 'string', format: 'date-time' }, description: 'Only show results created after this time (ISO 8601).' },
  { name: 'created_before', schema: { type: 'string', format: 'date-time' }, description: 'Only show results created before this time (ISO 8601).' },
  { name: 'q', schema: { type: 'string', maxLength: 256 }, description: 'Free-text search over names and descriptions.' },
  { name: 'include_archived', schema: { type: 'boolean', default: false }, description: 'Include archived objects.' },
  { name: 'currency', schema: { type: 'string' }, description: 'Filter by ISO currency code.' },
  { name: 'type', schema: { type: 'string', enum: ['standard', 'custom', 'system'] }, description: 'The type of object to return.' },
  { name: 'assignee', schema: { type: 'string' }, description: 'Handle of the assigned user, `none` for unassigned, `*` for any.' },
];

const PERMISSIONS = ['read', 'write', 'admin', 'billing', 'maintain', 'triage'];

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
const pascal = (s: string) => s.replace(/(^|[-_ ])([a-z])/g, (_, __, c: string) => c.toUpperCase());
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A generated OpenAPI 3.1 document of exactly `operations` operations plus its Engine policy. */
export function syntheticOpenApi(operations: number, seed = 20261122): { document: Record<string, unknown>; policy: Record<string, unknown> } {
  const r = prng(seed);
  const paths: Record<string, Record<string, unknown>> = {};
  const pagingOps: Record<string, string> = {};
  let count = 0;

  const description = (core: string, noun: Word, past: string, paged: boolean) => {
    const parts = [core];
    if (r.next() < 0.6) parts.push(`You must have the \`${r.pick(PERMISSIONS)}\` permission on the ${noun.one} to use this endpoint.`);
    if (r.next() < 0.35) parts.push(`OAuth app tokens and personal access tokens need the \`${noun.many}:${r.pick(['read', 'write'])}\` scope.`);
    if (paged) parts.push('Results are paginated; use `page` and `per_page` to walk through them. For more information, see "[Pagination](https://docs.acme.example/api/pagination)."');
    if (r.next() < 0.3) parts.push(`A \`${noun.one}.${past}\` webhook event is sent when the request succeeds. See "[Webhook events](https://docs.acme.example/webhooks/events#${noun.one})."`);
    if (r.next() < 0.25) parts.push('Creating content too quickly using this endpoint may result in secondary rate limiting. For more information, see "[Rate limits for the API](https://docs.acme.example/api/rate-limits#secondary-rate-limits)."');
    if (r.next() < 0.15) {
      parts.push(
        'This endpoint supports the following custom media types:\n\n- **`application/vnd.acme.raw+json`**: Returns the raw body.\n- **`application/vnd.acme.text+json`**: Returns a text-only representation.\n- **`application/vnd.acme.html+json`**: Returns rendered HTML.',
      );
    }
    return parts.join('\n\n');
  };
  const pathParam = (name: string, desc: string) => ({ name, in: 'path', required: true, description: desc, schema: { type: 'string' } });
  const listParams = () => [
    { name: 'per_page', in: 'query', description: 'The number of results per page (max 100).', schema: { type: 'integer', default: 30, maximum: 100 } },
    { name: 'page', in: 'query', description: 'The page number of the results to fetch.', schema: { type: 'integer', default: 1 } },
    { name: 'sort', in: 'query', description: 'The property to sort the results by.', schema: { type: 'string', enum: ['created', 'updated', 'name'], default: 'created' } },
    { name: 'direction', in: 'query', description: 'The order to sort by.', schema: { type: 'string', enum: ['asc', 'desc'] } },
    ...r.sample(FILTERS, r.int(0, 4)).map((f) => ({ name: f.name, in: 'query', description: f.description, schema: f.schema })),
  ];
  const errors = (extra: string[] = []) => ({
    '404': { description: 'Resource not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    ...(extra.includes('422') ? { '422': { description: 'Validation failed', content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationError' } } } } } : {}),
    ...(extra.includes('403') ? { '403': { description: 'Forbidden', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } } : {}),
  });
  const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

  /** Adds one operation; false when the document is full or the path already has this method. */
  const add = (path: string, method: string, op: Record<string, unknown>): boolean => {
    if (count >= operations) return false;
    const item = (paths[path] ??= {});
    if (item[method]) return false;
    item[method] = op;
    count++;
    return true;
  };

  // Every (scope, noun) pair, in a seeded order so a truncated last pass is spread over the vocabulary.
  const pairs = r.sample(
    SCOPES.flatMap((scope) => NOUNS.map((noun) => ({ scope, noun }))),
    SCOPES.length * NOUNS.length,
  );
  // The exact-lookup list relies on the unscoped and org-scoped invoice/customer/… operations existing: put those first.
  pairs.sort((a, b) => Number(b.scope.suffix === '' || b.scope.suffix === 'for-org') - Number(a.scope.suffix === '' || a.scope.suffix === 'for-org'));

  for (const { scope, noun } of pairs) {
    if (count >= operations) break;
    const N = pascal(noun.one);
    const suf = scope.suffix ? `-${scope.suffix}` : '';
    const coll = `${scope.prefix}/${noun.many}`;
    const idName = `${noun.one}_id`;
    if (scope.param?.name === idName) continue; // /projects/{project_id}/projects/{project_id}: one name for two values
    const itemPath = `${coll}/{${idName}}`;
    const scopeParams = scope.param ? [pathParam(scope.param.name, scope.param.description)] : [];
    const idParam = pathParam(idName, `The unique identifier of the ${noun.one}.`);
    const tags = [noun.many];
    const id = (action: string) => `${noun.many}/${action}${suf}`;
    const sub = (t: string[]) => r.pick(t).replaceAll('{one}', noun.one).replaceAll('{many}', noun.many).replaceAll('{a}', article(noun.one)) + scope.phrase;

    const listId = id('list');
    if (add(coll, 'get', {
      operationId: listId,
      tags,
      summary: sub(['List {many}', 'List all {many}', 'Get a list of {many}']),
      description: description(`Lists the ${noun.many} the authenticated user can access${scope.phrase}.`, noun, 'listed', true),
      parameters: [...scopeParams, ...listParams()],
      responses: { '200': { description: 'OK', ...json({ type: 'array', items: { $ref: `#/components/schemas/${N}` } }) }, ...errors() },
    })) {
      pagingOps[listId] = 'page';
    }
    add(coll, 'post', {
      operationId: id('create'),
      tags,
      summary: sub(['Create {a}', 'Create a new {one}', 'Add {a}']),
      description: description(`Creates ${article(noun.one)}${scope.phrase}. The ${noun.one} is returned with its generated \`id\`.`, noun, 'created', false),
      parameters: scopeParams,
      requestBody: { required: true, ...json({ $ref: `#/components/schemas/${N}Input` }) },
      responses: { '201': { description: 'Created', ...json({ $ref: `#/components/schemas/${N}` }) }, ...errors(['422', '403']) },
    });
    add(itemPath, 'get', {
      operationId: id('get'),
      tags,
      summary: sub(['Get {a}', 'Retrieve {a}', 'Get {one} details']),
      description: description(`Returns a single ${noun.one} by its ID.`, noun, 'viewed', false),
      parameters: [...scopeParams, idParam],
      responses: { '200': { description: 'OK', ...json({ $ref: `#/components/schemas/${N}` }) }, ...errors() },
    });
    add(itemPath, 'patch', {
      operationId: id('update'),
      tags,
      summary: sub(['Update {a}', 'Modify {a}', 'Update {one} attributes']),
      description: description(`Updates the given fields of ${article(noun.one)}; fields you leave out keep their value.`, noun, 'updated', false),
      parameters: [...scopeParams, idParam, ...(r.next() < 0.3 ? [{ name: 'If-Match', in: 'header', description: 'The ETag of the version you read.', schema: { type: 'string' } }] : [])],
      requestBody: { required: true, ...json({ $ref: `#/components/schemas/${N}Update` }) },
      responses: { '200': { description: 'OK', ...json({ $ref: `#/components/schemas/${N}` }) }, ...errors(['422']) },
    });
    add(itemPath, 'delete', {
      operationId: id('delete'),
      tags,
      summary: sub(['Delete {a}', 'Remove {a}', 'Permanently delete {a}']),
      description: description(`Deletes ${article(noun.one)}. This cannot be undone.`, noun, 'deleted', false),
      parameters: [...scopeParams, idParam],
      responses: { '204': { description: 'No Content' }, ...errors(['403']) },
    });
    if (r.next() < 0.5) {
      add(`${coll}/search`, 'get', {
        operationId: id('search'),
        tags,
        summary: sub(['Search {many}', 'Find {many} matching a query']),
        description: description(`Searches ${noun.many}${scope.phrase} by name, description and labels. Use \`q\` for the query text.`, noun, 'searched', false),
        parameters: [...scopeParams, { name: 'q', in: 'query', required: true, description: 'The search terms.', schema: { type: 'string' } }, ...listParams().filter((p) => p.name !== 'q')],
        responses: { '200': { description: 'OK', ...json({ type: 'object', properties: { total_count: { type: 'integer' }, items: { type: 'array', items: { $ref: `#/components/schemas/${N}` } } } }) } },
      });
    }
    for (const action of r.sample(EXTRA_ACTIONS, r.int(2, 6))) {
      add(`${itemPath}/${action.verb}`, 'post', {
        operationId: id(action.verb),
        tags,
        summary: sub(action.summary),
        description: description(`${cap(action.verb)}s the ${noun.one}. The ${noun.one} must not be locked.`, noun, action.past, false),
        parameters: [...scopeParams, idParam],
        requestBody: { required: false, ...json({ type: 'object', properties: { reason: { type: 'string', maxLength: 1000 }, notify: { type: 'boolean', default: true } } }) },
        responses: { '202': { description: 'Accepted', ...json({ $ref: `#/components/schemas/${N}` }) }, ...errors(['403']) },
      });
    }
    for (const s of r.sample(SUBS, r.int(3, 8))) {
      const S = pascal(s.one);
      const subColl = `${itemPath}/${s.many}`;
      const subItem = `${subColl}/{${s.one}_id}`;
      const subIdParam = pathParam(`${s.one}_id`, `The unique identifier of the ${s.one}.`);
      const subSum = (t: string[]) => r.pick(t).replaceAll('{sub}', s.one).replaceAll('{subs}', s.many).replaceAll('{a}', article(noun.one)).replaceAll('{one}', noun.one) + scope.phrase;
      const subListId = `${noun.many}/list-${s.many}${suf}`;
      const listed = add(subColl, 'get', {
        operationId: subListId,
        tags,
        summary: subSum(['List {subs} for {a}', 'List {one} {subs}']),
        description: description(`Lists the ${s.many} of ${article(noun.one)}, newest first.`, noun, `${s.one}_listed`, true),
        parameters: [...scopeParams, idParam, ...listParams()],
        responses: { '200': { description: 'OK', ...json({ type: 'array', items: { $ref: `#/components/schemas/${S}` } }) }, ...errors() },
      });
      if (listed) pagingOps[subListId] = 'page';
      add(subColl, 'post', {
        operationId: `${noun.many}/add-${s.one}${suf}`,
        tags,
        summary: subSum(['Add a {sub} to {a}', 'Create {a} {sub}']),
        description: description(`Adds a ${s.one} to ${article(noun.one)}.`, noun, `${s.one}_added`, false),
        parameters: [...scopeParams, idParam],
        requestBody: { required: true, ...json({ $ref: `#/components/schemas/${S}Input` }) },
        responses: { '201': { description: 'Created', ...json({ $ref: `#/components/schemas/${S}` }) }, ...errors(['422']) },
      });
      add(subItem, 'get', {
        operationId: `${noun.many}/get-${s.one}${suf}`,
        tags,
        summary: subSum(['Get {a} {sub}', 'Get a {sub} of {a}']),
        description: description(`Returns one ${s.one} of ${article(noun.one)}.`, noun, `${s.one}_viewed`, false),
        parameters: [...scopeParams, idParam, subIdParam],
        responses: { '200': { description: 'OK', ...json({ $ref: `#/components/schemas/${S}` }) }, ...errors() },
      });
      add(subItem, 'patch', {
        operationId: `${noun.many}/update-${s.one}${suf}`,
        tags,
        summary: subSum(['Update a {sub} on {a}', 'Edit {a} {sub}']),
        description: description(`Updates a ${s.one} of ${article(noun.one)}.`, noun, `${s.one}_updated`, false),
        parameters: [...scopeParams, idParam, subIdParam],
        requestBody: { required: true, ...json({ $ref: `#/components/schemas/${S}Input` }) },
        responses: { '200': { description: 'OK', ...json({ $ref: `#/components/schemas/${S}` }) }, ...errors(['422']) },
      });
      add(subItem, 'delete', {
        operationId: `${noun.many}/remove-${s.one}${suf}`,
        tags,
        summary: subSum(['Remove a {sub} from {a}', 'Delete {a} {sub}']),
        description: description(`Removes a ${s.one} from ${article(noun.one)}.`, noun, `${s.one}_removed`, false),
        parameters: [...scopeParams, idParam, subIdParam],
        responses: { '204': { description: 'No Content' }, ...errors() },
      });
    }
  }
  if (count < operations) throw new Error(`the synthetic vocabulary yields only ${count} operations (asked for ${operations})`);

  const schemas: Record<string, unknown> = {
    User: {
      type: 'object',
      required: ['id', 'login'],
      properties: { id: { type: 'integer' }, login: { type: 'string' }, name: { type: ['string', 'null'] }, email: { type: ['string', 'null'], format: 'email' }, avatar_url: { type: 'string', format: 'uri' }, type: { type: 'string', enum: ['user', 'bot', 'service'] } },
    },
    Label: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' }, color: { type: 'string', pattern: '^[0-9a-f]{6}$' }, description: { type: ['string', 'null'] } } },
    Money: { type: 'object', required: ['amount', 'currency'], properties: { amount: { type: 'integer' }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } } },
    Address: { type: 'object', properties: { line1: { type: 'string' }, line2: { type: ['string', 'null'] }, city: { type: 'string' }, postal_code: { type: 'string' }, country: { type: 'string', minLength: 2, maxLength: 2 } } },
    Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' }, documentation_url: { type: 'string' }, status: { type: 'string' } } },
    ValidationError: {
      type: 'object',
      required: ['message', 'errors'],
      properties: { message: { type: 'string' }, errors: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } } } } },
    },
  };
  for (const [i, noun] of NOUNS.entries()) {
    const N = pascal(noun.one);
    const fields = Object.fromEntries(r.sample(FIELD_POOL, r.int(3, 9)));
    const other = NOUNS[(i + r.int(1, NOUNS.length - 1)) % NOUNS.length]!;
    schemas[`${N}Summary`] = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' }, url: { type: 'string', format: 'uri' } } };
    schemas[N] = {
      type: 'object',
      description: `${article(noun.one)} as returned by the API.`,
      required: ['id', 'name', 'status', 'created_at'],
      properties: {
        id: { type: 'string', description: `Unique identifier of the ${noun.one}.` },
        name: { type: 'string', maxLength: 200 },
        description: { type: ['string', 'null'] },
        status: { type: 'string', enum: r.sample(['active', 'pending', 'archived', 'draft', 'failed', 'completed', 'cancelled'], r.int(3, 5)) },
        owner: { $ref: '#/components/schemas/User' },
        labels: { type: 'array', items: { $ref: '#/components/schemas/Label' } },
        related: { anyOf: [{ $ref: `#/components/schemas/${pascal(other.one)}Summary` }, { type: 'null' }] },
        metadata: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 50 },
        url: { type: 'string', format: 'uri' },
        created_at: { type: 'string', format: 'date-time' },
        updated_at: { type: 'string', format: 'date-time' },
        ...fields,
      },
    };
    const scalar = Object.fromEntries(Object.entries(fields).filter(([, s]) => !('$ref' in s)));
    schemas[`${N}Input`] = {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, description: { type: 'string' }, labels: { type: 'array', items: { type: 'string' } }, metadata: { type: 'object', additionalProperties: { type: 'string' } }, ...scalar },
    };
    schemas[`${N}Update`] = {
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, description: { type: ['string', 'null'] }, status: { type: 'string' }, metadata: { type: 'object', additionalProperties: { type: ['string', 'null'] } }, ...scalar },
    };
  }
  for (const s of SUBS) {
    const S = pascal(s.one);
    schemas[S] = {
      type: 'object',
      required: ['id', 'created_at'],
      properties: { id: { type: 'string' }, body: { type: 'string' }, value: { type: ['string', 'number', 'boolean', 'null'] }, author: { $ref: '#/components/schemas/User' }, created_at: { type: 'string', format: 'date-time' }, updated_at: { type: 'string', format: 'date-time' } },
    };
    schemas[`${S}Input`] = { type: 'object', additionalProperties: false, properties: { body: { type: 'string', maxLength: 65536 }, value: { type: ['string', 'number', 'boolean', 'null'] } } };
  }

  const document = {
    openapi: '3.1.0',
    info: { title: 'Acme Cloud Platform API', version: '2026-01-01' },
    servers: [{ url: 'https://api.acme.example' }],
    paths,
    components: { schemas },
  };
  const policy = {
    title: 'Acme Cloud Platform API',
    baseUrl: 'https://api.acme.example',
    auth: [{ name: 'api_key', type: 'api_key', in: 'header', header: 'Authorization', prefix: 'Bearer ' }],
    pagination: { policies: { page: { style: 'page', pageInput: 'page', items: '', engineMaxPages: 10, callerBound: true } }, operations: pagingOps },
  };
  return { document, policy };
}

export interface SyntheticCatalog {
  catalog: Catalog;
  index: ServiceIndex;
  store: SqliteStore;
  /** Generating the OpenAPI document. */
  generateMs: number;
  /** normalizeService (the import path's validation and normalisation). */
  normalizeMs: number;
  /** Catalog.load of the normalised index from disk (JSON.parse + the operation map). */
  loadMs: number;
  /** Size of the normalised index JSON on disk. */
  indexBytes: number;
}

/** Generates, normalises and loads a synthetic service of `operations` operations as its own catalogue. */
export async function loadSyntheticCatalog(operations: number): Promise<SyntheticCatalog> {
  const t0 = performance.now();
  const { document, policy } = syntheticOpenApi(operations);
  const t1 = performance.now();
  const normalized = normalizeService({ service: SYNTH_SERVICE, version: 'v1', document, policy: parsePolicy(policy, 'bench') });
  const t2 = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-catalog-'));
  try {
    mkdirSync(join(dir, 'catalog'));
    const text = JSON.stringify(normalized);
    writeFileSync(join(dir, 'catalog', `${SYNTH_SERVICE}@v1.json`), text);
    writeFileSync(
      join(dir, 'catalog', 'manifest.json'),
      JSON.stringify([{ service: SYNTH_SERVICE, version: 'v1', title: normalized.title, baseUrl: normalized.baseUrl, operations: normalized.operations.length, file: `catalog/${SYNTH_SERVICE}@v1.json` }]),
    );
    const store = new SqliteStore(':memory:');
    const t3 = performance.now();
    const catalog = await Catalog.load(store, join(dir, 'catalog'));
    const t4 = performance.now();
    const index = catalog.get(SYNTH_SERVICE, 'v1');
    if (!index || index.operations.length !== operations) throw new Error(`synthetic catalogue has ${index?.operations.length} operations, expected ${operations}`);
    return { catalog, index, store, generateMs: t1 - t0, normalizeMs: t2 - t1, loadMs: t4 - t3, indexBytes: Buffer.byteLength(text) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
