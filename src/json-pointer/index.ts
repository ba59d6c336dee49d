export * from './pointer.ts';
