// Hardening of `svc-cli workspace …` against a real Engine (nothing mocked): plan refuses every
// base URL apply would (so apply never stops half-way) and names the published SDK versions a
// disable breaks; svc.workspace.json refuses unknown keys, a service listed twice and wrong types
// (naming entry and field) and reads a UTF-8 byte order mark; `workspace service import` tells the
// Engine's refusals as their flags, names the file and the 32 MiB cap, and blames YAML aliases
// that expand a document past that cap.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';

let t: TestEngine;
let user: CliUser;
beforeAll(async () => {
  t = await startTestEngine();
  user = cliUser(t.url);
  expect((await user.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
});
afterAll(async () => {
  await t?.stop();
  user?.cleanup();
});

/** Writes `text` to `name` in the CLI user's home; returns its path. */
const file = (u: CliUser, name: string, text: string) => {
  const path = join(u.home, name);
  writeFileSync(path, text);
  return path;
};

/** One GET operation, as JSON text. */
const oneOperation = (serverUrl = 'http://127.0.0.1:9') =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'One', version: '1' },
    servers: [{ url: serverUrl }],
    paths: { '/p': { get: { operationId: 'op', responses: { '200': { description: 'ok' } } } } },
  });

describe('workspace plan and apply', { timeout: 90_000 }, () => {
  // plan.ts computePlan checks base URLs with services.ts checkBaseUrl, which lets through what the
  // Engine's BaseUrl schema (`format: uri`, ajv-formats) refuses: apply enables demo-crm, then stops on github.
  it('refuses at plan time every base URL apply would refuse, so apply never stops half-way', async () => {
    const engine = await startTestEngine();
    const u = cliUser(engine.url);
    try {
      expect((await u.cli(['login', '--with-token'], { input: engine.cliToken })).code).toBe(0);
      const seen: string[] = [];
      for (const baseUrl of ['https://git.bücher.example/api/v3', 'http://127.0.0.1:9/api/v%', 'http://127.0.0.1:9/[v3]']) {
        file(u, 'svc.workspace.json', JSON.stringify({ services: { 'demo-crm': { version: 'v1' }, github: { version: 'v1', baseUrl } } }));
        const plan = await u.cli(['workspace', 'plan']);
        const apply = await u.cli(['workspace', 'apply']);
        const enabled = (await engine.api('GET', '/v1/workspace/services')).body.services.map((s: { name: string }) => s.name);
        seen.push(`${baseUrl}: plan exit ${plan.code}, apply exit ${apply.code}, enabled after apply [${enabled}] ${apply.stderr.trim()}`);
        await engine.api('DELETE', '/v1/workspace/services/demo-crm');
      }
      // Either apply enables both (the Engine takes the URL) or plan refuses it and apply changes nothing.
      const consistent = /plan exit [12], apply exit [12], enabled after apply \[\]|plan exit 0, apply exit 0, enabled after apply \[demo-crm,github\]/;
      expect(seen.filter((line) => !consistent.test(line))).toEqual([]);
    } finally {
      await engine.stop();
      u.cleanup();
    }
  });

  // Plan/apply used to say nothing about the published SDK (and MCP) versions that call a
  // service they disable; every call of those versions then fails with 409 ENGINE_CONFLICT.
  it('says which published versions a disable breaks before apply breaks them', async () => {
    const engine = await startTestEngine();
    const u = cliUser(engine.url);
    try {
      expect((await u.cli(['login', '--with-token'], { input: engine.cliToken })).code).toBe(0);
      const { versionId, token } = await publishSdk(engine, { name: 'billing-app', service: 'demo-crm', baseUrl: 'http://127.0.0.1:9', secret: 'sek-hardening-1', operations: ['contacts/list'] });
      const agent = await engine.api('POST', '/v1/mcp/publish', { name: 'crm-agent', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] });
      expect(agent.status).toBe(200);
      engine.canaries.push(agent.body.token);
      file(u, 'svc.workspace.json', JSON.stringify({ services: {} }));
      const asJson = await u.cli(['workspace', 'plan', '--json']);
      expect(JSON.parse(asJson.stdout).versionsBroken.map((b: { kind: string; name: string }) => `${b.kind}:${b.name}`)).toEqual(['sdk:billing-app', 'mcp:crm-agent']);
      const plan = await u.cli(['workspace', 'plan']);
      expect(plan.code).toBe(0);
      expect(plan.stdout).toContain('  - demo-crm v1');
      const apply = await u.cli(['workspace', 'apply']);
      expect(apply.code).toBe(0);
      const call = await engine.execute(versionId, token, { operation: 'demo-crm.contacts/list', input: {} });
      expect(call.status).toBe(409); // what the published version gets from now on
      expect(plan.stdout, 'plan should name the SDK app whose calls the disable breaks').toContain('billing-app');
      expect(apply.stdout, 'apply should name the SDK app whose calls it broke').toContain('billing-app');
      expect(plan.stdout, 'plan should name the MCP server whose calls the disable breaks').toContain('MCP server crm-agent');
    } finally {
      await engine.stop();
      u.cleanup();
    }
  });
});

