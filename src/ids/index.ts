export * from './identifiers.ts';
