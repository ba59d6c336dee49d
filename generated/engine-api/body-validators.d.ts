// Written by `npm run gen` from spec/. Do not edit: change the spec and regenerate.
import type { ValidateFunction } from 'ajv';
export declare const enableWorkspaceService: ValidateFunction;
export declare const importWorkspaceService: ValidateFunction;
export declare const setSecret: ValidateFunction;
export declare const validateSdkDefinition: ValidateFunction;
export declare const planSdk: ValidateFunction;
export declare const publishSdk: ValidateFunction;
export declare const createExecution: ValidateFunction;
