// `svc-cli auth credentials list`: the Engine's CLI credentials (each grants full access), never their values.
import { defineCommand, jsonOption } from '../../../lib/command.ts';
import { session } from '../../../lib/engine.ts';
import { print, printJson, printTable } from '../../../lib/output.ts';
import { tokenState } from '../../app/tokens.ts';

export const credentialsList = defineCommand({
  command: 'list',
  describe: 'List CLI credentials: ID, subject, expiry, last use (live ones; --all adds expired and revoked)',
  builder: (y) =>
    jsonOption(y.option('all', { type: 'boolean', default: false, describe: 'also list expired and revoked credentials' }))
      .example('$0 auth credentials list', 'live CLI credentials; the one this CLI uses is marked')
      .example('$0 auth credentials list --all --json', 'every one, as JSON'),
  handler: async (argv) => {
    const s = session();
    const { credentials } = await s.call(s.api.GET('/v1/auth/credentials'));
    const shown = argv.all ? credentials : credentials.filter((c) => tokenState(c) === 'active');
    if (argv.json) return printJson({ credentials: shown });
    printTable(
      ['ID', 'SUBJECT', 'CREATED', 'EXPIRES', 'LAST USED', 'STATE'],
      shown.map((c) => [c.id, c.subject, c.createdAt, c.expiresAt ?? 'never', c.lastUsedAt ?? 'never', `${tokenState(c)}${c.current ? ' (this CLI)' : ''}`]),
      argv.all ? 'No CLI credentials.' : 'No live CLI credentials (--all lists expired and revoked ones).',
    );
    if (shown.length) print('Revoke one with `svc-cli auth credentials revoke <id>`.');
  },
});
