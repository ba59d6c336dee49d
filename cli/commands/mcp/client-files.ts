// Each MCP client's own configuration file, as its documentation describes it: where it is, which
// object maps server names to entries, and a remote server's entry. An entry is merged into the
// file: every other entry and key stays, and so do comments where the client allows them (VS Code,
// Gemini CLI, and Codex's TOML). A file the client could not read itself is refused, named.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml, patch as patchToml } from '@decimalturn/toml-patch';
import { CliError } from '../../lib/errors.ts';

export const CLIENTS = ['claude-code', 'cursor', 'vscode', 'claude-desktop', 'codex', 'gemini', 'windsurf'] as const;
export type McpClient = (typeof CLIENTS)[number];

/** The variable Claude Desktop's entry passes the Authorization header in: mcp-remote reads it from its environment. */
const AUTH_ENV = 'SVC_MCP_AUTHORIZATION';

interface ClientFormat {
  /** The client's name in messages. */
  label: string;
  /** JSON (with comments where `comments`), or TOML (Codex). */
  syntax: 'json' | 'toml';
  /** The object of the file that maps server names to entries. */
  key: 'mcpServers' | 'servers' | 'mcp_servers';
  /** The client reads comments in this JSON file (JSONC). */
  comments: boolean;
  /** It also reads trailing commas (VS Code's parser does; Gemini CLI strips comments, then JSON.parse). */
  trailingCommas?: boolean;
  /** Where the client reads it: in the project directory, or (`userFile`) the user's. */
  path(projectDir: string, env: NodeJS.ProcessEnv): string;
  /** The file is the user's, wherever the project is. */
  userFile?: boolean;
  /** The server's entry: its URL, and with a token the header that carries it. */
  entry(url: string, token: string | undefined): Record<string, unknown>;
  /** What to do after the file is written, when the client needs more than reading it. */
  next?: (name: string, token: boolean) => string | undefined;
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
  'claude-code': { label: 'Claude Code', syntax: 'json', key: 'mcpServers', comments: false, path: (dir) => join(dir, '.mcp.json'), entry: (url, token) => ({ type: 'http', url, ...bearer(token) }) },
  // cursor.com/docs/mcp: .cursor/mcp.json in the project; a remote server is an entry with `url` (and `headers`).
  cursor: { label: 'Cursor', syntax: 'json', key: 'mcpServers', comments: false, path: (dir) => join(dir, '.cursor', 'mcp.json'), entry: (url, token) => ({ url, ...bearer(token) }) },
  // code.visualstudio.com/docs/copilot/reference/mcp-configuration: .vscode/mcp.json, `servers`, `type: "http"`.
  vscode: { label: 'VS Code', syntax: 'json', key: 'servers', comments: true, trailingCommas: true, path: (dir) => join(dir, '.vscode', 'mcp.json'), entry: (url, token) => ({ type: 'http', url, ...bearer(token) }) },
  // Claude Desktop's file holds local (stdio) servers only; a remote one runs through mcp-remote
  // (remote URLs are otherwise added as custom connectors in its settings, never in this file).
  'claude-desktop': {
    label: 'Claude Desktop',
    syntax: 'json',
    key: 'mcpServers',
    comments: false,
    path: (_dir, env) => claudeDesktopConfig(env),
    userFile: true,
    entry: mcpRemote,
    next: () => 'Claude Desktop runs it through mcp-remote (npx, needs Node.js); restart Claude Desktop to load it',
  },
  // developers.openai.com/codex/mcp: $CODEX_HOME/config.toml (~/.codex), a `[mcp_servers.<name>]`
  // table with `url` for Streamable HTTP; literal headers go in `http_headers` (an inline
  // `bearer_token` is refused by Codex). The CLI, the IDE extension and the app share the file.
  codex: {
    label: 'Codex',
    syntax: 'toml',
    key: 'mcp_servers',
    comments: true,
    path: (_dir, env) => join(env.CODEX_HOME || join(homedir(), '.codex'), 'config.toml'),
    userFile: true,
    entry: (url, token) => ({ url, ...(token ? { http_headers: { Authorization: `Bearer ${token}` } } : {}) }),
    next: (name, token) => (token ? undefined : `then \`codex mcp login ${name}\` signs Codex in (or it asks when it first connects)`),
  },
  // geminicli.com/docs/tools/mcp-server: .gemini/settings.json in the project, `mcpServers`, and
  // `httpUrl` for Streamable HTTP (its `url` means the older SSE transport).
  gemini: {
    label: 'Gemini CLI',
    syntax: 'json',
    key: 'mcpServers',
    comments: true,
    path: (dir) => join(dir, '.gemini', 'settings.json'),
    entry: (url, token) => ({ httpUrl: url, ...bearer(token) }),
    next: (name, token) => (token ? undefined : `in Gemini CLI, \`/mcp auth ${name}\` signs in`),
  },
  // docs.windsurf.com/windsurf/cascade/mcp: the user's ~/.codeium/windsurf/mcp_config.json (also on
  // Windows, under the user's profile), `mcpServers`, and `serverUrl` for a remote server.
  windsurf: {
    label: 'Windsurf',
    syntax: 'json',
    key: 'mcpServers',
    comments: false,
    path: () => join(homedir(), '.codeium', 'windsurf', 'mcp_config.json'),
    userFile: true,
    entry: (url, token) => ({ serverUrl: url, ...bearer(token) }),
    next: () => 'refresh the servers in Cascade\'s MCP panel to load it',
  },
};

