// Graceful shutdown of the HTTP listener: in-flight requests (REST executions, MCP tool calls,
// control-plane calls — all of them HTTP requests) finish, up to a budget, before anything closes.
//
// drain(budgetMs):
//   1. stops listening: new connections are refused, and a load balancer moves them elsewhere;
//   2. keeps the existing keep-alive connections open, so a request already on its way over one gets
//      a clean answer rather than a reset: 503 ENGINE_UNAVAILABLE (retryable, nothing ran) with
//      `Connection: close`; responses still in flight also carry `Connection: close`;
//   3. ends long-lived MCP event streams (GET /mcp/…) at once: they are not work in flight, and
//      their clients reconnect (to another replica);
//   4. waits until the requests in flight have finished or the budget is spent, logging progress
//      (counts only, never a URL or header), then closes every connection that is left.
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import { EngineError } from '../envelope/index.ts';
import type { Logger } from '../log/index.ts';

/** How often a drain that is still waiting says how much is left. */
const PROGRESS_EVERY_MS = 5_000;

export interface DrainReport {
  /** Requests in flight when the drain began. */
  inFlightAtStart: number;
  /** Requests still running when the budget ran out (their connections were closed). */
  abandoned: number;
  /** Requests refused with 503 while draining. */
  refused: number;
  ms: number;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

/** A response of the drain's `Response` class. */
type TrackedResponse = ServerResponse & { readonly arrivedAt: number };

/** Called once for every response when it closes (finished or cut short), with when its request arrived (performance.now()). */
export type ResponseObserver = (res: ServerResponse, arrivedAt: number) => void;

/** GET on an MCP URL opens a server-to-client event stream that lasts as long as the session. */
const isEventStream = (req: IncomingMessage) => req.method === 'GET' && (req.url ?? '').startsWith('/mcp/');

const UNAVAILABLE = JSON.stringify(
  new EngineError('ENGINE_UNAVAILABLE', 'this Engine replica is shutting down and did not run the request; send it again (another replica will answer)', { retryable: true }).toEnvelope(),
);

/** Whether the request carries a body (a GET answered before its parser finished carries none). */
const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Whether the unread rest of a body is cheap to read past, keeping the connection: a declared
 * length within `limit`. Chunked bodies (no length), oversized ones, and one whose client waits for
 * a `100 Continue` it may never get are not.
 */
const discardable = (req: IncomingMessage, limit: number) => {
  const { 'content-length': declared, 'transfer-encoding': chunked, expect } = req.headers;
  if (chunked !== undefined || expect !== undefined || declared === undefined || !/^\d+$/.test(declared)) return false;
  return Number(declared) <= limit;
};

export class HttpDrain {
  private readonly log: Logger;
  /**
   * Requests in flight, as a count. A Set of their responses cost the whole Engine: with it, ~2 KB of
   * every request (response, request, buffers) survived young collections and was promoted, several
   * times the GC work of the same path without it (measured). Most likely each rehash of a Set under
   * churn leaves its old table in the old generation still pointing at responses.
   */
  private inFlight = 0;
  private readonly streams = new Set<ServerResponse>();
  private draining = false;
  private refused = 0;
  private settled: (() => void) | undefined;

  /** Told about every response once it closes (metrics). */
  private readonly observe: ResponseObserver;
  /** Shared 'close' listeners (no closure per request). */
  private readonly onResponseClose: (this: TrackedResponse) => void;
  private readonly onStreamClose: (this: TrackedResponse) => void;
  private readonly onRefusedClose: (this: TrackedResponse) => void;

  /**
   * The server's response class (`createServer({ ServerResponse })`): it records when the request
   * arrived; once the drain has begun, or when its request's body was not read to the end, a
   * response whose headers are not yet written goes out with `Connection: close`.
   */
  readonly Response: typeof ServerResponse;

