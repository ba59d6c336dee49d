// `svc-cli mcp connect <mcp> --client …`: each client's own configuration file, checked against
// that client's documented format (docs/guides/connect-an-agent.md cites each), read the way the
// client reads it (strict JSON; JSON with comments for VS Code and Gemini CLI; TOML for Codex, read
// by Python's tomllib, a strict TOML 1.0 parser of its own), and — with --token — used by the
// official MCP SDK client exactly as written: the URL, the header, and for Claude Desktop the
// mcp-remote arguments with its environment. Merging keeps every other entry, key and comment; a
// malformed file is refused, named, left as it was, and no token is issued for it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliCrm, type CliCrm } from '../fixtures/apps.ts';
import { oneErrorLine } from '../fixtures/cli.ts';

let app: CliCrm;
let dir: string;
let url: string;

beforeAll(async () => {
  app = await startCliCrm({ operations: ['contacts/list'], login: true });
  url = (await app.t.api('GET', '/v1/mcp')).body.servers.find((s: { name: string; active: boolean }) => s.name === 'agents' && s.active).url;
  dir = mkdtempSync(join(tmpdir(), 'svc-connect-'));
});
afterAll(async () => {
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Each client's documented shape of a remote server's entry, as a JSON Schema. Claude Code:
// code.claude.com/docs/en/mcp (.mcp.json, mcpServers, type "http", url, headers). Cursor:
// cursor.com/docs/mcp (.cursor/mcp.json, mcpServers, url, headers). VS Code:
// code.visualstudio.com/docs/copilot/reference/mcp-configuration (servers, type "http", url,
// headers; inputs). Claude Desktop: claude_desktop_config.json holds stdio servers (command, args,
// env); mcp-remote's README gives the arguments for a remote URL and a header. Codex:
// developers.openai.com/codex/mcp (~/.codex/config.toml, [mcp_servers.<name>], url, http_headers).
// Gemini CLI: geminicli.com/docs/tools/mcp-server (.gemini/settings.json, mcpServers, httpUrl for
// Streamable HTTP, headers). Windsurf: docs.windsurf.com/windsurf/cascade/mcp
// (~/.codeium/windsurf/mcp_config.json, mcpServers, serverUrl, headers).
const headers = { type: 'object', required: ['Authorization'], additionalProperties: false, properties: { Authorization: { type: 'string', pattern: '^Bearer svc_mcp_' } } };
const http = (typed: boolean, urlKey = 'url', headersKey = 'headers') => ({
  type: 'object',
  required: typed ? ['type', urlKey] : [urlKey],
  additionalProperties: false,
  properties: { ...(typed ? { type: { const: 'http' } } : {}), [urlKey]: { type: 'string', format: 'uri' }, [headersKey]: headers },
});
const stdio = {
  type: 'object',
  required: ['command', 'args'],
  additionalProperties: false,
  properties: { command: { const: 'npx' }, args: { type: 'array', items: { type: 'string' }, prefixItems: [{ const: '-y' }, { const: 'mcp-remote' }] }, env: { type: 'object', additionalProperties: { type: 'string' } } },
};
const file = (key: string, entry: object) => ({ type: 'object', required: [key], properties: { [key]: { type: 'object', additionalProperties: entry } } });
const SCHEMAS = {
  'claude-code': file('mcpServers', http(true)),
  cursor: file('mcpServers', http(false)),
  vscode: file('servers', http(true)),
  'claude-desktop': file('mcpServers', stdio),
  codex: file('mcp_servers', http(false, 'url', 'http_headers')),
  gemini: file('mcpServers', http(false, 'httpUrl')),
  windsurf: file('mcpServers', http(false, 'serverUrl')),
} as const;
type ClientName = keyof typeof SCHEMAS;
const PATHS: Record<ClientName, (project: string) => string> = {
  'claude-code': (p) => join(p, '.mcp.json'),
  cursor: (p) => join(p, '.cursor', 'mcp.json'),
  vscode: (p) => join(p, '.vscode', 'mcp.json'),
  // The CLI user's XDG_CONFIG_HOME (test/fixtures/cli.ts): where Claude Desktop's file is on Linux.
  'claude-desktop': () => join(app.user.configHome, 'Claude', 'claude_desktop_config.json'),
  // The CLI user's HOME: Codex's file is the user's, ~/.codex/config.toml.
  codex: () => join(app.user.home, '.codex', 'config.toml'),
  gemini: (p) => join(p, '.gemini', 'settings.json'),
  windsurf: () => join(app.user.home, '.codeium', 'windsurf', 'mcp_config.json'),
};
/** The object of servers in each client's file. */
const serversKey = (client: ClientName) => (client === 'vscode' ? 'servers' : client === 'codex' ? 'mcp_servers' : 'mcpServers');
/** The entry without a token each client's documentation gives for a Streamable HTTP URL. */
const plainEntry = (client: ClientName, url: string) =>
  client === 'claude-desktop' ? { command: 'npx', args: ['-y', 'mcp-remote', url] } : client === 'cursor' || client === 'codex' ? { url } : client === 'gemini' ? { httpUrl: url } : client === 'windsurf' ? { serverUrl: url } : { type: 'http', url };

/** A TOML file as Python's tomllib reads it (strict TOML 1.0): a parser that is not the one svc-cli writes with. */
const readToml = (path: string): any => JSON.parse(execFileSync('/usr/bin/python3', ['-c', 'import json, sys, tomllib; print(json.dumps(tomllib.load(open(sys.argv[1], "rb"))))', path], { encoding: 'utf8' }));
const ajv = new Ajv({ strict: false, validateFormats: false });

/** The file as its client reads it: VS Code takes comments and trailing commas, Gemini CLI comments, Codex TOML, the others strict JSON. */
function readAsClient(client: ClientName, path: string): any {
  if (client === 'codex') return readToml(path);
  const text = readFileSync(path, 'utf8');
  if (client !== 'vscode' && client !== 'gemini') return JSON.parse(text);
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: client === 'vscode' });
  expect(errors).toEqual([]);
  return value;
}

