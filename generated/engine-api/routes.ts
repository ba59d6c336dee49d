// Written by `npm run gen` from spec/. Do not edit: change the spec and regenerate.
export interface RouteSpec {
  operationId: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
  path: string;
  koaPath: string;
  security: 'cliCredential' | 'executionToken' | 'mcpToken' | null;
  /** The handler takes the raw request and response (x-raw): the MCP transport. */
  raw: boolean;
  params: { name: string; in: 'path' | 'query' | 'header' }[];
  paramValidator: string | null;
  bodyValidator: string | null;
  bodyRequired: boolean;
  bodyType: 'json' | 'form';
  /** Route-specific request body limit (x-max-body-bytes); null means the Engine default. */
  maxBodyBytes: number | null;
  /** The body carries a credential (x-secret-body): refusals quote none of its text. */
  secretBody: boolean;
  successStatus: number;
}

export const routes = [
  {
    "operationId": "applyWorkspace",
    "method": "PUT",
    "path": "/v1/workspace/services",
    "koaPath": "/v1/workspace/services",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": "applyWorkspace",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "approveMcpCall",
    "method": "POST",
    "path": "/v1/mcp/approvals/{approval_id}/approve",
    "koaPath": "/v1/mcp/approvals/:approval_id/approve",
    "security": "cliCredential",
    "params": [
      {
        "name": "approval_id",
        "in": "path"
      }
    ],
    "paramValidator": "approveMcpCall",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "createConnection",
    "method": "POST",
    "path": "/v1/connections",
    "koaPath": "/v1/connections",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": "createConnection",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 201
  },
  {
    "operationId": "createExecution",
    "method": "POST",
    "path": "/v1/apps/{version_id}/executions",
    "koaPath": "/v1/apps/:version_id/executions",
    "security": "executionToken",
    "params": [
      {
        "name": "version_id",
        "in": "path"
      },
      {
        "name": "Idempotency-Key",
        "in": "header"
      }
    ],
    "paramValidator": "createExecution",
    "bodyValidator": "createExecution",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "createMcpToken",
    "method": "POST",
    "path": "/v1/mcp/{name}/tokens",
    "koaPath": "/v1/mcp/:name/tokens",
    "security": "cliCredential",
    "params": [
      {
        "name": "name",
        "in": "path"
      }
    ],
    "paramValidator": "createMcpToken",
    "bodyValidator": "createMcpToken",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 201
  },
  {
    "operationId": "createSdkToken",
    "method": "POST",
    "path": "/v1/sdks/{name}/tokens",
    "koaPath": "/v1/sdks/:name/tokens",
    "security": "cliCredential",
    "params": [
      {
        "name": "name",
        "in": "path"
      }
    ],
    "paramValidator": "createSdkToken",
    "bodyValidator": "createSdkToken",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 201
  },
  {
    "operationId": "deleteConnection",
    "method": "DELETE",
    "path": "/v1/connections/{connection_id}",
    "koaPath": "/v1/connections/:connection_id",
    "security": "cliCredential",
    "params": [
      {
        "name": "connection_id",
        "in": "path"
      }
    ],
    "paramValidator": "deleteConnection",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "deleteOAuthClient",
    "method": "DELETE",
    "path": "/v1/buckets/{bucket}/oauth-clients/{service}",
    "koaPath": "/v1/buckets/:bucket/oauth-clients/:service",
    "security": "cliCredential",
    "params": [
      {
        "name": "bucket",
        "in": "path"
      },
      {
        "name": "service",
        "in": "path"
      }
    ],
    "paramValidator": "deleteOAuthClient",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 204
  },
  {
    "operationId": "deleteSecret",
    "method": "DELETE",
    "path": "/v1/buckets/{bucket}/secrets/{service}",
    "koaPath": "/v1/buckets/:bucket/secrets/:service",
    "security": "cliCredential",
    "params": [
      {
        "name": "bucket",
        "in": "path"
      },
      {
        "name": "service",
        "in": "path"
      }
    ],
    "paramValidator": "deleteSecret",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 204
  },
  {
    "operationId": "disableWorkspaceService",
    "method": "DELETE",
    "path": "/v1/workspace/services/{service}",
    "koaPath": "/v1/workspace/services/:service",
    "security": "cliCredential",
    "params": [
      {
        "name": "service",
        "in": "path"
      }
    ],
    "paramValidator": "disableWorkspaceService",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 204
  },
  {
    "operationId": "downloadSdkPackage",
    "method": "GET",
    "path": "/v1/sdks/{name}/versions/{version}/packages/{kind}",
    "koaPath": "/v1/sdks/:name/versions/:version/packages/:kind",
    "security": "cliCredential",
    "params": [
      {
        "name": "name",
        "in": "path"
      },
      {
        "name": "version",
        "in": "path"
      },
      {
        "name": "kind",
        "in": "path"
      }
    ],
    "paramValidator": "downloadSdkPackage",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "enableWorkspaceService",
    "method": "PUT",
    "path": "/v1/workspace/services/{service}",
    "koaPath": "/v1/workspace/services/:service",
    "security": "cliCredential",
    "params": [
      {
        "name": "service",
        "in": "path"
      }
    ],
    "paramValidator": "enableWorkspaceService",
    "bodyValidator": "enableWorkspaceService",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "exchangeDeviceCode",
    "method": "POST",
    "path": "/v1/auth/token",
    "koaPath": "/v1/auth/token",
    "security": null,
    "params": [],
    "paramValidator": null,
    "bodyValidator": "exchangeDeviceCode",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": true,
    "successStatus": 200
  },
  {
    "operationId": "exchangeOAuthToken",
    "method": "POST",
    "path": "/oauth/token",
    "koaPath": "/oauth/token",
    "security": null,
    "params": [],
    "paramValidator": null,
    "bodyValidator": "exchangeOAuthToken",
    "bodyRequired": true,
    "bodyType": "form",
    "maxBodyBytes": null,
    "raw": true,
    "secretBody": true,
    "successStatus": 200
  },
  {
    "operationId": "getAuthorizationServerMetadata",
    "method": "GET",
    "path": "/.well-known/oauth-authorization-server",
    "koaPath": "/.well-known/oauth-authorization-server",
    "security": null,
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "getLiveness",
    "method": "GET",
    "path": "/healthz",
    "koaPath": "/healthz",
    "security": null,
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "getMetrics",
    "method": "GET",
    "path": "/metrics",
    "koaPath": "/metrics",
    "security": null,
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "getOpenIdConfiguration",
    "method": "GET",
    "path": "/.well-known/openid-configuration",
    "koaPath": "/.well-known/openid-configuration",
    "security": null,
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "getProtectedResourceMetadata",
    "method": "GET",
    "path": "/.well-known/oauth-protected-resource/mcp/{version_id}",
    "koaPath": "/.well-known/oauth-protected-resource/mcp/:version_id",
    "security": null,
    "params": [
      {
        "name": "version_id",
        "in": "path"
      }
    ],
    "paramValidator": "getProtectedResourceMetadata",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "getReadiness",
    "method": "GET",
    "path": "/readyz",
    "koaPath": "/readyz",
    "security": null,
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "importWorkspaceService",
    "method": "POST",
    "path": "/v1/workspace/imports",
    "koaPath": "/v1/workspace/imports",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": "importWorkspaceService",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": 33554432,
    "raw": false,
    "secretBody": false,
    "successStatus": 201
  },
  {
    "operationId": "listBuckets",
    "method": "GET",
    "path": "/v1/buckets",
    "koaPath": "/v1/buckets",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "listCatalogServices",
    "method": "GET",
    "path": "/v1/catalog/services",
    "koaPath": "/v1/catalog/services",
    "security": "cliCredential",
    "params": [
      {
        "name": "q",
        "in": "query"
      }
    ],
    "paramValidator": "listCatalogServices",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "listCliCredentials",
    "method": "GET",
    "path": "/v1/auth/credentials",
    "koaPath": "/v1/auth/credentials",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "listConnections",
    "method": "GET",
    "path": "/v1/connections",
    "koaPath": "/v1/connections",
    "security": "cliCredential",
    "params": [
      {
        "name": "service",
        "in": "query"
      }
    ],
    "paramValidator": "listConnections",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "listMcpApprovals",
    "method": "GET",
    "path": "/v1/mcp/approvals",
    "koaPath": "/v1/mcp/approvals",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "listMcpServers",
    "method": "GET",
    "path": "/v1/mcp",
    "koaPath": "/v1/mcp",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "listMcpTokens",
    "method": "GET",
    "path": "/v1/mcp/{name}/tokens",
    "koaPath": "/v1/mcp/:name/tokens",
    "security": "cliCredential",
    "params": [
      {
        "name": "name",
        "in": "path"
      }
    ],
    "paramValidator": "listMcpTokens",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "listReceipts",
    "method": "GET",
    "path": "/v1/versions/{version_id}/receipts",
    "koaPath": "/v1/versions/:version_id/receipts",
    "security": "cliCredential",
    "params": [
      {
        "name": "version_id",
        "in": "path"
      },
      {
        "name": "limit",
        "in": "query"
      },
      {
        "name": "before",
        "in": "query"
      },
      {
        "name": "trace_id",
        "in": "query"
      }
    ],
    "paramValidator": "listReceipts",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "listSdkTokens",
    "method": "GET",
    "path": "/v1/sdks/{name}/tokens",
    "koaPath": "/v1/sdks/:name/tokens",
    "security": "cliCredential",
    "params": [
      {
        "name": "name",
        "in": "path"
      }
    ],
    "paramValidator": "listSdkTokens",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "listSdkVersions",
    "method": "GET",
    "path": "/v1/sdks/{name}/versions",
    "koaPath": "/v1/sdks/:name/versions",
    "security": "cliCredential",
    "params": [
      {
        "name": "name",
        "in": "path"
      }
    ],
    "paramValidator": "listSdkVersions",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "listSdks",
    "method": "GET",
    "path": "/v1/sdks",
    "koaPath": "/v1/sdks",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "listWorkspaceServices",
    "method": "GET",
    "path": "/v1/workspace/services",
    "koaPath": "/v1/workspace/services",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "logout",
    "method": "POST",
    "path": "/v1/auth/logout",
    "koaPath": "/v1/auth/logout",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 204
  },
  {
    "operationId": "mcpDelete",
    "method": "DELETE",
    "path": "/mcp/{version_id}",
    "koaPath": "/mcp/:version_id",
    "security": "mcpToken",
    "params": [
      {
        "name": "version_id",
        "in": "path"
      }
    ],
    "paramValidator": "mcpDelete",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": true,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "mcpGet",
    "method": "GET",
    "path": "/mcp/{version_id}",
    "koaPath": "/mcp/:version_id",
    "security": "mcpToken",
    "params": [
      {
        "name": "version_id",
        "in": "path"
      }
    ],
    "paramValidator": "mcpGet",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": true,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "mcpPost",
    "method": "POST",
    "path": "/mcp/{version_id}",
    "koaPath": "/mcp/:version_id",
    "security": "mcpToken",
    "params": [
      {
        "name": "version_id",
        "in": "path"
      }
    ],
    "paramValidator": "mcpPost",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": true,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "mcpTransitionalDelete",
    "method": "DELETE",
    "path": "/mcp/{version_id}/sse",
    "koaPath": "/mcp/:version_id/sse",
    "security": "mcpToken",
    "params": [
      {
        "name": "version_id",
        "in": "path"
      }
    ],
    "paramValidator": "mcpTransitionalDelete",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": true,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "mcpTransitionalGet",
    "method": "GET",
    "path": "/mcp/{version_id}/sse",
    "koaPath": "/mcp/:version_id/sse",
    "security": "mcpToken",
    "params": [
      {
        "name": "version_id",
        "in": "path"
      }
    ],
    "paramValidator": "mcpTransitionalGet",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": true,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "mcpTransitionalPost",
    "method": "POST",
    "path": "/mcp/{version_id}/sse",
    "koaPath": "/mcp/:version_id/sse",
    "security": "mcpToken",
    "params": [
      {
        "name": "version_id",
        "in": "path"
      }
    ],
    "paramValidator": "mcpTransitionalPost",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": true,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "oauthCallback",
    "method": "GET",
    "path": "/v1/oauth/callback",
    "koaPath": "/v1/oauth/callback",
    "security": null,
    "params": [
      {
        "name": "code",
        "in": "query"
      },
      {
        "name": "state",
        "in": "query"
      },
      {
        "name": "error",
        "in": "query"
      }
    ],
    "paramValidator": "oauthCallback",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "planMcp",
    "method": "POST",
    "path": "/v1/mcp/plan",
    "koaPath": "/v1/mcp/plan",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": "planMcp",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "planSdk",
    "method": "POST",
    "path": "/v1/sdks/plan",
    "koaPath": "/v1/sdks/plan",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": "planSdk",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "publishMcp",
    "method": "POST",
    "path": "/v1/mcp/publish",
    "koaPath": "/v1/mcp/publish",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": "publishMcp",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "publishSdk",
    "method": "POST",
    "path": "/v1/sdks/publish",
    "koaPath": "/v1/sdks/publish",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": "publishSdk",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "registerOAuthClient",
    "method": "POST",
    "path": "/oauth/register",
    "koaPath": "/oauth/register",
    "security": null,
    "params": [],
    "paramValidator": null,
    "bodyValidator": "registerOAuthClient",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": true,
    "secretBody": false,
    "successStatus": 201
  },
  {
    "operationId": "revokeCliCredential",
    "method": "DELETE",
    "path": "/v1/auth/credentials/{credential_id}",
    "koaPath": "/v1/auth/credentials/:credential_id",
    "security": "cliCredential",
    "params": [
      {
        "name": "credential_id",
        "in": "path"
      }
    ],
    "paramValidator": "revokeCliCredential",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 204
  },
  {
    "operationId": "revokeOAuthToken",
    "method": "POST",
    "path": "/oauth/revoke",
    "koaPath": "/oauth/revoke",
    "security": null,
    "params": [],
    "paramValidator": null,
    "bodyValidator": "revokeOAuthToken",
    "bodyRequired": true,
    "bodyType": "form",
    "maxBodyBytes": null,
    "raw": true,
    "secretBody": true,
    "successStatus": 200
  },
  {
    "operationId": "revokeToken",
    "method": "DELETE",
    "path": "/v1/tokens/{token_id}",
    "koaPath": "/v1/tokens/:token_id",
    "security": "cliCredential",
    "params": [
      {
        "name": "token_id",
        "in": "path"
      },
      {
        "name": "kind",
        "in": "query"
      }
    ],
    "paramValidator": "revokeToken",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 204
  },
  {
    "operationId": "setOAuthClient",
    "method": "PUT",
    "path": "/v1/buckets/{bucket}/oauth-clients/{service}",
    "koaPath": "/v1/buckets/:bucket/oauth-clients/:service",
    "security": "cliCredential",
    "params": [
      {
        "name": "bucket",
        "in": "path"
      },
      {
        "name": "service",
        "in": "path"
      }
    ],
    "paramValidator": "setOAuthClient",
    "bodyValidator": "setOAuthClient",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": true,
    "successStatus": 204
  },
  {
    "operationId": "setSecret",
    "method": "PUT",
    "path": "/v1/buckets/{bucket}/secrets/{service}",
    "koaPath": "/v1/buckets/:bucket/secrets/:service",
    "security": "cliCredential",
    "params": [
      {
        "name": "bucket",
        "in": "path"
      },
      {
        "name": "service",
        "in": "path"
      }
    ],
    "paramValidator": "setSecret",
    "bodyValidator": "setSecret",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": true,
    "successStatus": 204
  },
  {
    "operationId": "showAuthorization",
    "method": "GET",
    "path": "/oauth/authorize",
    "koaPath": "/oauth/authorize",
    "security": null,
    "params": [
      {
        "name": "response_type",
        "in": "query"
      },
      {
        "name": "client_id",
        "in": "query"
      },
      {
        "name": "redirect_uri",
        "in": "query"
      },
      {
        "name": "state",
        "in": "query"
      },
      {
        "name": "code_challenge",
        "in": "query"
      },
      {
        "name": "code_challenge_method",
        "in": "query"
      },
      {
        "name": "resource",
        "in": "query"
      },
      {
        "name": "scope",
        "in": "query"
      }
    ],
    "paramValidator": "showAuthorization",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "showSignin",
    "method": "GET",
    "path": "/signin",
    "koaPath": "/signin",
    "security": null,
    "params": [
      {
        "name": "user_code",
        "in": "query"
      }
    ],
    "paramValidator": "showSignin",
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "startDeviceAuthorization",
    "method": "POST",
    "path": "/v1/auth/device",
    "koaPath": "/v1/auth/device",
    "security": null,
    "params": [
      {
        "name": "User-Agent",
        "in": "header"
      }
    ],
    "paramValidator": "startDeviceAuthorization",
    "bodyValidator": "startDeviceAuthorization",
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "submitAuthorization",
    "method": "POST",
    "path": "/oauth/authorize",
    "koaPath": "/oauth/authorize",
    "security": null,
    "params": [],
    "paramValidator": null,
    "bodyValidator": "submitAuthorization",
    "bodyRequired": true,
    "bodyType": "form",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "submitSignin",
    "method": "POST",
    "path": "/signin",
    "koaPath": "/signin",
    "security": null,
    "params": [],
    "paramValidator": null,
    "bodyValidator": "submitSignin",
    "bodyRequired": true,
    "bodyType": "form",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "validateSdkDefinition",
    "method": "POST",
    "path": "/v1/sdks/validate",
    "koaPath": "/v1/sdks/validate",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": "validateSdkDefinition",
    "bodyRequired": true,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  },
  {
    "operationId": "whoami",
    "method": "GET",
    "path": "/v1/auth/whoami",
    "koaPath": "/v1/auth/whoami",
    "security": "cliCredential",
    "params": [],
    "paramValidator": null,
    "bodyValidator": null,
    "bodyRequired": false,
    "bodyType": "json",
    "maxBodyBytes": null,
    "raw": false,
    "secretBody": false,
    "successStatus": 200
  }
] as const satisfies readonly RouteSpec[];

export type OperationId = (typeof routes)[number]['operationId'];
