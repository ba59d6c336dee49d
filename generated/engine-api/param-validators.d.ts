// Written by `npm run gen` from spec/. Do not edit: change the spec and regenerate.
import type { ValidateFunction } from 'ajv';
export declare const listCatalogServices: ValidateFunction;
export declare const enableWorkspaceService: ValidateFunction;
export declare const disableWorkspaceService: ValidateFunction;
export declare const setSecret: ValidateFunction;
export declare const listSdkVersions: ValidateFunction;
export declare const listReceipts: ValidateFunction;
export declare const createExecution: ValidateFunction;
