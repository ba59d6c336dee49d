// Small statistics helpers for the benchmarks: nearest-rank percentiles, medians, formatting.

/** Nearest-rank percentile (p in 0..100) of the first `n` values; sorts a copy. */
export function percentiles(values: Float64Array, n: number, ps: number[]): number[] {
  if (n === 0) return ps.map(() => NaN);
  const sorted = values.slice(0, n).sort();
  return ps.map((p) => sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))]!);
}

export function median(values: number[]): number {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!finite.length) return NaN;
  const mid = finite.length >> 1;
  return finite.length % 2 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2;
}

export const ms = (v: number, digits = 2): string => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
export const signedMs = (v: number, digits = 2): string => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(digits)}` : 'n/a');
export const ratio = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a');
export const int = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');

/** A markdown table from a header row and body rows. */
export function table(header: string[], rows: string[][], align?: ('l' | 'r')[]): string {
  const sep = header.map((_, i) => ((align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'r' ? '---:' : '---'));
  return [header, sep, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}
