// svc-cli's error contract: exit 2 for usage, 1 for failures, and exactly one stderr line
// `svc-cli: <what is wrong> — <how to fix>` — against a real Engine.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { CLI_ENTRY, cliUser, oneErrorLine, run, type CliUser } from '../fixtures/cli.ts';

let t: TestEngine;
let user: CliUser;
const SECRET = 'sk_live_canary_do_not_echo_123';

beforeAll(async () => {
  t = await startTestEngine();
  user = cliUser(t.url);
  t.canaries.push(SECRET);
  // demo-crm is enabled (at its catalog URL; nothing is called) so definitions can name it.
  expect((await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1' })).status).toBe(200);
  const login = await user.cli(['login', '--with-token'], { input: t.cliToken });
  expect(login.code).toBe(0);
});
afterAll(async () => {
  await t?.stop();
  user?.cleanup();
});

const cli = (...args: string[]) => user.cli(args);

describe('usage errors exit 2 with one line', { timeout: 60_000 }, () => {
  it('refuses a secret given as an argument, without echoing it', async () => {
    for (const args of [
      ['secret', 'set', 'demo-crm', SECRET],
      ['secret', 'set', 'demo-crm', '--value', SECRET],
      ['secret', 'set', 'demo-crm', `--value=${SECRET}`, '--value-stdin'],
      ['secret', 'set', 'demo-crm', '--valeu', SECRET],
      ['--bucket', 'default', 'secret', 'set', 'demo-crm', SECRET],
    ]) {
      const r = await user.cli(args, { input: 'from-stdin' });
      expect(r.code, args.join(' ')).toBe(2);
      expect(oneErrorLine(r.stderr)).toContain('secret values are not accepted as arguments');
      expect(r.stderr + r.stdout).not.toContain(SECRET);
    }
    // nothing was stored
    expect((await t.api('GET', '/v1/buckets')).body.buckets[0].secrets).toEqual([]);
  });

  it('refuses to read a secret or credential from a terminal', async () => {
    // util-linux `script` gives the CLI a pseudo-terminal as stdin (and stdout/stderr, merged).
    for (const [args, what] of [
      [['secret', 'set', 'demo-crm', '--value-stdin'], 'secret'],
      [['login', '--with-token'], 'CLI credential'],
    ] as const) {
      const command = [process.execPath, CLI_ENTRY, ...args].map((a) => `'${a}'`).join(' ');
      const r = await run('script', ['-qec', command, '/dev/null'], {
        env: { PATH: process.env.PATH, HOME: user.home, XDG_CONFIG_HOME: user.configHome, SVC_ENGINE_URL: t.url, NO_COLOR: '1' },
      });
      expect(r.code, args.join(' ')).toBe(2);
      expect(oneErrorLine(r.stdout.replace(/\r/g, ''))).toMatch(new RegExp(`^svc-cli: ${what} is read from standard input, which is a terminal here — pipe it in`));
    }
  });

  it('refuses bad --params JSON', async () => {
    const r = await user.cli(['sdk', 'invoke', 'crm@1.0.0', 'demo-crm.contacts/list', '--params', '{limit: 10}'], { env: { SVC_EXECUTION_TOKEN: 'svc_sdk_x' } });
    expect(r.code).toBe(2);
    expect(oneErrorLine(r.stderr)).toMatch(/^svc-cli: --params is not valid JSON \(.+\) — pass a JSON object/);
    const array = await user.cli(['sdk', 'invoke', 'crm@1.0.0', 'demo-crm.contacts/list', '--params', '[1]'], { env: { SVC_EXECUTION_TOKEN: 'svc_sdk_x' } });
    expect(array.code).toBe(2);
    expect(oneErrorLine(array.stderr)).toContain('--params must be a JSON object');
  });

  it('refuses an --expires it does not understand', async () => {
    for (const expires of ['3w', 'tomorrow', '0m', '2020-01-01T00:00:00Z', '2030-13-45T99:00:00Z']) {
      const r = await cli('mcp', 'token', 'create', 'agent', '--allow', 'demo-crm.contacts/list', '--expires', expires);
      expect(r.code, expires).toBe(2);
      expect(oneErrorLine(r.stderr)).toContain(`--expires '${expires}'`);
    }
  });

  it('refuses unknown commands, unknown flags and missing arguments', async () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command 'frobnicate' — run `svc-cli --help`/],
      [['sdk', 'plan', '--frob'], /unknown argument: frob — run `svc-cli sdk plan --help`/i],
      [['workspace', 'service', 'add', 'demo-crm'], /--version is required — run `svc-cli workspace service add --help`/],
      [['mcp', 'token'], /choose a token subcommand/],
      [['skill', 'install', '--for', 'vim'], /--for "vim" is not one of "claude-code", "codex", "cursor"/],
      [['mcp', 'token', 'revoke', 'nope'], /'nope' is not a token ID/],
      [['sdk', 'init', 'Bad Name', '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/list'], /not a valid SDK name/],
      [['sdk', 'init', 'crm', '--service', 'demo-crm', '--operation', 'demo-crm=contacts/list'], /--service 'demo-crm' is not <service>=<version>/],
    ];
    for (const [args, message] of cases) {
      const r = await user.cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(oneErrorLine(r.stderr), args.join(' ')).toMatch(message);
    }
  });
});

