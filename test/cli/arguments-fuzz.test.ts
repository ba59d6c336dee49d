// Property-based fuzz of svc-cli's argument handling (fixed seed). The command tree, each command's
// positionals and options (with their types and choices) and realistic values are read from
// svc-cli's own `--help` (its Examples too), so a new command or flag is fuzzed without touching
// this file. Each case is argv with things wrong in it (missing and extra positionals, unknown
// flags, flags without values, repeated flags, `--flag=`, values that look like flags, huge values,
// odd unicode and control characters, wrong types for numeric flags, `--json` with everything),
// stdin for the commands that read it, and an environment: logged in to a real Engine on loopback,
// not logged in, SVC_CLI_TOKEN, a dead or malformed SVC_ENGINE_URL, or a server that answers
// garbage. Properties of every run:
//   - it ends by itself (per-run timeout) with exit 0, 1 or 2, never a signal;
//   - on a non-zero exit stderr is exactly one line `svc-cli: <what> — <fix>`, with no control or
//     bidi character in it; a case with a usage mistake in it exits 2 and names the argument or
//     flag at fault (an empty positional is such a mistake, as an empty flag value is);
//   - no stack trace, no "this is a bug";
//   - `--json` with exit 0 prints valid JSON;
//   - no canary (the CLI credential, execution and MCP tokens, a stored secret, a URL password)
//     in stdout or stderr, except the token a command documents printing once (docs/architecture.md, apps: "the
//     first MCP apply prints … the unrestricted token once", `sdk token create` "(shown once)");
//     that token becomes a canary for every later run;
//   - credentials.json still parses with mode 0600, the svc.*.json files still parse, and a failing
//     command leaves the files it was pointed at unchanged.
// Half the cases are clean (every positional and required option given, only values odd) so that
// handlers and the Engine are reached. A failure shows the argv fast-check shrank it to.
// Real CLI (a subprocess per run), real Engine and demo-crm provider; nothing is mocked.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { CLI_ENTRY, oneErrorLine } from '../fixtures/cli.ts';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';

// FUZZ_SEED and FUZZ_RUNS explore further by hand (FUZZ_NO_SHRINK=1 reports the first failure
// unshrunk, faster); the suite runs the fixed seed.
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_c11);
/** Fuzz cases per leaf command and per command group. */
const LEAF_RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const GROUP_RUNS = Math.max(2, Math.floor(LEAF_RUNS / 2));
/** A run that has not ended by then is a hang. */
const RUN_TIMEOUT_MS = 40_000;
/** svc-cli processes at once (the machine is shared). */
const CONCURRENCY = 3;

// ---------------------------------------------------------------------------------------------
// Running svc-cli

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    while (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
const slot = limiter(CONCURRENCY);
let runs = 0;
/** How the runs ended (exit code), and how many successes were checked for JSON, for the summary. */
const endings = new Map<string, number>();
let jsonChecked = 0;

/** Runs svc-cli in its own process group (no terminal), stdin piped and closed. */
function runCli(args: string[], options: { env: Record<string, string>; cwd: string; stdin?: string | Buffer }): Promise<Run> {
  return slot(
    () =>
      new Promise<Run>((resolve, reject) => {
        runs++;
        const child = spawn(process.execPath, [CLI_ENTRY, ...args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
        let stdout = '';
        let stderr = '';
        let timedOut = false;
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const timer = setTimeout(() => {
          timedOut = true;
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            child.kill('SIGKILL');
          }
        }, RUN_TIMEOUT_MS);
        child.on('error', reject);
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          const ending = timedOut ? 'timeout' : signal ? String(signal) : `exit ${code}`;
          endings.set(ending, (endings.get(ending) ?? 0) + 1);
          resolve({ code, signal, timedOut, stdout, stderr });
        });
        child.stdin.on('error', () => {}); // a command that does not read stdin may exit first
        child.stdin.end(options.stdin ?? '');
      }),
  );
}

// ---------------------------------------------------------------------------------------------
// The command tree, from svc-cli's --help

interface OptionSpec {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'array' | 'count' | 'unknown';
  required: boolean;
  choices: string[];
  describe: string;
}
interface CommandSpec {
  path: string[];
  positionals: { name: string; required: boolean }[];
  options: OptionSpec[];
  children: string[];
  help: string;
  /** Values seen in its Examples: per option name, and per positional index. */
  exampleOptions: Map<string, string[]>;
  examplePositionals: string[][];
}

/** Help sections (`Options:` …) as their lines. */
function sections(help: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of help.split('\n')) {
    const header = /^([A-Z][A-Za-z ]*):$/.exec(line);
    if (header) out.set(header[1]!, (current = []));
    else if (current) current.push(line);
  }
  return out;
}

