// The Engine's HTTP surface: a Koa app whose routes come from the generated route table.
// Middleware order: errors → auth → parameters → body; handlers see validated, typed input.
//
// Hot path: the execution route (FAST_ROUTES) is matched in the node:http handler ahead of Koa
// and runs the very same bound route (same token check, generated validators, body reader and
// handler) with the same error mapping and response bytes, without building a Koa context. Raw
// routes (the MCP endpoints, which answer on the response themselves) are matched there too.
// Anything that does not match its canonical form exactly (other methods, a query string, percent-
// encoding, a trailing slash) falls through to Koa, so every edge case keeps Koa's behaviour.
import { isUtf8 } from 'node:buffer';
import { BlockList, isIP, isIPv4, type Socket } from 'node:net';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import * as bodyValidators from '../../generated/engine-api/body-validators.js';
import * as paramValidators from '../../generated/engine-api/param-validators.js';
import { routes, type OperationId, type RouteSpec } from '../../generated/engine-api/routes.ts';
import { EngineError, failure, toEnvelope } from '../envelope/index.ts';
import { requestValidationError } from '../execution/index.ts';
import { bearerFrom } from '../identity/index.ts';
import { checkJsonInput, parseJsonText } from '../json-input/index.ts';
import type { TokenRow } from '../store/index.ts';
import type { ValidateFunction } from 'ajv';
import { createHandlers, retryAfterOf, type HandlerResult, type Handlers, type ServerDeps } from './handlers.ts';

export type { ServerDeps, Handlers };
export { createHandlers };
export { HttpDrain, type DrainReport, type ResponseObserver } from './drain.ts';
export { answerClientErrors, closeStalledSends, refuseExpectation, requireHost } from './client-errors.ts';

export interface RequestState {
  principal?: TokenRow;
}

/** Routes served ahead of Koa when the request is in canonical form. */
const FAST_ROUTES: ReadonlySet<string> = new Set<OperationId>(['createExecution']);

const JSON_TYPE = 'application/json; charset=utf-8';

/** A request header as Koa's `ctx.get` reads it ('' when absent). */
function headerOf(req: IncomingMessage, field: string): string {
  const name = field.toLowerCase();
  if (name === 'referer' || name === 'referrer') return (req.headers.referrer as string | undefined) || req.headers.referer || '';
  return (req.headers[name] as string | undefined) || '';
}

/** Koa's `ctx.host` (the app does not trust proxy headers). */
function hostOf(req: IncomingMessage): string {
  let host = req.httpVersionMajor >= 2 ? headerOf(req, ':authority') : '';
  if (!host) host = headerOf(req, 'host');
  if (!host) return '';
  host = host.split(',', 1)[0]!.trim();
  if (host.includes('@')) {
    try {
      host = new URL(`http://${host}`).host;
    } catch {
      return '';
    }
  }
  return host;
}

const bodyRequired = (kind: RouteSpec['bodyType']) =>
  new EngineError('ENGINE_INVALID_INPUT', `body: a ${kind === 'form' ? 'form' : 'JSON request'} body is required`, { details: { field: 'body' } });
const tooLarge = (limit: number) =>
  new EngineError('ENGINE_INPUT_TOO_LARGE', `body: the request body exceeds the ${limit}-byte limit`, { details: { limitBytes: limit } });
const unreadable = () => new EngineError('ENGINE_INVALID_INPUT', 'body: the request body could not be read', { details: { field: 'body' } });

/**
 * Reads the whole body as UTF-8 (a leading BOM dropped), refusing it past `limit` bytes or when it
 * does not match its Content-Length. The semantics of raw-body, without its per-request set-up.
 */
