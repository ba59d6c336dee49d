// Every refusal of the Executor (shared by REST and gRPC) is the same envelope on both surfaces, down to
// details.field and the message, which name the REST body's fields (pagination.maxPages,
// selectors.endUserRef, input.contact_id): the envelope does not depend on the way in (issue 7's error
// parity, widened here to each refusal that names a field). Only a malformed ExecuteRequest itself is
// named as spec/engine.proto names it. A real Engine, a fake provider on 127.0.0.1, a real gRPC client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteRequest } from '../../generated/grpc/engine.ts';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';

const SECRET = 'canary-grpc-names-7c1f0a';
const GITHUB_SECRET = 'canary-grpc-names-github-93be';
/** A provider error naming REST's fields: the provider's text, never renamed. */
const PROVIDER_BODY = { error: 'pass selectors.endUserRef', field: 'pagination.maxPages', input: 'input/contact_id' };

let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };
let client: RawEngineClient;

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => {
    if (req.url.includes('con_refused')) return json(res, 400, PROVIDER_BODY);
    json(res, 200, { id: 'con_1' });
  });
  t = await startTestEngine({ SVC_GRPC_PORT: '0' });
  await pointService(t, 'demo-crm', provider.url, SECRET);
  // GitHub has an API key and no OAuth.
  await pointService(t, 'github', provider.url, GITHUB_SECRET);
  t.canaries.push(SECRET, GITHUB_SECRET);
  const operations = ['demo-crm=contacts/get', 'demo-crm=contacts/list', 'demo-crm=tasks/create', 'github=issues/get', 'unified=tasks.create'];
  const published = await t.api('POST', '/v1/sdks/publish', { name: 'names', services: ['demo-crm=v1', 'github=v1'], operations });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  t.canaries.push(published.body.token);
  sdk = { versionId: published.body.versionId, token: published.body.token };
  client = new RawEngineClient(t.engine.grpcUrl);
});

afterAll(async () => {
  client?.close();
  await t?.stop();
  await provider?.stop();
});

interface Call {
  operation: string;
  input?: unknown;
  pagination?: { maxPages?: number };
  selectors?: { endUserRef?: string; authType?: string; authName?: string; resourceId?: string };
}

/** The call over both surfaces: gRPC's envelope and REST's. */
async function both(call: Call) {
  const req: Partial<ExecuteRequest> = { versionId: sdk.versionId, operation: call.operation, inputJson: call.input === undefined ? '' : JSON.stringify(call.input) };
  if (call.pagination) req.pagination = call.pagination;
  if (call.selectors) req.selectors = call.selectors;
  const viaGrpc = await client.execute(sdk.token, req);
  expect(viaGrpc.error).toBeUndefined();
  const viaRest = await t.execute(sdk.versionId, sdk.token, call);
  return { grpc: viaGrpc.envelope!, rest: viaRest.body };
}

const get = 'demo-crm.contacts/get';
const list = 'demo-crm.contacts/list';

