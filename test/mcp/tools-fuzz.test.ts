// Property-based fuzz of the MCP server's two tools, search_docs and execute (interface: Tool
// `search_docs`, Tool `execute`, Errors, Limits, Recovery contract; docs/architecture.md, MCP results), through the official
// SDK client and, for what the client would not send, raw HTTP. A real Engine on loopback, a fake
// provider (a real HTTP server on 127.0.0.1) behind demo-crm and github, an MCP version with a
// paginated operation, mutations and a Unified operation, canaries planted.
//
// Every answer must be a JSON-RPC result or a precise JSON-RPC error: never -32603, a hang, an
// HTTP 5xx or a dropped connection. Arguments the tools' schemas refuse are refused as such. An
// `isError` answer carries a complete recovery contract with values from the interface's sets,
// `provider_execution: not_started` when the provider received nothing during the call and never
// when it received something; no provider request arrives after an execute has answered. Answers
// keep to the output budget rules (error text within 8 KiB, nothing model-facing over 64 KiB, big
// results become snapshots that next_request and session.page read); no canary (secret, token,
// session ID) reaches an answer or a log line; the session works after every case; the health
// endpoint answers at the end.
//
// FUZZ_SEED explores other seeds (and replays a reported one); FUZZ_RUNS scales the runs;
// FUZZ_DEBUG=1 prints each failure as it happens, before shrinking.
import fc from 'fast-check';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { openSession, rawMcp, type RawMcp } from '../fixtures/mcp.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_612);
const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const RUNS = {
  search: Math.round(500 * SCALE),
  executeArgs: Math.round(250 * SCALE),
  scripts: Math.round(550 * SCALE),
  echo: Math.round(120 * SCALE),
  raw: Math.round(160 * SCALE),
};
/** A tool call not answered within this is a hang (the execute budget below is 1.5 s). */
const CALL_TIMEOUT_MS = 15_000;
const EXECUTE_BUDGET_MS = 1_500;

const KIB = 1024;
const MODEL_FACING_LIMIT = 64 * KIB;
const ERROR_TEXT_CAP = 8 * KIB;
const DEFAULT_BUDGET = 16 * KIB;

// Interface, "Recovery contract (in error responses)".
const EXECUTE_REQUEST = new Set(['reformat_if_session_state_used', 'correct_arguments', 'adjust_projection', 'use_next_request', 'unchanged', 'do_not_replay']);
const PROVIDER_EXECUTION = new Set(['not_started', 'unknown']);
const RECOVERY_ACTION = new Set(['reinitialize_connection']);

const PROVIDER_SECRET = 'mcpfuzz-canary-provider-key-91e3a7';
const GITHUB_SECRET = 'mcpfuzz-canary-github-token-5c02fd';
const MCP_NAME = 'toolfuzz';

/** What the version selects (public IDs) and what the narrow token allows. */
const OPERATIONS = [
  'demo-crm.account/get',
  'demo-crm.contacts/list',
  'demo-crm.contacts/get',
  'demo-crm.contacts/create',
  'demo-crm.files/get',
  'demo-crm.tasks/create',
  'github.repos/get',
  'github.issues/create',
  'github.repos/list-for-org',
  'unified.tasks.create',
];
const NARROW_ALLOW = ['demo-crm.*', 'github.repos/*'];

// ---------------------------------------------------------------------------------------------
// The fake provider: counts every request the moment its head arrives (a request cut before its
// body still reached the provider).

interface Received {
  method: string;
  url: string;
}

const CONTACTS = Array.from({ length: 40 }, (_, i) => ({ id: `con_${i}`, name: `Contact ${i}`, email: `c${i}@example.test`, labels: { tier: 'gold' }, notes: 'n'.repeat(500), created_at: '2026-01-01T00:00:00Z' }));

function startProvider(): Promise<{ url: string; received: Received[]; stop(): Promise<void> }> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://provider');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/v1/account') return send(res, 200, { account: 'acct_fuzz', via: 'api_key' });
    if (path === '/v1/contacts') {
      if (method === 'POST') return send(res, 201, { ...CONTACTS[0], id: 'con_new' });
      const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit')) || 10));
      const after = url.searchParams.get('starting_after');
      const start = after ? CONTACTS.findIndex((c) => c.id === after) + 1 : 0;
      return send(res, 200, { data: CONTACTS.slice(start, start + limit), has_more: start + limit < CONTACTS.length });
    }
    const contact = path.match(/^\/v1\/contacts\/([^/]+)$/)?.[1];
    if (contact) {
      if (contact === 'con_reset') return void req.socket.destroy();
      if (contact === 'con_slow') return; // never answers: the Engine's provider timeout ends it
      if (contact === 'con_missing') return send(res, 404, { error: { type: 'not_found', message: 'no such contact' } });
      if (contact === 'con_500') return send(res, 500, { error: { type: 'internal', message: 'provider failed' } });
      if (contact === 'con_big') return send(res, 200, { ...CONTACTS[1], id: contact, notes: 'b'.repeat(200_000) });
      if (contact === 'con_huge') return send(res, 200, { ...CONTACTS[1], id: contact, notes: 'h'.repeat(1_200_000) });
      return send(res, 200, { ...CONTACTS[2], id: contact });
    }
    if (method === 'POST' && path === '/v1/tasks') return send(res, 201, { id: 'task_1', title: 'T', status: 'open', created_at: '2026-01-01T00:00:00Z' });
    if (method === 'GET' && path.startsWith('/v1/files/')) return send(res, 200, { name: decodeURIComponent(path.slice('/v1/files/'.length)), size: 3, content: 'abc' });
    if (method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/issues$/.test(path)) return send(res, 201, { number: 7, html_url: 'https://example.test/issues/7', title: 'x' });
    if (method === 'GET' && /^\/repos\/[^/]+\/[^/]+$/.test(path)) return send(res, 200, { id: 1, name: 'r', full_name: 'o/r', private: false });
    if (method === 'GET' && /^\/orgs\/[^/]+\/repos$/.test(path)) return send(res, 200, Array.from({ length: 3 }, (_, i) => ({ id: i, name: `r${i}` })));
    send(res, 404, { message: 'Not Found' });
  };
  const server = createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '' });
    req.on('error', () => undefined);
    req.resume();
    req.on('end', () => answer(req, res));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        received,
        stop: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Connections: the official SDK client, with every HTTP answer it receives recorded (status and
// body) so a 5xx or a canary is seen even where the client would hide it.

interface HttpSeen {
  method: string;
  status: number;
  text: string;
}

interface Conn {
  label: string;
  client: Client;
  transport: StreamableHTTPClientTransport;
  allow: readonly string[] | null;
  http: HttpSeen[];
  /** result_refs this session stored (newest last). */
  refs: string[];
}

let t: TestEngine;
let provider: Awaited<ReturnType<typeof startProvider>>;
let server: { versionId: string; url: string; token: string };
let main: Conn;
let narrow: Conn;
/** A result_ref of another session (never readable here). */
let foreignRef = '';
/** Every MCP session ID opened here: canaries too (docs/architecture.md, the result envelope: never in an envelope, an error or a log line). */
const sessionIds: string[] = [];
/** Canaries checked in answers and logs (t.canaries holds tokens and secrets). */
const canaries = (): string[] => [...t.canaries, ...sessionIds];
/** Each published operation's sections, read once by exact lookup. */
const sectionsOf = new Map<string, string[]>();
/** Real RFC 6901 pointers into the sections ([operationId, section, pointer]): from the sections themselves, or the children a too-large one names. */
const realPointers: [string, string, string][] = [];

async function connect(label: string, token: string, allow: readonly string[] | null): Promise<Conn> {
  const http: HttpSeen[] = [];
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const seen: HttpSeen = { method: init?.method ?? 'GET', status: res.status, text: '' };
    http.push(seen);
    // A GET stream stays open: its body is not read here.
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) seen.text = await res.clone().text();
    return res;
  };
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: recording });
  const client = new Client({ name: `mcp-tools-fuzz-${label}`, version: '1.0.0' });
  await client.connect(transport);
  sessionIds.push(transport.sessionId!);
  return { label, client, transport, allow, http, refs: [] };
}

const allows = (allow: readonly string[] | null, id: string) => allow === null || allow.some((a) => (a.endsWith('*') ? id.startsWith(a.slice(0, -1)) : a === id));

type Outcome = { kind: 'result'; result: any; text: string } | { kind: 'rpc-error'; code: number; message: string };