describe('a hand-edited svc.workspace.json', { timeout: 60_000 }, () => {
  // state.ts readWorkspaceFile checks `version` and `baseUrl` only: any other key of an entry is
  // ignored, so a mistyped `baseURL` silently points the service at the catalog's (production) address.
  it('refuses an entry key it does not know instead of ignoring it', async () => {
    const path = file(user, 'typo.workspace.json', JSON.stringify({ services: { 'demo-crm': { version: 'v1', baseURL: 'http://127.0.0.1:18790' } } }));
    const plan = await user.cli(['workspace', 'plan', '--file', path]);
    expect(plan.stdout).not.toContain('+ demo-crm v1\n'); // today: planned at the catalog default, the override dropped
    expect(plan.code).not.toBe(0);
    expect(oneErrorLine(plan.stderr)).toContain('baseURL');
  });

  // JSON.parse keeps the last of two equal keys: the first entry (its base URL override) is dropped without a word.
  it('refuses a service listed twice instead of keeping the last one', async () => {
    const text = '{"services": {"demo-crm": {"version": "v1", "baseUrl": "http://127.0.0.1:18790"}, "demo-crm": {"version": "v1"}}}';
    const plan = await user.cli(['workspace', 'plan', '--file', file(user, 'dup.workspace.json', text)]);
    expect(plan.code, plan.stdout).not.toBe(0);
    expect(oneErrorLine(plan.stderr)).toMatch(/demo-crm.*(twice|duplicate)|(twice|duplicate).*demo-crm/);
  });

  // readWorkspaceFile answers every wrong type with one generic shape message: which entry and field is wrong is not said.
  it('names the entry and field of a wrong type', async () => {
    const text = JSON.stringify({ services: { 'demo-crm': { version: 'v1' }, github: { version: 1 } } });
    const plan = await user.cli(['workspace', 'plan', '--file', file(user, 'types.workspace.json', text)]);
    expect(plan.code).not.toBe(0);
    const line = oneErrorLine(plan.stderr);
    expect(line).toContain('github');
    expect(line).toContain('version');
  });

  // files.ts readJsonFile gives the text to JSON.parse with its UTF-8 byte order mark (Notepad,
  // PowerShell 5 `Set-Content -Encoding UTF8`): refused as "Unexpected token '﻿'", an invisible character.
  it('reads a file that starts with a UTF-8 byte order mark, or names the mark', async () => {
    const path = file(user, 'windows.workspace.json', '\uFEFF' + JSON.stringify({ services: { 'demo-crm': { version: 'v1' } } }));
    const plan = await user.cli(['workspace', 'plan', '--file', path]);
    if (plan.code !== 0) expect(oneErrorLine(plan.stderr)).toMatch(/byte order mark|\bBOM\b/);
    else expect(plan.stdout).toContain('+ demo-crm v1');
  });
});

