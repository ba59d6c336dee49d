// The MCP cancellation subscriber (src/retention/redis.ts) must never leave a rejected promise
// unhandled: in Node that ends the Engine. ioredis' own resubscribe after a reconnect drops its
// promise, so a subscriber closed (the Engine stopping) or cut again before Redis answered that
// SUBSCRIBE rejected it unhandled ("Connection is closed."): seen in CI after a Redis outage. A TCP
// relay in front of a private redis-server cuts the connections and holds back SUBSCRIBE replies,
// so the moment is reached every time.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisSessionStateStore } from '../../src/retention/redis.ts';
import { startRedisServer, type RedisServer } from '../fixtures/redis-server.ts';

/** A relay to Redis that can cut every connection and hold back replies that match a pattern. */
interface Relay {
  url: string;
  /** Client → server chunks seen since the last cut. */
  sent: string[];
  holdReplies(pattern: RegExp | undefined): void;
  /** While set, new connections are closed at once (Redis unreachable). */
  refuse(on: boolean): void;
  cutAll(): void;
  close(): Promise<void>;
}

async function startRelay(port: number): Promise<Relay> {
  const pairs = new Set<[Socket, Socket]>();
  let hold: RegExp | undefined;
  let refusing = false;
  const sent: string[] = [];
  const server: Server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(port, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      sent.push(chunk.toString('latin1'));
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!hold?.test(chunk.toString('latin1'))) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as { port: number }).port}`,
    sent,
    holdReplies(pattern) {
      hold = pattern;
    },
    refuse(on) {
      refusing = on;
    },
    cutAll() {
      sent.length = 0;
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until `check` holds, failing with `what` after 10 s. */
async function until(what: string, check: () => boolean) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(what);
    await sleep(10);
  }
}

let redis: RedisServer;
let relay: Relay;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  redis = await startRedisServer();
  relay = await startRelay(redis.port);
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await relay?.close();
  await redis?.stop();
});

describe('the Redis cancellation subscriber', () => {
  it('closes after a reconnect whose SUBSCRIBE Redis has not answered yet, leaving no rejection unhandled', async () => {
    unhandled.length = 0;
    const store = await RedisSessionStateStore.open({ url: relay.url, keyPrefix: 'svc-subclose:' });
    try {
      await store.onCancel(() => undefined);
      relay.holdReplies(/subscribe/i);
      relay.cutAll(); // a Redis blip: both connections reconnect
      await until('the subscriber did not subscribe again after the reconnect', () => relay.sent.some((chunk) => /SUBSCRIBE/i.test(chunk)));
    } finally {
      await store.close(); // the Engine stopping, with the SUBSCRIBE unanswered
    }
    await sleep(200);
    expect(unhandled.map((r) => String(r))).toEqual([]);
  });

  it('hears cancellations once Redis is back when its first SUBSCRIBE failed', async () => {
    unhandled.length = 0;
    relay.holdReplies(undefined);
    const store = await RedisSessionStateStore.open({ url: relay.url, keyPrefix: 'svc-subclose3:' });
    const heard: unknown[] = [];
    let resumed = 0;
    try {
      relay.refuse(true); // the subscriber's own connection cannot reach Redis: its SUBSCRIBE fails after the retries
      const first = await store.onCancel(
        (sessionId, message) => heard.push([sessionId, message]),
        () => resumed++,
      ).then(
        () => 'subscribed',
        (err: Error) => err.message,
      );
      expect(first).toMatch(/max retries/i);
      relay.refuse(false);
      await until('the subscriber never subscribed once Redis was back', () => resumed > 0);
      await store.publishCancel('ses_2', { params: { requestId: 8 } });
      await until('no cancellation heard once Redis was back', () => heard.length > 0);
      expect(heard).toEqual([['ses_2', { params: { requestId: 8 } }]]);
    } finally {
      relay.refuse(false);
      await store.close();
    }
    expect(unhandled.map((r) => String(r))).toEqual([]);
  });

  it('still hears cancellations after a reconnect', async () => {
    unhandled.length = 0;
    relay.holdReplies(undefined);
    const store = await RedisSessionStateStore.open({ url: relay.url, keyPrefix: 'svc-subclose2:' });
    const heard: unknown[] = [];
    let resumed = 0;
    try {
      await store.onCancel(
        (sessionId, message) => heard.push([sessionId, message]),
        () => resumed++,
      );
      relay.cutAll();
      await until('the subscriber did not resume after the reconnect', () => resumed > 0);
      await store.publishCancel('ses_1', { params: { requestId: 7 } });
      await until('no cancellation heard after the reconnect', () => heard.length > 0);
      expect(heard).toEqual([['ses_1', { params: { requestId: 7 } }]]);
    } finally {
      await store.close();
    }
    expect(unhandled.map((r) => String(r))).toEqual([]);
  });
});
