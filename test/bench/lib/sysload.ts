// Whole-machine CPU time from /proc/stat (Linux), so a benchmark can tell how much CPU other
// processes used during its measurement window — the noise this shared 2-core machine has —
// and how much the hypervisor stole from this VM.
import { readFileSync } from 'node:fs';

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
