// Per-MCP-session state: stored result snapshots and session.set values (docs/architecture.md, "MCP results").
import { randomBytes } from 'node:crypto';
import { metrics } from '../metrics/index.ts';
import { SESSION_BYTES_LIMIT, SNAPSHOT_LIMIT, SNAPSHOT_TTL_MS, RetentionError, clip, invalidInput, resultUnavailable, utf8 } from './errors.ts';

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * An MCP session as every replica sees it: which version and token opened it, the protocol version
 * it negotiated, whether notifications/initialized has arrived, and whether its client declared
 * the `elicitation` capability. Nothing else of a session lives in a process, so any replica can
 * serve its next request.
 */
export interface SessionRecord {
  versionId: string;
  tokenId: string;
  protocolVersion: string;
  ready: boolean;
  /** The client can be asked (elicitation/create), on whichever replica holds its stream. */
  elicitation: boolean;
}

/** A tool call by its session and JSON-RPC request id. */
export interface CallRef {
  sessionId: string;
  requestId: string | number;
}

/** How long a session lives without requests (SVC_MCP_SESSION_IDLE_MS; default 30 minutes). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/** How many sessions one token may hold open, and which of them may be closed to make room for another. */
export interface SessionCap {
  /** Sessions the token may hold open, the new one included. */
  perToken: number;
  /** A session whose last request started less than this long ago is in use: never closed to make room. */
  inUseMs: number;
  /** Whether a session is answering a request in this process now (in use whatever its last request). */
  busy?: (sessionId: string) => boolean;
}

/** What openSession did: opened the session (closing the least recently used idle ones named), or refused it because all are in use. */
export type OpenOutcome = { opened: true; closed: string[] } | { opened: false; retryAfterMs: number };

/** A token's open session and when its last request started. */
export interface OpenSession {
  id: string;
  lastUsed: number;
}

const isIdle = (s: OpenSession, cap: SessionCap, now: number) => s.lastUsed <= now - cap.inUseMs && !cap.busy?.(s.id);

/** The sessions not in use, least recently used first: those that may be closed to make room. */
export const idleSessions = (open: readonly OpenSession[], cap: SessionCap, now: number): string[] =>
  open
    .filter((s) => isIdle(s, cap, now))
    .sort((a, b) => a.lastUsed - b.lastUsed)
    .map((s) => s.id);

/**
 * The sessions to close so that one more fits under the cap, or, when too few are idle, how long
 * until the first one in use may be idle.
 */
export function makeRoom(open: readonly OpenSession[], cap: SessionCap, now: number): { close: string[] } | { retryAfterMs: number } {
  const over = open.length + 1 - cap.perToken;
  if (over <= 0) return { close: [] };
  const idle = idleSessions(open, cap, now);
  if (idle.length >= over) return { close: idle.slice(0, over) };
  // One busy here may run for up to the in-use time yet; any other leaves it at lastUsed + inUseMs.
  const waits = open.filter((s) => !isIdle(s, cap, now)).map((s) => (cap.busy?.(s.id) ? cap.inUseMs : s.lastUsed + cap.inUseMs - now));
  return { retryAfterMs: Math.max(1, Math.min(...waits)) };
}