/** A TOML key as written: bare when it can be, else a basic string (JSON's escapes are TOML's). */
const tomlKey = (key: string) => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

/** A TOML value of an entry: strings, and tables of strings (inline). */
const tomlValue = (value: unknown): string =>
  typeof value === 'string'
    ? JSON.stringify(value)
    : `{ ${Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`)
        .join(', ')} }`;

/** The entry as its own table section, `[mcp_servers.<name>]`. */
function tomlTable(key: string, name: string, entry: Record<string, unknown>): string {
  return [`[${key}.${tomlKey(name)}]`, ...Object.entries(entry).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`)].join('\n') + '\n';
}

/**
 * `entry` over the one already in the file: the keys svc-cli writes for this client (address,
 * transport, headers; mcp-remote's command, arguments and environment) are replaced whole, so a
 * token left out now is gone; any other key the user gave the entry (a timeout, `disabled`, a tool
 * list) stays.
 */
function overExisting(existing: unknown, entry: Record<string, unknown>): Record<string, unknown> {
  if (existing === null || typeof existing !== 'object' || Array.isArray(existing)) return entry;
  const kept = Object.entries(existing as Record<string, unknown>).filter(([key]) => !TRANSPORT_KEYS.has(key));
  return kept.length ? { ...entry, ...Object.fromEntries(kept) } : entry;
}

/**
 * The keys that say how a client reaches a server and signs in, in any client's shape (and the
 * other ways of giving a token): svc-cli's entry replaces all of them, so an entry that was a
 * local (stdio) server, or SSE, or held another token, does not keep a second transport or credential.
 */
const TRANSPORT_KEYS: ReadonlySet<string> = (() => {
  const probe = 'http://127.0.0.1/';
  const keys = Object.values(FORMATS).flatMap((format) => [...Object.keys(format.entry(probe, undefined)), ...Object.keys(format.entry(probe, 'token'))]);
  return new Set([...keys, 'httpUrl', 'serverUrl', 'bearer_token', 'bearer_token_env_var', 'env_http_headers', 'transport']);
})();

