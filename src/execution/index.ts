export { Executor } from './executor.ts';
export { Dispatcher, type Connection } from './dispatch.ts';
export { checkSelectors, isPlainText } from './selectors.ts';
export { patternMeaning, requestValidationError } from './validation.ts';
export type { CallRequest, CallResult, CallScope, Continuation, Selectors } from './types.ts';
