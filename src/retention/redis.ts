// Per-MCP-session state in Redis, shared by every Engine replica (REDIS_URL). Same contract as the
// in-memory store (test/retention/session-state-store.contract.ts); the limits hold across replicas because every
// write is one Lua script, which Redis runs atomically.
//
// Keys of a session (its ID in a hash tag, so a Redis Cluster keeps them in one slot):
//   <prefix>ss:{<sid>}:st       hash    seq (creation counter), sb (snapshot bytes), vb (session.set bytes),
//                                       r:<ref> = "<bytes> <expiresAt ms>" for each snapshot
//   <prefix>ss:{<sid>}:ix       zset    snapshot refs scored by seq: creation order, oldest first
//   <prefix>ss:{<sid>}:kv       hash    session.set key → JSON text
//   <prefix>ss:{<sid>}:r:<ref>  string  the snapshot's JSON text, PEXPIREAT its expiry
//   <prefix>ss:{<sid>}:ses      hash    the session record: v (version), t (token), p (protocol),
//                                       r (1 once ready), e (1: the client can be asked),
//                                       d (idle deadline, ms); PEXPIREAT d
//   <prefix>ss:{<sid>}:cx       hash    <h> → expiry ms: notifications/cancelled named the request whose
//                                       JSON-RPC id hashes to <h>, CANCEL_TTL_MS ago at most; at most
//                                       CANCELS_KEPT fields; PX CANCEL_TTL_MS from the last (left to expire)
// A ref is looked up only under the session's own keys, so a ref alone never reads another session's
// snapshot. Expiry is decided against the `now` each script is given (the store's clock, not Redis
// TIME): an index entry whose expiry has passed, or whose text Redis already expired, is dropped and
// stops counting toward the limits. The session keys expire `idleTtlMs` after their last write or
// snapshot read, so the state of a session whose replica died cannot outlive it for ever.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { metrics } from '../metrics/index.ts';
import { withSessionScripts, type SessionScripts } from './redis-scripts.ts';
import { SESSION_BYTES_LIMIT, SNAPSHOT_LIMIT, SNAPSHOT_TTL_MS, resultUnavailable, utf8 } from './errors.ts';
import { checkSnapshot, checkValue, DEFAULT_SESSION_IDLE_MS, idleSessions, makeRoom, newResultRef, ParsedCache, quotaErrors, RESULT_REF, systemClock, type CallRef, type Clock, type OpenOutcome, type SessionCap, type SessionRecord, type SessionStateStore } from './store.ts';

export interface RedisSessionStateStoreOptions {
  /** A redis:// or rediss:// URL; the store opens and closes its own connection. */
  url?: string;
  /** Or a connection the caller owns (not closed by close()). */
  client?: Redis;
  /** Prepended to every key (default `svc:`). */
  keyPrefix?: string;
  clock?: Clock;
  /** Lifetime of a session's keys after its last request, write or snapshot read (default 30 minutes; at least the snapshot TTL). */
  idleTtlMs?: number;
  /** Connection errors (ioredis reconnects by itself); without it they are ignored. */
  onError?: (err: Error) => void;
}

/** How long a published cancellation stays recorded: the longest execute budget (30 s) and a margin. */
export const CANCEL_TTL_MS = 35_000;
/** Longest one Redis command may take before it fails. */
const COMMAND_TIMEOUT_MS = 10_000;
/** Wait before subscribing again after a SUBSCRIBE failed on a connection that is still up. */
const RESUBSCRIBE_RETRY_MS = 1_000;
/**
 * Cancellations kept per session: a client naming ever new ids must not grow Redis without bound,
 * as every other session key is bounded. Past it a cancellation is only published (heard live).
 */
export const CANCELS_KEPT = 256;

/** Session IDs the gateway mints (UUIDs) go into keys as they are; anything else is encoded so no two sessions share a key. */
const keyPart = (sessionId: string) => (/^[A-Za-z0-9_-]{1,128}$/.test(sessionId) ? sessionId : `~${Buffer.from(sessionId).toString('base64url')}`);

/** A JSON-RPC request id in a key: hashed, so a client's id of any length or content makes a short key (7 and '7' differ). */
const callPart = (requestId: string | number) => createHash('sha256').update(`${typeof requestId}:${requestId}`).digest('base64url').slice(0, 22);

/**
 * Redis-backed session state. Reads of a snapshot whose parsed value this process already holds ask
 * Redis only whether the snapshot is still available (no text transferred): a snapshot never changes
 * once stored, so the cached value is current whenever Redis says the snapshot is still there.
 */
