// CORS preflights. A browser asks before it sends a request with headers of its own (Authorization,
// MCP-Protocol-Version, a JSON body): on /mcp/<version> an origin the MCP gateway accepts is
// allowed (src/mcp/cors.ts); the OAuth discovery documents and the token, registration and
// revocation endpoints take any origin, as their answers already say (they use no cookies). The
// consent page and every other route get no CORS answer.
import type Koa from 'koa';
import { EngineError } from '../envelope/index.ts';
import { MCP_PREFLIGHT } from '../mcp/index.ts';
import type { RequestState } from './binding.ts';
import type { ServerDeps } from './types.ts';

const OAUTH_PREFLIGHT = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST',
  'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
  'access-control-max-age': '600',
} as const;

const OAUTH_PATHS = /^\/(?:\.well-known\/(?:oauth-protected-resource|oauth-authorization-server|openid-configuration)(?:\/|$)|oauth\/(?:token|register|revoke)$)/;

export function corsPreflight(deps: ServerDeps): Koa.Middleware<RequestState> {
  return async (ctx, next) => {
    if (ctx.method !== 'OPTIONS' || !ctx.get('origin') || !ctx.get('access-control-request-method')) return next();
    if (ctx.path.startsWith('/mcp/')) {
      const cors = deps.mcpGateway.corsFor(ctx.req);
      if (!cors) throw new EngineError('ENGINE_FORBIDDEN_OPERATION', `origin '${ctx.get('origin')}' is not allowed on MCP servers; list it in SVC_MCP_ALLOWED_ORIGINS`, { details: { field: 'origin' } });
      ctx.set({ ...cors, ...MCP_PREFLIGHT });
      ctx.status = 204;
      return;
    }
    if (OAUTH_PATHS.test(ctx.path)) {
      ctx.set(OAUTH_PREFLIGHT);
      ctx.status = 204;
      return;
    }
    return next();
  };
}
