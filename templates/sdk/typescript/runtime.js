// Runtime of the generated svc-engine SDK packages: one gRPC call per operation, and the result
// envelope `{ ok, status, data, error }` for every outcome. Transport failures become an envelope
// with code TRANSPORT_UNAVAILABLE; nothing is thrown.
import { createRequire } from 'node:module';
import { credentials as grpcCredentials, Metadata, status as grpcStatus } from '@grpc/grpc-js';
import { EngineClient } from './engine.js';

/**
 * Longest deadline set on a call, in ms (about 23 days): longer is no deadline. A gRPC server on
 * grpc-js reads the timeout as 32-bit milliseconds, so from 2^31 ms (24.8 days) one would wrap
 * round and fail the call at once.
 */
const MAX_DEADLINE_MS = 2_000_000_000;
/** An idempotency key as the Engine takes it: 1 to 200 visible ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;
/** A W3C traceparent: version (not ff), a trace ID and a span ID that are not all zeros, flags. */
const TRACEPARENT = /^(?!ff)[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;
/** A W3C tracestate: at most 512 printable ASCII characters. */
const TRACESTATE = /^[\x20-\x7e]{0,512}$/;

/**
 * The caller's OpenTelemetry API, when its application has one: a call then carries the active
 * trace context its registered propagator writes. Optional: without it nothing is sent. Loaded
 * synchronously (no top-level await, which require() of this module and CommonJS bundles refuse);
 * the API keeps its state in a global registry, so this copy and the app's agree.
 */
const otel = (() => {
  try {
    return createRequire(import.meta.url)('@opentelemetry/api');
  } catch {
    return undefined;
  }
})();

/** The trace context of a call: the one given, else the caller's active OpenTelemetry context, if any. */
function traceContext(options) {
  if (options.traceparent !== undefined) return { traceparent: options.traceparent, tracestate: options.tracestate };
  if (!otel) return {};
  const carrier = {};
  try {
    otel.propagation.inject(otel.context.active(), carrier);
  } catch {
    return {};
  }
  return TRACEPARENT.test(String(carrier.traceparent)) ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate } : {};
}

const DEFAULT_TIMEOUT_MS = 60_000;
const STATUS_NAMES = Object.fromEntries(Object.entries(grpcStatus).map(([name, code]) => [code, name]));

/** `host:port`, `http://host:port`, `grpc://host:port` (plaintext) or `https://…`, `grpcs://…` (TLS). */
function parseTarget(grpcUrl) {
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^/?#]+)\/?$/i.exec(String(grpcUrl ?? '').trim());
  if (!m) throw new TypeError(`grpcUrl must be host:port or a grpc://, grpcs://, http:// or https:// URL (got '${grpcUrl}')`);
  const scheme = (m[1] ?? '').toLowerCase();
  if (scheme && !['http', 'https', 'grpc', 'grpcs'].includes(scheme)) throw new TypeError(`grpcUrl: unsupported scheme '${scheme}'`);
  const tls = scheme === 'https' || scheme === 'grpcs';
  const hostPort = m[2];
  const target = /:\d+$/.test(hostPort) ? hostPort : `${hostPort}:${tls ? 443 : 80}`;
  return { target, tls };
}

function failure(status, code, message, retryable, details) {
  return { ok: false, status, data: null, error: { code, message, retryable, details } };
}

/** A call gRPC did not complete; `providerExecution` is 'not_started' when nothing was sent. */
function transportFailure(target, err, providerExecution = 'unknown') {
  const name = STATUS_NAMES[err.code] ?? 'UNKNOWN';
  const reason = err.details || err.message || name;
  // This client sets no receive limit: RESOURCE_EXHAUSTED is the Engine refusing the request message (as REST's 413).
  if (err.code === grpcStatus.RESOURCE_EXHAUSTED) {
    return failure(413, 'ENGINE_INPUT_TOO_LARGE', `the Engine refused the request as too large (${reason}); send a smaller input`, false, { grpc_status: name, provider_execution: 'not_started' });
  }
  const deadline = err.code === grpcStatus.DEADLINE_EXCEEDED;
  return failure(deadline ? 504 : 503, 'TRANSPORT_UNAVAILABLE', `the Engine's gRPC service at ${target} could not complete the call (${name}: ${reason})`, err.code === grpcStatus.UNAVAILABLE, {
    grpc_status: name,
    provider_execution: providerExecution,
  });
}