/** Splits one shell command line into words (single and double quotes, no expansion). */
function shellWords(text: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

function parseHelp(path: string[], help: string): CommandSpec {
  const parts = sections(help);
  const usage = help.split('\n')[0]!;
  const positionals = [...usage.matchAll(/([<[])([\w-]+)[>\]]/g)].map((m) => ({ name: m[2]!, required: m[1] === '<' }));
  const children = (parts.get('Commands') ?? [])
    .map((l) => /^ {2}svc-cli (.+?)(?: {2,}|$)/.exec(l)?.[1]?.split(' '))
    .filter((w): w is string[] => !!w && w.length > path.length && w.slice(0, path.length).join(' ') === path.join(' '))
    .map((w) => w[path.length]!);
  // An option entry starts at `  -h, --help` or `      --json`; wrapped description lines follow.
  const entries: string[] = [];
  for (const line of parts.get('Options') ?? []) {
    if (/^(?: {2}-\w, | {6})--[\w-]+/.test(line)) entries.push(line);
    else if (entries.length && line.trim()) entries[entries.length - 1] += ' ' + line.trim();
  }
  const options = entries.flatMap((entry): OptionSpec[] => {
    const name = /--([\w-]+)/.exec(entry)![1]!;
    if (name === 'help' || name === 'version') return [];
    const tags = [...entry.matchAll(/\[(\w+)(?::\s*([^\]]*))?\]/g)];
    const type = (tags.map((t) => t[1]!).find((t) => ['string', 'number', 'boolean', 'array', 'count'].includes(t)) ?? 'unknown') as OptionSpec['type'];
    const choices = [...(tags.find((t) => t[1] === 'choices')?.[2] ?? '').matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
    return [{ name, type: choices.length && type === 'unknown' ? 'string' : type, required: tags.some((t) => t[1] === 'required'), choices, describe: entry.replace(/^\s*(?:-\w, )?--[\w-]+\s*/, '') }];
  });
  // Examples: the left column (wrapped onto continuation lines) holds the command line.
  const commandLines: string[] = [];
  for (const line of parts.get('Examples') ?? []) {
    const left = line.slice(2).split(/ {2,}/)[0]!.trim();
    if (!left) continue;
    if (/(^|\s)svc-cli\s/.test(left)) commandLines.push(left);
    else if (commandLines.length) commandLines[commandLines.length - 1] += ' ' + left;
  }
  const exampleOptions = new Map<string, string[]>();
  const examplePositionals: string[][] = [];
  for (const text of commandLines) {
    for (const segment of text.split(/\s(?:&&|\|)\s/)) {
      const words = shellWords(segment);
      if (words[0] !== 'svc-cli' || words.slice(1, 1 + path.length).join(' ') !== path.join(' ')) continue;
      const rest = words.slice(1 + path.length);
      let index = 0;
      for (let i = 0; i < rest.length; i++) {
        const word = rest[i]!;
        if (!word.startsWith('-')) {
          (examplePositionals[index++] ??= []).push(word);
          continue;
        }
        const [flag, inline] = word.replace(/^-+/, '').split(/=(.*)/s);
        const option = options.find((o) => o.name === flag);
        if (!option || option.type === 'boolean') continue;
        const values = inline !== undefined ? [inline] : [];
        while (inline === undefined && rest[i + 1] !== undefined && !rest[i + 1]!.startsWith('-')) {
          values.push(rest[++i]!);
          if (option.type !== 'array') break;
        }
        exampleOptions.set(option.name, [...(exampleOptions.get(option.name) ?? []), ...values]);
      }
    }
  }
  return { path, positionals, options, children, help, exampleOptions, examplePositionals };
}

/** The whole tree, breadth first, each node's --help read once (help needs no Engine). */
async function discoverTree(): Promise<CommandSpec[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-fuzz-help-'));
  const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), NO_COLOR: '1' };
  const found: CommandSpec[] = [];
  try {
    for (let level: string[][] = [[]]; level.length; ) {
      const specs = await Promise.all(
        level.map(async (path) => {
          const r = await runCli([...path, '--help'], { env, cwd: dir });
          if (r.code !== 0 || r.stderr !== '') throw new Error(`svc-cli ${path.join(' ')} --help: exit ${r.code} ${r.stderr}`);
          return parseHelp(path, r.stdout);
        }),
      );
      found.push(...specs);
      level = specs.flatMap((spec) => spec.children.map((child) => [...spec.path, child]));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return found;
}
const tree = await discoverTree();
const leaves = tree.filter((c) => !c.children.length);
const groups = tree.filter((c) => c.children.length);

// ---------------------------------------------------------------------------------------------
// The world the runs happen in

let t: TestEngine;
let crm: DemoProvider;
let root: string;
let shared: string; // the logged-in home
let executionToken: string;
let mcpToken: string;
let versionId: string;
let spareCredential: string;
let revokedCredential: string;
let deadUrl: string;
const garbage: { url: string; server: Server }[] = [];
let seeds: Map<string, string>; // svc.*.json written by the CLI itself in the setup
/** Values that must never be printed (tokens printed once join it after their one run). */
const canaries: string[] = [];
/** Secrets given to commands under `secret` as arguments or stdin: never echoed. */
const SECRET = 'sk_fuzz_Canary_3f9a1c77e0';
const URL_PASSWORD = 'pw_fuzz_Canary_81d2';

const TOKEN_SHAPED = /svc_(?:cli|sdk|mcp)_[A-Za-z0-9_-]{20,}/g;

function envFor(home: string, url: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), SVC_ENGINE_URL: url, NO_COLOR: '1', ...extra };
}

let homes = 0;
/** A new home: empty, or holding a stored credential for the Engine (and one for another Engine). */
async function newHome(credential: boolean): Promise<string> {
  const home = join(root, `home-${++homes}`);
  mkdirSync(join(home, 'config', 'svc-cli'), { recursive: true, mode: 0o700 });
  if (credential) {
    const { token } = await t.engine.deps.tokens.issue('cli', 'fuzz');
    canaries.push(token);
    const savedAt = new Date().toISOString();
    const file = join(home, 'config', 'svc-cli', 'credentials.json');
    writeFileSync(file, JSON.stringify({ engines: { [t.url]: { token, subject: 'fuzz', savedAt }, 'http://127.0.0.1:9': { token: spareCredential, subject: 'other', savedAt } } }, null, 2) + '\n', { mode: 0o600 });
  }
  return home;
}

/** A server at SVC_ENGINE_URL that is not the Engine, answering every request the same odd way. */
const GARBAGE: ((req: IncomingMessage, res: ServerResponse) => void)[] = [
  (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello, I am not the Engine \u0000\u00ff'),
  (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"unexpected": true, "sdks": 5, "servers": "x", "tokens": [null]}'),
  (_q, res) => res.writeHead(500, { 'content-type': 'text/html' }).end('<html><body>Internal Server Error</body></html>'),
  (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"truncated": '),
  // Hostile: the bearer token it was sent, echoed in an envelope's message.
  (req, res) =>
    res
      .writeHead(401, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ok: false, status: 401, data: null, error: { code: 'ENGINE_UNAUTHENTICATED', message: `token ${req.headers.authorization ?? ''} refused`, retryable: false } })),
  (req) => req.socket.destroy(),
  (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
  (_q, res) =>
    res
      .writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ok: false, status: 400, data: null, error: { code: 'ENGINE_INVALID_INPUT', message: 'line one\nline two\r\u001b[2J', retryable: false, details: { field: 'name', errors: [{ message: 42 }] } } })),
  (req, res) => res.writeHead(302, { location: req.url ?? '/' }).end(),
  (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, status: 200, data: 'x'.repeat(3 * 1024 * 1024), error: null })),
];

/** Working-directory fixtures: files a `--file` or `<file>` may be pointed at. */
const FIXTURES: Record<string, string | Buffer> = {
  'not-json.json': '{"name": "crm", ',
  'binary.json': Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x81, 0x7b]),
  'empty.json': '',
  'array.json': '[]',
  'twice.json': '{"name": "crm", "name": "other", "services": [], "operations": []}',
  'bom.json': '\ufeff{"services": {}}',
  'deep.json': '['.repeat(5000) + ']'.repeat(5000),
  'openapi.yaml': ['openapi: 3.0.3', "info: { title: Fuzz, version: '1' }", "servers: [{ url: 'http://127.0.0.1:9' }]", 'paths:', '  /things:', '    get:', '      operationId: listThings', "      responses: { '200': { description: ok } }", ''].join('\n'),
  'bad.yaml': 'openapi: [3.0.3\n  : :\n\t- x',
};
const SPARSE = 'huge.json'; // 40 MiB of nothing, past the import cap

/** A fresh working directory for one command: the setup's svc.*.json and the fixtures. */
function workDir(name: string): string {
  const dir = join(root, 'work', name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of seeds) writeFileSync(join(dir, file), text);
  for (const [file, content] of Object.entries(FIXTURES)) writeFileSync(join(dir, file), content);
  mkdirSync(join(dir, 'a-directory'), { recursive: true });
  writeFileSync(join(dir, SPARSE), '');
  truncateSync(join(dir, SPARSE), 40 * 1024 * 1024);
  return dir;
}

