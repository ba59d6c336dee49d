// svc-cli fixes from review: repeated one-value flags, colour only on a terminal, a wrong
// SVC_ENGINE_URL, flag values and files, usage errors that name the unknown thing, sdk invoke hints,
// URL and token hygiene, secret set edges, and Engine refusals told as flags — the real CLI against
// a real Engine (and the bundled demo-crm provider) on loopback.
import { mkdirSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliCrm, type CliCrm } from '../fixtures/apps.ts';
import { CLI_ENTRY, cliUser, oneErrorLine, run, type CliResult, type CliUser } from '../fixtures/cli.ts';
import type { TestEngine } from '../fixtures/engine.ts';

let fx: CliCrm;
let t: TestEngine;
let user: CliUser;
let executionToken: string;
const SECRET = 'sk_live_review_canary_42';

beforeAll(async () => {
  fx = await startCliCrm({ operations: ['contacts/list', 'contacts/get', 'account/get'], login: true });
  ({ t, user } = fx);
  t.canaries.push(SECRET);
  executionToken = fx.sdk.token;
});
afterAll(() => fx?.stop());

/** Runs every case at once (they are independent) and returns the results in order. */
const all = (cases: string[][], options?: Parameters<CliUser['cli']>[1]) => Promise.all(cases.map((args) => user.cli(args, options)));

function expectUsage(r: CliResult, args: string[], pattern: RegExp | string): string {
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
  const line = oneErrorLine(r.stderr);
  if (typeof pattern === 'string') expect(line, args.join(' ')).toContain(pattern);
  else expect(line, args.join(' ')).toMatch(pattern);
  expect(line).not.toContain('bug');
  return line;
}

