// Runs the `svc-engine` binary as a child process, as an operator would, with a clean environment.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const ENTRY = resolve(import.meta.dirname, '../../src/bin/svc-engine.ts');

export interface SvcEngineRun {
  code: number | null;
  stderr: string;
  stdout: string;
}

/**
 * `svc-engine <args>` with HOME and SVC_DATA_DIR under `dir` and an ephemeral HTTP port. With
 * `untilStdout`, sends SIGTERM once stdout matches; otherwise waits for the exit (killed after 20 s).
 */
export async function runSvcEngine(dir: string, args: string[], env: Record<string, string>, untilStdout?: RegExp): Promise<SvcEngineRun> {
  const child = spawn(process.execPath, ['--no-node-snapshot', ENTRY, ...args], {
    env: { PATH: process.env.PATH, HOME: dir, SVC_DATA_DIR: join(dir, 'data'), SVC_HTTP_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => {
    stdout += d;
    if (untilStdout && untilStdout.test(stdout)) child.kill('SIGTERM');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stderr, stdout };
}

/**
 * For the enclosing test file: a temp dir holding a plain file `a-file` (for "not a directory"
 * cases) and a loopback port already in use, made before its tests and removed after.
 */
export function startupFixture(prefix: string): { readonly dir: string; readonly busyPort: number } {
  const fixture = { dir: '', busyPort: 0 };
  let busy: Server | undefined;
  beforeAll(async () => {
    fixture.dir = mkdtempSync(join(tmpdir(), prefix));
    writeFileSync(join(fixture.dir, 'a-file'), 'not a directory');
    const server = createServer();
    busy = server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    fixture.busyPort = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    busy?.close();
    if (fixture.dir) rmSync(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}
