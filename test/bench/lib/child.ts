// Parent side of the bench child processes: spawns a server script (optionally pinned to CPUs
// with taskset), waits for its `ready` message, asks it for CPU usage, and stops it.
// The child side is test/bench/servers/ipc.ts.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import type { CpuUsage, ParentMessage, ChildMessage } from '../servers/ipc.ts';

export type { CpuUsage };

export interface ChildHandle<Ready> {
  readonly name: string;
  readonly pid: number;
  readonly ready: Ready;
  /** Cumulative user+system CPU time of the child, in microseconds. */
  cpu(): Promise<number>;
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

export async function startChild<Ready>(
  name: string,
  script: string,
  options: { cpus?: string | undefined; env?: Record<string, string>; execArgv?: string[]; readyTimeoutMs?: number } = {},
): Promise<ChildHandle<Ready>> {
  const nodeArgs = [...(options.execArgv ?? []), script];
  const pinned = options.cpus !== undefined && canPin();
  const child: ChildProcess = pinned
    ? spawn('taskset', ['-c', options.cpus!, process.execPath, ...nodeArgs], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...options.env } })
    : spawn(process.execPath, nodeArgs, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...options.env } });

  let nextId = 1;
  const pending = new Map<number, (usage: CpuUsage) => void>();
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
      } else if (msg.type === 'cpu') {
        pending.get(msg.id)?.(msg.usage);
        pending.delete(msg.id);
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

  return {
    name,
    pid: child.pid!,
    ready,
    cpu: () =>
      new Promise<number>((resolve, reject) => {
        if (exited) return reject(new Error(`${name} has exited`));
        const id = nextId++;
        pending.set(id, (u) => resolve(u.user + u.system));
        send({ type: 'cpu', id });
      }),
    async stop() {
      if (exited) return;
      send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(timer);
    },
  };
}
