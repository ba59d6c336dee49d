// Sends one provider request with undici, enforcing connect and total timeouts and a result
// size cap while the body streams in. Failures are classified by whether the provider could
// have acted: `not_started` only when no request can have left the Engine.
//
// Hot path: requests go straight to `Agent.dispatch` with a handler object (no Readable body
// stream, no AsyncResource, no per-request AbortSignal.timeout whose timer would fire long after
// the call and build a DOMException, no closures); total timeouts share one timer (Deadlines).
import { Agent, errors as undiciErrors, util as undiciUtil, type Dispatcher as UndiciDispatcher } from 'undici';
import { EgressPolicy, egressConnector, egressFailure } from '../egress/index.ts';
import { EngineError } from '../envelope/index.ts';
import { providerAnswer, type ProviderResponse } from './provider-answer.ts';
import type { Redactor } from './redaction.ts';
import { inSpan, SpanKind, tracingOn, type SafeAttributes, type SpanOptions } from '../telemetry/index.ts';
import type { ProviderRequest } from './request.ts';

export interface DispatchLimits {
  /** Bytes this response may still take. */
  maxBytes: number;
  /** The whole call's cap, as reported when exceeded (pages share it); maxBytes when absent. */
  capBytes?: number | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** The caller's connection (REST): polled, see Connection. */
  connection?: Connection | undefined;
}

/**
 * A connection whose closing cancels the call: a REST client's socket. Polled by the deadline
 * sweep every CONNECTION_POLL_MS, not listened to: an AbortSignal listener per call cost ~20 µs of
 * CPU per REST request in `npm run bench:ab` (listener and the request graph it keeps reachable),
 * a property read costs nothing.
 */
export interface Connection {
  readonly destroyed: boolean;
}

/** How soon a call notices its caller's connection closed. */
const CONNECTION_POLL_MS = 100;

/** A provider attempt's span: a CLIENT leaf with the answer's status; one object for every attempt. */
const ATTEMPT_SPAN: SpanOptions<ProviderResponse> = {
  kind: SpanKind.CLIENT,
  leaf: true,
  outcome: (res) => ({ 'http.response.status_code': res.status, 'error.type': res.status >= 400 ? String(res.status) : undefined }),
};

const NOT_STARTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_INVALID_URL']);

function errorCode(err: unknown): string | undefined {
  let current: any = err;
  for (let i = 0; current && i < 5; i++) {
    if (typeof current.code === 'string' && current.code !== 'UND_ERR_ABORTED') return current.code;
    if (current instanceof AggregateError && current.errors?.[0]) current = current.errors[0];
    else current = current.cause;
  }
  return undefined;
}

/** Characters a WHATWG URL parser leaves as they are in an http(s) path and query. */
const CANONICAL_PATH = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*$/;

interface Target {
  origin: string;
  path: string;
}

/** Total-timeout marker: the reason the Engine aborts a request whose deadline passed. */
class DeadlineError extends Error {
  override name = 'DeadlineError';
}

/**
 * The total deadlines of the calls in flight, behind one timer armed for the earliest of them.
 * A setTimeout and clearTimeout per call cost ~2 µs of every REST execution (measured in pairs);
 * here a call links itself into a list and unlinks itself when it settles, allocating nothing.
 * The timer is unref'd (the provider socket keeps the process up) and is left to fire after the
 * last call settles rather than being cleared, so steady traffic re-arms it about once per timeout
 * period instead of once per call.
 */
class Deadlines {
  private head: ProviderCall | null = null;
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;
  private readonly sweep = () => {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (let call = this.head; call; ) {
      const following: ProviderCall | null = call.next;
      if (call.deadlineAt <= now) call.deadline(); // settles the call, which unlinks it
      else if (call.connection?.destroyed) call.cancel();
      else next = Math.min(next, call.deadlineAt, call.connection ? now + CONNECTION_POLL_MS : Infinity);
      call = following;
    }
    if (next !== Infinity) this.arm(next, now);
  };

  add(call: ProviderCall): void {
    call.next = this.head;
    if (this.head) this.head.prev = call;
    this.head = call;
    const due = call.connection ? Math.min(call.deadlineAt, call.started + CONNECTION_POLL_MS) : call.deadlineAt;
    if (due < this.armedFor) this.arm(due, call.started);
  }

  remove(call: ProviderCall): void {
    if (call.prev) call.prev.next = call.next;
    else if (this.head === call) this.head = call.next;
    if (call.next) call.next.prev = call.prev;
    call.prev = call.next = null;
  }

