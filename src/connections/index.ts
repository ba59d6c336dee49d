export { Connections, REFRESH_LOCK_TTL_MS, REFRESH_WAIT_MS } from './connections.ts';
export { OAUTH_ERROR_CODE } from './oauth-endpoints.ts';
export { DEFAULT_AUTH_NAME, type ConnectionView, type Revocation } from './types.ts';
export { oauthClientKey, serviceOfVaultEntry } from './vault-entries.ts';
