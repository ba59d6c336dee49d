// Runs the real svc-cli (bundled from cli/bin/svc-cli.ts) as a child process with its own HOME and
// XDG_CONFIG_HOME, pointed at a test Engine. Nothing is mocked.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';

export const REPO = resolve(import.meta.dirname, '../..');
/** The svc-cli the tests run: the bundle test/global-setup.ts built (what install.sh ships). */
export const CLI_ENTRY = inject('svcCliBundle');
/** The TypeScript entry the bundle is built from (`npm run svc-cli` in a checkout). */
export const CLI_SOURCE = join(REPO, 'cli/bin/svc-cli.ts');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to stdin, which is then closed (stdin is always a pipe, never a terminal). */
  input?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

export interface Running {
  /** Resolves with the first match of `pattern` in stdout (rejects if the process ends first). */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  result: Promise<CliResult>;
}

/**
 * Spawns a command in its own session (so it has no controlling terminal and /dev/tty cannot be
 * opened) and collects its output; `result` resolves with the exit code, never rejects on failure.
 */
export function start(command: string, args: string[], options: RunOptions & { env: Record<string, string | undefined> }): Running {
  const child = spawn(command, args, { cwd: options.cwd ?? REPO, env: options.env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  const watchers: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void; reject: (e: Error) => void }[] = [];
  const check = () => {
    for (const w of [...watchers]) {
      const m = stdout.match(w.pattern);
      if (m) {
        watchers.splice(watchers.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  child.stdout.on('data', (d) => {
    stdout += d;
    check();
  });
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  const result = new Promise<CliResult>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      for (const w of watchers.splice(0)) w.reject(new Error(`process ended before ${w.pattern} appeared; stdout: ${stdout} stderr: ${stderr}`));
      resolvePromise({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');
  return {
    result,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        watchers.push({ pattern, resolve, reject });
        check();
      }),
  };
}

/** Runs a command to completion (see start). */
export const run = (command: string, args: string[], options: RunOptions & { env: Record<string, string | undefined> }): Promise<CliResult> =>
  start(command, args, options).result;

/** A sandboxed svc-cli user: its own home and config dir, talking to one Engine. */
export interface CliUser {
  home: string;
  configHome: string;
  /** Runs `svc-cli <args>`; env entries set to undefined are removed. */
  cli(args: string[], options?: RunOptions): Promise<CliResult>;
  /** Starts `svc-cli <args>` for tests that interact with it while it runs. */
  start(args: string[], options?: RunOptions): Running;
  cleanup(): void;
}

export function cliUser(engineUrl: string): CliUser {
  const home = mkdtempSync(join(tmpdir(), 'svc-cli-home-'));
  const configHome = join(home, 'config');
  const baseEnv: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: configHome,
    SVC_ENGINE_URL: engineUrl,
    NO_COLOR: '1',
  };
  const startCli = (args: string[], options: RunOptions = {}) =>
    start(process.execPath, ['--no-node-snapshot', CLI_ENTRY, ...args], {
      ...options,
      cwd: options.cwd ?? home,
      env: Object.fromEntries(Object.entries({ ...baseEnv, ...options.env }).filter(([, v]) => v !== undefined)),
    });
  return {
    home,
    configHome,
    start: startCli,
    cli: (args, options) => startCli(args, options).result,
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}

/** Asserts the CLI's error contract: exactly one line on stderr, `svc-cli: <what> — <fix>`. */
export function oneErrorLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l !== '');
  if (lines.length !== 1) throw new Error(`expected one stderr line, got ${lines.length}:\n${stderr}`);
  const line = lines[0]!;
  if (!/^svc-cli: .+ — .+$/.test(line)) throw new Error(`stderr line is not 'svc-cli: <what> — <fix>': ${line}`);
  return line;
}
