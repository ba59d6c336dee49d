// The token endpoint (RFC 6749 §4.1.3 and §6, OAuth 2.1): a code becomes a grant with its first
// access and refresh tokens; a refresh token becomes new ones and is spent. Access tokens are
// short-lived; refresh tokens rotate, and one presented again after it was spent means it leaked
// (or a client raced itself): the whole grant is revoked (OAuth 2.1 §4.3.1). The same goes for a
// code presented twice (RFC 6749 §4.1.2).
import { hashToken } from '../ids/index.ts';
import type { Tokens } from '../identity/index.ts';
import type { GrantTokenRow, Store } from '../store/index.ts';
import { OAuthError } from './errors.ts';
import { verifierMatches } from './pkce.ts';
import { isSecret, newSecret } from './secrets.ts';

/** A refresh token unused this long expires; using it issues a new one (rotation), so an active client never sees it. */
export const REFRESH_IDLE_MS = 30 * 24 * 60 * 60 * 1000;

/** The form fields of a token request, each at most once. */
export type TokenForm = Record<string, string | undefined>;

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

export class TokenEndpoint {
  private readonly store: Store;
  private readonly tokens: Tokens;
  private readonly accessTtlSeconds: number;

  constructor(deps: { store: Store; tokens: Tokens; accessTtlSeconds: number }) {
    this.store = deps.store;
    this.tokens = deps.tokens;
    this.accessTtlSeconds = deps.accessTtlSeconds;
  }

  async exchange(form: TokenForm): Promise<TokenAnswer> {
    const grantType = form.grant_type;
    if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
    if (!form.client_id) throw new OAuthError('invalid_request', 'client_id is required (clients here are public: no secret, PKCE instead)');
    if (grantType === 'authorization_code') return this.redeemCode(form, form.client_id);
    if (grantType === 'refresh_token') return this.refresh(form, form.client_id);
    throw new OAuthError('unsupported_grant_type', "grant_type must be 'authorization_code' or 'refresh_token'");
  }

  /** A new access token and refresh token of `grantId`; the refresh token never outlives the grant. */
  private issue(grantId: string, grantExpiresAt: string | null, now: number): { answer: TokenAnswer; rows: GrantTokenRow[] } {
    const access = newSecret('access');
    const refresh = newSecret('refresh');
    const until = (ms: number) => new Date(grantExpiresAt ? Math.min(ms, Date.parse(grantExpiresAt)) : ms).toISOString();
    const createdAt = new Date(now).toISOString();
    return {
      answer: { access_token: access, token_type: 'Bearer', expires_in: this.accessTtlSeconds, refresh_token: refresh },
      rows: [
        { hash: hashToken(access), grantId, kind: 'access', createdAt, expiresAt: until(now + this.accessTtlSeconds * 1000), spentAt: null },
        { hash: hashToken(refresh), grantId, kind: 'refresh', createdAt, expiresAt: until(now + REFRESH_IDLE_MS), spentAt: null },
      ],
    };
  }

  private async revokeGrant(grantId: string) {
    await this.tokens.revoke(grantId, ['mcp']);
  }

  private async redeemCode(form: TokenForm, clientId: string): Promise<TokenAnswer> {
    const { code, redirect_uri: redirectUri, code_verifier: verifier, resource } = form;
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    if (!redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required: the one the authorization request named');
    if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is required: this Engine takes PKCE (S256) only');
    const row = isSecret('code', code) ? await this.store.grants.getCode(hashToken(code)) : null;
    if (!row) throw new OAuthError('invalid_grant', 'code is not an authorization code this Engine issued');
    if (row.usedAt) {
      if (row.grantId) await this.revokeGrant(row.grantId);
      throw new OAuthError('invalid_grant', 'code was already exchanged; the grant it made is revoked');
    }
    const now = Date.now();
    if (!(Date.parse(row.expiresAt) > now)) throw new OAuthError('invalid_grant', 'code has expired; start the authorization again');
    if (row.clientId !== clientId) throw new OAuthError('invalid_grant', 'code was issued to another client_id');
    if (row.redirectUri !== redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri is not the one the authorization request named');
    if (resource !== undefined && resource !== row.resource) throw new OAuthError('invalid_target', `resource must be ${row.resource}, the MCP server the person approved`);
    if (!verifierMatches(verifier, row.codeChallenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE S256)');
    if (row.grantExpiresAt && !(Date.parse(row.grantExpiresAt) > now)) throw new OAuthError('invalid_grant', 'the access approved has expired already');
    const { row: principal } = this.tokens.mint('mcp', row.serverName, { allow: row.allow, expiresAt: row.grantExpiresAt });
    const { answer, rows } = this.issue(principal.id, row.grantExpiresAt, now);
    const grant = {
      id: principal.id,
      clientId,
      clientName: row.clientName,
      redirectUri: row.redirectUri,
      versionId: row.versionId,
      resource: row.resource,
      approvedBy: row.approvedBy,
      createdAt: new Date(now).toISOString(),
    };
    if (!(await this.store.grants.redeemCode(row.hash, new Date(now).toISOString(), { principal, grant, tokens: rows }))) {
      // Another exchange of the same code won the race: treated as a code used twice.
      const again = await this.store.grants.getCode(row.hash);
      if (again?.grantId) await this.revokeGrant(again.grantId);
      throw new OAuthError('invalid_grant', 'code was already exchanged; the grant it made is revoked');
    }
    return answer;
  }

  private async refresh(form: TokenForm, clientId: string): Promise<TokenAnswer> {
    const presented = form.refresh_token;
    if (!presented) throw new OAuthError('invalid_request', 'refresh_token is required');
    const read = isSecret('refresh', presented) ? await this.store.grants.readToken(hashToken(presented)) : null;
    if (!read || read.token.kind !== 'refresh') throw new OAuthError('invalid_grant', 'refresh_token is not a refresh token this Engine issued');
    const { token, grant, principal } = read;
    if (grant.clientId !== clientId) throw new OAuthError('invalid_grant', 'refresh_token was issued to another client_id');
    if (principal.revokedAt) throw new OAuthError('invalid_grant', 'the grant was revoked; authorize again');
    if (token.spentAt) {
      await this.revokeGrant(grant.id);
      throw new OAuthError('invalid_grant', 'refresh_token was already used; the grant is revoked, as a reused refresh token may have been stolen');
    }
    const now = Date.now();
    if (principal.expiresAt && !(Date.parse(principal.expiresAt) > now)) throw new OAuthError('invalid_grant', 'the grant has expired; authorize again');
    if (!(Date.parse(token.expiresAt) > now)) throw new OAuthError('invalid_grant', 'refresh_token has expired; authorize again');
    if (form.resource !== undefined && form.resource !== grant.resource) throw new OAuthError('invalid_target', `resource must be ${grant.resource}, the MCP server of this grant`);
    const { answer, rows } = this.issue(grant.id, principal.expiresAt, now);
    if (!(await this.store.grants.rotateRefresh(token.hash, new Date(now).toISOString(), { tokens: rows }))) {
      await this.revokeGrant(grant.id);
      throw new OAuthError('invalid_grant', 'refresh_token was already used; the grant is revoked, as a reused refresh token may have been stolen');
    }
    return answer;
  }
}