  private arm(at: number, now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = at;
    this.timer = setTimeout(this.sweep, Math.max(0, Math.ceil(at - now)));
    this.timer.unref();
  }
}

/** Where a URL's origin ends: the first '/', '?' or '#' from `from` (just past its `://`), or its end. */
function originEnd(url: string, from: number): number {
  let end = from;
  while (end < url.length && url[end] !== '/' && url[end] !== '?' && url[end] !== '#') end++;
  return end;
}

export class Dispatcher {
  private readonly agent: Agent;
  private readonly deadlines = new Deadlines();
  /** `scheme://host[:port]` prefixes already checked to be a URL's canonical origin. */
  private readonly origins = new Map<string, boolean>();
  /** Span attributes of the provider attempts while tracing is on, by origin and method (tracedSend). */
  private readonly servers = new Map<string, Map<string, SafeAttributes>>();
  /** The origin of the last URL `target` split by hand ('' before the first). */
  private lastOrigin = '';

  /** `egress`: which addresses may be connected to (src/egress); by default no private or loopback one. */
  constructor(options: { connectTimeoutMs: number; maxConnections?: number; egress?: EgressPolicy }) {
    this.agent = new Agent({
      connect: egressConnector(options.egress ?? new EgressPolicy(), { timeoutMs: options.connectTimeoutMs }),
      keepAliveTimeout: 10_000,
      connections: options.maxConnections ?? 256,
      pipelining: 1,
    });
  }

  /** Closes the provider connections once their requests end; `abort` ends those requests now. */
  async close(options: { abort?: boolean } = {}) {
    await (options.abort ? this.agent.destroy() : this.agent.close());
  }

  /**
   * Splits a URL into undici's origin and path. Canonical URLs (what buildRequest makes from a
   * normalised base URL) are split by hand; anything else goes through the WHATWG parser, as
   * `undici.request(url)` would.
   */
  private target(url: string): Target {
    // The origin of the last canonical URL split, reused while calls go to it (the usual case): no scan, slice or lookup.
    const last = this.lastOrigin;
    if (last !== '' && url.startsWith(last) && (url.charCodeAt(last.length) === 47 /* / */ || url.length === last.length)) {
      const path = url.slice(last.length);
      if (CANONICAL_PATH.test(path) && !path.includes('/.')) return { origin: last, path };
    }
    const scheme = url.indexOf('://');
    if (scheme > 0) {
      const end = originEnd(url, scheme + 3);
      const origin = url.slice(0, end);
      let canonical = this.origins.get(origin);
      if (canonical === undefined) {
        try {
          const parsed = new URL(origin);
          canonical = parsed.origin === origin && (parsed.protocol === 'http:' || parsed.protocol === 'https:');
        } catch {
          canonical = false;
        }
        if (this.origins.size > 1000) this.origins.clear();
        this.origins.set(origin, canonical);
      }
      const path = url.slice(end);
      if (canonical && CANONICAL_PATH.test(path) && !path.includes('/.')) {
        this.lastOrigin = origin;
        return { origin, path };
      }
    }
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new undiciErrors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.');
    }
    return { origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname };
  }

  /**
   * `secret`: what the answer must not hand back (request.ts, secretForms), redacted from the body.
   * While tracing is on, each attempt is a CLIENT span whose traceparent the provider gets.
   */
  send(req: ProviderRequest, limits: DispatchLimits, secret: Redactor | null): Promise<ProviderResponse> {
    return tracingOn() ? this.tracedSend(req, limits, secret) : this.sendOnce(req, limits, secret);
  }

  /** An attempt's span: method, the provider's host and port, the answer's status or the failure's code; never the path, query or headers. */
  private tracedSend(req: ProviderRequest, limits: DispatchLimits, secret: Redactor | null): Promise<ProviderResponse> {
    return inSpan(req.method, () => this.attemptAttributes(req.method, req.url), (span) => this.sendOnce({ ...req, headers: span.carry(req.headers) }, limits, secret), ATTEMPT_SPAN);
  }

  /**
   * An attempt's method, and its provider's host, port and scheme, as span attributes: made once
   * per origin and method (the origin read as target() reads it), then the same object each time.
   * None but the method for a URL sendOnce refuses.
   */
  private attemptAttributes(method: string, url: string): SafeAttributes {
    const scheme = url.indexOf('://');
    const origin = url.slice(0, scheme > 0 ? originEnd(url, scheme + 3) : url.length);
    let byMethod = this.servers.get(origin);
    if (byMethod === undefined) {
      if (this.servers.size > 1000) this.servers.clear();
      this.servers.set(origin, (byMethod = new Map()));
    }
    let attributes = byMethod.get(method);
    if (attributes === undefined) {
      const parsed = URL.canParse(origin) ? new URL(origin) : undefined;
      const server = parsed ? { 'server.address': parsed.hostname, 'server.port': Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)), 'url.scheme': parsed.protocol.slice(0, -1) } : {};
      attributes = { 'http.request.method': method, ...server };
      if (byMethod.size > 100) byMethod.clear();
      byMethod.set(method, attributes);
    }
    return attributes;
  }

  private sendOnce(req: ProviderRequest, limits: DispatchLimits, secret: Redactor | null): Promise<ProviderResponse> {
    if (limits.signal?.aborted || limits.connection?.destroyed) return Promise.reject(classify(abortError(), false, true, true, false, false));
    return new Promise<ProviderResponse>((resolve, reject) => {
      const call = new ProviderCall(req.method, limits, secret, this.deadlines, resolve, reject);
      try {
        const { origin, path } = this.target(req.url);
        this.agent.dispatch(
          {
            origin,
            path,
            method: req.method as UndiciDispatcher.HttpMethod,
            headers: req.headers,
            body: req.body ?? null,
            // The total deadline (Deadlines) bounds every phase; undici's own phase timers are off,
            // as they run on its coarse clock and could fire up to ~0.5 s before the deadline.
            headersTimeout: 0,
            bodyTimeout: 0,
          },
          call,
        );
      } catch (err) {
        call.fail(err);
      }
    });
  }
}

