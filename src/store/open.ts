import { join } from 'node:path';
import { SqliteStore, type SqliteSynchronous } from './sqlite.ts';
import type { Store } from './types.ts';

/**
 * Opens the store the configuration names: PostgreSQL when DATABASE_URL is a postgres:// or
 * postgresql:// URL (a pool of `poolSize` connections, which the config reads from SVC_DB_POOL_SIZE; default 10), otherwise the
 * embedded SQLite file in the data dir.
 */
export async function openStore(options: { dataDir: string; databaseUrl?: string | undefined; poolSize?: number | undefined; synchronous?: SqliteSynchronous }): Promise<Store> {
  if (options.databaseUrl) {
    if (!/^postgres(ql)?:\/\//i.test(options.databaseUrl)) {
      throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL (unset it to use the embedded SQLite store)');
    }
    // pg loads only when PostgreSQL is configured: the embedded default starts without it.
    const { PostgresStore } = await import('./postgres.ts');
    return PostgresStore.open(options.databaseUrl, options.poolSize !== undefined ? { poolSize: options.poolSize } : {});
  }
  return new SqliteStore(join(options.dataDir, 'engine.db'), options.synchronous === undefined ? {} : { synchronous: options.synchronous });
}
