// The Engine as OAuth authorization server for its MCP servers (MCP authorization, 2025-11-25).
export { AuthorizationServer, type AuthorizationServerOptions } from './authorization-server.ts';
export type { AccessTokens } from './access.ts';
export type { Approval, AuthorizationParams, AuthorizationRequest, PendingConsent } from './authorize.ts';
export { approvalOf, CONSENT_FORM_TTL_MS, DEFAULT_LIFETIME, GRANT_LIFETIMES } from './consent.ts';
export { OAuthError, type OAuthErrorCode } from './errors.ts';
export { isLoopbackRedirect } from './redirect-uris.ts';
export type { TokenForm } from './token.ts';
