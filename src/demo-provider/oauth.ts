// demo-crm's OAuth 2.0 authorization server: a consent page, the authorization-code grant with
// PKCE (S256), short-lived access tokens, rotating refresh tokens and token revocation (RFC 7009).
// Like a real provider it redirects only to a registered redirect URI: by default the Engine's
// OAuth callback on loopback (RFC 8252 §7.3: any port), or exactly the URIs registered in options.
import { createHash, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type Router from '@koa/router';
import getRawBody from 'raw-body';

export interface OAuthOptions {
  /** client_id → client_secret */
  clients: Record<string, string>;
  accessTokenTtlSeconds?: number;
  /** The redirect URIs registered for every client, matched exactly; default: the loopback callback rule (see redirectAllowed). */
  redirectUris?: string[];
}

/** The Engine's OAuth callback path: the one path a loopback redirect URI may have. */
const ENGINE_CALLBACK_PATH = '/v1/oauth/callback';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether the authorization server may redirect to `uri`: one of `registered` exactly when any are,
 * else an http URI on a loopback host (any port) whose path is the Engine's callback, with no
 * credentials, query or fragment.
 */
export function redirectAllowed(uri: string, registered: readonly string[]): boolean {
  if (registered.length > 0) return registered.includes(uri);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  // The parsed form must be the given text: `http://127.0.0.1:1/v1/oauth/callback/../x` is not the callback.
  return (
    url.protocol === 'http:' &&
    LOOPBACK_HOSTS.has(url.hostname) &&
    url.pathname === ENGINE_CALLBACK_PATH &&
    !url.username &&
    !url.password &&
    !url.search &&
    !url.hash &&
    url.href === uri
  );
}

export interface OAuthServer {
  /** Requests to the token endpoint by grant type, for tests that count refreshes. */
  tokenRequests: { authorization_code: number; refresh_token: number };
  /** Revocation requests, in order: the token type hint, and whether the token named a grant that was then revoked. */
  revocations: { tokenTypeHint: string | null; revoked: boolean }[];
  /** The registered redirect URIs (see OAuthOptions.redirectUris); more may be registered while it runs. */
  redirectUris: string[];
  /** While true, every refresh is refused with invalid_grant. */
  refuseRefresh: boolean;
  /** Milliseconds each refresh waits before it is answered (tests that need refreshes to overlap). */
  refreshDelayMs: number;
  /** The account an access token acts for, or undefined when it is unknown or expired. */
  accountFor(accessToken: string): string | undefined;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const random = () => randomBytes(24).toString('base64url');

export function mountOAuth(router: Router, options: OAuthOptions): OAuthServer {
  const ttl = options.accessTokenTtlSeconds ?? 300;
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; account: string; expires: number }>();
  // Every token belongs to a grant (one consent), which its refreshes keep: revoking one token revokes them all.
  const access = new Map<string, { clientId: string; account: string; grant: string; expires: number }>();
  const refresh = new Map<string, { clientId: string; account: string; grant: string }>();
  const server: OAuthServer = {
    tokenRequests: { authorization_code: 0, refresh_token: 0 },
    revocations: [],
    redirectUris: [...(options.redirectUris ?? [])],
    refuseRefresh: false,
    refreshDelayMs: 0,
    accountFor(token) {
      const entry = access.get(token);
      return entry && entry.expires > Date.now() ? entry.account : undefined;
    },
  };

  const issue = (clientId: string, account: string, grant = random()) => {
    const accessToken = random();
    const refreshToken = random();
    access.set(accessToken, { clientId, account, grant, expires: Date.now() + ttl * 1000 });
    refresh.set(refreshToken, { clientId, account, grant });
    return { access_token: accessToken, token_type: 'Bearer', expires_in: ttl, refresh_token: refreshToken, scope: 'crm' };
  };

  const readForm = async (ctx: Koa.Context) => Object.fromEntries(new URLSearchParams(await getRawBody(ctx.req, { limit: '16kb', encoding: 'utf8' })));
  const knownClient = (clientId: string | undefined): clientId is string => clientId !== undefined && Object.hasOwn(options.clients, clientId);
  /**
   * RFC 6749 §4.1.2.1: with an unknown client or a redirect URI not registered for it, the person is
   * told so on an error page and never redirected (the URI could be anyone's).
   */
  const refuseAuthorization = (ctx: Koa.Context, params: Record<string, string | undefined>) => {
    const problem = !knownClient(params.client_id)
      ? 'unknown client_id'
      : !params.redirect_uri || !redirectAllowed(params.redirect_uri, server.redirectUris)
        ? 'redirect_uri is not registered for this client'
        : undefined;
    if (problem === undefined) return false;
    ctx.status = 400;
    ctx.type = 'text/html';
    ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization error · demo-crm</title></head><body><main>
<h1>This authorization request is invalid</h1><p>${esc(problem)}.</p></main></body></html>`;
    return true;
  };

  router.get('/oauth/authorize', (ctx) => {
    const q = ctx.query as Record<string, string>;
    if (refuseAuthorization(ctx, q)) return;
    if (q.response_type !== 'code' || q.code_challenge_method !== 'S256' || !q.code_challenge) {
      ctx.status = 400;
      ctx.body = 'invalid authorization request';
      return;
    }
    const hidden = ['client_id', 'redirect_uri', 'state', 'code_challenge'].map((k) => `<input type="hidden" name="${k}" value="${esc(q[k] ?? '')}">`).join('');
    ctx.type = 'text/html';
    ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize · demo-crm</title></head><body><main>
<h1>Allow svc-engine to use your demo-crm account?</h1>
<form method="post" action="/oauth/authorize">${hidden}
<label for="account">demo-crm account</label> <input id="account" name="account" required value="">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></main></body></html>`;
  });

  router.post('/oauth/authorize', async (ctx) => {
    const form = await readForm(ctx);
    // The form is checked again: it is posted by whoever wants to, not only by the page above.
    if (refuseAuthorization(ctx, form)) return;
    const redirect = new URL(form.redirect_uri!);
    if (form.state) redirect.searchParams.set('state', form.state);
    if (form.decision !== 'allow' || !form.account) {
      redirect.searchParams.set('error', 'access_denied');
    } else {
      const code = random();
      codes.set(code, { clientId: form.client_id ?? '', redirectUri: form.redirect_uri ?? '', challenge: form.code_challenge ?? '', account: form.account, expires: Date.now() + 60_000 });
      redirect.searchParams.set('code', code);
    }
    ctx.redirect(redirect.href);
  });

  /** The form of a request a client authenticated with its secret, or undefined once refused (invalid_client). */
  const clientForm = async (ctx: Koa.Context) => {
    const form = await readForm(ctx);
    if (knownClient(form.client_id) && options.clients[form.client_id] === form.client_secret) return form;
    refuse(ctx, 'invalid_client', 401);
    return undefined;
  };
  const refuse = (ctx: Koa.Context, error: string, status = 400) => {
    ctx.status = status;
    ctx.body = { error };
  };

  router.post('/oauth/token', async (ctx) => {
    const form = await clientForm(ctx);
    if (!form) return;
    if (form.grant_type === 'authorization_code') {
      server.tokenRequests.authorization_code++;
      const grant = codes.get(form.code ?? '');
      codes.delete(form.code ?? '');
      const challenge = createHash('sha256').update(form.code_verifier ?? '').digest('base64url');
      if (!grant || grant.expires < Date.now() || grant.clientId !== form.client_id || grant.redirectUri !== form.redirect_uri || grant.challenge !== challenge) {
        return refuse(ctx, 'invalid_grant');
      }
      ctx.body = issue(grant.clientId, grant.account);
      return;
    }
    if (form.grant_type === 'refresh_token') {
      server.tokenRequests.refresh_token++;
      if (server.refreshDelayMs > 0) await new Promise((r) => setTimeout(r, server.refreshDelayMs));
      const grant = refresh.get(form.refresh_token ?? '');
      if (server.refuseRefresh || !grant || grant.clientId !== form.client_id) return refuse(ctx, 'invalid_grant');
      refresh.delete(form.refresh_token ?? ''); // rotation: a refresh token works once
      ctx.body = issue(grant.clientId, grant.account, grant.grant);
      return;
    }
    refuse(ctx, 'unsupported_grant_type');
  });

  // RFC 7009: revoking a refresh or access token revokes its whole grant, every token issued under
  // it. A token the server does not know (expired, revoked already) is answered 200 all the same.
  router.post('/oauth/revoke', async (ctx) => {
    const form = await clientForm(ctx);
    if (!form) return;
    if (!form.token) return refuse(ctx, 'invalid_request');
    const hint = form.token_type_hint ?? null;
    if (hint !== null && hint !== 'refresh_token' && hint !== 'access_token') return refuse(ctx, 'unsupported_token_type');
    // The hint says where to look first; the other kind is searched too (RFC 7009 §2.1).
    const found = hint === 'access_token' ? (access.get(form.token) ?? refresh.get(form.token)) : (refresh.get(form.token) ?? access.get(form.token));
    if (found && found.clientId !== form.client_id) return refuse(ctx, 'invalid_grant'); // issued to another client
    if (found) {
      for (const tokens of [access, refresh] as const) for (const [token, entry] of tokens) if (entry.grant === found.grant) tokens.delete(token);
    }
    server.revocations.push({ tokenTypeHint: hint, revoked: found !== undefined });
    ctx.status = 200;
    ctx.body = '';
  });

  return server;
}

export type { Koa };
