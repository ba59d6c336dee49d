// `svc-cli mcp connect <mcp> --client …`: the MCP server in a client's own configuration file
// (docs/guides/connect-an-agent.md; each client's file: ./client-files.ts). Without --token the
// entry is the server's URL alone and the client authorizes itself with the Engine (OAuth); with
// --token a narrowed token is issued (`mcp token create`'s path) and sent as the Authorization
// header.
import { dirname, relative, resolve } from 'node:path';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { defineCommand, repeatable } from '../../lib/command.ts';
import { session } from '../../lib/engine.ts';
import { CliError, UsageError } from '../../lib/errors.ts';
import { makeDir, writeIfChanged } from '../../lib/files.ts';
import { print } from '../../lib/output.ts';
import { CLIENTS, configOf, FORMATS, mergeConfig, type McpClient } from './client-files.ts';
import { mintToken } from './token.ts';

/** The version of `mcp` the entry points at: the active version of the server of that name, or the version of that ID. */
async function serverUrl(mcp: string): Promise<{ name: string; url: string }> {
  const s = session();
  const { servers } = await s.call(s.api.GET('/v1/mcp'));
  const found = servers.find((m) => m.versionId === mcp) ?? servers.find((m) => m.name === mcp && m.active);
  if (!found) throw new CliError(`no MCP server '${mcp}'`, 'check the name or version ID with `svc-cli mcp list`');
  return { name: found.name, url: found.url };
}

export const mcpConnect = defineCommand({
  command: 'connect <mcp>',
  describe: "Add an MCP server to a client's configuration file (Claude Code, Cursor, VS Code, Claude Desktop, Codex, Gemini CLI, Windsurf)",
  builder: (y) =>
    y
      .positional('mcp', { type: 'string', demandOption: true, describe: 'MCP server name or version ID' })
      .option('client', { choices: CLIENTS, demandOption: true, requiresArg: true, describe: 'the client whose configuration to write' })
      .option('token', { type: 'boolean', default: false, describe: 'issue a narrowed token and put it in the file (without it, the client signs in itself)' })
      .option('allow', { ...repeatable("with --token: operation ID to allow (repeatable; default every operation of the server, '*')") })
      .option('expires', { type: 'string', requiresArg: true, describe: 'with --token: when it stops working: 30m, 24h, 7d, an ISO-8601 date-time, or never (default 30d)' })
      .option('read-only', { type: 'boolean', describe: 'with --token: the token may call only read-only operations (docs/guides/approvals.md)' })
      .option('print', { type: 'boolean', default: false, describe: 'print the configuration instead of writing it' })
      .option('dir', { type: 'string', requiresArg: true, describe: 'project directory of a project file (default: the current directory)' })
      .option('file', { type: 'string', requiresArg: true, describe: "the configuration file to write (default: where the client reads it)" })
      .option('name', { type: 'string', requiresArg: true, describe: "the server's name in the file (default: the MCP server's name)" })
      .example('$0 mcp connect crm-agent --client claude-code', 'add crm-agent to ./.mcp.json; Claude Code signs in on first use')
      .example('$0 mcp connect crm-agent --client cursor --token --expires 7d', 'a token for a week in ./.cursor/mcp.json')
      .example('$0 mcp connect crm-agent --client vscode --print', 'show the .vscode/mcp.json entry without writing it')
      .example('$0 mcp connect crm-agent --client codex', 'add a [mcp_servers.crm-agent] table to ~/.codex/config.toml')
      .example('$0 mcp connect crm-agent --client claude-code --token --read-only', 'an agent that can read but never change anything'),
  handler: async (argv) => {
    if (!argv.token && (argv.allow !== undefined || argv.expires !== undefined || argv.readOnly !== undefined)) {
      const flag = argv.allow !== undefined ? '--allow' : argv.expires !== undefined ? '--expires' : '--read-only';
      throw new UsageError(`${flag} narrows the token that --token issues`, 'add --token, or leave the flag out for the sign-in (OAuth) form');
    }
    if (argv.print && (argv.file !== undefined || argv.dir !== undefined)) throw new UsageError('--print writes no file', 'leave out --file and --dir, or --print');
    if (argv.name !== undefined && !/^[\w.@-]{1,64}$/.test(argv.name)) throw new UsageError(`--name '${argv.name}' is not a server name`, 'use letters, digits, ., _, @ and - (at most 64)');
    const client = argv.client as McpClient;
    const format = FORMATS[client];
    if (argv.dir !== undefined && format.userFile) throw new UsageError(`--dir names a project directory, and ${format.label} reads the user's own file`, 'leave out --dir, or name a file with --file');
    const server = await serverUrl(argv.mcp);
    const name = argv.name ?? server.name;
    const path = resolve(argv.file ?? format.path(resolve(argv.dir ?? '.'), process.env));
    let existing: string | undefined;
    if (!argv.print && existsSync(path)) {
      try {
        existing = readFileSync(path, 'utf8');
      } catch (err) {
        throw new CliError(`cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, 'check that the path names a file you may read');
      }
      // Refused before a token is issued for it: checked with a stand-in of the token's shape, as the real one will be written.
      mergeConfig(client, path, existing, name, server.url, argv.token ? 'svc_mcp_stand-in' : undefined);
    }
    const token = argv.token ? await mintToken(argv.mcp, { allow: argv.allow ?? ['*'], expires: argv.expires ?? '30d', readOnly: argv.readOnly === true }) : undefined;
    if (argv.print) return void process.stdout.write(configOf(client, name, server.url, token?.token));
    makeDir(dirname(path));
    const outcome = writeIfChanged(path, mergeConfig(client, path, existing, name, server.url, token?.token), token ? 0o600 : undefined);
    if (token) chmodSync(path, 0o600); // a file that was there keeps its mode otherwise; it holds a token now
    const shown = relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path);
    print(`${name} for ${format.label}: ${shown} ${outcome === 'unchanged' ? 'unchanged (already up to date)' : outcome}`);
    if (token) {
      print(`  token ${token.id}: allow ${token.allow.join(' ')}${token.readOnly ? ', read-only' : ''}, expires ${token.expiresAt ?? 'never'} (\`svc-cli mcp token revoke ${token.id}\` ends it)`);
      print(`  the file holds the token: keep it out of version control`);
    } else print(`  ${format.label} signs in to the Engine the first time it connects`);
    const next = format.next?.(name, token !== undefined);
    if (next) print(`  ${next}`);
  },
});
