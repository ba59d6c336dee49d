// HttpDrain's bookkeeping on a real node:http server on loopback: requests in flight are counted
// (also when the client goes away first), every response is reported once when it closes, and a
// response still in flight when the drain begins goes out with `Connection: close`.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from 'undici';
import { HttpDrain } from '../../src/server/index.ts';
import { createLogger } from '../../src/log/index.ts';

const log = createLogger('silent');

interface Harness {
  drain: HttpDrain;
  server: Server;
  url: string;
  observed: { status: number; finished: boolean; arrivedAt: number }[];
  /** Responses the handler holds until the test releases them, by request path. */
  held: Map<string, ServerResponse>;
}

let open: Harness | undefined;
afterEach(async () => {
  open?.server.closeAllConnections();
  await new Promise((r) => open?.server.close(r) ?? r(undefined));
  open = undefined;
});

async function start(): Promise<Harness> {
  const observed: Harness['observed'] = [];
  const drain = new HttpDrain(log, (res, arrivedAt) => observed.push({ status: res.statusCode, finished: res.writableFinished, arrivedAt }));
  const held = new Map<string, ServerResponse>();
  const server = createServer(
    { ServerResponse: drain.Response },
    drain.wrap((req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/hold')) return void held.set(req.url, res);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  open = { drain, server, url, observed, held };
  return open;
}

function get(url: string): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
    })
      .on('error', reject)
      .end();
  });
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('HttpDrain', () => {
  it('counts requests in flight, including ones whose client left first, and reports each response once', async () => {
    const h = await start();
    const before = performance.now();
    await Promise.all([get(`${h.url}/a`), get(`${h.url}/b`)]);
    // A client that gives up while its request is held: the response closes unfinished.
    const gone = request(`${h.url}/hold/1`, { agent: false });
    gone.on('error', () => undefined);
    gone.end();
    await until(() => h.held.has('/hold/1'));
    expect(h.drain.inFlightCount).toBe(1);
    gone.destroy();
    await until(() => h.drain.inFlightCount === 0);
    await until(() => h.observed.length === 3);
    expect(h.observed.map((o) => o.finished).sort()).toEqual([false, true, true]);
    for (const o of h.observed) expect(o.arrivedAt).toBeGreaterThanOrEqual(before);
  });

  it('marks a response in flight when the drain begins Connection: close, refuses new requests, and settles when it ends', async () => {
    const h = await start();
    const idle = new Client(h.url); // a keep-alive connection that is open, and idle, when the drain begins
    expect((await idle.request({ method: 'GET', path: '/a' })).statusCode).toBe(200);
    const busy = new Client(h.url); // keep-alive: only the drain can make its response say close
    const inFlight = busy.request({ method: 'GET', path: '/hold/2' }).then(async (r) => ({ status: r.statusCode, connection: r.headers.connection, body: await r.body.text() }));
    await until(() => h.held.has('/hold/2'));
    const drained = h.drain.drain(h.server, 5_000);
    const refused = await idle.request({ method: 'GET', path: '/b' });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(await refused.body.text()).error.code).toBe('ENGINE_UNAVAILABLE');
    await idle.close();
    const res = h.held.get('/hold/2')!;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('late');
    const answer = await inFlight;
    expect(answer).toEqual({ status: 200, connection: 'close', body: 'late' });
    await busy.close();
    const report = await drained;
    expect(report).toMatchObject({ inFlightAtStart: 1, abandoned: 0 });
    expect(h.drain.inFlightCount).toBe(0);
    await until(() => h.observed.length === 3);
    expect(h.observed.map((o) => o.status).sort()).toEqual([200, 200, 503]);
  });
});
