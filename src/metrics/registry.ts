// Prometheus metrics of this Engine process (GET /metrics, prom-client's text format): requests and
// latencies per surface, execute outcomes, result snapshot bytes and OAuth refreshes. One registry
// per process; several Engines in one process (tests) share it, so read counters as deltas.
import type { ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';

/** Where a request arrived: REST executions, the MCP server, the CLI's control plane, gRPC, or anything else (probes, sign-in, metrics). */
export type Surface = 'rest' | 'mcp' | 'control_plane' | 'grpc' | 'other';
/** How an OAuth refresh ended: new tokens; tokens another refresh wrote meanwhile; a transient failure; refused (needs re-authorisation). */
export type RefreshResult = 'refreshed' | 'reused' | 'failed' | 'needs_reauth';

const registry = new Registry();
collectDefaultMetrics({ register: registry });

/**
 * Requests are tallied in plain counters and folded into prom-client when it collects (a scrape):
 * prom-client validates and hashes the labels on every `inc`/`observe`, ~3 µs of every request.
 */
interface SurfaceTally {
  /** Requests by status since the last collect. */
  byStatus: Map<number | string, number>;
  /** Latency histogram: observations per bucket (the last one is +Inf only), cumulative over the process. */
  buckets: Float64Array;
  sum: number;
  count: number;
}
const LATENCY_BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const tallies = new Map<Surface, SurfaceTally>();

const requests = new Counter({
  name: 'svc_requests_total',
  help: 'Requests answered, by surface and status: the HTTP status (aborted when the client left first); for grpc, the envelope status (cancelled when the call was; deadline when its deadline passed first).',
  labelNames: ['surface', 'status'] as const,
  registers: [registry],
  collect() {
    for (const [surface, tally] of tallies) {
      for (const [status, n] of tally.byStatus) if (n > 0) this.inc({ surface, status: String(status) }, n);
      tally.byStatus.clear();
    }
  },
});

/** svc_request_duration_seconds as prom-client's registry reads a histogram (`get()`), from the tallies. */
const latency = {
  name: 'svc_request_duration_seconds',
  help: 'Time from request arrival to the end of the response, by surface.',
  type: 'histogram',
  aggregator: 'sum',
  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const [surface, tally] of tallies) {
      let cumulative = 0;
      LATENCY_BOUNDS.forEach((le, i) => {
        cumulative += tally.buckets[i]!;
        values.push({ labels: { le, surface }, value: cumulative, metricName: 'svc_request_duration_seconds_bucket' });
      });
      values.push({ labels: { le: '+Inf', surface }, value: tally.count, metricName: 'svc_request_duration_seconds_bucket' });
      values.push({ labels: { surface }, value: tally.sum, metricName: 'svc_request_duration_seconds_sum' });
      values.push({ labels: { surface }, value: tally.count, metricName: 'svc_request_duration_seconds_count' });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  },
};
registry.registerMetric(latency as unknown as Parameters<Registry['registerMetric']>[0]);
const executeOutcomes = new Counter({
  name: 'svc_execute_outcomes_total',
  help: 'MCP execute calls by outcome: OK (inline result), MCP_RESULT_STORED (snapshot), or the error code.',
  labelNames: ['code'] as const,
  registers: [registry],
});
const snapshotHeld = new Gauge({
  name: 'svc_snapshot_bytes',
  help: 'Bytes of result snapshots held by the session-state store, as seen by this process (with Redis, sum it over replicas).',
  registers: [registry],
});
const snapshotStored = new Counter({
  name: 'svc_snapshot_bytes_stored_total',
  help: 'Bytes of result snapshots stored by this process.',
  registers: [registry],
});
const refreshes = new Counter({
  name: 'svc_oauth_refreshes_total',
  help: 'OAuth access-token refreshes by result: refreshed, reused (another refresh had just finished), failed (transient), needs_reauth (refused).',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const metrics = {
  /** The Content-Type of `text()`. */
  contentType: registry.contentType,
  observeRequest(surface: Surface, status: number | string, seconds: number): void {
    let tally = tallies.get(surface);
    if (!tally) tallies.set(surface, (tally = { byStatus: new Map(), buckets: new Float64Array(LATENCY_BOUNDS.length), sum: 0, count: 0 }));
    tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
    if (!Number.isFinite(seconds)) return;
    let i = 0;
    while (i < LATENCY_BOUNDS.length && seconds > LATENCY_BOUNDS[i]!) i++;
    if (i < LATENCY_BOUNDS.length) tally.buckets[i]!++;
    tally.sum += seconds;
    tally.count++;
  },
  executeOutcome(code: string): void {
    executeOutcomes.inc({ code });
  },
  /** Snapshot bytes added (positive) or released, evicted or expired (negative). */
  snapshotBytes(delta: number): void {
    if (!delta) return;
    snapshotHeld.inc(delta);
    if (delta > 0) snapshotStored.inc(delta);
  },
  refresh(result: RefreshResult): void {
    refreshes.inc({ result });
  },
  /** The exposition text for a scrape. */
  text(): Promise<string> {
    return registry.metrics();
  },
};

/** The surface of an HTTP request, from its path. */
export function surfaceOf(url: string): Surface {
  if (url.startsWith('/mcp/')) return 'mcp';
  if (url.startsWith('/v1/apps/')) return 'rest';
  if (url.startsWith('/v1/')) return 'control_plane';
  return 'other';
}

/** Counts and times one HTTP response once it has closed (HttpDrain calls this for every response). */
export function observeHttpResponse(res: ServerResponse, arrivedAt: number): void {
  metrics.observeRequest(surfaceOf(res.req?.url ?? ''), res.writableFinished ? res.statusCode : 'aborted', (performance.now() - arrivedAt) / 1000);
}
