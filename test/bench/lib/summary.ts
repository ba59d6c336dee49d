// The verdict cell of a benchmark's row in BENCHMARKS.md (test/bench/lib/types.ts, BenchSummary).

/** 'met' when every goal is met, '**missed** n of m' otherwise, '–' for a benchmark without goals. */
export function verdictOf(met: readonly boolean[]): string {
  if (!met.length) return '–';
  const missed = met.filter((m) => !m).length;
  return missed ? `**missed** ${missed} of ${met.length}` : 'met';
}
