// Token revocation (RFC 7009): a client signing out revokes its grant. Revoking either of its
// tokens revokes the whole grant, as revoking it with `svc-cli mcp token revoke` does. A token
// that is unknown, or already dead, is answered like a revoked one (§2.2).
import { hashToken } from '../ids/index.ts';
import type { Tokens } from '../identity/index.ts';
import type { Store } from '../store/index.ts';
import { OAuthError } from './errors.ts';
import { isSecret } from './secrets.ts';

export async function revokeByToken(deps: { store: Store; tokens: Tokens }, form: Record<string, string | undefined>): Promise<void> {
  const { token, client_id: clientId } = form;
  if (!token) throw new OAuthError('invalid_request', 'token is required');
  if (!clientId) throw new OAuthError('invalid_request', 'client_id is required');
  const hash = isSecret('access', token) || isSecret('refresh', token) ? hashToken(token) : undefined;
  const read = hash ? await deps.store.grants.readToken(hash) : null;
  if (!read) return;
  if (read.grant.clientId !== clientId) throw new OAuthError('unauthorized_client', 'token was not issued to this client_id');
  await deps.tokens.revoke(read.grant.id, ['mcp']);
}
