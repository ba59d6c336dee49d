// Activity: the receipts a version's calls wrote.
import { EngineError } from '../../envelope/index.ts';
import type { Handlers, ServerDeps } from '../types.ts';

export function receiptRoutes(deps: ServerDeps): Pick<Handlers, 'listReceipts'> {
  const { sdk, mcp, activity } = deps;
  return {
    async listReceipts({ params }) {
      // SDK and MCP versions both write receipts (surface rest/grpc or mcp).
      if (!(await sdk.version(params.version_id)) && !(await mcp.version(params.version_id))) {
        throw new EngineError('ENGINE_NOT_FOUND', `unknown version '${params.version_id}'`, { details: { field: 'version_id' } });
      }
      return { body: await activity.list(params.version_id, params.limit ?? 50, params.before, params.trace_id) };
    },
  };
}
