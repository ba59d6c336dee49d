// svc-cli's sign-in: the device flow (RFC 8628), the sign-in page that approves it, and the CLI credential it yields.
import { EngineError } from '../../envelope/index.ts';
import { CLI_CREDENTIAL_TTL_S, DEVICE_COOKIE_TTL_MS, DEVICE_STARTS, DEVICE_START_WINDOW_MS, DeviceFlowError, SigninGuard, type SigninRefusal } from '../../identity/index.ts';
import type { DeviceCodeRow } from '../../store/index.ts';
import { html, retryAfterSeconds } from '../answers.ts';
import { resultPage, signinPage, type SigninRequestView } from '../pages.ts';
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

/** A User-Agent as it may be stored and shown: its first 200 characters, control characters replaced. */
const shownAgent = (agent: string | undefined) => (agent ? agent.slice(0, 200).replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd') : null);

/** `3 min ago`, `2 h ago`: how long ago `iso` was, for a person checking that a request is theirs. */
function ago(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}

/** What the approval page says about a pending sign-in: who asked, when, and what approving grants. */
function requestView(row: DeviceCodeRow, browser: string): SigninRequestView {
  const ttl = row.credentialTtlSeconds ?? CLI_CREDENTIAL_TTL_S;
  const days = ttl / 86_400;
  return {
    from: row.requestedFrom ?? 'not recorded',
    sameAddress: row.requestedFrom === browser,
    browser,
    agent: row.requestedAgent ?? 'not sent',
    at: `${row.createdAt.slice(0, 19).replace('T', ' ')} UTC (${ago(row.createdAt)})`,
    lifetime: days >= 1 ? `${Math.round(days)} day${Math.round(days) === 1 ? '' : 's'}` : `${Math.max(1, Math.round(ttl / 3600))} h`,
  };
}

/** What a person is told when the sign-in form refused an attempt unchecked. */
function refusalText({ reason, waitMs }: SigninRefusal): string {
  const wait = waitMs < 120_000 ? `${Math.ceil(waitMs / 1000)} s` : `${Math.ceil(waitMs / 60_000)} min`;
  const host = 'or, on the Engine host, `svc-engine credential create`';
  switch (reason) {
    case 'client':
      return `Too many failed sign-ins from this address; try again in ${wait} (${host}).`;
    case 'device':
      return `Too many failed sign-ins from this browser; try again in ${wait} (${host}).`;
    case 'devices':
      return `Too many failed sign-ins to this account from its known browsers; try again in ${wait} (${host}).`;
    case 'account':
      return `Too many failed sign-ins to this account from many addresses: for ${wait} it accepts sign-ins only from a browser that signed in to it before (${host}).`;
  }
}

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
   * Limits are counted by the Coordinator (shared by replicas with Redis; per replica while Redis is
   * down). Like the per-token rate limit, a coordinator that fails outright lets the request
   * through, with a warning, rather than refuse all.
   */
  const unavailable = (err: unknown) => deps.log.warn({ err: (err as { code?: string }).code ?? 'unavailable' }, 'identity limit not checked: coordination unavailable');
  const limited = async <T>(read: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await read();
    } catch (err) {
      unavailable(err);
      return fallback;
    }
  };
  const guard = new SigninGuard(deps.coordinator, unavailable);
  /** The sign-in page for `userCode`: with who asked when that code is pending, else the step that asks for a code. */
  const page = async (client: string, fields: { userCode?: string | undefined; username?: string | undefined; error?: string | undefined }) => {
    const pending = fields.userCode ? await deviceFlow.pending(fields.userCode) : null;
    return signinPage({ ...fields, request: pending ? requestView(pending, client) : undefined });
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
    async startDeviceAuthorization({ body, client, params }) {
      // Unauthenticated, and each start stores a row: bounded per client address.
      const started = await limited(() => deps.coordinator.hit(`device-start:${client}`, DEVICE_START_WINDOW_MS), { count: 0, resetInMs: 0 });
      const waitMs = started.count > DEVICE_STARTS ? Math.max(1, started.resetInMs) : 0;
      if (waitMs > 0) {
        throw new EngineError('ENGINE_RATE_LIMITED', `too many sign-ins started from this address; retry in ${Math.ceil(waitMs / 1000)} s`, {
          retryable: true,
          details: { retry_after_ms: waitMs },
        });
      }
      const requester = { from: client, agent: shownAgent(params['User-Agent']), credentialTtlSeconds: body?.credential_expires_in ?? null };
      return { body: await deviceFlow.start(body?.client_id ?? 'svc-cli', `${config.publicUrl ?? urls.http}/signin`, requester) };
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

    async showSignin({ params, client }) {
      const userCode = params.user_code?.trim() || undefined;
      if (!userCode || (await deviceFlow.pending(userCode))) return html(await page(client, { userCode }));
      return html(await page(client, { userCode, error: 'That code is unknown, already used or expired. Run `svc-cli login` again for a new one.' }));
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
      const again = async (error: string, status = 400) => html(await page(client, { userCode: body.user_code, username: body.username, error }), status);
      // Guesses are bounded before any secret is checked, per client: its address, or a browser
      // that signed in to this account before (its device cookie), each with a wait that grows with
      // its failures. Guesses from one client never lock out another; the account itself closes to
      // clients it does not know only after failures from many addresses (./identity/signin-guard.ts).
      const device = await accounts.trustedDevice(deviceCookiesOf(cookie), body.username);
      const admitted = await guard.begin(body.username, client, device);
      if ('refused' in admitted) {
        const result = await again(refusalText(admitted.refused), 429);
        return { ...result, headers: { ...result.headers, 'retry-after': retryAfterSeconds(admitted.refused.waitMs) } };
      }
      const takeBack = () => admitted.ticket.notAGuess();
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
        return (await decided()) ?? (await again('That code is unknown, already used or expired. Run `svc-cli login` again for a new one.'));
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
        await admitted.ticket.failed();
        return again('The account or password is not right.', 401);
      }
      await takeBack();
      // The cookie only spares this browser others' lockouts: a store that fails to mint it must not fail the sign-in.
      const cookieValue = await accounts.deviceCookie(subject).catch((err: unknown) => void deps.log.warn({ err }, 'sign-in device cookie not issued'));
      const known = (result: HandlerResult): HandlerResult =>
        cookieValue === undefined ? result : { ...result, headers: { ...result.headers, 'set-cookie': deviceCookieHeader(cookieValue, signinPath, secureCookies) } };
      if (!(await deviceFlow.decide(body.user_code, body.decision, subject))) return known((await decided()) ?? (await again('That code is no longer waiting for approval.')));
      return known(
        body.decision === 'approve'
          ? html(resultPage({ heading: 'Signed in', message: `svc-cli is now signed in as ${subject}. See or revoke its credentials with \`svc-cli auth credentials list\`.`, ok: true }))
          : html(resultPage({ heading: 'Sign-in denied', message: 'The request was denied; svc-cli will stop waiting.', ok: false })),
      );
    },
  };
}
