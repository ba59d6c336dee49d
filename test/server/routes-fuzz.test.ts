// Property-based fuzz of every route in the generated route table. Requests are built from each
// route's parameters and request body in spec/engine.openapi.yaml with one thing wrong at a time
// (a body field, a parameter, the query, the Content-Type, the body text, the credential). Every
// answer must be documented: no 500, crash or hang; the envelope (or the route's documented
// answer); a 400 naming the field at fault; success bodies valid against the generated validators;
// no secret in an answer or a log line. A route added to the spec is fuzzed without edits here.
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type OperationId, type RouteSpec } from '../../generated/engine-api/routes.ts';
import * as responseValidators from '../../generated/engine-api/response-validators.js';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { DELETE, EXTRA_KEY, isObject, jsonText, mutate, nest, RawNumber, type Json, type Segment } from '../fixtures/json-mutation.ts';
import { initializeMessage } from '../fixtures/mcp.ts';

/** Fixed, so a run is reproducible; FUZZ_SEED explores others (and replays a reported one). */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_611);
const REQUEST_TIMEOUT_MS = 10_000;
/** Runs per route: more where there is a body to mutate. Keeps the file well under a minute (FUZZ_RUNS scales them). */
const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const RUNS = { plain: Math.round(150 * SCALE), body: Math.round(400 * SCALE) };

type Schema = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// The spec, with `#/...` references replaced by what they name (it has no cycles).

const spec = parseYaml(readFileSync(resolve(import.meta.dirname, '../../spec/engine.openapi.yaml'), 'utf8')) as Schema;

function deref(node: unknown): any {
  if (Array.isArray(node)) return node.map(deref);
  if (node && typeof node === 'object') {
    const ref = (node as Schema).$ref;
    if (typeof ref === 'string') return deref(ref.slice(2).split('/').reduce((n: any, k) => n[k], spec));
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v)]));
  }
  return node;
}

interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

interface Operation {
  route: RouteSpec;
  params: Param[];
  body: Schema | undefined;
  /** Status (or `default`) → media type → schema, as documented. */
  responses: Record<string, Record<string, Schema | undefined>>;
}

function operationOf(route: RouteSpec): Operation {
  const item = spec.paths[route.path];
  const op = item[route.method.toLowerCase()];
  const params = deref([...(item.parameters ?? []), ...(op.parameters ?? [])]) as Param[];
  const mediaType = route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  const responses: Operation['responses'] = {};
  for (const [status, response] of Object.entries<Schema>(deref(op.responses))) {
    responses[status] = Object.fromEntries(Object.entries<Schema>(response.content ?? {}).map(([type, c]) => [type, c.schema]));
  }
  return { route, params, body: deref(op.requestBody?.content?.[mediaType]?.schema), responses };
}

/** Documented error bodies other than the envelope (RFC 8628 errors), compiled on demand. */
const documentedAjv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(documentedAjv);
const documentedValidators = new Map<Schema, ValidateFunction>();
const documentedValidator = (schema: Schema) => {
  let v = documentedValidators.get(schema);
  if (!v) documentedValidators.set(schema, (v = documentedAjv.compile(schema)));
  return v;
};
const ENVELOPE_SCHEMA = deref(spec.components.schemas.Envelope) as Schema;

// ---------------------------------------------------------------------------------------------
// Valid values, from the schema (fixture values where a name has to refer to something real).

/** Any value valid against `schema` (strings capped at 300 characters, arrays at 4 items): what a handler must take or refuse, naming nothing. */
function arbitraryOf(schema: Schema | undefined): fc.Arbitrary<Json> {
  if (!schema || Object.keys(schema).length === 0) return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties ? 'object' : 'string')];
  const one = (type: string): fc.Arbitrary<Json> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9 });
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
      case 'array':
        return fc.array(arbitraryOf(schema.items), { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 4)) });
      case 'object': {
        const props = Object.fromEntries(Object.entries<Schema>(schema.properties ?? {}).map(([k, v]) => [k, arbitraryOf(v)]));
        return fc.record(props, { requiredKeys: schema.required ?? [] }) as fc.Arbitrary<Json>;
      }
    }
    if (schema.format === 'date-time') return fc.date({ min: new Date('2030-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    if (schema.format === 'uri') return fc.webUrl({ withQueryParameters: true });
    const maxLength = Math.min(schema.maxLength ?? 300, 300);
    if (schema.pattern) {
      try {
        return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter((v) => v.length <= maxLength && v.length >= (schema.minLength ?? 0));
      } catch {
        /* not a pattern fast-check generates from: any string */
      }
    }
    return fc.string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength });
  };
  return fc.oneof(...types.map(one));
}

/** One value valid against `schema`, the same on every run. */
const synthesize = (schema: Schema | undefined): Json => fc.sample(arbitraryOf(schema), { seed: SEED, numRuns: 1 })[0]!;

// ---------------------------------------------------------------------------------------------
// The Engine, its fixtures and canaries.