function fromWire(target, wire) {
  try {
    const e = wire.error;
    return {
      ok: wire.ok,
      status: wire.status,
      data: JSON.parse(wire.dataJson || 'null'),
      ...(wire.continuationJson !== undefined ? { continuation: JSON.parse(wire.continuationJson) } : {}),
      error: e
        ? {
            code: e.code,
            message: e.message,
            retryable: e.retryable,
            ...(e.detailsJson !== undefined ? { details: JSON.parse(e.detailsJson) } : {}),
            ...(e.recoveryJson !== undefined ? { recovery: JSON.parse(e.recoveryJson) } : {}),
          }
        : null,
    };
  } catch (err) {
    return transportFailure(target, { code: grpcStatus.INTERNAL, details: `the reply could not be read: ${err.message}` });
  }
}

const SELECTOR_KEYS = new Set(['endUserRef', 'authType', 'authName', 'resourceId']);

/** The field of a selectors value the Engine could not be sent as given, or undefined. */
function selectorProblem(selectors) {
  if (selectors === null || typeof selectors !== 'object' || Array.isArray(selectors)) return 'selectors';
  for (const [key, value] of Object.entries(selectors)) {
    if (!SELECTOR_KEYS.has(key) || (value !== undefined && typeof value !== 'string')) return `selectors.${key}`;
  }
  return undefined;
}

export class Runtime {
  #client;
  #target;
  #token;
  #versionId;
  #timeoutMs;
  #closed = false;

