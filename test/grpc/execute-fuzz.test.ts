// Property-based fuzz of the gRPC execution service (spec/engine.proto, src/grpc). A real Engine
// with its gRPC port on loopback, a fake provider that is a real HTTP server on 127.0.0.1, and an
// SDK of four operations (a GET with a path parameter, a paginated list, a mutation with a body, a
// Unified operation). Requests go through @grpc/grpc-js as raw bytes (identity serializers) or,
// for what grpc-js will not send, over a bare HTTP/2 stream: an ExecuteRequest with one field made
// wrong, protobuf bytes that are not a valid message, metadata, deadlines and cancellation, gRPC
// framing and headers; and all of these at once.
//
// Properties: every call ends with a gRPC status within the test's own bound (no hang); never
// INTERNAL or UNKNOWN for what the caller sent, but where gRPC's own status-code table has the
// library answer so (H2_CASES); a non-OK status only where the call got no envelope (a message that
// cannot be decoded: INVALID_ARGUMENT naming the field and byte; past the receive limit; the
// deadline; a cancellation); an envelope agrees with the REST table (README "Read the envelope":
// an Engine code carries its status, a 400 names the field at fault, a bad credential is 401
// ENGINE_UNAUTHENTICATED) and with the REST twin of the same request; an envelope error carries
// details.provider_execution (PROVIDER_ERROR aside), `not_started` whenever the provider received
// no byte in the call; no canary in any reply, header, trailer or log line; the Engine keeps
// serving (a good call succeeds after each case, and at the end). FUZZ_SEED explores other seeds,
// FUZZ_RUNS scales the runs, FUZZ_VERBOSE=1 prints the answers each fuzz reached.
import type { ServerResponse } from 'node:http';
import http2 from 'node:http2';
import type { Socket } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, credentials, Metadata, status as GrpcStatus, type ClientUnaryCall, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { Envelope as WireEnvelope, ExecuteRequest } from '../../generated/grpc/engine.ts';
import { ENGINE_STATUS } from '../../src/envelope/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { DELETE, EXTRA_KEY, isObject, jsonText, mutate, nest, RawNumber, type Json, type Segment } from '../fixtures/json-mutation.ts';

/** Fixed, so a run is reproducible; FUZZ_SEED explores others (and replays a reported one). */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_612);
const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
/** The test's own bound on a call: past it the call is a hang, whatever deadline the case set. */
const HANG_MS = 15_000;
const EXECUTE_PATH = '/svc.engine.v1.Engine/Execute';

const SECRET = 'grpc-fuzz-canary-provider-key-5e0b7a';
const GITHUB_SECRET = 'grpc-fuzz-canary-github-key-c39d12';
const SDK_NAME = 'grpcfuzz';

let t: TestEngine;
let provider: FakeProvider;
let client: Client;
const fx = {
  versionId: '',
  token: '',
  /** Another app's version and token: each valid, never together with ours. */
  otherVersionId: '',
  otherToken: '',
  revoked: '',
  mcp: '',
};
/** Contact IDs whose provider request ended before the fake provider answered. */
const aborted = new Set<string>();

// ---------------------------------------------------------------------------------------------
// The fake provider: demo-crm's contacts, deals and tasks; GitHub answers 404.

async function handle(req: { method: string; url: string; headers: Record<string, unknown>; body: string }, res: ServerResponse, socket: Socket) {
  const url = new URL(req.url, 'http://x');
  if (req.headers.authorization !== `Bearer ${SECRET}` && !url.pathname.startsWith('/repos/')) return json(res, 401, { error: 'bad key' });
  if (url.pathname === '/v1/contacts' && req.method === 'GET') {
    const page = Number(url.searchParams.get('starting_after')?.slice(4) ?? 0) + 1;
    return json(res, 200, { data: [{ id: `con_${page}`, name: `Contact ${page}` }], has_more: page < 3 });
  }
  const contact = /^\/v1\/contacts\/([^/]+)$/.exec(url.pathname)?.[1];
  if (contact && req.method === 'GET') {
    if (contact.startsWith('con_slow')) {
      res.on('close', () => {
        if (!res.writableEnded) aborted.add(contact);
      });
      await new Promise((r) => setTimeout(r, 1_500));
      if (!res.destroyed) json(res, 200, { id: contact, slow: true });
      return;
    }
    if (contact === 'con_missing') return json(res, 404, { error: 'no such contact' });
    if (contact === 'con_boom') return json(res, 500, { error: 'provider failure', n: 12345678901234567890n.toString() });
    // The request arrived; the connection drops before any answer: the outcome is unknown.
    if (contact === 'con_reset') return void socket.destroy();
    // A provider that echoes the credential it was sent: the Engine redacts it.
    if (contact === 'con_echo') return json(res, 200, { id: contact, seen: req.headers.authorization });
    if (contact === 'con_notjson') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(`not json ${String(req.headers.authorization)}`);
    }
    return json(res, 200, { id: contact, name: 'Ada', n: '12345678901234567890' });
  }
  if (url.pathname === '/v1/deals' && req.method === 'POST') return json(res, 201, { id: 'deal_1', ...(JSON.parse(req.body || '{}') as object) });
  if (url.pathname === '/v1/tasks' && req.method === 'POST') return json(res, 201, { id: 'task_1', title: (JSON.parse(req.body || '{}') as { title?: string }).title ?? null });
  json(res, 404, { error: 'not found' });
}

// ---------------------------------------------------------------------------------------------
// Sending: grpc-js with identity serializers (the bytes go as given), or a bare HTTP/2 stream.

interface Sent {
  /** The call's status (OK included). */
  code: number;
  details: string;
  /** The reply message, when the status is OK. */
  reply?: Buffer;
  /** Response headers and trailers, as text (searched for canaries). */
  metadata: string;
  ms: number;
}

/** Credentials the Engine takes as the SDK token; every other one is refused with 401. */
const ACCEPTED: ReadonlySet<Auth> = new Set(['valid', 'lowercaseScheme', 'extraSpaces', 'validPlusBinary', 'validPlusPadding', 'validPlusLargePadding', 'validPlusHugePadding']);

const bearer = (token: string) => ['authorization', `Bearer ${token}`] as const;
/** The metadata entries each credential case sends. */
const CREDENTIALS = {
  valid: () => [bearer(fx.token)],
  lowercaseScheme: () => [['authorization', `bearer ${fx.token}`]],
  extraSpaces: () => [['authorization', `Bearer    ${fx.token}`]],
  // RFC 9113 §8.2.1: a field value must not end with whitespace; nghttp2 drops the field, and the call has no token.
  trailingSpace: () => [['authorization', `Bearer ${fx.token} `]],
  none: () => [],
  garbage: () => [bearer(`svc_sdk_${'A'.repeat(43)}`)],
  notBearer: () => [['authorization', `Basic ${Buffer.from(`x:${fx.token}`).toString('base64')}`]],
  schemeOnly: () => [['authorization', 'Bearer ']],
  twoTokens: () => [bearer(`${fx.token} ${fx.token}`)],
  cliKind: () => [bearer(t.cliToken)],
  mcpKind: () => [bearer(fx.mcp)],
  revoked: () => [bearer(fx.revoked)],
  otherApp: () => [bearer(fx.otherToken)],
  binaryOnly: () => [['authorization-bin', Buffer.from(`Bearer ${fx.token}`)]],
  otherKey: () => [['x-authorization', `Bearer ${fx.token}`]],
  validPlusBinary: () => [bearer(fx.token), ['x-fuzz-bin', Buffer.from([0x00, 0xff, 0xc3, 0x28, 0x0a, 0x0d])]],
  validPlusPadding: () => [bearer(fx.token), ['x-fuzz-padding', 'p'.repeat(4_000)]],
  validPlusLargePadding: () => [bearer(fx.token), ['x-fuzz-padding', 'p'.repeat(12_000)]],
  validPlusHugePadding: () => [bearer(fx.token), ['x-fuzz-padding', 'p'.repeat(80_000)]],
} satisfies Record<string, () => (readonly [string, string | Buffer])[]>;
type Auth = keyof typeof CREDENTIALS;
const AUTHS = Object.keys(CREDENTIALS) as Auth[];

