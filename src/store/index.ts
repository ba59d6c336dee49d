export * from './types.ts';
export * from './grant-types.ts';
export * from './approval-types.ts';
export { SqliteStore, type SqliteSynchronous } from './sqlite.ts';
export { openStore } from './open.ts';
