// Written by `npm run gen` from spec/. Do not edit: change the spec and regenerate.
import type { ValidateFunction } from 'ajv';
export declare const showSignin: ValidateFunction;
export declare const listMcpTokens: ValidateFunction;
export declare const createMcpToken: ValidateFunction;
export declare const revokeToken: ValidateFunction;
export declare const listConnections: ValidateFunction;
export declare const oauthCallback: ValidateFunction;
export declare const listCatalogServices: ValidateFunction;
export declare const enableWorkspaceService: ValidateFunction;
export declare const disableWorkspaceService: ValidateFunction;
export declare const setSecret: ValidateFunction;
export declare const setOAuthClient: ValidateFunction;
export declare const listSdkVersions: ValidateFunction;
export declare const listReceipts: ValidateFunction;
export declare const createExecution: ValidateFunction;