function metadataFor(auth: Auth): Metadata {
  const m = new Metadata();
  for (const [key, value] of CREDENTIALS[auth]()) m.set(key, value);
  return m;
}

type Deadline = 'none' | 'passed' | 'tiny' | 'short' | 'long' | 'thirtyDays' | 'infinite';

function deadlineOf(d: Deadline): { deadline?: number } {
  const now = Date.now();
  switch (d) {
    case 'none':
      return { deadline: now + HANG_MS - 2_000 };
    case 'passed':
      return { deadline: now };
    case 'tiny':
      return { deadline: now + 1 };
    case 'short':
      return { deadline: now + 40 };
    case 'long':
      return { deadline: now + 2 * 3600 * 1000 };
    case 'thirtyDays':
      return { deadline: now + 30 * 24 * 3600 * 1000 };
    case 'infinite':
      return { deadline: Infinity };
  }
}

const headersText = (m: Metadata | null | undefined) => (m ? JSON.stringify(m.toJSON()) : '');

/** One unary call of `bytes` through grpc-js, exactly as given; cancelled at `cancelAfterMs` when set. */
function sendGrpc(bytes: Buffer, auth: Auth, deadline: Deadline = 'none', cancelAfterMs?: number): Promise<Sent> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let headers = '';
    let reply: Buffer | undefined;
    let call: ClientUnaryCall | undefined;
    const hang = setTimeout(() => {
      call?.cancel();
      reject(new Error(`no gRPC status within ${HANG_MS} ms (a hang)`));
    }, HANG_MS);
    call = client.makeUnaryRequest(EXECUTE_PATH, (b: Buffer) => b, (b: Buffer) => b, bytes, metadataFor(auth), deadlineOf(deadline), (_err: ServiceError | null, value?: Buffer) => {
      reply = value;
    });
    call.on('metadata', (m: Metadata) => (headers += headersText(m)));
    call.on('status', (s: StatusObject) => {
      clearTimeout(hang);
      // The unary callback runs before 'status': the reply is known here.
      setImmediate(() => resolve({ code: s.code, details: s.details, ...(s.code === GrpcStatus.OK && reply ? { reply } : {}), metadata: headers + headersText(s.metadata), ms: performance.now() - started }));
    });
    if (cancelAfterMs !== undefined) setTimeout(() => call!.cancel(), cancelAfterMs);
  });
}

/** gRPC's length-prefixed message: flag, 4-byte big-endian length, bytes. */
const frame = (bytes: Buffer, options: { compressed?: boolean; length?: number } = {}) => {
  const head = Buffer.alloc(5);
  head.writeUInt8(options.compressed ? 1 : 0, 0);
  head.writeUInt32BE(options.length ?? bytes.length, 1);
  return Buffer.concat([head, bytes]);
};

interface RawH2 {
  what: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** A gRPC call over a bare HTTP/2 stream: headers and body as given (what grpc-js would refuse to send). */
function sendH2(c: RawH2): Promise<Sent> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://${t.engine.grpcUrl}`);
    const done = (sent: Omit<Sent, 'ms'>) => {
      clearTimeout(hang);
      session.close();
      resolve({ ...sent, ms: performance.now() - started });
    };
    const hang = setTimeout(() => {
      session.destroy();
      reject(new Error(`no gRPC status within ${HANG_MS} ms (a hang)`));
    }, HANG_MS);
    session.on('error', (err) => done({ code: GrpcStatus.UNAVAILABLE, details: `session error: ${err.message}`, metadata: '' }));
    const stream = session.request({ ':method': 'POST', ':path': EXECUTE_PATH, 'content-type': 'application/grpc', te: 'trailers', ...c.headers });
    let headers = '';
    const chunks: Buffer[] = [];
    let status: { code: number; details: string } | undefined;
    const readStatus = (h: http2.IncomingHttpHeaders) => {
      headers += JSON.stringify(h);
      if (h['grpc-status'] !== undefined) status = { code: Number(h['grpc-status']), details: decodeURIComponent(String(h['grpc-message'] ?? '')) };
    };
    stream.on('response', readStatus);
    stream.on('trailers', readStatus);
    stream.on('data', (d: Buffer) => chunks.push(d));
    stream.on('error', () => undefined);
    stream.on('close', () => {
      const body = Buffer.concat(chunks);
      if (!status) return done({ code: -1, details: `stream closed without grpc-status (rst ${stream.rstCode})`, metadata: headers });
      done({ code: status.code, details: status.details, ...(status.code === GrpcStatus.OK && body.length >= 5 ? { reply: body.subarray(5, 5 + body.readUInt32BE(1)) } : {}), metadata: headers });
    });
    stream.end(c.body);
  });
}

// ---------------------------------------------------------------------------------------------
// Requests: the four valid ones, and what can be made wrong in each.

/** Replacements for one value inside input_json: every JSON type, and the edges of each. */
const INPUT_VALUES: Record<string, unknown> = {
  number: 7,
  true: true,
  null: null,
  emptyString: '',
  emptyArray: [],
  emptyObject: {},
  string: 'fuzz',
  hugeString: 'Zq'.repeat(60_000),
  nul: 'nul\u0000char',
  loneSurrogate: 'lone\ud800',
  control: 'bell\u0007',
  unicode: 'ünïcødé 😀 \u202e',
  providerMissing: 'con_missing',
  providerFailure: 'con_boom',
  providerReset: 'con_reset',
  providerEcho: 'con_echo',
  providerNotJson: 'con_notjson',
  pathTraversal: '../../v1/account',
  encodedSlash: 'con_1%2F..%2Faccount',
  deep20: nest(20),
  deep200: nest(200),
  negative: -1,
  fraction: 1.5,
  huge: new RawNumber('1e400'),
  tiny: new RawNumber('1e-400'),
  unsafeInteger: new RawNumber('9007199254740993'),
  minusZero: new RawNumber('-0'),
  manyItems: Array.from({ length: 6000 }, () => 'x'),
  missing: DELETE,
  unknownKey: EXTRA_KEY,
};

/** input_json texts that are not the JSON object an operation takes, or are one only just. */
const INPUT_TEXTS: Record<string, string> = {
  empty: '',
  space: ' ',
  open: '{',
  unquoted: '{nope}',
  null: 'null',
  array: '[]',
  string: '"x"',
  number: '1',
  true: 'true',
  twoValues: '{"a":1}{"b":2}',
  bom: '\ufeff{}',
  trailingComma: '{"contact_id":"con_1",}',
  comment: '{/* c */"contact_id":"con_1"}',
  singleQuotes: "{'contact_id':'con_1'}",
  nan: '{"x":NaN}',
  proto: '{"__proto__":{"polluted":1},"contact_id":"con_1"}',
  constructor: '{"constructor":{"prototype":{"polluted":1}},"contact_id":"con_1"}',
  duplicateKeys: '{"contact_id":"con_1","contact_id":"con_2"}',
  escapedSurrogate: '{"contact_id":"con_\\ud800"}',
  escapedNul: '{"contact_id":"con_1\\u0000"}',
  unsafeTop: '{"contact_id":"con_1","n":9007199254740993}',
  hugeExponent: '{"x":1e400}',
  deepArrays: `{"x":${'['.repeat(100_000)}}`,
  deepObjects: `${'{"a":'.repeat(300)}1${'}'.repeat(300)}`,
  justOverLimit: '', // filled in once the Engine's limit is known
  pastReceiveLimit: '',
};

interface Base {
  name: string;
  operation: string;
  input: Json;
  pagination?: { maxPages?: number };
  unified?: boolean;
}

