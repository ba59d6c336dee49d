// Admission of sandbox runs: at most `perTenant` at once per tenant (an MCP token) and `total` in
// all. The rest wait in a bounded queue, served round-robin across tenants, so a tenant that sends
// many runs at once delays its own runs, never another tenant's.

/** Why a run was not admitted; nothing of it ran. */
export class BusyError extends Error {
  override name = 'BusyError';
  /** `queue_full`: no room to wait; `waited`: it waited its longest; `closed`: the Engine is stopping. */
  readonly reason: 'queue_full' | 'waited' | 'closed';
  readonly retryAfterMs: number;
  constructor(reason: BusyError['reason'], message: string, retryAfterMs: number) {
    super(message);
    this.reason = reason;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A run whose caller went away while it waited. */
export class AdmissionCancelled extends Error {
  override name = 'AdmissionCancelled';
}

export interface FairQueueLimits {
  /** Runs of one tenant at once. */
  perTenant: number;
  /** Runs at once in all. */
  total: number;
  /** Runs of one tenant waiting at once; past it the next is refused. */
  waitingPerTenant: number;
  /** Runs waiting at once in all. */
  waiting: number;
  /** Longest a run waits before it is refused. */
  waitMs: number;
}

/** Ends a run's admission; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  tenant: string;
  admit: (release: Release) => void;
  refuse: (err: Error) => void;
}

/** What a refused caller is told to wait before trying again. */
const RETRY_AFTER_MS = 1_000;

export class FairQueue {
  private readonly limits: FairQueueLimits;
  private readonly running = new Map<string, number>();
  private runningTotal = 0;
  /** Waiting runs per tenant; Map order is the turn order (the first tenant that can run goes next). */
  private readonly queues = new Map<string, Waiter[]>();
  private waitingTotal = 0;
  private closed = false;

  constructor(limits: FairQueueLimits) {
    this.limits = { ...limits, perTenant: Math.max(1, limits.perTenant), total: Math.max(1, limits.total) };
  }

  /** Runs and waiting runs now (for metrics and tests). */
  get stats(): { running: number; waiting: number; tenantsWaiting: number } {
    return { running: this.runningTotal, waiting: this.waitingTotal, tenantsWaiting: this.queues.size };
  }

  /**
   * Resolves when a run of `tenant` may start, with the function that ends it. Rejects with a
   * BusyError when there is no room to wait or it waited `waitMs`, with AdmissionCancelled when
   * `signal` aborts first.
   */
  acquire(tenant: string, signal?: AbortSignal): Promise<Release> {
    if (this.closed) return Promise.reject(new BusyError('closed', 'the Engine is shutting down', RETRY_AFTER_MS));
    if (signal?.aborted) return Promise.reject(new AdmissionCancelled('the request was cancelled'));
    // Whenever a place is free, every tenant still waiting is at its own cap (dispatch fills free
    // places at once): starting now overtakes no one who could run.
    if (this.runningTotal < this.limits.total && this.runningOf(tenant) < this.limits.perTenant) return Promise.resolve(this.start(tenant));
    const queue = this.queues.get(tenant);
    const { perTenant, waitingPerTenant, waiting } = this.limits;
    if ((queue?.length ?? 0) >= waitingPerTenant) {
      return Promise.reject(new BusyError('queue_full', `this token already runs ${perTenant} executes at once and has ${waitingPerTenant} more waiting, the most it may`, RETRY_AFTER_MS));
    }
    if (this.waitingTotal >= waiting) {
      return Promise.reject(new BusyError('queue_full', `the Engine has ${waiting} executes waiting to run, the most it holds`, RETRY_AFTER_MS));
    }
    return new Promise<Release>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        tenant,
        admit: (release) => {
          settle();
          resolve(release);
        },
        refuse: (err) => {
          settle();
          reject(err);
        },
      };
      const leave = (err: Error) => {
        this.remove(waiter);
        waiter.refuse(err);
      };
      const onAbort = () => leave(new AdmissionCancelled('the request was cancelled'));
      const timer = setTimeout(
        () => leave(new BusyError('waited', `this execute waited ${Math.round(this.limits.waitMs / 100) / 10} s for a place to run`, RETRY_AFTER_MS)),
        this.limits.waitMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      if (queue) queue.push(waiter);
      else this.queues.set(tenant, [waiter]);
      this.waitingTotal++;
    });
  }

  /** Refuses every waiting run (the Engine is stopping); runs already admitted go on. */
  close(): void {
    this.closed = true;
    for (const queue of this.queues.values()) for (const w of queue) w.refuse(new BusyError('closed', 'the Engine is shutting down', RETRY_AFTER_MS));
    this.queues.clear();
    this.waitingTotal = 0;
  }

  private runningOf(tenant: string): number {
    return this.running.get(tenant) ?? 0;
  }

  private start(tenant: string): Release {
    this.running.set(tenant, this.runningOf(tenant) + 1);
    this.runningTotal++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.runningOf(tenant) - 1;
      if (left > 0) this.running.set(tenant, left);
      else this.running.delete(tenant);
      this.runningTotal--;
      this.dispatch();
    };
  }

  private remove(waiter: Waiter): void {
    const queue = this.queues.get(waiter.tenant);
    const at = queue?.indexOf(waiter) ?? -1;
    if (at < 0) return;
    queue!.splice(at, 1);
    if (!queue!.length) this.queues.delete(waiter.tenant);
    this.waitingTotal--;
  }

  /** Fills free places in turn: the first tenant in turn order below its cap, which then goes last. */
  private dispatch(): void {
    while (this.runningTotal < this.limits.total) {
      let next: Waiter | undefined;
      for (const [tenant, queue] of this.queues) {
        if (this.runningOf(tenant) >= this.limits.perTenant) continue;
        next = queue.shift()!;
        this.queues.delete(tenant);
        if (queue.length) this.queues.set(tenant, queue); // to the back of the turn order
        break;
      }
      if (!next) return;
      this.waitingTotal--;
      next.admit(this.start(next.tenant));
    }
  }
}