// [what, the call, details.field and message on both surfaces]
const CASES: [string, Call, [string, string]][] = [
  [
    'a page bound at the Engine limit',
    { operation: list, pagination: { maxPages: 20 } },
    ['pagination.maxPages', `pagination.maxPages must be strictly lower than the Engine limit of 20 for '${list}'`],
  ],
  [
    'a page bound of 0',
    { operation: list, pagination: { maxPages: 0 } },
    ['pagination.maxPages', 'pagination.maxPages is required and must be a positive integer'],
  ],
  [
    'pagination without max_pages',
    { operation: list, pagination: {} },
    ['pagination.maxPages', 'pagination.maxPages is required and must be a positive integer'],
  ],
  [
    'a page bound on an operation without pagination',
    { operation: get, input: { contact_id: 'con_1' }, pagination: { maxPages: 1 } },
    ['pagination.maxPages', `operation '${get}' does not support pagination; call it without a pagination bound`],
  ],
  [
    'an auth type that is none',
    { operation: get, input: { contact_id: 'con_1' }, selectors: { authType: 'password' } },
    ['selectors.authType', "selectors.authType: must be 'api_key' or 'oauth2'"],
  ],
  [
    'an empty end user',
    { operation: get, input: { contact_id: 'con_1' }, selectors: { endUserRef: '' } },
    ['selectors.endUserRef', 'selectors.endUserRef: must be a string of 1 to 200 characters'],
  ],
  [
    'a resource ID with a control character',
    { operation: get, input: { contact_id: 'con_1' }, selectors: { resourceId: 'r\u0007' } },
    ['selectors.resourceId', 'selectors.resourceId: must not hold control characters or unpaired UTF-16 surrogates'],
  ],
  [
    'OAuth without an end user',
    { operation: get, input: { contact_id: 'con_1' }, selectors: { authType: 'oauth2' } },
    ['selectors.endUserRef', "selectors.endUserRef is required to call 'demo-crm' with OAuth"],
  ],
  [
    'an end user with the API key',
    { operation: get, input: { contact_id: 'con_1' }, selectors: { authType: 'api_key', endUserRef: 'u1' } },
    ['selectors.endUserRef', "selectors.endUserRef names an end user's OAuth connection; it does not apply with authType 'api_key' (omit it to call with the workspace's key, or omit authType)"],
  ],
  [
    'OAuth on a service without it',
    { operation: 'github.issues/get', input: { owner: 'o', repo: 'r', issue_number: 1 }, selectors: { authType: 'oauth2' } },
    ['selectors.authType', "service 'github' has no OAuth 2.0 auth: selectors.authType does not apply (its calls use the workspace's key)"],
  ],
  [
    'an auth name on a service without OAuth',
    { operation: 'github.issues/get', input: { owner: 'o', repo: 'r', issue_number: 1 }, selectors: { authName: 'oauth' } },
    ['selectors.authName', "service 'github' has no OAuth 2.0 auth: selectors.authName does not apply (its calls use the workspace's key)"],
  ],
  [
    'an input parameter of the wrong type',
    { operation: get, input: { contact_id: 7 } },
    ['input.contact_id', 'input/contact_id must be string'],
  ],
  [
    'a missing input parameter',
    { operation: get, input: {} },
    ['input.contact_id', "input is missing required property 'contact_id'"],
  ],
  [
    'a request body field of the wrong type',
    { operation: 'demo-crm.tasks/create', input: { body: { title: 7 } } },
    ['input.body.title', 'input/body/title must be string'],
  ],
];

describe('an Executor refusal over gRPC is the envelope REST gives', () => {
  it.each(CASES)('%s', async (_what, call, [field, message]) => {
    const { grpc, rest } = await both(call);
    expect(rest.error).toMatchObject({ message, details: { field } });
    expect(grpc).toEqual(rest);
  });

  it('names a parameter the provider request cannot carry (request building, after validation) as REST does', async () => {
    const call = await both({ operation: 'demo-crm.contacts/list', input: { starting_after: 'lone\ud800' } });
    expect(call.rest.error).toMatchObject({ details: { field: 'input.starting_after', errors: [{ instancePath: '/starting_after' }] } });
    expect(call.rest.error.message).toMatch(/^input\/starting_after /);
    expect(call.grpc).toEqual(call.rest);
  });

  it("leaves a provider's answer as it came, whatever it names", async () => {
    const { grpc, rest } = await both({ operation: get, input: { contact_id: 'con_refused' } });
    expect(rest).toMatchObject({ ok: false, status: 400, error: { code: 'PROVIDER_ERROR', details: { providerBody: PROVIDER_BODY } } });
    expect(grpc).toEqual(rest);
  });

  it("leaves a Unified call's names as they are: they name keys inside input_json", async () => {
    const call = { operation: 'unified.tasks.create', input: { input: { title: 't' }, targets: ['crm'], selectors: { crm: { authType: 'password' } } } };
    const viaGrpc = await client.execute(sdk.token, { versionId: sdk.versionId, operation: call.operation, inputJson: JSON.stringify(call.input) });
    const viaRest = await t.execute(sdk.versionId, sdk.token, { operation: call.operation, ...call.input });
    // input_json holds { selectors: { crm: { authType } } } as the caller wrote it: that is the name to fix.
    expect(viaRest.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'selectors.crm.authType' } });
    expect(viaGrpc.envelope).toEqual(viaRest.body);
  });

  it('names a malformed ExecuteRequest as spec/engine.proto does: version_id, input_json', async () => {
    const badVersion = await client.execute(sdk.token, { versionId: 'ver_bad', operation: get });
    expect(badVersion.envelope!.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'version_id' } });
    const notObject = await client.execute(sdk.token, { versionId: sdk.versionId, operation: get, inputJson: '[1]' });
    expect(notObject.envelope!.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', message: 'input_json must be a JSON object, not an array', details: { field: 'input_json' } });
  });
});