const digest = (path: string) => (statSync(path).isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'dir');
function snapshot(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).filter((f) => f in FIXTURES || f.startsWith('svc.')).map((f) => [f, digest(join(dir, f))]));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'svc-cli-fuzz-'));
  crm = await startDemoProvider();
  // A device sign-in nobody approves expires after a second, so `login` without --with-token ends.
  t = await startTestEngine({ SVC_DEVICE_CODE_TTL_S: '1', SVC_DEVICE_INTERVAL_S: '0' });
  ({ token: executionToken, versionId } = await publishSdk(t, { name: 'crm', service: 'demo-crm', baseUrl: crm.url, secret: crm.apiKey, operations: ['contacts/list', 'deals/create'] }));
  const published = await t.api('POST', '/v1/mcp/publish', { name: 'agents', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] });
  expect(published.status).toBe(200);
  mcpToken = published.body.token;
  spareCredential = (await t.engine.deps.tokens.issue('cli', 'spare')).token;
  revokedCredential = (await t.engine.deps.tokens.issue('cli', 'revoked')).token;
  const revoked = await fetch(`${t.url}/v1/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${revokedCredential}` } });
  expect(revoked.status).toBeLessThan(300);
  t.canaries.push(SECRET, URL_PASSWORD, spareCredential, revokedCredential);
  canaries.push(t.cliToken, executionToken, mcpToken, crm.apiKey, SECRET, URL_PASSWORD, spareCredential, revokedCredential);

  for (const answer of GARBAGE) {
    const server = createServer(answer).listen(0, '127.0.0.1');
    await once(server, 'listening');
    garbage.push({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server });
  }
  const closed = createServer().listen(0, '127.0.0.1');
  await once(closed, 'listening');
  deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  closed.close();

  // The logged-in user, and svc.*.json files written by the CLI itself (so their format is its own).
  shared = join(root, 'shared');
  const setup = join(root, 'setup');
  mkdirSync(setup, { recursive: true });
  const env = envFor(shared, t.url);
  for (const [args, stdin] of [
    [['login', '--with-token'], t.cliToken],
    [['sdk', 'init', 'crm', '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/list', '--operation', 'demo-crm=deals/create']],
    [['mcp', 'init', 'agents', '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/list']],
    [['workspace', 'service', 'add', 'demo-crm', '--version', 'v1', '--base-url', crm.url]],
  ] as [string[], string?][]) {
    const r = await runCli(args, { env, cwd: setup, stdin });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  }
  seeds = new Map(readdirSync(setup).filter((f) => /^svc\..*\.json$/.test(f)).map((f) => [f, readFileSync(join(setup, f), 'utf8')]));
  expect([...seeds.keys()].sort()).toEqual(['svc.mcp.json', 'svc.sdk.json', 'svc.workspace.json']);
}, 120_000);

afterAll(async () => {
  for (const g of garbage) g.server.close();
  await t?.stop(); // fails if a canary reached an Engine log line
  await crm?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
  const ended = [...endings].sort().map(([how, n]) => `${how}: ${n}`).join(', ');
  console.log(`cli-fuzz: ${runs} svc-cli runs over ${leaves.length} commands and ${groups.length} groups (${ended}; ${jsonChecked} --json successes parsed)`);
});

// ---------------------------------------------------------------------------------------------
// Values

const HUGE = ['x'.repeat(100_000), 'é'.repeat(40_000), '['.repeat(40_000) + ']'.repeat(40_000), '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)];
const ODD = [
  '', ' ', '-', '=', '\t', 'ü', '日本語', '😀', 'a b', "it's", '"q"', '\\', '$(id)', '%s%n', '{}', '[]', 'null', '0', 'NaN', 'Infinity', '1e999',
  '0x10', '\u202etxt', '\u0007\u001b[31mred', 'x\ny', 'x\r\ny', '\ufeffbom', 'a'.repeat(300), '\u00a0', 'CRM', 'crm@', '@1.0.0', 'ver_', 'tok_', '*',
];
const FLAGLIKE = ['-x', '--zz', '--json'];
const WRONG_NUMBERS = ['abc', '', '1e999', '-1', '0', '1.5', '0x10', 'NaN', 'Infinity', '99999999999999999999', ' 3', '1_000'];
const UNKNOWN_FLAGS = ['--zz-bogus', '--zz-bogus=1', '-Z', '-Zq', '--JSON', '--jsn', '--Help'];
const EXTRAS = ['extra', 'ü', 'a b', '1', 'crm', '\u0007'];

/** Names and references that exist in this setup, so that some cases get past the Engine's checks. */
const DOMAIN = () => ['crm', 'agents', 'crm@1.0.0', versionId, 'demo-crm', 'demo-crm=v1', 'demo-crm=contacts/list', 'demo-crm.contacts/list', 'v1', '7d', 'never', '{}', 'tok_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'con_01ARZ3NDEKTSV4RRFFQ69G5FAV', crm.url];

/** `arb` in `percent` % of cases, else null. */
const sometimes = <T>(arb: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 100 - percent, arbitrary: fc.constant(null) }, { weight: percent, arbitrary: arb });

const stringish = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.replace(/\0/g, '')) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
);

/** Paths stay inside the working directory (the fuzz runs as whoever runs the tests, maybe root). */
const pathSafe = (v: string) => v.replace(/\.\./g, '_').replace(/^[/~]+/, '');
const PATHS = ['svc.sdk.json', 'svc.mcp.json', 'svc.workspace.json', 'new.json', 'sub/dir/x.json', 'a-directory', SPARSE, ...Object.keys(FIXTURES), 'nope/missing.json', 'ü file.json', 'x'.repeat(300)];
const isPathLike = (name: string, describe: string) => /^(file|dir|path)$/.test(name) || /\b(file|director(y|ies))\b/i.test(describe);

function valueArb(name: string, describe: string, examples: string[] | undefined, choices: string[] = []): fc.Arbitrary<string> {
  const valid = [...new Set([...(examples ?? []), ...choices])];
  if (isPathLike(name, describe)) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PATHS) }, { weight: 1, arbitrary: stringish.map(pathSafe) });
  return fc.oneof(
    { weight: valid.length ? 5 : 0, arbitrary: valid.length ? fc.constantFrom(...valid) : fc.constant('') },
    { weight: 3, arbitrary: fc.constantFrom(...DOMAIN()) },
    { weight: 2, arbitrary: stringish },
  );
}

// ---------------------------------------------------------------------------------------------
// Cases

type Form =
  | { kind: 'value'; value: string; inline: boolean }
  | { kind: 'huge'; which: number }
  | { kind: 'novalue' }
  | { kind: 'empty' }
  | { kind: 'flaglike'; value: string }
  | { kind: 'repeat'; values: [string, string] }
  | { kind: 'negated' }
  | { kind: 'dotted'; value: string }
  | { kind: 'wrongnum'; value: string }
  | { kind: 'bool'; value: 'plain' | 'true' | 'false' | 'maybe' }
  | { kind: 'camel'; value: string };

type Scenario =
  | { kind: 'user' }
  | { kind: 'nologin' }
  | { kind: 'envtoken'; which: number }
  | { kind: 'dead' }
  | { kind: 'badurl'; which: number }
  | { kind: 'garbage'; which: number };

