// The PostgreSQL store's connections: one pool whose values parse as SQLite's do, and transactions
// on one pooled connection.
import pg from 'pg';

export const DEFAULT_POOL_SIZE = 10;

/** A pool or one connection of it: what a statement runs on. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

/** BIGINT (int8) as a JS number, like SQLite's INTEGER; counts and generations stay far below 2^53. */
const int8 = (text: string): number => {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`BIGINT ${text} does not fit a JS number`);
  return n;
};
/** Per-pool type parsers, leaving pg's process-wide defaults untouched. */
const TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 && format !== 'binary' ? int8 : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** A pool of `poolSize` connections (SVC_DB_POOL_SIZE, default DEFAULT_POOL_SIZE). */
export function newPool(connectionString: string, poolSize: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: 'svc-engine',
    types: TYPES,
  });
  // An idle connection that the server drops emits 'error' on the pool; the pool discards it and
  // the next query opens a new one. Without a listener the process would exit.
  pool.on('error', () => {});
  return pool;
}

/** Runs `fn` in one transaction on one pooled connection; rolls back on any error. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A checked-out client has no pool listener: a connection the server drops mid-transaction would
  // emit an unhandled 'error' and end the process. The query in flight fails with it anyway.
  const onError = (err: Error) => {
    broken = err;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackErr: Error) => {
      broken = rollbackErr; // the connection is unusable: destroy it rather than return it to the pool
    });
    throw err;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}
