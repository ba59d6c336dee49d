// The Engine's HTTP surface: a Koa app whose routes come from the generated route table.
// Middleware order: errors → auth → parameters → body; handlers see validated, typed input.
import Koa from 'koa';
import Router from '@koa/router';
import getRawBody from 'raw-body';
import * as bodyValidators from '../../generated/engine-api/body-validators.js';
import * as paramValidators from '../../generated/engine-api/param-validators.js';
import { routes, type OperationId, type RouteSpec } from '../../generated/engine-api/routes.ts';
import { EngineError, failure, toEnvelope } from '../envelope/index.ts';
import { bearerFrom } from '../identity/index.ts';
import type { TokenRow } from '../store/index.ts';
import type { ValidateFunction } from 'ajv';
import { createHandlers, type Handlers, type ServerDeps } from './handlers.ts';

export type { ServerDeps, Handlers };
export { createHandlers };

export interface RequestState {
  principal?: TokenRow;
}

function validationError(where: 'body' | 'parameters', validate: ValidateFunction): EngineError {
  const errors = (validate.errors ?? []).slice(0, 10).map((e) => ({
    instancePath: e.instancePath,
    message:
      e.keyword === 'additionalProperties'
        ? `has unknown property '${String(e.params.additionalProperty)}'`
        : e.keyword === 'required'
          ? `is missing required property '${String(e.params.missingProperty)}'`
          : (e.message ?? 'is invalid'),
  }));
  const first = errors[0];
  return new EngineError('ENGINE_INVALID_INPUT', `${where}${first?.instancePath ?? ''} ${first?.message ?? 'is invalid'}`, {
    details: { errors },
  });
}

async function readBody(ctx: Koa.Context, limit: number, required: boolean, kind: RouteSpec['bodyType']): Promise<unknown> {
  const type = ctx.request.type;
  const expected = kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  const length = ctx.request.length;
  if (!ctx.request.headers['content-length'] && !ctx.request.headers['transfer-encoding']) {
    if (required) throw new EngineError('ENGINE_INVALID_INPUT', 'body: a JSON request body is required', { details: { field: 'body' } });
    return undefined;
  }
  if (type !== expected) {
    throw new EngineError('ENGINE_INVALID_INPUT', `body: Content-Type must be ${expected}`, { details: { field: 'content-type' } });
  }
  if (length !== undefined && length > limit) {
    throw new EngineError('ENGINE_INPUT_TOO_LARGE', `body: the request body exceeds the ${limit}-byte limit`, { details: { limitBytes: limit } });
  }
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit, encoding: 'utf8', ...(length !== undefined ? { length } : {}) });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') {
      throw new EngineError('ENGINE_INPUT_TOO_LARGE', `body: the request body exceeds the ${limit}-byte limit`, { details: { limitBytes: limit } });
    }
    throw new EngineError('ENGINE_INVALID_INPUT', 'body: the request body could not be read', { details: { field: 'body' } });
  }
  if (text === '') {
    if (required) throw new EngineError('ENGINE_INVALID_INPUT', 'body: a JSON request body is required', { details: { field: 'body' } });
    return undefined;
  }
  if (kind === 'form') return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new EngineError('ENGINE_INVALID_INPUT', `body: not valid JSON (${(err as Error).message})`, { details: { field: 'body' } });
  }
}

function bindRoute(router: Router<RequestState>, route: RouteSpec, handlers: Handlers, deps: ServerDeps) {
  const handler = handlers[route.operationId as OperationId];
  const paramValidator = route.paramValidator ? (paramValidators as Record<string, ValidateFunction>)[route.paramValidator] : undefined;
  const bodyValidator = route.bodyValidator ? (bodyValidators as Record<string, ValidateFunction>)[route.bodyValidator] : undefined;
  const bodyLimit = route.maxBodyBytes ?? deps.config.maxRequestBytes;

  router.register(route.koaPath, [route.method], async (ctx) => {
    if (route.raw) {
      ctx.respond = false;
      await handler({ params: ctx.params, req: ctx.req, res: ctx.res } as never);
      return;
    }
    const bearer = bearerFrom(ctx.get('authorization') || undefined);
    if (route.security === 'cliCredential') ctx.state.principal = await deps.tokens.verify(bearer, 'cli');
    else if (route.security === 'executionToken') ctx.state.principal = await deps.tokens.verify(bearer, 'sdk');

    const params: Record<string, unknown> = {};
    for (const p of route.params) {
      const value = p.in === 'path' ? ctx.params[p.name] : p.in === 'query' ? ctx.query[p.name] : ctx.get(p.name) || undefined;
      if (value !== undefined) params[p.name] = value;
    }
    if (paramValidator && !paramValidator(params)) throw validationError('parameters', paramValidator);

    let body: unknown;
    if (bodyValidator) {
      body = await readBody(ctx, bodyLimit, route.bodyRequired, route.bodyType);
      if (body !== undefined && !bodyValidator(body)) throw validationError('body', bodyValidator);
    }
    const result = await handler({ params, body, principal: ctx.state.principal, origin: ctx.get('origin') || undefined, host: ctx.host } as never);
    ctx.status = result.status ?? route.successStatus;
    if (result.headers) ctx.set(result.headers);
    if (result.type) ctx.type = result.type;
    if (result.body !== undefined) ctx.body = result.body;
  });
}

/** Builds the HTTP app. Throws when the spec declares an operation that has no handler. */
export function createHttpApp(deps: ServerDeps, handlers: Partial<Handlers> = createHandlers(deps)): Koa<RequestState> {
  const missing = routes.filter((r) => typeof handlers[r.operationId as OperationId] !== 'function').map((r) => r.operationId);
  if (missing.length) {
    throw new Error(`spec/engine.openapi.yaml declares operations with no handler: ${missing.join(', ')}`);
  }
  const app = new Koa<RequestState>({ proxy: false });
  const router = new Router<RequestState>();
  for (const route of routes) bindRoute(router, route, handlers as Handlers, deps);

  app.use(async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new EngineError('ENGINE_NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
      }
      if (ctx.status === 405) {
        ctx.body = failure(405, { code: 'ENGINE_METHOD_NOT_ALLOWED', message: `${ctx.method} is not allowed on ${ctx.path}`, retryable: false });
      }
    } catch (err) {
      if (!(err instanceof EngineError)) deps.log.error({ err, method: ctx.method, route: ctx.routePath }, 'request failed');
      const envelope = toEnvelope(err);
      ctx.status = envelope.status;
      ctx.body = envelope;
    }
    deps.log.debug({ method: ctx.method, route: ctx.routePath ?? ctx.path, status: ctx.status, ms: performance.now() - started }, 'request');
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
