// The contract between test/bench/run.ts and each test/bench/*.bench.ts module.

export interface BenchContext {
  /** Progress line on the console (not written to any file). */
  log(line: string): void;
}

/** The benchmark's row in BENCHMARKS.md: a few words per cell, derived from the figures of the run. */
export interface BenchSummary {
  /** The goals, e.g. "intent p50 ≤ 5 ms; build ≤ 300 ms" ('–' when the benchmark only informs). */
  goal: string;
  /** The figures those goals are judged on, in the same order. */
  measured: string;
  /** 'met', '**missed** n of m' or '–' (no goal): see verdictOf in ./summary.ts. */
  verdict: string;
}

export interface BenchResult {
  /** The full report (markdown, no title): written to docs/benchmarks/<name>.md under a header. */
  report: string;
  summary: BenchSummary;
}

export interface BenchModule {
  /** Stable identifier: the report's file name, the row in BENCHMARKS.md and what `npm run bench -- <filter>` matches. */
  name: string;
  /** The report's heading. */
  title: string;
  /** Runs the benchmark side by side with its baselines and returns its report and summary row. */
  run(ctx: BenchContext): Promise<BenchResult>;
}