/** Per-MCP-session state: the session record, snapshots and session.set values. In memory (one process) or in Redis (shared by replicas); both pass test/retention/session-state-store.contract.ts. */
export interface SessionStateStore {
  /**
   * Registers a new session; it stays open until closeSession or until it has been idle for the
   * store's session idle time. With a cap, a token holds at most `cap.perToken` open sessions: when
   * this one would pass it, the token's least recently used sessions that are not in use are
   * closed to make room (and named); a session in use is never closed, so when too few are idle
   * the session is not opened and the outcome says when one may be. Openings of one token at the
   * same time, on any replica, together close only what is over the cap.
   */
  openSession(sessionId: string, record: SessionRecord, cap?: SessionCap): Promise<OpenOutcome>;
  /** An open session's record, its idle deadline moved forward (and `ready` set when asked); undefined once closed, idle-expired or never opened. */
  touchSession(sessionId: string, markReady?: boolean): Promise<SessionRecord | undefined>;
  /** Whether the session is open, without extending it. */
  hasSession(sessionId: string): Promise<boolean>;
  /** Closes the session (DELETE): its record, snapshots and values are gone. False when it was not open. */
  closeSession(sessionId: string): Promise<boolean>;
  /** Closes the sessions that have been idle too long and returns their IDs (a shared store whose server expires keys by itself may return none). */
  expireIdleSessions(): Promise<string[]>;
  /** Delivers a session's notifications/cancelled to every process sharing the store (this one included): the request it names may be running anywhere. */
  publishCancel(sessionId: string, message: unknown): Promise<void>;
  /**
   * Registers a receiver of published cancellations; resolves once it receives them. `onResume` is
   * called whenever some may have been missed (a shared store's subscription is back after its
   * connection dropped): the receiver then asks cancelled() about the calls it is running.
   */
  onCancel(listener: (sessionId: string, message: unknown) => void, onResume?: () => void): Promise<void>;
  /**
   * For each call, whether a notifications/cancelled naming it was published lately (Redis keeps
   * each for 35 s, longer than any execute budget). The in-memory store, which delivers each one at
   * once, records none.
   */
  cancelled(calls: readonly CallRef[]): Promise<boolean[]>;
  /** Stores a snapshot (JSON text of the admitted result) for the session; evicts the oldest snapshots first while the session would hold more than 16 snapshots or more than 4 MiB (snapshot bytes + session.set value bytes). Returns the new ref and expiry. A single result larger than 4 MiB cannot be stored: throw RetentionError MCP_SESSION_QUOTA. */
  putSnapshot(sessionId: string, json: string): Promise<{ ref: string; expiresAt: number; bytes: number; evicted: string[] }>;
  /** The parsed snapshot value, or throws RetentionError MCP_RESULT_UNAVAILABLE (expired, evicted, released, another session's, unknown). Reads do not extend the lifetime. */
  getSnapshot(sessionId: string, ref: string): Promise<unknown>;
  /** Counts toward 4 MiB; evicts oldest snapshots if needed; throws MCP_SESSION_QUOTA when values alone exceed it. */
  setValue(sessionId: string, key: string, json: string): Promise<void>;
  getValue(sessionId: string, key: string): Promise<string | undefined>;
  /** Session closed (DELETE or expiry). */
  release(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

/** `res_` + base64url of 16 random bytes (128 bits; docs/architecture.md, identifiers). */
export const newResultRef = (): string => `res_${randomBytes(16).toString('base64url')}`;
export const RESULT_REF = /^res_[A-Za-z0-9_-]{22,}$/;

/** session.set keys may not look like result references: session.get would read them as one. */
export function checkValueKey(key: unknown): asserts key is string {
  if (typeof key !== 'string' || key === '') throw invalidInput('session.set needs a non-empty string key');
  if (key.startsWith('res_')) throw invalidInput(`session.set key '${clip(key)}' must not start with 'res_': that prefix names stored results`);
  // Redis keeps UTF-8: each unpaired surrogate would become U+FFFD, and two keys one.
  if (!key.isWellFormed()) throw invalidInput('session.set key must not hold unpaired UTF-16 surrogates');
}

interface Snapshot {
  json: string;
  bytes: number;
  expiresAt: number;
}

interface SessionState {
  snapshots: Map<string, Snapshot>; // insertion order = creation order, oldest first
  values: Map<string, { json: string; bytes: number }>;
  snapshotBytes: number;
  valueBytes: number;
}

const SWEEP_EVERY_MS = 60_000;

/**
 * Parsed snapshots kept for repeated reads (a page loop reads the same ref again and again): an LRU
 * holding values whose JSON text adds up to at most 8 MiB. A snapshot never changes once stored,
 * so a cached value is current for as long as its snapshot is available; the store checks that first.
 */
export class ParsedCache {
  static readonly LIMIT_BYTES = 8 * 1024 * 1024;
  readonly #entries = new Map<string, { value: unknown; bytes: number }>(); // oldest first
  #bytes = 0;

  get(key: string): { value: unknown } | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key); // move to the newest end
    this.#entries.set(key, entry);
    return entry;
  }

