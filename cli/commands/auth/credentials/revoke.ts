// `svc-cli auth credentials revoke <id>`: revokes a CLI credential (any subject's) by its ID.
import { defineCommand } from '../../../lib/command.ts';
import { session } from '../../../lib/engine.ts';
import { UsageError, looksLikeCredential } from '../../../lib/errors.ts';
import { print } from '../../../lib/output.ts';

const CREDENTIAL_ID = /^tok_[0-9A-HJKMNP-TV-Z]{26}$/;

export const credentialsRevoke = defineCommand({
  command: 'revoke <credential-id>',
  describe: 'Revoke a CLI credential by its ID (tok_…); whoever holds it is refused from then on',
  builder: (y) =>
    y
      .positional('credential-id', { type: 'string', demandOption: true, describe: 'credential ID from `svc-cli auth credentials list`' })
      .example('$0 auth credentials revoke tok_01J…', 'revoke one credential'),
  handler: async (argv) => {
    // The credential itself given by mistake is not echoed: it is a live full-access key.
    if (looksLikeCredential(argv.credentialId)) throw new UsageError('that looks like a credential, not its ID (tok_…); it is not shown', 'find the ID with `svc-cli auth credentials list`');
    if (!CREDENTIAL_ID.test(argv.credentialId)) throw new UsageError(`'${argv.credentialId}' is not a credential ID (tok_…)`, 'find it with `svc-cli auth credentials list`');
    const s = session();
    const { credentialId } = await s.call(s.api.GET('/v1/auth/whoami'));
    await s.call(s.api.DELETE('/v1/auth/credentials/{credential_id}', { params: { path: { credential_id: argv.credentialId } } }));
    const own = credentialId === argv.credentialId ? ' It was the one this CLI used: run `svc-cli login` to sign in again.' : '';
    print(`Revoked ${argv.credentialId}; whoever holds it is refused from now on.${own}`);
  },
});