function readText(req: IncomingMessage, limit: number, length: number | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    if (req.readable === false) return reject(unreadable());
    const chunks: Buffer[] = [];
    let received = 0;
    let complete = false;
    const cleanup = () => {
      req.removeListener('aborted', onAborted);
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onEnd);
      req.removeListener('close', cleanup);
    };
    const fail = (err: EngineError) => {
      complete = true;
      cleanup();
      req.unpipe();
      req.pause();
      reject(err);
    };
    function onAborted() {
      if (!complete) fail(unreadable());
    }
    function onData(chunk: Buffer) {
      if (complete) return;
      received += chunk.length;
      if (received > limit) fail(tooLarge(limit));
      else chunks.push(chunk);
    }
    function onEnd(err?: unknown) {
      if (complete) return;
      if (err || (length !== undefined && received !== length)) return fail(unreadable());
      complete = true;
      cleanup();
      try {
        resolve(utf8Text(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received)));
      } catch (err) {
        reject(err);
      }
    }
    req.on('aborted', onAborted);
    req.on('close', cleanup);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onEnd);
  });
}

/** A message already parsed in full has its whole body in the stream's buffer: read it synchronously. */
function readBuffered(req: IncomingMessage, limit: number, length: number | undefined): string {
  const chunks: Buffer[] = [];
  let received = 0;
  for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
    chunks.push(chunk);
    received += chunk.length;
  }
  if (received > limit) throw tooLarge(limit);
  if (length !== undefined && received !== length) throw unreadable();
  return utf8Text(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
}

/** The body as text (a leading BOM dropped); bytes that are not UTF-8 are refused, not replaced with U+FFFD. */
function utf8Text(bytes: Buffer): string {
  if (!isUtf8(bytes)) throw new EngineError('ENGINE_INVALID_INPUT', 'body: not valid UTF-8', { details: { field: 'body' } });
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Set by `acceptExpectContinue` on a request that sent `Expect: 100-continue`: sends the 100 once. */
const SEND_CONTINUE = Symbol('svc.sendContinue');
type ExpectingContinue = IncomingMessage & { [SEND_CONTINUE]?: () => void };

/**
 * Node's 'checkContinue' listener: the request is served as any other, and its `100 Continue` is
 * sent only when a route reads the body — a refusal before that (token, Content-Type, a declared
 * length past the limit) comes without first inviting the upload. MCP reads its own body: at once.
 */
export function acceptExpectContinue(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if ((req.url ?? '').startsWith('/mcp/')) res.writeContinue();
    else {
      (req as ExpectingContinue)[SEND_CONTINUE] = () => {
        delete (req as ExpectingContinue)[SEND_CONTINUE];
        res.writeContinue();
      };
    }
    handle(req, res);
  };
}

/**
 * The parsed and validated request body. At once when the message is already complete (the usual
 * small JSON body arrives with its headers), else a promise of it: a parsed body is never itself a promise.
 */
function readBody(req: IncomingMessage, limit: number, required: boolean, kind: RouteSpec['bodyType'], secret: boolean, validate: ValidateFunction): unknown {
  const headers = req.headers;
  const contentType = headers['content-type'] ?? '';
  const semicolon = contentType.indexOf(';');
  // Media types are case-insensitive, with optional whitespace before parameters (RFC 9110 §8.3.1).
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  const expected = kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  const declared = headers['content-length'];
  const parsedLength = declared ? Number.parseInt(declared, 10) : undefined;
  const length = parsedLength === undefined || Number.isNaN(parsedLength) ? undefined : parsedLength;
  // No body: no length and no chunks, or `Content-Length: 0` (what fetch sends for a bodyless POST, with no type).
  if ((!declared || length === 0) && !headers['transfer-encoding']) {
    if (required) throw bodyRequired(kind);
    return undefined;
  }
  if (type !== expected) {
    throw new EngineError('ENGINE_INVALID_INPUT', `body: Content-Type must be ${expected}`, { details: { field: 'content-type' } });
  }
  // A compressed body is never read as if it were the JSON it encodes.
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new EngineError('ENGINE_INVALID_INPUT', 'body: Content-Encoding is not supported; send the body uncompressed', { details: { field: 'content-encoding' } });
  }
  if (length !== undefined && length > limit) throw tooLarge(limit);
  // Expect: 100-continue: the client waits for this before sending; only now, once the checks above passed.
  (req as ExpectingContinue)[SEND_CONTINUE]?.();
  if (req.complete) return parseBody(readBuffered(req, limit, length), required, kind, secret, validate);
  return readText(req, limit, length).then((text) => parseBody(text, required, kind, secret, validate));
}

