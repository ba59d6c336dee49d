// Written by `npm run gen` from spec/. Do not edit: change the spec and regenerate.
export interface RouteSpec {
  operationId: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
  path: string;
  koaPath: string;
  security: 'cliCredential' | 'executionToken' | null;
  params: { name: string; in: 'path' | 'query' | 'header' }[];
  paramValidator: string | null;
  bodyValidator: string | null;
  bodyRequired: boolean;
  /** Route-specific request body limit (x-max-body-bytes); null means the Engine default. */
  maxBodyBytes: number | null;
  successStatus: number;
}

export const routes = [
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
      }
    ],
    "paramValidator": "createExecution",
    "bodyValidator": "createExecution",
    "bodyRequired": true,
    "maxBodyBytes": null,
    "successStatus": 200
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
    "maxBodyBytes": null,
    "successStatus": 204
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
    "maxBodyBytes": null,
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
    "maxBodyBytes": 33554432,
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
    "maxBodyBytes": null,
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
    "maxBodyBytes": null,
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
      }
    ],
    "paramValidator": "listReceipts",
    "bodyValidator": null,
    "bodyRequired": false,
    "maxBodyBytes": null,
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
    "maxBodyBytes": null,
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
    "maxBodyBytes": null,
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
    "maxBodyBytes": null,
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
    "maxBodyBytes": null,
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
    "maxBodyBytes": null,
    "successStatus": 200
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
    "maxBodyBytes": null,
    "successStatus": 204
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
    "maxBodyBytes": null,
    "successStatus": 200
  }
] as const satisfies readonly RouteSpec[];

export type OperationId = (typeof routes)[number]['operationId'];