  constructor(options, versionId) {
    if (!options || typeof options !== 'object') throw new TypeError('new Client({ grpcUrl, token }): options are required');
    // Checked here, never echoed: grpc-js would throw on a header value it cannot send with the token in its message.
    if (typeof options.token !== 'string' || !/^[\x21-\x7e]+$/.test(options.token)) {
      throw new TypeError('new Client({ grpcUrl, token }): token must be the SDK execution token (printable characters, no spaces or line breaks)');
    }
    const { target, tls } = parseTarget(options.grpcUrl);
    this.#target = target;
    this.#token = options.token;
    this.#versionId = versionId;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#client = new EngineClient(target, tls ? grpcCredentials.createSsl() : grpcCredentials.createInsecure(), {
      'grpc.max_receive_message_length': -1,
      'grpc.enable_channelz': 0,
      ...options.channelOptions,
    });
  }

  /** Calls one operation; always resolves with an envelope. */
  call(operation, input, options) {
    options ??= {};
    if (this.#closed) {
      return Promise.resolve(failure(503, 'TRANSPORT_UNAVAILABLE', 'this client was closed; create a new one', false, { grpc_status: 'CANCELLED', provider_execution: 'not_started' }));
    }
    const maxPages = options.pagination?.maxPages;
    if (options.pagination !== undefined && !(Number.isInteger(maxPages) && maxPages > 0 && maxPages < 2 ** 31)) {
      // The message cannot carry it: answer as the Engine would, not as a transport fault.
      return Promise.resolve(failure(400, 'ENGINE_PAGINATION_INVALID', 'pagination.maxPages must be a positive integer', false, { field: 'pagination.maxPages', provider_execution: 'not_started' }));
    }
    let inputJson;
    try {
      inputJson = input === undefined ? '' : JSON.stringify(input);
    } catch (err) {
      return Promise.resolve(failure(400, 'ENGINE_INVALID_INPUT', `input is not JSON-serialisable (${err.message})`, false, { field: 'input', provider_execution: 'not_started' }));
    }
    const request = { versionId: this.#versionId, operation, inputJson };
    if (options.pagination !== undefined) request.pagination = { maxPages: options.pagination?.maxPages };
    if (options.selectors !== undefined) {
      // The message encoder would drop a key it does not know: the call would run without it.
      const bad = selectorProblem(options.selectors);
      if (bad) return Promise.resolve(failure(400, 'ENGINE_INVALID_INPUT', `selectors take endUserRef, authType, authName and resourceId as strings${bad === 'selectors' ? '' : ` (not '${bad.slice('selectors.'.length)}')`}`, false, { field: bad, provider_execution: 'not_started' }));
      request.selectors = { ...options.selectors };
    }
    const metadata = new Metadata();
    metadata.set('authorization', `Bearer ${this.#token}`);
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    // 0, a negative number or NaN would mean no deadline at all: only Infinity says that.
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) {
      return Promise.resolve(failure(400, 'ENGINE_INVALID_INPUT', 'timeoutMs must be a positive number of milliseconds (Infinity: no deadline)', false, { field: 'timeoutMs', provider_execution: 'not_started' }));
    }
    // A deadline past what grpc-js can schedule (about 3.6e14 ms) would throw outside any handler: it means none.
    const callOptions = Number.isFinite(timeoutMs) && timeoutMs < MAX_DEADLINE_MS ? { deadline: Date.now() + timeoutMs } : {};
    if (options.idempotencyKey !== undefined) {
      // The Engine's rule (src/execution/idempotency.ts), checked here too: grpc-js would throw on a value it cannot send.
      if (typeof options.idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(options.idempotencyKey)) {
        return Promise.resolve(failure(400, 'ENGINE_INVALID_INPUT', 'idempotencyKey must be a string of 1 to 200 visible ASCII characters (no spaces)', false, { field: 'idempotencyKey', provider_execution: 'not_started' }));
      }
      metadata.set('idempotency-key', options.idempotencyKey);
    }
    if (options.traceparent !== undefined && (typeof options.traceparent !== 'string' || !TRACEPARENT.test(options.traceparent))) {
      return Promise.resolve(failure(400, 'ENGINE_INVALID_INPUT', 'traceparent must be a W3C traceparent: 00-<32 hex trace ID>-<16 hex span ID>-<2 hex flags>', false, { field: 'traceparent', provider_execution: 'not_started' }));
    }
    if (options.tracestate !== undefined && (options.traceparent === undefined || typeof options.tracestate !== 'string' || !TRACESTATE.test(options.tracestate))) {
      return Promise.resolve(failure(400, 'ENGINE_INVALID_INPUT', 'tracestate goes with a traceparent and is at most 512 printable ASCII characters', false, { field: 'tracestate', provider_execution: 'not_started' }));
    }
    const trace = traceContext(options);
    if (trace.traceparent) metadata.set('traceparent', trace.traceparent);
    if (trace.tracestate && TRACESTATE.test(String(trace.tracestate))) metadata.set('tracestate', trace.tracestate);
    if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
      return Promise.resolve(failure(400, 'ENGINE_INVALID_INPUT', 'signal must be an AbortSignal', false, { field: 'signal', provider_execution: 'not_started' }));
    }
    return new Promise((resolve) => {
      if (options.signal?.aborted) return resolve(transportFailure(this.#target, { code: grpcStatus.CANCELLED, details: 'the call was aborted before it started' }, 'not_started'));
      let call;
      try {
        call = this.#client.execute(request, metadata, callOptions, (err, reply) => {
          options.signal?.removeEventListener('abort', onAbort);
          resolve(err ? transportFailure(this.#target, err) : fromWire(this.#target, reply));
        });
      } catch (err) {
        // grpc-js throws for a request it cannot send (a channel shut down, a message it cannot encode).
        return resolve(transportFailure(this.#target, { code: grpcStatus.CANCELLED, details: String(err?.message ?? err) }, 'not_started'));
      }
      const onAbort = () => call.cancel();
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  close() {
    this.#closed = true;
    this.#client.close();
  }
}

/** Builds the nested service object of an operation table `{ group: { method: operationId } }`. */
export function bindOperations(runtime, table) {
  const node = {};
  for (const [name, entry] of Object.entries(table)) {
    const value =
      typeof entry === 'string' ? (input, options) => runtime.call(entry, input, options) : bindOperations(runtime, entry);
    Object.defineProperty(node, name, { value, enumerable: true });
  }
  return Object.freeze(node);
}
