// `svc-cli secret set <service> --value-stdin`: stores the secret a service's auth uses, read from
// standard input only. Values in arguments are refused and never echoed. Effective at once.
// `svc-cli secret delete <service>`: removes it (or, with --oauth-client, the service's OAuth client).
import { defineCommand, defineGroup } from '../../lib/command.ts';
import { session, type Session } from '../../lib/engine.ts';
import { UsageError } from '../../lib/errors.ts';
import { print } from '../../lib/output.ts';
import { readSecretFromStdin } from '../../lib/stdin.ts';
import { refuseBlank } from '../../lib/usage.ts';

const STDIN_EXAMPLE = (service: string) => `\`printf %s "$API_KEY" | svc-cli secret set ${service} --value-stdin\``;

/**
 * Secret values given as arguments (positional or --value) are refused; the fail handler uses this
 * too. The hint names no service: a word given as the service may be the secret, put first by mistake.
 */
export const refusedArgument = () =>
  new UsageError('secret values are not accepted as arguments (they would end up in shell history and process lists)', `pipe the value in: ${STDIN_EXAMPLE('<service>')}`);

const secretSet = defineCommand({
  command: 'set <service>',
  describe: 'Store the secret for a service, read from standard input (effective immediately)',
  builder: (y) =>
    y
      .positional('service', { type: 'string', demandOption: true, describe: 'service name, e.g. demo-crm' })
      .option('value-stdin', { type: 'boolean', default: false, describe: 'read the secret from standard input (required)' })
      .option('oauth-client-id', { type: 'string', requiresArg: true, describe: "store an OAuth client: this client ID, with the client secret from stdin" })
      .option('bucket', { type: 'string', default: 'default', requiresArg: true, describe: 'bucket to store it in' })
      // Declared only to refuse it with a clear message; the value is never echoed.
      .option('value', { type: 'string', hidden: true, describe: 'refused: secrets are read from standard input' })
      .example('printf %s "$DEMO_CRM_KEY" | $0 secret set demo-crm --value-stdin', "store demo-crm's API key")
      .example('printf %s "$CLIENT_SECRET" | $0 secret set github --oauth-client-id Iv1.abc --value-stdin', "store github's OAuth client"),
  handler: async (argv) => {
    // Words past `secret set <service>` (after `--` yargs does not refuse them) may be the secret.
    // `--value-stdin=<value>`: yargs reads it as a boolean and drops the value, which may be the secret.
    const valued = process.argv.slice(2).some((a) => a.startsWith('--value-stdin=') || a.startsWith('--valueStdin='));
    // The hints never repeat the service word: without --value-stdin it may be the secret itself, put first.
    if (argv.value !== undefined || argv._.length > 2 || valued) throw refusedArgument();
    if (!argv.valueStdin) throw new UsageError('secret set needs --value-stdin', `pipe the value in: ${STDIN_EXAMPLE('<service>')}`);
    // An empty client ID (an unset shell variable) must not turn an OAuth client secret into the API key.
    refuseBlank('--oauth-client-id', argv.oauthClientId, "give the OAuth client's ID, or leave --oauth-client-id out to store an API key");
    refuseBlank('--bucket', argv.bucket, 'name a bucket (`svc-cli bucket list`), or leave --bucket out for the default one');
    const clientId = argv.oauthClientId;
    const value = await readSecretFromStdin(clientId !== undefined ? 'client secret' : 'secret', STDIN_EXAMPLE(argv.service));
    const s = session();
    const path = { bucket: argv.bucket, service: argv.service };
    const hint = (f: { status: number }) => (f.status === 404 ? 'check the service name (`svc-cli workspace services list`) and bucket (`svc-cli bucket list`)' : undefined);
    const flags = { bucket: '--bucket', service: '<service>', clientId: '--oauth-client-id' };
    if (clientId !== undefined) {
      await s.call(s.api.PUT('/v1/buckets/{bucket}/oauth-clients/{service}', { params: { path }, body: { clientId, clientSecret: value } }), hint, flags);
      print(`OAuth client ${clientId} for ${argv.service} stored in bucket ${argv.bucket} (effective now)${await sentTo(s, argv.bucket, `${argv.service}#oauth-client`)}.`);
      return;
    }
    await s.call(s.api.PUT('/v1/buckets/{bucket}/secrets/{service}', { params: { path }, body: { value } }), hint, flags);
    print(`Secret for ${argv.service} stored in bucket ${argv.bucket} (effective now)${await sentTo(s, argv.bucket, argv.service)}.`);
  },
});

const secretDelete = defineCommand({
  command: 'delete <service>',
  describe: "Delete a service's secret (effective immediately: calls that need it are refused)",
  builder: (y) =>
    y
      .positional('service', { type: 'string', demandOption: true, describe: 'service name, e.g. demo-crm' })
      .option('oauth-client', { type: 'boolean', default: false, describe: "delete the service's OAuth client instead (connections keep their access tokens until they expire)" })
      .option('bucket', { type: 'string', default: 'default', requiresArg: true, describe: 'bucket it is stored in' })
      .example('$0 secret delete demo-crm', "delete demo-crm's API key")
      .example('$0 secret delete github --oauth-client', "delete github's OAuth client"),
  handler: async (argv) => {
    refuseBlank('--bucket', argv.bucket, 'name a bucket (`svc-cli bucket list`), or leave --bucket out for the default one');
    const s = session();
    const path = { bucket: argv.bucket, service: argv.service };
    const hint = (f: { status: number }) => (f.status === 404 ? '`svc-cli bucket list` shows what each bucket holds' : undefined);
    const flags = { bucket: '--bucket', service: '<service>' };
    if (argv.oauthClient) {
      await s.call(s.api.DELETE('/v1/buckets/{bucket}/oauth-clients/{service}', { params: { path } }), hint, flags);
      print(`OAuth client for ${argv.service} deleted from bucket ${argv.bucket}; new connections and token refreshes for it are refused until one is set again.`);
      return;
    }
    await s.call(s.api.DELETE('/v1/buckets/{bucket}/secrets/{service}', { params: { path } }), hint, flags);
    print(`Secret for ${argv.service} deleted from bucket ${argv.bucket}; calls that need it are refused until one is set again.`);
  },
});

/**
 * `; sent only to <origin>` for what was just stored: a service repointed by someone else shows
 * here. Only a courtesy: the value is stored either way, so a failed look-up leaves it out.
 */
async function sentTo(s: Session, bucket: string, entry: string): Promise<string> {
  try {
    const { buckets } = await s.call(s.api.GET('/v1/buckets'));
    const origin = buckets.find((b) => b.name === bucket)?.secrets.find((x) => x.service === entry)?.origin;
    return origin ? `; sent only to ${origin}` : '';
  } catch {
    return '';
  }
}

export const secret = defineGroup('secret', 'Store and delete provider secrets (values read from standard input only)', [secretSet, secretDelete], [
  ['printf %s "$KEY" | $0 secret set demo-crm --value-stdin', 'store a secret'],
  ['$0 secret delete demo-crm', 'delete it'],
]);