const SECRET = 'fuzz-canary-provider-key-7d1f0c';
const CLIENT_SECRET = 'fuzz-canary-oauth-client-secret-41b9';
const SDK_NAME = 'fuzzapp';
const MCP_NAME = 'fuzzmcp';

let t: TestEngine;
let crm: DemoProvider;
const fx = {
  sdk: { versionId: '', token: '', version: '' },
  mcp: { versionId: '', token: '' },
  deviceCode: '',
  userCode: '',
};

/** Re-creates what a previous route's fuzz may have removed or repointed (idempotent). */
async function restoreFixtures(): Promise<void> {
  const ok = async (what: string, res: Promise<{ status: number; body: any }>) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`fixture ${what}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  await ok('enable', t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url }));
  await ok('secret', t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: SECRET }));
  await ok('oauth client', t.api('PUT', '/v1/buckets/default/oauth-clients/demo-crm', { clientId: 'svc-test', clientSecret: CLIENT_SECRET }));
  await ok('sdk', t.api('POST', '/v1/sdks/publish', sdkDefinition()));
  await ok('mcp', t.api('POST', '/v1/mcp/publish', mcpDefinition()));
}

const sdkDefinition = () => ({ name: SDK_NAME, services: ['demo-crm=v1'], operations: ['demo-crm=account/get', 'demo-crm=contacts/list'] });
const mcpDefinition = () => ({ name: MCP_NAME, services: ['demo-crm=v1'], operations: ['demo-crm=account/get'] });

const IMPORT_DOCUMENT = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Fuzz import', version: '1' },
  paths: { '/things': { get: { operationId: 'listThings', responses: { '200': { description: 'ok' } } } } },
});

/**
 * A request body that the route accepts, or refuses only for the state it finds (a device code
 * still pending, a wrong password): never as invalid input. Routes not listed get one from their schema.
 */
const BASE_BODIES: Partial<Record<OperationId, () => Json>> = {
  applyWorkspace: () => ({ services: [{ name: 'demo-crm', version: 'v1', baseUrl: crm.url }] }),
  createConnection: () => ({ service: 'demo-crm', endUserRef: 'fuzz-user' }),
  createExecution: () => ({ operation: 'demo-crm.account/get', input: {}, selectors: { authType: 'api_key' } }),
  createMcpToken: () => ({ allow: ['demo-crm.*'], expiresAt: '2099-01-01T00:00:00Z', binding: { endUserRef: 'fuzz-user' } }),
  createSdkToken: () => ({ expiresAt: '2099-01-01T00:00:00Z' }),
  enableWorkspaceService: () => ({ version: 'v1', baseUrl: crm.url }),
  exchangeDeviceCode: () => ({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: fx.deviceCode, client_id: 'svc-cli' }),
  importWorkspaceService: () => ({ name: 'fuzz-import', version: 'v1', document: IMPORT_DOCUMENT, baseUrl: 'http://127.0.0.1:9', auth: { type: 'api_key', in: 'header', name: 'X-Key', prefix: 'Key ' } }),
  setSecret: () => ({ value: SECRET }),
  setOAuthClient: () => ({ clientId: 'svc-test', clientSecret: CLIENT_SECRET }),
  validateSdkDefinition: sdkDefinition,
  planSdk: sdkDefinition,
  publishSdk: sdkDefinition,
  planMcp: mcpDefinition,
  publishMcp: mcpDefinition,
  startDeviceAuthorization: () => ({ client_id: 'svc-cli' }),
  submitSignin: () => ({ user_code: fx.userCode, username: 'fuzz-nobody', password: 'fuzz-canary-password-2c8e', decision: 'deny' }),
  mcpPost: () => initializeMessage() as Json,
  mcpTransitionalPost: () => initializeMessage() as Json,
};

/** A parameter value naming a fixture (where the route's name alone says which), else one from its schema. */
async function validParam(route: RouteSpec, p: Param): Promise<string> {
  const mcpRoute = route.path.startsWith('/mcp/') || route.path.startsWith('/v1/mcp/');
  switch (p.name) {
    case 'service':
      return 'demo-crm';
    case 'bucket':
      return 'default';
    case 'version_id':
      return mcpRoute ? fx.mcp.versionId : fx.sdk.versionId;
    case 'name':
      return mcpRoute ? MCP_NAME : SDK_NAME;
    case 'version':
      return fx.sdk.version;
    case 'kind':
      return route.operationId === 'downloadSdkPackage' ? 'readme' : String(synthesize(p.schema));
    case 'token_id': {
      // A token of its own each time: revoking it must not take a fixture's along.
      const spare = await t.engine.deps.tokens.issue('sdk', SDK_NAME);
      t.canaries.push(spare.token);
      return spare.row.id;
    }
    case 'user_code':
      return fx.userCode;
  }
  return String(synthesize(p.schema));
}

// ---------------------------------------------------------------------------------------------
// Cases: one valid request with one thing made wrong.

/** Replacement values for one body field: every JSON type, and the edges of each. */
const FIELD_VALUES: Record<string, unknown> = {
  number: 7,
  true: true,
  null: null,
  emptyString: '',
  emptyArray: [],
  emptyObject: {},
  string: 'fuzz',
  hugeString: 'Zq'.repeat(50_000),
  nul: 'nul\u0000char',
  loneSurrogate: 'lone\ud800',
  control: 'bell\u0007',
  unicode: 'ünïcødé 😀 \u202e',
  deep20: nest(20),
  deep200: nest(200),
  negative: -1,
  fraction: 1.5,
  huge: new RawNumber('1e400'),
  unsafeInteger: new RawNumber('9007199254740993'),
  manyItems: Array.from({ length: 6000 }, () => 'x'),
  missing: DELETE,
  unknownKey: EXTRA_KEY,
};

type Auth = 'valid' | 'none' | 'garbage' | 'wrongKind' | 'revoked' | 'notBearer';

interface Case {
  /** What was made wrong, for the counterexample. */
  what: string;
  auth: Auth;
  /** Path and query parameters, as they go in the URL (already percent-encoded). */
  path: Record<string, string>;
  query: string;
  /** null: no Content-Type; undefined: the route's own. */
  contentType?: string | null;
  contentEncoding?: string;
  body?: string | Buffer;
  /** The body field that was changed (body mutations). */
  field?: Segment[];
  /** The parameter that was changed. */
  param?: string;
  /** The change was an unknown property added to `field`. */
  unknownKey?: boolean;
  /** The body goes in two chunks, without a Content-Length (read as it streams in, not at once). */
  chunked?: boolean;
  /** A method the route does not take. */
  method?: string;
  expect?: 'unauthenticated' | 'body-refused' | 'content-type-refused';
}

const fieldName = (path: Segment[]) => path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i ? `.${s}` : s)).join('');

function serialize(route: RouteSpec, body: unknown): string {
  if (route.bodyType === 'form') {
    return new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  }
  return jsonText(body);
}

/** Every place in the base body a mutation can go: its values (three levels deep) and the optional properties it leaves out. */
function fieldPaths(value: unknown, schema: Schema | undefined, path: Segment[] = []): Segment[][] {
  if (path.length >= 3) return [];
  const out: Segment[][] = [];
  if (Array.isArray(value)) {
    value.forEach((v, i) => out.push([...path, i], ...fieldPaths(v, schema?.items, [...path, i])));
  } else if (value && typeof value === 'object') {
    const keys = new Set([...Object.keys(value), ...Object.keys(schema?.properties ?? {})]);
    for (const k of keys) out.push([...path, k], ...fieldPaths((value as Record<string, unknown>)[k], schema?.properties?.[k], [...path, k]));
  }
  return out;
}


/** Path parameter values that name nothing or are not of the parameter's form. */
const BAD_PATH_VALUES = [
  'tok_01J0000000000000000000000Z',
  'ver_00000000000000000000000000',
  'ver_0000000000000000000000000I',
  'con_7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
  'rcp_00000000000000000000000000',
  'nonexistent',
  'UPPER',
  '-leading-dash',
  '%2F',
  'a%2Fb',
  '%2E%2E',
  '..',
  '.',
  '%2e%2e%2f%2e%2e%2fetc',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%C3%A9',
  '%zz',
  '%',
  '%25',
  '%20',
  'x'.repeat(300),
  'x'.repeat(9000),
  '%F0%9F%98%80',
  "'%3B--",
  '$%7Bjndi%7D',
];

const ODD_QUERIES = [
  '',
  '?',
  '&&&',
  '=',
  '%zz=1',
  'a=%zz',
  '%00=%00',
  'x=%ED%A0%80',
  'unknown=1',
  'q[]=a',
  'q[a]=b',
  '__proto__=1',
  'constructor=x',
  'toString=1',
  'hasOwnProperty=1',
  'long=' + 'y'.repeat(4000),
];

/** Query values for the route's own query parameters. */
const BAD_QUERY_VALUES = ['', '%00', '%ED%A0%80', '-1', '0', '1.5', '1e3', '99999999999999999999', 'NaN', 'true', 'null', '[]', 'y'.repeat(3000), '%20'];

/** Body texts that are not the JSON object a route takes. */
const BAD_BODY_TEXTS: (string | Buffer)[] = [
  ' ',
  '{',
  '{"a":1',
  'null',
  '[]',
  '"text"',
  '1',
  'true',
  '{"a":1}{"b":2}',
  "{'a':1}",
  'NaN',
  '{"a":1,}',
  '\u0000',
  '['.repeat(100_000),
  '['.repeat(2000) + ']'.repeat(2000),
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from('{"a":"\xed\xa0\x80"}', 'latin1'),
  'x'.repeat(1_100_000),
];

const BAD_CONTENT_TYPES = [null, 'text/plain', 'application/jsonx', 'application/x-www-form-urlencoded', 'application/json', 'multipart/form-data; boundary=x', 'application/*', '*/*', 'APPLICATION/JSON; charset=latin1', ';', 'application/json, text/plain'];

function buildUrl(route: RouteSpec, c: Case): string {
  return route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => c.path[name] ?? '') + (c.query ? `?${c.query}` : '');
}

/** The arbitrary of a route's cases: the valid request, and each kind of one-thing-wrong request. */
async function casesOf(op: Operation): Promise<fc.Arbitrary<Case>> {
  const { route } = op;
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const path: Record<string, string> = {};
  for (const p of pathParams) path[p.name] = encodeURIComponent(await validParam(route, p));
  const validQuery = async () => {
    const parts: string[] = [];
    for (const p of queryParams) if (p.required || p.name === 'user_code') parts.push(`${p.name}=${encodeURIComponent(await validParam(route, p))}`);
    return parts.join('&');
  };
  const query = await validQuery();
  const queryWithout = (name: string) => query.split('&').filter((kv) => kv && !kv.startsWith(`${name}=`)).join('&');
  const baseBody = BASE_BODIES[route.operationId as OperationId]?.() ?? (op.body ? synthesize(op.body) : undefined);
  const body = baseBody === undefined ? undefined : serialize(route, baseBody);
  const valid: Case = { what: 'valid', auth: 'valid', path, query, ...(body !== undefined ? { body } : {}) };

  const kinds: { arbitrary: fc.Arbitrary<Case>; weight: number }[] = [{ arbitrary: fc.constant(valid), weight: 1 }];
  if (route.security) {
    kinds.push({
      arbitrary: fc.constantFrom<Auth>('none', 'garbage', 'wrongKind', 'revoked', 'notBearer').map((auth) => ({ ...valid, what: `auth ${auth}`, auth, expect: 'unauthenticated' as const })),
      weight: 2,
    });
  }
  if (pathParams.length) {
    kinds.push({
      arbitrary: fc.record({ param: fc.constantFrom(...pathParams.map((p) => p.name)), value: fc.oneof(fc.constantFrom(...BAD_PATH_VALUES), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encodeURIComponent)) }).map(({ param, value }) => ({
        ...valid,
        what: `path ${param}=${value.length > 80 ? `${value.slice(0, 20)}…(${value.length})` : value}`,
        path: { ...path, [param]: value },
        param,
      })),
      weight: 3,
    });
  }
  const params = [...pathParams, ...queryParams];
  if (params.length) {
    // Schema-valid but naming nothing known (or something else): refused or answered, never a failure.
    kinds.push({
      arbitrary: fc.oneof(...params.map((p) => arbitraryOf(p.schema).map((v) => [p, String(v)] as const))).map(([p, value]) => {
        const encoded = encodeURIComponent(value);
        const q = p.in === 'query' ? [queryWithout(p.name), `${p.name}=${encoded}`].filter(Boolean).join('&') : query;
        return { ...valid, what: `valid ${p.in} ${p.name}=${encoded.slice(0, 80)}`, path: p.in === 'path' ? { ...path, [p.name]: encoded } : path, query: q };
      }),
      weight: 2,
    });
  }
  if (queryParams.length) {
    kinds.push({
      arbitrary: fc.record({ param: fc.constantFrom(...queryParams.map((p) => p.name)), value: fc.constantFrom(...BAD_QUERY_VALUES), twice: fc.boolean() }).map(({ param, value, twice }) => {
        const q = [queryWithout(param), `${param}=${value}`, ...(twice ? [`${param}=${value}`] : [])].filter(Boolean).join('&');
        return { ...valid, what: `query ${q.slice(0, 80)}`, query: q, param };
      }),
      weight: 3,
    });
  }
  kinds.push({ arbitrary: fc.constantFrom('HEAD', 'OPTIONS', 'PATCH', 'TRACE', 'PROPFIND').map((method) => ({ ...valid, what: `method ${method}`, method })), weight: 1 });
  kinds.push({ arbitrary: fc.constantFrom(...ODD_QUERIES).map((q) => ({ ...valid, what: `odd query ${q.slice(0, 40)}`, query: [query, q].filter(Boolean).join('&') })), weight: 1 });
  if (baseBody !== undefined) {
    const paths = fieldPaths(baseBody, op.body);
    if (paths.length) {
      kinds.push({
        arbitrary: fc.record({ field: fc.constantFrom(...paths), value: fc.constantFrom(...Object.keys(FIELD_VALUES)) }).map(({ field, value }) => {
          const replacement = FIELD_VALUES[value];
          // Taking an item out of an array is the array's fault (minItems), not the item's.
          const named = replacement === DELETE && typeof field.at(-1) === 'number' ? field.slice(0, -1) : field;
          return {
            ...valid,
            what: `body ${fieldName(field)} ← ${value}`,
            body: serialize(route, mutate(baseBody!, field, replacement)),
            field: named,
            ...(replacement === EXTRA_KEY && isObject(field.reduce((n: any, k) => n?.[k], baseBody)) ? { unknownKey: true } : {}),
          };
        }),
        weight: 8,
      });
    }
    const declared = Object.entries<Schema>(op.body?.properties ?? {});
    if (declared.length) {
      kinds.push({
        arbitrary: fc.oneof(...declared.map(([k, schema]) => arbitraryOf(schema).map((v) => [k, v] as const))).map(([k, v]) => ({
          ...valid,
          what: `valid body ${k} ← ${JSON.stringify(v).slice(0, 80)}`,
          body: serialize(route, { ...(baseBody as Record<string, Json>), [k]: v }),
        })),
        weight: 4,
      });
    }
    kinds.push({
      // Form routes read any text as fields: only a JSON route can tell it is not its body.
      arbitrary: fc.constantFrom(...BAD_BODY_TEXTS.keys()).map((i) => ({ ...valid, what: `body text #${i}`, body: BAD_BODY_TEXTS[i]!, ...(route.bodyType === 'json' ? { expect: 'body-refused' as const } : {}) })),
      weight: 3,
    });
    const expected = route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    kinds.push({
      arbitrary: fc.constantFrom(...BAD_CONTENT_TYPES.filter((ct) => ct?.toLowerCase().split(';')[0]?.trim() !== expected)).map((contentType) => ({
        ...valid,
        what: `content-type ${contentType}`,
        contentType,
        expect: 'content-type-refused' as const,
      })),
      weight: 2,
    });
    kinds.push({ arbitrary: fc.constant({ ...valid, what: 'content-encoding gzip', contentEncoding: 'gzip' }), weight: 1 });
    kinds.push({ arbitrary: fc.constant({ ...valid, what: 'chunked', chunked: true }), weight: 1 });
  } else if (!route.raw) {
    // A body the route does not take: ignored or refused, never a failure.
    kinds.push({ arbitrary: fc.constantFrom(...BAD_BODY_TEXTS.slice(0, 8)).map((b) => ({ ...valid, what: `unexpected body ${String(b).slice(0, 20)}`, body: b })), weight: 1 });
  }
  return fc.oneof(...kinds);
}