function parseBody(text: string, required: boolean, kind: RouteSpec['bodyType'], secret: boolean, validate: ValidateFunction): unknown {
  if (text === '') {
    if (required) throw bodyRequired(kind);
    return undefined;
  }
  const value = kind === 'form' ? Object.fromEntries(new URLSearchParams(text)) : parseJsonText(text, 'body');
  if (!validate(value)) throw requestValidationError('body', validate, secret);
  // The schema first, then the reader's own checks (nesting, numbers a double would change): a field
  // of the wrong type is named by its schema, and what passes it is named by its place in the body.
  if (kind === 'json') checkJsonInput(text, value, 'body', secret, true);
  return value;
}

interface RouteCall {
  req: IncomingMessage;
  /** Path parameters, already decoded. */
  path: Record<string, string>;
  query: Record<string, unknown>;
  host: () => string;
  state: RequestState;
}

/**
 * A handler's input. `host` is computed only when read (one handler reads it), through a getter on
 * the prototype. An object literal with its own getter closing over the request made ~1 KB of every
 * request survive young collections and be promoted (measured); most likely its fresh accessor pair
 * and hidden class per call kept each request's closure reachable from the old generation.
 */
class CallInput {
  readonly params: Record<string, unknown>;
  readonly body: unknown;
  readonly principal: TokenRow | undefined;
  readonly origin: string | undefined;
  private readonly hostOf: () => string;
  private readonly req: IncomingMessage;
  private readonly trustedProxies: TrustedProxies;

  constructor(params: Record<string, unknown>, body: unknown, principal: TokenRow | undefined, call: RouteCall, trustedProxies: TrustedProxies) {
    this.params = params;
    this.body = body;
    this.principal = principal;
    this.origin = call.req.headers.origin || undefined;
    this.req = call.req;
    this.hostOf = call.host;
    this.trustedProxies = trustedProxies;
  }

  /** The client's connection: a call made for it is cancelled if it closes first. */
  get connection(): Socket {
    return this.req.socket;
  }

  get host(): string {
    return this.hostOf();
  }

  /** The browser's Sec-Fetch-Site (same-origin, same-site, cross-site, none), when it sent one. */
  get fetchSite(): string | undefined {
    const site = this.req.headers['sec-fetch-site'];
    return typeof site === 'string' ? site : undefined;
  }

  /** The request's Cookie header, when present. */
  get cookie(): string | undefined {
    return this.req.headers.cookie || undefined;
  }

  /** The client's address, the key of per-client limits: see clientAddress. */
  get client(): string {
    return clientAddress(this.req, this.trustedProxies);
  }
}

/** Whether an address (already plain) is one of SVC_TRUSTED_PROXIES' addresses or ranges. */
export type TrustedProxies = (address: string) => boolean;

