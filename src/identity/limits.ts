// Guess and burst limits of the unauthenticated identity endpoints, and the lifetime of CLI
// credentials. Limits are counted in fixed windows by the Coordinator, so every replica shares them
// when Redis is configured. They bound a one-time code's 38 bits, or a password, to a few guesses an
// hour per client; the endpoints had answered about 1,200 guesses a second.

/** Failed sign-ins a client (an address, or a browser that signed in before) makes in SIGNIN_WINDOW_MS before it must wait. */
export const SIGNIN_FAILURES = 10;
/** The wait after those; it doubles with each further failure (30 s, 60 s, 120 s … counted from the window's start). */
export const SIGNIN_FIRST_DELAY_MS = 30_000;
export const SIGNIN_WINDOW_MS = 60 * 60 * 1000;
/**
 * Distinct client addresses with a failed sign-in to one account in SIGNIN_WINDOW_MS after which
 * that account accepts no sign-in from a client that has not signed in to it before (no device
 * cookie). One client's guesses never count twice, so no single client can lock the owner out.
 */
export const SIGNIN_ACCOUNT_CLIENTS = 100;
/**
 * Failed sign-ins allowed per account in SIGNIN_WINDOW_MS from all its known browsers together
 * (device cookies; each also has its own schedule), so many cookies do not make many budgets.
 */
export const SIGNIN_DEVICE_FAILURES = 100;
/** Device authorizations one client address may start per DEVICE_START_WINDOW_MS. */
export const DEVICE_STARTS = 30;
export const DEVICE_START_WINDOW_MS = 60 * 1000;

/** How long a CLI credential lives unless asked otherwise (`svc-cli login --expires`). */
export const CLI_CREDENTIAL_TTL_S = 90 * 24 * 60 * 60;
/** The longest lifetime a sign-in may ask for its CLI credential. */
export const CLI_CREDENTIAL_MAX_TTL_S = 365 * 24 * 60 * 60;

/**
 * How long after its window opened a client's next sign-in must wait, with `failures` already
 * counted in that window: none for the first SIGNIN_FAILURES, then 30 s, 90 s, 210 s … (each step
 * twice the one before). A schedule from the window's start, not a wait after the last failure:
 * concurrent guesses each see their own count, so a burst cannot slip through together.
 */
export function signinDelayMs(failures: number): number {
  const over = failures - SIGNIN_FAILURES + 1;
  if (over <= 0) return 0;
  return SIGNIN_FIRST_DELAY_MS * (2 ** Math.min(over, 20) - 1);
}
