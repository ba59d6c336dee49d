// Locks, counters and channels in Redis, shared by every replica on one Redis and key prefix
// (REDIS_URL, SVC_REDIS_KEY_PREFIX). Imported only when REDIS_URL is set, so the embedded default
// never loads ioredis.
//
//   acquire:  SET <prefix>lock:<name> <owner token> NX PX <ttl>
//   release:  a Lua compare-and-delete: the key is deleted only while it still holds our token, so
//             a holder whose lock expired and was taken over can never release the new holder's.
//
//   publish:  PUBLISH <prefix>chan:<channel> on the command connection (so it fails fast as below);
//             subscribe: SUBSCRIBE on a second connection in subscriber mode, opened by the first.
//
// The connection is this module's own (not the session store's); readiness pings it. Commands
// time out after COMMAND_TIMEOUT_MS, and while the connection is down they fail at once with the
// last connection error's code instead of queueing, so neither a refresh nor /readyz hangs on a
// Redis that is gone. Limits (hit/unhit) are then counted in this process: each replica holds its
// own window until Redis answers again, rather than no limit at all.
import { Redis } from 'ioredis';
import { deliver, LocalCoordinator, ownerToken, type Coordinator, type Lock } from './coordinator.ts';

const COMMAND_TIMEOUT_MS = 2_000;

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// KEYS: counter · ARGV: windowMs → {count, ms left}; the first hit of a window starts its expiry.
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

// KEYS: counter → takes back one hit of the open window; an ended window (no key) is left alone.
const UNHIT = `if redis.call('DECR', KEYS[1]) < 0 then redis.call('DEL', KEYS[1]) end
return 0`;

type WithRelease = Redis & {
  svcLockRelease(key: string, token: string): Promise<number>;
  svcHit(key: string, windowMs: number): Promise<[number, number]>;
  svcUnhit(key: string): Promise<number>;
};

export interface RedisCoordinatorOptions {
  url: string;
  /** Prepended to every key (default `svc:`); locks are `<prefix>lock:<name>`. */
  keyPrefix?: string;
  /** Connection errors (ioredis reconnects by itself). */
  onError?: (err: Error) => void;
  /** Called once per outage, when limits start being counted per replica; `code` says why. */
  onLocalCounting?: (code: string) => void;
}

/** An error that carries a short code (an errno such as ECONNREFUSED, or UNAVAILABLE), never an address. */
const unavailable = (code: string, message: string) => Object.assign(new Error(message), { code });

export class RedisCoordinator implements Coordinator {
  readonly kind = 'redis' as const;
  readonly #redis: WithRelease;
  readonly #prefix: string;
  /** Why the connection is down: the last connection error's code since it was last ready. */
  #lastErrorCode = 'DISCONNECTED';
  #closed = false;
  /** Where limits are counted while Redis cannot: this replica's own windows. */
  readonly #local = new LocalCoordinator();
  #countingLocally = false;
  readonly #onLocalCounting: ((code: string) => void) | undefined;
  /** The subscriber connection, opened by the first subscribe, and the listeners by full channel name. */
  #subscriber: Redis | undefined;
  readonly #listeners = new Map<string, Set<(message: string) => void>>();

  private constructor(options: RedisCoordinatorOptions) {
    const redis = new Redis(options.url, { connectTimeout: 5_000, maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS, lazyConnect: true });
    redis.on('ready', () => {
      this.#lastErrorCode = 'DISCONNECTED';
      this.#countingLocally = false;
    });
    redis.on('error', (err: Error & { code?: unknown }) => {
      if (typeof err.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(err.code)) this.#lastErrorCode = err.code;
      options.onError?.(err);
    });
    redis.defineCommand('svcLockRelease', { numberOfKeys: 1, lua: RELEASE });
    redis.defineCommand('svcHit', { numberOfKeys: 1, lua: HIT });
    redis.defineCommand('svcUnhit', { numberOfKeys: 1, lua: UNHIT });
    this.#redis = redis as WithRelease;
    this.#prefix = options.keyPrefix ?? 'svc:';
    this.#onLocalCounting = options.onLocalCounting;
  }

