// The authorization endpoint's decisions (RFC 6749 §4.1, OAuth 2.1, RFC 8707): which requests may
// be shown to a person for consent, and what their approval or denial sends back to the client.
// A request whose client or redirect URI cannot be trusted is never redirected (RFC 6749
// §4.1.2.1): the person sees why instead. Every other refusal goes back to the client.
import { hashToken } from '../ids/index.ts';
import type { AppVersionRow, Store } from '../store/index.ts';
import type { Clients } from './clients.ts';
import { OAuthError } from './errors.ts';
import { resourceOf, versionOfResource } from './metadata.ts';
import { isChallenge } from './pkce.ts';
import { redirectUriRegistered } from './redirect-uris.ts';
import { newSecret } from './secrets.ts';
import type { ClientMetadata, Issuer } from './types.ts';

const MAX_STATE = 1024;

/** The parameters of one authorization request that the consent form carries back. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  resource: string;
}

/** A request fit to be shown for consent, with what the page shows. */
export interface PendingConsent {
  request: AuthorizationRequest;
  client: ClientMetadata;
  version: AppVersionRow;
}

/** What the person decided on the consent page. */
export interface Approval {
  subject: string;
  /** The operations kept; null: every operation of the version. */
  allow: string[] | null;
  /** When the grant ends; null: when it is revoked. */
  expiresAt: string | null;
}

export type CheckedRequest = { ok: true; consent: PendingConsent } | { ok: false; error: OAuthError; redirect: string | undefined };

/** The query parameters the authorization endpoint reads; each appears at most once (RFC 6749 §3.1). */
export type AuthorizationParams = Record<string, string | string[] | undefined>;

export class Authorizations {
  private readonly clients: Clients;
  private readonly store: Store;
  private readonly issuer: Issuer;
  private readonly codeTtlSeconds: number;

  constructor(deps: { clients: Clients; store: Store; issuer: Issuer; codeTtlSeconds: number }) {
    this.clients = deps.clients;
    this.store = deps.store;
    this.issuer = deps.issuer;
    this.codeTtlSeconds = deps.codeTtlSeconds;
  }

  /** Checks a request in RFC 6749's order: client and redirect URI first (not redirected), then the rest (redirected). */
  async check(params: AuthorizationParams): Promise<CheckedRequest> {
    const refuse = (error: OAuthError, redirect?: string): CheckedRequest => ({ ok: false, error, redirect });
    const repeated = Object.keys(params).find((k) => Array.isArray(params[k]));
    const one = (name: string) => (typeof params[name] === 'string' && params[name] !== '' ? (params[name] as string) : undefined);
    let client: ClientMetadata;
    try {
      if (repeated === 'client_id' || repeated === 'redirect_uri') throw new OAuthError('invalid_request', `${repeated} is given more than once`);
      client = await this.clients.resolve(one('client_id'));
    } catch (err) {
      if (err instanceof OAuthError) return refuse(err);
      throw err;
    }
    const redirectUri = one('redirect_uri');
    if (!redirectUri) return refuse(new OAuthError('invalid_request', 'redirect_uri is required'));
    if (!redirectUriRegistered(client.redirectUris, redirectUri)) {
      return refuse(new OAuthError('invalid_request', `redirect_uri ${redirectUri} is not one of the redirect URIs registered for client ${client.clientId}`));
    }
    const state = one('state');
    const back = (error: OAuthError) => refuse(error, this.redirect(redirectUri, { error: error.code, error_description: error.message, state }));
    if (repeated) return back(new OAuthError('invalid_request', `${repeated} is given more than once`));
    if (state !== undefined && state.length > MAX_STATE) return back(new OAuthError('invalid_request', `state is longer than ${MAX_STATE} characters`));
    if (one('response_type') !== 'code') return back(new OAuthError('unsupported_response_type', "response_type must be 'code'"));
    const codeChallenge = one('code_challenge');
    if (!codeChallenge) return back(new OAuthError('invalid_request', 'code_challenge is required: PKCE with S256'));
    if (one('code_challenge_method') !== 'S256') return back(new OAuthError('invalid_request', "code_challenge_method must be 'S256'"));
    if (!isChallenge(codeChallenge)) return back(new OAuthError('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier (43 characters)'));
    const resource = one('resource');
    if (!resource) return back(new OAuthError('invalid_target', "resource is required: the URL of the MCP server the token is for (RFC 8707)"));
    const versionId = versionOfResource(this.issuer(), resource);
    const version = versionId ? await this.store.getVersion('mcp', versionId) : null;
    if (!version) return back(new OAuthError('invalid_target', `resource ${resource} is not an MCP server of this Engine (its URLs are ${this.issuer()}/mcp/<version_id>)`));
    return {
      ok: true,
      consent: { client, version, request: { clientId: client.clientId, redirectUri, state, codeChallenge, resource: resourceOf(this.issuer(), version.versionId) } },
    };
  }

  /** Issues a code for what the person approved and returns where the browser goes with it. */
  async approve(consent: PendingConsent, approval: Approval): Promise<string> {
    const code = newSecret('code');
    const now = Date.now();
    const { request, client, version } = consent;
    await this.store.grants.insertCode({
      hash: hashToken(code),
      clientId: request.clientId,
      clientName: client.clientName,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      versionId: version.versionId,
      resource: request.resource,
      serverName: version.name,
      approvedBy: approval.subject,
      allow: approval.allow,
      grantExpiresAt: approval.expiresAt,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + this.codeTtlSeconds * 1000).toISOString(),
      usedAt: null,
      grantId: null,
    });
    return this.redirect(request.redirectUri, { code, state: request.state });
  }

  /** Where the browser goes when the person denies: the client learns access_denied. */
  deny(consent: PendingConsent): string {
    return this.redirect(consent.request.redirectUri, { error: 'access_denied', error_description: 'the person denied access', state: consent.request.state });
  }

  /** The redirect URI with the answer's parameters and the issuer (RFC 9207), keeping its own query. */
  private redirect(redirectUri: string, answer: Record<string, string | undefined>): string {
    const url = new URL(redirectUri);
    for (const [k, v] of Object.entries(answer)) if (v !== undefined) url.searchParams.set(k, v);
    url.searchParams.set('iss', this.issuer());
    return url.href;
  }
}