/** A server that is not the Engine, answering every request with `answer`. */
async function otherServer(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(answer).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('1. a one-value flag given twice is a usage error', { timeout: 90_000 }, () => {
  it('names the flag and exits 2, for every kind of single-value option', async () => {
    const cases: [string[], string][] = [
      [['mcp', 'token', 'create', 'agents', '--allow', 'x', '--expires', '7d', '--expires', '1d'], '--expires was given twice'],
      [['mcp', 'token', 'create', 'agents', '--allow', 'demo-crm.contacts/list', '--expires', '7d', '--end-user', 'a', '--end-user', 'b'], '--end-user was given twice'],
      [['skill', 'install', '--for', 'codex', '--for', 'cursor'], '--for was given twice'],
      [['sdk', 'plan', '--file', 'a', '--file', 'b'], '--file was given twice'],
      [['connection', 'create', 'demo-crm', '--end-user', 'a', '--end-user', 'b'], '--end-user was given twice'],
      [['workspace', 'services', 'list', '--q', 'a', '--q', 'b'], '--q was given twice'],
      [['sdk', 'invoke', 'crm@1.0.0', 'demo-crm.contacts/list', '--max-pages', '1', '--max-pages', '2'], '--max-pages was given twice'],
      [['sdk', 'activity', 'crm@1.0.0', '--limit', '1', '--limit', '2', '--limit', '3'], '--limit was given 3 times'],
    ];
    const results = await all(cases.map(([args]) => args), { env: { SVC_EXECUTION_TOKEN: executionToken } });
    cases.forEach(([args, message], i) => {
      const line = expectUsage(results[i]!, args, message);
      expect(line).toMatch(new RegExp(`run \`svc-cli ${args.slice(0, args[0] === 'workspace' ? 3 : args[1] === 'token' ? 3 : 2).join(' ')} --help\``));
    });
  });

  it('keeps the repeatable flags as lists', async () => {
    const [init, token] = await all([
      ['sdk', 'init', 'twice', '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/list', '--operation', 'demo-crm=contacts/get', '--file', join(user.home, 'twice.sdk.json')],
      ['mcp', 'token', 'create', 'agents', '--allow', 'demo-crm.contacts/list', '--allow', 'demo-crm.contacts/*', '--expires', '1h', '--json'],
    ]);
    expect(init!.code, init!.stderr).toBe(0);
    expect(init!.stdout).toContain('2 operations');
    expect(token!.code, token!.stderr).toBe(0);
    const created = JSON.parse(token!.stdout);
    t.canaries.push(created.token);
    expect(created.allow).toEqual(['demo-crm.contacts/*', 'demo-crm.contacts/list']);
  });
});

describe('2. colour only on a terminal', { timeout: 60_000 }, () => {
  const ESC = '\u001b[';
  // `bucket list` prints a table with a bold header; `workspace plan` colours its lines.
  const planFile = () => {
    const file = join(user.home, 'colour.workspace.json');
    writeFileSync(file, JSON.stringify({ services: {} })); // disables demo-crm: a red `-` line
    return file;
  };

  it('prints no colour codes into a pipe, even when CI is set', async () => {
    const file = planFile();
    const results = await Promise.all([
      user.cli(['bucket', 'list'], { env: { CI: 'true', NO_COLOR: undefined } }),
      user.cli(['workspace', 'plan', '--file', file], { env: { CI: '1', NO_COLOR: undefined, FORCE_COLOR: undefined } }),
    ]);
    for (const r of results) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain(ESC);
    }
    expect(results[1]!.stdout).toContain('  - demo-crm v1');
  });

  it('colours a terminal, unless NO_COLOR or --no-color says not to', async () => {
    const file = planFile();
    const onTty = (args: string[], env: Record<string, string> = {}) => {
      const command = [process.execPath, CLI_ENTRY, ...args].map((a) => `'${a}'`).join(' ');
      return run('script', ['-qec', command, '/dev/null'], {
        cwd: user.home,
        env: { PATH: process.env.PATH, HOME: user.home, XDG_CONFIG_HOME: user.configHome, SVC_ENGINE_URL: t.url, TERM: 'xterm', ...env },
      });
    };
    const [plain, noColorEnv, noColorFlag] = await Promise.all([
      onTty(['workspace', 'plan', '--file', file]),
      onTty(['workspace', 'plan', '--file', file], { NO_COLOR: '1' }),
      onTty(['workspace', 'plan', '--file', file, '--no-color']),
    ]);
    expect(plain.code, plain.stdout).toBe(0);
    expect(plain.stdout).toContain(`${ESC}31m  - demo-crm v1`);
    for (const r of [noColorEnv, noColorFlag]) {
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).toContain('  - demo-crm v1');
      expect(r.stdout).not.toContain(ESC);
    }
  });
});

