// The contract between test/bench/run.ts and each test/bench/*.bench.ts module.

export interface BenchContext {
  /** Progress line on the console (not written to BENCHMARKS.md). */
  log(line: string): void;
}

export interface BenchModule {
  /** Stable identifier: the section marker in BENCHMARKS.md and what `npm run bench -- <filter>` matches. */
  name: string;
  /** Section heading. */
  title: string;
  /** Runs the benchmark side by side with its baselines and returns the section body (markdown, no heading). */
  run(ctx: BenchContext): Promise<string>;
}
