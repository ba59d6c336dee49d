// `svc-cli mcp connect <mcp> --client …`: the MCP server in a client's own configuration file
// (docs/guides/connect-an-agent.md). Without --token the entry is the server's URL alone and the
// client authorizes itself with the Engine (OAuth); with --token a narrowed token is issued
// (`mcp token create`'s path) and sent as the Authorization header. The entry is merged into the
// file: every other entry and key stays, and so do comments where the client allows them (VS Code).
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { defineCommand, repeatable } from '../../lib/command.ts';
import { session } from '../../lib/engine.ts';
import { CliError, UsageError } from '../../lib/errors.ts';
import { makeDir, writeIfChanged } from '../../lib/files.ts';
import { print } from '../../lib/output.ts';
import { mintToken } from './token.ts';

export const CLIENTS = ['claude-code', 'cursor', 'vscode', 'claude-desktop'] as const;
export type McpClient = (typeof CLIENTS)[number];

/** The variable Claude Desktop's entry passes the Authorization header in: mcp-remote reads it from its environment. */
const AUTH_ENV = 'SVC_MCP_AUTHORIZATION';

interface ClientFormat {
  /** The client's name in messages. */
  label: string;
  /** The object of the file that maps server names to entries. */
  key: 'mcpServers' | 'servers';
  /** The client reads comments and trailing commas in this file (JSONC). */
  comments: boolean;
  /** Where the client reads it: in the project directory, or (Claude Desktop) the user's. */
  path(projectDir: string, env: NodeJS.ProcessEnv): string;
  /** The server's entry: its URL, and with a token the header that carries it. */
  entry(url: string, token: string | undefined): Record<string, unknown>;
}

/** Claude Desktop's configuration file, where its docs place it on each system (Linux has no official build: the XDG place). */
function claudeDesktopConfig(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'Claude', 'claude_desktop_config.json');
}

const bearer = (token: string | undefined) => (token ? { headers: { Authorization: `Bearer ${token}` } } : {});

/**
 * mcp-remote takes http only for localhost and 127.0.0.1 unless given --allow-http. The header
 * goes through the environment with no space in the argument: Claude Desktop on Windows does not
 * quote arguments (mcp-remote's README).
 */
function mcpRemote(url: string, token: string | undefined): Record<string, unknown> {
  const { protocol, hostname } = new URL(url);
  const allowHttp = protocol === 'http:' && hostname !== 'localhost' && hostname !== '127.0.0.1';
  return {
    command: 'npx',
    args: ['-y', 'mcp-remote', url, ...(allowHttp ? ['--allow-http'] : []), ...(token ? ['--header', `Authorization:\${${AUTH_ENV}}`] : [])],
    ...(token ? { env: { [AUTH_ENV]: `Bearer ${token}` } } : {}),
  };
}

export const FORMATS: Record<McpClient, ClientFormat> = {
  // code.claude.com/docs/en/mcp: project scope is .mcp.json at the project root, `type: "http"` for Streamable HTTP.
  'claude-code': { label: 'Claude Code', key: 'mcpServers', comments: false, path: (dir) => join(dir, '.mcp.json'), entry: (url, token) => ({ type: 'http', url, ...bearer(token) }) },
  // cursor.com/docs/mcp: .cursor/mcp.json in the project; a remote server is an entry with `url` (and `headers`).
  cursor: { label: 'Cursor', key: 'mcpServers', comments: false, path: (dir) => join(dir, '.cursor', 'mcp.json'), entry: (url, token) => ({ url, ...bearer(token) }) },
  // code.visualstudio.com/docs/copilot/reference/mcp-configuration: .vscode/mcp.json, `servers`, `type: "http"`.
  vscode: { label: 'VS Code', key: 'servers', comments: true, path: (dir) => join(dir, '.vscode', 'mcp.json'), entry: (url, token) => ({ type: 'http', url, ...bearer(token) }) },
  // Claude Desktop's file holds local (stdio) servers only; a remote one runs through mcp-remote
  // (remote URLs are otherwise added as custom connectors in its settings, never in this file).
  'claude-desktop': { label: 'Claude Desktop', key: 'mcpServers', comments: false, path: (_dir, env) => claudeDesktopConfig(env), entry: mcpRemote },
};

/** The configuration file as it would be with only this server in it (what --print shows). */
export function configOf(client: McpClient, name: string, url: string, token?: string): string {
  return JSON.stringify({ [FORMATS[client].key]: { [name]: FORMATS[client].entry(url, token) } }, null, 2) + '\n';
}

/**
 * `existing` (the file's text, or undefined when there is none) with the server's entry set under
 * `name`: other entries, other keys and their formatting stay. A file the client could not read
 * itself is refused, naming it, and left as it is.
 */
export function mergeConfig(client: McpClient, path: string, existing: string | undefined, name: string, url: string, token?: string): string {
  const format = FORMATS[client];
  const text = (existing ?? '').replace(/^\uFEFF/, '');
  if (!text.trim()) return configOf(client, name, url, token);
  const fix = `fix or move ${path}; svc-cli changes only a file ${format.label} can read`;
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { disallowComments: !format.comments, allowTrailingComma: format.comments });
  if (errors.length) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split('\n').length;
    throw new CliError(`${path} is not valid ${format.comments ? 'JSON with comments' : 'JSON'} (${printParseErrorCode(first.error)} at line ${line})`, fix);
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) throw new CliError(`${path} does not hold a JSON object`, fix);
  const servers = (root as Record<string, unknown>)[format.key];
  if (servers !== undefined && (servers === null || typeof servers !== 'object' || Array.isArray(servers))) {
    throw new CliError(`${path}: "${format.key}" is not an object of servers`, fix);
  }
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0];
  const formattingOptions = { insertSpaces: !indent?.startsWith('\t'), tabSize: indent && !indent.startsWith('\t') ? indent.length : 2, eol: text.includes('\r\n') ? '\r\n' : '\n' };
  const edited = applyEdits(text, modify(text, [format.key, name], format.entry(url, token), { formattingOptions }));
  return edited.endsWith('\n') ? edited : edited + '\n';
}

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
  describe: "Add an MCP server to a client's configuration file (Claude Code, Cursor, VS Code, Claude Desktop)",
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
      mergeConfig(client, path, existing, name, server.url); // refused before a token is issued for it
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
    if (client === 'claude-desktop') print('  Claude Desktop runs it through mcp-remote (npx, needs Node.js); restart Claude Desktop to load it');
  },
});