/** Entries are checked by loadConfig: addresses and CIDR ranges. */
export function trustedProxiesOf(entries: readonly string[]): TrustedProxies {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/') as [string, string | undefined];
    const family = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/** One matcher per configured list, shared by every bound route (built once, not per route). */
const trustedByList = new WeakMap<readonly string[], TrustedProxies>();
function trustedProxiesFor(entries: readonly string[]): TrustedProxies {
  let trusted = trustedByList.get(entries);
  if (!trusted) trustedByList.set(entries, (trusted = trustedProxiesOf(entries)));
  return trusted;
}

/** An IPv4-mapped IPv6 address as its IPv4 form, so one client has one key. */
const plainAddress = (address: string) => (address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address);

/**
 * The address a request came from. Behind a proxy listed in SVC_TRUSTED_PROXIES, the nearest
 * X-Forwarded-For entry that is not itself a trusted proxy (entries further left are the client's
 * own say, which anyone can forge); otherwise the peer. Without it, every client behind a load
 * balancer shares its address, and one could lock all of them out of sign-in.
 */
export function clientAddress(req: IncomingMessage, trustedProxies: TrustedProxies): string {
  const peer = plainAddress(req.socket.remoteAddress ?? 'unknown');
  if (!trustedProxies(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((h) => plainAddress(h.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!isIP(hop)) return peer; // a malformed entry: nothing left of it can be trusted
    if (!trustedProxies(hop)) return hop;
  }
  return peer;
}

/** One bound (non-raw) route: authentication, parameters, body and handler, surface-independent. */
function bindCall(route: RouteSpec, handlers: Handlers, deps: ServerDeps): (call: RouteCall) => Promise<HandlerResult> {
  const handler = handlers[route.operationId as OperationId] as (input: unknown) => Promise<HandlerResult>;
  const paramValidator = route.paramValidator ? (paramValidators as Record<string, ValidateFunction>)[route.paramValidator] : undefined;
  const bodyValidator = route.bodyValidator ? (bodyValidators as Record<string, ValidateFunction>)[route.bodyValidator] : undefined;
  const bodyLimit = route.maxBodyBytes ?? deps.config.maxRequestBytes;
  const kind = route.security === 'cliCredential' ? 'cli' : route.security === 'executionToken' ? 'sdk' : undefined;
  const trustedProxies = trustedProxiesFor(deps.config.trustedProxies);
  return async (call) => {
    const { req, path, query, state } = call;
    const bearer = bearerFrom(req.headers.authorization);
    if (kind) state.principal = deps.tokens.verifySync(bearer, kind) ?? (await deps.tokens.verify(bearer, kind));

    const params: Record<string, unknown> = {};
    for (const p of route.params) {
      const value = p.in === 'path' ? path[p.name] : p.in === 'query' ? query[p.name] : headerOf(req, p.name) || undefined;
      if (value !== undefined) params[p.name] = value;
    }
    if (paramValidator && !paramValidator(params)) throw requestValidationError('parameters', paramValidator);

    let body: unknown;
    if (bodyValidator) {
      body = readBody(req, bodyLimit, route.bodyRequired, route.bodyType, route.secretBody, bodyValidator);
      if (body instanceof Promise) body = await body;
    }
    return handler(new CallInput(params, body, state.principal, call, trustedProxies));
  };
}

function bindRoute(router: Router<RequestState>, route: RouteSpec, handlers: Handlers, deps: ServerDeps) {
  if (route.raw) {
    const handler = handlers[route.operationId as OperationId];
    router.register(route.koaPath, [route.method], async (ctx) => {
      ctx.respond = false;
      try {
        await handler({ params: ctx.params, req: ctx.req, res: ctx.res } as never);
      } catch (err) {
        // A raw handler that fails before answering gets the envelope, not a request left hanging.
        if (ctx.res.headersSent) return void ctx.res.destroy();
        ctx.respond = true;
        throw err;
      }
    });
    return;
  }
  const call = bindCall(route, handlers, deps);
  router.register(route.koaPath, [route.method], async (ctx) => {
    const result = await call({ req: ctx.req, path: ctx.params, query: ctx.query, host: () => ctx.host, state: ctx.state });
    ctx.status = result.status ?? route.successStatus;
    if (result.headers) ctx.set(result.headers);
    if (result.type) ctx.type = result.type;
    if (result.body !== undefined) ctx.body = result.body;
  });
}

/** A route's path template as a matcher over the raw request URL: canonical form only. */
function matcherFor(route: RouteSpec): { names: string[]; pattern: RegExp } {
  const names: string[] = [];
  const source = route.path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{([^}]+)\}$/.exec(part);
      if (m) {
        names.push(m[1]!);
        return '([^/?#%]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return { names, pattern: new RegExp(`^${source}$`) };
}

const EMPTY_STATUS = new Set([204, 205, 304]);

/** The Content-Type Koa's `ctx.type = type` would set, for the types the fast routes use. */
function contentTypeOf(type: string): string {
  if (!type.includes('/')) {
    const short: Record<string, string> = { json: JSON_TYPE, html: 'text/html; charset=utf-8', text: 'text/plain; charset=utf-8' };
    return short[type] ?? 'application/octet-stream';
  }
  if (/;\s*charset=/i.test(type) || !(type.startsWith('text/') || type === 'application/json')) return type;
  return `${type}; charset=utf-8`;
}

/** Writes a handler result exactly as the Koa binder and Koa's `respond` would, in one writeHead. */
function writeResult(res: ServerResponse, status: number, result: HandlerResult | undefined, body: unknown): void {
  const headers: Record<string, string | number> = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  if (result?.headers) for (const k in result.headers) headers[k] = result.headers[k]!;
  if (EMPTY_STATUS.has(status)) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  let type = result?.type ? contentTypeOf(result.type) : undefined;
  let payload: string | Buffer;
  if (body === undefined || body === null) {
    payload = STATUS_CODES[status] ?? String(status);
    type = 'text/plain; charset=utf-8';
  } else if (typeof body === 'string') {
    payload = body;
    type ??= /^\s*</.test(body) ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8';
  } else if (Buffer.isBuffer(body)) {
    payload = body;
    type ??= 'application/octet-stream';
  } else {
    payload = JSON.stringify(body);
    type = JSON_TYPE;
  }
  headers['Content-Type'] = type;
  headers['Content-Length'] = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  res.writeHead(status, headers);
  res.end(payload);
}

type RawHandler = (input: { params: Record<string, string>; req: IncomingMessage; res: ServerResponse }) => Promise<unknown>;

type FastRoute = { method: string; names: string[]; pattern: RegExp; route: RouteSpec } & (
  | { raw: RawHandler; call?: undefined }
  | { raw?: undefined; call: (call: RouteCall) => Promise<HandlerResult> }
);

function fastRoutes(handlers: Handlers, deps: ServerDeps): FastRoute[] {
  return routes
    .filter((r) => FAST_ROUTES.has(r.operationId) || r.raw)
    .map((route): FastRoute =>
      route.raw
        ? { method: route.method, route, ...matcherFor(route), raw: handlers[route.operationId as OperationId] as unknown as RawHandler }
        : { method: route.method, route, ...matcherFor(route), call: bindCall(route, handlers, deps) },
    );
}

const paramsOf = (fast: FastRoute, match: RegExpExecArray) => {
  const path: Record<string, string> = {};
  for (let i = 0; i < fast.names.length; i++) path[fast.names[i]!] = match[i + 1]!;
  return path;
};

async function serveFast(fast: FastRoute, match: RegExpExecArray, req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> {
  if (fast.raw) return void (await fast.raw({ params: paramsOf(fast, match), req, res }));
  const started = performance.now();
  const path = paramsOf(fast, match);
  let status: number;
  let result: HandlerResult | undefined;
  let body: unknown;
  try {
    result = await fast.call({ req, path, query: {}, host: () => hostOf(req), state: {} });
    status = result.status ?? fast.route.successStatus;
    body = result.body;
    if (status === 404 && body === undefined) throw new EngineError('ENGINE_NOT_FOUND', `no route for ${req.method} ${req.url}`);
  } catch (err) {
    if (!(err instanceof EngineError)) deps.log.error({ err, method: req.method, route: fast.route.koaPath }, 'request failed');
    const envelope = toEnvelope(err);
    status = envelope.status;
    const retryAfter = retryAfterOf(envelope);
    result = retryAfter ? { headers: { 'retry-after': retryAfter } } : undefined;
    body = envelope;
  }
  if (!res.destroyed && !res.writableEnded) writeResult(res, status, result, body);
  if (deps.log.levelVal <= (deps.log.levels.values.debug ?? 20)) {
    deps.log.debug({ method: req.method, route: fast.route.koaPath, status, ms: performance.now() - started }, 'request');
  }
}

/** Koa, with the FAST_ROUTES served ahead of the middleware stack in `callback()`. */
class EngineApp extends Koa<RequestState> {
  private readonly fast: FastRoute[];
  private readonly deps: ServerDeps;

  constructor(deps: ServerDeps, fast: FastRoute[]) {
    super({ proxy: false });
    this.deps = deps;
    this.fast = fast;
  }

  override callback(): ReturnType<Koa['callback']> {
    const koa = super.callback();
    const fast = this.fast;
    const deps = this.deps;
    return (request, response) => {
      if (request.httpVersionMajor < 2) {
        const req = request as IncomingMessage;
        const res = response as ServerResponse;
        const url = req.url ?? '';
        for (const f of fast) {
          if (req.method !== f.method) continue;
          const match = f.pattern.exec(url);
          if (!match) continue;
          return serveFast(f, match, req, res, deps).catch((err: unknown) => {
            deps.log.error({ err, method: req.method, route: f.route.koaPath }, 'response failed');
            // The envelope, as the Koa path answers a raw handler's failure.
            if (res.headersSent) return void res.destroy();
            const envelope = toEnvelope(err);
            writeResult(res, envelope.status, undefined, envelope);
          });
        }
      }
      return koa(request, response);
    };
  }
}

/** Refused by routing: no handler ran, so nothing reached a provider. */
const NOT_STARTED = { provider_execution: 'not_started' } as const;

/**
 * The route template a request matched (`/v1/tokens/:id`), never its path: a path may hold a value
 * the caller should not have put there (a token where its ID belongs).
 */
const routeOf = (ctx: Koa.Context) => (ctx as { _matchedRoute?: string })._matchedRoute ?? '(no route)';

/** Builds the HTTP app. Throws when the spec declares an operation that has no handler. */
export function createHttpApp(deps: ServerDeps, handlers: Partial<Handlers> = createHandlers(deps)): Koa<RequestState> {
  const missing = routes.filter((r) => typeof handlers[r.operationId as OperationId] !== 'function').map((r) => r.operationId);
  if (missing.length) {
    throw new Error(`spec/engine.openapi.yaml declares operations with no handler: ${missing.join(', ')}`);
  }
  const app = new EngineApp(deps, fastRoutes(handlers as Handlers, deps));
  // Paths are case-sensitive, as on the fast path (the drain and metrics read `/mcp/` as written).
  // TRACE is an HTTP method a route does not take (405), not an unknown one (501).
  const router = new Router<RequestState>({ sensitive: true, methods: ['HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'POST', 'DELETE', 'TRACE'] });
  for (const route of routes) bindRoute(router, route, handlers as Handlers, deps);

  app.use(async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new EngineError('ENGINE_NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
      }
      if (ctx.status === 405) {
        ctx.body = failure(405, { code: 'ENGINE_METHOD_NOT_ALLOWED', message: `${ctx.method} is not allowed on ${ctx.path}`, retryable: false, details: NOT_STARTED });
      }
      if (ctx.status === 501 && ctx.body === undefined) {
        // A method no route uses (PROPFIND): the router answers 501, with no body of its own.
        ctx.body = failure(501, { code: 'ENGINE_METHOD_NOT_ALLOWED', message: `${ctx.method} is not a method this Engine serves`, retryable: false, details: NOT_STARTED });
      }
    } catch (err) {
      if (!(err instanceof EngineError)) deps.log.error({ err, method: ctx.method, route: routeOf(ctx) }, 'request failed');
      const envelope = toEnvelope(err);
      ctx.status = envelope.status;
      const retryAfter = retryAfterOf(envelope);
      if (retryAfter) ctx.set('retry-after', retryAfter);
      ctx.body = envelope;
    }
    // Answers carry credentials (tokens, device codes) or workspace state, refusals included: never kept by a cache.
    if (ctx.respond !== false && !ctx.headerSent) ctx.set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    deps.log.debug({ method: ctx.method, route: routeOf(ctx), status: ctx.status, ms: performance.now() - started }, 'request');
  });
  // A client that resets or sends a malformed body mid-request: Koa would print its stack to stderr.
  app.on('error', (err: unknown) => deps.log.debug({ err }, 'client connection error'));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
