export * from './master-key.ts';
export * from './sealing.ts';
export * from './vault.ts';