/** One tools/call through the SDK client; a hang, a 5xx or a dropped connection throws. */
async function callTool(conn: Conn, name: unknown, args: unknown): Promise<Outcome> {
  const seenFrom = conn.http.length;
  try {
    const result = (await conn.client.callTool({ name: name as string, arguments: args as Record<string, unknown> }, undefined, { timeout: CALL_TIMEOUT_MS })) as any;
    return { kind: 'result', result, text: result?.content?.[0]?.text };
  } catch (err) {
    if (err instanceof McpError) {
      if (err.code === ErrorCode.RequestTimeout) throw new Error(`no answer within ${CALL_TIMEOUT_MS} ms (a hang)`);
      return { kind: 'rpc-error', code: err.code, message: err.message };
    }
    if (err instanceof StreamableHTTPError) {
      // A transport-level refusal: acceptable only as a 4xx whose body is a JSON-RPC error.
      const seen = conn.http.slice(seenFrom).at(-1);
      let body: any;
      try {
        body = JSON.parse(seen?.text ?? '');
      } catch {
        /* not JSON */
      }
      if (seen && seen.status >= 400 && seen.status < 500 && body?.jsonrpc === '2.0' && typeof body.error?.code === 'number') return { kind: 'rpc-error', code: body.error.code, message: String(body.error.message) };
      throw new Error(`HTTP ${err.code}: ${err.message.slice(0, 300)}`);
    }
    throw new Error(`the request failed (a dropped connection?): ${String(err).slice(0, 300)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The properties.

const bytes = (text: string) => Buffer.byteLength(text);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Code points, as the tool schemas' maxLength counts them (ajv's unicode length). */
const codePoints = (s: string) => [...s].length;

class PropertyFailure extends Error {}
const fail = (why: string, shown: unknown): never => {
  if (process.env.FUZZ_DEBUG) console.log(`FAILURE: ${why}\n  ${JSON.stringify(shown)?.slice(0, 1500)}\n  last case: ${quietSince.what}\n  this case: ${currentCase}`);
  throw new PropertyFailure(`${why}\n  answer: ${JSON.stringify(shown)?.slice(0, 600)}`);
};

function providerCount() {
  return { all: provider.received.length, mutations: provider.received.filter((r) => r.method !== 'GET' && r.method !== 'HEAD').length };
}
type Counted = ReturnType<typeof providerCount>;

/** The recovery contract of an isError answer: complete, values from the interface's sets. */
function checkRecovery(body: any, shown: unknown) {
  const r = body?.recovery;
  if (!isObject(r)) fail('an isError answer without a recovery contract', shown);
  if (!EXECUTE_REQUEST.has(r.execute_request as string)) fail(`recovery.execute_request '${String(r.execute_request)}' is not one of the interface's values`, shown);
  if (!PROVIDER_EXECUTION.has(r.provider_execution as string)) fail(`recovery.provider_execution '${String(r.provider_execution)}' is not one of the interface's values`, shown);
  if (r.automatic_replay !== false) fail('recovery.automatic_replay is not false', shown);
  if ('recovery_action' in r && !RECOVERY_ACTION.has(r.recovery_action as string)) fail(`recovery.recovery_action '${String(r.recovery_action)}' is not one of the interface's values`, shown);
  // Interface, Errors: "`correct_arguments` reformat current arguments (paired with `provider_execution: not_started`)".
  if (r.execute_request === 'correct_arguments' && r.provider_execution !== 'not_started') fail('correct_arguments not paired with provider_execution: not_started', shown);
  const extra = Object.keys(r).filter((k) => !['execute_request', 'provider_execution', 'automatic_replay', 'recovery_action'].includes(k));
  if (extra.length) fail(`recovery has fields the interface does not list: ${extra.join(', ')}`, shown);
}

/** What every tool answer must be, whatever the tool: a well-formed tool result, or a precise JSON-RPC error. */
function checkCommon(outcome: Outcome, argsAreObject: boolean): any {
  if (outcome.kind === 'rpc-error') {
    if (outcome.code === ErrorCode.InternalError) fail('a -32603 Internal error', outcome);
    // A tools/call whose arguments are a JSON object is a tool call: a tool result, never a protocol error.
    if (argsAreObject) fail('a JSON-RPC error for arguments that are an object', outcome);
    if (outcome.code !== ErrorCode.InvalidParams) fail(`arguments that are not an object answered with ${outcome.code}, not -32602 Invalid params`, outcome);
    return undefined;
  }
  const { result, text } = outcome;
  if (!argsAreObject) fail('arguments that are not an object were run as a tool call', result);
  if (!Array.isArray(result.content) || result.content.length !== 1 || result.content[0].type !== 'text' || typeof text !== 'string') fail('a tool result without exactly one text item', result);
  if (!isObject(result.structuredContent)) fail('a tool result without structuredContent', result);
  if (result.isError !== undefined && typeof result.isError !== 'boolean') fail('isError is not a boolean', result);
  if (bytes(text) > MODEL_FACING_LIMIT) fail(`model-facing text of ${bytes(text)} bytes, over 64 KiB`, result.structuredContent);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    fail('the text item is not JSON', text.slice(0, 300));
  }
  // docs/architecture.md, MCP results: "the same JSON as one text item" (an execute success "may show the value alone").
  const sc = result.structuredContent;
  if (!isDeepStrictEqual(parsed, sc) && !(result.isError !== true && 'result' in sc && isDeepStrictEqual(parsed, sc.result))) fail('the text item differs from structuredContent', { text: text.slice(0, 300), sc });
  if (result.isError === true) {
    if (typeof sc.code !== 'string' || !sc.code || typeof sc.message !== 'string') fail('an isError answer without code and message', sc);
    checkRecovery(sc, sc);
    // Interface, Limits: "Error text | min(output budget, 8 KiB) | errors" (execute checks its budget too).
    if (bytes(text) > ERROR_TEXT_CAP) fail(`an error answer of ${bytes(text)} bytes, over 8 KiB`, { code: sc.code, message: String(sc.message).slice(0, 200) });
  }
  return sc;
}

/** No canary in the HTTP answers of this case, nor in its log lines; no HTTP 5xx. */
function checkLeaks(conn: Conn | undefined, httpFrom: number, logsFrom: number, extraText = '') {
  const secrets = canaries();
  const answers = (conn ? conn.http.slice(httpFrom) : []).map((h) => h.text).join('\n') + extraText;
  for (const h of conn ? conn.http.slice(httpFrom) : []) if (h.status >= 500) fail(`an HTTP ${h.status}`, h.text.slice(0, 300));
  if (secrets.some((s) => answers.includes(s))) fail('a canary (secret, token or session ID) in an answer', secrets.filter((s) => answers.includes(s)).length);
  const logs = t.logs.slice(logsFrom).join('');
  if (secrets.some((s) => logs.includes(s))) fail('a canary (secret, token or session ID) in a log line', secrets.filter((s) => logs.includes(s)).length);
}

/**
 * Whether a script may end with calls still running: not awaited, left by a Promise.all that
 * rejected early, or cut short by an unhandled rejection (which ends the run, as it ends a Node
 * process) while it awaits one. Such a call may be on its way to the provider when the run ends;
 * the Engine aborts it and cannot yet tell whether it was sent. The interface documents `unknown`
 * then (Errors: "Invalid pagination when an earlier or concurrent call may have dispatched | Outer
 * `execute` returns `execute_request: do_not_replay`, `provider_execution: unknown`").
 */
const leavesCallsRunning = (code: string) => /^(void )?call\(|Promise\.all\(|void sleep\(|Promise\.reject\(/m.test(code);

/** Provider requests during the call decide what provider_execution may say. */
function checkProviderExecution(sc: any, before: Counted, after: Counted, code = '') {
  const execution = sc?.recovery?.provider_execution;
  if (after.all === before.all && execution !== 'not_started' && !leavesCallsRunning(code)) fail(`provider_execution '${execution}' though the provider received nothing during the call`, sc);
  const got = () => provider.received.slice(before.all, after.all).map((r) => `${r.method} ${r.url}`.slice(0, 100));
  if (after.mutations > before.mutations && execution === 'not_started') fail(`provider_execution not_started though the provider received a mutation during the call (${got().join(', ')})`, sc);
  if (after.all > before.all && execution === 'not_started') fail(`provider_execution not_started though the provider received a request during the call (${got().join(', ')})`, sc);
}

/** A trivial execute on the connection must still work. */
async function stillWorks(conn: Conn) {
  const o = await callTool(conn, 'execute', { code: 'return 1' });
  if (o.kind !== 'result' || o.result.isError || !isDeepStrictEqual(o.result.structuredContent, { result: 1 })) fail(`the session no longer works after the case (${conn.label})`, o);
}

// ---------------------------------------------------------------------------------------------
// search_docs

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000\u0001\u001f\u007f',
  '\ud800',
  '\udfff\ud800',
  '🎉 ünïcödé 中文 \u200b\u2028\u2029',
  '.*+?^${}()|[]\\',
  '(a+)+$',
  '[',
  '\\',
  '%00%2F',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '<script>alert(1)</script>',
  "'; DROP TABLE x; --",
  'x'.repeat(500),
  'x'.repeat(501),
  'é'.repeat(300),
  '😀'.repeat(500),
  '😀'.repeat(501),
  'list '.repeat(100),
];

const WRONG_TYPES: unknown[] = [42, -1, 0, 1.5, null, true, [], ['x'], {}, { a: 1 }, 'x'];

const oddString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '^', '$', '\\', '/', '~', '#'), maxLength: 30 }) },
);
const wrongType = fc.constantFrom(...WRONG_TYPES);
/** `arbitrary` in `weight` cases out of `weight + none`, else null (fc.option's freq counts the other way). */
const sometimes = <T,>(arbitrary: fc.Arbitrary<T>, weight: number, none: number): fc.Arbitrary<T | null> => fc.oneof({ weight: none, arbitrary: fc.constant(null) }, { weight, arbitrary });

