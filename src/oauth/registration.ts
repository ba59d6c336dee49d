// Dynamic Client Registration (RFC 7591), for clients that predate metadata documents. Every
// client is public: it authenticates the code exchange with PKCE, never a secret, so a requested
// secret-based token_endpoint_auth_method is answered as `none` (RFC 7591 §3.2.1 lets the server
// replace requested values, and the client reads what it got).
import { ulid } from '../ids/index.ts';
import type { Store } from '../store/index.ts';
import { clientName } from './client-documents.ts';
import { OAuthError } from './errors.ts';
import { redirectUriProblem } from './redirect-uris.ts';

const MAX_REDIRECT_URIS = 20;
export const REGISTERED_GRANT_TYPES = ['authorization_code', 'refresh_token'];

export async function registerClient(store: Store['grants'], body: unknown, now = new Date()) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'the body must be a JSON object of client metadata');
  const m = body as Record<string, unknown>;
  if (!Array.isArray(m.redirect_uris) || m.redirect_uris.length === 0 || m.redirect_uris.length > MAX_REDIRECT_URIS) {
    throw new OAuthError('invalid_redirect_uri', `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`);
  }
  for (const [i, uri] of m.redirect_uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', `redirect_uris[${i}] ${problem}`);
  }
  if (m.grant_types !== undefined && !(Array.isArray(m.grant_types) && m.grant_types.includes('authorization_code'))) {
    throw new OAuthError('invalid_client_metadata', 'grant_types must include authorization_code (the only grant a client starts with here)');
  }
  if (m.response_types !== undefined && !(Array.isArray(m.response_types) && m.response_types.includes('code'))) {
    throw new OAuthError('invalid_client_metadata', 'response_types must include code');
  }
  const name = m.client_name === undefined ? null : clientName(m.client_name);
  if (name === undefined) throw new OAuthError('invalid_client_metadata', 'client_name must be text of 1 to 200 characters without control characters');
  const row = { clientId: `mcpc_${ulid()}`, clientName: name, redirectUris: m.redirect_uris as string[], createdAt: now.toISOString() };
  await store.insertClient(row);
  return {
    client_id: row.clientId,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...(name !== null ? { client_name: name } : {}),
    redirect_uris: row.redirectUris,
    grant_types: REGISTERED_GRANT_TYPES,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}
