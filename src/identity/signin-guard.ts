// Guesses at the sign-in form, bounded so that no client can lock another out: each client (its
// address, or a browser that signed in before) has its own count and a progressively longer wait,
// and the account closes to unknown clients only after failures from many distinct addresses.
import { isIPv6 } from 'node:net';
import type { Coordinator } from '../coordination/index.ts';
import { SIGNIN_ACCOUNT_CLIENTS, SIGNIN_DEVICE_FAILURES, SIGNIN_WINDOW_MS, signinDelayMs } from './limits.ts';

/** Why an attempt was refused before any secret was checked. */
export type SigninRefusal = {
  /** client: this address; device: this browser; devices: all known browsers of the account; account: many addresses. */
  reason: 'client' | 'device' | 'devices' | 'account';
  waitMs: number;
};

/** An attempt counted before its secret is checked: say what it turned out to be. */
export interface SigninTicket {
  /** It checked no secret, or the right one: taken back, so it never counts against the client. */
  notAGuess(): Promise<void>;
  /** A wrong secret: it stays counted, and the client counts once among the account's failing addresses. */
  failed(): Promise<void>;
}

/**
 * The key a client address is counted under: an IPv6 client by its /64, the block one host is
 * usually given (counting each of its addresses apart would give it 2^64 budgets).
 */
export function clientKey(address: string): string {
  const plain = address.split('%')[0]!;
  if (!isIPv6(plain)) return plain;
  const [head = '', tail] = plain.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

export class SigninGuard {
  private readonly coordinator: Coordinator;
  private readonly unavailable: (err: unknown) => void;

  /**
   * `unavailable` hears of a Coordinator that failed outright: like the per-token rate limit, the
   * attempt is then let through (with that warning) rather than every sign-in refused.
   */
  constructor(coordinator: Coordinator, unavailable: (err: unknown) => void) {
    this.coordinator = coordinator;
    this.unavailable = unavailable;
  }

  private async hit(key: string): Promise<{ count: number; resetInMs: number }> {
    try {
      return await this.coordinator.hit(key, SIGNIN_WINDOW_MS);
    } catch (err) {
      this.unavailable(err);
      return { count: 0, resetInMs: 0 };
    }
  }

  private async unhit(key: string): Promise<void> {
    try {
      await this.coordinator.unhit(key);
    } catch (err) {
      this.unavailable(err);
    }
  }

  /** How long an attempt counted as number `count` of a window with `resetInMs` left must still wait (0: none). */
  private static scheduled({ count, resetInMs }: { count: number; resetInMs: number }): number {
    if (count === 0) return 0; // not counted (coordination unavailable)
    const elapsed = SIGNIN_WINDOW_MS - resetInMs;
    return Math.min(Math.max(0, signinDelayMs(count - 1) - elapsed), Math.max(1, resetInMs));
  }

  /**
   * Counts an attempt to sign in as `username` from `client` (an address), or from the known
   * browser `device` (its device cookie's ID, when one verified), before anything is checked.
   * Counting first and taking back what was no guess keeps a burst of concurrent guesses from all
   * passing a count read before any was recorded.
   */
  async begin(username: string, client: string, device: string | undefined): Promise<{ refused: SigninRefusal } | { ticket: SigninTicket }> {
    const own = device ? `signin-failures:device:${device}` : `signin-failures:client:${clientKey(client)}`;
    const counted = [own];
    const mine = await this.hit(own);
    const refuse = async (reason: SigninRefusal['reason'], waitMs: number) => {
      await Promise.all(counted.map((k) => this.unhit(k))); // a refused attempt checked nothing
      return { refused: { reason, waitMs } };
    };
    const wait = SigninGuard.scheduled(mine);
    if (wait > 0) return refuse(device ? 'device' : 'client', wait);
    if (device) {
      // All known browsers of an account together: one bound, so many cookies are not many budgets.
      const all = `signin-failures:devices:${username}`;
      counted.push(all);
      const devices = await this.hit(all);
      if (devices.count > SIGNIN_DEVICE_FAILURES) return refuse('devices', Math.max(1, devices.resetInMs));
    } else {
      // Read by counting and taking back at once: the Coordinator has no plain read.
      const account = `signin-clients:account:${username}`;
      const seen = await this.hit(account);
      await this.unhit(account);
      if (seen.count - 1 >= SIGNIN_ACCOUNT_CLIENTS) return refuse('account', Math.max(1, seen.resetInMs));
    }
    return {
      ticket: {
        notAGuess: async () => void (await Promise.all(counted.map((k) => this.unhit(k)))),
        failed: async () => {
          if (device) return;
          // The first failure of this address at this account in the window adds one distinct client.
          const first = await this.hit(`signin-clients:seen:${username}:${clientKey(client)}`);
          if (first.count === 1) await this.hit(`signin-clients:account:${username}`);
        },
      },
    };
  }
}
