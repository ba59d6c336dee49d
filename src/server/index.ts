export { createHttpApp } from './app.ts';
export type { RequestState } from './binding.ts';
export { createHandlers } from './handlers.ts';
export type { Handlers, ServerDeps } from './types.ts';
export { HttpDrain, type DrainReport, type ResponseObserver } from './drain.ts';
export { answerClientErrors, closeStalledSends, refuseExpectation, requireHost } from './client-errors.ts';
export { acceptExpectContinue } from './request-body.ts';
export { trustedProxiesOf, type TrustedProxies } from './request-info.ts';