describe('3. a wrong SVC_ENGINE_URL is not blamed on the arguments', { timeout: 60_000 }, () => {
  it('says the URL has an extra path when the Engine has no route for what the CLI built', async () => {
    const r = await user.cli(['sdk', 'list'], { env: { SVC_ENGINE_URL: `${t.url}/v1`, SVC_CLI_TOKEN: t.cliToken } });
    expect(r.code).toBe(1);
    const line = oneErrorLine(r.stderr);
    expect(line).toContain("SVC_ENGINE_URL has an extra path ('/v1')");
    expect(line).toContain(`set SVC_ENGINE_URL to the Engine's root, e.g. ${t.url}`);
    expect(line).not.toContain('check the arguments');
    // With the stored credential (kept under the right URL), the mismatch is named too.
    const stored = await user.cli(['sdk', 'list'], { env: { SVC_ENGINE_URL: `${t.url}/v1` } });
    expect(stored.code).toBe(1);
    expect(oneErrorLine(stored.stderr)).toBe(`svc-cli: not logged in to ${t.url}/v1, but to ${t.url} — check SVC_ENGINE_URL (the Engine's address is usually ${t.url}), or run \`svc-cli login\` for ${t.url}/v1`);
  });

  it('says a plain web server or another API does not look like svc-engine', async () => {
    const web = await otherServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>File not found</h1>'));
    const api = await otherServer((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Bad credentials"}'));
    const ok = await otherServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'));
    try {
      const runs = await Promise.all([
        user.cli(['sdk', 'list'], { env: { SVC_ENGINE_URL: web.url, SVC_CLI_TOKEN: t.cliToken } }),
        user.cli(['whoami'], { env: { SVC_ENGINE_URL: api.url, SVC_CLI_TOKEN: t.cliToken } }),
        user.cli(['bucket', 'list'], { env: { SVC_ENGINE_URL: ok.url, SVC_CLI_TOKEN: t.cliToken } }),
        user.cli(['logout'], { env: { SVC_ENGINE_URL: web.url, SVC_CLI_TOKEN: t.cliToken } }),
      ]);
      for (const [r, url] of [[runs[0]!, web.url], [runs[1]!, api.url], [runs[2]!, ok.url], [runs[3]!, web.url]] as const) {
        expect(r.code, r.stderr).toBe(1);
        const line = oneErrorLine(r.stderr);
        expect(line).toContain(`the server at ${url} does not look like svc-engine`);
        expect(line).toContain('check SVC_ENGINE_URL');
        expect(line).not.toMatch(/check the arguments|refused the CLI credential/);
      }
    } finally {
      for (const s of [web, api, ok]) s.server.close();
    }
  });
});

describe('4. flag values and working files', { timeout: 90_000 }, () => {
  it('refuses --file and --q without a value (exit 2) instead of reading the directory or listing everything', async () => {
    const cases = [
      ['workspace', 'plan', '--file'],
      ['workspace', 'apply', '--file'],
      ['workspace', 'service', 'add', 'demo-crm', '--version', 'v1', '--file'],
      ['workspace', 'service', 'remove', 'demo-crm', '--file'],
      ['workspace', 'services', 'list', '--q'],
    ];
    const results = await all(cases);
    cases.forEach((args, i) => expectUsage(results[i]!, args, /needs a value — run `svc-cli workspace .*--help`/));
  });

  it('names a directory given as --file to init (exit 1), not as a bug', async () => {
    const dir = join(user.home, 'a-dir');
    mkdirSync(dir, { recursive: true });
    const results = await all([
      ['sdk', 'init', 'crm', '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/list', '--file', dir],
      ['mcp', 'init', 'agents', '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/list', '--file', dir],
      ['workspace', 'plan', '--file', dir],
    ]);
    for (const r of results) {
      expect(r.code, r.stderr).toBe(1);
      const line = oneErrorLine(r.stderr);
      expect(line).toContain(`${dir} is a directory, not a file`);
      expect(line).not.toMatch(/bug|delete it/);
    }
  });

  it('names the workspace file it was given, and refuses a list of services', async () => {
    const bad = join(user.home, 'ws1.json');
    const list = join(user.home, 'ws2.json');
    const none = join(user.home, 'ws3.json');
    writeFileSync(bad, JSON.stringify({ service: { 'demo-crm': { version: 'v1' } } }));
    writeFileSync(list, JSON.stringify({ services: [] }));
    writeFileSync(none, JSON.stringify({ services: {} }));
    const [r1, r2, r3] = await all([
      ['workspace', 'plan', '--file', bad],
      ['workspace', 'plan', '--file', list],
      ['workspace', 'plan', '--file', none],
    ]);
    expect(r1!.code).toBe(1);
    expect(oneErrorLine(r1!.stderr)).toMatch(new RegExp(`^svc-cli: ${bad} is not a workspace file`));
    expect(r2!.code).toBe(1);
    expect(oneErrorLine(r2!.stderr)).toMatch(new RegExp(`^svc-cli: ${list} is not a workspace file`));
    // An empty object is the explicit "no services" (what removing the last one writes).
    expect(r3!.code, r3!.stderr).toBe(0);
    expect(r3!.stdout).toContain('  - demo-crm v1');
  });
});

describe('5. usage errors name the unknown thing and the right --help', { timeout: 60_000 }, () => {
  it('points at the command that was run', async () => {
    const cases: [string[], RegExp][] = [
      [['whoami', '--jsn'], /unknown argument: jsn — run `svc-cli whoami --help`/],
      [['logout', '--x'], /run `svc-cli logout --help`/],
      [['token', 'list'], /^svc-cli: unknown command 'token' — did you mean `svc-cli sdk token` or `svc-cli mcp token`\? run `svc-cli --help`/],
      [['bogus'], /^svc-cli: unknown command 'bogus' — run `svc-cli --help`/],
      [['bogus', '--help'], /^svc-cli: unknown command 'bogus'/],
      [['sdk', 'bogus'], /^svc-cli: unknown sdk subcommand 'bogus' — run `svc-cli sdk --help`/],
      [['mcp', 'tokn'], /unknown mcp subcommand 'tokn' — did you mean `svc-cli mcp token`\?/],
      [['--foo'], /^svc-cli: unknown option --foo — run `svc-cli --help`/],
      [['sdk', '--foo'], /^svc-cli: unknown option --foo — run `svc-cli sdk --help`/],
    ];
    const results = await all(cases.map(([args]) => args));
    cases.forEach(([args, pattern], i) => expectUsage(results[i]!, args, pattern));
  });

  it('answers `svc-cli help <command>` like `<command> --help`', async () => {
    const [help, direct, root] = await all([['help', 'sdk'], ['sdk', '--help'], ['help']]);
    expect(help!.code, help!.stderr).toBe(0);
    expect(help!.stdout).toBe(direct!.stdout);
    expect(help!.stdout).toContain('svc-cli sdk invoke');
    expect(root!.code).toBe(0);
  });
});

describe('6. sdk invoke hints', { timeout: 90_000 }, () => {
  const invoke = (...args: string[]) => user.cli(['sdk', 'invoke', 'crm@1.0.0', ...args], { env: { SVC_EXECUTION_TOKEN: executionToken } });

  it('points at the part of the call that was wrong', async () => {
    const [provider, pages, unknown, json, empty] = await Promise.all([
      invoke('demo-crm.contacts/get', '--params', '{"contact_id": "con_nope"}'),
      invoke('demo-crm.contacts/list', '--max-pages', '50'),
      invoke('demo-crm.contacts/nope'),
      invoke('demo-crm.contacts/list', '--params', '{"limit": 10}', '--json'),
      invoke(''),
    ]);
    expect(provider!.code).toBe(1);
    expect(JSON.parse(provider!.stdout).error).toMatchObject({ code: 'PROVIDER_ERROR', details: { providerBody: expect.anything() } });
    expect(oneErrorLine(provider!.stderr)).toContain('error.details.providerBody');

    expect(pages!.code).toBe(1);
    const pagesLine = oneErrorLine(pages!.stderr);
    expect(pagesLine).toContain('ENGINE_PAGINATION_INVALID');
    expect(pagesLine).toMatch(/— pass a --max-pages below \d+, or leave it out$/);
    expect(pagesLine).not.toContain('--params');

    expect(unknown!.code).toBe(1);
    const unknownLine = oneErrorLine(unknown!.stderr);
    expect(unknownLine).toContain('ENGINE_UNKNOWN_OPERATION');
    expect(unknownLine).toContain('crm@1.0.0 has demo-crm.account/get, demo-crm.contacts/get, demo-crm.contacts/list');

    // --json is accepted (the output is always JSON)
    expect(json!.code, json!.stderr).toBe(0);
    expect(JSON.parse(json!.stdout)).toMatchObject({ ok: true });

    const emptyLine = expectUsage(empty!, ['sdk', 'invoke', "''"], /^svc-cli: <operation> is empty — give <operation>: operation, e\.g\. demo-crm\.contacts\/list/);
    expect(emptyLine).not.toContain('--params');
  });
});

describe('7. URL credentials are never echoed', { timeout: 60_000 }, () => {
  it('refuses a user name and password in SVC_ENGINE_URL without printing them', async () => {
    const results = await Promise.all(
      ['http://user:pw-canary-1@127.0.0.1:1', 'http://user:pw-canary-2@', 'ftp://user:pw-canary-3@example.test'].map((url) =>
        user.cli(['sdk', 'list'], { env: { SVC_ENGINE_URL: url } }),
      ),
    );
    for (const r of results) {
      expect(r.code).toBe(1);
      oneErrorLine(r.stderr);
      expect(r.stderr + r.stdout).not.toMatch(/pw-canary|user:/);
    }
    expect(results[0]!.stderr).toContain('SVC_ENGINE_URL must not carry a user name or password (http://127.0.0.1:1)');
  });
});

describe('8. a malformed credential is named, not reported as an unreachable Engine', { timeout: 60_000 }, () => {
  it('says SVC_CLI_TOKEN or the stored credential is malformed, without echoing it', async () => {
    const env = await user.cli(['sdk', 'list'], { env: { SVC_CLI_TOKEN: 'svc_cli_abc\u0001canary' } });
    expect(env.code).toBe(1);
    expect(oneErrorLine(env.stderr)).toMatch(/^svc-cli: SVC_CLI_TOKEN is malformed/);
    expect(env.stderr).not.toMatch(/canary|cannot reach/);

    const other = cliUser(t.url);
    try {
      mkdirSync(join(other.configHome, 'svc-cli'), { recursive: true, mode: 0o700 });
      writeFileSync(
        join(other.configHome, 'svc-cli', 'credentials.json'),
        JSON.stringify({ engines: { [t.url]: { token: 'svc_cli_x\u0001canary', subject: 'x', savedAt: '2026-01-01T00:00:00Z' } } }),
        { mode: 0o600 },
      );
      const stored = await other.cli(['bucket', 'list']);
      expect(stored.code).toBe(1);
      expect(oneErrorLine(stored.stderr)).toMatch(/^svc-cli: the credential stored for .* is malformed — run `svc-cli login` again/);
      expect(stored.stderr).not.toContain('canary');
    } finally {
      other.cleanup();
    }
  });
});

describe('9. secret set edges', { timeout: 60_000 }, () => {
  it('calls a mistyped flag unknown without showing it, and warns about --value-stdin=<value>', async () => {
    const [typo, valued, valuedSecret] = await Promise.all([
      user.cli(['secret', 'set', 'demo-crm', '--value-stdn'], { input: 'x' }),
      user.cli(['secret', 'set', 'demo-crm', `--value-stdin=${SECRET}`], { input: 'x' }),
      user.cli(['secret', 'set', 'demo-crm', `--value-stdn=${SECRET}`], { input: 'x' }),
    ]);
    const line = expectUsage(typo!, ['--value-stdn'], /^svc-cli: unknown option \(not shown, in case it holds a secret\)/);
    expect(line).not.toContain('value-stdn');
    expectUsage(valued!, ['--value-stdin=…'], 'secret values are not accepted as arguments (they would end up in shell history');
    expectUsage(valuedSecret!, ['--value-stdn=…'], 'secret values are not accepted as arguments');
    for (const r of [typo!, valued!, valuedSecret!]) expect(r.stderr + r.stdout).not.toContain(SECRET);
  });
});

describe('10. Engine refusals told as the flag or file field', { timeout: 60_000 }, () => {
  it('points an empty operations list at the file', async () => {
    const file = join(user.home, 'empty.json');
    writeFileSync(file, JSON.stringify({ name: 'crm', services: ['demo-crm=v1'], operations: [] }));
    const r = await user.cli(['sdk', 'validate', '--file', file]);
    expect(r.code).toBe(1);
    const line = oneErrorLine(r.stderr);
    expect(line).toMatch(/^svc-cli: empty\.json "operations" is empty — list at least one entry in empty\.json/);
    expect(line).not.toMatch(/body\/operations|check the arguments/);
  });

  it('tells an --allow the MCP server does not expose as --allow (exit 2), and a hint once', async () => {
    const [allow, list] = await all([
      ['mcp', 'token', 'create', 'agents', '--allow', 'demo-crm.contacts/list', '--allow', 'github.issues/create', '--expires', '1d'],
      ['mcp', 'token', 'list', 'nosuch'],
    ]);
    const line = expectUsage(allow!, ['--allow'], /^svc-cli: --allow 'github\.issues\/create' matches no operation of agents 1\.0\.0 — allow only operations agents exposes/);
    expect(line).not.toMatch(/allow\[1\]|check the arguments/);
    expect(list!.code).toBe(1);
    const listLine = oneErrorLine(list!.stderr);
    expect(listLine).toBe("svc-cli: no MCP server named 'nosuch' — list them with `svc-cli mcp list`");
  });
});

describe('11. help and messages name what they mean', { timeout: 60_000 }, () => {
  it('documents --query (with --q), SVC_CLI_TOKEN, and names a missing <name> or file', async () => {
    const [services, root, init, validate] = await all([
      ['workspace', 'services', 'list', '--help'],
      ['--help'],
      ['sdk', 'init'],
      ['sdk', 'validate', '--file', 'uni.json'],
    ]);
    expect(services!.stdout).toMatch(/^ {2}-q, --query +search text/m);
    expect(services!.stdout).toContain('svc-cli workspace services list --query crm');
    expect(root!.stdout).toMatch(/^Environment:\n(.*\n)*\s+SVC_CLI_TOKEN\s/m);
    expectUsage(init!, ['sdk', 'init'], /^svc-cli: missing <name> \(svc-cli sdk init <name>\) — run `svc-cli sdk init --help`/);
    expect(validate!.code).toBe(1);
    expect(oneErrorLine(validate!.stderr)).toMatch(new RegExp(`^svc-cli: no SDK definition at ${join(user.home, 'uni.json')} — check the path given to --file`));
  });

  it('still takes --q and -q', async () => {
    const [long, short] = await all([
      ['workspace', 'services', 'list', '--q', 'demo', '--json'],
      ['workspace', 'services', 'list', '-q', 'demo', '--json'],
    ]);
    for (const r of [long!, short!]) {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).services.map((s: { name: string }) => s.name)).toContain('demo-crm');
    }
  });
});