// ---------------------------------------------------------------------------------------------
// Sending, with a deadline: a hang is a failure, not a stuck test.

interface Answer {
  status: number;
  type: string;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

async function credentialFor(route: RouteSpec, auth: Auth): Promise<string | undefined> {
  if (auth === 'none') return undefined;
  if (auth === 'notBearer') return `Basic ${Buffer.from('user:pass').toString('base64')}`;
  if (auth === 'garbage') return 'Bearer svc_cli_' + 'A'.repeat(43);
  if (auth === 'revoked') {
    const kind = route.security === 'executionToken' ? 'sdk' : route.security === 'mcpToken' ? 'mcp' : 'cli';
    const issued = await t.engine.deps.tokens.issue(kind, kind === 'cli' ? 'fuzzer' : kind === 'sdk' ? SDK_NAME : MCP_NAME);
    t.canaries.push(issued.token);
    await t.engine.deps.tokens.revoke(issued.row.id, [kind]);
    return `Bearer ${issued.token}`;
  }
  if (auth === 'wrongKind') return `Bearer ${route.security === 'cliCredential' ? fx.sdk.token : t.cliToken}`;
  if (route.security === 'executionToken') return `Bearer ${fx.sdk.token}`;
  if (route.security === 'mcpToken') return `Bearer ${fx.mcp.token}`;
  // Logout revokes the credential it is called with, so it gets one of its own per request; the other
  // routes share the owner's (thousands of credentials would make every later listing slower).
  if (route.operationId !== 'logout') return `Bearer ${t.cliToken}`;
  const issued = await t.engine.deps.tokens.issue('cli', 'fuzzer');
  t.canaries.push(issued.token);
  return `Bearer ${issued.token}`;
}

async function send(route: RouteSpec, c: Case): Promise<Answer> {
  const url = new URL(t.url);
  const headers: Record<string, string | number> = { host: url.host };
  const authorization = await credentialFor(route, c.auth);
  if (authorization) headers.authorization = authorization;
  if (route.raw) headers.accept = 'application/json, text/event-stream';
  const payload = c.body === undefined ? undefined : Buffer.isBuffer(c.body) ? c.body : Buffer.from(c.body, 'utf8');
  if (payload) {
    if (!c.chunked) headers['content-length'] = payload.length;
    const own = route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    const type = c.contentType === undefined ? own : c.contentType;
    if (type !== null) headers['content-type'] = type;
    if (c.contentEncoding) headers['content-encoding'] = c.contentEncoding;
  }
  return new Promise<Answer>((resolveAnswer, reject) => {
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms (a hang)`));
    }, REQUEST_TIMEOUT_MS);
    const req = httpRequest({ host: url.hostname, port: url.port, method: c.method ?? route.method, path: buildUrl(route, c), headers, agent: false }, (res) => {
      const type = String(res.headers['content-type'] ?? '');
      const done = (text: string) => {
        clearTimeout(timer);
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolveAnswer({ status: res.statusCode ?? 0, type, headers: res.headers, text, json });
      };
      // An SSE stream (MCP GET) stays open: its headers are the answer.
      if (type.startsWith('text/event-stream')) {
        res.destroy();
        return done('');
      }
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    if (c.chunked && payload) {
      req.write(payload.subarray(0, payload.length >> 1));
      setTimeout(() => req.end(payload.subarray(payload.length >> 1)), 5);
    } else req.end(c.method === 'HEAD' ? undefined : payload);
  });
}

// ---------------------------------------------------------------------------------------------
// The properties.

/** Methods some route takes, or that routing answers itself (405 on a route that does not take them). */
const SERVED_METHODS = new Set<string>([...routes.map((r) => r.method), 'HEAD', 'OPTIONS', 'TRACE']);

const isJsonType = (type: string) => /^application\/json\b/i.test(type);

/** Strings of a body that carries credentials: none may come back or be logged. */
function secretStrings(route: RouteSpec, c: Case): string[] {
  if (!route.secretBody || typeof c.body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = route.bodyType === 'form' ? Object.fromEntries(new URLSearchParams(c.body)) : JSON.parse(c.body);
  } catch {
    return c.body.length >= 12 ? [c.body] : [];
  }
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string' && v.length >= 12 && !v.startsWith('urn:ietf:')) out.push(v.slice(0, 200));
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(parsed);
  return out;
}

function documentedTypes(op: Operation, status: number): Record<string, Schema | undefined> | undefined {
  return op.responses[String(status)] ?? op.responses.default;
}

function checkAnswer(op: Operation, c: Case, a: Answer, logsFrom: number): void {
  const { route } = op;
  const where = `${route.method} ${buildUrl(route, c).slice(0, 200)} [${c.what}] → ${a.status} ${a.text.slice(0, 300)}`;
  const fail = (why: string): never => {
    throw new Error(`${why}\n  ${where}`);
  };

  // 501 is the documented answer to a method no route takes (PROPFIND); any other 5xx is a failure.
  if (a.status >= 500 && !(a.status === 501 && c.method && !SERVED_METHODS.has(c.method))) fail('a 5xx');
  const secrets = [...t.canaries, ...secretStrings(route, c)];
  const answerText = a.text + JSON.stringify(a.headers);
  if (secrets.some((s) => answerText.includes(s))) fail('a secret in the answer');
  const newLogs = t.logs.slice(logsFrom).join('');
  if (secrets.some((s) => newLogs.includes(s))) fail('a secret in a log line');

  if (c.method) {
    // Refused by routing: the envelope (a HEAD answer has no body to hold it).
    if (a.status >= 400 && c.method !== 'HEAD' && !(a.json?.ok === false && a.json.status === a.status && typeof a.json.error?.code === 'string')) fail('a method refusal that is not the envelope');
    return;
  }
  const documented = documentedTypes(op, a.status);
  if (route.raw && route.path.startsWith('/oauth/')) {
    // The authorization server's endpoints refuse with RFC 6749 §5.2 errors, as documented.
    if (a.status >= 400) {
      if (!documented) fail(`status ${a.status} is not documented (no such response and no default)`);
      if (!isJsonType(a.type) || a.json === undefined || !documentedValidator(documented!['application/json']!)(a.json)) fail('an OAuth refusal that is not an RFC 6749 error');
    }
    return;
  }
  if (route.raw) {
    // MCP Streamable HTTP answers with JSON-RPC; refusals are JSON-RPC errors.
    if (a.status >= 400) {
      if (!isJsonType(a.type) || a.json?.jsonrpc !== '2.0' || typeof a.json?.error?.code !== 'number' || typeof a.json?.error?.message !== 'string') fail('an MCP refusal that is not a JSON-RPC error');
    }
    if (c.expect === 'unauthenticated' && a.status !== 401) fail('a bad MCP token not refused with 401');
    return;
  }

  if (a.status >= 200 && a.status < 300) {
    if (!(String(a.status) in op.responses)) fail(`success status ${a.status} is not documented`);
    if (a.status === 204) {
      if (a.text !== '') fail('a 204 with a body');
    } else if (isJsonType(a.type)) {
      const validate = (responseValidators as Record<string, ValidateFunction>)[route.operationId];
      if (a.json === undefined) fail('a JSON answer that does not parse');
      if (validate && !validate(a.json)) fail(`a success answer not valid against its schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    } else if (!documented || !Object.keys(documented).some((type) => a.type.startsWith(type.split('/*')[0]!))) {
      fail(`an undocumented Content-Type ${a.type}`);
    }
  } else if (a.status >= 400) {
    if (!documented) fail(`status ${a.status} is not documented (no such response and no default)`);
    const schemas = documented ?? {};
    const html = a.type.startsWith('text/html');
    if (html) {
      if (!('text/html' in schemas)) fail(`an HTML ${a.status} the spec does not document`);
    } else {
      if (!isJsonType(a.type) || a.json === undefined) fail('an error answer that is not JSON');
      const own = schemas['application/json'];
      const ownIsEnvelope = !own || own.properties?.ok !== undefined;
      if (!ownIsEnvelope && op.responses[String(a.status)] && documentedValidator(own!)(a.json)) {
        // The route's own documented error body (RFC 8628).
      } else {
        const envelope = a.json;
        if (!documentedValidator(ENVELOPE_SCHEMA)(a.json) || envelope.ok !== false || envelope.status !== a.status) fail('an error answer that is not the envelope');
        const e = envelope.error;
        if (typeof e?.code !== 'string' || typeof e.message !== 'string' || typeof e.details?.provider_execution !== 'string') {
          fail('an envelope without error.code, error.message and error.details.provider_execution');
        }
      }
    }
  }

  const error = a.json?.error;
  const invalid = a.status === 400 && error?.code === 'ENGINE_INVALID_INPUT';
  if (c.expect === 'unauthenticated' && (a.status !== 401 || error?.code !== 'ENGINE_UNAUTHENTICATED')) fail('a bad credential not refused with 401 ENGINE_UNAUTHENTICATED');
  if (c.expect === 'content-type-refused' && !(invalid && error.details?.field === 'content-type')) fail('a body of the wrong Content-Type not refused naming content-type');
  if (c.expect === 'body-refused' && !((invalid && error.details?.field === 'body') || a.status === 413)) fail('a body that is not a JSON object not refused naming body');
  if (invalid && c.param && !c.what.startsWith('odd query') && error.details?.field !== c.param) fail(`a 400 for parameter ${c.param} naming '${error.details?.field}'`);
  if (invalid && c.field) {
    // The Engine names a place as `operations[1]` (its own checks) or `operations.1` (schema errors): either, at or within the field.
    const expected = c.field.map(String);
    const named = String(error.details?.field ?? '');
    const segments = named.replace(/\[(\d+)\]/g, '.$1').split('.');
    if (!expected.every((s, i) => segments[i] === s)) fail(`a 400 for body field ${fieldName(c.field)} naming '${named}'`);
    // An unknown property: the field is the object holding it, and the message names it unless the body carries credentials.
    if (c.unknownKey && segments.length === expected.length && !route.secretBody && !String(error.message).includes(EXTRA_KEY)) fail('a 400 for an unknown property not naming it');
  }
}

async function healthy(): Promise<void> {
  const res = await fetch(`${t.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
  expect(res.status).toBe(200);
  expect((await res.json()) as unknown).toEqual({ status: 'ok' });
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  crm = await startDemoProvider({ apiKey: SECRET, oauth: { clients: { 'svc-test': CLIENT_SECRET }, accessTokenTtlSeconds: 3600 } });
  t = await startTestEngine();
  t.canaries.push(CLIENT_SECRET);
  const sdk = await publishSdk(t, { name: SDK_NAME, service: 'demo-crm', baseUrl: crm.url, secret: SECRET, operations: ['account/get', 'contacts/list'] });
  fx.sdk = { ...sdk, version: (await t.api('GET', `/v1/sdks/${SDK_NAME}/versions`)).body.versions[0].version };
  await restoreFixtures();
  const mcpVersion = (await t.api('GET', '/v1/mcp')).body.servers.find((s: any) => s.name === MCP_NAME);
  const mcpToken = await t.api('POST', `/v1/mcp/${MCP_NAME}/tokens`, { allow: ['*'] });
  fx.mcp = { versionId: mcpVersion.versionId, token: mcpToken.body.token };
  t.canaries.push(fx.mcp.token);
  const device = await fetch(`${t.url}/v1/auth/device`, { method: 'POST' }).then((r) => r.json() as Promise<any>);
  fx.deviceCode = device.device_code;
  fx.userCode = device.user_code;
  t.canaries.push(fx.deviceCode);
});

afterAll(async () => {
  await t?.stop(); // fails if a canary reached a log line
  await crm?.stop();
});

// Shrunk counterexamples of the fuzz below, kept as plain cases (first: on an Engine the fuzz has not worn, rate limits included).
describe('found by the fuzz', () => {
  const post = async (path: string, body: string, token: string) => {
    const res = await fetch(t.url + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(5_000) });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('answers an MCP transitional request whose version ID decodes past U+00FF (its Link header threw, and the request hung)', async () => {
    const res = await fetch(`${t.url}/mcp/%C4%80/sse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.mcp.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initializeMessage()),
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('link')).toBe('</mcp/%C4%80>; rel="successor-version"');
    expect(((await res.json()) as any).error).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
  });

  it('answers a raw handler that throws before answering with the envelope, on the fast path and through Koa, instead of hanging', async () => {
    const { createHandlers, createHttpApp } = await import('../../src/server/index.ts');
    const handlers = { ...createHandlers(t.engine.deps), mcpPost: async () => Promise.reject(new TypeError('fuzz: raw handler failed')) };
    const server = createHttpApp(t.engine.deps, handlers).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      // Canonical form takes the fast path; a query string sends the same request through Koa.
      for (const path of [`/mcp/${fx.mcp.versionId}`, `/mcp/${fx.mcp.versionId}?via=koa`]) {
        const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(5_000) });
        expect(res.status, path).toBe(500);
        expect(await res.json(), path).toMatchObject({ ok: false, status: 500, error: { code: 'ENGINE_INTERNAL', details: { provider_execution: 'unknown' } } });
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('names the body field, not "body", when a value is nested too deep or is a number a double would change', async () => {
    const deep = await post(`/v1/apps/${fx.sdk.versionId}/executions`, `{"operation":"demo-crm.account/get","input":{"x":${'['.repeat(200)}${']'.repeat(200)}}}`, fx.sdk.token);
    expect(deep.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', message: 'body: nested deeper than 128 levels of arrays and objects', details: { field: 'input.x', max_depth: 128 } });
    const huge = await post(`/v1/apps/${fx.sdk.versionId}/executions`, '{"operation":"demo-crm.account/get","input":{"rows":[1,1e400]}}', fx.sdk.token);
    expect(huge.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', message: "body property '1': the number 1e400 is out of range", details: { field: 'input.rows.1' } });
    // A field of another type is named by its schema, before the reader's checks.
    const operation = await post(`/v1/apps/${fx.sdk.versionId}/executions`, `{"operation":${'['.repeat(200)}${']'.repeat(200)}}`, fx.sdk.token);
    expect(operation.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'operation' } });
    const clientId = await post('/v1/auth/device', '{"client_id":9007199254740993}', 'none');
    expect(clientId.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'client_id' } });
    const expiry = await post(`/v1/sdks/${SDK_NAME}/tokens`, '{"expiresAt":1e400}', t.cliToken);
    expect(expiry.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'expiresAt' } });
  });

  it('names the input field an operation refuses, as the control plane names a body field', async () => {
    const unknown = await post(`/v1/apps/${fx.sdk.versionId}/executions`, '{"operation":"demo-crm.account/get","input":{"fuzzUnknownKey":1}}', fx.sdk.token);
    expect(unknown.body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', message: "input has unknown property 'fuzzUnknownKey'", details: { field: 'input' } });
  });

  it('names the field of a credential body without quoting it', async () => {
    const res = await fetch(`${t.url}/v1/buckets/default/secrets/demo-crm`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${t.cliToken}`, 'content-type': 'application/json' },
      body: '{"value":9007199254740993}',
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ code: 'ENGINE_INVALID_INPUT', details: { field: 'value' } });
    expect(JSON.stringify(body)).not.toContain('9007199254740993');
  });

  it('documents the HTML refusals of the sign-in form and the OAuth callback, and the envelope of a malformed parameter', async () => {
    const form = await fetch(`${t.url}/signin`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'user_code=7&username=u&password=p&decision=deny' });
    expect(form.status).toBe(400);
    expect(form.headers.get('content-type')).toContain('text/html');
    const callback = await fetch(`${t.url}/v1/oauth/callback?code=`);
    expect(callback.status).toBe(400);
    expect(callback.headers.get('content-type')).toContain('text/html');
    const page = await fetch(`${t.url}/signin?user_code=a&user_code=b`);
    expect(page.status).toBe(400);
    expect(((await page.json()) as any).error.details.field).toBe('user_code');
    for (const id of ['submitSignin', 'oauthCallback', 'showSignin']) {
      const route = routes.find((r) => r.operationId === id)!;
      const documented = operationOf(route).responses.default;
      expect(documented?.['application/json'], id).toBeDefined();
      if (id !== 'showSignin') expect(documented?.['text/html'], id).toBeDefined();
    }
  });
});

describe('every route of the spec, fuzzed', () => {
  it('covers every operation of the route table', () => {
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) expect(spec.paths[route.path]?.[route.method.toLowerCase()]?.operationId).toBe(route.operationId);
  });

  for (const route of routes) {
    it(`${route.operationId}: ${route.method} ${route.path}`, async () => {
      const op = operationOf(route);
      const cases = await casesOf(op);
      const runs = op.body ? RUNS.body : RUNS.plain;
      // A seed of its own per route (routes of one shape would otherwise draw the same cases).
      const seed = SEED + [...route.operationId].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) | 0, 0);
      const result = await fc.check(
        fc.asyncProperty(cases, async (c) => {
          const logsFrom = t.logs.length;
          checkAnswer(op, c, await send(route, c), logsFrom);
        }),
        { seed, numRuns: runs, endOnFailure: false },
      );
      await restoreFixtures();
      await healthy();
      if (result.failed) {
        const [c] = result.counterexample ?? [];
        const shown = c && { ...c, body: typeof c.body === 'string' && c.body.length > 300 ? `${c.body.slice(0, 300)}…(${c.body.length} chars)` : c.body };
        const why = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
        throw new Error(`seed ${seed} (FUZZ_SEED=${SEED}), path ${result.counterexamplePath}, after ${result.numRuns} runs (${result.numShrinks} shrinks)\n${why}\ncounterexample: ${JSON.stringify(shown)}`);
      }
    }, 300_000);
  }
});
