export { allows } from './allowlist.ts';
export { Calls, CallSite, type CallAnswer, type CallBody, type CallsDeps, type DispatchHooks } from './entry.ts';
export { resultJson } from './result-text.ts';
export { tracedCall } from './traced.ts';
export { unknownVersion, type CallContext, type Surface } from './scopes.ts';
