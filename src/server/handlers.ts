// One handler per operationId of spec/engine.openapi.yaml. Inputs arrive validated by the
// generated validators; handlers only translate between the API and the concept modules.
// Each file of routes/ holds one resource's handlers; createHandlers puts them together.
import { bucketRoutes } from './routes/buckets.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { connectionRoutes } from './routes/connections.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { executionRoutes } from './routes/executions.ts';
import { healthRoutes } from './routes/health.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { oauthConsentRoutes } from './routes/oauth-consent.ts';
import { oauthEndpointRoutes } from './routes/oauth-endpoints.ts';
import { oauthMetadataRoutes } from './routes/oauth-metadata.ts';
import { receiptRoutes } from './routes/receipts.ts';
import { sdkRoutes } from './routes/sdk.ts';
import { signinRoutes } from './routes/signin.ts';
import { tokenRoutes } from './routes/tokens.ts';
import { workspaceRoutes } from './routes/workspace.ts';
import type { Handlers, ServerDeps } from './types.ts';

export type { Handler, HandlerInput, HandlerResult, Handlers, ServerDeps } from './types.ts';
export { retryAfterOf } from './answers.ts';

export function createHandlers(deps: ServerDeps): Handlers {
  return {
    ...healthRoutes(deps),
    ...catalogRoutes(deps),
    ...workspaceRoutes(deps),
    ...bucketRoutes(deps),
    ...sdkRoutes(deps),
    ...receiptRoutes(deps),
    ...signinRoutes(deps),
    ...credentialRoutes(deps),
    ...mcpRoutes(deps),
    ...oauthMetadataRoutes(deps),
    ...oauthConsentRoutes(deps),
    ...oauthEndpointRoutes(deps),
    ...tokenRoutes(deps),
    ...connectionRoutes(deps),
    ...executionRoutes(deps),
  };
}
