// svc-cli's answers to flags and input it cannot use as given: each is a usage error (exit 2)
// naming the flag, nothing is silently changed or ignored, and no credential is echoed
// (docs/architecture.md, apps). Real CLI, real Engine and the bundled demo-crm provider on loopback.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliCrm, type CliCrm } from '../fixtures/apps.ts';
import { CLI_ENTRY, oneErrorLine, run, type CliResult, type CliUser } from '../fixtures/cli.ts';
import type { TestEngine } from '../fixtures/engine.ts';

let fx: CliCrm;
let t: TestEngine;
let user: CliUser;
let executionToken: string;
let mcpToken: string;

beforeAll(async () => {
  fx = await startCliCrm({ operations: ['contacts/list', 'deals/create'], login: true });
  ({ t, user, mcpToken } = fx);
  executionToken = fx.sdk.token;
}, 60_000);
afterAll(() => fx?.stop());

/** A usage error: exit 2, one line naming `flag`, not reported as a bug in svc-cli. */
function expectUsageNaming(r: CliResult, flag: string): string {
  expect(r.code, r.stderr).toBe(2);
  const line = oneErrorLine(r.stderr);
  expect(line).toContain(flag);
  expect(line).not.toContain('bug');
  return line;
}

const mcpTokens = async () => (await t.api('GET', '/v1/mcp/agents/tokens')).body.tokens as { id: string; revokedAt: string | null }[];
const newMcpToken = async () => {
  const created = await t.api('POST', '/v1/mcp/agents/tokens', { allow: ['demo-crm.contacts/list'], expiresAt: null });
  expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
  t.canaries.push(created.body.token);
  return created.body.id as string;
};
const secretsOf = async () => (await t.api('GET', '/v1/buckets')).body.buckets.find((b: { name: string }) => b.name === 'default').secrets as { service: string; updatedAt: string }[];

describe('--no-<flag> and --<flag>.<key> on value flags', { timeout: 60_000 }, () => {
  // yargs reads them as false and as an object; the flag's value must be a string.
  it('are usage errors naming the flag (exit 2)', async () => {
    const cases: [string[], string][] = [
      [['sdk', 'plan', '--no-file'], '--file'],
      [['sdk', 'plan', '--file.x', 'y'], '--file'],
      [['sdk', 'init', 'x', '--service', 'demo-crm=v1', '--operation.x', 'y'], '--operation'],
      [['mcp', 'token', 'create', 'agents', '--allow', 'demo-crm.contacts/list', '--no-expires'], '--expires'],
      [['mcp', 'token', 'create', 'agents', '--allow', 'demo-crm.contacts/list', '--expires', '1h', '--no-end-user'], '--end-user'],
    ];
    const results = await Promise.all(cases.map(([args]) => user.cli(args)));
    cases.forEach(([, flag], i) => expectUsageNaming(results[i]!, flag));
  });
});

describe('arguments after `--`', { timeout: 60_000 }, () => {
  it('`mcp token revoke A -- B` is refused and revokes nothing', async () => {
    const [a, b] = [await newMcpToken(), await newMcpToken()];
    const r = await user.cli(['mcp', 'token', 'revoke', a, '--', b]);
    const tokens = await mcpTokens();
    expectUsageNaming(r, `'${b}'`);
    expect(tokens.find((x) => x.id === a)!.revokedAt).toBeNull();
    expect(tokens.find((x) => x.id === b)!.revokedAt).toBeNull();
  });

  it('`whoami -- extra` is refused, naming the word', async () => {
    const r = await user.cli(['whoami', '--', 'extra']);
    expect(r.stdout).toBe('');
    expectUsageNaming(r, "'extra'");
  });
});

describe('sdk invoke --params with a number a double cannot hold', { timeout: 60_000 }, () => {
  // JSON.parse would round 9007199254740993 to …992 and the CLI would send a different amount.
  it('is refused naming --params, and nothing is sent', async () => {
    const params = JSON.stringify({ body: { contact_id: 'con_0001', title: 'precision' } }).replace(/}}$/, ', "amount": 9007199254740993}}');
    const env = { SVC_EXECUTION_TOKEN: executionToken };
    const [integer, outOfRange] = await Promise.all([
      user.cli(['sdk', 'invoke', 'crm@1.0.0', 'demo-crm.deals/create', '--params', params], { env }),
      user.cli(['sdk', 'invoke', 'crm@1.0.0', 'demo-crm.deals/create', '--params', '{"body": {"amount": 1e400}}'], { env }),
    ]);
    expect(expectUsageNaming(integer, '--params')).toContain('9007199254740993');
    expect(integer.stdout).toBe('');
    expect(expectUsageNaming(outOfRange, '--params')).toContain('1e400');
    expect(outOfRange.stdout).toBe('');
  });
});