function searchArgs(): fc.Arbitrary<Record<string, unknown>> {
  const ids = [...sectionsOf.keys()];
  const sections = [...new Set([...sectionsOf.values()].flat())];
  const query = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('list contacts', 'create an issue', 'repository', 'create a task', 'get account', 'file by resource name', 'github', 'demo crm contacts', 'unified', 'create update delete', 'demo-crm.contacts/list') },
    { weight: 4, arbitrary: oddString },
    { weight: 1, arbitrary: wrongType },
  );
  const limit = fc.oneof(fc.integer({ min: -2, max: 8 }), fc.constantFrom(1, 3, 5, 0, 6, 1e9, -0, 1.5, 2.0000001, Number.MAX_SAFE_INTEGER), wrongType);
  const operationId = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ids) },
    { weight: 2, arbitrary: fc.constantFrom(...ids).map((id) => id.toUpperCase()) },
    { weight: 2, arbitrary: fc.constantFrom('demo-crm.contacts/lis', 'demo-crm.contacts/list ', 'github.issues/list', 'unified.tasks', 'demo-crm', 'demo-crm.', 'x'.repeat(300), 'x'.repeat(301), '\u0001'.repeat(300)) },
    { weight: 2, arbitrary: oddString },
    { weight: 1, arbitrary: wrongType },
  );
  const section = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...sections) },
    { weight: 2, arbitrary: fc.constantFrom('response:999', 'response:', 'response', 'Parameters', 'input ', 'x'.repeat(100), 'x'.repeat(101), '\u0001'.repeat(100)) },
    { weight: 2, arbitrary: oddString },
    { weight: 1, arbitrary: wrongType },
  );
  const schemaPath = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...realPointers.map(([, , p]) => p)) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        '',
        '/',
        '//',
        '/schema',
        '/schema/properties',
        '/schema/properties/__proto__',
        '/schema/properties/constructor',
        '/properties/data/items',
        '/properties/data/items/properties/labels/additionalProperties',
        '/0',
        '/-',
        '~',
        '/~',
        '/~2',
        '/~01',
        '/a~1b',
        'schema',
        '#/schema',
        '/%25',
        '/properties/x'.repeat(70),
        '/a'.repeat(500),
        '/a'.repeat(501),
        // At the schema's 1,000 characters, each one six bytes once JSON-escaped.
        `/${'\u0001'.repeat(999)}`,
        '\u0001'.repeat(1000),
        `/${'~0'.repeat(499)}`,
      ),
    },
    { weight: 2, arbitrary: fc.array(fc.oneof(oddString, fc.constantFrom('schema', 'properties', 'items', 'type', '0')), { maxLength: 6 }).map((parts) => parts.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')) },
    { weight: 1, arbitrary: oddString },
    { weight: 1, arbitrary: wrongType },
  );
  const service = fc.oneof(fc.constantFrom('demo-crm', 'github', 'unified', 'nope', 'DEMO-CRM', 'x'.repeat(64), 'x'.repeat(65)), oddString, wrongType);
  const base = fc.record({ query, limit, operationId, section, schemaPath, service }, { requiredKeys: [] });
  const unknownKey = fc.dictionary(fc.oneof(fc.constantFrom('operation', 'q', 'Query', '__proto__', 'constructor', 'outputBudgetBytes', 'code', 'k'.repeat(70_000), '😀'.repeat(3000)), fc.string({ maxLength: 12 })), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 2 });
  // A real subtree of a real section, as found, a level up or down, or a sibling that may not exist.
  const coherent = fc
    .tuple(fc.constantFrom(...realPointers), fc.constantFrom('', '/properties', '/items', '/type', '/x', '/0', '/~1', 'up'))
    .map(([[operationId, section, pointer], step]) => ({ operationId, section, schemaPath: step === 'up' ? pointer.slice(0, pointer.lastIndexOf('/')) : pointer + step }));
  return fc
    .tuple(fc.oneof({ weight: 3, arbitrary: base }, { weight: 1, arbitrary: coherent }), sometimes(unknownKey, 1, 6))
    .map(([args, extra]) => (extra ? { ...args, ...Object.fromEntries(Object.entries(extra).filter(([k]) => !Object.hasOwn(args, k))) } : args));
}

/** Why the search_docs input schema refuses `args` (undefined: it accepts them). */
function searchSchemaRefusal(args: Record<string, unknown>): string | undefined {
  const max: Record<string, number> = { query: 500, operationId: 300, section: 100, schemaPath: 1000, service: 64 };
  for (const key of Object.keys(args)) {
    const value = args[key];
    if (key === 'limit') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 5) return 'limit';
    } else if (!Object.hasOwn(max, key)) return `unknown key ${key}`;
    else if (typeof value !== 'string' || codePoints(value) > max[key]!) return key;
  }
  return undefined;
}

function checkSearch(args: Record<string, unknown>, sc: any, isError: boolean, conn: Conn) {
  const refusal = searchSchemaRefusal(args);
  const id = args.operationId as string | undefined;
  const expectError = (codes: string[], why: string) => {
    if (!isError || !codes.includes(sc.code)) fail(`${why}: expected ${codes.join(' or ')}`, sc);
  };
  if (refusal) return expectError(['ENGINE_INVALID_INPUT'], `arguments the schema refuses (${refusal})`);
  if (id !== undefined) {
    const available = sectionsOf.get(id);
    if (!available) return expectError(['ENGINE_UNKNOWN_OPERATION'], 'an unknown operationId');
    if (args.section === undefined && args.schemaPath !== undefined) return expectError(['ENGINE_INVALID_INPUT'], 'schemaPath without section');
    if (args.section !== undefined && !available.includes(args.section as string)) return expectError(['ENGINE_UNKNOWN_SECTION'], 'a section the operation does not have');
    if (isError) {
      if (!['ENGINE_UNKNOWN_SCHEMA_PATH', 'ENGINE_INVALID_INPUT', 'ENGINE_SECTION_TOO_LARGE'].includes(sc.code)) fail('an exact lookup refused with an unexpected code', sc);
      if (sc.code === 'ENGINE_INVALID_INPUT' && args.schemaPath === undefined) fail('an exact lookup refused as invalid input without a schemaPath', sc);
      return;
    }
    if (sc.operationId !== id) fail('exact detail of another operation', sc);
    const status = sc.schema_status;
    if (!isObject(status) || typeof status.complete !== 'boolean' || !isDeepStrictEqual(status.available_sections, available)) fail('exact detail without a correct schema_status', status);
    if (!isDeepStrictEqual(Object.keys(sc.sections), status.included_sections)) fail('sections differ from schema_status.included_sections', status);
    if (args.section !== undefined && !isDeepStrictEqual(status.included_sections, [args.section])) fail('exact section lookup without exactly that section', status);
    if (status.complete !== ((status.included_sections as string[]).length === (args.section === undefined ? available.length : 1))) fail('schema_status.complete is wrong', status);
    if (sc.callable !== allows(conn.allow, id)) fail('callable is wrong for the token', sc);
    if (id.startsWith('unified.') ? sc.pagination !== undefined : typeof sc.pagination?.supported !== 'boolean' || typeof sc.pagination.caller_bound_supported !== 'boolean') fail('exact detail without the authoritative pagination fields', sc);
    return;
  }
  if (args.section !== undefined || args.schemaPath !== undefined) return expectError(['ENGINE_INVALID_INPUT'], 'section or schemaPath without operationId');
  if (isError) fail('a browse or intent search refused', sc);
  const query = args.query as string | undefined;
  if (query === undefined || query.trim() === '') {
    if (!Array.isArray(sc.operations) || !Number.isInteger(sc.total) || typeof sc.truncated !== 'boolean') fail('browse mode without operations, total and truncated', sc);
    const service = args.service as string | undefined;
    // An empty filter is no filter, as an empty query is browse mode.
    const expected = OPERATIONS.filter((o) => !service || o.startsWith(`${service}.`));
    if (sc.total !== expected.length || sc.operations.length !== expected.length || sc.truncated) fail(`browse listed ${sc.operations.length} of ${sc.total}, expected ${expected.length}`, sc);
    for (const o of sc.operations) if (o.callable !== allows(conn.allow, o.operationId)) fail('callable is wrong for the token', o);
    return;
  }
  if (!Array.isArray(sc.results) || sc.results.length > ((args.limit as number | undefined) ?? 3)) fail('intent search with more results than its limit', sc);
  if (sc.query !== query) fail('intent search does not echo its query', sc);
  for (const r of sc.results) {
    if (!sectionsOf.has(r.operationId)) fail('intent search found an operation the version does not select', r);
    if (!isDeepStrictEqual(Object.keys(r.sections), r.schema_status?.included_sections)) fail('a ranked result whose sections differ from included_sections', r);
    if (r.callable !== allows(conn.allow, r.operationId)) fail('callable is wrong for the token', r);
    if (r.kind === 'physical' && (r.pagination?.caller_bound_supported !== undefined || r.pagination?.engine_max_pages !== undefined)) fail('a ranked result with exact-only pagination fields', r);
  }
}

// ---------------------------------------------------------------------------------------------
// execute: arguments and scripts

