#!/usr/bin/env node
// svc-cli: the workflow CLI of svc-engine — sign in, enable services, store secrets, publish SDK
// apps and MCP servers, manage tokens and connections, install agent skills.
// Exit codes: 0 ok, 1 failure, 2 usage. Errors are one line on stderr.
import yargs, { type Argv, type MiddlewareFunction } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { auth } from '../commands/auth/index.ts';
import { login } from '../commands/auth/login.ts';
import { logout } from '../commands/auth/logout.ts';
import { whoami } from '../commands/auth/whoami.ts';
import { bucket } from '../commands/bucket/index.ts';
import { connection } from '../commands/connection/index.ts';
import { mcp } from '../commands/mcp/index.ts';
import { sdk } from '../commands/sdk/index.ts';
import { refusedArgument, secret } from '../commands/secret/index.ts';
import { skill } from '../commands/skill/index.ts';
import { workspace } from '../commands/workspace/index.ts';
import { commandTree } from '../lib/command.ts';
import { report } from '../lib/errors.ts';
import { setColor } from '../lib/output.ts';
import { setAllowInsecure } from '../lib/transport.ts';
import { locate, refuseBlankPositionals, refuseMistypedOptions, refuseRepeatedOptions, refuseWordsAfterDashes, usageFailure } from '../lib/usage.ts';
import { CLI_VERSION } from '../lib/version.ts';

const commands = [login, logout, whoami, auth, workspace, bucket, secret, sdk, mcp, connection, skill];
const tree = commandTree(commands);

// `svc-cli help sdk` is `svc-cli sdk --help` (yargs answers only a bare `svc-cli help`).
const given = hideBin(process.argv);
const args = given[0] === 'help' && given.length > 1 ? [...given.slice(1), '--help'] : given;

const ENVIRONMENT = `Environment:
  SVC_ENGINE_URL       the Engine's address (default http://127.0.0.1:8700)
  SVC_CLI_TOKEN        a CLI credential to use instead of the one \`svc-cli login\` stored
  SVC_EXECUTION_TOKEN  the SDK execution token \`sdk invoke\` sends
  XDG_CONFIG_HOME      where the credentials file lives (default ~/.config/svc-cli/)
  NO_COLOR             no colours (--no-color does the same); colours appear only on a terminal

Credentials go over plain http:// only to this machine; --allow-insecure sends them to another host too.
Exit codes: 0 ok, 1 failure, 2 usage.`;

const COLOR_FLAGS = new Set(['--color', '--no-color']);

try {
  // `svc-cli bogus --help` would print the top-level help as if all were well.
  if (locate(tree, args).unknown !== undefined && args.some((a) => a === '--help' || a === '-h')) {
    throw usageFailure('Unknown argument', args, tree, refusedArgument);
  }
  // `--version` is also a flag of some commands (`workspace service add --version v1`), so the
  // program's own version is answered here rather than by yargs' global --version; the global
  // colour flags may stand next to it.
  if (args.filter((a) => !COLOR_FLAGS.has(a)).join(' ') === '--version') process.stdout.write(CLI_VERSION + '\n');
  else await yargs(args)
    .scriptName('svc-cli')
    .locale('en') // the fail handler reads yargs' messages
    // yargs' locale files are not in the bundle install.sh ships; its English differs from its keys only here.
    .updateStrings({ 'Implications failed:': 'Missing dependent arguments:' })
    .usage('$0 <command>\n\nThe svc-engine workflow: services, secrets, SDK apps, MCP servers, tokens and skills.\nTalks to SVC_ENGINE_URL (default http://127.0.0.1:8700).')
    .command(commands)
    .epilogue(ENVIRONMENT)
    .example('$0 login', 'sign in through the Engine sign-in page')
    .example("$0 sdk init crm --service 'demo-crm=v1' --operation 'demo-crm=contacts/*' && $0 sdk apply", 'publish an SDK app')
    .demandCommand(1, 'choose a command')
    .strict()
    .version(false)
    .option('version', { type: 'boolean', global: false, describe: 'Show the svc-cli version' })
    .option('color', { type: 'boolean', global: true, hidden: true, describe: '--no-color: no colours (as NO_COLOR)' })
    .option('allow-insecure', { type: 'boolean', global: true, describe: 'send credentials to a non-loopback http:// SVC_ENGINE_URL (unencrypted)' })
    // yargs passes the command's own instance as the second argument (its types leave it out).
    .middleware(((argv: Record<string, unknown>, y: Argv) => {
      const { node } = locate(tree, args);
      refuseRepeatedOptions(argv, y, args, node.path);
      refuseMistypedOptions(argv, y, args, node, refusedArgument);
      refuseWordsAfterDashes(argv, node, refusedArgument);
      refuseBlankPositionals(argv, y, node);
      setColor(argv.color !== false);
      setAllowInsecure(argv.allowInsecure === true);
    }) as unknown as MiddlewareFunction, true)
    .help()
    .alias('h', 'help')
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, err) => {
      // yargs' own parser errors (a flag without its value, say) are usage errors too, not bugs.
      if (err && err.name !== 'YError') throw err;
      throw usageFailure(message ?? err?.message ?? 'invalid usage', args, tree, refusedArgument);
    })
    .parseAsync();
} catch (err) {
  report(err);
}
