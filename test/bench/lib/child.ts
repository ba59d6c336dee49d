// Parent side of the bench child processes: spawns a server script (optionally pinned to CPUs
// with taskset), waits for its `ready` message, asks it for CPU usage, and stops it.
// The child side is test/bench/servers/ipc.ts.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import type { ParentMessage, ChildMessage, Request } from '../servers/ipc.ts';

export interface ChildHandle<Ready> {
  readonly name: string;
  readonly pid: number;
  readonly ready: Ready;
  /** Cumulative user+system CPU time of the child, in microseconds. */
  cpu(): Promise<number>;
  /** Starts the V8 sampling profiler inside the child. */
  profileStart(): Promise<void>;
  /** Stops it and writes the .cpuprofile to `path`. */
  profileStop(path: string): Promise<void>;
  stop(): Promise<void>;
}

let tasksetChecked: boolean | undefined;

/** Whether `taskset` can pin processes on this machine (Linux with util-linux). */
export function canPin(): boolean {
  if (tasksetChecked === undefined) {
    try {
      execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
      tasksetChecked = true;
    } catch {
      tasksetChecked = false;
    }
  }
  return tasksetChecked;
}

/** Current affinity list of a process (e.g. "0,1"), or undefined when taskset is unavailable. */
export function affinityOf(pid: number): string | undefined {
  if (!canPin()) return undefined;
  const out = execFileSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' });
  return out.split(':').pop()?.trim();
}

/** Pins every thread of an existing process to `cpus` (a taskset list such as "0" or "0-1"). */
export function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-c', '-p', cpus, String(pid)], { stdio: 'ignore' });
}

/**
 * The two-core placement of the closed-loop benches: this process (the load generator) and the
 * edge children (provider, collector) on CPU 0, the process under test on CPU 1. Unpinned, every
 * CPU list is undefined. `restore` gives this process back the affinity it had.
 */
export function twoCorePlacement(pinned: boolean): { edgeCpus: string | undefined; hopCpus: string | undefined; restore(): void } {
  if (!pinned) return { edgeCpus: undefined, hopCpus: undefined, restore: () => undefined };
  const original = affinityOf(process.pid);
  pin(process.pid, '0');
  return { edgeCpus: '0', hopCpus: '1', restore: () => original && pin(process.pid, original) };
}

export async function startChild<Ready>(
  name: string,
  script: string,
  /** `wrapper`: a command line that runs Node, such as valgrind's (the child's pid stays Node's, as it execs). */
  options: { cpus?: string | undefined; env?: Record<string, string>; execArgv?: string[]; readyTimeoutMs?: number; wrapper?: string[] } = {},
): Promise<ChildHandle<Ready>> {
  const command = [...(options.wrapper ?? []), process.execPath, ...(options.execArgv ?? []), script];
  if (options.cpus !== undefined && canPin()) command.unshift('taskset', '-c', options.cpus);
  const child: ChildProcess = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...options.env } });

  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));

  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: not ready after ${options.readyTimeoutMs ?? 30_000} ms`)), options.readyTimeoutMs ?? 30_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name}: exited before it was ready (code ${code}, signal ${signal})`));
    });
    child.on('message', (raw) => {
      const msg = raw as ChildMessage;
      if (msg.type === 'ready') {
        clearTimeout(timer);
        resolve(msg.info as Ready);
      } else if (msg.type === 'error') {
        clearTimeout(timer);
        reject(new Error(`${name}: ${msg.message}`));
      } else if (msg.type === 'reply') {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error !== undefined) p?.reject(new Error(`${name}: ${msg.error}`));
        else p?.resolve(msg.value);
      }
    });
  }).catch(async (err) => {
    if (!exited) child.kill('SIGKILL');
    await exit;
    throw err;
  });

  const send = (msg: ParentMessage) => {
    if (child.connected) child.send(msg);
  };

  const ask = (request: Request) =>
    new Promise<unknown>((resolve, reject) => {
      if (exited) return reject(new Error(`${name} has exited`));
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ type: 'request', id, request });
    });

  return {
    name,
    pid: child.pid!,
    ready,
    cpu: () => ask({ type: 'cpu' }) as Promise<number>,
    profileStart: async () => void (await ask({ type: 'profile-start' })),
    profileStop: async (path) => void (await ask({ type: 'profile-stop', path })),
    async stop() {
      if (exited) return;
      send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(timer);
    },
  };
}