/** `code` values that are odd in themselves (not composed scripts). */
const ODD_CODE: unknown[] = [
  '',
  ' ',
  '\n',
  '\u0000',
  '\ufeffreturn 1',
  '\ud800',
  'return "\ud800"',
  'return "\\ud800"',
  '// 🎉 ünïcödé\nreturn "中文 \u2028 \u2029"',
  '}',
  '}; return 1; {',
  'return 1 }; globalThis.x = 1; {',
  '} async function __svc_main() { return 2',
  '/*',
  '`',
  '#!/bin/sh\nreturn 1',
  'const x = ;',
  'return',
  "'use strict'; return this === undefined",
  'return arguments.length',
  'return typeof __svc_main',
  'return typeof __svc_finish',
  'import fs from "node:fs"; return 1',
  'export const a = 1',
  'return await import("node:fs")',
  'const x: number = 1; interface I { a: string } type T = I | null; return x as unknown as string;',
  'enum E { A, B = 5 } return E.B;',
  'namespace N { export const v = 2 } return N.v;',
  'declare const y: any; return typeof y;',
  'const id = <T,>(a: T): T => a; return id<number>(3);',
  'function dec(v: any, c: any) { return v } @dec class X {} return typeof X;',
  'abstract class A { abstract f(): void } return 1;',
  'const o = { a: 1 } satisfies Record<string, number>; return o!.a;',
  'let v!: number; return v ?? null;',
  '<div />',
  'return 1;'.repeat(10_000),
  `return ${JSON.stringify('x'.repeat(99_980))}.length`,
  `return 1 // ${'x'.repeat(100_000)}`,
  `return ${JSON.stringify('😀'.repeat(30_000))}.length`,
  42,
  null,
  true,
  [],
  ['return 1'],
  { code: 'return 1' },
];

const lit = (s: string) => JSON.stringify(s);

const BOGUS_REF = 'res_AAAAAAAAAAAAAAAAAAAAAA';
/** A script fragment names a result_ref by a placeholder, replaced at run time. */
const REF = '__REF__';
const FOREIGN = '__FOREIGN_REF__';

const VALID_OPS = OPERATIONS;
const ODD_OPS = ['demo-crm.nope', '', 'github.issues/list', 'unified.nope.none', ' demo-crm.account/get', 'DEMO-CRM.account/get', '__proto__', 'constructor', 'demo-crm.contacts/*', '*', 'demo-crm.', 'x'.repeat(5000), 'demo-crm.contacts/get\u0000'];

/** Calls that make sense (some reach the provider, some mutate, some fail there). */
const GOOD_CALLS = [
  'call("demo-crm.account/get", {})',
  'call("demo-crm.contacts/get", { contact_id: "con_1" })',
  'call("demo-crm.contacts/get", { contact_id: "con_big" })',
  'call("demo-crm.contacts/get", { contact_id: "con_huge" })',
  'call("demo-crm.contacts/get", { contact_id: "con_reset" })',
  'call("demo-crm.contacts/get", { contact_id: "con_missing" })',
  'call("demo-crm.contacts/get", { contact_id: "con_500" })',
  'call("demo-crm.contacts/list", {})',
  'call("demo-crm.contacts/list", { limit: 100 })',
  'call("demo-crm.contacts/list", { limit: 1 })',
  'call("demo-crm.contacts/list", {}, { pagination: { maxPages: 2 } })',
  'call("demo-crm.contacts/create", { body: { name: "Ada", email: "ada@example.test" } })',
  'call("demo-crm.tasks/create", { body: { title: "Follow up" } })',
  'call("demo-crm.files/get", { name: "reports/2026/q1.txt" })',
  'call("demo-crm.files/get", { name: "../../etc/passwd?x=1#y" })',
  'call("demo-crm.files/get", { name: "🎉/ü %2F" })',
  'call("github.repos/get", { owner: "o", repo: "r" })',
  'call("github.repos/list-for-org", { org: "o" })',
  'call("github.issues/create", { owner: "o", repo: "r", body: { title: "Bug" } })',
  'call("unified.tasks.create", { input: { title: "U" }, targets: ["crm"] })',
  'call("unified.tasks.create", { input: { title: "U", owner: "o", repo: "r" }, targets: ["github", "crm"] })',
];
/** Calls refused before any provider request. */
const REFUSED_CALLS = [
  'call("demo-crm.contacts/get", {})',
  'call("demo-crm.contacts/get", { contact_id: "x" })',
  'call("demo-crm.contacts/get", { contact_id: 5 })',
  'call("demo-crm.contacts/get", { contact_id: "con_1", Authorization: "Bearer mine" })',
  'call("demo-crm.contacts/list", {}, { pagination: { maxPages: 20 } })',
  'call("demo-crm.contacts/list", {}, { pagination: { maxPages: 0 } })',
  'call("demo-crm.contacts/list", {}, { pagination: { maxPages: 1.5 } })',
  'call("demo-crm.contacts/list", {}, { pagination: {} })',
  'call("demo-crm.contacts/list", {}, { pages: 2 })',
  'call("demo-crm.contacts/list", {}, null)',
  'call("demo-crm.account/get", {}, { pagination: { maxPages: 2 } })',
  'call("demo-crm.contacts/create", { body: { name: "", email: "x" } })',
  'call("demo-crm.contacts/create", { body: "x" })',
  'call("unified.tasks.create", { input: { title: "U" }, targets: [] })',
  'call("unified.tasks.create", { input: { title: "U" }, targets: ["nope"] })',
  'call("unified.tasks.create", { input: {}, targets: ["crm"] })',
  'call("unified.tasks.create", { input: { title: "U" }, targets: ["crm"] }, { pagination: { maxPages: 2 } })',
];
const ODD_PARAMS = [
  'null',
  '[]',
  '"str"',
  '42',
  '{ unknown: 1 }',
  '{ body: "x" }',
  '{ contact_id: "con_1", extra: undefined }',
  '{ f: () => 1 }',
  '{ n: NaN }',
  '{ b: 1n }',
  '{ m: new Map() }',
  '{ d: new Date(0) }',
  '{ s: Symbol("s") }',
  '{ p: Promise.resolve(1) }',
  '(() => { const o: any = {}; o.o = o; return o; })()',
  'JSON.parse("[".repeat(300) + "]".repeat(300))',
  '{ contact_id: "x".repeat(200000) }',
  '{ contact_id: "\\u0000" }',
  'JSON.parse(\'{"__proto__": {"contact_id": "con_1"}}\')',
  'Object.create(null)',
  'new Proxy({}, { ownKeys() { throw new Error("trap") } })',
  '{ toJSON() { throw new Error("toJSON") } }',
  '{ get contact_id() { throw new Error("getter") } }',
];

const callExpr: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...GOOD_CALLS) },
  { weight: 4, arbitrary: fc.constantFrom(...REFUSED_CALLS) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.oneof(fc.constantFrom(...VALID_OPS, ...ODD_OPS).map(lit), fc.constantFrom('42', 'null', 'undefined', '{}', '["demo-crm.account/get"]', 'Symbol("x")', '1n', 'new String("demo-crm.account/get")')),
        fc.constantFrom(...ODD_PARAMS, '{}', 'undefined'),
      )
      .map(([op, params]) => `call(${op}, ${params})`),
  },
  { weight: 1, arbitrary: fc.constantFrom('call()', 'call("demo-crm.account/get")', 'call("demo-crm.account/get", {}, undefined, 4)', 'call(...Array(3))') },
);

const callStatement: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: callExpr.map((c) => `r = await ${c};`) },
  { weight: 4, arbitrary: callExpr.map((c) => `try { r = await ${c}; } catch (e: any) { r = [e?.name, e?.code]; }`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(2, 9, 10, 11, 13), callExpr).map(([n, c]) => `for (let i = 0; i < ${n}; i++) { r = await ${c}; }`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(9, 11), callExpr).map(([n, c]) => `for (let i = 0; i < ${n}; i++) { try { r = await ${c}; } catch (e: any) { r = e?.code; } }`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(2, 10, 16, 17, 20), callExpr).map(([n, c]) => `r = await Promise.all(Array.from({ length: ${n} }, () => ${c}));`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(3, 12, 20), callExpr).map(([n, c]) => `r = (await Promise.allSettled(Array.from({ length: ${n} }, () => ${c}))).map((s) => s.status);`) },
  // Calls left running: the run ends before (or while) they are answered.
  { weight: 2, arbitrary: callExpr.map((c) => `void ${c}.catch(() => 0);`) },
  { weight: 1, arbitrary: callExpr.map((c) => `${c};`) },
);

