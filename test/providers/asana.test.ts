// Asana as a first-class provider (spec/services/asana/v1/engine.yaml) against a fake Asana on
// loopback (test/fixtures/providers/asana.ts): a project's tasks paged to the end by
// next_page.offset, a caller bound and the Engine's limit, a task created, Asana's
// { errors: [{ message }] } in the envelope, and an end user's OAuth connection. The personal
// access token is a canary: no answer or log line may carry it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startAsana, type FakeAsana } from '../fixtures/providers/asana.ts';

const TOKEN = '2/1200000000000/1209999999999:CANARYa5a5a5';
const CLIENT = { id: '1201000000000001', secret: 'asana-client-secret-CANARY' };

let t: TestEngine;
let asana: FakeAsana;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  asana = await startAsana({ token: TOKEN, tasks: 12, client: CLIENT });
  t = await startTestEngine();
  t.canaries.push(TOKEN, CLIENT.secret);
  expect((await t.api('PUT', '/v1/workspace/services/asana', { version: 'v1', baseUrl: asana.apiUrl })).status).toBe(200);
  expect((await t.api('PUT', '/v1/buckets/default/secrets/asana', { value: TOKEN })).status).toBe(204);
  expect((await t.api('PUT', '/v1/buckets/default/oauth-clients/asana', { clientId: CLIENT.id, clientSecret: CLIENT.secret })).status).toBe(204);
  const published = await t.api('POST', '/v1/sdks/publish', { name: 'work', services: ['asana=v1'], operations: ['asana=getTasksForProject', 'asana=createTask'] });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  sdk = published.body;
  t.canaries.push(sdk.token);
});
afterAll(async () => {
  await t?.stop();
  await asana?.stop();
});

const call = (operation: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => t.execute(sdk.versionId, sdk.token, { operation: `asana.${operation}`, input, ...extra });
const offsets = (from: number) => asana.provider.requests.slice(from).map((r) => new URL(r.url, 'http://x').searchParams.get('offset'));

describe('asana: paging', () => {
  it("pages a project's tasks to the end, each page at the offset the last one gave, with the token as Bearer", async () => {
    const before = asana.provider.requests.length;
    const res = await call('getTasksForProject', { project_gid: '1201', limit: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 200, error: null, data: { next_page: null } });
    expect(res.body.data.data.map((task: any) => task.name)).toEqual(Array.from({ length: 12 }, (_, i) => `Task ${i + 1}`));
    const sentOffsets = offsets(before);
    expect(sentOffsets).toHaveLength(3);
    expect(sentOffsets[0]).toBeNull();
    expect(sentOffsets.slice(1).every((o) => typeof o === 'string' && o.length > 0)).toBe(true);
    expect(asana.provider.requests.slice(before).every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('stops at a caller bound with the offset that reads on, and at the Engine limit of 10 pages', async () => {
    const bounded = await call('getTasksForProject', { project_gid: '1201', limit: 5 }, { pagination: { maxPages: 2 } });
    expect(bounded.body.data.data).toHaveLength(10);
    const offset = bounded.body.continuation.input.offset;
    expect(bounded.body.continuation).toEqual({ more: true, input: { offset: expect.any(String) } });
    const rest = await call('getTasksForProject', { project_gid: '1201', limit: 5, offset });
    expect(rest.body.data.data.map((task: any) => task.name)).toEqual(['Task 11', 'Task 12']);
    const before = asana.provider.requests.length;
    const limited = await call('getTasksForProject', { project_gid: '1201', limit: 1 });
    expect(limited.body.error).toMatchObject({ code: 'ENGINE_PAGINATION_LIMIT', details: { pages: 10, engine_max_pages: 10 } });
    expect(asana.provider.requests.length - before).toBe(10);
  });
});

describe('asana: writes and errors', () => {
  it('creates a task in a project', async () => {
    const res = await call('createTask', { body: { data: { name: 'Call the customer', notes: 'About the renewal', projects: ['1201'] } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 201, data: { data: { resource_type: 'task', name: 'Call the customer', notes: 'About the renewal', projects: [{ gid: '1201' }] } } });
    const request = asana.provider.requests.at(-1)!;
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(request.body)).toEqual({ data: { name: 'Call the customer', notes: 'About the renewal', projects: ['1201'] } });
  });

  it("answers Asana's errors array in the envelope", async () => {
    const res = await call('getTasksForProject', { project_gid: '999' });
    expect(res.body).toMatchObject({ ok: false, status: 404, error: { code: 'PROVIDER_ERROR', details: { providerBody: { errors: [{ message: 'project: Not a recognized ID: 999' }] } } } });
    const bad = await call('getTasksForProject', { project_gid: '1201', limit: 5, offset: 'not-a-token' });
    expect(bad.body).toMatchObject({ ok: false, status: 400, error: { details: { providerBody: { errors: [{ message: 'offset: Your pagination token is invalid.' }] } } } });
  });
});

describe('asana: an end user through OAuth', () => {
  it('connects at /-/oauth_authorize with the default scope and calls with that user’s token', async () => {
    const started = await t.api('POST', '/v1/connections', { service: 'asana', endUserRef: 'sam' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const authorize = new URL(started.body.authorizeUrl);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${asana.provider.url}/-/oauth_authorize`);
    expect(authorize.searchParams.get('scope')).toBe('default');
    const redirect = await fetch(authorize, { redirect: 'manual' });
    expect((await fetch(redirect.headers.get('location')!)).status).toBe(200);
    const res = await call('createTask', { body: { data: { name: 'As Sam', projects: ['1201'] } } }, { selectors: { endUserRef: 'sam' } });
    expect(res.body).toMatchObject({ ok: true, status: 201 });
    expect(asana.provider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${asana.issued.at(-1)}`);
  });
});
