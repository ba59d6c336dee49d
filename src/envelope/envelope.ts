// The one result shape every surface returns: { ok, status, data, error } (docs/architecture.md, the result envelope).

export type ProviderExecution = 'not_started' | 'unknown' | 'completed';

export interface RecoveryContract {
  recovery_action?: string;
  execute_request: 'reformat_if_session_state_used' | 'correct_arguments' | 'adjust_projection' | 'use_next_request' | 'unchanged' | 'do_not_replay';
  provider_execution: 'not_started' | 'unknown';
  automatic_replay: boolean;
}

export interface EnvelopeError {
  code: string;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
  recovery?: RecoveryContract;
}

export interface Envelope<T = unknown> {
  ok: boolean;
  status: number;
  data: T | null;
  error: EnvelopeError | null;
}

/** Engine error codes and the HTTP status each one carries when no provider answered. */
export const ENGINE_STATUS = {
  ENGINE_INVALID_INPUT: 400,
  ENGINE_PAGINATION_INVALID: 400,
  ENGINE_UNAUTHENTICATED: 401,
  ENGINE_FORBIDDEN_OPERATION: 403,
  /** The service's address is one the egress policy refuses (src/egress); nothing was sent. */
  ENGINE_EGRESS_REFUSED: 403,
  /** The MCP server's definition gates this call behind a person's approval (src/approvals); nothing was sent. */
  ENGINE_APPROVAL_REQUIRED: 403,
  /** The person asked through the MCP client's elicitation declined the call; nothing was sent. */
  ENGINE_APPROVAL_DECLINED: 403,
  ENGINE_UNKNOWN_OPERATION: 404,
  ENGINE_NOT_FOUND: 404,
  ENGINE_CONFLICT: 409,
  ENGINE_CREDENTIAL_MISSING: 409,
  ENGINE_CREDENTIAL_REFRESH_FAILED: 409,
  ENGINE_IDEMPOTENCY_CONFLICT: 409,
  ENGINE_INPUT_TOO_LARGE: 413,
  ENGINE_RESULT_TOO_LARGE: 413,
  ENGINE_PAGINATION_LIMIT: 413,
  ENGINE_RATE_LIMITED: 429,
  /** The caller went away before anything was sent (nginx's "client closed request"); only receipts see it. */
  ENGINE_CANCELLED: 499,
  ENGINE_INTERNAL: 500,
  PROVIDER_UNREACHABLE: 502,
  ENGINE_OUTCOME_UNKNOWN: 502,
  ENGINE_UNAVAILABLE: 503,
  PROVIDER_TIMEOUT: 504,
} as const;

export type EngineErrorCode = keyof typeof ENGINE_STATUS;

/** A refusal or failure raised by the Engine itself; surfaces turn it into an envelope. */
export class EngineError extends Error {
  override name = 'EngineError';
  readonly code: EngineErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;
  readonly providerExecution: ProviderExecution;

  constructor(
    code: EngineErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; retryable?: boolean; providerExecution?: ProviderExecution } = {},
  ) {
    super(message);
    this.code = code;
    this.status = ENGINE_STATUS[code];
    this.retryable = options.retryable ?? false;
    this.details = options.details;
    this.providerExecution = options.providerExecution ?? 'not_started';
  }

  toEnvelope(): Envelope<never> {
    return failure(this.status, {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      details: { ...this.details, provider_execution: this.providerExecution },
    });
  }
}

export const success = <T>(status: number, data: T): Envelope<T> => ({ ok: true, status, data, error: null });

export const failure = (status: number, error: EnvelopeError, data: unknown = null): Envelope<never> => ({
  ok: false,
  status,
  data: data as null,
  error,
});

/** Wraps anything thrown into an envelope without exposing internals. */
export function toEnvelope(err: unknown): Envelope<never> {
  if (err instanceof EngineError) return err.toEnvelope();
  // Where it failed is not known, so neither is whether a provider was reached.
  return failure(500, { code: 'ENGINE_INTERNAL', message: 'The Engine failed unexpectedly; the failure was logged.', retryable: false, details: { provider_execution: 'unknown' } });
}
