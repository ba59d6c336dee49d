// Linux perf recording one bench child (BENCH_PERF): sampled stacks of every thread, 999 a second,
// read back per request by ./perf-summary.ts.
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Node's flags for a child perf records: its generated code named in /tmp/perf-<pid>.map, and V8's
 * code log, which those flags turn on, written into `dir` rather than the working directory.
 */
export const perfNodeArgs = (dir: string, name: string): string[] => ['--perf-basic-prof-only-functions', '--no-logfile-per-isolate', `--logfile=${join(dir, `${name}-v8.log`)}`];

/** Starts `perf record -g` on `pid` into `file`; `stop` ends it and waits until the file is written. */
export function recordWithPerf(pid: number, file: string): { stop(): Promise<void> } {
  try {
    execFileSync('perf', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('BENCH_PERF needs Linux perf (Debian: linux-perf)');
  }
  const perf = spawn('perf', ['record', '-F', '999', '-g', '-o', file, '-p', String(pid)], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => perf.once('exit', () => resolve()));
  return {
    async stop() {
      perf.kill('SIGINT');
      await exited;
    },
  };
}
