// The authorization server's discovery documents: the Engine's metadata (RFC 8414, also at the
// OpenID discovery path) and each MCP server version's protected resource metadata (RFC 9728).
// Browser-based MCP clients read them from other origins.
import { EngineError } from '../../envelope/index.ts';
import type { Handlers, ServerDeps } from '../types.ts';

const CORS = { 'access-control-allow-origin': '*' };

export function oauthMetadataRoutes(deps: ServerDeps): Pick<Handlers, 'getAuthorizationServerMetadata' | 'getOpenIdConfiguration' | 'getProtectedResourceMetadata'> {
  const { oauth } = deps;
  const metadata = async () => ({ body: oauth.metadata(), headers: CORS });
  return {
    getAuthorizationServerMetadata: metadata,
    getOpenIdConfiguration: metadata,

    async getProtectedResourceMetadata({ params }) {
      const body = await oauth.resourceMetadata(params.version_id);
      if (!body) throw new EngineError('ENGINE_NOT_FOUND', `no MCP server version ${params.version_id}`, { details: { field: 'version_id' } });
      return { body, headers: CORS };
    },
  };
}