describe('12. a server answering 200 JSON that is not the Engine', { timeout: 60_000 }, () => {
  it('is named, with the operation and the field the spec expected, never a crash or made-up output', async () => {
    const other = await otherServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":1}'));
    try {
      const env = { SVC_ENGINE_URL: other.url, SVC_CLI_TOKEN: t.cliToken };
      const cases: [string[], string][] = [
        [['sdk', 'list'], "GET /v1/sdks is not what svc-engine"],
        [['bucket', 'list'], "GET /v1/buckets is not what svc-engine"],
        [['whoami'], "GET /v1/auth/whoami is not what svc-engine"],
        [['sdk', 'activity', 'crm@1.0.0'], "GET /v1/sdks/{name}/versions is not what svc-engine"],
      ];
      const results = await Promise.all(cases.map(([args]) => user.cli(args, { env })));
      cases.forEach(([args, message], i) => {
        const r = results[i]!;
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stdout, args.join(' ')).toBe('');
        const line = oneErrorLine(r.stderr);
        expect(line).toContain(message);
        expect(line).toContain('SVC_ENGINE_URL');
        expect(line).not.toContain('bug');
      });
    } finally {
      other.server.close();
    }
  });

  it('takes an answer with fields a newer Engine added', async () => {
    const newer = await otherServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"sdks":[],"addedLater":{"x":1}}'));
    try {
      const r = await user.cli(['sdk', 'list', '--json'], { env: { SVC_ENGINE_URL: newer.url, SVC_CLI_TOKEN: t.cliToken } });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ sdks: [] });
    } finally {
      newer.server.close();
    }
  });
});