const BASES: Base[] = [
  { name: 'get', operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' } },
  // starting_after is where a continuation's input goes (con_0: from the first page).
  { name: 'list', operation: 'demo-crm.contacts/list', input: { limit: 5, starting_after: 'con_0' }, pagination: { maxPages: 2 } },
  { name: 'create', operation: 'demo-crm.deals/create', input: { body: { contact_id: 'con_1', title: 'Fuzz deal', amount: 5, labels: { tier: 'gold' } } } },
  { name: 'unified', operation: 'unified.tasks.create', input: { input: { title: 'Fuzz task', notes: 'n' }, targets: ['crm'] }, unified: true },
];

interface Case {
  /** What was made wrong, for the counterexample. */
  what: string;
  /** The request message, as sent (a function: some fields are known only once the Engine runs). */
  bytes?: () => Buffer;
  /** A well-formed request, encoded as the message (and compared with its REST twin). */
  request?: () => ExecuteRequest;
  auth: Auth;
  deadline?: Deadline;
  cancelAfterMs?: number;
  /** Field names a 400 may name for this change (a prefix match); undefined: any field. */
  fields?: string[];
  /** The envelope status the change must give. */
  status?: number;
  /** The valid request, unchanged: it must succeed. */
  valid?: boolean;
  /** Non-OK gRPC statuses this case may end with (besides what a deadline or cancellation gives). */
  statuses?: number[];
  /** A contact the provider holds until the call is cancelled (its request must then be aborted). */
  slow?: string;
  /** Sent over a bare HTTP/2 stream: these headers (over the valid ones), the message framed by `body`. */
  h2?: { headers: Record<string, string>; body?: (message: Buffer) => Buffer };
}

const requestOf = (base: Base, change: Partial<ExecuteRequest> = {}, input: unknown = base.input): ExecuteRequest =>
  ExecuteRequest.fromPartial({
    versionId: fx.versionId,
    operation: base.operation,
    inputJson: jsonText(input),
    ...(base.pagination ? { pagination: base.pagination } : {}),
    ...change,
  });
const encode = (req: ExecuteRequest) => Buffer.from(ExecuteRequest.encode(req).finish());
const messageOf = (base: Base, change: Partial<ExecuteRequest> = {}, input: unknown = base.input): Buffer => encode(requestOf(base, change, input));

const UNIFIED_KEYS = new Set(['input', 'targets', 'selectors', 'pagination', 'idempotencyKey']);
const parsedObject = (text: string): object => {
  try {
    return Object(JSON.parse(text || '{}')) as object;
  } catch {
    return {};
  }
};
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The REST execution body `req` stands for (input_json spliced in as written; a Unified call's params
 * are the body's own keys), or undefined where REST has no twin: another version ID, flat selectors
 * or pagination on a Unified call, input_json that is not an object, a lone surrogate (protobuf
 * strings are UTF-8: it arrives as U+FFFD, where REST's JSON keeps it).
 */
function restTwin(req: ExecuteRequest): string | undefined {
  if (req.versionId !== fx.versionId || [req.operation, req.inputJson].some((v) => LONE_SURROGATE.test(v))) return undefined;
  const text = req.inputJson.trim();
  const head = `{"operation":${JSON.stringify(req.operation)}`;
  if (req.operation.startsWith('unified.')) {
    if (req.pagination || req.selectors || (text !== '' && !text.startsWith('{'))) return undefined;
    // REST's schema refuses a key a Unified call does not take before the operation is looked up; gRPC's
    // input_json is checked by the Unified call itself, after: with an unknown operation too, the first refusal differs.
    if (Object.keys(parsedObject(text)).some((k) => !UNIFIED_KEYS.has(k))) return undefined;
    const rest = text.slice(1).trim();
    return text === '' || rest === '}' ? `${head}}` : `${head},${rest}`;
  }
  const parts = [head];
  if (req.inputJson !== '') parts.push(`"input":${req.inputJson}`);
  if (req.pagination) parts.push(`"pagination":${JSON.stringify(req.pagination.maxPages === undefined ? {} : { maxPages: req.pagination.maxPages })}`);
  if (req.selectors) parts.push(`"selectors":${JSON.stringify(req.selectors)}`);
  return `${parts.join(',')}}`;
}

/** Every place a value can go in `value` (three levels deep). */
function paths(value: unknown, path: Segment[] = []): Segment[][] {
  if (path.length >= 3) return [];
  const out: Segment[][] = [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push([...path, i], ...paths(v, [...path, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push([...path, k], ...paths(v, [...path, k]));
  return out;
}

/** What a 400 may name for a change at `path` inside input_json. */
function inputFields(base: Base, path: Segment[]): string[] {
  if (!base.unified || path[0] === 'input') return ['input_json', 'input'];
  // A Unified call's own keys are named as the call names them (targets, idempotencyKey, …).
  return ['input_json', String(path[0]), 'params'];
}

/** Unified params keys the flat Selectors/Pagination do not carry. */
const UNIFIED_EXTRAS: Record<string, unknown> = {
  targetsGithub: ['github'],
  targetsBoth: ['crm', 'github'],
  targetsUnknown: ['nope'],
  targetsTwice: ['crm', 'crm'],
  targetsEmpty: [],
  targetsMany: Array.from({ length: 40 }, (_, i) => `t${i}`),
  selectorsCrm: { crm: { authType: 'api_key' } },
  selectorsUnknownTarget: { github: { authType: 'api_key' } },
  selectorsBad: { crm: { authType: 'password' } },
  paginationCrm: { crm: { maxPages: 1 } },
  paginationFlat: { maxPages: 1 },
  idempotencyKey: 'key',
  idempotencyEmpty: '',
  idempotencyLong: 'k'.repeat(201),
  idempotencyControl: 'k\u0007',
  idempotencyNumber: 7,
};

const SELECTOR_VALUES = ['api_key', 'oauth2', 'password', '', 'API_KEY', 'u_1', 'x'.repeat(5_000), 'nul\u0000', 'ünï 😀'];
const MAX_PAGES = [0, -1, 1, 2, 19, 20, 21, 2_147_483_647, -2_147_483_648, undefined];
const VERSION_IDS = ['', 'ver_bad', 'ver_00000000000000000000000000', 'ver_0000000000000000000000000I', 'VER_00000000000000000000000000', 'x'.repeat(10_000), 'ver_\u0000', 'ver_😀', ' ver'];
const OPERATIONS = [
  '',
  'demo-crm.nope',
  'demo-crm.deals/list',
  'demo-crm.contacts/list ',
  'DEMO-CRM.contacts/get',
  'unified.nope',
  'unified.people.list',
  'github.issues/create',
  '.',
  'demo-crm.',
  'unified.',
  `demo-crm.${'x'.repeat(400)}`,
  'demo-crm.contacts/get\u0000',
  'demo-crm.contacts/get\ud800',
  'demo-crm.contacts/../get',
];

/** Keys made unique per call, so that no Unified call replays another's stored result. */
let keyCounter = 0;
const uniqueKeys = (input: unknown): unknown => {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const key = (input as { idempotencyKey?: unknown }).idempotencyKey;
  if (typeof key !== 'string' || key.length === 0 || key.length > 180 || /[\u0000-\u001f]/.test(key)) return input;
  return { ...input, idempotencyKey: `${key}-${++keyCounter}` };
};

function fieldCases(): fc.Arbitrary<Case> {
  const kinds: { arbitrary: fc.Arbitrary<Case>; weight: number }[] = [];
  const base = fc.constantFrom(...BASES);
  kinds.push({ arbitrary: base.map((b) => ({ what: `valid ${b.name}`, request: () => requestOf(b, {}, uniqueKeys(b.input)), auth: 'valid', valid: true })), weight: 2 });
  kinds.push({
    arbitrary: fc.tuple(base, fc.constantFrom(...VERSION_IDS, 'other')).map(([b, v]) => ({
      what: `${b.name}: version_id ← ${v.slice(0, 40)}`,
      request: () => requestOf(b, { versionId: v === 'other' ? fx.otherVersionId : v }),
      auth: 'valid',
      fields: ['version_id'],
    })),
    weight: 3,
  });
  kinds.push({
    arbitrary: fc.tuple(base, fc.constantFrom(...OPERATIONS, ...BASES.map((x) => x.operation))).map(([b, op]) => ({
      what: `${b.name}: operation ← ${op.slice(0, 40)}`,
      request: () => requestOf(b, { operation: op, ...(op.startsWith('unified.') ? { pagination: undefined } : {}) }),
      auth: 'valid',
      fields: ['operation', 'input_json', 'input', 'targets', 'params', 'pagination', 'body'],
    })),
    weight: 3,
  });
  kinds.push({
    arbitrary: fc
      .tuple(base, fc.constantFrom(...Object.keys(INPUT_VALUES)))
      .chain(([b, value]) => fc.constantFrom(...paths(b.input)).map((path) => [b, value, path] as const))
      .map(([b, value, path]) => {
        const replacement = INPUT_VALUES[value];
        const named = replacement === DELETE && typeof path.at(-1) === 'number' ? path.slice(0, -1) : path;
        return { what: `${b.name}: input_json ${path.join('.')} ← ${value}`, request: () => requestOf(b, {}, uniqueKeys(mutate(b.input, path, replacement))), auth: 'valid' as Auth, fields: inputFields(b, named) };
      }),
    weight: 8,
  });
  kinds.push({
    // What the provider answers: its errors, a dropped connection, the credential echoed back, a body that is not JSON.
    arbitrary: fc.constantFrom('con_missing', 'con_boom', 'con_reset', 'con_echo', 'con_notjson').map((id) => ({
      what: `get: the provider's ${id}`,
      request: () => requestOf(BASES[0]!, {}, { contact_id: id }),
      auth: 'valid' as Auth,
    })),
    weight: 1,
  });
  kinds.push({
    arbitrary: fc.tuple(base, fc.constantFrom(...Object.keys(INPUT_TEXTS))).map(([b, name]) => ({
      what: `${b.name}: input_json text ${name}`,
      request: () => requestOf(b, { inputJson: INPUT_TEXTS[name]! }),
      auth: 'valid',
      // A Unified call's input_json is its params: an empty one lacks targets.
      fields: b.unified ? ['input_json', 'input', 'targets', 'params'] : ['input_json', 'input'],
      ...(name === 'pastReceiveLimit' ? { statuses: [GrpcStatus.RESOURCE_EXHAUSTED] } : {}),
      ...(name === 'justOverLimit' ? { status: 413 } : {}),
    })),
    weight: 4,
  });
  kinds.push({
    arbitrary: fc.tuple(base, fc.constantFrom(...MAX_PAGES)).map(([b, maxPages]) => ({
      what: `${b.name}: pagination.max_pages ← ${maxPages}`,
      request: () => requestOf(b, { pagination: maxPages === undefined ? {} : { maxPages } }),
      auth: 'valid',
      fields: ['pagination'],
    })),
    weight: 3,
  });
  kinds.push({
    arbitrary: fc.tuple(base, fc.constantFrom('endUserRef', 'authType', 'authName', 'resourceId'), fc.constantFrom(...SELECTOR_VALUES)).map(([b, key, value]) => ({
      what: `${b.name}: selectors.${key} ← ${value.slice(0, 20)}`,
      request: () => requestOf(b, { selectors: { [key]: value } }),
      auth: 'valid',
      fields: ['selectors'],
    })),
    weight: 3,
  });
  kinds.push({
    arbitrary: base.map((b) => ({ what: `${b.name}: selectors {}`, request: () => requestOf(b, { selectors: {} }), auth: 'valid', fields: ['selectors'] })),
    weight: 1,
  });
  const unified = BASES.find((b) => b.unified)!;
  kinds.push({
    arbitrary: fc.constantFrom(...Object.keys(UNIFIED_EXTRAS)).map((name) => {
      const key = name.startsWith('targets') ? 'targets' : name.startsWith('selectors') ? 'selectors' : name.startsWith('pagination') ? 'pagination' : 'idempotencyKey';
      const params = { ...(unified.input as Record<string, Json>), [key]: UNIFIED_EXTRAS[name] as Json };
      return { what: `unified: ${key} ← ${name}`, request: () => requestOf(unified, {}, uniqueKeys(params)), auth: 'valid' as Auth, fields: ['input_json', key] };
    }),
    weight: 3,
  });
  return fc.oneof(...kinds);
}

// ---------------------------------------------------------------------------------------------
// Protobuf bytes that are not (quite) an ExecuteRequest.

const tag = (field: number, wire: number) => new BinaryWriter().uint32(field * 8 + wire).finish();
const varint = (n: bigint) => {
  const out: number[] = [];
  let v = BigInt.asUintN(64, n);
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? b | 0x80 : b);
  } while (v);
  return Buffer.from(out);
};
const bytesField = (field: number, payload: Buffer, length = payload.length) => Buffer.concat([tag(field, 2), varint(BigInt(length)), payload]);
const cat = (...parts: (Buffer | Uint8Array)[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));
const INVALID_UTF8 = [Buffer.from([0xc3, 0x28]), Buffer.from([0xff]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf0, 0x9f, 0x98]), Buffer.from([0xc0, 0xaf])];

/** Suffixes appended to a valid message, and whether the result can still be a valid message. */
const WIRE_SUFFIXES: Record<string, () => Buffer> = {
  tagVarintCut: () => Buffer.from([0xff]),
  tagVarintLong: () => Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
  fieldZero: () => Buffer.from([0x00, 0x01]),
  wireType6: () => cat(tag(1, 6)),
  wireType7: () => cat(tag(9, 7), Buffer.from([1])),
  versionAsVarint: () => cat(tag(1, 0), Buffer.from([1])),
  operationAs32bit: () => cat(tag(2, 5), Buffer.alloc(4)),
  inputAs64bit: () => cat(tag(3, 1), Buffer.alloc(8)),
  paginationAsVarint: () => cat(tag(4, 0), Buffer.from([2])),
  selectorsAsStartGroup: () => cat(tag(5, 3), tag(5, 4)),
  maxPagesAsBytes: () => bytesField(4, cat(bytesField(1, Buffer.from('2')))),
  maxPagesOverlong: () => bytesField(4, cat(tag(1, 0), Buffer.from([0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]))),
  maxPagesHuge: () => bytesField(4, cat(tag(1, 0), varint(1n << 40n))),
  maxPagesNegative64: () => bytesField(4, cat(tag(1, 0), varint(-5n))),
  authTypeAsVarint: () => bytesField(5, cat(tag(2, 0), Buffer.from([1]))),
  lengthPastEnd: () => cat(tag(3, 2), Buffer.from([10, 0x7b])),
  length2GiB: () => cat(tag(3, 2), varint(0x8000_0000n), Buffer.from('{}')),
  length4GiB: () => cat(tag(2, 2), varint(0xffff_ffffn), Buffer.from('x')),
  length2pow35: () => cat(tag(1, 2), varint(1n << 35n), Buffer.from('x')),
  nestedPastMessage: () => cat(tag(5, 2), Buffer.from([9]), tag(1, 2), Buffer.from([0])),
  nestedCut: () => bytesField(4, cat(tag(1, 0), Buffer.from([0xff]))),
  unknownVarint: () => cat(tag(9, 0), varint(123n)),
  unknownBytes: () => bytesField(15, Buffer.from('from a newer client')),
  unknown64: () => cat(tag(10, 1), Buffer.alloc(8, 0xab)),
  unknown32: () => cat(tag(11, 5), Buffer.alloc(4, 0xcd)),
  unknownGroup: () => cat(tag(12, 3), tag(1, 0), Buffer.from([1]), tag(12, 4)),
  unknownGroupUnclosed: () => cat(tag(12, 3), tag(1, 0), Buffer.from([1])),
  unknownHighField: () => cat(tag(536_870_911, 0), Buffer.from([1])),
  unknownNestedInSelectors: () => bytesField(5, cat(tag(7, 0), Buffer.from([1]))),
  duplicateVersion: () => bytesField(1, Buffer.from(fx.versionId)),
  duplicateVersionBad: () => bytesField(1, Buffer.from('ver_bad')),
  duplicateOperation: () => bytesField(2, Buffer.from('demo-crm.deals/list')),
  duplicateInput: () => bytesField(3, Buffer.from('{"contact_id":"con_2"}')),
  duplicatePagination: () => bytesField(4, cat(tag(1, 0), Buffer.from([3]))),
  duplicateSelectors: () => cat(bytesField(5, bytesField(2, Buffer.from('api_key'))), bytesField(5, bytesField(3, Buffer.from('oauth')))),
  emptyPagination: () => bytesField(4, Buffer.alloc(0)),
  emptySelectors: () => bytesField(5, Buffer.alloc(0)),
  versionInvalidUtf8: () => bytesField(1, INVALID_UTF8[0]!),
  operationInvalidUtf8: () => bytesField(2, cat(Buffer.from('demo-crm.'), INVALID_UTF8[2]!)),
  inputInvalidUtf8: () => bytesField(3, cat(Buffer.from('{"contact_id":"'), INVALID_UTF8[1]!, Buffer.from('"}'))),
  inputOverlongUtf8: () => bytesField(3, cat(Buffer.from('{"contact_id":"con_1'), INVALID_UTF8[4]!, Buffer.from('"}'))),
  endUserRefInvalidUtf8: () => bytesField(5, bytesField(1, INVALID_UTF8[3]!)),
  authTypeInvalidUtf8: () => bytesField(5, bytesField(2, INVALID_UTF8[2]!)),
};

function wireCases(): fc.Arbitrary<Case> {
  const base = fc.constantFrom(...BASES.filter((b) => !b.unified));
  const undecodable = { auth: 'valid' as Auth, statuses: [GrpcStatus.INVALID_ARGUMENT] };
  return fc.oneof(
    {
      arbitrary: fc.tuple(base, fc.constantFrom(...Object.keys(WIRE_SUFFIXES))).map(([b, name]) => ({ what: `${b.name} + ${name}`, bytes: () => cat(messageOf(b), WIRE_SUFFIXES[name]!()), ...undecodable })),
      weight: 6,
    },
    {
      arbitrary: fc.tuple(base, fc.constantFrom(...Object.keys(WIRE_SUFFIXES))).map(([b, name]) => ({ what: `${name} + ${b.name}`, bytes: () => cat(WIRE_SUFFIXES[name]!(), messageOf(b)), ...undecodable })),
      weight: 2,
    },
    {
      // Cut anywhere: at a field boundary it is a valid message missing fields (an envelope), else INVALID_ARGUMENT.
      arbitrary: fc.tuple(base, fc.double({ min: 0, max: 1, noNaN: true })).map(([b, at]) => ({ what: `${b.name} cut at ${at.toFixed(3)}`, bytes: () => messageOf(b).subarray(0, Math.floor(messageOf(b).length * at)), ...undecodable })),
      weight: 2,
    },
    {
      arbitrary: fc.tuple(base, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([b, at, value]) => ({
        what: `${b.name} byte ${at} ← ${value}`,
        bytes: () => {
          const m = Buffer.from(messageOf(b));
          m[at % m.length] = value;
          return m;
        },
        ...undecodable,
      })),
      weight: 3,
    },
    { arbitrary: fc.uint8Array({ maxLength: 64 }).map((a) => ({ what: `random bytes ${Buffer.from(a).toString('hex')}`, bytes: () => Buffer.from(a), ...undecodable })), weight: 2 },
    { arbitrary: fc.constant<Case>({ what: 'empty message', bytes: () => Buffer.alloc(0), auth: 'valid', fields: ['version_id'] }), weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------
// Metadata, deadlines and cancellation, around the valid requests.

const DEADLINES: Deadline[] = ['passed', 'tiny', 'short', 'long', 'thirtyDays', 'infinite'];

function callCases(): fc.Arbitrary<Case> {
  const base = fc.constantFrom(...BASES);
  return fc.oneof(
    {
      arbitrary: fc.tuple(base, fc.constantFrom(...AUTHS)).map(([b, auth]) => ({
        what: `${b.name} with ${auth}`,
        bytes: () => messageOf(b, {}, uniqueKeys(b.input)),
        auth,
        ...(ACCEPTED.has(auth) ? { valid: true } : { status: 401 }),
      })),
      weight: 5,
    },
    {
      arbitrary: fc.tuple(base, fc.constantFrom(...DEADLINES)).map(([b, deadline]) => ({
        what: `${b.name} with deadline ${deadline}`,
        bytes: () => messageOf(b, {}, uniqueKeys(b.input)),
        auth: 'valid' as Auth,
        deadline,
        // A deadline of hours or days, or none, is no reason to fail a call that takes milliseconds.
        ...(deadline === 'long' || deadline === 'thirtyDays' || deadline === 'infinite' ? { valid: true } : {}),
      })),
      weight: 3,
    },
    {
      arbitrary: fc.tuple(fc.constantFrom<Deadline>('tiny', 'short'), fc.nat({ max: 9999 })).map(([deadline, n]) => {
        const slow = `con_slow${n}d`;
        return { what: `slow call with deadline ${deadline}`, bytes: () => messageOf(BASES[0]!, { inputJson: JSON.stringify({ contact_id: slow }) }), auth: 'valid' as Auth, deadline, slow };
      }),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(fc.integer({ min: 0, max: 250 }), fc.nat({ max: 9999 })).map(([cancelAfterMs, n]) => {
        const slow = `con_slow${n}c${cancelAfterMs}`;
        return { what: `slow call cancelled after ${cancelAfterMs} ms`, bytes: () => messageOf(BASES[0]!, { inputJson: JSON.stringify({ contact_id: slow }) }), auth: 'valid' as Auth, cancelAfterMs, slow };
      }),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(base, fc.integer({ min: 0, max: 30 })).map(([b, cancelAfterMs]) => ({
        what: `${b.name} cancelled after ${cancelAfterMs} ms`,
        bytes: () => messageOf(b, {}, uniqueKeys(b.input)),
        auth: 'valid' as Auth,
        cancelAfterMs,
      })),
      weight: 1,
    },
  );
}

// ---------------------------------------------------------------------------------------------
// What grpc-js would not send: headers and framing over a bare HTTP/2 stream.

/** Stands for the SDK token in a header value (known once the Engine runs). */
const TOKEN = '<token>';
const LIBRARY_STATUS = 'https://grpc.io/docs/guides/status-codes ("generated by the gRPC libraries")';
/**
 * One change each to the headers or the gRPC framing of a valid call. Statuses other than OK are the
 * ones gRPC's status-code table has the server library generate for that case (LIBRARY_STATUS).
 */
const H2_CASES: Record<string, Pick<Case, 'valid' | 'status' | 'statuses' | 'h2'>> = {
  plain: { valid: true, h2: { headers: {} } },
  contentTypeProto: { valid: true, h2: { headers: { 'content-type': 'application/grpc+proto' } } },
  // grpc-js reads grpc-timeout as 32-bit milliseconds: past 24.8 days it wrapped round (a 30-day deadline ended the call at once).
  timeout30Days: { valid: true, h2: { headers: { 'grpc-timeout': '2592000S' } } },
  timeoutMaxHours: { valid: true, h2: { headers: { 'grpc-timeout': '99999999H' } } },
  timeout25Days: { valid: true, h2: { headers: { 'grpc-timeout': '600H' } } },
  timeout24Days: { valid: true, h2: { headers: { 'grpc-timeout': '576H' } } },
  timeoutSpaced: { valid: true, h2: { headers: { 'grpc-timeout': '5 S' } } },
  timeoutNanosecond: { statuses: [GrpcStatus.DEADLINE_EXCEEDED], h2: { headers: { 'grpc-timeout': '1n' } } },
  timeoutZero: { statuses: [GrpcStatus.DEADLINE_EXCEEDED], h2: { headers: { 'grpc-timeout': '0m' } } },
  timeoutOneMs: { statuses: [GrpcStatus.DEADLINE_EXCEEDED], h2: { headers: { 'grpc-timeout': '1m' } } },
  // grpc-js refuses the entry and logs it (src/grpc grpcLogText withholds the value: the token).
  authNonAscii: { status: 401, h2: { headers: { authorization: `Bearer ${TOKEN}\u00e9` } } },
  authNoScheme: { status: 401, h2: { headers: { authorization: TOKEN } } },
  authEmpty: { status: 401, h2: { headers: { authorization: '' } } },
  gzip: { valid: true, h2: { headers: { 'grpc-encoding': 'gzip' }, body: (m) => frame(gzipSync(m), { compressed: true }) } },
  deflate: { valid: true, h2: { headers: { 'grpc-encoding': 'deflate' }, body: (m) => frame(deflateSync(m), { compressed: true }) } },
  compressedIdentity: { valid: true, h2: { headers: {}, body: (m) => frame(m, { compressed: true }) } },
  // LIBRARY_STATUS: "Could not decompress, but compression algorithm supported (Client -> Server)": INTERNAL.
  gzipGarbage: { statuses: [GrpcStatus.INTERNAL], h2: { headers: { 'grpc-encoding': 'gzip' }, body: (m) => frame(m, { compressed: true }) } },
  // LIBRARY_STATUS: "Compression mechanism used by client not supported at the server": UNIMPLEMENTED.
  unsupportedEncoding: { statuses: [GrpcStatus.UNIMPLEMENTED], h2: { headers: { 'grpc-encoding': 'br' }, body: (m) => frame(m, { compressed: true }) } },
  gzipBomb: { statuses: [GrpcStatus.RESOURCE_EXHAUSTED], h2: { headers: { 'grpc-encoding': 'gzip' }, body: () => frame(gzipSync(Buffer.alloc(64 * 1024 * 1024)), { compressed: true }) } },
  // LIBRARY_STATUS: "Request cardinality violation (method requires exactly one request but client sent some other number of requests)": UNIMPLEMENTED.
  twoMessages: { statuses: [GrpcStatus.UNIMPLEMENTED], h2: { headers: {}, body: (m) => Buffer.concat([frame(m), frame(m)]) } },
  noMessage: { statuses: [GrpcStatus.UNIMPLEMENTED], h2: { headers: {}, body: () => Buffer.alloc(0) } },
  frameHeaderCut: { statuses: [GrpcStatus.UNIMPLEMENTED], h2: { headers: {}, body: (m) => frame(m).subarray(0, 3) } },
  lengthPrefixPastData: { statuses: [GrpcStatus.UNIMPLEMENTED], h2: { headers: {}, body: (m) => frame(m, { length: m.length + 100 }) } },
  trailingPartialFrame: { statuses: [GrpcStatus.UNIMPLEMENTED], h2: { headers: {}, body: (m) => Buffer.concat([frame(m), Buffer.from([0, 0])]) } },
  // LIBRARY_STATUS: "Sent or received message was larger than configured limit": RESOURCE_EXHAUSTED.
  lengthPrefixHuge: { statuses: [GrpcStatus.RESOURCE_EXHAUSTED], h2: { headers: {}, body: (m) => frame(m, { length: 0xffff_ffff }) } },
  emptyMessage: { status: 400, h2: { headers: {}, body: () => frame(Buffer.alloc(0)) } },
};

function h2Cases(): fc.Arbitrary<Case> {
  return fc.tuple(fc.constantFrom(...BASES), fc.constantFrom(...Object.keys(H2_CASES))).map(([b, name]) => ({
    what: `${b.name} over HTTP/2 with ${name}`,
    bytes: () => messageOf(b, {}, uniqueKeys(b.input)),
    auth: 'valid' as Auth,
    ...H2_CASES[name]!,
  }));
}

// ---------------------------------------------------------------------------------------------
// The properties.

const CODE_NAMES = Object.fromEntries(Object.entries(GrpcStatus).map(([name, code]) => [code, name]));
const PROVIDER_EXECUTION = new Set(['not_started', 'unknown', 'completed']);
const UNDECODABLE = /^the request is not a valid svc\.engine\.v1\.ExecuteRequest message: (version_id|operation|input_json|pagination|selectors|a tag|field \d+)\b.* at byte \d+$/;

const canaries = () => [SECRET, GITHUB_SECRET, ...t.canaries];

interface Outcome {
  sent: Sent;
  /** Provider requests received in full during the call; undefined when other calls ran alongside. */
  providerRequests: number | undefined;
  /** Bytes the provider received during the call, whole requests or not; undefined when other calls ran alongside. */
  providerBytes: number | undefined;
  logs: string;
  envelope?: PlainEnvelope;
  /** The same request over REST, where it has a twin (restTwin). */
  rest?: { status: number; text: string; envelope: PlainEnvelope };
}

type PlainEnvelope = { ok: boolean; status: number; data: unknown; error?: { code: string; message: string; retryable: boolean; details?: any; recovery?: any } | null; continuation?: unknown };

async function sendRest(body: string): Promise<NonNullable<Outcome['rest']>> {
  const res = await fetch(`${t.url}/v1/apps/${fx.versionId}/executions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.token}`, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(HANG_MS),
  });
  const text = await res.text();
  return { status: res.status, text, envelope: JSON.parse(text) as PlainEnvelope };
}

async function run(c: Case, alongside = false): Promise<Outcome> {
  const logsFrom = t.logs.length;
  const requestsFrom = provider.requests.length;
  const bytesFrom = provider.bytesReceived;
  const req = c.request?.();
  const bytes = req ? encode(req) : c.bytes!();
  const sent = c.h2
    ? await sendH2({
        what: c.what,
        headers: Object.fromEntries(Object.entries({ authorization: `Bearer ${TOKEN}`, ...c.h2.headers }).map(([k, v]) => [k, v.replace(TOKEN, fx.token)])),
        body: (c.h2.body ?? frame)(bytes),
      })
    : await sendGrpc(bytes, c.auth, c.deadline, c.cancelAfterMs);
  if (c.cancelAfterMs !== undefined || c.deadline !== undefined) {
    // The Engine may still be finishing the call it was told to drop: let it, so the next case counts only its own requests.
    await new Promise((r) => setTimeout(r, 30));
  }
  const outcome: Outcome = {
    sent,
    providerRequests: alongside ? undefined : provider.requests.length - requestsFrom,
    providerBytes: alongside ? undefined : provider.bytesReceived - bytesFrom,
    logs: t.logs.slice(logsFrom).join(''),
  };
  if (sent.code === GrpcStatus.OK && sent.reply) {
    const w = WireEnvelope.decode(sent.reply);
    outcome.envelope = {
      ok: w.ok,
      status: w.status,
      data: JSON.parse(w.dataJson),
      ...(w.error
        ? {
            error: {
              code: w.error.code,
              message: w.error.message,
              retryable: w.error.retryable,
              details: w.error.detailsJson === undefined ? undefined : JSON.parse(w.error.detailsJson),
              recovery: w.error.recoveryJson === undefined ? undefined : JSON.parse(w.error.recoveryJson),
            },
          }
        : {}),
      ...(w.continuationJson !== undefined ? { continuation: JSON.parse(w.continuationJson) } : {}),
    };
    const twin = req && ACCEPTED.has(c.auth) && !c.deadline && c.cancelAfterMs === undefined ? restTwin(req) : undefined;
    if (twin !== undefined) outcome.rest = await sendRest(twin);
  }
  return outcome;
}

function check(c: Case, o: Outcome): void {
  const { sent, envelope } = o;
  const where = `[${c.what}] → ${CODE_NAMES[sent.code] ?? sent.code} ${sent.details.slice(0, 300)}${envelope ? ` ${JSON.stringify(envelope).slice(0, 400)}` : ''}`;
  const fail = (why: string): never => {
    throw new Error(`${why}\n  ${where}`);
  };

  // Nothing secret anywhere the caller or an operator can read.
  const leaked = canaries().filter((s) => sent.details.includes(s) || sent.metadata.includes(s) || (sent.reply && sent.reply.toString('latin1').includes(s)));
  if (leaked.length) fail('a canary in the reply, its details or its metadata');
  if (canaries().some((s) => o.logs.includes(s))) fail('a canary in a log line');

  if (sent.code !== GrpcStatus.OK) {
    const allowed = new Set(c.statuses ?? []);
    // Only where gRPC's own status-code table has the library answer INTERNAL (H2_CASES cites the line).
    if ((sent.code === GrpcStatus.INTERNAL || sent.code === GrpcStatus.UNKNOWN) && !allowed.has(sent.code)) fail('INTERNAL or UNKNOWN for what the caller sent');
    if (c.deadline && !c.valid) allowed.add(GrpcStatus.DEADLINE_EXCEEDED);
    if (c.cancelAfterMs !== undefined) allowed.add(GrpcStatus.CANCELLED);
    if (!allowed.has(sent.code)) fail(`gRPC status ${CODE_NAMES[sent.code]}: spec/engine.proto answers everything that reaches the execution with an envelope`);
    if (sent.code === GrpcStatus.INVALID_ARGUMENT) {
      if (!UNDECODABLE.test(sent.details)) fail('an INVALID_ARGUMENT that does not name the field at fault and where');
      if (o.providerBytes) fail('an undecodable message reached the provider');
    }
    if (sent.code === GrpcStatus.RESOURCE_EXHAUSTED && o.providerBytes) fail('a message past the receive limit reached the provider');
    return;
  }
  if (!envelope) return void fail('status OK without a reply');

  const e = envelope.error;
  // README "Pagination": a bound that stopped a traversal early says so, { more: true, input?: { … } }.
  const continuation = envelope.continuation as { more?: unknown; input?: unknown } | undefined;
  if (continuation !== undefined && (continuation.more !== true || Object.keys(continuation).some((k) => k !== 'more' && k !== 'input') || (continuation.input !== undefined && !isObject(continuation.input)))) {
    fail('a continuation that is not { more: true, input?: {…} }');
  }
  if (envelope.ok) {
    if (e) fail('ok with an error');
    if (envelope.status < 200 || envelope.status >= 300) fail('ok with a status other than 2xx');
  } else {
    if (!e || typeof e.code !== 'string' || !e.code || typeof e.message !== 'string' || !e.message) return void fail('ok: false without error.code and error.message');
    // README "Read the envelope": every Engine code carries error.details.provider_execution; PROVIDER_ERROR
    // carries none ("the provider received the request and answered").
    if (e.code === 'PROVIDER_ERROR') {
      // (bytes, not whole requests: a provider's HTTP server may answer one it would not read, 431 for a URL too long)
      if (o.providerBytes === 0) fail('PROVIDER_ERROR although the provider received nothing');
    } else {
      const execution = e.details?.provider_execution;
      if (!PROVIDER_EXECUTION.has(execution)) fail('an error envelope without details.provider_execution');
      if (o.providerBytes === 0 && execution !== 'not_started') fail(`provider_execution '${execution}' although the provider received nothing`);
    }
    // The REST table: an Engine code carries its own status (the HTTP status REST answers with).
    const engineStatus = (ENGINE_STATUS as Record<string, number>)[e.code];
    if (engineStatus !== undefined && envelope.status !== engineStatus) fail(`${e.code} with status ${envelope.status}, not ${engineStatus}`);
    // A 500 is the provider's own (PROVIDER_ERROR; a Unified step's), never the Engine failing on what the caller sent.
    const providers500 = e.code === 'PROVIDER_ERROR' || (e.code === 'UNIFIED_STEP_FAILED' && o.providerBytes !== 0);
    if (e.code === 'ENGINE_INTERNAL' || (envelope.status === 500 && !providers500)) fail('a 500 for what the caller sent');
    if (envelope.status === 400 && (e.code === 'ENGINE_INVALID_INPUT' || e.code === 'ENGINE_PAGINATION_INVALID') && c.fields) {
      const named = String(e.details?.field ?? '');
      // A key a Unified call does not take is named as the key itself (it sits inside input_json).
      const unknownUnifiedKey = e.message === `unknown key '${named}' in a Unified call`;
      if (!unknownUnifiedKey && !c.fields.some((f) => named === f || named.startsWith(`${f}.`) || named.startsWith(`${f} `))) fail(`a 400 naming '${named}', not ${c.fields.join(' or ')}`);
    }
  }
  if (o.rest) {
    // The REST twin: the same answer (README "Read the envelope": HTTP 200 when the provider answered, else the envelope's status).
    const r = o.rest.envelope;
    if (canaries().some((s) => o.rest!.text.includes(s))) fail('a canary in the REST twin’s answer');
    if (o.rest.status !== (r.status >= 200 && r.status < 300 ? r.status : r.error?.code === 'PROVIDER_ERROR' ? 200 : r.status) && o.rest.status !== 200) fail(`REST answered HTTP ${o.rest.status} with envelope status ${r.status}`);
    // Timings aside (a Unified step's providerDurationMs).
    const gist = (x: PlainEnvelope) => JSON.stringify({ ok: x.ok, status: x.status, code: x.error?.code ?? null, continuation: x.continuation ?? null, data: x.ok ? x.data : null }, (k, v: unknown) => (k === 'providerDurationMs' ? undefined : v));
    const [viaGrpc, viaRest] = [gist(envelope), gist(r)];
    if (viaGrpc !== viaRest) fail(`gRPC and REST disagree: ${viaGrpc.slice(0, 300)} vs REST ${o.rest.status} ${viaRest.slice(0, 300)}`);
  }
  if (c.status !== undefined && envelope.status !== c.status) fail(`status ${envelope.status}, not ${c.status}`);
  if (c.status === 401 && e?.code !== 'ENGINE_UNAUTHENTICATED') fail('a refused credential that is not ENGINE_UNAUTHENTICATED');
  if (c.valid && !envelope.ok) fail('the valid request failed');
}

/** A good call answers, and succeeds. */
async function healthy(): Promise<void> {
  const o = await run({ what: 'good call', bytes: () => messageOf(BASES[0]!), auth: 'valid', valid: true });
  check({ what: 'good call', bytes: () => Buffer.alloc(0), auth: 'valid', valid: true }, o);
  expect(o.envelope).toMatchObject({ ok: true, status: 200, data: { id: 'con_1' } });
}

/** Answers seen in the current fuzz run, by what they were (`INVALID_ARGUMENT`, `400 ENGINE_INVALID_INPUT`, …), with an example case each. */
let seen = new Map<string, { count: number; example: string }>();
const answerOf = (o: Outcome) => (o.sent.code !== GrpcStatus.OK ? (CODE_NAMES[o.sent.code] ?? String(o.sent.code)) : `${o.envelope?.status} ${o.envelope?.error?.code ?? 'ok'}`);

function tally(c: Case, o: Outcome): void {
  const answer = answerOf(o);
  const entry = seen.get(answer);
  if (entry) entry.count++;
  else seen.set(answer, { count: 1, example: c.what });
}

/** Cases run all at once: none may hang, fail another, or stop the Engine serving. */
async function runTogether(cases: Case[]): Promise<void> {
  const outcomes = await Promise.all(cases.map((c) => run(c, true)));
  cases.forEach((c, i) => {
    tally(c, outcomes[i]!);
    check(c, outcomes[i]!);
  });
  await healthy();
}

async function runCase(c: Case): Promise<void> {
  const o = await run(c);
  tally(c, o);
  check(c, o);
  if (c.slow && o.providerRequests) {
    // README: a cancelled call or a passed deadline cancels the provider request in flight (within about 100 ms).
    await expect.poll(() => aborted.has(c.slow!), { timeout: 2_000, interval: 20 }).toBe(true);
  }
  await healthy();
}

/**
 * Runs the property over `numRuns` cases of `arbitrary`, then checks the run reached each answer in
 * `reached` (a fuzz that never gets past the first check proves nothing). FUZZ_VERBOSE=1 prints what it saw.
 */
async function fuzz<T>(name: string, arbitrary: fc.Arbitrary<T>, numRuns: number, reached: string[], runOne: (c: T) => Promise<void>): Promise<void> {
  const seed = SEED + [...name].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) | 0, 0);
  seen = new Map();
  const result = await fc.check(fc.asyncProperty(arbitrary, runOne), { seed, numRuns, endOnFailure: false });
  await healthy();
  if (process.env.FUZZ_VERBOSE) console.log(`${name}:\n${[...seen].map(([answer, { count, example }]) => `  ${String(count).padStart(5)} ${answer}  (e.g. ${example})`).join('\n')}`);
  if (result.failed) {
    const [c] = result.counterexample ?? [];
    const why = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
    const what = Array.isArray(c) ? c.map((x: Case) => x.what).join(' | ') : (c as Case | undefined)?.what;
    throw new Error(`seed ${seed} (FUZZ_SEED=${SEED}), path ${result.counterexamplePath}, after ${result.numRuns} runs (${result.numShrinks} shrinks)\n${why}\ncounterexample: ${what}`);
  }
  if (SCALE >= 1 && reached.length) expect([...seen.keys()], `answers the ${name} fuzz reached`).toEqual(expect.arrayContaining(reached));
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  provider = await startFakeProvider(handle);
  t = await startTestEngine({ SVC_GRPC_PORT: '0', SVC_PROVIDER_TIMEOUT_MS: '10000' });
  for (const [service, secret] of [
    ['demo-crm', SECRET],
    ['github', GITHUB_SECRET],
  ] as const) {
    expect((await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1', baseUrl: provider.url })).status).toBe(200);
    expect((await t.api('PUT', `/v1/buckets/default/secrets/${service}`, { value: secret })).status).toBe(204);
  }
  const publish = async (name: string, operations: string[]) => {
    const res = await t.api('POST', '/v1/sdks/publish', { name, services: ['demo-crm=v1', 'github=v1'], operations });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    t.canaries.push(res.body.token);
    return res.body as { versionId: string; token: string };
  };
  const sdk = await publish(SDK_NAME, ['demo-crm=contacts/get', 'demo-crm=contacts/list', 'demo-crm=deals/create', 'unified=tasks.create']);
  const other = await publish(`${SDK_NAME}-other`, ['demo-crm=contacts/get']);
  const revoked = await t.engine.deps.tokens.issue('sdk', SDK_NAME);
  await t.engine.deps.tokens.revoke(revoked.row.id, ['sdk']);
  const mcp = await t.engine.deps.tokens.issue('mcp', SDK_NAME);
  t.canaries.push(revoked.token, mcp.token);
  Object.assign(fx, { versionId: sdk.versionId, token: sdk.token, otherVersionId: other.versionId, otherToken: other.token, revoked: revoked.token, mcp: mcp.token });
  const limit = t.engine.deps.config.maxRequestBytes;
  INPUT_TEXTS.justOverLimit = JSON.stringify({ contact_id: 'con_1', pad: 'x'.repeat(limit) });
  INPUT_TEXTS.pastReceiveLimit = JSON.stringify({ contact_id: 'con_1', pad: 'x'.repeat(limit * 4 + 128 * 1024) });
  client = new Client(t.engine.grpcUrl, credentials.createInsecure());
});

afterAll(async () => {
  client?.close();
  await t?.stop(); // fails if a canary reached a log line
  await provider?.stop();
});

// Shrunk counterexamples of the fuzz below, kept as plain cases.
describe('found by the fuzz', () => {
  const unified = BASES.find((b) => b.unified)!;

  it('names pagination.max_pages when its varint is longer than protobuf allows (was INVALID_ARGUMENT "invalid varint", naming nothing)', async () => {
    const o = await run({ what: 'overlong max_pages', bytes: () => cat(messageOf(BASES[1]!), WIRE_SUFFIXES.maxPagesOverlong!()), auth: 'valid' });
    expect(o.sent.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(o.sent.details).toMatch(/^the request is not a valid svc\.engine\.v1\.ExecuteRequest message: pagination\.max_pages \(field 1\) cannot be read \(invalid varint\), at byte \d+$/);
    expect(o.providerBytes).toBe(0);
  });

  it('takes a deadline past 24.8 days as none (grpc-js read it as 32-bit milliseconds: the call ended at once)', async () => {
    for (const b of BASES) {
      const viaGrpcJs = await run({ what: `${b.name}, 30-day deadline`, bytes: () => messageOf(b, {}, uniqueKeys(b.input)), auth: 'valid', deadline: 'thirtyDays' });
      expect(answerOf(viaGrpcJs), b.name).toMatch(/^20[01] ok$/);
      for (const timeout of ['2592000S', '600H', '99999999H']) {
        const raw = await run({ what: `${b.name}, grpc-timeout ${timeout}`, bytes: () => messageOf(b, {}, uniqueKeys(b.input)), auth: 'valid', h2: { headers: { 'grpc-timeout': timeout } } });
        expect(answerOf(raw), `${b.name} ${timeout}`).toMatch(/^20[01] ok$/);
      }
    }
  });

  it('names the field of a query parameter the provider request cannot carry (a lone surrogate: the 400 named no field)', async () => {
    const list = BASES[1]!;
    const o = await run({ what: 'lone surrogate in starting_after', request: () => requestOf(list, {}, { limit: 5, starting_after: 'lone\ud800' }), auth: 'valid' });
    for (const envelope of [o.envelope, o.rest?.envelope]) {
      expect(envelope).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'input.starting_after', provider_execution: 'not_started' } } });
    }
    expect(o.providerBytes).toBe(0);
  });

  it('ends a call whose deadline passed while it ran with DEADLINE_EXCEEDED, not an envelope about the work it stopped (a Unified call answered 500, its steps skipped)', async () => {
    for (const b of [unified, BASES[0]!, unified, BASES[2]!, unified]) {
      const o = await run({ what: `${b.name}, grpc-timeout 1n`, bytes: () => messageOf(b, {}, uniqueKeys(b.input)), auth: 'valid', h2: { headers: { 'grpc-timeout': '1n' } } });
      expect(answerOf(o), b.name).toBe('DEADLINE_EXCEEDED');
      expect(o.providerBytes, b.name).toBe(0);
    }
  });
});

describe('continuation', () => {
  it("reads on from a bounded call's continuation input, one page at a time, to the provider's last page", async () => {
    const list = BASES[1]!;
    const ids: string[] = [];
    let input: Record<string, Json> = { limit: 5 };
    for (let call = 0; call < 5; call++) {
      const o = await run({ what: `list page ${call + 1}`, request: () => requestOf(list, { pagination: { maxPages: 1 } }, input), auth: 'valid' });
      check({ what: 'continuation', auth: 'valid', valid: true }, o);
      ids.push(...(o.envelope!.data as { data: { id: string }[] }).data.map((c) => c.id));
      const continuation = o.envelope!.continuation as { more: true; input: Record<string, Json> } | undefined;
      if (!continuation) break;
      input = { ...input, ...continuation.input };
    }
    expect(ids).toEqual(['con_1', 'con_2', 'con_3']);
  });
});

/** Answers each fuzz must reach at FUZZ_RUNS ≥ 1 (what it ran into, not only what it refused). */
const REACHED = {
  fields: ['200 ok', '201 ok', '400 ENGINE_INVALID_INPUT', '400 ENGINE_PAGINATION_INVALID', '401 ENGINE_UNAUTHENTICATED', '403 ENGINE_FORBIDDEN_OPERATION', '404 ENGINE_UNKNOWN_OPERATION', '404 ENGINE_NOT_FOUND', '413 ENGINE_INPUT_TOO_LARGE', '404 PROVIDER_ERROR', '502 ENGINE_OUTCOME_UNKNOWN', 'RESOURCE_EXHAUSTED'],
  wire: ['INVALID_ARGUMENT', '200 ok', '400 ENGINE_INVALID_INPUT'],
  calls: ['200 ok', '401 ENGINE_UNAUTHENTICATED', 'CANCELLED', 'DEADLINE_EXCEEDED'],
  http2: ['200 ok', '401 ENGINE_UNAUTHENTICATED', 'DEADLINE_EXCEEDED', 'UNIMPLEMENTED', 'RESOURCE_EXHAUSTED', 'INTERNAL'],
  together: ['200 ok', 'INVALID_ARGUMENT'],
};

describe('gRPC Execute, fuzzed', () => {
  it('an ExecuteRequest with one field made wrong', () => fuzz('fields', fieldCases(), runs(1200), REACHED.fields, runCase), 120_000);
  it('protobuf bytes that are not a valid ExecuteRequest', () => fuzz('wire', wireCases(), runs(800), REACHED.wire, runCase), 120_000);
  it('metadata, deadlines and cancellation', () => fuzz('calls', callCases(), runs(300), REACHED.calls, runCase), 120_000);
  it('headers and framing grpc-js would not send', () => fuzz('http2', h2Cases(), runs(250), REACHED.http2, runCase), 120_000);
  it('all of these at once', () => {
    const batches = fc.array(fc.oneof(fieldCases(), wireCases(), callCases(), h2Cases()), { minLength: 2, maxLength: 12 });
    return fuzz('together', batches, runs(80), REACHED.together, runTogether);
  }, 120_000);
});
