import { join } from 'node:path';
import { SqliteStore } from './sqlite.ts';
import type { Store } from './types.ts';

export * from './types.ts';
export { SqliteStore };

/** Opens the store the configuration names: the embedded SQLite file unless DATABASE_URL is set. */
export async function openStore(options: { dataDir: string; databaseUrl?: string | undefined }): Promise<Store> {
  if (options.databaseUrl) {
    throw new Error('DATABASE_URL is set, but this build has only the embedded SQLite store');
  }
  return new SqliteStore(join(options.dataDir, 'engine.db'));
}