const KEYS = ['"k"', '""', '"res_x"', '"x".repeat(256)', '"x".repeat(257)', '"\\ud800"', '"🔑"', '"__proto__"', '"constructor"', '"a#/b"', '" "', '42', 'null', 'undefined', '{}'];
const REF_EXPRS = [
  REF,
  `${REF} + "#/data"`,
  `${REF} + "#/data/0"`,
  `${REF} + "#/data/0/notes"`,
  `${REF} + "#/data/-"`,
  `${REF} + "#"`,
  `${REF} + "#/"`,
  `${REF} + "#~"`,
  `${REF} + "#/~2"`,
  `${REF} + "#/data/999999"`,
  `${REF} + "#/data/01"`,
  FOREIGN,
  lit(BOGUS_REF),
  '"res_"',
  '"res_" + "x".repeat(5000)',
];
const VALUES = ['1', 'null', 'undefined', '"x".repeat(1000)', '"x".repeat(4000000)', '"x".repeat(5000000)', '{ a: [1, 2], s: "ü🎉" }', '1n', '(() => { const o: any = {}; o.o = o; return o; })()', '() => 1', 'JSON.parse("[".repeat(200) + "]".repeat(200))', 'NaN', '[undefined]', 'new Map()', 'Symbol("s")'];
const PAGE_OPTIONS = [
  'undefined',
  '{}',
  '{ path: "/data" }',
  '{ path: "" }',
  '{ path: "/data", fields: ["id"] }',
  '{ path: "/data", fields: ["id", "notes"], offset: 3 }',
  '{ fields: [] }',
  '{ path: "/data", fields: ["nope"] }',
  '{ path: "/data", fields: ["id", "id"] }',
  '{ path: "/data", fields: Array.from({ length: 101 }, (_, i) => "f" + i) }',
  '{ path: "/data", fields: [1] }',
  '{ path: "/data", offset: -1 }',
  '{ path: "/data", offset: 1e9 }',
  '{ path: "/data", offset: null }',
  '{ path: "/data", offset: 1.5 }',
  '{ path: "/data", offset: 40 }',
  '{ extra: 1 }',
  '"str"',
  'null',
  '{ path: "data" }',
  '{ path: "/data/0" }',
  '{ path: 5 }',
];
const sessionStatement: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES)).map(([k, v]) => `await session.set(${k}, ${v});`) },
  { weight: 3, arbitrary: fc.constantFrom(...KEYS, ...REF_EXPRS).map((k) => `r = await session.get(${k});`) },
  { weight: 1, arbitrary: fc.constantFrom('r = await session.get();', `r = await session.get(${REF}, "extra");`, 'r = await session.set("k");', 'r = await session.page();', `r = await session.page(${REF}, {}, 3);`) },
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...REF_EXPRS, '"k"', '42'), fc.constantFrom(...PAGE_OPTIONS)).map(([ref, o]) => `r = await session.page(${ref}, ${o});`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...REF_EXPRS), fc.constantFrom(...PAGE_OPTIONS)).map(([ref, o]) => `try { r = await session.page(${ref}, ${o}); } catch (e: any) { r = e?.code; }`) },
  { weight: 1, arbitrary: fc.constant(`let p: any = await session.page(${REF}, { path: "/data", fields: ["id"] }); const ids = []; while (p) { ids.push(...p.items.map((x: any) => x.id)); p = p.nextOffset === null ? null : await session.page(${REF}, { path: "/data", fields: ["id"], offset: p.nextOffset }); } r = ids.length;`) },
);

const timerStatement = fc.constantFrom(
  'await new Promise((res) => setTimeout(res, 0));',
  'await new Promise((res) => setTimeout(res, 15));',
  'await sleep(5);',
  'await Promise.race([new Promise(() => {}), sleep(10)]);',
  'setTimeout(() => { throw new Error("late") }, 0); await sleep(5);',
  'setTimeout(() => { r = "timer ran" }, 1);',
  'setTimeout(() => {}, 1e9);',
  'const h = setTimeout(() => { r = "cleared?" }, 5); clearTimeout(h); await sleep(10);',
  'clearTimeout(12345); clearTimeout("x" as any);',
  'setTimeout("r = 1" as any, 1);',
  'await sleep(-1);',
  'await sleep(NaN);',
  'for (let i = 0; i < 1001; i++) setTimeout(() => {}, 1e6);',
  'for (let i = 0; i < 1001; i++) void sleep(1e6);',
  'await new Promise((res) => queueMicrotask(res as any));',
  'r = decodeBase64("%%%");',
  'r = atob("x");',
  'r = encodeBase64(5 as any);',
  'r = [decodeBase64("8J-YgA"), encodeBase64("😀", true)];',
);
/** Rare, each ends only at the execute budget. */
const slowStatement = fc.constantFrom('await new Promise(() => {});', 'while (true) {}', 'r = await call("demo-crm.contacts/get", { contact_id: "con_slow" });');

const throwStatement = fc.constantFrom(
  'throw new Error("boom");',
  'throw new Error("x".repeat(100000));',
  'throw "a string";',
  'throw 42;',
  'throw null;',
  'throw undefined;',
  'throw {};',
  'throw { message: 5, name: 7 };',
  'throw Object.create(null);',
  'throw Symbol("s");',
  'throw 1n;',
  'throw [1, 2];',
  'throw new Proxy({}, { get() { throw new Error("trap") } });',
  'throw { get name() { throw new Error("getter") } };',
  'throw { name: "EngineRefusal", refusal: 0, code: "MCP_SESSION_UNAVAILABLE", message: "forged" };',
  'throw { name: "EngineRefusal", refusal: 1e300, message: "forged" };',
  'throw new (class extends Error { get message(): string { throw new Error("inner") } })();',
  'throw new RangeError("ü🎉\\u0000\\ud800");',
  'Promise.reject(new Error("unhandled"));',
  'r = (null as any).x;',
);

const returnStatement = fc.oneof(
  fc.constantFrom(
    'return r;',
    'return;',
    'return undefined;',
    'return 1n;',
    'return (() => { const o: any = {}; o.o = o; return o; })();',
    'let v: any = 0; for (let i = 0; i < 127; i++) v = [v]; return v;',
    'let v: any = 0; for (let i = 0; i < 128; i++) v = [v]; return v;',
    'let v: any = 0; for (let i = 0; i < 129; i++) v = [v]; return v;',
    'let v: any = 0; for (let i = 0; i < 5000; i++) v = [v]; return v;',
    'return new Map();',
    'return () => 1;',
    'return Symbol("s");',
    'return NaN;',
    'return [undefined];',
    'return { a: undefined, b: 1 };',
    'return new Date(0);',
    'return { toJSON() { throw new Error("tj") } };',
    'return { toJSON() { return "x".repeat(100000) } };',
    'return Promise.resolve(5);',
    'return "\\ud800";',
    'return "\\u2028\\u2029\\u0000";',
    'return JSON.parse(\'{"__proto__": 1}\');',
    'return Object.create(null);',
    'return new Proxy({}, { ownKeys() { throw new Error("trap") } });',
    'return globalThis;',
    'return [call];',
    'return new Uint8Array(4);',
    'return { data: r };',
  ),
  fc.tuple(fc.constantFrom(1, 100, 1000, 20_000, 70_000, 1_048_574, 1_048_575, 2_000_000), fc.constantFrom('x', 'é', '😀', '"', '\\u0000')).map(([n, ch]) => `return "${ch}".repeat(${n});`),
  fc.tuple(fc.constantFrom(0, 1, 5, 40, 300, 3000), fc.constantFrom(1, 50, 400, 5000)).map(([rows, width]) => `return { data: Array.from({ length: ${rows} }, (_, i) => ({ id: "row_" + i, text: "t".repeat(${width}), n: i })), total: ${rows} };`),
  fc.constantFrom(20, 500).map((rows) => `return Array.from({ length: ${rows} }, (_, i) => i % 3 ? { id: i } : [i, "x".repeat(100)]);`),
  // Shapes that stress discovery, the preview and next_request: odd keys, depth, many collections, rows over the budget.
  fc
    .tuple(
      fc.constantFrom('"\\u0000".repeat(120)', '"a/b~c"', '""', '"é".repeat(64)', '"\\"".repeat(40)', '"k".repeat(200)', '"__proto__"', '"constructor"'),
      fc.constantFrom('Array.from({ length: 300 }, (_, i) => ({ id: i, ["\\u0001" + i]: "v" }))', 'Array.from({ length: 200 }, () => "é".repeat(30))', 'Array.from({ length: 3 }, () => ({ big: "b".repeat(70000) }))', '[]', 'Array.from({ length: 100 }, (_, i) => Array.from({ length: 40 }, (_, j) => ({ ["f" + j]: i })))'),
    )
    .map(([key, rows]) => `return JSON.parse(JSON.stringify({ [${key}]: ${rows}, pad: "p".repeat(20000) }));`),
  fc.constantFrom(
    'let v: any = Array.from({ length: 50 }, (_, i) => ({ id: i, t: "x".repeat(100) })); for (let i = 0; i < 12; i++) v = { ["l" + i]: v }; return v;',
    'return Object.fromEntries(Array.from({ length: 20 }, (_, i) => ["c" + i, Array.from({ length: 30 + i }, (_, j) => ({ j, s: "y".repeat(40) }))]));',
    'return { rows: Array.from({ length: 40 }, (_, i) => ({ id: i, ...Object.fromEntries(Array.from({ length: 60 }, (_, j) => ["field_" + j + "_".repeat(130), j])) })) };',
    'return Array.from({ length: 3000 }, (_, i) => i);',
    'return "x".repeat(5000) + "é".repeat(5000);',
    'return { data: [{ only: "r".repeat(200000) }] };',
  ),
);

const statement: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: callStatement },
  { weight: 6, arbitrary: sessionStatement },
  { weight: 3, arbitrary: timerStatement },
  { weight: 1, arbitrary: throwStatement },
  // Weight out of 1000 below: each costs the whole execute budget.
);
const script: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(statement, { minLength: 0, maxLength: 4 }),
    sometimes(slowStatement, 1, 80),
    fc.oneof({ weight: 5, arbitrary: returnStatement }, { weight: 2, arbitrary: throwStatement }, { weight: 1, arbitrary: fc.constant('') }),
  )
  .map(([body, slow, end]) => ['let r: any = null;', ...body, ...(slow ? [slow] : []), end].join('\n'));