function expectDocumentedShape(client: ClientName, config: unknown) {
  const validate = ajv.compile(SCHEMAS[client]);
  expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
}

/** Connects the official SDK client the way the entry says, and lists the tools. */
async function toolsThrough(client: ClientName, entry: any): Promise<string[]> {
  let target: string;
  let authorization: string | undefined;
  if (client === 'claude-desktop') {
    // What mcp-remote does with these arguments: the URL, and each --header with ${VAR} from its env.
    target = entry.args[2];
    const header = entry.args[entry.args.indexOf('--header') + 1] as string;
    authorization = header.replace(/^Authorization:/, '').replace(/\$\{(\w+)\}/g, (_m: string, v: string) => entry.env[v]);
  } else {
    target = entry.url ?? entry.httpUrl ?? entry.serverUrl;
    authorization = (entry.headers ?? entry.http_headers)?.Authorization;
  }
  const sdk = new Client({ name: `as-${client}`, version: '1.0.0' });
  await sdk.connect(new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers: authorization ? { authorization } : {} } }));
  try {
    return (await sdk.listTools()).tools.map((t) => t.name);
  } finally {
    await sdk.close();
  }
}

const connect = (args: string[], project = dir) => app.user.cli(['mcp', 'connect', 'agents', ...args], { cwd: project });