type Placement = { where: 'positional' | 'option' | 'extra' | 'unknown' | 'dashdash'; canary: number; index: number };

interface Case {
  positionals: string[];
  missing: number;
  extra: string[];
  options: { name: string; form: Form }[];
  unknown: string | null;
  json: boolean;
  dashdash: string[] | null;
  help: '--help' | '-h' | null;
  /** Flags before the positionals, or one of them before the command words too. */
  order: 'positionals-first' | 'options-first' | 'one-before-command';
  scenario: Scenario;
  stdin: number;
  placement: Placement | null;
}

const scenarioArb: fc.Arbitrary<Scenario> = fc.oneof(
  { weight: 30, arbitrary: fc.constant<Scenario>({ kind: 'user' }) },
  { weight: 3, arbitrary: fc.constant<Scenario>({ kind: 'nologin' }) },
  { weight: 4, arbitrary: fc.nat(4).map((which) => ({ kind: 'envtoken', which }) as Scenario) },
  { weight: 2, arbitrary: fc.constant<Scenario>({ kind: 'dead' }) },
  { weight: 2, arbitrary: fc.nat(3).map((which) => ({ kind: 'badurl', which }) as Scenario) },
  { weight: 8, arbitrary: fc.nat(GARBAGE.length - 1).map((which) => ({ kind: 'garbage', which }) as Scenario) },
);

/** stdin contents; the commands that read stdin get them often, others now and then. */
const STDIN = (): (string | Buffer)[] => [
  '',
  '   \n',
  t.cliToken,
  `${t.cliToken}\r\n`,
  SECRET,
  `svc_cli_${'A'.repeat(43)}`,
  'svc_cli_\u00ff\u0001',
  Buffer.from([0xff, 0xfe, 0x80, 0x00, 0xc3]),
  'x'.repeat(2 * 1024 * 1024),
  '{"not": "json"',
  'a\u0000b',
];
const STDIN_KINDS = 11;

const readsStdin = (cmd: CommandSpec) => /standard input|stdin/i.test(cmd.options.map((o) => o.describe).join(' '));
/** Commands that print a token once (their --help says so): that output may hold the new token. */
const printsTokenOnce = (cmd: CommandSpec) => /(shown|prints?) [^.]*\btoken\b[^.]*\bonce\b|\(shown once\)/i.test(cmd.help.replace(/\s+/g, ' '));
/** Commands that change the stored credential run in a home of their own. */
const ownsCredential = (cmd: CommandSpec) => /credential/i.test(cmd.help.split('\n')[2] ?? '');
/** Under `secret` every argument may be the secret itself (cli/lib/usage.ts isUnderSecret). */
const underSecret = (cmd: CommandSpec) => cmd.path[0] === 'secret';

/** How one option is given; `clean` leaves out the forms that are usage errors by themselves. */
function formArb(o: OptionSpec, cmd: CommandSpec, clean: boolean): fc.Arbitrary<Form> {
  const value = valueArb(o.name, o.describe, cmd.exampleOptions.get(o.name), o.choices);
  const messy = clean ? 0 : 1;
  if (o.type === 'boolean') {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('plain', 'true', 'false', ...(clean ? [] : ['maybe' as const])).map((v) => ({ kind: 'bool', value: v }) as Form) },
      { weight: 1, arbitrary: fc.constant<Form>({ kind: 'negated' }) },
      { weight: messy, arbitrary: fc.constant<Form>({ kind: 'dotted', value: 'x' }) },
      { weight: messy, arbitrary: fc.constant<Form>({ kind: 'repeat', values: ['', ''] }) },
    );
  }
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(value, fc.boolean()).map(([v, inline]) => ({ kind: 'value', value: v, inline }) as Form) },
    { weight: 1, arbitrary: fc.nat(HUGE.length - 1).map((which) => ({ kind: 'huge', which }) as Form) },
    { weight: messy, arbitrary: fc.constant<Form>({ kind: 'novalue' }) },
    { weight: 1, arbitrary: fc.constant<Form>({ kind: 'empty' }) },
    { weight: messy, arbitrary: fc.constantFrom(...FLAGLIKE).map((v) => ({ kind: 'flaglike', value: v }) as Form) },
    { weight: o.type === 'array' ? 1 : messy, arbitrary: fc.tuple(value, value).map((values) => ({ kind: 'repeat', values }) as Form) },
    { weight: messy, arbitrary: fc.constant<Form>({ kind: 'negated' }) },
    { weight: messy, arbitrary: value.map((v) => ({ kind: 'dotted', value: v }) as Form) },
    { weight: o.type === 'number' ? 4 : 0, arbitrary: fc.constantFrom(...WRONG_NUMBERS).map((v) => ({ kind: 'wrongnum', value: v }) as Form) },
    { weight: o.name.includes('-') ? 1 : 0, arbitrary: value.map((v) => ({ kind: 'camel', value: v }) as Form) },
  );
}

/**
 * A case for `cmd`: half are clean (every positional and required option there, only
 * values odd), so that the handlers and the Engine are reached; the rest have argv mistakes too.
 */
function caseArb(cmd: CommandSpec): fc.Arbitrary<Case> {
  const declared = cmd.positionals.length;
  const hasJson = cmd.options.some((o) => o.name === 'json');
  const variant = (clean: boolean) =>
    fc.record({
      positionals: fc.tuple(...cmd.positionals.map((p, i) => valueArb(p.name, '', cmd.examplePositionals[i]))) as fc.Arbitrary<string[]>,
      missing: clean ? fc.constant(0) : fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: declared }) }),
      extra: clean ? fc.constant<string[]>([]) : fc.oneof({ weight: 6, arbitrary: fc.constant<string[]>([]) }, { weight: 1, arbitrary: fc.array(fc.constantFrom(...EXTRAS), { minLength: 1, maxLength: 2 }) }),
      options: fc
        .tuple(...cmd.options.map((o) => sometimes(formArb(o, cmd, clean).map((form) => ({ name: o.name, form })), o.required ? (clean ? 100 : 90) : 40)))
        .map((list) => list.filter((x): x is { name: string; form: Form } => x !== null)),
      unknown: clean ? fc.constant(null) : sometimes(fc.constantFrom(...UNKNOWN_FLAGS), 12),
      json: clean && !hasJson ? fc.constant(false) : fc.boolean(),
      dashdash: clean ? fc.constant(null) : sometimes(fc.array(fc.constantFrom(...EXTRAS), { minLength: 1, maxLength: 2 }), 8),
      help: clean ? fc.constant(null) : sometimes(fc.constantFrom('--help' as const, '-h' as const), 5),
      order: clean ? fc.constantFrom('positionals-first' as const, 'options-first' as const) : fc.constantFrom('positionals-first' as const, 'options-first' as const, 'one-before-command' as const),
      scenario: scenarioArb,
      stdin: readsStdin(cmd) ? fc.nat(STDIN_KINDS - 1) : fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(STDIN_KINDS - 1) }),
      placement: sometimes(
        fc.record({
          where: clean ? fc.constantFrom('positional' as const, 'option' as const) : fc.constantFrom('positional' as const, 'option' as const, 'extra' as const, 'unknown' as const, 'dashdash' as const),
          canary: fc.nat(underSecret(cmd) ? 3 : 2),
          index: fc.nat(5),
        }),
        clean ? 15 : 25,
      ),
    });
  return fc.oneof(variant(true), variant(false));
}

