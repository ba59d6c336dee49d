// Guess and burst limits of the unauthenticated identity endpoints. They are counted in fixed
// windows by the Coordinator, so every replica shares them when Redis is configured. They bound
// a one-time code's 38 bits, or a password, to a few guesses a minute; the endpoints had answered
// about 1,200 guesses a second.

/** Failed sign-ins allowed per account and per client address in SIGNIN_WINDOW_MS. */
export const SIGNIN_FAILURES = 10;
/**
 * Failed sign-ins allowed per account in SIGNIN_WINDOW_MS from all its known browsers together
 * (device cookies; each also has its own SIGNIN_FAILURES), so many cookies do not make many budgets.
 */
export const SIGNIN_DEVICE_FAILURES = 100;
export const SIGNIN_WINDOW_MS = 15 * 60 * 1000;
/** Device authorizations one client address may start per DEVICE_START_WINDOW_MS. */
export const DEVICE_STARTS = 30;
export const DEVICE_START_WINDOW_MS = 60 * 1000;