describe('secret set --oauth-client-id ""', { timeout: 60_000 }, () => {
  // An empty client ID (an unset shell variable) must not store the OAuth client secret as the API key.
  it('is refused and leaves the API key alone', async () => {
    const before = (await secretsOf()).find((s) => s.service === 'demo-crm');
    const r = await user.cli(['secret', 'set', 'demo-crm', '--oauth-client-id', '', '--value-stdin'], { input: 'oauth-client-secret-canary' });
    const after = (await secretsOf()).find((s) => s.service === 'demo-crm');
    // put the API key back for the other tests if it was replaced
    if (after?.updatedAt !== before?.updatedAt) await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: fx.provider.apiKey });
    expect(after?.updatedAt).toBe(before?.updatedAt);
    expectUsageNaming(r, '--oauth-client-id');
  });
});

describe('workspace service import --auth-header "" / --auth-query ""', { timeout: 60_000 }, () => {
  it('is refused, and nothing is imported (an imported version can never change)', async () => {
    const doc = join(user.home, 'pet.yaml');
    writeFileSync(
      doc,
      ['openapi: 3.0.3', "info: { title: pet, version: '1' }", "servers: [{ url: 'http://127.0.0.1:9' }]", 'paths:', '  /pets:', '    get:', '      operationId: pets/list', "      responses: { '200': { description: ok } }"].join('\n'),
    );
    const [header, query] = await Promise.all([
      user.cli(['workspace', 'service', 'import', doc, '--name', 'pet-header', '--version', 'v1', '--auth-header', '']),
      user.cli(['workspace', 'service', 'import', doc, '--name', 'pet-query', '--version', 'v1', '--auth-query', ' ']),
    ]);
    const names = (await t.api('GET', '/v1/catalog/services')).body.services.map((s: { name: string }) => s.name);
    expect(names).not.toContain('pet-header');
    expect(names).not.toContain('pet-query');
    expectUsageNaming(header, '--auth-header');
    expectUsageNaming(query, '--auth-query');
  });
});

