// demo-crm: the bundled provider, a real HTTP service implementing
// spec/services/demo-crm/v1/openapi.yaml (contacts, deals, files) with API-key auth and
// cursor pagination. `npm start` runs it on loopback so the workflow needs no network.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import getRawBody from 'raw-body';
import { mountOAuth, type OAuthOptions, type OAuthServer } from './oauth.ts';

export interface Contact {
  id: string;
  name: string;
  email: string;
  labels: Record<string, string>;
  created_at: string;
}
export interface Deal {
  id: string;
  contact_id: string;
  title: string;
  amount?: number;
  labels: Record<string, string>;
  created_at: string;
}
export interface CrmFile {
  name: string;
  size: number;
  content: string;
  labels?: Record<string, string>;
}

export interface DemoProvider {
  url: string;
  apiKey: string;
  contacts: Contact[];
  deals: Deal[];
  files: Map<string, CrmFile>;
  tasks: Record<string, unknown>[];
  /** Every request line received, for tests that assert exact encoding. */
  requests: { method: string; url: string }[];
  oauth: OAuthServer;
  stop(): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;
const isLabels = (v: unknown): v is Record<string, string> =>
  v === undefined || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string'));

function page<T extends { id: string }>(rows: T[], query: Record<string, unknown>) {
  const limit = Math.min(Math.max(Number(query.limit ?? 10) || 10, 1), 100);
  const after = typeof query.starting_after === 'string' ? query.starting_after : undefined;
  const start = after ? rows.findIndex((r) => r.id === after) + 1 : 0;
  const data = rows.slice(start, start + limit);
  return { data, has_more: start + limit < rows.length };
}

export async function startDemoProvider(
  options: { host?: string; port?: number; apiKey?: string; seedContacts?: number; oauth?: OAuthOptions } = {},
): Promise<DemoProvider> {
  const apiKey = options.apiKey ?? `demo_${randomBytes(16).toString('hex')}`;
  const contacts: Contact[] = [];
  const deals: Deal[] = [];
  const files = new Map<string, CrmFile>();
  const tasks: Record<string, unknown>[] = [];
  const requests: DemoProvider['requests'] = [];
  const now = () => new Date().toISOString();
  for (let i = 1; i <= (options.seedContacts ?? 25); i++) {
    contacts.push({ id: `con_${String(i).padStart(4, '0')}`, name: `Contact ${i}`, email: `contact${i}@example.test`, labels: { tier: i % 3 ? 'standard' : 'gold' }, created_at: now() });
  }
  files.set('reports/2026/q1.txt', { name: 'reports/2026/q1.txt', size: 11, content: 'Q1: on plan' });

  const app = new Koa();
  const router = new Router();
  const fail = (ctx: Koa.Context, status: number, type: string, message: string) => {
    ctx.status = status;
    ctx.body = { error: { type, message } };
  };

  // The OAuth endpoints are public; everything else needs the API key or an OAuth access token.
  const oauthRouter = new Router();
  const oauth = mountOAuth(oauthRouter, options.oauth ?? { clients: {} });
  app.use(oauthRouter.routes());

  app.use(async (ctx, next) => {
    requests.push({ method: ctx.method, url: ctx.originalUrl });
    const bearer = ctx.get('authorization').replace(/^Bearer /, '');
    const account = bearer === apiKey ? 'api-key' : oauth.accountFor(bearer);
    if (!account) return fail(ctx, 401, 'unauthorized', 'missing, invalid or expired credential');
    ctx.state.account = account;
    ctx.state.via = bearer === apiKey ? 'api_key' : 'oauth';
    if (ctx.method === 'POST' || ctx.method === 'PUT') {
      try {
        ctx.state.body = JSON.parse(await getRawBody(ctx.req, { limit: '2mb', encoding: 'utf8' }));
      } catch {
        return fail(ctx, 400, 'invalid_request', 'body must be JSON');
      }
    }
    await next();
  });

  router.get('/v1/account', (ctx) => {
    ctx.body = { account: ctx.state.account, via: ctx.state.via };
  });
  router.get('/v1/contacts', (ctx) => {
    const email = ctx.query.email;
    ctx.body = page(typeof email === 'string' ? contacts.filter((c) => c.email === email) : contacts, ctx.query);
  });
  router.post('/v1/contacts', (ctx) => {
    const b = ctx.state.body;
    if (typeof b?.name !== 'string' || typeof b?.email !== 'string' || !isLabels(b.labels)) return fail(ctx, 400, 'invalid_request', 'name and email are required');
    const contact: Contact = { id: newId('con'), name: b.name, email: b.email, labels: b.labels ?? {}, created_at: now() };
    contacts.push(contact);
    ctx.status = 201;
    ctx.body = contact;
  });
  router.get('/v1/contacts/:id', (ctx) => {
    const contact = contacts.find((c) => c.id === ctx.params.id);
    if (!contact) return fail(ctx, 404, 'not_found', `no contact ${ctx.params.id}`);
    ctx.body = contact;
  });
  router.get('/v1/deals', (ctx) => {
    const contactId = ctx.query.contact_id;
    ctx.body = page(typeof contactId === 'string' ? deals.filter((d) => d.contact_id === contactId) : deals, ctx.query);
  });
  router.post('/v1/deals', (ctx) => {
    const b = ctx.state.body;
    if (typeof b?.contact_id !== 'string' || typeof b?.title !== 'string' || !isLabels(b.labels)) return fail(ctx, 400, 'invalid_request', 'contact_id and title are required');
    if (!contacts.some((c) => c.id === b.contact_id)) return fail(ctx, 404, 'not_found', `no contact ${b.contact_id}`);
    const deal: Deal = { id: newId('deal'), contact_id: b.contact_id, title: b.title, ...(typeof b.amount === 'number' ? { amount: b.amount } : {}), labels: b.labels ?? {}, created_at: now() };
    deals.push(deal);
    ctx.status = 201;
    ctx.body = deal;
  });
  router.post('/v1/tasks', (ctx) => {
    const b = ctx.state.body;
    if (typeof b?.title !== 'string' || !b.title) return fail(ctx, 400, 'invalid_request', 'title is required');
    const task = {
      id: newId('task'),
      title: b.title,
      ...(typeof b.notes === 'string' ? { notes: b.notes } : {}),
      ...(typeof b.contact_id === 'string' ? { contact_id: b.contact_id } : {}),
      status: 'open',
      created_by: ctx.state.account,
      created_at: now(),
    };
    tasks.push(task);
    ctx.status = 201;
    ctx.body = task;
  });
  // The resource name may contain slashes: match the rest of the path and decode each segment.
  const fileName = (ctx: Koa.Context) => ctx.path.slice('/v1/files/'.length).split('/').map(decodeURIComponent).join('/');
  router.get(/^\/v1\/files\/.+/, (ctx) => {
    const file = files.get(fileName(ctx));
    if (!file) return fail(ctx, 404, 'not_found', `no file ${fileName(ctx)}`);
    ctx.body = file;
  });
  router.put(/^\/v1\/files\/.+/, (ctx) => {
    const b = ctx.state.body;
    if (typeof b?.content !== 'string' || !isLabels(b.labels)) return fail(ctx, 400, 'invalid_request', 'content is required');
    const file: CrmFile = { name: fileName(ctx), size: Buffer.byteLength(b.content), content: b.content, ...(b.labels ? { labels: b.labels } : {}) };
    files.set(file.name, file);
    ctx.body = file;
  });

  app.use(router.routes());
  app.use((ctx) => fail(ctx, 404, 'not_found', `no route ${ctx.method} ${ctx.path}`));

  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    apiKey,
    contacts,
    deals,
    files,
    tasks,
    requests,
    oauth,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
