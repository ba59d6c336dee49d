// The knobs the closed-loop REST benches share, from the environment: BENCH_CONCURRENCY (32),
// BENCH_ROUNDS (8), BENCH_WINDOW_MS (2500), BENCH_WARMUP_MS (2000) and BENCH_PLACEMENT (pinned |
// shared; pinned only where taskset works).
import { canPin } from './child.ts';
import { envInt } from './samples.ts';

export function loadKnobs(): { concurrency: number; rounds: number; windowMs: number; warmupMs: number; pinned: boolean } {
  return {
    concurrency: envInt('BENCH_CONCURRENCY', 32),
    rounds: envInt('BENCH_ROUNDS', 8),
    windowMs: envInt('BENCH_WINDOW_MS', 2_500),
    warmupMs: envInt('BENCH_WARMUP_MS', 2_000),
    pinned: (process.env.BENCH_PLACEMENT ?? 'pinned') === 'pinned' && canPin(),
  };
}
