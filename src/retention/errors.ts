// Limits and the error type of result retention (docs/architecture.md, "MCP results").

export const SNAPSHOT_LIMIT = 16;
export const SESSION_BYTES_LIMIT = 4 * 1024 * 1024;
export const SNAPSHOT_TTL_MS = 5 * 60 * 1000;
export const MIN_OUTPUT_BUDGET = 1024;
export const MAX_OUTPUT_BUDGET = 65_536;

export type RetentionErrorCode = 'MCP_RESULT_UNAVAILABLE' | 'MCP_RESULT_ROW_TOO_LARGE' | 'ENGINE_INVALID_INPUT' | 'MCP_SESSION_QUOTA';

/** What to do after MCP_RESULT_UNAVAILABLE: the snapshot is gone, and repeating its operation may not be safe. */
export const RESULT_UNAVAILABLE_GUIDANCE =
  'Decide explicitly whether repeating the operation is safe; never automatically retry operations with side effects.';
/** What to do after MCP_RESULT_ROW_TOO_LARGE: ask for less of the row. */
export const ROW_TOO_LARGE_GUIDANCE = 'Choose fewer fields or use session.get to inspect a field or string slice.';

export class RetentionError extends Error {
  override name = 'RetentionError';
  readonly code: RetentionErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: RetentionErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    if (details) this.details = details;
  }
}

export const invalidInput = (message: string, details?: Record<string, unknown>): RetentionError =>
  new RetentionError('ENGINE_INVALID_INPUT', message, details);

export function resultUnavailable(ref: string): RetentionError {
  return new RetentionError(
    'MCP_RESULT_UNAVAILABLE',
    `The stored result is unavailable: it expired, was evicted, belongs to another session or never existed. ${RESULT_UNAVAILABLE_GUIDANCE}`,
    { result_ref: clip(ref), guidance: RESULT_UNAVAILABLE_GUIDANCE },
  );
}

/** UTF-8 byte length. Strings produced by JSON.stringify never hold lone surrogates, so this is exact for them. */
export const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Caller-supplied text quoted in a message, cut so error text stays small. */
export const clip = (text: string, max = 120): string => (text.length > max ? `${text.slice(0, max)}…` : text);

export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function checkBudget(outputBudgetBytes: number): void {
  if (!Number.isInteger(outputBudgetBytes) || outputBudgetBytes < MIN_OUTPUT_BUDGET || outputBudgetBytes > MAX_OUTPUT_BUDGET) {
    throw invalidInput(`outputBudgetBytes must be an integer from ${MIN_OUTPUT_BUDGET} to ${MAX_OUTPUT_BUDGET}`);
  }
}
