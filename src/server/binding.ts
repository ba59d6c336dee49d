// A route of the generated table bound to its handler: token, parameters, body, then the handler,
// the same whether Koa or the fast path serves the request.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type Router from '@koa/router';
import type { ValidateFunction } from 'ajv';
import * as bodyValidators from '../../generated/engine-api/body-validators.js';
import * as paramValidators from '../../generated/engine-api/param-validators.js';
import type { OperationId, RouteSpec } from '../../generated/engine-api/routes.ts';
import { requestValidationError } from '../execution/index.ts';
import { bearerFrom } from '../identity/index.ts';
import type { TokenRow } from '../store/index.ts';
import type { HandlerResult, Handlers, ServerDeps } from './types.ts';
import { readBody } from './request-body.ts';
import { clientAddress, headerOf, hostOf, trustedProxiesFor, type TrustedProxies } from './request-info.ts';

export interface RequestState {
  principal?: TokenRow;
}

export interface RouteCall {
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

/** One bound (non-raw) route: authentication, parameters, body and handler, surface-independent. */
export function bindCall(route: RouteSpec, handlers: Handlers, deps: ServerDeps): (call: RouteCall) => Promise<HandlerResult> {
  const handler = handlers[route.operationId as OperationId] as (input: unknown) => Promise<HandlerResult>;
  const paramValidator = route.paramValidator ? (paramValidators as Record<string, ValidateFunction>)[route.paramValidator] : undefined;
  const bodyValidator = route.bodyValidator ? (bodyValidators as Record<string, ValidateFunction>)[route.bodyValidator] : undefined;
  const bodyLimit = route.maxBodyBytes ?? deps.config.maxRequestBytes;
  const kind = route.security === 'cliCredential' ? 'cli' : route.security === 'executionToken' ? 'sdk' : undefined;
  const trustedProxies = trustedProxiesFor(deps.config.trustedProxies);
  // Header parameters by their lower-case names, lowered once here rather than on every request.
  const params = route.params.map((p) => (p.in === 'header' ? { ...p, name: p.name.toLowerCase(), key: p.name } : { ...p, key: p.name }));
  /** Parameters, body and handler, once the principal is known. */
  const answer = (call: RouteCall): Promise<HandlerResult> => {
    const { req, path, query, state } = call;
    const values: Record<string, unknown> = {};
    for (const p of params) {
      const value = p.in === 'path' ? path[p.name] : p.in === 'query' ? query[p.name] : headerOf(req, p.name) || undefined;
      if (value !== undefined) values[p.key] = value;
    }
    if (paramValidator && !paramValidator(values)) throw requestValidationError('parameters', paramValidator);

    if (bodyValidator) {
      const body = readBody(req, bodyLimit, route.bodyRequired, route.bodyType, route.secretBody, bodyValidator);
      if (body instanceof Promise) return body.then((read) => handler(new CallInput(values, read, state.principal, call, trustedProxies)));
      return handler(new CallInput(values, body, state.principal, call, trustedProxies));
    }
    return handler(new CallInput(values, undefined, state.principal, call, trustedProxies));
  };
  // Not an async function: a call whose token and body are at hand at once answers with the
  // handler's own promise, two microtask hops fewer per request than an async wrapper returning it.
  return (call) => {
    try {
      if (kind) {
        const bearer = bearerFrom(call.req.headers.authorization);
        const known = deps.tokens.verifySync(bearer, kind);
        if (known === null || known === undefined) {
          return deps.tokens.verify(bearer, kind).then((principal) => {
            call.state.principal = principal;
            return answer(call);
          });
        }
        call.state.principal = known;
      }
      return answer(call);
    } catch (err) {
      return Promise.reject(err);
    }
  };
}

export function bindRoute(router: Router<RequestState>, route: RouteSpec, handlers: Handlers, deps: ServerDeps) {
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
    const result = await call({ req: ctx.req, path: ctx.params, query: ctx.query, host: () => hostOf(ctx.req), state: ctx.state });
    ctx.status = result.status ?? route.successStatus;
    if (result.headers) ctx.set(result.headers);
    if (result.type) ctx.type = result.type;
    if (result.body !== undefined) ctx.body = result.body;
  });
}
