// demo-crm's OAuth 2.0 authorization server: a consent page, the authorization-code grant with
// PKCE (S256), short-lived access tokens and rotating refresh tokens.
import { createHash, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type Router from '@koa/router';
import getRawBody from 'raw-body';

export interface OAuthOptions {
  /** client_id → client_secret */
  clients: Record<string, string>;
  accessTokenTtlSeconds?: number;
}

export interface OAuthServer {
  /** Requests to the token endpoint by grant type, for tests that count refreshes. */
  tokenRequests: { authorization_code: number; refresh_token: number };
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
  const access = new Map<string, { account: string; expires: number }>();
  const refresh = new Map<string, { clientId: string; account: string }>();
  const server: OAuthServer = {
    tokenRequests: { authorization_code: 0, refresh_token: 0 },
    refuseRefresh: false,
    refreshDelayMs: 0,
    accountFor(token) {
      const entry = access.get(token);
      return entry && entry.expires > Date.now() ? entry.account : undefined;
    },
  };

  const issue = (clientId: string, account: string) => {
    const accessToken = random();
    const refreshToken = random();
    access.set(accessToken, { account, expires: Date.now() + ttl * 1000 });
    refresh.set(refreshToken, { clientId, account });
    return { access_token: accessToken, token_type: 'Bearer', expires_in: ttl, refresh_token: refreshToken, scope: 'crm' };
  };

  router.get('/oauth/authorize', (ctx) => {
    const q = ctx.query as Record<string, string>;
    if (q.response_type !== 'code' || !q.client_id || !(q.client_id in options.clients) || !q.redirect_uri || q.code_challenge_method !== 'S256' || !q.code_challenge) {
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
    const form = Object.fromEntries(new URLSearchParams(await getRawBody(ctx.req, { limit: '16kb', encoding: 'utf8' })));
    const redirect = new URL(form.redirect_uri ?? '');
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

  router.post('/oauth/token', async (ctx) => {
    const form = Object.fromEntries(new URLSearchParams(await getRawBody(ctx.req, { limit: '16kb', encoding: 'utf8' })));
    const refuse = (error: string, status = 400) => {
      ctx.status = status;
      ctx.body = { error };
    };
    if (!form.client_id || options.clients[form.client_id] !== form.client_secret) return refuse('invalid_client', 401);
    if (form.grant_type === 'authorization_code') {
      server.tokenRequests.authorization_code++;
      const grant = codes.get(form.code ?? '');
      codes.delete(form.code ?? '');
      const challenge = createHash('sha256').update(form.code_verifier ?? '').digest('base64url');
      if (!grant || grant.expires < Date.now() || grant.clientId !== form.client_id || grant.redirectUri !== form.redirect_uri || grant.challenge !== challenge) {
        return refuse('invalid_grant');
      }
      ctx.body = issue(grant.clientId, grant.account);
      return;
    }
    if (form.grant_type === 'refresh_token') {
      server.tokenRequests.refresh_token++;
      if (server.refreshDelayMs > 0) await new Promise((r) => setTimeout(r, server.refreshDelayMs));
      const grant = refresh.get(form.refresh_token ?? '');
      if (server.refuseRefresh || !grant || grant.clientId !== form.client_id) return refuse('invalid_grant');
      refresh.delete(form.refresh_token ?? ''); // rotation: a refresh token works once
      ctx.body = issue(grant.clientId, grant.account);
      return;
    }
    refuse('unsupported_grant_type');
  });

  return server;
}

export type { Koa };
