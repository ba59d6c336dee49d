export { buildModel, type SdkModel, type SdkOperation } from './model.ts';
export * from './packages.ts';
