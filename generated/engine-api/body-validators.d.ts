// Written by `npm run gen` from spec/. Do not edit: change the spec and regenerate.
import type { ValidateFunction } from 'ajv';
export declare const startDeviceAuthorization: ValidateFunction;
export declare const exchangeDeviceCode: ValidateFunction;
export declare const submitSignin: ValidateFunction;
export declare const planMcp: ValidateFunction;
export declare const publishMcp: ValidateFunction;
export declare const createMcpToken: ValidateFunction;
export declare const createConnection: ValidateFunction;
export declare const applyWorkspace: ValidateFunction;
export declare const enableWorkspaceService: ValidateFunction;
export declare const importWorkspaceService: ValidateFunction;
export declare const setSecret: ValidateFunction;
export declare const setOAuthClient: ValidateFunction;
export declare const validateSdkDefinition: ValidateFunction;
export declare const planSdk: ValidateFunction;
export declare const publishSdk: ValidateFunction;
export declare const createSdkToken: ValidateFunction;
export declare const createExecution: ValidateFunction;