const budget = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: fc.constantFrom(1024, 1025, 2048, 16_384, 65_535, 65_536) },
  { weight: 3, arbitrary: fc.integer({ min: 1024, max: 65_536 }) },
  { weight: 2, arbitrary: fc.constantFrom(1023, 65_537, 0, -1, 1024.5, 1e21, Number.MAX_SAFE_INTEGER, '2048', null, true, [2048], { n: 1 }) },
);

/** Why the execute input schema refuses `args` (undefined: it accepts them). */
function executeSchemaRefusal(args: Record<string, unknown>): string | undefined {
  for (const key of Object.keys(args)) if (key !== 'code' && key !== 'outputBudgetBytes') return `unknown key ${key}`;
  if (typeof args.code !== 'string' || codePoints(args.code) < 1 || codePoints(args.code) > 100_000) return 'code';
  const b = args.outputBudgetBytes;
  if (b !== undefined && (typeof b !== 'number' || !Number.isInteger(b) || b < 1024 || b > 65_536)) return 'outputBudgetBytes';
  return undefined;
}

const withRefs = (code: string, conn: Conn) => code.replaceAll(REF, lit(conn.refs.at(-1) ?? BOGUS_REF)).replaceAll(FOREIGN, lit(foreignRef));

interface ExecuteCheck {
  conn: Conn;
  args: unknown;
  outcome: Outcome;
  before: Counted;
  after: Counted;
}

/** Checks one execute answer; follows a stored result's next_request. */
async function checkExecute({ conn, args, outcome, before, after }: ExecuteCheck): Promise<void> {
  const isArgsObject = isObject(args);
  const sc = checkCommon(outcome, isArgsObject);
  if (!sc) return;
  const a = args as Record<string, unknown>;
  const refusal = executeSchemaRefusal(a);
  const isError = (outcome as { result: any }).result.isError === true;
  const text = (outcome as { text: string }).text;
  if (refusal) {
    if (!isError || sc.code !== 'ENGINE_INVALID_INPUT') fail(`arguments the schema refuses (${refusal}) not refused as ENGINE_INVALID_INPUT`, sc);
    if (sc.recovery.execute_request !== 'correct_arguments') fail('invalid arguments without correct_arguments', sc);
  }
  const budget = refusal ? DEFAULT_BUDGET : ((a.outputBudgetBytes as number | undefined) ?? DEFAULT_BUDGET);
  if (isError) {
    checkProviderExecution(sc, before, after, typeof a.code === 'string' ? a.code : '');
    // Interface, Limits: "Error text: min(output budget, 8 KiB)".
    if (bytes(text) > Math.min(budget, ERROR_TEXT_CAP)) fail(`an error answer of ${bytes(text)} bytes, over min(budget ${budget}, 8 KiB)`, { code: sc.code, message: String(sc.message).slice(0, 200) });
    if (sc.code === 'MCP_RESULT_STORED') fail('MCP_RESULT_STORED as an error', sc);
    return;
  }
  if (sc.code === 'MCP_RESULT_STORED') {
    if (bytes(text) > budget) fail(`an MCP_RESULT_STORED envelope of ${bytes(text)} bytes, over its budget ${budget}`, sc);
    for (const field of ['result_ref', 'expiry', 'byte_size', 'effective_output_budget', 'same_session_state', 'next_request', 'preview', 'collections', 'collections_complete']) {
      if (!(field in sc)) fail(`an MCP_RESULT_STORED envelope without ${field}`, sc);
    }
    if (!/^res_[A-Za-z0-9_-]{22,}$/.test(sc.result_ref) || sc.effective_output_budget !== budget || sc.preview?.complete !== false || typeof sc.collections_complete !== 'boolean') fail('a malformed MCP_RESULT_STORED envelope', sc);
    if (sc.byte_size + bytes('{"result":}') <= Math.min(budget, MODEL_FACING_LIMIT)) fail('a result that fits its budget was stored', sc);
    for (const c of sc.collections) if (typeof c.path !== 'string' || !Number.isInteger(c.count) || !Array.isArray(c.fields) || typeof c.fields_complete !== 'boolean') fail('a malformed collection descriptor', c);
    const next = sc.next_request;
    if (next?.tool !== 'execute' || next.arguments?.outputBudgetBytes !== budget || typeof next.arguments?.code !== 'string') fail('a next_request that is not an execute request with the same budget', next);
    conn.refs.push(sc.result_ref);
    await readStored(conn, next.arguments, sc);
    return;
  }
  if (Object.keys(sc).length !== 1 || !('result' in sc)) fail('an execute success that is not { result }', sc);
  if (bytes(text) > Math.min(budget, MODEL_FACING_LIMIT)) fail(`an inline result of ${bytes(text)} bytes, over min(budget ${budget}, 64 KiB)`, text.slice(0, 200));
}

/** A stored result reads with its next_request, and session.page continues from nextOffset. */
async function readStored(conn: Conn, nextArgs: { code: string; outputBudgetBytes: number }, envelope: any) {
  const budget = nextArgs.outputBudgetBytes;
  const page = await callTool(conn, 'execute', nextArgs);
  const sc = checkCommon(page, true);
  if (page.kind !== 'result' || page.result.isError || sc.code !== undefined) fail('next_request of a stored result did not read it', { next: nextArgs.code.slice(0, 200), sc });
  if (bytes((page as { text: string }).text) > budget) fail('next_request answered over its budget', sc);
  if (!nextArgs.code.includes('session.page')) return;
  const p = sc.result;
  if (!Array.isArray(p.items) || !Number.isInteger(p.offset) || !Number.isInteger(p.total) || p.returned !== p.items.length || typeof p.complete !== 'boolean' || (p.nextOffset !== null && !Number.isInteger(p.nextOffset))) fail('a page without items, offset, total, returned, nextOffset, complete', p);
  if (p.returned === 0 && p.total > 0) fail('a page that makes no progress', p);
  if (p.nextOffset === null) return;
  // The options next_request pages with, as it wrote them (JSON after the reference).
  const options = JSON.parse(nextArgs.code.match(/session\.page\("[^"]*", (\{.*\})\);$/)?.[1] ?? 'null');
  if (!isObject(options)) fail('a paging next_request whose options cannot be read', nextArgs.code);
  const more = await callTool(conn, 'execute', { code: `return await session.page(${lit(envelope.result_ref)}, ${JSON.stringify({ ...options, offset: p.nextOffset })});`, outputBudgetBytes: budget });
  const sc2 = checkCommon(more, true);
  if (more.kind !== 'result' || more.result.isError || sc2.result?.offset !== p.nextOffset) fail('the next page did not continue from nextOffset', sc2);
}

/** One execute case: answer, properties, leaks, the session still works. */
/** The provider's count when the last case ended, and that case: nothing may arrive between cases. */
let quietSince = { count: 0, what: '' };
let currentCase = '';

/** Time for requests written before an answer to be read by the provider (same process, same event loop). */
const SETTLE_MS = 20;

async function executeCase(conn: Conn, args: unknown, name: unknown = 'execute') {
  // Interface, "One execute invocation": once the script completes, "outstanding bridge HTTP
  // requests aborted, further calls blocked". A request written before the answer is read within
  // the settle time below; one that arrives between cases was sent after its execute answered.
  if (quietSince.what && provider.received.length !== quietSince.count) {
    fail(`the provider received ${provider.received.length - quietSince.count} request(s) after an earlier execute had answered: ${quietSince.what}`, provider.received.slice(quietSince.count).map((r) => `${r.method} ${r.url}`));
  }
  currentCase = JSON.stringify(args)?.slice(0, 1500) ?? '';
  try {
    await checkedCase(conn, args, name);
  } catch (err) {
    // What this failed case sent may still arrive: it is this case's, never blamed on the next one
    // (fast-check runs shrunk cases next, and each would otherwise fail on this case's requests).
    await stillWorks(conn).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    quietSince = { count: provider.received.length, what: `(after a failed case) ${currentCase.slice(0, 600)}` };
    throw err;
  }
}

async function checkedCase(conn: Conn, args: unknown, name: unknown) {
  const httpFrom = conn.http.length;
  const logsFrom = t.logs.length;
  const before = providerCount();
  const outcome = await callTool(conn, name, args);
  // What arrives until the session has answered a trivial execute (and the settle time has passed)
  // is this call's.
  await stillWorks(conn);
  if (currentCase.includes('call(')) await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const after = providerCount();
  if (name === 'execute') await checkExecute({ conn, args, outcome, before, after });
  else {
    const sc = checkCommon(outcome, isObject(args));
    if (sc && (outcome as { result: any }).result.isError !== true) fail(`tool '${String(name)}' answered as a success`, sc);
    if (sc && sc.code !== 'ENGINE_UNKNOWN_TOOL') fail(`tool '${String(name)}' not refused as ENGINE_UNKNOWN_TOOL`, sc);
    if (sc) checkProviderExecution(sc, before, after);
  }
  checkLeaks(conn, httpFrom, logsFrom);
  if (provider.received.length !== after.all) fail('a provider request arrived after the execute had answered and the session served another', provider.received.slice(after.all).map((r) => `${r.method} ${r.url}`));
  quietSince = { count: after.all, what: currentCase.slice(0, 600) };
}

// ---------------------------------------------------------------------------------------------

async function runProperty<T>(name: string, arbitrary: fc.Arbitrary<T>, runs: number, predicate: (value: T) => Promise<void>) {
  const seed = SEED + [...name].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) | 0, 0);
  const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
  // The failure as first met, before shrinking: a load-dependent one may not recur in the shrunk cases.
  let first: { why: string; value: unknown } | undefined;
  const recorded = async (value: T) => {
    try {
      await predicate(value);
    } catch (err) {
      first ??= { why: message(err), value };
      throw err;
    }
  };
  const result = await fc.check(fc.asyncProperty(arbitrary, recorded), { seed, numRuns: runs, endOnFailure: false });
  if (result.failed) {
    const show = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'string' && x.length > 400 ? `${x.slice(0, 400)}…(${x.length} chars)` : x));
    const firstMet = first && first.why !== message(result.errorInstance) ? `\nfirst met as: ${first.why}\n  on: ${show(first.value)}` : '';
    throw new Error(`seed ${seed} (FUZZ_SEED=${SEED}), path ${result.counterexamplePath}, after ${result.numRuns} runs (${result.numShrinks} shrinks)\n${message(result.errorInstance)}\ncounterexample: ${show(result.counterexample)}${firstMet}`);
  }
}

