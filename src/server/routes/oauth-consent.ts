// The authorization server's consent page: an MCP client sends a person to /oauth/authorize, who
// signs in there (the owner account, with the sign-in page's guess limits), narrows what the client
// may do and approves, or denies (src/oauth).
import { OWNER, SigninGuard } from '../../identity/index.ts';
import { approvalOf, CONSENT_FORM_TTL_MS, DEFAULT_LIFETIME, GRANT_LIFETIMES, isLoopbackRedirect, type OAuthError, type PendingConsent } from '../../oauth/index.ts';
import { html, retryAfterSeconds } from '../answers.ts';
import { consentHeaders, consentPage, resultPage } from '../pages.ts';
import type { HandlerResult, Handlers, ServerDeps } from '../types.ts';

const CONSENT_COOKIE = 'svc_oauth_consent';
const CONSENT_COOKIE_VALUES = new RegExp(`(?:^|;)\\s*${CONSENT_COOKIE}=([A-Za-z0-9_-]{22})(?=;|\\s|$)`, 'g');
const consentNonces = (header: string | undefined) => (header ? [...header.matchAll(CONSENT_COOKIE_VALUES)].map((m) => m[1]!) : []);

/** The fields of an authorization request, as the query and the consent form both carry them. */
const REQUEST_FIELDS = ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'resource'] as const;

/** The host of an Origin header, or undefined when it is not a URL. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** Where a client's metadata came from, as the consent page says it. */
function clientSource(consent: PendingConsent): string {
  if (consent.client.source === 'registration') return `registered with this Engine as ${consent.client.clientId}`;
  return `described at ${new URL(consent.client.clientId).host}`;
}

export function oauthConsentRoutes(deps: ServerDeps): Pick<Handlers, 'showAuthorization' | 'submitAuthorization'> {
  const { oauth, accounts, config } = deps;
  const guard = new SigninGuard(deps.coordinator, (err) =>
    deps.log.warn({ err: (err as { code?: string }).code ?? 'unavailable' }, 'identity limit not checked: coordination unavailable'),
  );
  const secure = config.publicUrl?.startsWith('https:') ?? false;
  const publicPath = config.publicUrl ? new URL(config.publicUrl).pathname.replace(/\/+$/, '') : '';
  const cookiePath = /^[\x21-\x3a\x3c-\x7e]*$/.test(publicPath) ? `${publicPath}/oauth/authorize` : '/';

  /** The consent page for `consent` in the browser holding `nonce`, with its cookie (re)set. */
  const page = (consent: PendingConsent, nonce: string, form: { error?: string; username?: string; kept?: Set<number>; lifetime?: string } = {}, status = 200): HandlerResult => {
    const { request, client, version } = consent;
    const fields = [
      { name: 'response_type', value: 'code' },
      { name: 'client_id', value: request.clientId },
      { name: 'redirect_uri', value: request.redirectUri },
      ...(request.state !== undefined ? [{ name: 'state', value: request.state }] : []),
      { name: 'code_challenge', value: request.codeChallenge },
      { name: 'code_challenge_method', value: 'S256' },
      { name: 'resource', value: request.resource },
      { name: 'csrf', value: oauth.consentForms.token(nonce, request) },
    ];
    const lifetime = form.lifetime ?? DEFAULT_LIFETIME;
    const body = consentPage({
      clientName: client.clientName,
      clientSource: clientSource(consent),
      redirectHost: new URL(request.redirectUri).host,
      loopback: isLoopbackRedirect(request.redirectUri),
      serverName: version.name,
      serverVersion: version.version,
      serverUrl: request.resource,
      operations: version.operations.map((id, index) => ({ index, id, checked: form.kept ? form.kept.has(index) : true })),
      lifetimes: GRANT_LIFETIMES.map((l) => ({ value: l.value, label: l.label, selected: l.value === lifetime })),
      fields,
      username: form.username ?? OWNER,
      error: form.error,
    });
    const cookie = `${CONSENT_COOKIE}=${nonce}; Path=${cookiePath}; Max-Age=${CONSENT_FORM_TTL_MS / 1000}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
    return { status, type: 'text/html; charset=utf-8', headers: { ...consentHeaders(new URL(request.redirectUri).origin), 'set-cookie': cookie }, body };
  };

  /** A refusal: back to the client when it can be trusted with one, else a page saying why. */
  const refused = (error: OAuthError, redirect: string | undefined, status: 302 | 303): HandlerResult =>
    redirect
      ? { status, headers: { location: redirect, 'cache-control': 'no-store' } }
      : html(resultPage({ heading: 'This connection request cannot be used', message: `${error.message}. Start connecting again from your app.`, ok: false }), 400);

  const to = (location: string): HandlerResult => ({ status: 303, headers: { location, 'cache-control': 'no-store' } });

  return {
    async showAuthorization({ params, cookie }) {
      const checked = await oauth.authorizations.check(params);
      if (!checked.ok) return refused(checked.error, checked.redirect, 302);
      return page(checked.consent, consentNonces(cookie)[0] ?? oauth.consentForms.nonce());
    },

    async submitAuthorization({ body, origin, fetchSite, client, host, cookie }) {
      // Posted only from the Engine's own page (as the sign-in form: src/server/routes/signin.ts).
      const crossSite = fetchSite === 'cross-site' || fetchSite === 'same-site';
      if (origin === 'null' || (origin ? originHost(origin) !== host : crossSite)) {
        return html(resultPage({ heading: 'Refused', message: 'This form can only be submitted from the Engine’s own consent page.', ok: false }), 403);
      }
      const params = Object.fromEntries(REQUEST_FIELDS.map((f) => [f, body[f]]));
      const checked = await oauth.authorizations.check(params);
      if (!checked.ok) return refused(checked.error, checked.redirect, 303);
      const consent = checked.consent;
      const nonces = consentNonces(cookie);
      if (!oauth.consentForms.verify(body.csrf, nonces, consent.request)) {
        const message = 'This form was not opened in this browser, or is more than 15 minutes old. Start connecting again from your app.';
        return html(resultPage({ heading: 'Refused', message, ok: false }), 403);
      }
      if (body.decision === 'deny') return to(oauth.authorizations.deny(consent));

      const kept = new Set(Object.keys(body).filter((k) => k.startsWith('op.')).map((k) => Number(k.slice(3))));
      const username = body.username ?? '';
      const again = (error: string, status: number) => page(consent, nonces[0]!, { error, username, kept, ...(body.lifetime ? { lifetime: body.lifetime } : {}) }, status);
      const approval = approvalOf(consent.version, [...kept], body.lifetime, username);
      if (typeof approval === 'string') return again(approval, 400);
      if (!username || !body.password) return again('Sign in to approve: enter the account and its password.', 401);
      const admitted = await guard.begin(username, client, undefined);
      if ('refused' in admitted) {
        const result = again(`Too many failed sign-ins; try again in ${Math.ceil(admitted.refused.waitMs / 1000)} s.`, 429);
        return { ...result, headers: { ...result.headers, 'retry-after': retryAfterSeconds(admitted.refused.waitMs) } };
      }
      const subject = await accounts.authenticate(username, body.password);
      if (!subject) {
        await admitted.ticket.failed();
        return again('The account or password is not right.', 401);
      }
      await admitted.ticket.notAGuess();
      return to(await oauth.authorizations.approve(consent, { ...approval, subject }));
    },
  };
}
