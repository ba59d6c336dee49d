// The hot path: FAST_ROUTES (the execution route) and the raw MCP routes matched in the node:http
// handler ahead of Koa, running the same bound route and error answer and writing the same bytes
// without building a Koa context. A request not in canonical form (another method, a query string,
// percent-encoding, a trailing slash) falls through to Koa, so every edge case keeps Koa's behaviour.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import Koa from 'koa';
import { routes, type OperationId, type RouteSpec } from '../../generated/engine-api/routes.ts';
import { EngineError } from '../envelope/index.ts';
import { bindCall, type RequestState, type RouteCall } from './binding.ts';
import { errorAnswer } from './error-answer.ts';
import type { HandlerResult, Handlers, ServerDeps } from './types.ts';
import { hostOf } from './request-info.ts';
import { serveTraced } from '../telemetry/index.ts';

/** Routes served ahead of Koa when the request is in canonical form. */
const FAST_ROUTES: ReadonlySet<string> = new Set<OperationId>(['createExecution']);

const JSON_TYPE = 'application/json; charset=utf-8';

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

/** contentTypeOf's answers: handlers name a few constant types (the execution route one), read once each. */
const contentTypes = new Map<string, string>();

/** The Content-Type Koa's `ctx.type = type` would set, for the types the fast routes use. */
function contentTypeOf(type: string): string {
  let known = contentTypes.get(type);
  if (known === undefined) {
    known = koaContentType(type);
    if (contentTypes.size >= 64) contentTypes.clear();
    contentTypes.set(type, known);
  }
  return known;
}

function koaContentType(type: string): string {
  if (!type.includes('/')) {
    const short: Record<string, string> = { json: JSON_TYPE, html: 'text/html; charset=utf-8', text: 'text/plain; charset=utf-8' };
    return short[type] ?? 'application/octet-stream';
  }
  if (/;\s*charset=/i.test(type) || !(type.startsWith('text/') || type === 'application/json')) return type;
  return `${type}; charset=utf-8`;
}

/** Writes a handler result exactly as the Koa binder and Koa's `respond` would, in one writeHead. */
export function writeResult(res: ServerResponse, status: number, result: HandlerResult | undefined, body: unknown): void {
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

export function fastRoutes(handlers: Handlers, deps: ServerDeps): FastRoute[] {
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

/**
 * Serves one request of a bound fast route. Not an async function: the answer is written in the
 * reaction to the handler's own promise, and every failure, writing included, is handled there, so
 * no further promise waits on it (an async function and a `.catch` on it were two microtask hops).
 */
function serveFast(fast: FastRoute & { call: (call: RouteCall) => Promise<HandlerResult> }, match: RegExpExecArray, req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> {
  // The clock is read only for the debug line that uses it.
  const debug = deps.log.levelVal <= (deps.log.levels.values.debug ?? 20);
  const started = debug ? performance.now() : 0;
  const respond = (status: number, result: HandlerResult | undefined, body: unknown) => {
    try {
      if (!res.destroyed && !res.writableEnded) writeResult(res, status, result, body);
      if (debug) deps.log.debug({ method: req.method, route: fast.route.koaPath, status, ms: performance.now() - started }, 'request');
    } catch (err) {
      responseFailed(err, fast, req, res, deps);
    }
  };
  const refused = (err: unknown) => {
    let answer: ReturnType<typeof errorAnswer>;
    try {
      answer = errorAnswer(err, { log: deps.log, method: req.method, route: fast.route.koaPath });
    } catch (failure) {
      return responseFailed(failure, fast, req, res, deps);
    }
    respond(answer.status, answer.headers ? { headers: answer.headers } : undefined, answer.body);
  };
  let called: Promise<HandlerResult>;
  try {
    called = fast.call({ req, path: paramsOf(fast, match), query: {}, host: () => hostOf(req), state: {} });
  } catch (err) {
    called = Promise.reject(err);
  }
  return called.then((result) => {
    const status = result.status ?? fast.route.successStatus;
    if (status === 404 && result.body === undefined) return refused(new EngineError('ENGINE_NOT_FOUND', `no route for ${req.method} ${req.url}`));
    respond(status, result, result.body);
  }, refused);
}

/** A raw fast route (MCP): the handler writes its own answer. */
async function serveRaw(fast: FastRoute & { raw: RawHandler }, match: RegExpExecArray, req: IncomingMessage, res: ServerResponse): Promise<void> {
  await fast.raw({ params: paramsOf(fast, match), req, res });
}

/** A failure past the handler's answer (writing it, or a raw handler's): logged, then the envelope, as the Koa path answers, or the connection cut. */
function responseFailed(err: unknown, fast: FastRoute, req: IncomingMessage, res: ServerResponse, deps: ServerDeps): void {
  deps.log.error({ err, method: req.method, route: fast.route.koaPath }, 'response failed');
  if (res.headersSent) return void res.destroy();
  const answer = errorAnswer(err);
  writeResult(res, answer.status, answer.headers ? { headers: answer.headers } : undefined, answer.body);
}

/** Koa, with the FAST_ROUTES served ahead of the middleware stack in `callback()`. */
export class EngineApp extends Koa<RequestState> {
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
          // A span per request while tracing is on (src/telemetry), named after the route.
          return serveTraced(req, res, f.route.path, () =>
            f.raw ? serveRaw(f, match, req, res).catch((err: unknown) => responseFailed(err, f, req, res, deps)) : serveFast(f, match, req, res, deps),
          );
        }
      }
      return serveTraced(request as IncomingMessage, response as ServerResponse, undefined, () => koa(request, response));
    };
  }
}
