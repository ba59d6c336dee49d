export * from './apps.ts';
export type * from './types.ts';
