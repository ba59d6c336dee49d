// Runs the `svc-engine` binary as a child process, as an operator would, with a clean environment.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';

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
