// Latency samples for the search_docs and MCP benchmarks: percentiles of a plain number list,
// a forced full GC for heap figures, and small formatting helpers on top of stats.ts.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median, percentiles } from './stats.ts';

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of every sample (not a median of per-round figures). */
export function summarize(values: readonly number[]): Summary {
  const [p50, p90, p99, max] = percentiles(Float64Array.from(values), values.length, [50, 90, 99, 100]) as [number, number, number, number];
  return { n: values.length, p50, p90, p99, max };
}

export { median };

/** Milliseconds with a precision that suits the value (0.012, 0.85, 12.3, 1234). */
export function msAuto(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  const a = Math.abs(v);
  if (a < 0.1) return v.toFixed(3);
  if (a < 10) return v.toFixed(2);
  if (a < 1000) return v.toFixed(1);
  return Math.round(v).toLocaleString('en-US');
}

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

let gcFn: (() => void) | undefined;
/** Runs a full, synchronous GC in this process (V8's gc() exposed at run time, no --expose-gc needed). */
export function fullGc(): void {
  if (!gcFn) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
  gcFn();
}

export const envInt = (key: string, fallback: number) => {
  const v = Number(process.env[key]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