export class RedisSessionStateStore implements SessionStateStore {
  readonly #redis: Redis & SessionScripts;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #clock: Clock;
  readonly #idleTtlMs: number;
  /** When this process last extended the token index for a session (store clock). */
  readonly #indexExtended = new Map<string, number>();
  readonly #parsed = new ParsedCache();
  #closed = false;
  /** A second connection in subscriber mode, opened by the first onCancel. */
  #subscriber: Redis | undefined;
  #subscribed: Promise<void> | undefined;
  readonly #cancelListeners: ((sessionId: string, message: unknown) => void)[] = [];
  readonly #resumeListeners: (() => void)[] = [];

  constructor(options: RedisSessionStateStoreOptions) {
    if (!options.client && !options.url) throw new TypeError('RedisSessionStateStore needs a url or a client');
    this.#owned = !options.client;
    // commandTimeout: a Redis that stops answering fails a command (a script's session.get, a snapshot
    // being stored) instead of holding it, and the execute waiting on it, for ever.
    const redis = options.client ?? new Redis(options.url!, { connectTimeout: 5_000, maxRetriesPerRequest: 2, commandTimeout: COMMAND_TIMEOUT_MS });
    if (this.#owned) redis.on('error', options.onError ?? (() => undefined));
    this.#redis = withSessionScripts(redis);
    this.#prefix = options.keyPrefix ?? 'svc:';
    this.#clock = options.clock ?? systemClock;
    // As given, as the memory store takes it: a closed session's snapshots are released with it.
    this.#idleTtlMs = options.idleTtlMs ?? DEFAULT_SESSION_IDLE_MS;
  }

  /** A store whose Redis has answered a PING: a wrong REDIS_URL fails the Engine's start, not its first snapshot. */
  static async open(options: RedisSessionStateStoreOptions): Promise<RedisSessionStateStore> {
    const store = new RedisSessionStateStore(options);
    try {
      await store.ping();
    } catch (err) {
      await store.close();
      // Named so the command line reports it as a setting to fix, in one line.
      throw Object.assign(new Error(`Redis does not answer at REDIS_URL (${(err as Error).message})`, { cause: err }), { name: 'UnreachableError' });
    }
    return store;
  }

  async openSession(sessionId: string, record: SessionRecord, cap?: SessionCap): Promise<OpenOutcome> {
    this.#open();
    if (typeof sessionId !== 'string' || !sessionId) throw new TypeError('a session ID is required');
    const ses = this.#keys(sessionId).ses;
    const now = this.#clock.now();
    const deadline = now + this.#idleTtlMs;
    // The token's sessions by opening time (members may have expired since: checked below).
    const byToken = `${this.#prefix}tok:${keyPart(record.tokenId)}`;
    // The record comes first: an opening of the same token that lists this session once it is
    // counted finds it alive (and in use), never gone.
    const write = this.#redis.multi().del(ses).hset(ses, { v: record.versionId, t: record.tokenId, p: record.protocolVersion, r: record.ready ? '1' : '0', e: record.elicitation ? '1' : '0', d: deadline }).pexpireat(ses, deadline);
    if (!cap) {
      await write.zadd(byToken, now, sessionId).pexpireat(byToken, now + this.#idleTtlMs * 2).exec();
      return { opened: true, closed: [] };
    }
    await write.exec();
    // Liveness and last use live under each session's own keys (other Cluster slots), so they are
    // read first; the admission then decides on the index alone, and a chosen session is closed
    // only if no request used it meanwhile.
    const members = (await this.#redis.zrange(byToken, '0', '-1')).filter((id) => id !== sessionId);
    const reads = this.#redis.pipeline();
    for (const id of members) reads.hget(this.#keys(id).ses, 'd');
    const deadlines = ((await reads.exec()) ?? []).map(([err, d]) => (err || typeof d !== 'string' ? undefined : Number(d)));
    const open = members.flatMap((id, i) => (deadlines[i]! > now ? [{ id, lastUsed: deadlines[i]! - this.#idleTtlMs }] : []));
    const gone = members.filter((_, i) => !(deadlines[i]! > now));
    const candidates = idleSessions(open, cap, now);
    const reply = await this.#redis.svcSsAdmit(byToken, sessionId, now, cap.perToken, candidates.length, ...candidates, ...gone);
    if (reply[0] !== 1) {
      await this.#redis.del(ses);
      const full = makeRoom(open, cap, now);
      return { opened: false, retryAfterMs: 'retryAfterMs' in full ? full.retryAfterMs : 1 };
    }
    await this.#redis.pexpireat(byToken, now + this.#idleTtlMs * 2);
    const closed: string[] = [];
    for (const id of reply.slice(1).map(String)) {
      if ((await this.#redis.svcSsCloseIdle(this.#keys(id).ses, now - cap.inUseMs + this.#idleTtlMs)) === 1) {
        await this.release(id);
        closed.push(id);
      } else await this.#redis.zadd(byToken, now, id); // used since it was chosen: it stays, and counts
    }
    return { opened: true, closed };
  }

  async touchSession(sessionId: string, markReady = false): Promise<SessionRecord | undefined> {
    this.#open();
    if (typeof sessionId !== 'string' || !sessionId) return undefined;
    const k = this.#keys(sessionId);
    const now = this.#clock.now();
    const reply = await this.#redis.svcSsTouch(k.ses, k.st, k.ix, k.kv, now, now + this.#idleTtlMs, markReady ? 1 : 0);
    if (!reply) return undefined;
    const [versionId, tokenId, protocolVersion, ready, elicitation] = reply;
    // The token's session index must outlive every session it counts: extended as sessions are used
    // (at most every quarter of the idle time per session, so a request rarely pays a round trip).
    if (tokenId && now - (this.#indexExtended.get(sessionId) ?? -Infinity) >= this.#idleTtlMs / 4) {
      this.#indexExtended.set(sessionId, now);
      if (this.#indexExtended.size > 10_000) this.#indexExtended.delete(this.#indexExtended.keys().next().value!);
      await this.#redis.pexpireat(`${this.#prefix}tok:${keyPart(tokenId)}`, now + this.#idleTtlMs * 2);
    }
    return { versionId: versionId ?? '', tokenId: tokenId ?? '', protocolVersion: protocolVersion ?? '', ready: ready === '1', elicitation: elicitation === '1' };
  }

  async hasSession(sessionId: string): Promise<boolean> {
    this.#open();
    if (typeof sessionId !== 'string' || !sessionId) return false;
    return (await this.#redis.svcSsAlive(this.#keys(sessionId).ses, this.#clock.now())) === 1;
  }

  async closeSession(sessionId: string): Promise<boolean> {
    this.#open();
    if (typeof sessionId !== 'string' || !sessionId) return false;
    const open = await this.hasSession(sessionId);
    const ses = this.#keys(sessionId).ses;
    const tokenId = await this.#redis.hget(ses, 't');
    await this.#redis.del(ses);
    if (tokenId) await this.#redis.zrem(`${this.#prefix}tok:${keyPart(tokenId)}`, sessionId);
    await this.release(sessionId);
    return open;
  }

  async publishCancel(sessionId: string, message: unknown): Promise<void> {
    this.#open();
    const text = JSON.stringify({ s: sessionId, m: message });
    const requestId = (message as { params?: { requestId?: unknown } } | null)?.params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') {
      await this.#redis.publish(this.#cancelChannel, text);
      return;
    }
    // Recorded before it is published: pub/sub keeps nothing for a subscriber that is reconnecting,
    // nor for a call not yet registered; cancelled() finds it then.
    await this.#redis.svcSsCancel(this.#cancelKey(sessionId), callPart(requestId), this.#clock.now(), CANCEL_TTL_MS, CANCELS_KEPT, this.#cancelChannel, text);
  }

  async cancelled(calls: readonly CallRef[]): Promise<boolean[]> {
    this.#open();
    if (!calls.length) return [];
    const pipeline = this.#redis.pipeline();
    for (const call of calls) pipeline.hget(this.#cancelKey(call.sessionId), callPart(call.requestId));
    const results = (await pipeline.exec()) ?? [];
    const now = this.#clock.now();
    return calls.map((_, i) => {
      const [err, until] = results[i] ?? [];
      if (err) throw err;
      return typeof until === 'string' && Number(until) > now;
    });
  }

  async onCancel(listener: (sessionId: string, message: unknown) => void, onResume?: () => void): Promise<void> {
    this.#open();
    this.#cancelListeners.push(listener);
    if (onResume) this.#resumeListeners.push(onResume);
    if (this.#subscribed) return this.#subscribed;
    // autoResubscribe off: ioredis would resubscribe after a reconnect with a promise it never
    // handles, so a connection closed before Redis answered (a flapping Redis, or close()) rejected
    // it unhandled, which ends the Engine. The 'ready' listener below resubscribes instead.
    const subscriber = this.#redis.duplicate({ autoResubscribe: false });
    this.#subscriber = subscriber;
    subscriber.on('error', () => undefined); // the command connection reports Redis trouble
    subscriber.on('message', (_channel: string, text: string) => {
      let event: { s?: unknown; m?: unknown };
      try {
        event = JSON.parse(text) as { s?: unknown; m?: unknown };
      } catch {
        return;
      }
      if (typeof event.s !== 'string') return;
      for (const receive of this.#cancelListeners) receive(event.s, event.m);
    });
    // Subscribed on every 'ready' (each reconnect) and retried while connected, so neither a first
    // SUBSCRIBE that failed nor one lost in an outage ends hearing for good. Any confirmation but
    // the very first means cancellations may have been published unheard: Redis now has the
    // subscription, so the receivers check what was recorded, and nothing published from then on is missed.
    let attempt: Promise<void> | undefined;
    let firstAttempt = true;
    const subscribe = (): Promise<void> =>
      (attempt ??= subscriber.subscribe(this.#cancelChannel).then(
        () => {
          attempt = undefined;
          if (!firstAttempt) for (const resume of this.#resumeListeners) resume();
          firstAttempt = false;
        },
        (err: unknown) => {
          attempt = undefined;
          firstAttempt = false;
          // Still connected (the reply timed out): try again shortly; otherwise the next 'ready' does.
          if (this.#subscriber === subscriber && subscriber.status === 'ready') setTimeout(() => void subscribe().catch(() => undefined), RESUBSCRIBE_RETRY_MS).unref();
          throw err;
        },
      ));
    subscriber.on('ready', () => void subscribe().catch(() => undefined));
    this.#subscribed = subscribe();
    return this.#subscribed;
  }

  get #cancelChannel() {
    return `${this.#prefix}mcp:cancel`;
  }

  #cancelKey(sessionId: string) {
    return `${this.#prefix}ss:{${keyPart(sessionId)}}:cx`;
  }

  /**
   * The snapshot bytes this process counted into svc_snapshot_bytes, per session key part. Redis
   * expires an idle session's keys by itself, telling no one: the periodic expiry check takes this
   * process's share of a session whose keys are gone back out of the gauge.
   */
  readonly #counted = new Map<string, number>();

  #count(part: string, delta: number): void {
    if (!delta) return;
    metrics.snapshotBytes(delta);
    const net = (this.#counted.get(part) ?? 0) + delta;
    if (net === 0) this.#counted.delete(part);
    else this.#counted.set(part, net);
  }

  /** Redis expires idle sessions' keys by itself (PEXPIREAT on every touch); this settles the gauge for those gone. */
  async expireIdleSessions(): Promise<string[]> {
    this.#open();
    const parts = [...this.#counted.keys()];
    if (!parts.length) return [];
    const pipeline = this.#redis.pipeline();
    for (const part of parts) pipeline.exists(`${this.#prefix}ss:{${part}}:st`);
    const results = (await pipeline.exec()) ?? [];
    parts.forEach((part, i) => {
      const [err, exists] = results[i] ?? [];
      if (!err && exists === 0) {
        metrics.snapshotBytes(-(this.#counted.get(part) ?? 0));
        this.#counted.delete(part);
      }
    });
    return [];
  }

  async putSnapshot(sessionId: string, json: string): Promise<{ ref: string; expiresAt: number; bytes: number; evicted: string[] }> {
    this.#open();
    const bytes = checkSnapshot(sessionId, json);
    const k = this.#keys(sessionId);
    const ref = newResultRef();
    const now = this.#clock.now();
    const expiresAt = now + SNAPSHOT_TTL_MS;
    const reply = await this.#redis.svcSsPut(k.st, k.ix, k.kv, k.base + ref, json, ref, now, expiresAt, k.base, SNAPSHOT_LIMIT, SESSION_BYTES_LIMIT, now + this.#idleTtlMs);
    if (reply[0] === 'quota') {
      this.#count(k.part, -Number(reply[2]));
      throw quotaErrors.besideValues(bytes, Number(reply[1]));
    }
    this.#count(k.part, bytes - Number(reply[2]));
    const evicted = reply.slice(3).map(String);
    for (const old of evicted) this.#parsed.delete(k.cache + old);
    return { ref, expiresAt, bytes, evicted };
  }

  async getSnapshot(sessionId: string, ref: string): Promise<unknown> {
    this.#open();
    if (typeof sessionId !== 'string' || !sessionId || typeof ref !== 'string' || !RESULT_REF.test(ref)) throw resultUnavailable(String(ref));
    const k = this.#keys(sessionId);
    const cached = this.#parsed.get(k.cache + ref);
    const now = this.#clock.now();
    const reply = await this.#redis.svcSsGet(k.st, k.ix, k.kv, k.base + ref, ref, now, k.base, cached ? 0 : 1, now + this.#idleTtlMs);
    this.#count(k.part, -Number(reply[1]));
    if (reply[0] !== 1) {
      this.#parsed.delete(k.cache + ref);
      throw resultUnavailable(ref);
    }
    if (cached) return cached.value;
    const text = String(reply[2]);
    const value: unknown = JSON.parse(text);
    this.#parsed.set(k.cache + ref, value, utf8(text));
    return value;
  }

  async setValue(sessionId: string, key: string, json: string): Promise<void> {
    this.#open();
    checkValue(sessionId, key, json);
    const k = this.#keys(sessionId);
    const now = this.#clock.now();
    const reply = await this.#redis.svcSsSet(k.st, k.ix, k.kv, key, json, now, k.base, SNAPSHOT_LIMIT, SESSION_BYTES_LIMIT, now + this.#idleTtlMs);
    this.#count(k.part, -Number(reply[reply[0] === 'quota' ? 2 : 1]));
    if (reply[0] === 'quota') throw quotaErrors.values(Number(reply[1]));
  }

  async getValue(sessionId: string, key: string): Promise<string | undefined> {
    this.#open();
    // An unpaired surrogate would reach Redis as U+FFFD and read another key's value; setValue refuses such keys.
    if (typeof sessionId !== 'string' || !sessionId || typeof key !== 'string' || !key.isWellFormed()) return undefined;
    return (await this.#redis.hget(this.#keys(sessionId).kv, key)) ?? undefined;
  }

  async release(sessionId: string): Promise<void> {
    if (this.#closed || typeof sessionId !== 'string' || !sessionId) return;
    const k = this.#keys(sessionId);
    this.#parsed.deletePrefix(k.cache);
    this.#count(k.part, -Number(await this.#redis.svcSsRelease(k.st, k.ix, k.kv, k.base)));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#parsed.clear();
    this.#subscriber?.disconnect();
    this.#subscriber = undefined;
    if (!this.#owned) return;
    if (this.#redis.status === 'ready') await this.#redis.quit().catch(() => this.#redis.disconnect());
    else this.#redis.disconnect();
  }

  /** Redis answers (readiness). */
  async ping(): Promise<void> {
    this.#open();
    await this.#redis.ping();
  }

  /** What a session holds, expired snapshots dropped first; for tests and diagnostics. */
  async usage(sessionId: string): Promise<{ snapshots: number; snapshotBytes: number; valueBytes: number }> {
    this.#open();
    const k = this.#keys(sessionId);
    const [snapshots, snapshotBytes, valueBytes, freed] = (await this.#redis.svcSsUsage(k.st, k.ix, k.kv, this.#clock.now(), k.base)).map(Number) as [number, number, number, number];
    this.#count(k.part, -freed);
    return { snapshots, snapshotBytes, valueBytes };
  }

  /** Drops the expired snapshots of every session under this prefix now (Redis expires their text by itself; this settles the indexes). */
  async sweep(): Promise<void> {
    this.#open();
    const pattern = `${this.#prefix.replace(/[*?[\]\\]/g, '\\$&')}ss:{*}:st`;
    let cursor = '0';
    do {
      const [next, keys] = await this.#redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const part = key.slice(this.#prefix.length + 4, -4);
        const base = `${this.#prefix}ss:{${part}}:`;
        const reply = await this.#redis.svcSsUsage(`${base}st`, `${base}ix`, `${base}kv`, this.#clock.now(), `${base}r:`);
        this.#count(part, -Number(reply[3]));
      }
    } while (cursor !== '0');
  }

  #open(): void {
    if (this.#closed) throw new Error('The session state store is closed');
  }

  #keys(sessionId: string) {
    const part = keyPart(sessionId);
    const session = `${this.#prefix}ss:{${part}}:`;
    return { part, ses: `${session}ses`, st: `${session}st`, ix: `${session}ix`, kv: `${session}kv`, base: `${session}r:`, cache: `${part}\n` };
  }
}
