// Closed-loop HTTP load generator on an undici Pool: `concurrency` workers each keep one request
// in flight for a fixed duration; per-request latency (request start → last body byte) is taken
// with performance.now(). Every response is checked by the target's `check`. A target with several
// `origins` (replicas) spreads the load round-robin: worker k sends to origins[k % n], each origin
// with its own Pool, like a load balancer that balances per connection.
import { Pool } from 'undici';
import { int, ms, percentiles } from './stats.ts';

export interface LoadTarget {
  name: string;
  origin: string;
  /** Spread over these origins instead (same path, headers and body on each). */
  origins?: string[];
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** True when the response is the expected one. */
  check(status: number, body: string): boolean;
}

export interface WindowResult {
  target: string;
  concurrency: number;
  elapsedMs: number;
  /** Responses completed inside the window that passed `check`. */
  ok: number;
  /** Responses with a status other than 200. */
  non2xx: number;
  /** 200 responses whose body failed `check`. */
  badBody: number;
  /** Transport errors (connection refused/reset, timeouts). */
  errors: number;
  firstFailure: string | undefined;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export class LoadGenerator {
  readonly target: LoadTarget;
  private readonly pools: Pool[];
  private latencies = new Float64Array(1 << 18);

  constructor(target: LoadTarget, connections: number) {
    this.target = target;
    const origins = target.origins ?? [target.origin];
    this.pools = origins.map((origin) => new Pool(origin, { connections: Math.ceil(connections / origins.length), pipelining: 1, keepAliveTimeout: 60_000 }));
  }

  /**
   * Runs `concurrency` closed-loop workers for `durationMs`; only responses completed in the window count.
   * With `requests`, the workers start no more than that many requests in all (durationMs may then be Infinity).
   */
  async run(concurrency: number, durationMs: number, requests = Infinity): Promise<WindowResult> {
    const { method, path, headers, body } = this.target;
    const check = this.target.check;
    const pools = this.pools;
    let n = 0;
    let non2xx = 0;
    let badBody = 0;
    let errors = 0;
    let firstFailure: string | undefined;
    let started = 0;
    const start = performance.now();
    const end = start + durationMs;

    const worker = async (k: number) => {
      const pool = pools[k % pools.length]!;
      while (performance.now() < end && started++ < requests) {
        const t0 = performance.now();
        try {
          const res = await pool.request({ method, path, headers, body: body ?? null });
          const text = await res.body.text();
          const t1 = performance.now();
          if (t1 > end) break;
          if (res.statusCode !== 200) {
            non2xx++;
            firstFailure ??= `HTTP ${res.statusCode}: ${text.slice(0, 300)}`;
          } else if (!check(res.statusCode, text)) {
            badBody++;
            firstFailure ??= `unexpected body: ${text.slice(0, 300)}`;
          } else {
            if (n === this.latencies.length) {
              const grown = new Float64Array(n * 2);
              grown.set(this.latencies);
              this.latencies = grown;
            }
            this.latencies[n++] = t1 - t0;
          }
        } catch (err) {
          errors++;
          firstFailure ??= `error: ${(err as Error).message}`;
          // Back off a little so a dead target does not spin the loop.
          await new Promise((r) => setTimeout(r, 5));
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, (_, k) => worker(k)));
    const elapsedMs = Math.max(Number.isFinite(durationMs) ? durationMs : performance.now() - start, 1);
    const [p50, p90, p99, max] = percentiles(this.latencies, n, [50, 90, 99, 100]) as [number, number, number, number];
    return {
      target: this.target.name,
      concurrency,
      elapsedMs,
      ok: n,
      non2xx,
      badBody,
      errors,
      firstFailure,
      rps: (n * 1000) / elapsedMs,
      p50,
      p90,
      p99,
      max,
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map((pool) => pool.close()));
  }
}

/** The req/s, p50, p90 and p99 cells of a report row; `of` aggregates one figure of the windows (e.g. its median across rounds). */
export function windowCells(of: (figure: (w: WindowResult) => number) => number): string[] {
  return [int(of((w) => w.rps)), ms(of((w) => w.p50)), ms(of((w) => w.p90)), ms(of((w) => w.p99))];
}
