export * from './workspace.ts';
