// Stripe, HubSpot CRM and Google Calendar as the catalogue shows them (generated/catalog from
// spec/services): `svc-cli workspace services list` names them with their operation counts, and
// their operations carry the reviewed auth and pagination of their engine.yaml.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';
import { Catalog } from '../../src/catalog/index.ts';

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
  expect(shown('stripe')).toMatchObject({ title: 'Stripe API', versions: [{ operations: 451, baseUrl: 'https://api.stripe.com' }] });
  expect(shown('hubspot-crm')).toMatchObject({ title: 'HubSpot CRM', versions: [{ operations: 15, baseUrl: 'https://api.hubapi.com' }] });
  expect(shown('google-calendar')).toMatchObject({ title: 'Google Calendar API', versions: [{ operations: 37, baseUrl: 'https://www.googleapis.com/calendar/v3' }] });
  const found = await user.cli(['workspace', 'services', 'list', '--q', 'calendar']);
  expect(found.code, found.stderr).toBe(0);
  expect(found.stdout).toContain('google-calendar');
  expect(found.stdout).not.toContain('stripe');
});

it('carries the reviewed auth, and pagination on every list operation and on no other', async () => {
  const catalog = await Catalog.load(t.engine.store);
  const stripe = catalog.get('stripe', 'v1')!;
  const google = catalog.get('google-calendar', 'v1')!;
  const hubspot = catalog.get('hubspot-crm', 'v1')!;
  expect(stripe.auth).toEqual([{ name: 'secret_key', type: 'api_key', in: 'header', header: 'Authorization', prefix: 'Bearer ' }]);
  expect(hubspot.auth.map((a) => a.type)).toEqual(['api_key', 'oauth2']);
  expect(google.auth).toEqual([expect.objectContaining({ type: 'oauth2', tokenUrl: 'https://oauth2.googleapis.com/token', scopes: ['https://www.googleapis.com/auth/calendar'] })]);
  // Stripe: a GET whose answer is a list object takes starting_after (or page, for a search) and is paged by it.
  const lists = stripe.operations.filter((op) => op.method === 'GET' && op.parameters.some((p) => p.name === 'starting_after' || (p.name === 'page' && op.path.endsWith('/search'))));
  expect(lists).toHaveLength(106);
  for (const op of lists) expect(op.pagination, op.id).toMatchObject({ style: 'cursor', items: '/data', stop: '/has_more' });
  expect(stripe.operations.filter((op) => op.pagination)).toHaveLength(106);
  // Google and HubSpot: each list operation, and only those.
  expect(google.operations.filter((op) => op.pagination).map((op) => op.providerOperationId).sort()).toEqual(['calendar.acl.list', 'calendar.calendarList.list', 'calendar.events.instances', 'calendar.events.list', 'calendar.settings.list']);
  expect(google.operations.find((op) => op.providerOperationId === 'calendar.events.list')!.group).toEqual(['events', 'list']);
  expect(hubspot.operations.filter((op) => op.pagination).map((op) => op.providerOperationId).sort()).toEqual(['companies/list', 'contacts/list', 'deals/list']);
});