  /** Connects and checks that Redis answers: a wrong REDIS_URL fails the Engine's start. */
  static async open(options: RedisCoordinatorOptions): Promise<RedisCoordinator> {
    const coordinator = new RedisCoordinator(options);
    try {
      await coordinator.#redis.connect();
      await coordinator.#redis.ping();
    } catch (err) {
      await coordinator.close();
      // Named so the command line reports it as a setting to fix, in one line.
      throw Object.assign(new Error(`Redis does not answer at REDIS_URL (${(err as Error).message})`, { cause: err }), { name: 'UnreachableError' });
    }
    return coordinator;
  }

  /** Fails fast while the connection is down (ioredis would otherwise queue the command). */
  #ready(): WithRelease {
    if (this.#closed) throw unavailable('CLOSED', 'the Redis coordinator is closed');
    const status = this.#redis.status;
    if (status !== 'ready') throw unavailable(this.#lastErrorCode, `the Redis connection is ${status}`);
    return this.#redis;
  }

  async tryAcquire(name: string, ttlMs: number): Promise<Lock | null> {
    const key = `${this.#prefix}lock:${name}`;
    const token = ownerToken();
    const taken = await this.#ready().set(key, token, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX');
    if (taken !== 'OK') return null;
    return { name, release: async () => (await this.#ready().svcLockRelease(key, token)) === 1 };
  }

  async hit(name: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    try {
      const [count, ttl] = await this.#ready().svcHit(`${this.#prefix}rate:${name}`, Math.max(1, Math.ceil(windowMs)));
      return { count: Number(count), resetInMs: Number(ttl) };
    } catch (err) {
      if (this.#closed) throw err;
      if (!this.#countingLocally) {
        this.#countingLocally = true;
        this.#onLocalCounting?.(typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : 'UNAVAILABLE');
      }
      return this.#local.hit(name, windowMs);
    }
  }

  async unhit(name: string): Promise<void> {
    try {
      await this.#ready().svcUnhit(`${this.#prefix}rate:${name}`);
    } catch (err) {
      if (this.#closed) throw err;
      await this.#local.unhit(name); // taken back where it was counted, if it was counted here
    }
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#ready().publish(`${this.#prefix}chan:${channel}`, message);
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    if (this.#closed) throw unavailable('CLOSED', 'the Redis coordinator is closed');
    const name = `${this.#prefix}chan:${channel}`;
    let listeners = this.#listeners.get(name);
    if (!listeners) this.#listeners.set(name, (listeners = new Set()));
    listeners.add(listener);
    await this.#subscriberConnection().subscribe(name);
  }

  #subscriberConnection(): Redis {
    if (this.#subscriber) return this.#subscriber;
    // autoResubscribe off: a resubscription ioredis makes by itself rejects unhandled when the
    // connection closes before Redis answers (src/retention/redis.ts); each 'ready' subscribes again.
    const subscriber = this.#redis.duplicate({ autoResubscribe: false, lazyConnect: false });
    subscriber.on('error', () => undefined); // the command connection reports Redis trouble
    subscriber.on('ready', () => {
      for (const name of this.#listeners.keys()) void subscriber.subscribe(name).catch(() => undefined);
    });
    subscriber.on('message', (name: string, message: string) => {
      for (const listener of this.#listeners.get(name) ?? []) deliver(listener, message);
    });
    return (this.#subscriber = subscriber);
  }

  async ping(): Promise<void> {
    try {
      await this.#ready().ping();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string') throw err;
      // ioredis' own errors (a command timeout) carry no code.
      throw unavailable(/timed out/i.test((err as Error).message) ? 'TIMEOUT' : 'UNAVAILABLE', (err as Error).message);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#subscriber?.disconnect();
    this.#listeners.clear();
    await this.#local.close();
    if (this.#redis.status === 'ready') await this.#redis.quit().catch(() => this.#redis.disconnect());
    else this.#redis.disconnect();
  }
}
