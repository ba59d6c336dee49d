export { Executor } from './executor.ts';
export { Dispatcher, type Connection } from './dispatch.ts';
export { ABANDONED_AFTER_MS, checkIdempotencyKey, IDEMPOTENCY_TTL_MS, IdempotencyKeys, keyScope, requestHash, type KeyClaim, type Once } from './idempotency.ts';
export { DEFAULT_MAX_ATTEMPTS, type Attempt } from './retry.ts';
export { checkSelectors, isPlainText } from './selectors.ts';
export { patternMeaning, requestValidationError } from './validation.ts';
export type { CallRequest, CallResult, CallScope, Continuation, Selectors } from './types.ts';
export { READ_ONLY_REASON, readOnlyRefusal } from './read-only.ts';
