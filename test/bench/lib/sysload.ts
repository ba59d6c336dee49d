// Whole-machine CPU time from /proc/stat (Linux), so a benchmark can tell how much CPU other
// processes used during its measurement window — the noise this shared 2-core machine has —
// and how much the hypervisor stole from this VM.
import { readdirSync, readFileSync } from 'node:fs';

const USER_HZ = 100; // clock ticks per second in /proc/stat on Linux

export interface MachineCpu {
  /** user + nice + system + irq + softirq of all CPUs, µs. */
  busyUs: number;
  /** Time the hypervisor ran something else while a vCPU wanted to run, µs. */
  stealUs: number;
}

/** Cumulative machine CPU times; NaN where /proc/stat is unavailable. */
export function machineCpu(): MachineCpu {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    const us = (ticks: number) => (ticks * 1_000_000) / USER_HZ;
    return { busyUs: us(f[0]! + f[1]! + f[2]! + (f[5] ?? 0) + (f[6] ?? 0)), stealUs: us(f[7] ?? 0) };
  } catch {
    return { busyUs: NaN, stealUs: NaN };
  }
}

/**
 * CPU time of a process by thread (Linux, /proc/<pid>/task/<tid>/schedstat: on-CPU nanoseconds), in µs,
 * grouped as 'main thread' (the event loop) and otherwise by thread name — V8's GC and compiler
 * helpers are all 'V8Worker'. Undefined where /proc is unavailable. Threads that exited between two
 * readings drop out, so compare readings of long-lived threads only.
 */
export function threadCpu(pid: number): Map<string, number> | undefined {
  try {
    const groups = new Map<string, number>();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const runNs = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ', 1)[0]);
        const name = Number(tid) === pid ? 'main thread' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        groups.set(name, (groups.get(name) ?? 0) + runNs / 1000);
      } catch {
        // the thread exited while being read
      }
    }
    return groups;
  } catch {
    return undefined;
  }
}
