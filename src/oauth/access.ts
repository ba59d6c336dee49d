// The resource server's side: an access token presented on an MCP request is accepted only for
// the one MCP server version its grant names (its audience, RFC 8707), while the token and its
// grant are live. The answer is the grant's token row, so the rest of the Engine (sessions, the
// allowlist, revocation checks mid-script) treats a grant like a static MCP token.
import { EngineError } from '../envelope/index.ts';
import { hashToken } from '../ids/index.ts';
import type { Tokens } from '../identity/index.ts';
import type { Store, TokenRow } from '../store/index.ts';
import { OAuthError } from './errors.ts';
import { resourceMetadataUrl } from './metadata.ts';
import { isSecret, PREFIXES } from './secrets.ts';
import type { Issuer } from './types.ts';

export class AccessTokens {
  private readonly store: Store;
  private readonly tokens: Tokens;
  private readonly issuer: Issuer;

  constructor(deps: { store: Store; tokens: Tokens; issuer: Issuer }) {
    this.store = deps.store;
    this.tokens = deps.tokens;
    this.issuer = deps.issuer;
  }

  /** Whether a bearer is meant as one of these access tokens (rather than a static `svc_mcp_` token). */
  claims(bearer: string | undefined): bearer is string {
    return bearer !== undefined && bearer.startsWith(PREFIXES.access);
  }

  /** The grant's token row for an access token valid on `versionId`; invalid_token otherwise. */
  async verify(bearer: string, versionId: string): Promise<TokenRow> {
    const read = isSecret('access', bearer) ? await this.store.grants.readToken(hashToken(bearer)) : null;
    if (!read || read.token.kind !== 'access') throw new OAuthError('invalid_token', 'the access token is not one this Engine issued');
    if (!(Date.parse(read.token.expiresAt) > Date.now())) throw new OAuthError('invalid_token', 'the access token has expired; refresh it');
    if (read.grant.versionId !== versionId) {
      throw new OAuthError('invalid_token', `the access token was issued for another MCP server (${read.grant.resource}); authorize this one`);
    }
    try {
      return this.tokens.admit(read.principal);
    } catch (err) {
      if (err instanceof EngineError) throw new OAuthError('invalid_token', err.message.replace('bearer token', 'grant'));
      throw err;
    }
  }

  /**
   * The WWW-Authenticate challenge of a 401 on `versionId` (RFC 6750 §3, RFC 9728 §5.1): where its
   * resource metadata is and, when a token was presented, why it was refused.
   */
  challenge(versionId: string, refusal?: OAuthError): string {
    const quoted = (text: string) => `"${text.replace(/["\\]/g, '\\$&').replace(/[^\x20-\x7e]/g, '?')}"`;
    const parts = [`resource_metadata=${quoted(resourceMetadataUrl(this.issuer(), versionId))}`];
    if (refusal) parts.push(`error=${quoted(refusal.code)}`, `error_description=${quoted(refusal.message)}`);
    return `Bearer ${parts.join(', ')}`;
  }
}