interface Rendered {
  argv: string[];
  /** Why this argv must be a usage error (exit 2); empty when it may be fine. */
  usage: string[];
  /** Values placed in argv that must never be shown back. */
  placed: string[];
  json: boolean;
  help: boolean;
}

function render(cmd: CommandSpec, c: Case): Rendered {
  const usage: string[] = [];
  const placed: string[] = [];
  const argCanaries = [t.cliToken, executionToken, mcpToken, SECRET];
  const positionals = c.positionals.slice(0, cmd.positionals.length - c.missing);
  const extra = [...c.extra];
  const flags: string[] = [];
  const trailing: string[] = [];
  const options = c.options.map((o) => ({ ...o, spec: cmd.options.find((x) => x.name === o.name)! }));
  let optionCanary: { name: string; value: string } | undefined;
  if (c.placement) {
    const canary = argCanaries[c.placement.canary]!;
    placed.push(canary);
    const valued = options.filter((o) => o.spec.type !== 'boolean');
    if (c.placement.where === 'positional' && positionals.length) positionals[c.placement.index % positionals.length] = canary;
    else if (c.placement.where === 'option' && valued.length) optionCanary = { name: valued[c.placement.index % valued.length]!.name, value: canary };
    else if (c.placement.where === 'unknown') {
      flags.push(`--zz-bogus=${canary}`);
      usage.push('unknown flag');
    } else if (c.placement.where === 'dashdash') {
      c = { ...c, dashdash: [...(c.dashdash ?? []), canary] };
    } else {
      extra.push(canary);
    }
  }
  // Extra words fill missing positionals first.
  const words = positionals.length + extra.length;
  if (words < cmd.positionals.filter((p) => p.required).length) usage.push('missing positional');
  if (words > cmd.positionals.length) usage.push('extra positional');
  if ([...positionals, ...extra].slice(0, cmd.positionals.length).some((v) => v.trim() === '')) usage.push('blank positional');
  for (const { name, form, spec } of options) {
    const flag = `--${name}`;
    const repeatable = spec.type === 'array';
    switch (form.kind) {
      case 'value':
        if (optionCanary?.name === name) flags.push(`${flag}=${optionCanary.value}`);
        else if (form.inline || form.value.startsWith('-')) flags.push(`${flag}=${form.value}`);
        else flags.push(flag, form.value);
        break;
      case 'huge':
        flags.push(`${flag}=${HUGE[form.which]}`);
        break;
      case 'novalue':
        trailing.push(flag); // last, so that no word after it can be taken for its value
        if (spec.type !== 'boolean') usage.push(`${flag} without a value`);
        break;
      case 'empty':
        flags.push(`${flag}=`);
        break;
      case 'flaglike':
        flags.push(flag, form.value);
        usage.push(`${flag} followed by ${form.value}`);
        break;
      case 'repeat':
        if (spec.type === 'boolean') flags.push(flag, flag);
        else {
          flags.push(`${flag}=${form.values[0]}`, `${flag}=${form.values[1]}`);
          if (!repeatable) usage.push(`${flag} twice`);
        }
        break;
      case 'negated':
        flags.push(`--no-${name}`);
        if (spec.type !== 'boolean') usage.push(`--no-${name}`);
        break;
      case 'dotted':
        flags.push(`${flag}.key=${form.value}`);
        usage.push(`${flag}.key`);
        break;
      case 'wrongnum':
        flags.push(`${flag}=${form.value}`);
        break;
      case 'bool':
        flags.push(form.value === 'plain' ? flag : `${flag}=${form.value}`);
        break;
      case 'camel': // yargs also accepts `--endUser` for `--end-user`
        flags.push(`--${name.replace(/-(\w)/g, (_m, ch: string) => ch.toUpperCase())}=${form.value}`);
        break;
    }
  }
  for (const o of cmd.options) {
    if (o.required && !options.some((x) => x.name === o.name)) usage.push(`--${o.name} missing`);
  }
  if (c.unknown) {
    flags.push(c.unknown);
    usage.push('unknown flag');
  }
  const hasJsonOption = cmd.options.some((o) => o.name === 'json');
  if (c.json && !options.some((o) => o.name === 'json')) {
    flags.push('--json');
    if (!hasJsonOption) usage.push('--json is not an option here');
  }
  if (c.help) flags.push(c.help);
  // `svc-cli --json sdk list`: one single-word flag moved before the command words.
  const early = c.order === 'one-before-command' ? flags.findIndex((f, i) => f.startsWith('--') && (f.includes('=') || flags[i + 1] === undefined || flags[i + 1]!.startsWith('-'))) : -1;
  const before = early >= 0 ? flags.splice(early, 1) : [];
  const argv = [...before, ...cmd.path, ...(c.order === 'options-first' ? [...flags, ...positionals, ...extra] : [...positionals, ...extra, ...flags]), ...trailing];
  if (c.dashdash) {
    argv.push('--', ...c.dashdash);
    usage.push('words after --');
  }
  if (underSecret(cmd)) placed.push(SECRET);
  // `--json` asked for plainly (not `--json=false`, not twice): a success prints JSON.
  const jsonAsked = argv.filter((a) => a === '--json').length === 1 && !argv.some((a) => /^--(no-)?json[=.]/.test(a) || a === '--no-json');
  return { argv, usage, placed, json: jsonAsked, help: c.help !== null };
}

async function environment(cmd: CommandSpec, c: Case): Promise<{ home: string; env: Record<string, string> }> {
  const s = c.scenario;
  const home = s.kind === 'nologin' ? await newHome(false) : ownsCredential(cmd) ? await newHome(true) : shared;
  const base = s.kind === 'dead' ? deadUrl : s.kind === 'garbage' ? garbage[s.which]!.url : t.url;
  const extra: Record<string, string> = { SVC_EXECUTION_TOKEN: executionToken };
  if (s.kind === 'envtoken') extra.SVC_CLI_TOKEN = [spareCredential, revokedCredential, `svc_cli_${'B'.repeat(43)}`, 'bad token\u0001', '  '][s.which]!;
  // Without a stored credential for that address, a command would stop before sending anything.
  if (s.kind === 'dead' || s.kind === 'garbage') extra.SVC_CLI_TOKEN = spareCredential;
  const url = s.kind === 'badurl' ? ['not a url', 'ftp://127.0.0.1/', `http://fuzz:${URL_PASSWORD}@127.0.0.1:9`, `${t.url}/v1`][s.which]! : base;
  return { home, env: envFor(home, url, extra) };
}

// ---------------------------------------------------------------------------------------------
// Properties

