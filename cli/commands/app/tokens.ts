// What `mcp token` and `sdk token` share: a token's state, and revoking one by its ID.
import { defineCommand } from '../../lib/command.ts';
import { session } from '../../lib/engine.ts';
import { UsageError, looksLikeCredential } from '../../lib/errors.ts';
import { print } from '../../lib/output.ts';

const TOKEN_ID = /^tok_[0-9A-HJKMNP-TV-Z]{26}$/;

/** active, expired or revoked. */
/** A token's access as listed: read-only tokens call only read-only operations (issue 31 §3). */
export const accessText = (t: { readOnly?: boolean }) => (t.readOnly ? 'read-only' : 'read-write');

export function tokenState(t: { revokedAt: string | null; expiresAt: string | null }): string {
  if (t.revokedAt) return 'revoked';
  if (t.expiresAt && Date.parse(t.expiresAt) <= Date.now()) return 'expired';
  return 'active';
}

/**
 * `<group> token revoke <token-id>`, revoking only tokens of that group's kind; `list` is the
 * command that shows the IDs (e.g. `mcp token list <mcp>`).
 */
export function revokeTokenCommand(kind: 'sdk' | 'mcp', list: string) {
  return defineCommand({
    command: 'revoke <token-id>',
    describe: 'Revoke a token by its ID (tok_…); clients using it are refused from then on',
    builder: (y) =>
      y.positional('token-id', { type: 'string', demandOption: true, describe: `token ID from \`${list}\`` }).example(`$0 ${list.split(' ').slice(0, 2).join(' ')} revoke tok_01J…`, 'revoke one token'),
    handler: async (argv) => {
      // The token itself given by mistake is not echoed: it is a live credential.
      if (looksLikeCredential(argv.tokenId)) throw new UsageError('that looks like a token, not its ID (tok_…); it is not shown', `find the ID with \`svc-cli ${list}\``);
      if (!TOKEN_ID.test(argv.tokenId)) throw new UsageError(`'${argv.tokenId}' is not a token ID (tok_…)`, `find it with \`svc-cli ${list}\``);
      const s = session();
      await s.call(s.api.DELETE('/v1/tokens/{token_id}', { params: { path: { token_id: argv.tokenId }, query: { kind } } }), (f) =>
        f.status === 404 ? `find live tokens with \`svc-cli ${list}\`` : undefined,
      );
      print(`Revoked ${argv.tokenId}; clients using it are refused from now on.`);
    },
  });
}