describe('svc-cli mcp connect', () => {
  for (const client of Object.keys(SCHEMAS) as ClientName[]) {
    it(`writes ${client}'s own file with just the URL (the client signs in itself), then a narrowed token that works`, async () => {
      const project = mkdtempSync(join(dir, `${client}-`));
      const path = PATHS[client](project);
      const first = await connect(['--client', client], project);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^agents for .+: .+ created\n {2}.+\n/);
      const plain = readAsClient(client, path);
      expectDocumentedShape(client, plain);
      expect(plain[serversKey(client)].agents).toEqual(plainEntry(client, url));
      expect((await connect(['--client', client], project)).stdout).toContain('unchanged (already up to date)');

      const before = (await app.t.api('GET', '/v1/mcp/agents/tokens')).body.tokens.length;
      const withToken = await connect(['--client', client, '--token', '--expires', '7d', '--allow', 'demo-crm.contacts/list'], project);
      expect(withToken.stderr).toBe('');
      expect(withToken.code).toBe(0);
      expect(withToken.stdout).toMatch(/ updated\n {2}token tok_\w+: allow demo-crm\.contacts\/list, expires \d{4}-/);
      expect(withToken.stdout).not.toContain('svc_mcp_');
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const config = readAsClient(client, path);
      expectDocumentedShape(client, config);
      const tokenEntry = config[serversKey(client)].agents;
      const token = JSON.stringify(tokenEntry).match(/svc_mcp_[A-Za-z0-9_-]+/)![0];
      app.t.canaries.push(token);
      // Issued by `mcp token create`'s path: narrowed, expiring, listed beside the others.
      const { tokens } = (await app.t.api('GET', '/v1/mcp/agents/tokens')).body;
      expect(tokens).toHaveLength(before + 1);
      expect(tokens.at(-1)).toMatchObject({ allow: ['demo-crm.contacts/list'], expiresAt: expect.any(String), revokedAt: null });
      expect(await toolsThrough(client, tokenEntry)).toEqual(['search_docs', 'execute']);
    });
  }

  it('merges into a file that has other servers and keys, keeping them (and, in VS Code\'s, its comments)', async () => {
    const project = mkdtempSync(join(dir, 'merge-'));
    const claude = join(project, '.mcp.json');
    writeFileSync(claude, JSON.stringify({ mcpServers: { github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' }, agents: { type: 'http', url: 'http://old.example/mcp', headers: { Authorization: 'Bearer old' }, timeout: 30000 } }, other: { keep: true } }, null, 4));
    expect((await connect(['--client', 'claude-code'], project)).code).toBe(0);
    const merged = JSON.parse(readFileSync(claude, 'utf8'));
    // The entry's address and header are svc-cli's (the old token goes: this entry signs in); the user's timeout stays.
    expect(merged).toEqual({ mcpServers: { github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' }, agents: { type: 'http', url, timeout: 30000 } }, other: { keep: true } });
    expect(readFileSync(claude, 'utf8')).toMatch(/^ {4}"mcpServers"/m); // its indentation kept

    mkdirSync(join(project, '.vscode'));
    const vscode = join(project, '.vscode', 'mcp.json');
    const jsonc = '{\n  // shared with the team\n  "inputs": [{ "type": "promptString", "id": "gh", "password": true }],\n  "servers": {\n    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer ${input:gh}" } }, // trailing comma next\n  },\n}\n';
    writeFileSync(vscode, jsonc);
    expect((await connect(['--client', 'vscode', '--name', 'crm'], project)).code).toBe(0);
    const text = readFileSync(vscode, 'utf8');
    expect(text).toContain('// shared with the team');
    expect(text).toContain('// trailing comma next');
    const value = readAsClient('vscode', vscode);
    expect(value.inputs).toEqual([{ type: 'promptString', id: 'gh', password: true }]);
    expect(value.servers).toEqual({ github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${input:gh}' } }, crm: { type: 'http', url } });
  });

  it('adds its own table to a Codex config.toml, keeping the rest and its comments, then changes that table in place', async () => {
    const project = mkdtempSync(join(dir, 'codex-merge-'));
    const file = join(project, 'config.toml');
    const toml = '# my Codex settings\nmodel = "o4-mini" # the fast one\n\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs-mcp"]  # pinned later\n\n[profiles.review]\nmodel = "o3"\n';
    writeFileSync(file, toml);
    expect((await connect(['--client', 'codex', '--file', file, '--name', 'crm.agents'], project)).code).toBe(0);
    const added = readFileSync(file, 'utf8');
    expect(added.startsWith(toml)).toBe(true);
    expect(added.slice(toml.length)).toBe(`\n[mcp_servers."crm.agents"]\nurl = "${url}"\n`);
    // Settings the user gives the entry stay when svc-cli writes it again (a table among them); another way of signing in goes.
    writeFileSync(file, `${added}startup_timeout_sec = 20\nenabled_tools = ["execute"] # only this one\nbearer_token_env_var = "OLD_TOKEN"\nlimits = { calls = 5 }\n`);
    const withToken = await connect(['--client', 'codex', '--file', file, '--name', 'crm.agents', '--token'], project);
    expect(withToken.code, withToken.stderr).toBe(0);
    const changed = readFileSync(file, 'utf8');
    for (const kept of ['# my Codex settings', '# the fast one', '# pinned later', '[profiles.review]', '# only this one']) expect(changed).toContain(kept);
    expect(changed.match(/\[mcp_servers\."crm\.agents"\]/g)).toHaveLength(1);
    const value = readToml(file);
    const token = value.mcp_servers['crm.agents'].http_headers.Authorization.replace(/^Bearer /, '');
    app.t.canaries.push(token);
    expect(value).toEqual({
      model: 'o4-mini',
      mcp_servers: {
        docs: { command: 'npx', args: ['-y', 'docs-mcp'] },
        'crm.agents': { url, http_headers: { Authorization: `Bearer ${token}` }, startup_timeout_sec: 20, enabled_tools: ['execute'], limits: { calls: 5 } },
      },
      profiles: { review: { model: 'o3' } },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a malformed file, naming it, leaves it as it was and issues no token for it', async () => {
    const project = mkdtempSync(join(dir, 'broken-'));
    const cases: [ClientName, string, string][] = [
      ['claude-code', '.mcp.json', '{ "mcpServers": { "a": 1, } }'], // a trailing comma Claude Code's JSON parser refuses
      ['cursor', '.cursor/mcp.json', '// a comment\n{ "mcpServers": {} }'],
      ['vscode', '.vscode/mcp.json', '{ "servers": [] }'],
      ['claude-code', '.mcp.json', '[]'],
      ['gemini', '.gemini/settings.json', '{ "mcpServers": "none" }'],
      ['gemini', '.gemini/settings.json', '{\n  // comments are fine, a trailing comma is not\n  "theme": "dark",\n}\n'],
    ];
    const before = (await app.t.api('GET', '/v1/mcp/agents/tokens')).body.tokens.length;
    for (const [client, name, content] of cases) {
      const path = join(project, name);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, content);
      const r = await connect(['--client', client, '--token'], project);
      expect(r.code, `${client}: ${content}`).toBe(1);
      expect(oneErrorLine(r.stderr)).toContain(path);
      expect(r.stdout).toBe('');
      expect(readFileSync(path, 'utf8')).toBe(content);
    }
    // Codex's TOML: a file that is not TOML, and one whose servers are an inline table a [mcp_servers.<name>] table cannot extend.
    for (const content of ['model = = "o3"\n', 'mcp_servers = { docs = { command = "npx" } }\n']) {
      const path = join(project, 'config.toml');
      writeFileSync(path, content);
      const r = await connect(['--client', 'codex', '--file', path, '--token'], project);
      expect(r.code, content).toBe(1);
      expect(oneErrorLine(r.stderr)).toContain(path);
      expect(readFileSync(path, 'utf8')).toBe(content);
    }
    expect((await app.t.api('GET', '/v1/mcp/agents/tokens')).body.tokens).toHaveLength(before);
  });

  it('prints the configuration with --print and writes nothing', async () => {
    const project = mkdtempSync(join(dir, 'print-'));
    const r = await connect(['--client', 'cursor', '--print'], project);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ mcpServers: { agents: { url } } });
    expect(existsSync(join(project, '.cursor'))).toBe(false);
    const withToken = await connect(['--client', 'vscode', '--print', '--token'], project);
    expect(withToken.code).toBe(0);
    const printed = JSON.parse(withToken.stdout);
    expectDocumentedShape('vscode', printed);
    app.t.canaries.push(printed.servers.agents.headers.Authorization.slice('Bearer '.length));
    expect(existsSync(join(project, '.vscode'))).toBe(false);
    const codex = await connect(['--client', 'codex', '--print'], project);
    expect(codex.stdout).toBe(`[mcp_servers.agents]\nurl = "${url}"\n`);
  });

  it('issues a read-only token with --token --read-only, listed as read-only', async () => {
    const project = mkdtempSync(join(dir, 'read-only-'));
    const made = await connect(['--client', 'claude-code', '--token', '--read-only'], project);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/token tok_\w+: allow \*, read-only, expires/);
    const entry = readAsClient('claude-code', PATHS['claude-code'](project)).mcpServers.agents;
    const token = (entry.headers.Authorization as string).replace(/^Bearer /, '');
    app.t.canaries.push(token);
    const { tokens } = (await app.t.api('GET', '/v1/mcp/agents/tokens')).body;
    expect(tokens.at(-1)).toMatchObject({ readOnly: true, revokedAt: null });
  });

  it('refuses flags that do not fit, and an MCP server that does not exist, in one line', async () => {
    const usage = await connect(['--client', 'cursor', '--allow', 'demo-crm.contacts/list']);
    expect(usage.code).toBe(2);
    expect(oneErrorLine(usage.stderr)).toContain('--token');
    const readOnly = await connect(['--client', 'cursor', '--read-only']);
    expect(readOnly.code).toBe(2);
    expect(oneErrorLine(readOnly.stderr)).toMatch(/^svc-cli: --read-only narrows the token that --token issues/);
    const client = await connect(['--client', 'zed']);
    expect(client.code).toBe(2);
    const userFile = await connect(['--client', 'codex', '--dir', '.']);
    expect(userFile.code).toBe(2);
    expect(oneErrorLine(userFile.stderr)).toContain("Codex reads the user's own file");
    const expires = await connect(['--client', 'cursor', '--token', '--expires', 'soon', '--print']);
    expect(expires.code).toBe(2);
    expect(oneErrorLine(expires.stderr)).toContain('--expires');
    const missing = await app.user.cli(['mcp', 'connect', 'nope', '--client', 'cursor', '--print']);
    expect(missing.code).toBe(1);
    expect(oneErrorLine(missing.stderr)).toContain('svc-cli mcp list');
  });
});
