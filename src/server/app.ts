// The Engine's HTTP surface: a Koa app whose routes come from the generated route table.
// Middleware order: errors → auth → parameters → body; handlers see validated, typed input.
// The execution route is served ahead of Koa in canonical form (src/server/fast-path.ts).
import type Koa from 'koa';
import Router from '@koa/router';
import { routes, type OperationId } from '../../generated/engine-api/routes.ts';
import { EngineError, failure } from '../envelope/index.ts';
import { bindRoute, type RequestState } from './binding.ts';
import { corsPreflight } from './cors.ts';
import { errorAnswer } from './error-answer.ts';
import { EngineApp, fastRoutes } from './fast-path.ts';
import { createHandlers } from './handlers.ts';
import { nameServerSpan } from '../telemetry/index.ts';
import type { Handlers, ServerDeps } from './types.ts';

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
      const answer = errorAnswer(err, { log: deps.log, method: ctx.method, route: routeOf(ctx) });
      ctx.status = answer.status;
      if (answer.headers) ctx.set(answer.headers);
      ctx.body = answer.body;
    }
    // Answers carry credentials (tokens, device codes) or workspace state, refusals included: never kept by a cache.
    if (ctx.respond !== false && !ctx.headerSent) ctx.set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    nameServerSpan(ctx.method, routeOf(ctx));
    deps.log.debug({ method: ctx.method, route: routeOf(ctx), status: ctx.status, ms: performance.now() - started }, 'request');
  });
  // A client that resets or sends a malformed body mid-request: Koa would print its stack to stderr.
  app.on('error', (err: unknown) => deps.log.debug({ err }, 'client connection error'));
  app.use(corsPreflight(deps));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