  set(key: string, value: unknown, bytes: number): void {
    if (bytes > ParsedCache.LIMIT_BYTES) return;
    this.delete(key);
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [old, entry] of this.#entries) {
      if (this.#bytes <= ParsedCache.LIMIT_BYTES) break;
      this.#entries.delete(old);
      this.#bytes -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  /** Drops every entry whose key starts with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const key of [...this.#entries.keys()]) if (key.startsWith(prefix)) this.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}

function quota(message: string, details: Record<string, unknown>): RetentionError {
  return new RetentionError('MCP_SESSION_QUOTA', message, details);
}

/** The quota refusals every SessionStateStore raises, word for word. */
export const quotaErrors = {
  tooLarge: (bytes: number) =>
    quota(`The result is ${bytes} bytes; a session can hold at most ${SESSION_BYTES_LIMIT} bytes of stored results, so it cannot be stored`, { bytes, limit_bytes: SESSION_BYTES_LIMIT }),
  besideValues: (bytes: number, valueBytes: number) =>
    quota(`The result is ${bytes} bytes and session.set values hold ${valueBytes} bytes; together they exceed the session's ${SESSION_BYTES_LIMIT} bytes`, { bytes, value_bytes: valueBytes, limit_bytes: SESSION_BYTES_LIMIT }),
  values: (valueBytes: number) =>
    quota(`session.set values would hold ${valueBytes} bytes (keys and JSON values); a session can hold at most ${SESSION_BYTES_LIMIT} bytes`, { value_bytes: valueBytes, limit_bytes: SESSION_BYTES_LIMIT }),
};

function parseJson(json: unknown, what: string): unknown {
  if (typeof json !== 'string') throw invalidInput(`${what} must be JSON text`);
  try {
    return JSON.parse(json);
  } catch {
    throw invalidInput(`${what} is not valid JSON`);
  }
}

function checkSessionId(sessionId: unknown): asserts sessionId is string {
  if (typeof sessionId !== 'string' || sessionId === '') throw new TypeError('a session ID is required');
}

/** putSnapshot's argument checks, shared by every store; returns the snapshot's size in bytes. */
export function checkSnapshot(sessionId: unknown, json: unknown): number {
  checkSessionId(sessionId);
  if (typeof json !== 'string') throw invalidInput('The result snapshot must be JSON text');
  const bytes = utf8(json);
  if (bytes > SESSION_BYTES_LIMIT) throw quotaErrors.tooLarge(bytes);
  return bytes;
}

/** setValue's argument checks, shared by every store. */
export function checkValue(sessionId: unknown, key: unknown, json: unknown): void {
  checkSessionId(sessionId);
  checkValueKey(key);
  parseJson(json, `The session.set value for '${clip(key)}'`);
}

/**
 * In-memory store. The text is stored as given (the caller produced it with JSON.stringify) and parsed
 * on first read; parsed values of recently read snapshots (up to 8 MiB of their text) are kept and
 * shared between reads, so callers must treat what getSnapshot returns as read-only. Expired snapshots are dropped when their session is touched, and across all sessions at most once a
 * minute (clock time) on writes; `sweep()` does it on demand.
 */
export class MemorySessionStateStore implements SessionStateStore {
  readonly #clock: Clock;
  readonly #idleMs: number;
  readonly #records = new Map<string, { record: SessionRecord; idleUntil: number }>();
  /** Each token's sessions (open or idle-expired but not yet dropped). */
  readonly #byToken = new Map<string, Set<string>>();
  readonly #cancelListeners: ((sessionId: string, message: unknown) => void)[] = [];
  readonly #sessions = new Map<string, SessionState>();
  readonly #parsed = new ParsedCache();
  #lastSweep: number;
  #closed = false;

  constructor(clock: Clock = systemClock, sessionIdleMs = DEFAULT_SESSION_IDLE_MS) {
    this.#clock = clock;
    this.#idleMs = sessionIdleMs;
    this.#lastSweep = clock.now();
  }

  async openSession(sessionId: string, record: SessionRecord, cap?: SessionCap): Promise<OpenOutcome> {
    this.#open();
    checkSessionId(sessionId);
    const now = this.#clock.now();
    let close: string[] = [];
    if (cap) {
      const open = [...(this.#byToken.get(record.tokenId) ?? [])].flatMap((id) => {
        const entry = this.#live(id);
        return entry ? [{ id, lastUsed: entry.idleUntil - this.#idleMs }] : [];
      });
      const room = makeRoom(open, cap, now);
      if ('retryAfterMs' in room) return { opened: false, retryAfterMs: room.retryAfterMs };
      close = room.close;
    }
    // Counted before the first await, so an opening of the same token that runs meanwhile sees it.
    this.#records.set(sessionId, { record: { ...record }, idleUntil: now + this.#idleMs });
    let ids = this.#byToken.get(record.tokenId);
    if (!ids) this.#byToken.set(record.tokenId, (ids = new Set()));
    ids.add(sessionId);
    for (const id of close) this.#drop(id);
    for (const id of close) await this.release(id);
    return { opened: true, closed: close };
  }

  async touchSession(sessionId: string, markReady = false): Promise<SessionRecord | undefined> {
    this.#open();
    const entry = this.#live(sessionId);
    if (!entry) return undefined;
    entry.idleUntil = this.#clock.now() + this.#idleMs;
    if (markReady) entry.record.ready = true;
    return { ...entry.record };
  }

  async hasSession(sessionId: string): Promise<boolean> {
    this.#open();
    return this.#live(sessionId) !== undefined;
  }

  async closeSession(sessionId: string): Promise<boolean> {
    const open = this.#live(sessionId) !== undefined;
    this.#drop(sessionId);
    await this.release(sessionId);
    return open;
  }

  /** Forgets the session's record (its state is released by the caller). */
  #drop(sessionId: string): void {
    const entry = this.#records.get(sessionId);
    if (!entry) return;
    this.#records.delete(sessionId);
    const ids = this.#byToken.get(entry.record.tokenId);
    ids?.delete(sessionId);
    if (ids && !ids.size) this.#byToken.delete(entry.record.tokenId);
  }

  async publishCancel(sessionId: string, message: unknown): Promise<void> {
    for (const listener of this.#cancelListeners) listener(sessionId, message);
  }

  async onCancel(listener: (sessionId: string, message: unknown) => void): Promise<void> {
    this.#cancelListeners.push(listener);
  }

  async cancelled(calls: readonly CallRef[]): Promise<boolean[]> {
    return calls.map(() => false);
  }

  async expireIdleSessions(): Promise<string[]> {
    const now = this.#clock.now();
    const expired = [...this.#records].filter(([, e]) => e.idleUntil <= now).map(([id]) => id);
    for (const id of expired) await this.closeSession(id);
    return expired;
  }

  /** The session's entry while it is open; an idle-expired one is closed on sight. */
  #live(sessionId: string) {
    const entry = typeof sessionId === 'string' ? this.#records.get(sessionId) : undefined;
    if (entry && entry.idleUntil <= this.#clock.now()) {
      this.#drop(sessionId);
      void this.release(sessionId);
      return undefined;
    }
    return entry;
  }

  async putSnapshot(sessionId: string, json: string): Promise<{ ref: string; expiresAt: number; bytes: number; evicted: string[] }> {
    this.#open();
    const bytes = checkSnapshot(sessionId, json);
    this.#maybeSweep();
    const state = this.#state(sessionId, true)!;
    if (state.valueBytes + bytes > SESSION_BYTES_LIMIT) throw quotaErrors.besideValues(bytes, state.valueBytes);
    const ref = newResultRef();
    const expiresAt = this.#clock.now() + SNAPSHOT_TTL_MS;
    state.snapshots.set(ref, { json, bytes, expiresAt });
    state.snapshotBytes += bytes;
    metrics.snapshotBytes(bytes);
    const evicted = this.#evict(state, ref);
    return { ref, expiresAt, bytes, evicted };
  }

  async getSnapshot(sessionId: string, ref: string): Promise<unknown> {
    this.#open();
    const state = typeof sessionId === 'string' ? this.#state(sessionId, false) : undefined;
    const snapshot = typeof ref === 'string' ? state?.snapshots.get(ref) : undefined;
    if (!state || !snapshot) throw resultUnavailable(String(ref));
    const cached = this.#parsed.get(ref);
    if (cached) return cached.value;
    const value: unknown = JSON.parse(snapshot.json);
    this.#parsed.set(ref, value, snapshot.bytes);
    return value;
  }

  async setValue(sessionId: string, key: string, json: string): Promise<void> {
    this.#open();
    checkValue(sessionId, key, json);
    const bytes = utf8(key) + utf8(json);
    this.#maybeSweep();
    const state = this.#state(sessionId, true)!;
    const valueBytes = state.valueBytes - (state.values.get(key)?.bytes ?? 0) + bytes;
    if (valueBytes > SESSION_BYTES_LIMIT) {
      this.#dropIfEmpty(sessionId, state);
      throw quotaErrors.values(valueBytes);
    }
    state.values.set(key, { json, bytes });
    state.valueBytes = valueBytes;
    this.#evict(state, undefined);
  }

  async getValue(sessionId: string, key: string): Promise<string | undefined> {
    this.#open();
    return this.#state(sessionId, false)?.values.get(key)?.json;
  }

  async release(sessionId: string): Promise<void> {
    const state = this.#sessions.get(sessionId);
    if (!state) return;
    for (const ref of state.snapshots.keys()) this.#parsed.delete(ref);
    this.#sessions.delete(sessionId);
    metrics.snapshotBytes(-state.snapshotBytes);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#records.clear();
    this.#byToken.clear();
    for (const state of this.#sessions.values()) metrics.snapshotBytes(-state.snapshotBytes);
    this.#sessions.clear();
    this.#parsed.clear();
  }

  /** Drops every expired snapshot and empty session now. */
  sweep(): void {
    this.#lastSweep = this.#clock.now();
    for (const sessionId of [...this.#sessions.keys()]) this.#state(sessionId, false);
  }

  /** Bytes a session holds (snapshots + session.set keys and values); for tests and diagnostics. */
  usage(sessionId: string): { snapshots: number; snapshotBytes: number; valueBytes: number } {
    const state = this.#state(sessionId, false);
    return { snapshots: state?.snapshots.size ?? 0, snapshotBytes: state?.snapshotBytes ?? 0, valueBytes: state?.valueBytes ?? 0 };
  }

  #open(): void {
    if (this.#closed) throw new Error('The session state store is closed');
  }

  #maybeSweep(): void {
    if (this.#clock.now() - this.#lastSweep >= SWEEP_EVERY_MS) this.sweep();
  }

  /** The session's state with expired snapshots removed; creates it when asked. */
  #state(sessionId: string, create: boolean): SessionState | undefined {
    let state = this.#sessions.get(sessionId);
    if (state) {
      const now = this.#clock.now();
      for (const [ref, snapshot] of state.snapshots) if (now >= snapshot.expiresAt) this.#remove(state, ref);
      if (!create && this.#dropIfEmpty(sessionId, state)) return undefined;
    } else if (create) {
      state = { snapshots: new Map(), values: new Map(), snapshotBytes: 0, valueBytes: 0 };
      this.#sessions.set(sessionId, state);
    }
    return state;
  }

  #dropIfEmpty(sessionId: string, state: SessionState): boolean {
    if (state.snapshots.size || state.values.size) return false;
    this.#sessions.delete(sessionId);
    return true;
  }

  /** Evicts the oldest snapshots (never `keep`) while the session is over its count or byte limit. */
  #evict(state: SessionState, keep: string | undefined): string[] {
    const evicted: string[] = [];
    for (const ref of state.snapshots.keys()) {
      if (state.snapshots.size <= SNAPSHOT_LIMIT && state.snapshotBytes + state.valueBytes <= SESSION_BYTES_LIMIT) break;
      if (ref === keep) continue;
      this.#remove(state, ref);
      evicted.push(ref);
    }
    return evicted;
  }

  #remove(state: SessionState, ref: string): void {
    const snapshot = state.snapshots.get(ref);
    if (!snapshot) return;
    state.snapshots.delete(ref);
    state.snapshotBytes -= snapshot.bytes;
    metrics.snapshotBytes(-snapshot.bytes);
    this.#parsed.delete(ref);
  }
}
