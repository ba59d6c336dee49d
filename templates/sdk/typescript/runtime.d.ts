// Types of the svc-engine SDK runtime: the result envelope and call options.

export interface EnvelopeError {
  /** Engine codes (ENGINE_*), PROVIDER_* codes, or TRANSPORT_UNAVAILABLE when the Engine's gRPC service could not be used. */
  code: string;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
  recovery?: Record<string, unknown>;
}

/** The result of every call: `ok` tells success; `status` is the provider's HTTP status when it answered, else the Engine's. */
/** Only when a caller bound (`maxPages`) stopped before the provider's last page: `input` is what to add to the same input to read on. */
export interface Continuation {
  more: true;
  input?: Record<string, unknown>;
}

export type Envelope<T> =
  | { ok: true; status: number; data: T; error: null; continuation?: Continuation }
  | { ok: false; status: number; data: null; error: EnvelopeError };

export interface ClientOptions {
  /** The Engine's gRPC address: `host:port` (plaintext), `grpc://host:port`, or `https://host` / `grpcs://host:port` (TLS). */
  grpcUrl: string;
  /** The SDK execution token (`svc_sdk_…`) printed by the first `svc-cli sdk apply`. */
  token: string;
  /** Deadline of each call in milliseconds (default 60 000; `Infinity`, or more than about 23 days: none); the Engine stops the provider call when it passes. */
  timeoutMs?: number;
  /** Extra @grpc/grpc-js channel options. */
  channelOptions?: Record<string, unknown>;
}

/** Non-secret routing to an end user's OAuth connection; the Engine resolves the credential. */
export interface Selectors {
  endUserRef?: string;
  authType?: 'api_key' | 'oauth2';
  authName?: string;
  resourceId?: string;
}

/** Options of a Unified operation: its selectors and pagination go in the input, keyed by target. */
export interface UnifiedCallOptions {
  /** Deadline of this call in milliseconds: a positive number, or `Infinity` (or more than about 23 days) for none. */
  timeoutMs?: number;
  /** Aborting cancels the call (the envelope then carries TRANSPORT_UNAVAILABLE). */
  signal?: AbortSignal;
  /**
   * Makes a retry safe: the same key with the same request answers the first call's envelope without
   * calling the provider again, for 24 hours; with another request it is ENGINE_IDEMPOTENCY_CONFLICT.
   * 1 to 200 visible ASCII characters.
   */
  idempotencyKey?: string;
  /**
   * The W3C trace context the call continues (`00-<trace id>-<span id>-<flags>`): the Engine's spans
   * and its requests to the provider join that trace. Without it, the caller's active
   * OpenTelemetry context is sent when `@opentelemetry/api` is installed and a propagator registered.
   */
  traceparent?: string;
  /** The W3C `tracestate` that goes with `traceparent`. */
  tracestate?: string;
}

export interface CallOptions extends UnifiedCallOptions {
  selectors?: Selectors;
}

/** Options of an operation whose pagination policy accepts a caller bound. */
export interface PagedCallOptions extends CallOptions {
  /** Read at most `maxPages` pages (fewer than the operation's Engine limit); without it the Engine reads to the end. */
  pagination?: { maxPages: number };
}
