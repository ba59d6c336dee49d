// The SessionStateStore contract: per-session result snapshots and session.set values, eviction by
// count and bytes, expiry on a controllable clock, release, session isolation, and session.get with
// `res_…#/pointer`. Runs unchanged against every implementation: test/retention/memory-store.test.ts
// and test/retention/redis-store.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import {
  pageOf,
  RESULT_REF,
  RESULT_UNAVAILABLE_GUIDANCE,
  RetentionError,
  SESSION_BYTES_LIMIT,
  SNAPSHOT_LIMIT,
  SNAPSHOT_TTL_MS,
  sessionGet,
  DEFAULT_SESSION_IDLE_MS,
  type Clock,
  type RetentionErrorCode,
  type SessionStateStore,
} from '../../src/retention/index.ts';

export interface Usage {
  snapshots: number;
  snapshotBytes: number;
  valueBytes: number;
}

/** A store under test: the interface, plus what a session holds and a sweep of idle sessions. */
export interface ContractStore extends SessionStateStore {
  usage(sessionId: string): Usage | Promise<Usage>;
  sweep(): void | Promise<void>;
}

/** Time the test moves by hand. It starts at the real time, so a store may hand it to a server that expires keys in real time too. */
export class ManualClock implements Clock {
  t = Date.now();
  now() {
    return this.t;
  }
}

