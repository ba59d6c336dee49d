// `svc-cli whoami`: the identity behind the CLI credential in use.
import { defineCommand, jsonOption } from '../../lib/command.ts';
import { session } from '../../lib/engine.ts';
import { print, printJson } from '../../lib/output.ts';

export const whoami = defineCommand({
  command: 'whoami',
  describe: 'Show the signed-in identity',
  builder: (y) => jsonOption(y).example('$0 whoami', 'show who the CLI acts as').example('$0 whoami --json', 'the same as JSON'),
  handler: async (argv) => {
    const s = session();
    const who = await s.call(s.api.GET('/v1/auth/whoami'));
    if (argv.json) return printJson({ engineUrl: s.url, ...who });
    const from = s.credential.source === 'env' ? ' (credential from SVC_CLI_TOKEN)' : '';
    print(`Logged in to ${s.url} as ${who.subject}${from}`);
    print(`  credential  ${who.credentialId}, created ${who.createdAt}, expires ${who.expiresAt ?? 'never'}`);
  },
});