/** Walks a section value for a few real pointers (a smaller subtree to ask for). */
function pointersIn(value: unknown, prefix = '', depth = 0, out: string[] = []): string[] {
  if (out.length >= 6 || depth > 4 || value === null || typeof value !== 'object') return out;
  for (const key of Object.keys(value).slice(0, 3)) {
    const pointer = `${prefix}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    out.push(pointer);
    pointersIn((value as Record<string, unknown>)[key], pointer, depth + 1, out);
  }
  return out;
}

beforeAll(async () => {
  provider = await startProvider();
  t = await startTestEngine({ SVC_EXECUTE_BUDGET_MS: String(EXECUTE_BUDGET_MS), SVC_PROVIDER_TIMEOUT_MS: '700' });
  for (const [service, secret] of [
    ['demo-crm', PROVIDER_SECRET],
    ['github', GITHUB_SECRET],
  ] as const) {
    const enabled = await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1', baseUrl: provider.url });
    if (enabled.status !== 200) throw new Error(`enable ${service}: ${JSON.stringify(enabled.body)}`);
    const set = await t.api('PUT', `/v1/buckets/default/secrets/${service}`, { value: secret });
    if (set.status !== 204) throw new Error(`secret ${service}: ${JSON.stringify(set.body)}`);
  }
  t.canaries.push(PROVIDER_SECRET, GITHUB_SECRET);
  const operations = OPERATIONS.map((id) => id.replace('.', '='));
  const published = await t.api('POST', '/v1/mcp/publish', { name: MCP_NAME, services: ['demo-crm=v1', 'github=v1'], operations });
  if (published.status !== 200) throw new Error(`publish: ${JSON.stringify(published.body)}`);
  server = published.body;
  t.canaries.push(server.token);
  const narrowToken = await t.api('POST', `/v1/mcp/${MCP_NAME}/tokens`, { allow: NARROW_ALLOW });
  t.canaries.push(narrowToken.body.token);
  main = await connect('main', server.token, null);
  narrow = await connect('narrow', narrowToken.body.token, NARROW_ALLOW);

  for (const id of OPERATIONS) {
    const o = await callTool(main, 'search_docs', { operationId: id });
    if (o.kind !== 'result' || o.result.isError) throw new Error(`exact lookup of ${id}: ${JSON.stringify(o)}`);
    const sc = o.result.structuredContent;
    sectionsOf.set(id, sc.schema_status.available_sections);
    for (const section of sc.schema_status.included_sections) for (const p of pointersIn(sc.sections[section])) realPointers.push([id, section, p]);
    // The sections left out: alone, or through the children a too-large refusal names.
    for (const section of sc.schema_status.available_sections.filter((n: string) => !sc.schema_status.included_sections.includes(n))) {
      const one = await callTool(main, 'search_docs', { operationId: id, section });
      const body = (one as { result: any }).result.structuredContent;
      if (!(one as { result: any }).result.isError) for (const p of pointersIn(body.sections[section])) realPointers.push([id, section, p]);
      else for (const p of String(body.message).match(/children: ([^)]*)/)?.[1]?.split(', ') ?? []) if (p.startsWith('/')) realPointers.push([id, section, p]);
    }
  }
  // A stored result in each session (this one's is paged; the other's is never readable here).
  const other = await connect('other', server.token, null);
  const stored = await callTool(other, 'execute', { code: 'return { data: Array.from({ length: 50 }, (_, i) => ({ id: i, t: "x".repeat(100) })) }', outputBudgetBytes: 1024 });
  foreignRef = (stored as { result: any }).result.structuredContent.result_ref;
  await other.client.close();
  const own = await callTool(main, 'execute', { code: 'return { data: Array.from({ length: 50 }, (_, i) => ({ id: "row_" + i, notes: "x".repeat(100) })) }', outputBudgetBytes: 1024 });
  main.refs.push((own as { result: any }).result.structuredContent.result_ref);
}, 60_000);

afterAll(async () => {
  await main?.client.close().catch(() => undefined);
  await narrow?.client.close().catch(() => undefined);
  await t?.stop(); // fails if a canary reached a log line
  await provider?.stop();
});

// Shrunk counterexamples of the fuzz below, kept as plain cases.
describe('found by the fuzz', () => {
  it('gives every tool refusal a recovery contract: search_docs refusals and unknown tools too', async () => {
    const correct = { execute_request: 'correct_arguments', provider_execution: 'not_started', automatic_replay: false };
    for (const [name, args] of [
      ['search_docs', { operation: '' }],
      ['search_docs', { operationId: 'demo-crm.nope' }],
      ['search_docs', { operationId: 'demo-crm.contacts/list', section: 'response:999' }],
      ['search_docs', { section: 'parameters' }],
      ['', {}],
      ['EXECUTE', { code: 'return 1' }],
    ] as const) {
      const o = await callTool(main, name, args);
      const sc = checkCommon(o, true);
      expect((o as { result: any }).result.isError, name).toBe(true);
      expect(sc.recovery, `${name} ${JSON.stringify(args)}`).toEqual(correct);
    }
  });

  it('quotes only the start of an unknown tool name or argument, keeping the refusal within 8 KiB', async () => {
    // checkCommon holds every error answer to 8 KiB; the messages show what is quoted.
    const tool = checkCommon(await callTool(main, '😀'.repeat(40_000), { code: 'return 1' }), true);
    expect(tool.message).toBe(`unknown tool '${'😀'.repeat(50)}…'; this server has search_docs and execute`);
    for (const name of ['search_docs', 'execute']) {
      const argument = checkCommon(await callTool(main, name, { ['k'.repeat(70_000)]: 1, code: 'return 1' }), true);
      expect(argument.message, name).toBe(`arguments/${'k'.repeat(100)}… is not an argument of this tool`);
    }
  });

  it('refuses a `__proto__` argument as it refuses any unknown argument (the SDK parse dropped it)', async () => {
    const mcp = rawMcp(server.url, server.token);
    const headers = await openSession(mcp);
    for (const [name, args] of [
      ['execute', '{"__proto__":null,"code":"return 1"}'],
      ['execute', '{"__proto__":{"outputBudgetBytes":1024},"code":"return 2"}'],
      ['search_docs', '{"__proto__":1,"query":"list contacts"}'],
    ]) {
      const res = await fetch(mcp.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${mcp.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`,
      });
      const body = (await res.json()) as any;
      expect(body.result?.isError, args).toBe(true);
      expect(body.result.structuredContent).toMatchObject({ code: 'ENGINE_INVALID_INPUT', message: 'arguments/__proto__ is not an argument of this tool' });
    }
  });

  it('sends no call() after the script has finished: an answer of not_started stays true', async () => {
    // The call is still reading its token and resolving its operation when the script throws; it
    // used to dispatch the mutation after the answer had said provider_execution: not_started.
    const code = 'void call("demo-crm.contacts/create", { body: { name: "Ada", email: "ada@example.test" } }).catch(() => 0);\nthrow new Error("early");';
    for (let i = 0; i < 20; i++) {
      const before = providerCount();
      const o = await callTool(main, 'execute', { code });
      await stillWorks(main);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const sc = checkCommon(o, true);
      if (sc.recovery.provider_execution === 'not_started') expect(providerCount().mutations, `attempt ${i}`).toBe(before.mutations);
    }
  });
});