  /** `discardLimit`: the longest unread body a refusal reads past to keep its connection (the request limit). */
  constructor(log: Logger, observe: ResponseObserver = () => undefined, discardLimit = 0) {
    this.log = log;
    this.observe = observe;
    const drain = this;
    this.onResponseClose = function () {
      drain.inFlight--;
      if (drain.draining && drain.inFlight === 0) drain.settled?.();
      drain.observe(this, this.arrivedAt);
    };
    this.onStreamClose = function () {
      drain.streams.delete(this);
      drain.observe(this, this.arrivedAt);
    };
    this.onRefusedClose = function () {
      drain.observe(this, this.arrivedAt);
    };
    const writeHead = ServerResponse.prototype.writeHead as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
    class DrainingResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
      readonly arrivedAt = performance.now();
    }
    // Node writes implicit headers through writeHead too, so this sees every response.
    // A request whose body was not read to its end (refused as too large, or answered early) leaves
    // its remaining bytes on the connection, where they would stall or be parsed as the next request:
    // such a response closes the connection, unless the rest is small enough for Node to read past
    // (a refusal of a small request, often already received whole, keeps a pipelined one behind it).
    DrainingResponse.prototype.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if (drain.draining || (!this.req.complete && hasBody(this.req) && !discardable(this.req, discardLimit))) this.shouldKeepAlive = false;
      return writeHead.apply(this, args);
    } as never;
    this.Response = DrainingResponse;
  }

  /**
   * Wraps the server's request listener to count requests in flight and refuse new ones while
   * draining. The server must be created with `Response` as its ServerResponse class.
   */
  wrap<L extends Listener>(listener: L): L {
    return ((req: IncomingMessage, res: TrackedResponse) => {
      if (this.draining) {
        res.on('close', this.onRefusedClose);
        return this.refuse(res);
      }
      if (isEventStream(req)) {
        this.streams.add(res);
        res.on('close', this.onStreamClose);
      } else {
        this.inFlight++;
        res.on('close', this.onResponseClose);
      }
      return listener(req, res);
    }) as L;
  }

  get inFlightCount(): number {
    return this.inFlight;
  }

  private refuse(res: ServerResponse): void {
    this.refused++;
    res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(UNAVAILABLE), connection: 'close', 'retry-after': '1', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end(UNAVAILABLE);
  }

  /** Drains `server` (see the top of this file). Resolves once every connection is closed. */
  async drain(server: Server, budgetMs: number): Promise<DrainReport> {
    const started = performance.now();
    this.draining = true;
    const closed = server.listening ? new Promise<void>((resolve) => server.once('close', () => resolve())) : Promise.resolve();
    // Stop listening only: http.Server#close would also drop the idle keep-alive connections at once,
    // and a request already on its way over one of them would meet a reset instead of a 503.
    if (server.listening) NetServer.prototype.close.call(server);
    for (const res of this.streams) res.destroy();
    const inFlightAtStart = this.inFlight;
    this.log.info({ inFlight: inFlightAtStart, budgetMs }, 'draining: no new connections; waiting for requests in flight');

    if (this.inFlight > 0) {
      const progress = setInterval(() => this.log.info({ inFlight: this.inFlight, elapsedMs: Math.round(performance.now() - started) }, 'draining: requests still in flight'), PROGRESS_EVERY_MS);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise<void>((resolve) => (this.settled = resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, budgetMs)))]);
      clearInterval(progress);
      clearTimeout(timer);
    }
    const abandoned = this.inFlight;
    if (abandoned > 0) this.log.warn({ abandoned, budgetMs }, 'draining: budget spent; closing the connections of requests still in flight');
    // Idle keep-alive connections close now; anything left (an abandoned request) is cut.
    server.closeIdleConnections();
    server.closeAllConnections();
    await closed;
    const report = { inFlightAtStart, abandoned, refused: this.refused, ms: Math.round(performance.now() - started) };
    this.log.info(report, 'drained');
    return report;
  }
}
