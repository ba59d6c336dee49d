// Provider-call total deadlines share one timer (src/execution/dispatch.ts, Deadlines). These tests
// send real requests through the Dispatcher to a loopback server that answers only when told to, and
// check that every call times out at its own deadline whatever the other calls in flight do.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dispatcher } from '../../src/execution/index.ts';
import { loopbackEgress } from '../fixtures/egress.ts';
import { EngineError } from '../../src/envelope/index.ts';

let base: string;
let close: () => Promise<void>;
/** Requests the server holds, by path, until a test answers or the client gives up. */
const held = new Map<string, ServerResponse>();
const dispatcher = new Dispatcher({ egress: loopbackEgress(), connectTimeoutMs: 1_000 });

beforeAll(async () => {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/fast')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"fast":true}');
    } else held.set(req.url ?? '', res); // never answered unless a test does
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
});

afterAll(async () => {
  await dispatcher.close({ abort: true });
  await close();
});

const get = (path: string) => ({ method: 'GET', url: base + path, headers: {}, body: undefined });

/** Sends a call and reports when and how it settled, in ms since `t0`. */
function timed(path: string, timeoutMs: number, t0: number) {
  return dispatcher.send(get(path), { maxBytes: 1 << 20, timeoutMs }, null).then(
    (res) => ({ at: performance.now() - t0, status: res.status, code: undefined as string | undefined }),
    (err: unknown) => ({ at: performance.now() - t0, status: 0, code: err instanceof EngineError ? err.code : String(err) }),
  );
}

describe('provider call deadlines', () => {
  it('a shorter deadline sent after a longer one still fires at its own time, and the longer one later', async () => {
    const t0 = performance.now();
    const long = timed('/hang-long', 900, t0);
    const short = timed('/hang-short', 150, t0);
    const [s, l] = await Promise.all([short, long]);
    expect(s.code).toBe('PROVIDER_TIMEOUT');
    expect(l.code).toBe('PROVIDER_TIMEOUT');
    expect(s.at).toBeGreaterThanOrEqual(145);
    expect(s.at).toBeLessThan(700); // well before the long call's deadline
    expect(l.at).toBeGreaterThanOrEqual(895);
  });

  it('a call whose deadline comes after the earliest one (which settled in time) still times out', async () => {
    const t0 = performance.now();
    // The timer is armed for the fast call's deadline; that call answers at once, so when the timer
    // fires it finds only the hanging call and re-arms for it.
    const fast = await timed('/fast', 100, t0);
    expect(fast).toMatchObject({ status: 200, code: undefined });
    const hang = await timed('/hang-after', 400, performance.now());
    expect(hang.code).toBe('PROVIDER_TIMEOUT');
    expect(hang.at).toBeGreaterThanOrEqual(395);
    expect(hang.at).toBeLessThan(1_500);
  });

  it('many calls in flight with mixed deadlines each time out no earlier than their own deadline', async () => {
    const t0 = performance.now();
    const deadlines = [500, 120, 300, 120, 700, 200, 60, 400];
    const results = await Promise.all(deadlines.map((ms, i) => timed(`/hang-mixed-${i}`, ms, t0)));
    results.forEach((r, i) => {
      expect(r.code).toBe('PROVIDER_TIMEOUT');
      expect(r.at).toBeGreaterThanOrEqual(deadlines[i]! - 5);
      expect(r.at).toBeLessThan(deadlines[i]! + 600);
    });
  });

  it('a call answered before its deadline succeeds, when it is answered', async () => {
    const t0 = performance.now();
    const pending = timed('/answer-late', 300, t0);
    await new Promise((r) => setTimeout(r, 100));
    const res = held.get('/answer-late');
    expect(res).toBeDefined();
    res!.writeHead(200, { 'content-type': 'application/json' });
    res!.end('{"late":true}');
    const done = await pending;
    expect(done).toMatchObject({ status: 200, code: undefined });
    expect(done.at).toBeLessThan(300);
  });
});

describe('a request undici refuses as built', () => {
  it('is an Engine fault with nothing sent, not an unknown outcome', async () => {
    const err = await dispatcher.send({ method: 'GET', url: `${base}/fast`, headers: { 'x-tag': '日本' }, body: undefined }, { maxBytes: 1 << 20, timeoutMs: 1_000 }, null).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'ENGINE_INTERNAL', providerExecution: 'not_started' });
  });
});