/** Defines the contract suite for one implementation; `create` gets the clock the store must read time from. */
export function sessionStateStoreContract(create: (clock: Clock) => ContractStore | Promise<ContractStore>): void {
  let clock: ManualClock;
  let store: ContractStore;
  const fresh = async () => {
    clock = new ManualClock();
    store = await create(clock);
  };
  afterEach(async () => {
    await store?.close();
  });

  async function rejects(p: Promise<unknown>, code: RetentionErrorCode): Promise<RetentionError> {
    try {
      await p;
    } catch (err) {
      expect(err).toBeInstanceOf(RetentionError);
      expect((err as RetentionError).code).toBe(code);
      return err as RetentionError;
    }
    throw new Error(`expected ${code}`);
  }

  /** JSON text of exactly `n` UTF-8 bytes. */
  const jsonOfBytes = (n: number) => JSON.stringify('x'.repeat(n - 2));

  describe('snapshots', () => {
    it('mints res_ + base64url of 16 random bytes and returns the parsed value until expiry', async () => {
      await fresh();
      const text = '{"data":[1,2,3],"é":"😀"}';
      const put = await store.putSnapshot('s1', text);
      expect(put.ref).toMatch(/^res_[A-Za-z0-9_-]{22}$/);
      expect(put.ref).toMatch(RESULT_REF);
      expect(Buffer.from(put.ref.slice(4), 'base64url')).toHaveLength(16);
      expect(put).toMatchObject({ expiresAt: clock.t + SNAPSHOT_TTL_MS, bytes: text.length + 1 + 2, evicted: [] }); // é: 2 bytes, 😀: 4 bytes in 2 UTF-16 units
      expect(await store.getSnapshot('s1', put.ref)).toEqual({ data: [1, 2, 3], é: '😀' });
      const refs = new Set(await Promise.all(Array.from({ length: 200 }, async () => (await store.putSnapshot('s2', '1')).ref)));
      expect(refs.size).toBe(200);
    });

    it('serves repeated reads the same value; paging and session.get leave it unchanged', async () => {
      await fresh();
      const text = '{"data":[{"id":1,"tags":["a"]},{"id":2}]}';
      const { ref } = await store.putSnapshot('s1', text);
      const first = await store.getSnapshot('s1', ref);
      pageOf(first, { path: '/data', fields: ['id'] }, 1024);
      pageOf(first, { path: '/data' }, 1024);
      await sessionGet(store, 's1', `${ref}#/data/0/tags`);
      expect(JSON.stringify(await store.getSnapshot('s1', ref))).toBe(text);
    });

    it('evicts the oldest by count: the 17th snapshot evicts the 1st', async () => {
      await fresh();
      const refs: string[] = [];
      for (let i = 0; i < SNAPSHOT_LIMIT; i++) {
        const put = await store.putSnapshot('s1', JSON.stringify({ i }));
        expect(put.evicted).toEqual([]);
        refs.push(put.ref);
      }
      const seventeenth = await store.putSnapshot('s1', '{"i":16}');
      expect(seventeenth.evicted).toEqual([refs[0]]);
      const err = await rejects(store.getSnapshot('s1', refs[0]!), 'MCP_RESULT_UNAVAILABLE');
      expect(err.message).toContain(RESULT_UNAVAILABLE_GUIDANCE);
      expect(err.details).toMatchObject({ guidance: RESULT_UNAVAILABLE_GUIDANCE });
      expect(await store.getSnapshot('s1', refs[1]!)).toEqual({ i: 1 });
      expect(await store.getSnapshot('s1', seventeenth.ref)).toEqual({ i: 16 });
      expect((await store.usage('s1')).snapshots).toBe(SNAPSHOT_LIMIT);
    });

    it('evicts the oldest by bytes: a snapshot taking the session over 4 MiB evicts from the front', async () => {
      await fresh();
      const mib = 1024 * 1024;
      const a = await store.putSnapshot('s1', jsonOfBytes(mib));
      const b = await store.putSnapshot('s1', jsonOfBytes(mib));
      const c = await store.putSnapshot('s1', jsonOfBytes(mib));
      const d = await store.putSnapshot('s1', jsonOfBytes(mib)); // exactly 4 MiB: nothing evicted
      expect(d.evicted).toEqual([]);
      expect((await store.usage('s1')).snapshotBytes).toBe(SESSION_BYTES_LIMIT);
      const e = await store.putSnapshot('s1', '1'); // 4 MiB + 1 byte: the oldest goes
      expect(e.evicted).toEqual([a.ref]);
      const f = await store.putSnapshot('s1', jsonOfBytes(2 * mib)); // needs two more to go
      expect(f.evicted).toEqual([b.ref, c.ref]);
      await rejects(store.getSnapshot('s1', a.ref), 'MCP_RESULT_UNAVAILABLE');
      await rejects(store.getSnapshot('s1', c.ref), 'MCP_RESULT_UNAVAILABLE');
      expect(await store.getSnapshot('s1', d.ref)).toHaveLength(mib - 2);
      expect((await store.usage('s1')).snapshotBytes).toBe(mib + 1 + 2 * mib);
    });

    it('refuses a single result over 4 MiB with MCP_SESSION_QUOTA and keeps what the session holds', async () => {
      await fresh();
      const kept = await store.putSnapshot('s1', '[1]');
      await store.putSnapshot('s1', jsonOfBytes(SESSION_BYTES_LIMIT)); // exactly 4 MiB is storable (evicts the rest)
      const k2 = await store.putSnapshot('s1', '[2]');
      const err = await rejects(store.putSnapshot('s1', jsonOfBytes(SESSION_BYTES_LIMIT + 1)), 'MCP_SESSION_QUOTA');
      expect(err.details).toMatchObject({ bytes: SESSION_BYTES_LIMIT + 1, limit_bytes: SESSION_BYTES_LIMIT });
      await rejects(store.getSnapshot('s1', kept.ref), 'MCP_RESULT_UNAVAILABLE');
      expect(await store.getSnapshot('s1', k2.ref)).toEqual([2]);
    });

    it('expires five minutes after creation; reads do not extend the lifetime', async () => {
      await fresh();
      const put = await store.putSnapshot('s1', '{"a":1}');
      for (let t = 0; t < SNAPSHOT_TTL_MS; t += 60_000) {
        clock.t = put.expiresAt - SNAPSHOT_TTL_MS + t;
        expect(await store.getSnapshot('s1', put.ref)).toEqual({ a: 1 });
      }
      clock.t = put.expiresAt - 1;
      expect(await store.getSnapshot('s1', put.ref)).toEqual({ a: 1 });
      clock.t = put.expiresAt;
      await rejects(store.getSnapshot('s1', put.ref), 'MCP_RESULT_UNAVAILABLE');
      await rejects(sessionGet(store, 's1', put.ref), 'MCP_RESULT_UNAVAILABLE');
      expect(await store.usage('s1')).toEqual({ snapshots: 0, snapshotBytes: 0, valueBytes: 0 });
    });

    it('expired snapshots stop counting toward the limits', async () => {
      await fresh();
      for (let i = 0; i < SNAPSHOT_LIMIT; i++) await store.putSnapshot('s1', '1');
      clock.t += SNAPSHOT_TTL_MS;
      const put = await store.putSnapshot('s1', '2');
      expect(put.evicted).toEqual([]);
      expect((await store.usage('s1')).snapshots).toBe(1);
    });

    it('sweeps expired snapshots of idle sessions', async () => {
      await fresh();
      await store.putSnapshot('idle', '1');
      clock.t += SNAPSHOT_TTL_MS;
      await store.sweep();
      expect((await store.usage('idle')).snapshots).toBe(0);
    });

    it('releases a session: its snapshots and values are gone, other sessions are untouched', async () => {
      await fresh();
      const mine = await store.putSnapshot('s1', '{"a":1}');
      await store.setValue('s1', 'k', '"v"');
      const other = await store.putSnapshot('s2', '{"b":2}');
      await store.release('s1');
      await rejects(store.getSnapshot('s1', mine.ref), 'MCP_RESULT_UNAVAILABLE');
      expect(await store.getValue('s1', 'k')).toBeUndefined();
      expect(await store.getSnapshot('s2', other.ref)).toEqual({ b: 2 });
      await store.release('never-existed');
    });

    it('never lets another session read a snapshot, even with the right ref', async () => {
      await fresh();
      const put = await store.putSnapshot('s1', '{"secret":1}');
      await store.putSnapshot('s2', '{"x":1}');
      const err = await rejects(store.getSnapshot('s2', put.ref), 'MCP_RESULT_UNAVAILABLE');
      const unknown = await rejects(store.getSnapshot('s2', 'res_AAAAAAAAAAAAAAAAAAAAAA'), 'MCP_RESULT_UNAVAILABLE');
      expect(err.message).toBe(unknown.message); // another session's ref is indistinguishable from an unknown one
      expect(err.message).not.toContain('s1');
      await rejects(sessionGet(store, 's2', `${put.ref}#/secret`), 'MCP_RESULT_UNAVAILABLE');
      await rejects(store.getSnapshot('s3', put.ref), 'MCP_RESULT_UNAVAILABLE');
      expect(await store.getSnapshot('s1', put.ref)).toEqual({ secret: 1 });
    });

    it('refuses use after close', async () => {
      await fresh();
      await store.close();
      await expect(store.putSnapshot('s1', '1')).rejects.toThrow(/closed/);
    });
  });

  describe('session records', () => {
    const record = { versionId: 'ver_01', tokenId: 'tok_01', protocolVersion: '2025-06-18', ready: false, elicitation: false };

    it('opens a session that any later request can find, and marks it ready once', async () => {
      await fresh();
      expect(await store.touchSession('s1')).toBeUndefined();
      expect(await store.hasSession('s1')).toBe(false);
      await store.openSession('s1', record);
      expect(await store.hasSession('s1')).toBe(true);
      expect(await store.touchSession('s1')).toEqual(record);
      expect(await store.touchSession('s1', true)).toEqual({ ...record, ready: true });
      expect(await store.touchSession('s1')).toEqual({ ...record, ready: true });
      expect(await store.touchSession('s2')).toBeUndefined();
      // Whether its client can be asked (elicitation) holds for every replica, as the record does.
      await store.openSession('s3', { ...record, elicitation: true });
      expect(await store.touchSession('s3', true)).toEqual({ ...record, ready: true, elicitation: true });
    });

    it('keeps at most perToken open sessions of a token, closing the least recently used idle one, and says which', async () => {
      await fresh();
      const cap = (perToken: number, busy: string[] = []) => ({ perToken, inUseMs: 1_000, busy: (id: string) => busy.includes(id) });
      const other = { ...record, tokenId: 'tok_02' };
      for (const id of ['a1', 'a2', 'a3']) {
        expect(await store.openSession(id, record, cap(3))).toEqual({ opened: true, closed: [] });
        clock.t += 1;
      }
      expect(await store.openSession('b1', other, cap(3))).toEqual({ opened: true, closed: [] }); // another token's count
      // All three were used within the in-use time: none may go, so the fourth waits for the first to be idle.
      expect(await store.openSession('a4', record, cap(3))).toEqual({ opened: false, retryAfterMs: 1_000 - 3 });
      expect(await store.hasSession('a4')).toBe(false);
      clock.t += 1_000;
      // a1 is the oldest, but a request used it since: a2 is the least recently used, a3 is busy here.
      await store.touchSession('a1');
      await store.setValue('a2', 'k', '"v"');
      expect(await store.openSession('a4', record, cap(3, ['a3']))).toEqual({ opened: true, closed: ['a2'] });
      expect(await store.hasSession('a2')).toBe(false);
      expect(await store.getValue('a2', 'k')).toBeUndefined();
      for (const id of ['a1', 'a3', 'a4', 'b1']) expect(await store.hasSession(id), id).toBe(true);
      // Busy here and just used: nothing is idle, and the wait is the in-use time.
      expect(await store.openSession('a5', record, cap(3, ['a3']))).toEqual({ opened: false, retryAfterMs: 1_000 });
      // An idle-expired session no longer counts.
      clock.t += DEFAULT_SESSION_IDLE_MS + 1;
      await store.touchSession('b1');
      expect(await store.openSession('a5', record, cap(3))).toEqual({ opened: true, closed: [] });
      expect(await store.openSession('a6', record)).toEqual({ opened: true, closed: [] }); // no cap asked: nothing closed
    });

    it('closes exactly what is over the cap when openings of one token run at once, even two each', async () => {
      await fresh();
      for (const id of ['c1', 'c2', 'c3', 'c4']) {
        await store.openSession(id, record);
        clock.t += 1;
      }
      // A lower cap makes each opening close two: together they must still leave exactly two open.
      const cap = { perToken: 2, inUseMs: 0 };
      const outcomes = await Promise.all([store.openSession('c5', record, cap), store.openSession('c6', record, cap)]);
      const closed = outcomes.flatMap((o) => (o.opened ? o.closed : []));
      const open = [];
      for (const id of ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']) if (await store.hasSession(id)) open.push(id);
      expect(open).toHaveLength(2);
      expect(new Set(closed).size).toBe(closed.length);
      expect(closed.length).toBe(4);
      expect(open).toEqual(expect.arrayContaining(['c5', 'c6'].filter((id) => !closed.includes(id))));
    });

    it('expires a session idle for 30 minutes, with its state; each request moves the deadline', async () => {
      await fresh();
      await store.openSession('s1', record);
      await store.openSession('s2', record);
      await store.setValue('s1', 'k', '"v"');
      clock.t += DEFAULT_SESSION_IDLE_MS - 1_000;
      expect(await store.touchSession('s1')).toEqual(record);
      clock.t += 2_000;
      expect(await store.hasSession('s2')).toBe(false); // idle past its deadline
      expect(await store.touchSession('s2')).toBeUndefined();
      expect(await store.touchSession('s1')).toEqual(record); // touched 2 s ago
      expect(await store.getValue('s1', 'k')).toBe('"v"');
      clock.t += DEFAULT_SESSION_IDLE_MS;
      await store.expireIdleSessions();
      expect(await store.touchSession('s1')).toBeUndefined();
    });

    it('closes a session: its record, snapshots and values are gone; a second close reports it was not open', async () => {
      await fresh();
      await store.openSession('s1', record);
      await store.openSession('s2', record);
      const put = await store.putSnapshot('s1', '{"a":1}');
      await store.setValue('s1', 'k', '"v"');
      expect(await store.closeSession('s1')).toBe(true);
      expect(await store.touchSession('s1')).toBeUndefined();
      await rejects(store.getSnapshot('s1', put.ref), 'MCP_RESULT_UNAVAILABLE');
      expect(await store.getValue('s1', 'k')).toBeUndefined();
      expect(await store.closeSession('s1')).toBe(false);
      expect(await store.touchSession('s2')).toEqual(record);
    });

    it('delivers a published cancellation to every receiver, with its session and message', async () => {
      await fresh();
      const got: [string, unknown][] = [];
      await store.onCancel((sessionId, message) => got.push([sessionId, message]));
      await store.onCancel((sessionId) => got.push([`second:${sessionId}`, null]));
      const message = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } };
      await store.publishCancel('s1', message);
      for (let i = 0; i < 100 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(got).toEqual([['s1', message], ['second:s1', null]]);
    });

    it('expireIdleSessions closes idle sessions and names the ones it closed itself', async () => {
      await fresh();
      await store.openSession('s1', record);
      clock.t += DEFAULT_SESSION_IDLE_MS + 1;
      const closed = await store.expireIdleSessions();
      // A store whose server expires keys by itself (Redis) closes them there and names none.
      expect(closed.length === 0 || (closed.length === 1 && closed[0] === 's1')).toBe(true);
      expect(await store.hasSession('s1')).toBe(false);
    });
  });

  describe('session.set values', () => {
    it('count toward the 4 MiB (keys and values) and evict the oldest snapshots', async () => {
      await fresh();
      const mib = 1024 * 1024;
      const a = await store.putSnapshot('s1', jsonOfBytes(2 * mib));
      const b = await store.putSnapshot('s1', jsonOfBytes(mib));
      await store.setValue('s1', 'k', jsonOfBytes(mib - 1)); // 1 + (mib - 1) bytes: exactly 4 MiB in all
      expect(await store.usage('s1')).toEqual({ snapshots: 2, snapshotBytes: 3 * mib, valueBytes: mib });
      expect(await store.getSnapshot('s1', a.ref)).toBeTypeOf('string');
      await store.setValue('s1', 'k2', '1'); // one byte over: the oldest snapshot goes
      await rejects(store.getSnapshot('s1', a.ref), 'MCP_RESULT_UNAVAILABLE');
      expect(await store.getSnapshot('s1', b.ref)).toBeTypeOf('string');
      // Snapshots also make room for values already held.
      const c = await store.putSnapshot('s1', jsonOfBytes(2 * mib));
      expect(c.evicted).toEqual([b.ref]);
    });

    it('replacing a key counts only the new value', async () => {
      await fresh();
      await store.setValue('s1', 'k', jsonOfBytes(3 * 1024 * 1024));
      await store.setValue('s1', 'k', jsonOfBytes(3 * 1024 * 1024));
      expect((await store.usage('s1')).valueBytes).toBe(1 + 3 * 1024 * 1024);
      expect(await sessionGet(store, 's1', 'k')).toHaveLength(3 * 1024 * 1024 - 2);
    });

    it('throw MCP_SESSION_QUOTA when values alone would exceed 4 MiB, and a snapshot cannot fit beside them', async () => {
      await fresh();
      const snap = await store.putSnapshot('s1', '[1]');
      await store.setValue('s1', 'a', jsonOfBytes(SESSION_BYTES_LIMIT - 1)); // 1 + (limit - 1): exactly the limit
      await rejects(store.getSnapshot('s1', snap.ref), 'MCP_RESULT_UNAVAILABLE'); // evicted to make room
      await rejects(store.setValue('s1', 'b', '1'), 'MCP_SESSION_QUOTA');
      expect(await store.getValue('s1', 'b')).toBeUndefined();
      await rejects(store.putSnapshot('s1', '[1]'), 'MCP_SESSION_QUOTA');
      expect(await store.usage('s1')).toEqual({ snapshots: 0, snapshotBytes: 0, valueBytes: SESSION_BYTES_LIMIT });
    });

    it('reject keys that are empty or look like result references, and values that are not JSON', async () => {
      await fresh();
      await rejects(store.setValue('s1', '', '1'), 'ENGINE_INVALID_INPUT');
      await rejects(store.setValue('s1', 'res_abc', '1'), 'ENGINE_INVALID_INPUT');
      await rejects(store.setValue('s1', 'k', 'not json'), 'ENGINE_INVALID_INPUT');
    });

    it('are per session', async () => {
      await fresh();
      await store.setValue('s1', 'k', '{"v":1}');
      expect(await sessionGet(store, 's1', 'k')).toEqual({ v: 1 });
      expect(await sessionGet(store, 's2', 'k')).toBeUndefined();
    });
  });

  describe('session.get', () => {
    it('reads values, whole snapshots and RFC 6901 pointers into snapshots', async () => {
      await fresh();
      const doc = { items: [{ body: 'first' }, { body: 'second', 'a/b': { '~x': [10, 20] } }], '': 'empty key' };
      const { ref } = await store.putSnapshot('s1', JSON.stringify(doc));
      await store.setValue('s1', 'note', '"hello"');
      await store.setValue('s1', 'with#hash', '[1]');
      expect(await sessionGet(store, 's1', 'note')).toBe('hello');
      expect(await sessionGet(store, 's1', 'with#hash')).toEqual([1]);
      expect(await sessionGet(store, 's1', 'unknown')).toBeUndefined();
      expect(await sessionGet(store, 's1', ref)).toEqual(doc);
      expect(await sessionGet(store, 's1', `${ref}#`)).toEqual(doc);
      expect(await sessionGet(store, 's1', `${ref}#/items/1/body`)).toBe('second');
      expect(await sessionGet(store, 's1', `${ref}#/items/1/a~1b/~0x/1`)).toBe(20);
      expect(await sessionGet(store, 's1', `${ref}#/`)).toBe('empty key');
    });

    it('fails explicitly for a missing pointer, a malformed pointer, a non-string key and an unknown ref', async () => {
      await fresh();
      const { ref } = await store.putSnapshot('s1', '{"items":[{"body":"x"}]}');
      const missing = await rejects(sessionGet(store, 's1', `${ref}#/items/3/body`), 'ENGINE_INVALID_INPUT');
      expect(missing.message).toContain('/items/3/body');
      await rejects(sessionGet(store, 's1', `${ref}#/items/-1`), 'ENGINE_INVALID_INPUT');
      await rejects(sessionGet(store, 's1', `${ref}#/items/01`), 'ENGINE_INVALID_INPUT');
      await rejects(sessionGet(store, 's1', `${ref}#items`), 'ENGINE_INVALID_INPUT');
      await rejects(sessionGet(store, 's1', `${ref}#/a~2`), 'ENGINE_INVALID_INPUT');
      await rejects(sessionGet(store, 's1', 42 as unknown as string), 'ENGINE_INVALID_INPUT');
      await rejects(sessionGet(store, 's1', 'res_unknown#/items'), 'MCP_RESULT_UNAVAILABLE');
    });
  });
}