/**
 * What a failed provider request means for the caller: not started, timed out, or outcome unknown.
 * `unsent`: undici never called onConnect, which it does just before writing the request: nothing
 * was sent (the request was still queued for a connection, or connecting).
 */
function classify(err: unknown, deadlinePassed: boolean, cancelled: boolean, unsent: boolean, idempotent: boolean, responding: boolean): EngineError {
  const refused = egressFailure(err);
  if (refused) return refused;
  if (unsent && deadlinePassed) {
    return new EngineError('PROVIDER_TIMEOUT', 'the deadline passed before a connection to the provider was free; nothing was sent', {
      retryable: true,
      providerExecution: 'not_started',
    });
  }
  if (unsent && cancelled) {
    return new EngineError('ENGINE_CANCELLED', 'the caller went away before the provider request was sent; nothing was sent', {
      providerExecution: 'not_started',
    });
  }
  if (cancelled) {
    return new EngineError('ENGINE_OUTCOME_UNKNOWN', 'the call was cancelled while the provider request was in flight', {
      providerExecution: 'unknown',
    });
  }
  const code = errorCode(err);
  if (!responding && code === 'UND_ERR_INVALID_ARG') {
    // undici refused the request as built, before writing a byte: an Engine fault, not the provider's.
    return new EngineError('ENGINE_INTERNAL', 'the Engine built a provider request that could not be sent; nothing reached the provider', {
      providerExecution: 'not_started',
    });
  }
  if (unsent && (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED')) {
    // The Engine closed its own provider connections (it is stopping): the provider is not to blame.
    return new EngineError('ENGINE_UNAVAILABLE', 'the Engine is shutting down and did not send the provider request; send the call again', {
      retryable: true,
      providerExecution: 'not_started',
    });
  }
  if (!responding && ((code && NOT_STARTED_CODES.has(code)) || unsent)) {
    // Refused, unresolvable, or failed before undici began writing (a TLS handshake, a reset while connecting).
    return new EngineError('PROVIDER_UNREACHABLE', `the provider could not be reached (${code ?? 'the connection failed before the request was sent'})`, {
      retryable: true,
      providerExecution: 'not_started',
    });
  }
  // The total deadline is the only timeout once connected (undici's phase timeouts are off).
  if (deadlinePassed) {
    return new EngineError('PROVIDER_TIMEOUT', 'the provider did not answer in time; it may have acted on the request', {
      retryable: idempotent,
      providerExecution: 'unknown',
    });
  }
  return new EngineError('ENGINE_OUTCOME_UNKNOWN', `the connection to the provider failed mid-request (${code ?? 'closed'}); it may have acted on the request`, {
    retryable: idempotent,
    providerExecution: 'unknown',
  });
}

const abortError = () => new DOMException('This operation was aborted', 'AbortError');

/**
 * One provider request in flight: undici's handler, an entry in the deadline list and the caller
 * signal's listener in one object, so a call allocates no closures. Settles once, whichever of
 * completion, failure, deadline or cancellation comes first, and aborts the request on the way out.
 */
class ProviderCall implements UndiciDispatcher.DispatchHandler {
  private readonly idempotent: boolean;
  private readonly limits: DispatchLimits;
  private readonly secret: Redactor | null;
  private readonly resolve: (res: ProviderResponse) => void;
  private readonly reject: (err: unknown) => void;
  readonly started = performance.now();
  /** When the total timeout passes (performance.now() time); Deadlines' list links. */
  readonly deadlineAt: number;
  prev: ProviderCall | null = null;
  next: ProviderCall | null = null;
  /** The caller's connection, polled by Deadlines. */
  readonly connection: Connection | undefined;
  private readonly deadlines: Deadlines;
  private abortRequest: ((reason: Error) => void) | undefined;
  /** Why the call was stopped before undici handed over its abort function (a request still queued has none). */
  private pendingReason: Error | undefined;
  private timedOut = false;
  private responding = false;
  private settled = false;
  private status = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    method: string,
    limits: DispatchLimits,
    secret: Redactor | null,
    deadlines: Deadlines,
    resolve: (res: ProviderResponse) => void,
    reject: (err: unknown) => void,
  ) {
    this.idempotent = method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
    this.limits = limits;
    this.secret = secret;
    this.resolve = resolve;
    this.reject = reject;
    this.deadlineAt = this.started + limits.timeoutMs;
    this.connection = limits.connection;
    this.deadlines = deadlines;
    const signal = limits.signal;
    signal?.addEventListener('abort', this, { once: true });
    deadlines.add(this);
  }

  /** The caller's signal fired (EventListener object form). */
  handleEvent(): void {
    this.cancel();
  }

  /** The caller is gone: its signal fired or its connection closed. */
  cancel(): void {
    this.stop(abortError());
  }

  deadline(): void {
    this.timedOut = true;
    this.stop(new DeadlineError('provider deadline passed'));
  }

  /** Settles at once and aborts the request, now or as soon as undici hands over its abort function. */
  private stop(reason: Error): void {
    if (this.abortRequest) this.abortRequest(reason);
    else this.pendingReason = reason;
    this.fail(reason);
  }

  private finish(): void {
    this.settled = true;
    this.deadlines.remove(this);
    this.limits.signal?.removeEventListener('abort', this);
  }

  fail(err: unknown): void {
    if (this.settled) return;
    this.finish();
    this.reject(err instanceof EngineError ? err : classify(err, this.timedOut, this.cancelled(), this.abortRequest === undefined, this.idempotent, this.responding));
  }

  private cancelled(): boolean {
    return Boolean(this.limits.signal?.aborted || this.connection?.destroyed);
  }

  onConnect(abort: (reason: Error) => void): void {
    // Stopped while queued: throwing makes undici drop the request before writing a byte, and keep
    // the connection; abort() would destroy that healthy keep-alive socket.
    if (this.pendingReason) throw this.pendingReason;
    this.abortRequest = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true;
    this.responding = true;
    this.status = statusCode;
    this.headers = undiciUtil.parseHeaders(rawHeaders) as Record<string, string | string[] | undefined>;
    const length = Number(this.headers['content-length']);
    if (Number.isFinite(length) && length > this.limits.maxBytes) return this.refuseSize();
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.limits.maxBytes) return this.refuseSize();
    this.chunks.push(chunk);
    return true;
  }

  private refuseSize(): false {
    const err = tooLarge(this.limits.capBytes ?? this.limits.maxBytes);
    this.fail(err);
    this.abortRequest?.(err);
    return false;
  }

  onComplete(): void {
    if (this.settled) return;
    this.finish();
    const durationMs = performance.now() - this.started;
    const chunks = this.chunks;
    let raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size);
    if (this.secret) raw = this.secret.redact(raw, this.headers['content-type']);
    this.resolve(providerAnswer(this.status, this.headers, raw, durationMs));
  }

  onError(err: Error): void {
    this.fail(err);
  }
}

const tooLarge = (maxBytes: number) =>
  new EngineError('ENGINE_RESULT_TOO_LARGE', `the provider result exceeds the ${maxBytes}-byte limit; narrow the request`, {
    details: { limitBytes: maxBytes },
    providerExecution: 'completed',
  });
