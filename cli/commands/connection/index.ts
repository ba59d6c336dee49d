// `svc-cli connection create|list|delete`: per-end-user OAuth connections. create starts the
// provider's consent in the browser and waits until the Engine holds an active connection; delete
// makes the Engine forget one and says whether the provider revoked its grant.
import { setTimeout as sleep } from 'node:timers/promises';
import type { components } from '../../../generated/engine-api/types.ts';
import { openInBrowser } from '../../lib/browser.ts';
import { defineCommand, defineGroup, jsonOption } from '../../lib/command.ts';
import { session, type Session } from '../../lib/engine.ts';
import { CliError, UsageError } from '../../lib/errors.ts';
import { print, printJson, printTable, progress } from '../../lib/output.ts';
import { refuseBlank } from '../../lib/usage.ts';

type Connection = components['schemas']['Connection'];

const POLL_MS = 2000;

/** `label`: where the service name came from (`--service`, `<service>`), for a refusal of it. */
async function connections(s: Session, service?: string, label = '--service'): Promise<Connection[]> {
  return (await s.call(s.api.GET('/v1/connections', { params: { query: service ? { service } : {} } }), undefined, { service: label })).connections;
}

/**
 * A connection's consent: its ID and when its consent last completed. Only a completed consent
 * changes consentedAt (a token refresh changes updatedAt, never this), so a refresh of the
 * connection being re-consented is no answer to the consent this command waits for.
 */
const consentOf = (c: Connection) => `${c.id}|${c.consentedAt}`;

const connectionCreate = defineCommand({
  command: 'create <service>',
  describe: "Connect an end user's account through the provider's OAuth consent page",
  builder: (y) =>
    y
      .positional('service', { type: 'string', demandOption: true, describe: 'service with oauth2 auth' })
      .option('end-user', { type: 'string', demandOption: true, requiresArg: true, describe: "your reference for the end user (e.g. your app's user ID)" })
      .option('auth-name', { type: 'string', requiresArg: true, describe: "the connection's name, to keep several per end user (default: default); calls pick it with selectors.authName" })
      .option('browser', { type: 'boolean', default: true, describe: 'open the consent page in a browser; --no-browser prints the URL' })
      .option('timeout', { type: 'number', default: 600, requiresArg: true, describe: 'seconds to wait for the consent' })
      .example('$0 connection create demo-crm --end-user alice', "connect alice's demo-crm account")
      .example('$0 connection create github --end-user u_42 --no-browser', 'print the consent URL to send to the user'),
  handler: async (argv) => {
    if (!(argv.timeout > 0)) throw new UsageError('--timeout must be a positive number of seconds', 'e.g. --timeout 300');
    refuseBlank('--end-user', argv.endUser, "give your reference for the end user, e.g. your app's user ID");
    refuseBlank('--auth-name', argv.authName, "name the connection, or leave --auth-name out for 'default'");
    const s = session();
    // Exactly the connection being consented: without --auth-name it is 'default', as the Engine makes it, never another of the user's.
    const authName = argv.authName ?? 'default';
    const matches = (c: Connection) => c.endUserRef === argv.endUser && c.authName === authName;
    const before = new Set((await connections(s, argv.service, '<service>')).filter(matches).map(consentOf));
    const started = await s.call(
      s.api.POST('/v1/connections', {
        body: { service: argv.service, endUserRef: argv.endUser, ...(argv.authName !== undefined ? { authName: argv.authName } : {}) },
      }),
      (f) => (f.status === 404 ? 'check the service name (`svc-cli workspace services list`)' : f.status === 409 ? 'then run this command again' : undefined),
      { service: '<service>', endUserRef: '--end-user', authName: '--auth-name' },
    );
    await openInBrowser(started.authorizeUrl, argv.browser);
    const deadline = Math.min(Date.parse(started.expiresAt) || Infinity, Date.now() + argv.timeout * 1000);
    progress(`waiting for ${argv.endUser} to finish the consent`);
    while (Date.now() < deadline) {
      await sleep(Math.min(POLL_MS, Math.max(deadline - Date.now(), 0)));
      // A consent completed since it started: a new connection, or a new consentedAt (compared for change, not order: replicas' clocks may differ).
      const done = (await connections(s, argv.service, '<service>')).find((c) => matches(c) && c.status === 'active' && !before.has(consentOf(c)));
      if (done) {
        print(`Connected ${done.service} for end user ${done.endUserRef} (connection ${done.id}, auth ${done.authName}).`);
        return;
      }
    }
    throw new CliError(
      `the consent for ${argv.service} (end user ${argv.endUser}) was not completed by ${new Date(deadline).toISOString()}`,
      'run the command again and finish the consent in the browser',
    );
  },
});

