// svc-cli's sign-in: the device flow (RFC 8628), the sign-in page that approves it, and the CLI credential it yields.
import { EngineError } from '../../envelope/index.ts';
import { DEVICE_COOKIE_TTL_MS, DEVICE_STARTS, DEVICE_START_WINDOW_MS, DeviceFlowError, SIGNIN_DEVICE_FAILURES, SIGNIN_FAILURES, SIGNIN_WINDOW_MS } from '../../identity/index.ts';
import { html, retryAfterSeconds } from '../answers.ts';
import { resultPage, signinPage } from '../pages.ts';
import type { HandlerResult, Handlers, ServerDeps } from '../types.ts';

/** How long a failed sign-in waits to see whether a concurrent submission of the same form decided its code. */
const DECISION_SETTLE_MS = 150;

const DEVICE_COOKIE_NAME = 'svc_signin_device';
const DEVICE_COOKIE_VALUES = new RegExp(`(?:^|;)\\s*${DEVICE_COOKIE_NAME}=([^;\\s]*)`, 'g');
/** Every value of our device cookie in a Cookie header (its values never need quoting or decoding); Accounts checks them. */
const deviceCookiesOf = (header: string | undefined) => (header ? [...header.matchAll(DEVICE_COOKIE_VALUES)].map((m) => m[1]!) : []);
/** Sent only back to the sign-in form (at `path`), never readable by scripts, never on a request from another site. */
const deviceCookieHeader = (value: string, path: string, secure: boolean) =>
  `${DEVICE_COOKIE_NAME}=${value}; Path=${path}; Max-Age=${DEVICE_COOKIE_TTL_MS / 1000}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

/** The host of an Origin header, or undefined when it is not a URL (then it matches no host). */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

export function signinRoutes(deps: ServerDeps): Pick<Handlers, 'startDeviceAuthorization' | 'exchangeDeviceCode' | 'whoami' | 'logout' | 'showSignin' | 'submitSignin'> {
  const { config, accounts, deviceFlow, tokens, urls } = deps;
  /**
   * A limit counted by the Coordinator (shared by replicas with Redis; per replica while Redis is
   * down). Like the per-token rate limit, a coordinator that fails outright lets the request
   * through, with a warning, rather than refuse all.
   */
  const limited = async <T>(read: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await read();
    } catch (err) {
      deps.log.warn({ err: (err as { code?: string }).code ?? 'unavailable' }, 'identity limit not checked: coordination unavailable');
      return fallback;
    }
  };
  /** Behind an https public URL, cookies go only over https. */
  const secureCookies = config.publicUrl?.startsWith('https:') ?? false;
  /**
   * The sign-in page's path as browsers see it: under SVC_PUBLIC_URL's path when the Engine is served
   * below one; `/` for a path a cookie attribute cannot carry (a `;`).
   */
  const publicPath = config.publicUrl ? new URL(config.publicUrl).pathname.replace(/\/+$/, '') : '';
  const signinPath = /^[\x21-\x3a\x3c-\x7e]*$/.test(publicPath) ? `${publicPath}/signin` : '/';

  return {
    async startDeviceAuthorization({ body, client }) {
      // Unauthenticated, and each start stores a row: bounded per client address.
      const started = await limited(() => deps.coordinator.hit(`device-start:${client}`, DEVICE_START_WINDOW_MS), { count: 0, resetInMs: 0 });
      const waitMs = started.count > DEVICE_STARTS ? Math.max(1, started.resetInMs) : 0;
      if (waitMs > 0) {
        throw new EngineError('ENGINE_RATE_LIMITED', `too many sign-ins started from this address; retry in ${Math.ceil(waitMs / 1000)} s`, {
          retryable: true,
          details: { retry_after_ms: waitMs },
        });
      }
      return { body: await deviceFlow.start(body?.client_id ?? 'svc-cli', `${config.publicUrl ?? urls.http}/signin`, { from: client, agent: null, credentialTtlSeconds: null }) };
    },

    async exchangeDeviceCode({ body }) {
      try {
        return { body: await deviceFlow.poll(body.device_code, body.client_id ?? 'svc-cli') };
      } catch (err) {
        if (err instanceof DeviceFlowError) return { status: 400, body: { error: err.error, error_description: err.message } };
        throw err;
      }
    },

    async whoami({ principal }) {
      return { body: { subject: principal!.subject, credentialId: principal!.id, createdAt: principal!.createdAt, expiresAt: principal!.expiresAt } };
    },

    async logout({ principal }) {
      await tokens.revoke(principal!.id);
      return { status: 204 };
    },

    async showSignin({ params }) {
      return html(signinPage({ userCode: params.user_code }));
    },

    async submitSignin({ body, origin, fetchSite, client, host, cookie }) {
      // The form only posts from the Engine's own page (a second guard beside the CSP form-action).
      // Its same-origin referrer policy makes browsers send its real Origin, which must be the
      // Engine's; an opaque one (`null`: a sandboxed frame, a data: page) is refused, since browsers
      // send no Sec-Fetch-Site to a plain-HTTP host to tell them apart. No Origin at all (a client
      // that is not a browser) is judged by Sec-Fetch-Site.
      const crossSite = fetchSite === 'cross-site' || fetchSite === 'same-site';
      const foreign = origin === 'null' || (origin ? originHost(origin) !== host : crossSite);
      if (foreign) {
        return html(resultPage({ heading: 'Refused', message: 'This form can only be submitted from the Engine’s own sign-in page.', ok: false }), 403);
      }
      const again = (error: string, status = 400) => html(signinPage({ userCode: body.user_code, username: body.username, error }), status);
      // Guesses are bounded per account and per client before any secret is checked. Each attempt
      // is counted first and taken back when it was no guess (refused, an unknown code, the right password),
      // so a burst of concurrent guesses cannot all pass a count read before any was recorded.
      // A browser that signed in to this account before (its device cookie) is counted on its own
      // instead, so guesses from elsewhere, however many, cannot lock the account's owner out.
      // All known browsers of an account together also have a bound, so many cookies are not many budgets.
      const device = await accounts.trustedDevice(deviceCookiesOf(cookie), body.username);
      const limits: [key: string, allowed: number][] = device
        ? [[`signin-failures:device:${device}`, SIGNIN_FAILURES], [`signin-failures:devices:${body.username}`, SIGNIN_DEVICE_FAILURES]]
        : [[`signin-failures:account:${body.username}`, SIGNIN_FAILURES], [`signin-failures:client:${client}`, SIGNIN_FAILURES]];
      const counts = await Promise.all(limits.map(([k]) => limited(() => deps.coordinator.hit(k, SIGNIN_WINDOW_MS), { count: 0, resetInMs: 0 })));
      const takeBack = () => Promise.all(limits.map(([k]) => limited(() => deps.coordinator.unhit(k), undefined)));
      const waitMs = Math.max(0, ...counts.map((c, i) => (c.count > limits[i]![1] ? Math.max(1, c.resetInMs) : 0)));
      if (waitMs > 0) {
        await takeBack(); // a refused attempt checked nothing
        const result = again(`Too many failed sign-ins; try again in ${Math.ceil(waitMs / 60_000)} min (or, on the Engine host, \`svc-engine credential create\`).`, 429);
        return { ...result, headers: { ...result.headers, 'retry-after': retryAfterSeconds(waitMs) } };
      }
      // A form submitted twice (a double click: the browser shows the second answer) gets the outcome
      // the first decided, not an error; a one-time code the first used would also read as wrong.
      const decided = async () => {
        const outcome = await deviceFlow.outcome(body.user_code);
        if (outcome === 'approved') return html(resultPage({ heading: 'Already approved', message: 'This sign-in was approved; svc-cli is signed in. You can close this page.', ok: true }));
        if (outcome === 'denied') return html(resultPage({ heading: 'Sign-in denied', message: 'This sign-in was denied; svc-cli has stopped waiting.', ok: false }));
        return undefined;
      };
      if (!(await deviceFlow.pending(body.user_code))) {
        await takeBack();
        return (await decided()) ?? again('That code is unknown, already used or expired. Run `svc-cli login` again for a new one.');
      }
      const subject = await accounts.authenticate(body.username, body.password);
      if (!subject) {
        // Decided meanwhile by a submission that was right: a double click, not a guess. The first
        // may have used a one-time code and not yet recorded its decision: look again shortly.
        const outcome = (await decided()) ?? (await new Promise((r) => setTimeout(r, DECISION_SETTLE_MS)).then(decided));
        if (outcome) {
          await takeBack();
          return outcome;
        }
        return again('The account or password is not right.', 401);
      }
      await takeBack();
      // The cookie only spares this browser others' lockouts: a store that fails to mint it must not fail the sign-in.
      const cookieValue = await accounts.deviceCookie(subject).catch((err: unknown) => void deps.log.warn({ err }, 'sign-in device cookie not issued'));
      const known = (result: HandlerResult): HandlerResult =>
        cookieValue === undefined ? result : { ...result, headers: { ...result.headers, 'set-cookie': deviceCookieHeader(cookieValue, signinPath, secureCookies) } };
      if (!(await deviceFlow.decide(body.user_code, body.decision, subject))) return known((await decided()) ?? again('That code is no longer waiting for approval.'));
      return known(
        body.decision === 'approve'
          ? html(resultPage({ heading: 'Signed in', message: `svc-cli is now signed in as ${subject}.`, ok: true }))
          : html(resultPage({ heading: 'Sign-in denied', message: 'The request was denied; svc-cli will stop waiting.', ok: false })),
      );
    },
  };
}
