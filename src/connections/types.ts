// The shapes connections are handled in: what is sealed per connection, the OAuth client a service
// is set up with, and what callers see.
import type { ConnectionRow } from '../store/index.ts';

export const DEFAULT_AUTH_NAME = 'default';

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** Where the tokens may be sent: the service's origin at consent (absent: sealed before binding). */
  origin?: string;
}

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

export interface ConnectionView {
  id: string;
  service: string;
  endUserRef: string;
  authName: string;
  status: ConnectionRow['status'];
  accessExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  consentedAt: string;
}

/**
 * Whether the provider confirmed revoking a deleted connection's grant. When not, `reason` says why:
 * the service declares no revocation endpoint (not_supported); the Engine did not send the request
 * (not_attempted: the service is no longer enabled, its OAuth client is gone, or it is now reached
 * somewhere the tokens were not issued for); the endpoint did not answer in time (unreachable); or it
 * answered an error (refused). `message` says it in words, never with a token or secret in it.
 */
export type Revocation = { revoked: true } | { revoked: false; reason: 'not_supported' | 'not_attempted' | 'unreachable' | 'refused'; message: string };

