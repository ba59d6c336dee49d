// Activity receipts in SQLite. Writing them is a few microseconds a row on whichever thread does it,
// so a file-backed store hands its batches to a writer thread with its own connection (WAL lets it
// write beside the request thread's reads); the promise of a batch settles once it is committed.
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { ReceiptRow } from './types.ts';

/** Multi-row statement sizes: about 1.5 µs less per row than one statement per row. */
const CHUNKS = [64, 16, 4, 1];

/**
 * A receipt as its column values, in INSERT order. Batches cross to the writer thread as JSON of
 * these tuples: half the cost of JSON objects (no key strings) to write and to parse.
 */
export type ReceiptColumns = [
  id: string,
  versionId: string,
  operation: string,
  surface: string,
  tokenId: string | null,
  startedAt: string,
  providerDurationMs: number,
  pages: number,
  status: number,
  ok: 0 | 1,
  bytes: number,
  sha256: string | null,
  errorCode: string | null,
  /** JSON of the attempts, when there was more than one. */
  attempts: string | null,
  traceId: string | null,
];
const COLUMNS = 15;

export const receiptColumns = (r: ReceiptRow): ReceiptColumns => [
  r.id,
  r.versionId,
  r.operation,
  r.surface,
  r.tokenId,
  r.startedAt,
  r.providerDurationMs,
  r.pages,
  r.status,
  r.ok ? 1 : 0,
  r.bytes,
  r.sha256,
  r.errorCode,
  r.attempts ? JSON.stringify(r.attempts) : null,
  r.traceId ?? null,
];

/** Inserts receipt batches on one connection, one transaction per batch. */
export class ReceiptInserter {
  private readonly db: Database.Database;
  private readonly statements = new Map<number, Database.Statement>();

  constructor(db: Database.Database) {
    this.db = db;
  }

  insert(rows: ReceiptColumns[]): void {
    this.db.transaction(() => {
      let at = 0;
      for (const size of CHUNKS) {
        if (rows.length - at < size) continue;
        const stmt = this.statement(size);
        const args: unknown[] = new Array(size * COLUMNS);
        while (rows.length - at >= size) {
          for (let i = 0; i < size; i++) {
            const row = rows[at + i]!;
            for (let c = 0; c < COLUMNS; c++) args[i * COLUMNS + c] = row[c];
          }
          stmt.run(args);
          at += size;
        }
      }
    })();
  }

  private statement(n: number): Database.Statement {
    let stmt = this.statements.get(n);
    if (!stmt) {
      stmt = this.db.prepare(
        // OR IGNORE: a batch retried after a writer thread died may already be committed (receipt IDs are unique).
        `INSERT OR IGNORE INTO receipts (id, version_id, operation, surface, token_id, started_at, provider_duration_ms,
           pages, status, ok, bytes, sha256, error_code, attempts, trace_id) VALUES ${Array(n).fill(`(${Array(COLUMNS).fill('?').join(', ')})`).join(', ')}`,
      );
      this.statements.set(n, stmt);
    }
    return stmt;
  }
}

/** A batch crosses as JSON text: one string is cheaper to post than dozens of structured-cloned rows. */
export type ToWriter = { type: 'insert'; batch: number; /** JSON of ReceiptColumns[] */ rowsJson: string } | { type: 'close' };
export type FromWriter = { type: 'done'; batch: number; error?: string };

/** The request thread's side of the writer thread (./sqlite-receipts-worker.ts), started on the first batch. */
export class ReceiptWriter {
  private readonly file: string;
  private readonly synchronous: 'FULL' | 'NORMAL';
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  private nextBatch = 0;
  private closed = false;

  /** `synchronous`: the writer connection's, as the store's own (./sqlite.ts). */
  constructor(file: string, synchronous: 'FULL' | 'NORMAL' = 'FULL') {
    this.file = file;
    this.synchronous = synchronous;
  }

  insert(rows: ReceiptRow[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    const worker = (this.worker ??= this.start());
    const batch = this.nextBatch++;
    return new Promise<void>((resolve, reject) => {
      if (this.waiting.size === 0) worker.ref(); // a batch in flight keeps the process up until it is committed
      this.waiting.set(batch, { resolve, reject });
      worker.postMessage({ type: 'insert', batch, rowsJson: JSON.stringify(rows.map(receiptColumns)) } satisfies ToWriter);
    });
  }

  /** Waits for the batches sent so far, then stops the thread. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'close' } satisfies ToWriter); // handled after every insert before it
    await exited;
  }

  private start(): Worker {
    const worker = new Worker(new URL('./sqlite-receipts-worker.ts', import.meta.url), {
      workerData: { file: this.file, synchronous: this.synchronous },
      name: 'svc-receipts',
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
    });
    worker.unref(); // an idle writer keeps nothing alive
    worker.on('message', (message: FromWriter) => {
      const waiting = this.waiting.get(message.batch);
      this.waiting.delete(message.batch);
      if (this.waiting.size === 0) worker.unref();
      if (message.error) waiting?.reject(new Error(message.error));
      else waiting?.resolve();
    });
    worker.on('error', () => undefined); // 'exit' follows
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined; // the next batch starts a new one
      for (const { reject } of this.waiting.values()) reject(new Error('the receipt writer thread stopped'));
      this.waiting.clear();
    });
    return worker;
  }
}