describe('search_docs, fuzzed', () => {
  it('answers every argument combination with a precise result or refusal, within 64 KiB', async () => {
    await runProperty('search_docs', fc.tuple(searchArgs(), fc.boolean()), RUNS.search, async ([args, useNarrow]) => {
      const conn = useNarrow ? narrow : main;
      const httpFrom = conn.http.length;
      const logsFrom = t.logs.length;
      const before = providerCount();
      const outcome = await callTool(conn, 'search_docs', args);
      const sc = checkCommon(outcome, true);
      const isError = (outcome as { result: any }).result.isError === true;
      checkSearch(args, sc, isError, conn);
      if (isError) checkProviderExecution(sc, before, providerCount());
      checkLeaks(conn, httpFrom, logsFrom);
    });
    await stillWorks(main);
    await stillWorks(narrow);
  }, 120_000);

  it('refuses arguments that are not a JSON object with -32602, and unknown tool names as tool errors', async () => {
    await runProperty('search_docs non-object', fc.tuple(fc.oneof(wrongType.filter((v) => !isObject(v)), fc.string({ maxLength: 10 })), fc.constantFrom('search_docs', 'execute')), 30, async ([args, name]) => {
      const httpFrom = main.http.length;
      const logsFrom = t.logs.length;
      checkCommon(await callTool(main, name, args), false);
      await stillWorks(main);
      checkLeaks(main, httpFrom, logsFrom);
    });
    const names = fc
      .oneof(fc.constantFrom('EXECUTE', 'search_docs ', '', '__proto__', 'constructor', 'toString', 'search-docs', 'execute\u0000', '🎉', 'x'.repeat(9000), '😀'.repeat(40_000), '"\\'.repeat(3000)), fc.string({ unit: 'binary', maxLength: 20 }))
      .filter((n) => n !== 'execute' && n !== 'search_docs');
    await runProperty('unknown tools', fc.tuple(names, fc.constantFrom<Record<string, unknown>>({}, { code: 'return 1' }, { query: 'x' })), 30, async ([name, args]) => executeCase(main, args, name));
  }, 60_000);
});

describe('execute, fuzzed', () => {
  it('answers odd arguments (code values, budgets, unknown keys) precisely', async () => {
    const args = fc
      .tuple(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ODD_CODE) }, { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) }),
        budget,
        sometimes(fc.dictionary(fc.constantFrom('query', 'timeout', 'session', 'Code', '__proto__', 'sessionId', 'k'.repeat(70_000), '"\\'.repeat(2000)), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 2 }), 1, 6),
        fc.boolean(),
      )
      .map(([code, b, extra, omitCode]) => ({ ...(extra ?? {}), ...(omitCode ? {} : { code }), ...(b === undefined ? {} : { outputBudgetBytes: b }) }));
    await runProperty('execute arguments', args, RUNS.executeArgs, (a) => executeCase(main, a));
  }, 120_000);

  it('answers composed scripts (calls, session state, timers, throws, odd returns) within the rules', async () => {
    await runProperty('execute scripts', fc.tuple(script, budget.filter((b) => b === undefined || typeof b === 'number'), fc.nat(9)), RUNS.scripts, async ([code, b, pick]) => {
      const conn = pick < 2 ? narrow : main;
      await executeCase(conn, { code: withRefs(code, conn), ...(b === undefined ? {} : { outputBudgetBytes: b }) });
    });
  }, 240_000);

  it('returns any JSON value it is given, inline or as a snapshot of the same size', async () => {
    const value = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }), fc.integer({ min: 100, max: 40_000 })).map(([s, n]) => s.repeat(n)));
    // A session of its own: the scripts above may have filled main's 4 MiB with session.set values.
    const echo = await connect('echo', server.token, null);
    await runProperty('execute echo', fc.tuple(value, fc.constantFrom(1024, 4096, 16_384, 65_536), fc.boolean()), RUNS.echo, async ([v, b, parsed]) => {
      const json = JSON.stringify(v);
      // In a script, an object literal's "__proto__" member sets the prototype (ECMAScript, not JSON): such values go through JSON.parse.
      const code = parsed || json.includes('"__proto__"') ? `return JSON.parse(${lit(json)});` : `return ${json};`;
      const outcome = await callTool(echo, 'execute', { code, outputBudgetBytes: b });
      const sc = checkCommon(outcome, true);
      if (codePoints(code) > 100_000) {
        if (sc.code !== 'ENGINE_INVALID_INPUT') fail('code over 100,000 characters not refused', sc);
        return;
      }
      if ((outcome as { result: any }).result.isError) fail('returning a JSON value failed', sc);
      if (sc.code === 'MCP_RESULT_STORED') {
        if (sc.byte_size !== bytes(json)) fail(`a snapshot of ${sc.byte_size} bytes for a ${bytes(json)}-byte value`, sc);
      } else if (JSON.stringify(sc.result) !== json) fail('the returned value changed on the way', { sent: json.slice(0, 200), got: JSON.stringify(sc.result).slice(0, 200) });
    });
    await echo.client.close();
  }, 120_000);
});

describe('raw HTTP, where the SDK client would not send it', () => {
  let mcp: RawMcp;
  let headers: Record<string, string>;
  beforeAll(async () => {
    mcp = rawMcp(server.url, server.token);
    headers = await openSession(mcp);
    sessionIds.push(headers['mcp-session-id']!);
  });

  it('answers hand-written tools/call bodies with a JSON-RPC result or a precise error, never a 5xx', async () => {
    const argsText = fc.oneof(
      fc.constantFrom(
        '{"code":"return 1","outputBudgetBytes":1e400}',
        '{"code":"return 1","outputBudgetBytes":-1e400}',
        '{"code":"return 1","outputBudgetBytes":2048.0}',
        '{"code":"return 1","outputBudgetBytes":2.048e3}',
        '{"code":"return 1","outputBudgetBytes":-0}',
        '{"code":"return 1","outputBudgetBytes":100000000000000000000000000000}',
        '{"code":"return 1","code":"return 2"}',
        '{"code":"return \\"\\ud800\\""}',
        '{"code":"\\ud800"}',
        '{"code":"return 1","__proto__":{"outputBudgetBytes":1}}',
        '{"__proto__":{"code":"return 1"}}',
        `{"code":"return 1","x":${'['.repeat(5000)}${']'.repeat(5000)}}`,
        `{"code":${'['.repeat(5000)}${']'.repeat(5000)}}`,
        `{"code":"return 1","outputBudgetBytes":{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}}`,
        '{"query":"x","limit":1e400}',
        '{"query":"x","limit":3.0}',
        '{"operationId":"demo-crm.contacts/list","section":"parameters","schemaPath":"/\\ud800"}',
        '{"query":"\\u0000\\ud800\\udfff"}',
        `{"query":${'['.repeat(5000)}${']'.repeat(5000)}}`,
        '[]',
        '"return 1"',
        'null',
        '1e400',
        '{}',
      ),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    );
    const tool = fc.constantFrom('"execute"', '"search_docs"', '"EXECUTE"', '42', 'null', '["execute"]');
    const id = fc.constantFrom('1', '"a"', '9007199254740993', '1.5', '-1', '"\\ud800"', '""');
    const body = fc
      .tuple(tool, argsText, id, fc.constantFrom('', ',"_meta":{"progressToken":1}', ',"_meta":{"progressToken":{}}', ',"_meta":null', ',"extra":1'), fc.boolean())
      .map(([name, args, rid, meta, omitArgs]) => ({ name, args: omitArgs ? '{}' : args, text: `{"jsonrpc":"2.0","id":${rid},"method":"tools/call","params":{"name":${name}${omitArgs ? '' : `,"arguments":${args}`}${meta}}}` }));
    await runProperty('raw tools/call', body, RUNS.raw, async ({ name, args, text }) => {
      const logsFrom = t.logs.length;
      const before = providerCount();
      let res: Response;
      try {
        res = await fetch(mcp.url, {
          method: 'POST',
          headers: { authorization: `Bearer ${mcp.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: text,
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        });
      } catch (err) {
        return fail(`the request failed (a hang or a dropped connection): ${String(err)}`, text.slice(0, 200));
      }
      const answer = await res.text();
      if (res.status >= 500) fail(`an HTTP ${res.status}`, answer.slice(0, 300));
      let json: any;
      try {
        json = JSON.parse(answer);
      } catch {
        fail('an answer that is not JSON', answer.slice(0, 300));
      }
      if (json?.jsonrpc !== '2.0') fail('an answer that is not JSON-RPC', json);
      if (json.error) {
        if (json.error.code === ErrorCode.InternalError) fail('a -32603 Internal error', json);
        if (typeof json.error.code !== 'number' || typeof json.error.message !== 'string') fail('a malformed JSON-RPC error', json);
      } else {
        const result = json.result;
        const outcome: Outcome = { kind: 'result', result, text: result?.content?.[0]?.text };
        const sc = checkCommon(outcome, true);
        if (result.isError) checkProviderExecution(sc, before, providerCount());
        // The tools' own schemas, on the arguments exactly as sent (JSON.parse keeps a `__proto__` member).
        const sent: unknown = JSON.parse(args);
        const refusal = !isObject(sent) ? undefined : name === '"execute"' ? executeSchemaRefusal(sent) : name === '"search_docs"' ? searchSchemaRefusal(sent) : undefined;
        if (refusal && (!result.isError || sc.code !== 'ENGINE_INVALID_INPUT')) fail(`arguments the schema refuses (${refusal}) not refused as ENGINE_INVALID_INPUT`, sc);
      }
      const check = await mcp.post({ jsonrpc: '2.0', id: 'check', method: 'tools/call', params: { name: 'execute', arguments: { code: 'return 1' } } }, headers);
      if (check.status !== 200 || !isDeepStrictEqual(check.body?.result?.structuredContent, { result: 1 })) fail('the raw session no longer works after the case', check.body);
      checkLeaks(undefined, 0, logsFrom, answer);
    });
  }, 120_000);
});

describe('after the fuzz', () => {
  it('still serves both sessions and answers its health endpoint', async () => {
    await stillWorks(main);
    await stillWorks(narrow);
    const res = await fetch(`${t.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
