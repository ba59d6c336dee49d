// Tokens and CLI credentials (./tokens.ts), the owner account (./accounts.ts), device sign-in (./device.ts).
export { Tokens, bearerFrom, type IssuedToken } from './tokens.ts';
export { Accounts, DEVICE_COOKIE_TTL_MS, OWNER } from './accounts.ts';
export { DeviceFlow, DeviceFlowError, DEVICE_GRANT } from './device.ts';
export { DEVICE_STARTS, DEVICE_START_WINDOW_MS, SIGNIN_DEVICE_FAILURES, SIGNIN_FAILURES, SIGNIN_WINDOW_MS } from './limits.ts';
