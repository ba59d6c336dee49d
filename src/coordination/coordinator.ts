// Coordination between Engine replicas: short-lived named locks, each held under a random owner
// token for at most its TTL, fixed-window counters, and messages published on named channels.
// With REDIS_URL they live in Redis (./redis.ts, ioredis loaded only then) and reach every replica
// on that Redis and key prefix; without it they stay within this process, which is all the
// embedded default has.
//
// A lock is advisory and may expire while its holder still works (a stalled process, a TTL that
// was too short): whatever it guards must also be fenced where it is written (OAuth refresh
// writes with a compare-and-swap on the connection's generation, see src/connections).
import { randomBytes } from 'node:crypto';

export interface Lock {
  readonly name: string;
  /** Releases the lock if this holder still owns it; false when it had expired or was taken over. */
  release(): Promise<boolean>;
}

export interface Coordinator {
  readonly kind: 'local' | 'redis';
  /** Takes `name` for `ttlMs` when nobody holds it; null when someone does. Never waits. */
  tryAcquire(name: string, ttlMs: number): Promise<Lock | null>;
  /**
   * Counts one event in the current fixed window of `windowMs` for `name` (shared by every replica
   * with Redis): the count so far in this window, and when the window ends.
   */
  hit(name: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  /**
   * Takes back one event counted by `hit` in `name`'s current window (none when the window has
   * ended). Counting first and taking back what turns out not to count keeps a limit exact under
   * concurrent requests, where reading the count first would let a burst all see zero.
   */
  unhit(name: string): Promise<void>;
  /**
   * Sends `message` to every subscriber of `channel` on every replica, this one included. Rejects
   * when it cannot be sent; nothing is kept for a subscriber that is away (Redis pub/sub).
   */
  publish(channel: string, message: string): Promise<void>;
  /** Hands `listener` each message published on `channel` from now on; resolves once subscribed. */
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  /** Resolves when the backing service answers (readiness); rejects with a short `code` when not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A lock owner token: 128 random bits, so a holder can only ever release its own lock. */
export const ownerToken = (): string => randomBytes(16).toString('base64url');

/** A listener's failure is its own: it never reaches the publisher, nor the other listeners. */
export function deliver(listener: (message: string) => void, message: string): void {
  try {
    listener(message);
  } catch {
    // a listener handles what it can handle; the rest is dropped, as a message no one hears
  }
}

/** Locks within this process (no Redis): the same contract on one replica. */
export class LocalCoordinator implements Coordinator {
  readonly kind = 'local' as const;
  private readonly held = new Map<string, { token: string; expiresAt: number }>();
  private nextLockSweepAt = 0;
  private readonly now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.now = options.now ?? Date.now;
  }

  async tryAcquire(name: string, ttlMs: number): Promise<Lock | null> {
    const current = this.held.get(name);
    if (current && current.expiresAt > this.now()) return null;
    // Locks left to expire (an elicitation's claim is never released) are swept as windows are.
    if (!current && this.held.size > 10_000 && this.now() >= this.nextLockSweepAt) {
      this.nextLockSweepAt = this.now() + 1_000;
      for (const [k, held] of this.held) if (held.expiresAt <= this.now()) this.held.delete(k);
    }
    const token = ownerToken();
    this.held.set(name, { token, expiresAt: this.now() + ttlMs });
    return {
      name,
      release: async () => {
        const entry = this.held.get(name);
        if (entry?.token !== token || entry.expiresAt <= this.now()) return false;
        this.held.delete(name);
        return true;
      },
    };
  }

  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private nextSweepAt = 0;

  async hit(name: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    const now = this.now();
    let window = this.windows.get(name);
    if (!window || window.endsAt <= now) {
      // Swept at most once a second: a map full of open windows must not be rescanned for every new key.
      if (this.windows.size > 10_000 && now >= this.nextSweepAt) {
        this.nextSweepAt = now + 1_000;
        for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
      }
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(name, window);
    }
    window.count++;
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  async unhit(name: string): Promise<void> {
    const window = this.windows.get(name);
    if (window && window.endsAt > this.now() && window.count > 0) window.count--;
  }

  private readonly channels = new Map<string, Set<(message: string) => void>>();

  async publish(channel: string, message: string): Promise<void> {
    // Delivered after the publisher's turn, as a message from Redis would be.
    for (const listener of this.channels.get(channel) ?? []) queueMicrotask(() => deliver(listener, message));
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    let listeners = this.channels.get(channel);
    if (!listeners) this.channels.set(channel, (listeners = new Set()));
    listeners.add(listener);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.held.clear();
    this.windows.clear();
    this.channels.clear();
  }
}