const STACK = /^\s+at .+(:\d+:\d+\)?|\(native\))$|node:internal|this is a bug|unexpected error|\b(TypeError|ReferenceError|RangeError|SyntaxError):/m;

/** What a terminal would act on rather than show: control characters and bidirectional overrides. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** An argument as an error line may show it: line breaks as spaces, other control and bidi characters as \uXXXX. */
const visible = (text: string) =>
  text
    .replace(/\s*\n\s*/g, ' ')
    .replace(new RegExp(UNPRINTABLE.source, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The <what> of a usage error names the fault: a flag as typed (`--end-user`), a positional
 * (`<name>`), a subcommand, an argument that was given (visibly), or says that it withheld one.
 */
function namesTheFault(line: string, cmd: CommandSpec, argv: string[]): boolean {
  const what = line.slice('svc-cli: '.length, line.indexOf(' — '));
  // The arguments besides the command words; `-Zq` is `-Z -q`.
  const rest = [...argv];
  for (const word of cmd.path) if (rest.includes(word)) rest.splice(rest.indexOf(word), 1);
  const given = rest.flatMap((a) => {
    const name = a.replace(/^-+/, '').split('=')[0]!;
    return [visible(a), visible(name), ...(/^-[^-]/.test(a) ? [...name] : [])];
  });
  // Every argument it calls unknown was given (yargs also lists `--zz-bogus` as `zzBogus`).
  const unknown = /^unknown arguments?: (.*)$/.exec(what);
  if (unknown && unknown[1]!.split(', ').some((name) => !given.includes(name))) return false;
  // stdin is the input at fault for `… on standard input (it was empty)` (cli/lib/stdin.ts).
  if (/not shown|secret values are not accepted|\b(sub)?command\b|standard input/.test(what)) return true;
  if (/(^|[\s'`(])--?[\w-]+|<[\w-]+>/.test(what)) return true;
  if (cmd.positionals.some((p) => new RegExp(`\\b${p.name}\\b`).test(what))) return true;
  // An unknown `--jsn` is named as yargs names it, `unknown argument: jsn` (test/cli/usage-errors-and-environment.test.ts §5).
  return given.some((a) => {
    const shownAs = a.length > 40 ? a.slice(0, 30) : a;
    if (shownAs.length >= 2) return what.includes(shownAs);
    return new RegExp(`(^|[\\s'":,])${shownAs.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[\\s'",])`).test(what);
  });
}

function checkCredentialsFile(home: string): string | undefined {
  const file = join(home, 'config', 'svc-cli', 'credentials.json');
  if (!existsSync(file)) return undefined;
  const mode = statSync(file).mode & 0o777;
  if (mode !== 0o600) return `credentials.json has mode ${mode.toString(8)}`;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed?.engines !== 'object') return 'credentials.json lost its engines';
  } catch (err) {
    return `credentials.json no longer parses: ${(err as Error).message}`;
  }
  return undefined;
}

const shown = (argv: string[]) => argv.map((a) => (a.length > 60 ? `${JSON.stringify(a.slice(0, 40))}…(${a.length})` : JSON.stringify(a))).join(' ');

/** What is wrong with how a run ended and with its error line (every run is held to these). */
function endingProblems(r: Run, node: CommandSpec, argv: string[]): string[] {
  const wrong: string[] = [];
  if (r.timedOut) wrong.push(`did not end within ${RUN_TIMEOUT_MS / 1000} s`);
  else if (r.signal) wrong.push(`ended by ${r.signal}`);
  else if (![0, 1, 2].includes(r.code!)) wrong.push(`exit code ${r.code}`);
  if (STACK.test(r.stdout + r.stderr)) wrong.push('a stack trace or bug report');
  if (!r.timedOut && r.code !== 0) {
    try {
      const line = oneErrorLine(r.stderr);
      if (UNPRINTABLE.test(line)) wrong.push('the error line holds a control or bidi character');
      if (r.code === 2 && !namesTheFault(line, node, argv)) wrong.push(`usage error names nothing given: ${line}`);
    } catch (err) {
      wrong.push((err as Error).message);
    }
  }
  return wrong;
}

/** Runs one case and returns what is wrong with the run (empty: all properties hold). */
async function violations(cmd: CommandSpec, c: Case, dir: string): Promise<string[]> {
  const rendered = render(cmd, c);
  const { home, env } = await environment(cmd, c);
  const stdin = STDIN()[c.stdin]!;
  const before = snapshot(dir);
  const r = await runCli(rendered.argv, { env, cwd: dir, stdin });
  const wrong = endingProblems(r, cmd, rendered.argv);
  const out = r.stdout + r.stderr;
  if (!rendered.help && rendered.usage.length && r.code !== 2 && !r.timedOut) wrong.push(`exit ${r.code}, not 2, though ${rendered.usage.join(', ')}`);
  if (rendered.json && !rendered.help && r.code === 0) {
    jsonChecked++;
    try {
      JSON.parse(r.stdout);
    } catch {
      wrong.push('--json printed no JSON');
    }
  }
  // Canaries: planted ones never; values given as arguments never in an error line.
  const tokenPrint = r.code === 0 && printsTokenOnce(cmd);
  for (const canary of canaries) if (out.includes(canary) && !rendered.placed.includes(canary)) wrong.push(`canary …${canary.slice(-6)} printed`);
  for (const canary of rendered.placed) if (r.stderr.includes(canary) || (underSecret(cmd) && r.stdout.includes(canary))) wrong.push(`argument canary …${canary.slice(-6)} echoed`);
  const tokens = [...out.matchAll(TOKEN_SHAPED)].map((m) => m[0]);
  if (!tokenPrint) {
    const unexpected = tokens.filter((tk) => !rendered.argv.some((a) => a.includes(tk)));
    if (unexpected.length) wrong.push(`token-shaped text printed: ${unexpected[0]!.slice(0, 12)}…`);
  } else {
    canaries.push(...tokens.filter((tk) => !canaries.includes(tk)));
  }
  // Files: still usable, and untouched by a failure.
  const credentials = checkCredentialsFile(home);
  if (credentials) wrong.push(credentials);
  for (const f of readdirSync(dir).filter((f) => /^svc\..*\.json$/.test(f))) {
    try {
      JSON.parse(readFileSync(join(dir, f), 'utf8'));
    } catch {
      wrong.push(`${f} no longer parses`);
    }
  }
  const after = snapshot(dir);
  if (r.code !== 0) for (const [f, hash] of before) if (after.get(f) !== hash) wrong.push(`failing command changed ${f}`);
  // Put the working directory back for the next case (a success may rewrite a fixture).
  for (const [f, text] of seeds) if (after.get(f) !== before.get(f) || !existsSync(join(dir, f))) writeFileSync(join(dir, f), text);
  for (const [f, content] of Object.entries(FIXTURES)) if (after.get(f) !== before.get(f)) writeFileSync(join(dir, f), content);
  if (!wrong.length) return [];
  return [`svc-cli ${shown(rendered.argv)}  [${JSON.stringify(c.scenario)}, stdin #${c.stdin}] → exit ${r.code}\n  ${wrong.join('\n  ')}\n  stdout: ${r.stdout.slice(0, 400)}\n  stderr: ${r.stderr.slice(0, 600)}`];
}

// ---------------------------------------------------------------------------------------------
// The fuzz

interface GroupCase {
  word: string | null;
  flag: string | null;
  help: boolean;
  /** `svc-cli help <group> …`, which svc-cli reads as `<group> … --help`. */
  viaHelpWord: boolean;
  scenario: Scenario;
}

/** `svc-cli <group> [word] [flag]`: a missing, misspelt or foreign subcommand, a stray flag. */
function groupCaseArb(group: CommandSpec): fc.Arbitrary<GroupCase> {
  const misspelt = group.children.flatMap((c) => [c.slice(1), c.toUpperCase(), `${c}s`, c.slice(0, -1)]);
  const elsewhere = [...new Set(tree.flatMap((c) => c.children))].filter((w) => !group.children.includes(w));
  return fc.record({
    word: sometimes(fc.oneof(fc.constantFrom(...misspelt), fc.constantFrom(...(elsewhere.length ? elsewhere : ['x'])), fc.constantFrom(...ODD, ...EXTRAS)), 80),
    flag: sometimes(fc.constantFrom(...UNKNOWN_FLAGS, '--json', '--version', '--no-color'), 40),
    help: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    viaHelpWord: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    scenario: scenarioArb,
  });
}

async function groupViolations(group: CommandSpec, c: GroupCase, dir: string): Promise<string[]> {
  const argv = [...(c.viaHelpWord ? ['help'] : []), ...group.path, ...(c.word !== null ? [c.word] : []), ...(c.flag !== null ? [c.flag] : []), ...(c.help ? ['--help'] : [])];
  const isChild = c.word !== null && group.children.includes(c.word);
  const help = c.help || c.viaHelpWord;
  const rootVersion = group.path.length === 0 && c.word === null && c.flag === '--version' && !help;
  // A word that names no subcommand is refused even beside --help (cli/bin/svc-cli.ts).
  const unknownWord = c.word !== null && !isChild && !c.word.startsWith('-');
  const usage = unknownWord || (!help && !isChild && !rootVersion);
  const { home, env } = await environment(group, { scenario: c.scenario } as Case);
  const r = await runCli(argv, { env, cwd: dir });
  const wrong = endingProblems(r, group, argv);
  if (usage && r.code !== 2) wrong.push(`exit ${r.code}, not 2`);
  for (const canary of canaries) if ((r.stdout + r.stderr).includes(canary)) wrong.push(`canary …${canary.slice(-6)} printed`);
  const credentials = checkCredentialsFile(home);
  if (credentials) wrong.push(credentials);
  return wrong.length ? [`svc-cli ${shown(argv)}  [${JSON.stringify(c.scenario)}] → exit ${r.code}\n  ${wrong.join('\n  ')}\n  stdout: ${r.stdout.slice(0, 300)}\n  stderr: ${r.stderr.slice(0, 600)}`] : [];
}

describe('svc-cli argument fuzz', { timeout: 400_000 }, () => {
  it('read the whole command tree from --help', () => {
    const paths = leaves.map((c) => c.path.join(' '));
    // A few the README walks through, so that a broken help parser cannot pass with an empty tree.
    for (const path of ['login', 'sdk invoke', 'secret set', 'mcp token create', 'workspace service import', 'skill install']) expect(paths).toContain(path);
    const invoke = leaves.find((c) => c.path.join(' ') === 'sdk invoke')!;
    expect(invoke.positionals.map((p) => p.name)).toEqual(['ref', 'operation']);
    expect(invoke.options.find((o) => o.name === 'max-pages')?.type).toBe('number');
    expect(invoke.examplePositionals[0]).toContain('crm@1.0.0');
    expect(leaves.find((c) => c.path.join(' ') === 'skill install')!.options.find((o) => o.name === 'for')?.choices).toContain('codex');
    expect(leaves.filter(printsTokenOnce).map((c) => c.path.join(' ')).sort()).toEqual(['mcp apply', 'mcp token create', 'sdk apply', 'sdk token create']);
    expect(leaves.filter(readsStdin).map((c) => c.path.join(' ')).sort()).toEqual(['auth login', 'login', 'secret set']);
    expect(leaves.filter(ownsCredential).map((c) => c.path.join(' ')).sort()).toEqual(['auth credentials list', 'auth credentials revoke', 'auth login', 'auth logout', 'login', 'logout']);
  });

  it.concurrent.for(leaves.map((cmd, i) => [cmd.path.join(' '), i] as const))('svc-cli %s', async ([, i]) => {
    const cmd = leaves[i]!;
    const dir = workDir(cmd.path.join('-'));
    await fc.assert(
      fc.asyncProperty(caseArb(cmd), async (c) => {
        const wrong = await violations(cmd, c, dir);
        if (wrong.length) throw new Error(wrong.join('\n'));
      }),
      { seed: SEED + i, numRuns: LEAF_RUNS, endOnFailure: process.env.FUZZ_NO_SHRINK === '1' },
    );
  });

  it.concurrent.for(groups.map((group, i) => [group.path.join(' ') || '(root)', i] as const))('svc-cli %s <subcommand>', async ([, i]) => {
    const group = groups[i]!;
    const dir = workDir(`group-${group.path.join('-') || 'root'}`);
    await fc.assert(
      fc.asyncProperty(groupCaseArb(group), async (c) => {
        const wrong = await groupViolations(group, c, dir);
        if (wrong.length) throw new Error(wrong.join('\n'));
      }),
      { seed: SEED + 1000 + i, numRuns: GROUP_RUNS, endOnFailure: process.env.FUZZ_NO_SHRINK === '1' },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// What the fuzz found, each shrunk to the argv that showed it (each fails without its fix)

describe('regressions found by the fuzz', { timeout: 60_000 }, () => {
  const cli = (args: string[], options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {}) =>
    runCli(args, { env: { ...envFor(shared, t.url), ...options.env }, cwd: options.cwd ?? join(root, 'setup'), stdin: options.stdin });

  /** A usage error (exit 2) on one line that contains `part` and not `hidden`. */
  function usageLine(r: Run, part: string | RegExp, hidden?: string): string {
    expect(r.code, r.stderr).toBe(2);
    const line = oneErrorLine(r.stderr);
    if (typeof part === 'string') expect(line).toContain(part);
    else expect(line).toMatch(part);
    if (hidden !== undefined) expect(r.stdout + r.stderr).not.toContain(hidden);
    expect(line).not.toMatch(/bug/);
    return line;
  }

  it('`secret set <secret> <service>` (words swapped) does not repeat the secret in its hint', async () => {
    // Fuzz: `secret set --JSON <svc_cli_…> ü`; the service word was put in the hint, and with the
    // words swapped it is the secret.
    const [swapped, fuzzed] = await Promise.all([cli(['secret', 'set', SECRET, 'demo-crm']), cli(['secret', 'set', '--JSON', t.cliToken, 'ü'])]);
    usageLine(swapped, 'secret values are not accepted as arguments', SECRET);
    usageLine(fuzzed, 'secret values are not accepted as arguments', t.cliToken);
  });

  it('a credential given as an argument is withheld from the error line', async () => {
    // Fuzz: `sdk init <svc_sdk_…> …` printed the token back in "'…' is not a valid SDK name".
    const results = await Promise.all([
      cli(['sdk', 'init', executionToken, '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/list']),
      cli(['mcp', 'token', 'create', 'agents', '--allow', mcpToken, '--expires', '7d']),
      cli(['sdk', 'token', 'create', 'crm', '--expires', t.cliToken]),
      cli(['skill', 'install', '--for', t.cliToken]),
    ]);
    usageLine(results[0]!, /'svc_sdk_… \(a credential, not shown\)' is not a valid SDK name/, executionToken);
    usageLine(results[1]!, '--allow', mcpToken);
    usageLine(results[2]!, '--expires', t.cliToken);
    usageLine(results[3]!, '--for', t.cliToken);
  });

  it('a server at SVC_ENGINE_URL that echoes the token it was sent does not get it printed', async () => {
    // Fuzz: `sdk invoke <ver_…> …` against such a server printed the execution token on both streams.
    const hostile = garbage[4]!.url;
    const [whoami, invoke] = await Promise.all([
      cli(['whoami'], { env: { SVC_ENGINE_URL: hostile, SVC_CLI_TOKEN: spareCredential } }),
      cli(['sdk', 'invoke', versionId, 'demo-crm.contacts/list'], { env: { SVC_ENGINE_URL: hostile, SVC_EXECUTION_TOKEN: executionToken } }),
    ]);
    expect(whoami.code).toBe(1);
    expect(oneErrorLine(whoami.stderr)).toContain('(a credential, not shown)');
    expect(whoami.stderr).not.toContain(spareCredential);
    expect(invoke.code).toBe(1);
    expect(oneErrorLine(invoke.stderr)).toContain('ENGINE_UNAUTHENTICATED');
    expect(JSON.parse(invoke.stdout).error.message).toBe('token Bearer svc_sdk_… (a credential, not shown) refused');
    expect(invoke.stdout + invoke.stderr).not.toContain(executionToken);
  });

  it('control characters in an argument are shown as escapes, not sent to the terminal', async () => {
    // Fuzz: `whoami --no-json $'\a'` said "unknown argument: " (the BEL rang instead); ESC and CR
    // would recolour or overwrite the line.
    // Fuzz (seed 7): `sdk apply --file $'\u202etxt'` printed the override, reversing the rest of the line.
    const [bell, escape, reversed] = await Promise.all([
      cli(['whoami', '--no-json', '\u0007']),
      cli(['sdk', 'token', 'revoke', '\u001b[2J\rtok']),
      cli(['sdk', 'token', 'revoke', '\u202etxt']),
    ]);
    usageLine(bell, /^svc-cli: unknown argument: \\u0007 — /);
    const line = usageLine(escape, "'\\u001b[2J\\u000dtok' is not a token ID");
    expect(line).not.toMatch(/[\u0000-\u001f]/);
    expect(usageLine(reversed, "'\\u202etxt' is not a token ID")).not.toContain('\u202e');
  });

  it('a working file nested thousands deep is refused on one line, not as a bug', async () => {
    // Fuzz: `workspace plan --file deep.json` said "unexpected error: Maximum call stack size exceeded … this is a bug".
    const dir = workDir('regression-deep');
    const r = await cli(['workspace', 'plan', '--file', 'deep.json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(oneErrorLine(r.stderr)).toContain('deep.json is nested too deeply');
  });

  it('a required, invalid, conflicting or dependent option is named as typed (--flag)', async () => {
    // Fuzz: `connection create <con_…> --json` said "missing required argument: end-user".
    const results = await Promise.all([
      cli(['connection', 'create', 'con_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--json']),
      cli(['mcp', 'token', 'create', 'agents']),
      cli(['skill', 'install', '--for', 'vim']),
      cli(['sdk', 'invoke', 'crm@1.0.0', 'demo-crm.contacts/list', '--max-pages', '1', '--pagination', '{}']),
      cli(['sdk', 'apply', '--dir', 'x']),
    ]);
    usageLine(results[0]!, /^svc-cli: --end-user is required — /);
    usageLine(results[1]!, /^svc-cli: --allow and --expires are required — /);
    usageLine(results[2]!, /^svc-cli: --for "vim" is not one of "claude-code", "codex", "cursor" — /);
    usageLine(results[3]!, /^svc-cli: --pagination and --max-pages are mutually exclusive — give one of them; /);
    usageLine(results[4]!, /^svc-cli: --dir needs --download — /);
  });

  it('an option before the command words is named as misplaced, not the command word it swallowed', async () => {
    // Fuzz: `svc-cli --json workspace plan` said "unknown arguments: json, plan" (yargs took
    // `workspace` for the value of --json); `--json=true workspace plan` works.
    // `svc-cli --json login` said "choose a command — run `svc-cli login --help`".
    const [valueless, inline, login, inGroup] = await Promise.all([
      cli(['--json', 'workspace', 'plan']),
      cli(['--json=true', 'sdk', 'list']),
      cli(['--json', 'login']),
      cli(['mcp', 'token', '--json', 'create', 'agents']),
    ]);
    usageLine(valueless, /^svc-cli: --json is before the command words \(it took 'workspace' for its value\) — put options after them, e\.g\. `svc-cli workspace plan --json`/);
    usageLine(login, /^svc-cli: --json is before the command words \(it took 'login' for its value\)/);
    usageLine(inGroup, /^svc-cli: --json is before the command words \(it took 'create' for its value\) — put options after them, e\.g\. `svc-cli mcp token create --json`/);
    expect(inline.code, inline.stderr).toBe(0);
    expect(JSON.parse(inline.stdout).sdks.map((x: { name: string }) => x.name)).toContain('crm');
  });

  it('an empty positional (an unset shell variable) is a usage error naming it, not "upgrade the Engine"', async () => {
    // Fuzz: `sdk token list ''` said "the Engine … answered no route for GET /v1/sdks//tokens — it may be older than svc-cli".
    const [list, remove, invoke] = await Promise.all([cli(['sdk', 'token', 'list', '']), cli(['secret', 'delete', ' ']), cli(['sdk', 'invoke', versionId, '\t'])]);
    usageLine(list, /^svc-cli: <sdk> is empty — /);
    usageLine(remove, /^svc-cli: <service> is empty — /);
    usageLine(invoke, /^svc-cli: <operation> is empty — /);
  });

  it('an unknown --flag is named once, not also as its camel-case alias', async () => {
    // Fuzz: `whoami --zz-bogus --json` said "unknown arguments: zz-bogus, zzBogus".
    usageLine(await cli(['whoami', '--zz-bogus', '--json']), /^svc-cli: unknown argument: zz-bogus — /);
  });
});
