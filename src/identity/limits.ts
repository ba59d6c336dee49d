// Guess and burst limits of the unauthenticated identity endpoints, per process: fixed windows
// keyed by account or client address. A replica counts its own attempts, so N replicas allow N
// times the limit; that still bounds a one-time code's 38 bits or a password to a few guesses a
// minute, where the endpoints had answered ~1,200 guesses a second.

/** Counts events per key in fixed windows; past `limit` in a window, the key waits for the next. */
export class WindowCounter {
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  /** Milliseconds until `key` may try again, or 0 when it is under the limit. */
  waitMs(key: string, now = Date.now()): number {
    const w = this.windows.get(key);
    if (!w || now - w.startedAt >= this.windowMs || w.count < this.limit) return 0;
    return w.startedAt + this.windowMs - now;
  }

  /** Counts one event of `key`. */
  add(key: string, now = Date.now()): void {
    let w = this.windows.get(key);
    if (!w || now - w.startedAt >= this.windowMs) {
      if (this.windows.size >= 10_000) this.sweep(now);
      w = { startedAt: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (now - w.startedAt >= this.windowMs) this.windows.delete(key);
    if (this.windows.size >= 10_000) this.windows.clear(); // a flood of distinct keys: start over rather than grow
  }
}

/** Failed sign-ins allowed per account and per client address in SIGNIN_WINDOW_MS. */
export const SIGNIN_FAILURES = 10;
export const SIGNIN_WINDOW_MS = 15 * 60 * 1000;
/** Device authorizations one client address may start per DEVICE_START_WINDOW_MS. */
export const DEVICE_STARTS = 30;
export const DEVICE_START_WINDOW_MS = 60 * 1000;
