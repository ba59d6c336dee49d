// Activity receipts: one per call, recording what ran and what came back (never secrets or
// tokens). Writes are batched per event-loop turn, off the response path; reads flush first.
import { newReceiptId } from '../ids/index.ts';
import type { ReceiptRow, Store } from '../store/index.ts';
import type { Logger } from '../log/index.ts';

export type ReceiptInput = Omit<ReceiptRow, 'id'>;

export class ActivityLog {
  private readonly store: Store;
  private readonly log: Logger;
  private pending: ReceiptRow[] = [];
  private flushing: Promise<void> | null = null;
  private scheduled = false;

  constructor(store: Store, log: Logger) {
    this.store = store;
    this.log = log;
  }

  record(input: ReceiptInput): string {
    const row = { id: newReceiptId(), ...input };
    this.pending.push(row);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.flush());
    }
    return row.id;
  }

  /** Writes every pending receipt. Safe to call concurrently. */
  async flush(): Promise<void> {
    this.scheduled = false;
    while (this.flushing) await this.flushing;
    if (!this.pending.length) return;
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

  async list(versionId: string, limit: number): Promise<ReceiptRow[]> {
    await this.flush();
    return this.store.listReceipts(versionId, limit);
  }
}