describe('workspace service import', { timeout: 120_000 }, () => {
  // services.ts serviceImport calls s.call(…) without the flags map the other commands pass, so
  // unwrap/flagRefusal cannot tell the Engine's refusal of a flag's value as that flag: exit 1,
  // the request's internals (`body/auth/name`), or a field the CLI does not have (`pass baseUrl`).
  it('tells an Engine refusal of --name, --auth-header, --auth-prefix or --idempotency-header as that flag, refuses --max-attempts 0, and asks for --base-url when the document names no server', async () => {
    const doc = file(user, 'one.json', oneOperation());
    const cases: [args: string[], flag: string][] = [
      [['--name', 'unified', '--version', 'v1'], '--name'],
      [['--name', 'flagged-a', '--version', 'v1', '--auth-header', 'X'.repeat(200)], '--auth-header'],
      [['--name', 'flagged-b', '--version', 'v1', '--auth-header', 'X-Key', '--auth-prefix', 'p'.repeat(100)], '--auth-prefix'],
      [['--name', 'flagged-d', '--version', 'v1', '--idempotency-header', 'Idempotency Key'], '--idempotency-header'],
      [['--name', 'flagged-e', '--version', 'v1', '--max-attempts', '0'], '--max-attempts'],
    ];
    const wrong: string[] = [];
    for (const [args, flag] of cases) {
      const r = await user.cli(['workspace', 'service', 'import', doc, ...args]);
      const line = oneErrorLine(r.stderr);
      if (r.code !== 2 || !line.includes(flag) || line.includes('body/')) wrong.push(`${flag}: exit ${r.code}: ${line}`);
    }
    // A relative server imports without a base URL, and the CLI says to give one when selecting it.
    const relative = await user.cli(['workspace', 'service', 'import', file(user, 'relative.json', oneOperation('/api')), '--name', 'flagged-c', '--version', 'v1']);
    if (relative.code !== 0 || !relative.stdout.includes('--base-url')) wrong.push(`--base-url: exit ${relative.code}: ${relative.stdout} ${relative.stderr}`);
    expect(wrong).toEqual([]);
  });

  // catalog/import.ts parses YAML with maxAliasCount: 100, which bounds how many aliases, not
  // how much text they expand to: a 400 kB document becomes 40 MB (past the 32 MiB import cap) and
  // is imported; a 6 MB one overflows JSON.stringify, whose RangeError is reported as "nested deeper than 256 levels".
  it('refuses YAML aliases that expand a document past the import cap, and says so', async () => {
    const aliased = (leaf: number) =>
      [
        'openapi: 3.0.3',
        "info: {title: aliases, version: '1'}",
        "servers: [{url: 'http://127.0.0.1:9'}]",
        `x-leaf: &leaf "${'x'.repeat(leaf)}"`,
        `x-copies: [${Array(99).fill('*leaf').join(', ')}]`,
        'paths:',
        '  /p:',
        '    get:',
        '      operationId: op',
        "      responses: {'200': {description: ok}}",
        '',
      ].join('\n');
    const small = await user.cli(['workspace', 'service', 'import', file(user, 'aliases-small.yaml', aliased(400_000)), '--name', 'aliases-small', '--version', 'v1']);
    const large = await user.cli(['workspace', 'service', 'import', file(user, 'aliases-large.yaml', aliased(6_000_000)), '--name', 'aliases-large', '--version', 'v1'], { timeoutMs: 60_000 });
    const told = (r: { code: number; stdout: string; stderr: string }) => `exit ${r.code}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`;
    // Both refused (exit 1), each with a line that blames the aliases.
    expect({ small: told(small), large: told(large) }).toEqual({ small: expect.stringMatching(/^exit 1: svc-cli: .*alias/i), large: expect.stringMatching(/^exit 1: svc-cli: .*alias/i) });
    oneErrorLine(large.stderr);
    oneErrorLine(small.stderr);
  });

  // serviceImport reads and sends any size: past the 32 MiB import cap the answer is the Engine's 413,
  // told as "body: the request body exceeds …— check the arguments (see --help)", or, when the Engine
  // closes the connection while the CLI still writes, "cannot reach the Engine (EPIPE) — start it".
  it('names the file and the 32 MiB cap when the document is too large', async () => {
    const big = JSON.stringify({ openapi: '3.0.3', info: { title: 'big', version: '1', description: 'x'.repeat(34_000_000) }, servers: [{ url: 'http://127.0.0.1:9' }], paths: {} });
    const path = file(user, 'big.json', big);
    const r = await user.cli(['workspace', 'service', 'import', path, '--name', 'big', '--version', 'v1']);
    expect(r.code).toBe(1);
    const line = oneErrorLine(r.stderr);
    expect(line).not.toContain('cannot reach');
    expect(line).not.toContain('check the arguments');
    expect(line).toContain('big.json');
    expect(line).toMatch(/32 MiB/);
  });
});
