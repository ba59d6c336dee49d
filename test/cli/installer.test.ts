// install.sh: installs svc-cli with its own Node 24 (npm package node@24) into a prefix under a
// fresh HOME, bundles the CLI, and links a launcher that works from any directory.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, run } from '../fixtures/cli.ts';

const version = JSON.parse(execFileSync(process.execPath, ['-p', `JSON.stringify(require(${JSON.stringify(join(REPO, 'package.json'))}).version)`], { encoding: 'utf8' }));
// The user's npm cache, so the runtime package is not downloaded again for a fresh HOME.
const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
let home: string;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'svc-install-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

// The network settings a user's shell carries (a TLS-inspecting proxy's CA bundle, proxies) pass through.
const NETWORK_ENV = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'npm_config_cafile', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy'];
const network = Object.fromEntries(NETWORK_ENV.filter((k) => process.env[k]).map((k) => [k, process.env[k]!]));
const env = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH, HOME: home, npm_config_cache: npmCache, ...network, ...extra });

describe('install.sh', () => {
  it('installs nothing when the confirmation is declined', async () => {
    const r = await run('sh', [join(REPO, 'install.sh')], { env: env(), input: 'n\n', cwd: home });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Continue? [y/N]');
    expect(r.stdout).toContain('Nothing installed.');
    expect(existsSync(join(home, '.svc-cli'))).toBe(false);
  });

  it('installs svc-cli and Node 24 under ~/.svc-cli with ASSUME_YES=1', { timeout: 120_000 }, async () => {
    const r = await run('sh', [join(REPO, 'install.sh')], { env: env({ ASSUME_YES: '1' }), cwd: home, timeoutMs: 110_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('Continue?');
    expect(r.stdout).toContain(`Installed svc-cli ${version}`);

    const prefix = join(home, '.svc-cli');
    const node = await run(join(prefix, 'runtime/node_modules/node/bin/node'), ['--version'], { env: env() });
    expect(node.stdout).toMatch(/^v24\./);
    const link = join(home, '.local/bin/svc-cli');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(join(prefix, 'bin/svc-cli'));
    // PATH without ~/.local/bin: the installer says how to add it
    expect(r.stdout).toContain(`export PATH="${join(home, '.local/bin')}:$PATH"`);

    // From another directory, with a PATH that has no Node at all.
    const elsewhere = join(home, 'somewhere/else');
    mkdirSync(elsewhere, { recursive: true });
    for (const bin of [join(prefix, 'bin/svc-cli'), link]) {
      const v = await run(bin, ['--version'], { env: { PATH: '/usr/bin:/bin', HOME: home }, cwd: elsewhere });
      expect(v).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
    // The bundle carries the skill templates: it works without the checkout's templates/.
    const skills = await run(join(prefix, 'bin/svc-cli'), ['skill', 'install', '--for', 'cursor'], { env: { PATH: '/usr/bin:/bin', HOME: home }, cwd: elsewhere });
    expect(skills.code).toBe(0);
    expect(existsSync(join(elsewhere, '.cursor/rules/svc-engine.mdc'))).toBe(true);
  });
});