describe('failures exit 1 with one line', { timeout: 60_000 }, () => {
  it('refuses an empty secret on stdin as a usage error (exit 2, like a terminal on stdin)', async () => {
    const r = await user.cli(['secret', 'set', 'demo-crm', '--value-stdin'], { input: '' });
    expect(r.code).toBe(2);
    expect(oneErrorLine(r.stderr)).toMatch(/^svc-cli: no secret on standard input \(it was empty\) — pipe it in/);
    const newline = await user.cli(['secret', 'set', 'demo-crm', '--value-stdin'], { input: '\n' });
    expect(newline.code).toBe(2);
  });

  it('names an unknown service, version or operation in sdk init', async () => {
    const cases: [string[], string][] = [
      [['--service', 'nocrm=v1', '--operation', 'nocrm=contacts/list'], "svc-cli: --service 'nocrm=v1': unknown service 'nocrm'"],
      [['--service', 'demo-crm=v9', '--operation', 'demo-crm=contacts/list'], "svc-cli: --service 'demo-crm=v9': service 'demo-crm' has no version 'v9' (available: v1)"],
      [['--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/list', '--operation', 'demo-crm=contacts/nope'], "svc-cli: --operation 'demo-crm=contacts/nope': unknown operation 'contacts/nope' in demo-crm@v1"],
    ];
    for (const [flags, start] of cases) {
      const r = await user.cli(['sdk', 'init', 'crm', ...flags], { cwd: user.home });
      expect(r.code, flags.join(' ')).toBe(1);
      expect(oneErrorLine(r.stderr).startsWith(start), r.stderr).toBe(true);
    }
  });

  it('names an unknown service, version or operation in sdk validate', async () => {
    const file = join(user.home, 'broken.sdk.json');
    const cases: [object, string][] = [
      [{ name: 'crm', services: ['nocrm=v1'], operations: ['nocrm=contacts/list'] }, "svc-cli: broken.sdk.json services[0] ('nocrm=v1'): unknown service 'nocrm'"],
      [{ name: 'crm', services: ['demo-crm=v7'], operations: ['demo-crm=contacts/list'] }, "svc-cli: broken.sdk.json services[0] ('demo-crm=v7'): service 'demo-crm' has no version 'v7'"],
      [{ name: 'crm', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list', 'demo-crm=deals/nope'] }, "svc-cli: broken.sdk.json operations[1] ('demo-crm=deals/nope'): unknown operation 'deals/nope'"],
    ];
    for (const [definition, start] of cases) {
      writeFileSync(file, JSON.stringify(definition));
      const r = await cli('sdk', 'validate', '--file', file);
      expect(r.code).toBe(1);
      expect(oneErrorLine(r.stderr).startsWith(start), r.stderr).toBe(true);
    }
    writeFileSync(file, '{"name": ');
    const bad = await cli('sdk', 'validate', '--file', file);
    expect(bad.code).toBe(1);
    expect(oneErrorLine(bad.stderr)).toMatch(/^svc-cli: broken\.sdk\.json is not valid JSON/);
    const missing = await user.cli(['sdk', 'plan'], { cwd: join(user.home, '..') });
    expect(missing.code).toBe(1);
    expect(oneErrorLine(missing.stderr)).toMatch(/^svc-cli: no svc\.sdk\.json in .+ — run `svc-cli sdk init/);
  });

  it('needs SVC_EXECUTION_TOKEN for sdk invoke', async () => {
    const r = await cli('sdk', 'invoke', 'crm@1.0.0', 'demo-crm.contacts/list');
    expect(r.code).toBe(1);
    expect(oneErrorLine(r.stderr)).toBe('svc-cli: SVC_EXECUTION_TOKEN is not set — export the execution token printed by the first `svc-cli sdk apply`');
  });

  it('tells how to sign in when there is no credential', async () => {
    const stranger = cliUser(t.url);
    try {
      const r = await stranger.cli(['bucket', 'list']);
      expect(r.code).toBe(1);
      expect(oneErrorLine(r.stderr)).toBe(`svc-cli: not logged in to ${t.url} — run \`svc-cli login\` (or pipe a credential to \`svc-cli login --with-token\`)`);
      const empty = await stranger.cli(['login', '--with-token'], { input: '' });
      expect(empty.code).toBe(2); // nothing piped in: usage, as for a terminal on stdin
      expect(oneErrorLine(empty.stderr)).toContain('no CLI credential on standard input');
      const garbage = await stranger.cli(['login', '--with-token'], { input: 'hunter2' });
      expect(garbage.code).toBe(1);
      expect(oneErrorLine(garbage.stderr)).toContain('does not hold a CLI credential');
      expect(garbage.stderr).not.toContain('hunter2');
    } finally {
      stranger.cleanup();
    }
  });

  it('reports a revoked or expired credential', async () => {
    const revoked = await t.engine.deps.tokens.issue('cli', 'gone');
    const expired = await t.engine.deps.tokens.issue('cli', 'old', { expiresAt: new Date(Date.now() - 60_000).toISOString() });
    t.canaries.push(revoked.token, expired.token);
    await t.engine.deps.tokens.revoke(revoked.row.id);

    const viaEnv = await user.cli(['whoami'], { env: { SVC_CLI_TOKEN: revoked.token } });
    expect(viaEnv.code).toBe(1);
    expect(oneErrorLine(viaEnv.stderr)).toMatch(
      /^svc-cli: the CLI credential was revoked at \d{4}-\d\d-\d\dT[\d:.]+Z — SVC_CLI_TOKEN holds an expired or revoked credential; unset it or use a new one$/,
    );
    const old = await user.cli(['bucket', 'list'], { env: { SVC_CLI_TOKEN: expired.token } });
    expect(old.code).toBe(1);
    expect(oneErrorLine(old.stderr)).toContain(`the CLI credential expired at ${expired.row.expiresAt}`);

    // A stored credential that was revoked at the Engine.
    const other = cliUser(t.url);
    try {
      const fresh = await t.engine.deps.tokens.issue('cli', 'soon-revoked');
      t.canaries.push(fresh.token);
      expect((await other.cli(['login', '--with-token'], { input: fresh.token })).code).toBe(0);
      await t.engine.deps.tokens.revoke(fresh.row.id);
      const r = await other.cli(['sdk', 'list']);
      expect(r.code).toBe(1);
      expect(oneErrorLine(r.stderr)).toMatch(/^svc-cli: the CLI credential was revoked at \S+Z — run `svc-cli login` to sign in again$/);
      const login = await other.cli(['login', '--with-token'], { input: revoked.token });
      expect(login.code).toBe(1);
      expect(oneErrorLine(login.stderr)).toContain('create a new one with `svc-engine credential create');
    } finally {
      other.cleanup();
    }
  });

  it('reports an Engine that cannot be reached', async () => {
    // A port below the range the kernel hands out for listen(0), and not one fetch refuses as unsafe (9 is): nothing
    // listens there, and no other test's server can take it while this one runs (a port freed a moment ago could be,
    // as an OTLP receiver's once was).
    const port = 2;
    const r = await user.cli(['whoami'], { env: { SVC_ENGINE_URL: `http://127.0.0.1:${port}`, SVC_CLI_TOKEN: t.cliToken } });
    expect(r.code).toBe(1);
    expect(oneErrorLine(r.stderr)).toBe(`svc-cli: cannot reach the Engine at http://127.0.0.1:${port} (ECONNREFUSED) — start it (\`npm start\`) or set SVC_ENGINE_URL to its address`);
  });

  it('reports an Engine refusal with its message', async () => {
    const r = await cli('mcp', 'token', 'list', 'no-such-mcp');
    expect(r.code).toBe(1);
    oneErrorLine(r.stderr);
    const unknown = await user.cli(['secret', 'set', 'nope-service', '--value-stdin'], { input: 'x' });
    expect(unknown.code).toBe(1);
    expect(oneErrorLine(unknown.stderr)).toContain("unknown service 'nope-service'");
  });
});

describe('usage edges found in review', { timeout: 60_000 }, () => {
  it('never echoes a word under `secret` that is not a service of `secret set`, and refuses a secret after --', async () => {
    const forgotSet = await user.cli(['secret', 'demo-crm', SECRET]);
    expect(forgotSet.code).toBe(2);
    expect(forgotSet.stderr + forgotSet.stdout).not.toContain(SECRET);
    const afterDashes = await user.cli(['secret', 'set', 'demo-crm', '--value-stdin', '--', SECRET], { input: 'from-stdin' });
    expect(afterDashes.code).toBe(2);
    expect(oneErrorLine(afterDashes.stderr)).toContain('secret values are not accepted as arguments');
    expect(afterDashes.stderr + afterDashes.stdout).not.toContain(SECRET);
    expect((await t.api('GET', '/v1/buckets')).body.buckets[0].secrets).toEqual([]);
  });

  it('answers a flag without its value as a usage error (exit 2), not as a bug', async () => {
    for (const args of [['sdk', 'invoke', 'crm@1.0.0', 'demo-crm.contacts/list', '--params'], ['workspace', 'service', 'add', 'demo-crm', '--version'], ['sdk', 'plan', '--file']]) {
      const r = await user.cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      const line = oneErrorLine(r.stderr);
      expect(line).not.toContain('bug');
      expect(line).toContain('--help');
    }
  });

  it('refuses an empty binding value and an impossible expiry date instead of minting a different token', async () => {
    const empty = await user.cli(['mcp', 'token', 'create', 'agents', '--allow', 'demo-crm.contacts/*', '--expires', '1h', '--end-user', '']);
    expect(empty.code).toBe(2);
    expect(oneErrorLine(empty.stderr)).toContain('--end-user is empty');
    for (const date of ['2027-02-30T10:00:00Z', '2027-04-31T10:00:00+02:00']) {
      const r = await user.cli(['mcp', 'token', 'create', 'agents', '--allow', 'demo-crm.contacts/*', '--expires', date]);
      expect(r.code, date).toBe(2);
      expect(oneErrorLine(r.stderr)).toContain('is not a valid date-time');
    }
  });

  it('reports a file it cannot write as a failure naming the path (exit 1), not a bug', async () => {
    const target = join(user.home, 'no-such-dir', 'svc.sdk.json');
    const r = await user.cli(['sdk', 'init', 'crm', '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/get', '--file', target]);
    expect(r.code).toBe(1);
    const line = oneErrorLine(r.stderr);
    expect(line).toContain(`cannot write ${target} (ENOENT)`);
    expect(line).not.toContain('bug');
  });

  it('refuses --dir without --download rather than ignoring it', async () => {
    const r = await user.cli(['sdk', 'apply', '--dir', 'pk']);
    expect(r.code).toBe(2);
    expect(oneErrorLine(r.stderr)).toContain('download');
  });

  it('refuses a base URL with a password without echoing it', async () => {
    const r = await user.cli(['workspace', 'service', 'add', 'demo-crm', '--version', 'v1', '--base-url', 'http://admin:hunter2@127.0.0.1:9/']);
    expect(r.code).toBe(2);
    expect(oneErrorLine(r.stderr)).toContain('must not carry credentials');
    expect(r.stderr + r.stdout).not.toContain('hunter2');
  });

  it('workspace plan refuses an entry apply would fail on, so apply never stops half-way', async () => {
    const file = join(user.home, 'edges.workspace.json');
    const before = (await t.api('GET', '/v1/workspace/services')).body;
    writeFileSync(file, JSON.stringify({ services: { 'demo-crm': { version: 'v1', baseUrl: 'http://127.0.0.1:18791' }, zzz: { version: 'v1' } } }));
    for (const command of ['plan', 'apply']) {
      const r = await user.cli(['workspace', command, '--file', file]);
      expect(r.code, command).toBe(1);
      expect(oneErrorLine(r.stderr)).toContain("unknown service 'zzz'");
    }
    expect((await t.api('GET', '/v1/workspace/services')).body).toEqual(before); // demo-crm untouched
    writeFileSync(file, JSON.stringify({ services: { 'demo-crm': { version: 'v1', baseUrl: 'http://u:pw-in-file@127.0.0.1:9' } } }));
    const secretUrl = await user.cli(['workspace', 'plan', '--file', file]);
    expect(oneErrorLine(secretUrl.stderr)).toContain('baseUrl must not carry credentials');
    expect(secretUrl.stderr).not.toContain('pw-in-file');
  });

  it('points a refused app name at the file entry, not at the request body', async () => {
    const file = join(user.home, 'badname.sdk.json');
    writeFileSync(file, JSON.stringify({ name: 'Bad Name', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] }));
    const r = await user.cli(['sdk', 'plan', '--file', file]);
    expect(r.code).not.toBe(0);
    const line = oneErrorLine(r.stderr);
    expect(line).toContain("badname.sdk.json name ('Bad Name')");
    expect(line).not.toContain('body/name');
  });

  it('stops quietly when its reader goes away (svc-cli … | head -1)', async () => {
    const child = spawn(process.execPath, [CLI_ENTRY, 'skill', 'list'], {
      cwd: user.home,
      env: { PATH: process.env.PATH, HOME: user.home, XDG_CONFIG_HOME: user.configHome, SVC_ENGINE_URL: t.url, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // the reader is gone before the first line is written
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(code).toBe(0);
  });
});
