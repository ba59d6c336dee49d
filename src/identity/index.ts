// Tokens and CLI credentials (./tokens.ts), the owner account (./accounts.ts), device sign-in (./device.ts),
// and the bounds on guessing at sign-in (./signin-guard.ts, ./limits.ts).
export { Tokens, bearerFrom, type IssuedToken } from './tokens.ts';
export { Accounts, DEVICE_COOKIE_TTL_MS, OWNER } from './accounts.ts';
export { DeviceFlow, DeviceFlowError, DEVICE_GRANT } from './device.ts';
export {
  CLI_CREDENTIAL_MAX_TTL_S,
  CLI_CREDENTIAL_TTL_S,
  DEVICE_STARTS,
  DEVICE_START_WINDOW_MS,
  SIGNIN_ACCOUNT_CLIENTS,
  SIGNIN_DEVICE_FAILURES,
  SIGNIN_FAILURES,
  SIGNIN_FIRST_DELAY_MS,
  SIGNIN_WINDOW_MS,
  signinDelayMs,
} from './limits.ts';
export { SigninGuard, clientKey, type SigninRefusal, type SigninTicket } from './signin-guard.ts';