/** The configuration file as it would be with only this server in it (what --print shows). */
export function configOf(client: McpClient, name: string, url: string, token?: string): string {
  const format = FORMATS[client];
  if (format.syntax === 'toml') return tomlTable(format.key, name, format.entry(url, token));
  return JSON.stringify({ [format.key]: { [name]: format.entry(url, token) } }, null, 2) + '\n';
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
  return format.syntax === 'toml' ? mergeToml(format, path, text, name, format.entry(url, token), fix) : mergeJson(format, path, text, name, format.entry(url, token), fix);
}

function mergeJson(format: ClientFormat, path: string, text: string, name: string, entry: Record<string, unknown>, fix: string): string {
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { disallowComments: !format.comments, allowTrailingComma: format.trailingCommas === true });
  if (errors.length) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split('\n').length;
    throw new CliError(`${path} is not valid ${format.comments ? 'JSON with comments' : 'JSON'} (${printParseErrorCode(first.error)} at line ${line})`, fix);
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) throw new CliError(`${path} does not hold a JSON object`, fix);
  const servers = checkServers(root as Record<string, unknown>, format.key, path, fix);
  entry = overExisting(servers?.[name], entry);
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0];
  const formattingOptions = { insertSpaces: !indent?.startsWith('\t'), tabSize: indent && !indent.startsWith('\t') ? indent.length : 2, eol: text.includes('\r\n') ? '\r\n' : '\n' };
  const edited = applyEdits(text, modify(text, [format.key, name], entry, { formattingOptions }));
  return edited.endsWith('\n') ? edited : edited + '\n';
}

/**
 * A new server is appended as its own `[mcp_servers.<name>]` table, as `codex mcp add` writes one;
 * an existing one is changed where it stands (toml-patch keeps the rest of the file, comments
 * included). The result is read back and must hold exactly the entry, so a file whose shape would
 * make the table invalid (`mcp_servers` written as an inline table) is refused, not broken.
 */
function mergeToml(format: ClientFormat, path: string, text: string, name: string, entry: Record<string, unknown>, fix: string): string {
  const root = readToml(text, path, fix);
  const servers = checkServers(root, format.key, path, fix);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let merged: string;
  if (servers !== undefined && Object.hasOwn(servers, name)) {
    entry = overExisting(servers[name], entry);
    merged = patchToml(text, { ...root, [format.key]: { ...servers, [name]: entry } }, { inlineTableStart: 3, bracketSpacing: true });
  } else {
    const base = text.endsWith('\n') ? text : text + eol;
    merged = `${base}${eol}${tomlTable(format.key, name, entry).replaceAll('\n', eol)}`;
  }
  let written: Record<string, unknown>;
  try {
    written = parseToml(merged) as Record<string, unknown>;
  } catch {
    throw new CliError(`${path}: "${format.key}" is written in a form a server table cannot be added to`, `${fix} (write it as [${format.key}.<name>] tables)`);
  }
  const kept = (written[format.key] as Record<string, unknown> | undefined)?.[name];
  // Compared as JSON values: key order, the parser's null-prototype tables and its dates are not the entry's business.
  const asJson = (value: unknown) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
  if (!isDeepStrictEqual(asJson(kept), asJson(entry))) throw new CliError(`${path}: the entry for ${name} could not be written in place`, fix);
  return merged;
}

function readToml(text: string, path: string, fix: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    const line = /\((\d+), \d+\)/.exec((err as Error).message)?.[1];
    throw new CliError(`${path} is not valid TOML${line ? ` (at line ${line})` : ''}`, fix);
  }
}

/** The object of servers in `root`, when there is one; anything else under its key is refused. */
function checkServers(root: Record<string, unknown>, key: string, path: string, fix: string): Record<string, unknown> | undefined {
  const servers = root[key];
  if (servers !== undefined && (servers === null || typeof servers !== 'object' || Array.isArray(servers))) {
    throw new CliError(`${path}: "${key}" is not ${key === 'mcp_servers' ? 'a table' : 'an object'} of servers`, fix);
  }
  return servers as Record<string, unknown> | undefined;
}