describe('workspace service import of a description with operations the Engine cannot send', { timeout: 60_000 }, () => {
  it('says which it left out and why, and what it cannot read, and --json carries them', async () => {
    const doc = join(user.home, 'uploads.yaml');
    writeFileSync(
      doc,
      [
        'openapi: 3.0.3',
        "info: { title: uploads, version: '1' }",
        "servers: [{ url: 'http://127.0.0.1:9' }]",
        'paths:',
        '  /files:',
        '    get:',
        '      operationId: files/list',
        "      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Listing' } } } } }",
        '    post:',
        '      operationId: files/upload',
        "      servers: [{ url: 'http://127.0.0.1:10' }]",
        "      responses: { '200': { description: ok } }",
      ].join('\n'),
    );
    const human = await user.cli(['workspace', 'service', 'import', doc, '--name', 'uploads', '--version', 'v1']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('Imported uploads@v1 (1 operation,');
    expect(human.stdout).toContain("Left out files/upload: it is served at its own address (http://127.0.0.1:10), not at the service's base URL");
    // A response schema no call checks: imported, and said.
    expect(human.stdout).toContain("Warning: files/list: $ref '#/components/schemas/Listing' does not resolve");
    const json = await user.cli(['workspace', 'service', 'import', doc, '--name', 'uploads', '--version', 'v2', '--json']);
    expect(JSON.parse(json.stdout).versions[0].omitted).toEqual([expect.objectContaining({ operationId: 'files/upload', field: "document.paths['/files'].post.servers" })]);
  });
});

describe('a credential given as an argument', { timeout: 60_000 }, () => {
  it('`login --with-token <credential>` is refused without printing it, pointing at stdin', async () => {
    const r = await user.cli(['login', '--with-token', t.cliToken]);
    expect(r.stderr + r.stdout).not.toContain(t.cliToken);
    const line = expectUsageNaming(r, 'looks like a credential');
    expect(line).toContain('standard input');
  });

  it('`mcp token revoke <token>` (the token instead of its ID) is refused without printing it', async () => {
    const r = await user.cli(['mcp', 'token', 'revoke', mcpToken]);
    expect(r.stderr + r.stdout).not.toContain(mcpToken);
    expectUsageNaming(r, 'looks like a token, not its ID');
  });

  it('after `--` is refused without printing it', async () => {
    const id = await newMcpToken();
    const r = await user.cli(['mcp', 'token', 'revoke', id, '--', mcpToken]);
    expect(r.stderr + r.stdout).not.toContain(mcpToken);
    expectUsageNaming(r, 'looks like a credential');
  });
});

describe('Engine refusals of flag values', { timeout: 60_000 }, () => {
  // The Engine names the request field (`binding.endUserRef`); the CLI names the flag that filled it.
  it('secret set --bucket with a malformed name names --bucket', async () => {
    const r = await user.cli(['secret', 'set', 'demo-crm', '--value-stdin', '--bucket', 'Bad_Bucket'], { input: 'x' });
    const line = expectUsageNaming(r, '--bucket');
    expect(line).not.toContain('parameters/');
  });

  it('mcp token create --end-user longer than the Engine allows names --end-user', async () => {
    const r = await user.cli(['mcp', 'token', 'create', 'agents', '--allow', 'demo-crm.contacts/list', '--expires', '1h', '--end-user', 'u'.repeat(201)]);
    const line = expectUsageNaming(r, '--end-user');
    expect(line).not.toContain('body/');
  });

  it('connection create --end-user "" or too long names --end-user', async () => {
    const [empty, long] = await Promise.all([
      user.cli(['connection', 'create', 'demo-crm', '--end-user', '', '--no-browser', '--timeout', '1']),
      user.cli(['connection', 'create', 'demo-crm', '--end-user', 'u'.repeat(201), '--no-browser', '--timeout', '1']),
    ]);
    expect(expectUsageNaming(empty, '--end-user')).not.toContain('body/');
    expect(expectUsageNaming(long, '--end-user')).not.toContain('body/');
  });
});

describe('workspace services list --json', { timeout: 60_000 }, () => {
  it('says for each version whether it is enabled, as the ENABLED column does', async () => {
    const [human, json] = await Promise.all([user.cli(['workspace', 'services', 'list']), user.cli(['workspace', 'services', 'list', '--json'])]);
    expect(human.stdout).toMatch(/^demo-crm\s+v1\s+\d+\s+catalog\s+yes/m);
    expect(json.code).toBe(0);
    const services = JSON.parse(json.stdout).services as { name: string; versions: { version: string; enabled: boolean }[] }[];
    expect(services.find((s) => s.name === 'demo-crm')!.versions).toContainEqual(expect.objectContaining({ version: 'v1', enabled: true }));
    // Every version agrees with its row (SERVICE VERSION OPERATIONS SOURCE ENABLED TITLE), disabled ones too.
    const rows = services.flatMap((s) => s.versions.map((v) => [s.name, v.version, v.enabled] as const));
    expect(rows.some(([, , enabled]) => !enabled)).toBe(true);
    for (const [name, version, enabled] of rows) {
      expect(new RegExp(`^${name}\\s+${version}\\s+\\d+\\s+\\S+\\s+yes(\\s|$)`, 'm').test(human.stdout), `${name} ${version}`).toBe(enabled);
    }
  });
});

describe('--version next to the global colour flags', { timeout: 60_000 }, () => {
  it('prints the version with --no-color on either side', async () => {
    for (const args of [['--version', '--no-color'], ['--no-color', '--version']]) {
      const r = await user.cli(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    }
  });
});

describe('next-step hints after --file', { timeout: 60_000 }, () => {
  it('sdk init --file and workspace service add --file hint commands that read the same file', async () => {
    const dir = join(user.home, 'hints');
    mkdirSync(dir, { recursive: true });
    const init = await user.cli(['sdk', 'init', 'hint', '--service', 'demo-crm=v1', '--operation', 'demo-crm=contacts/list', '--file', 'hint.sdk.json'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const next = /`(svc-cli sdk plan[^`]*)`/.exec(init.stdout)![1]!;
    expect(next).toBe('svc-cli sdk plan --file hint.sdk.json');
    const followed = await user.cli(next.split(' ').slice(1), { cwd: dir });
    expect(followed.code, `${next}: ${followed.stderr}`).toBe(0);

    const add = await user.cli(['workspace', 'service', 'add', 'demo-crm', '--version', 'v1', '--file', 'hint.workspace.json'], { cwd: dir });
    expect(add.code, add.stderr).toBe(0);
    const preview = /`(svc-cli workspace plan[^`]*)`/.exec(add.stdout)![1]!;
    expect(preview).toBe('svc-cli workspace plan --file hint.workspace.json');
    const planned = await user.cli(preview.split(' ').slice(1), { cwd: dir });
    expect(planned.code, `${preview}: ${planned.stderr}`).toBe(0);
  });
});

describe('secret set with a value that is not UTF-8', { timeout: 60_000 }, () => {
  // Decoding would replace the bytes with U+FFFD and store a different secret.
  it('is refused (exit 2) and nothing is stored', async () => {
    const command = `printf 'key-\\377\\376' | '${process.execPath}' '${CLI_ENTRY}' secret set github --value-stdin`;
    const r = await run('sh', ['-c', command], {
      cwd: user.home,
      env: { PATH: process.env.PATH, HOME: user.home, XDG_CONFIG_HOME: user.configHome, SVC_ENGINE_URL: t.url, NO_COLOR: '1' },
    });
    expect((await secretsOf()).map((s) => s.service)).not.toContain('github');
    expectUsageNaming(r, 'not valid UTF-8');
  });
});
