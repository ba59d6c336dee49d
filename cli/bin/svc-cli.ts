#!/usr/bin/env node
// svc-cli: the workflow CLI of svc-engine — sign in, enable services, store secrets, publish SDK
// apps and MCP servers, manage tokens and connections, install agent skills.
// Exit codes: 0 ok, 1 failure, 2 usage. Errors are one line on stderr.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
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
import { commandWords } from '../lib/command.ts';
import { UsageError, report } from '../lib/errors.ts';
import { CLI_VERSION } from '../lib/version.ts';

const args = hideBin(process.argv);

/** `svc-cli sdk init` for `svc-cli sdk init crm --bad`: the command whose --help to suggest. */
function commandPath(): string {
  const words: string[] = [];
  for (const a of args) {
    if (a.startsWith('-') || !commandWords.has(a)) break;
    words.push(a);
  }
  return ['svc-cli', ...words].join(' ');
}

function usageError(message: string): UsageError {
  // yargs echoes unknown arguments; under `secret` they may be the secret itself, so never echo them.
  // The command is the first command word, wherever options put it (`--bucket b secret set …`).
  const command = args.findIndex((a) => !a.startsWith('-') && commandWords.has(a));
  if (args[command] === 'secret' && /^Unknown arguments?:/i.test(message)) {
    // Only `secret set <service>` names a service; any other word there may be the secret itself.
    const service = args[command + 1] === 'set' ? args[command + 2] : undefined;
    return refusedArgument(service === undefined || service.startsWith('-') ? undefined : service);
  }
  const what = message.charAt(0).toLowerCase() + message.slice(1);
  return new UsageError(what, `run \`${commandPath()} --help\` for usage`);
}

try {
  // `--version` is also a flag of some commands (`workspace service add --version v1`), so the
  // program's own version is answered here rather than by yargs' global --version.
  if (args.length === 1 && args[0] === '--version') process.stdout.write(CLI_VERSION + '\n');
  else await yargs(args)
    .scriptName('svc-cli')
    .usage('$0 <command>\n\nThe svc-engine workflow: services, secrets, SDK apps, MCP servers, tokens and skills.\nTalks to SVC_ENGINE_URL (default http://127.0.0.1:8700).')
    .command(login)
    .command(logout)
    .command(whoami)
    .command(workspace)
    .command(bucket)
    .command(secret)
    .command(sdk)
    .command(mcp)
    .command(connection)
    .command(skill)
    .example('$0 login', 'sign in through the Engine sign-in page')
    .example("$0 sdk init crm --service 'demo-crm=v1' --operation 'demo-crm=contacts/*' && $0 sdk apply", 'publish an SDK app')
    .demandCommand(1, 'choose a command')
    .recommendCommands()
    .strict()
    .version(false)
    .option('version', { type: 'boolean', global: false, describe: 'Show the svc-cli version' })
    .help()
    .alias('h', 'help')
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, err) => {
      // yargs' own parser errors (a flag without its value, say) are usage errors too, not bugs.
      if (err && err.name !== 'YError') throw err;
      throw usageError(message ?? err?.message ?? 'invalid usage');
    })
    .parseAsync();
} catch (err) {
  report(err);
}