const connectionList = defineCommand({
  command: 'list',
  describe: 'List OAuth connections per end user (tokens are never shown)',
  builder: (y) =>
    jsonOption(y.option('service', { type: 'string', requiresArg: true, describe: 'only this service' }))
      .example('$0 connection list', 'every connection')
      .example('$0 connection list --service github --json', "github's connections as JSON"),
  handler: async (argv) => {
    const s = session();
    const list = await connections(s, argv.service);
    if (argv.json) return printJson({ connections: list });
    printTable(
      ['ID', 'SERVICE', 'END USER', 'AUTH', 'STATUS', 'ACCESS EXPIRES', 'UPDATED'],
      list.map((c) => [c.id, c.service, c.endUserRef, c.authName, c.status, c.accessExpiresAt, c.updatedAt ?? c.createdAt]),
      'No connections yet; create one with `svc-cli connection create <service> --end-user <ref>`.',
    );
  },
});

const CONNECTION_ID = /^con_[0-9A-HJKMNP-TV-Z]{26}$/;

const connectionDelete = defineCommand({
  command: 'delete <connection>',
  describe: "Delete an end user's connection: the Engine forgets its tokens (calls for that user are refused until they connect again) and asks the provider to revoke the grant",
  builder: (y) =>
    jsonOption(y)
      .positional('connection', { type: 'string', demandOption: true, describe: 'a connection ID (con_…), or a service name with --end-user' })
      .option('end-user', { type: 'string', requiresArg: true, describe: 'with a service name: the end user whose connection to delete' })
      .option('auth-name', { type: 'string', requiresArg: true, describe: "with a service name: the connection's name (default: default)" })
      .example('$0 connection delete demo-crm --end-user alice', "delete alice's demo-crm connection")
      .example('$0 connection delete con_01J…', 'delete a connection by its ID (`svc-cli connection list`)')
      .example('$0 connection delete con_01J… --json', 'print {connection, revocation: {revoked, reason?, message?}}'),
  handler: async (argv) => {
    const s = session();
    let id = argv.connection;
    if (!CONNECTION_ID.test(id)) {
      if (id.startsWith('con_')) throw new UsageError(`'${id}' is not a connection ID (con_ and 26 characters)`, 'find it with `svc-cli connection list`');
      if (argv.endUser === undefined) throw new UsageError('name the end user with --end-user, or give the connection ID (con_…)', 'e.g. `svc-cli connection delete demo-crm --end-user alice`');
      refuseBlank('--end-user', argv.endUser, "give your reference for the end user, e.g. your app's user ID");
      refuseBlank('--auth-name', argv.authName, "name the connection, or leave --auth-name out for 'default'");
      const authName = argv.authName ?? 'default';
      const found = (await connections(s, id, '<connection>')).find((c) => c.endUserRef === argv.endUser && c.authName === authName);
      if (!found) throw new CliError(`${id} has no connection for end user ${argv.endUser} (auth ${authName})`, 'list them with `svc-cli connection list`');
      id = found.id;
    } else if (argv.endUser !== undefined || argv.authName !== undefined) {
      throw new UsageError('--end-user and --auth-name go with a service name, not a connection ID', 'give one or the other');
    }
    const deleted = await s.call(s.api.DELETE('/v1/connections/{connection_id}', { params: { path: { connection_id: id } } }), (f) =>
      f.status === 404 ? 'list connections with `svc-cli connection list`' : undefined,
    );
    if (argv.json) return printJson(deleted);
    const { revocation } = deleted;
    // The local delete stands whatever the provider said: exit 0 either way.
    print(
      revocation.revoked
        ? `Deleted connection ${id} and revoked its grant at ${deleted.connection.service}; calls for that end user are refused until they connect again.`
        : `Deleted connection ${id} locally; the provider did not confirm revocation: ${revocation.message ?? revocation.reason}. Calls for that end user are refused until they connect again.`,
    );
  },
});

export const connection = defineGroup('connection', 'Per-end-user OAuth connections (refreshed by the Engine)', [connectionCreate, connectionList, connectionDelete], [
  ['$0 connection create demo-crm --end-user alice', 'connect an end user'],
  ['$0 connection delete demo-crm --end-user alice', 'forget it'],
]);
