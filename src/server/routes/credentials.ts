// CLI credentials (`svc-cli auth credentials list|revoke`): every one grants full access, so any
// holder may see them all and revoke any of them; their values are never shown.
import { EngineError } from '../../envelope/index.ts';
import type { Handlers, ServerDeps } from '../types.ts';

export function credentialRoutes(deps: ServerDeps): Pick<Handlers, 'listCliCredentials' | 'revokeCliCredential'> {
  return {
    async listCliCredentials({ principal }) {
      const rows = await deps.store.listTokens('cli');
      return {
        body: {
          credentials: rows.map(({ id, subject, createdAt, expiresAt, lastUsedAt, revokedAt }) => ({ id, subject, createdAt, expiresAt, lastUsedAt, revokedAt, current: id === principal!.id })),
        },
      };
    },

    async revokeCliCredential({ params }) {
      if (!(await deps.tokens.revoke(params.credential_id, ['cli']))) {
        throw new EngineError('ENGINE_NOT_FOUND', `no live CLI credential ${params.credential_id}; list them with \`svc-cli auth credentials list\``, { details: { field: 'credential_id' } });
      }
      return { status: 204 };
    },
  };
}
