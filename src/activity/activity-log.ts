// Activity receipts: one per call, recording what ran and what came back (never secrets or
// tokens). Writes are batched: a batch is written FLUSH_DELAY_MS after its first receipt, or as
// soon as it holds FLUSH_ROWS; a call that may have changed data flushes at once and is answered
// after the commit (src/execution/executor.ts), its batch taking the receipts pending beside it. One SQLite transaction costs ~25 µs of CPU for
// a single row but ~9 µs per row at 32+ rows (spent on the store's writer thread for a SQLite file,
// in PostgreSQL otherwise). Reads flush first, so a list on this replica always sees every earlier call.
import { newReceiptId, receiptIdAt } from '../ids/index.ts';
import type { ReceiptRow, Store } from '../store/index.ts';
import type { Logger } from '../log/index.ts';
import { detached } from '../telemetry/index.ts';

export type ReceiptInput = Omit<ReceiptRow, 'id'>;

const NOT_PLAIN = /[\p{Cc}\p{Cs}]/u;
/**
 * A caller-given name as a receipt keeps it: control characters and unpaired surrogates (a refused
 * call may name anything) become U+FFFD, since PostgreSQL TEXT cannot hold NUL.
 */
const plainText = (text: string) => (NOT_PLAIN.test(text) ? text.replace(/[\p{Cc}\p{Cs}]/gu, '\ufffd') : text);

/**
 * Longest a receipt waits in memory before its batch is written. Each batch costs the request thread
 * a fixed hand-off (a message to SQLite's writer thread, a PostgreSQL round trip), so under load fewer,
 * larger batches are cheaper; lists flush first, so nothing waits to be seen.
 */
const FLUSH_DELAY_MS = 20;
/** A batch this large is written on the next turn of the event loop. */
const FLUSH_ROWS = 256;
/** Receipts deleted per statement: short write transactions, so receipt writes never wait long behind one. */
const PRUNE_CHUNK = 2_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Receipts one page of a trace's search reads (SQLite: 5.9 ms p50 on the request thread, 50,000 receipts, on a slow host). Trace IDs are not
 * indexed: random keys made every receipt write of a traced Engine dearer (+16 µs a request,
 * npm run bench:ab), where a search is an operator's occasional question about recent calls.
 */
export const TRACE_SCAN = 10_000;

export class ActivityLog {
  private readonly store: Store;
  private readonly log: Logger;
  private pending: ReceiptRow[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private pruning: Promise<number> | null = null;
  /** Set by stopPruning: a prune in progress ends after its current chunk. */
  private pruneStopped = false;

  constructor(store: Store, log: Logger) {
    this.store = store;
    this.log = log;
  }

  record(input: ReceiptInput): string {
    const row: ReceiptRow = {
      id: newReceiptId(),
      versionId: input.versionId,
      operation: plainText(input.operation),
      surface: input.surface,
      tokenId: input.tokenId,
      startedAt: input.startedAt,
      providerDurationMs: input.providerDurationMs,
      pages: input.pages,
      status: input.status,
      ok: input.ok,
      bytes: input.bytes,
      sha256: input.sha256,
      errorCode: input.errorCode,
    };
    if (input.attempts) row.attempts = input.attempts;
    if (input.traceId) row.traceId = input.traceId;
    this.pending.push(row);
    // The batch is every call's, not the one whose receipt came first: it is written outside that call's trace.
    if (this.pending.length >= FLUSH_ROWS) this.immediate ??= setImmediate(detached(() => void this.flush()));
    else this.timer ??= setTimeout(detached(() => void this.flush()), FLUSH_DELAY_MS);
    return row.id;
  }

  /**
   * Writes every pending receipt. Safe to call concurrently. `gatherMs`: when no batch is being
   * written, first wait this long, so the receipts of calls about to finish share the commit (a
   * group commit: each commit of a file store is a sync to disk).
   */
  async flush(gatherMs = 0): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    while (this.flushing) await this.flushing;
    if (!this.pending.length) return;
    if (gatherMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, gatherMs));
      while (this.flushing) await this.flushing; // another flush took the batch meanwhile
      if (!this.pending.length) return;
    }
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.store
      .insertReceipts(batch)
      .catch((err: unknown) => this.log.error({ err, count: batch.length }, 'failed to write activity receipts'))
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }

  /** Deletes the receipts older than `days` days, a chunk at a time; returns how many. */
  async prune(days: number, now = Date.now()): Promise<number> {
    const before = receiptIdAt(now - days * DAY_MS);
    let total = 0;
    while (!this.pruneStopped) {
      const deleted = await this.store.pruneReceipts(before, PRUNE_CHUNK);
      total += deleted;
      if (deleted < PRUNE_CHUNK) break;
      await new Promise((resolve) => setImmediate(resolve)); // calls run between chunks
    }
    if (total) this.log.info({ pruned: total, olderThanDays: days }, 'pruned activity receipts');
    return total;
  }

  /** Prunes receipts older than `days` now and every `everyMs` after, until `stopPruning`; 0 days prunes nothing. */
  startPruning(days: number, everyMs: number): void {
    if (days <= 0 || this.pruneTimer) return;
    const run = () => {
      this.pruning ??= this.prune(days)
        .catch((err: unknown) => {
          this.log.warn({ err }, 'pruning activity receipts failed; retried at the next interval');
          return 0;
        })
        .finally(() => {
          this.pruning = null;
        });
    };
    this.pruneTimer = setInterval(run, everyMs).unref();
    run();
  }

  /** Stops the schedule and ends a prune in progress after its current chunk (the next start goes on). */
  async stopPruning(): Promise<void> {
    this.pruneStopped = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.pruneTimer = null;
    await this.pruning;
  }

  /**
   * A page of a version's receipts, newest first, and the `before` of the next (older) page, if any.
   * Given `traceId`, that trace's among the next TRACE_SCAN receipts: a page may then be short, or
   * empty, with a next page to search on.
   */
  async list(versionId: string, limit: number, before?: string, traceId?: string): Promise<{ receipts: ReceiptRow[]; next: string | null }> {
    await this.flush();
    if (traceId !== undefined) {
      const { rows, scannedTo } = await this.store.listTraceReceipts(versionId, traceId, limit + 1, TRACE_SCAN, before);
      const receipts = rows.slice(0, limit);
      return { receipts, next: rows.length > limit ? receipts[receipts.length - 1]!.id : scannedTo };
    }
    const rows = await this.store.listReceipts(versionId, limit + 1, before);
    const receipts = rows.slice(0, limit);
    return { receipts, next: rows.length > limit ? receipts[receipts.length - 1]!.id : null };
  }
}
