// Prometheus metrics of this Engine process (GET /metrics, prom-client's text format): requests and
// latencies per surface, execute outcomes, result snapshot bytes and OAuth refreshes. One registry
// per process; several Engines in one process (tests) share it, so read counters as deltas.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Where a request arrived: REST executions, the MCP server, the CLI's control plane, gRPC, or anything else (probes, sign-in, metrics). */
export type Surface = 'rest' | 'mcp' | 'control_plane' | 'grpc' | 'other';
/** How an OAuth refresh ended: new tokens; tokens another refresh wrote meanwhile; a transient failure; refused (needs re-authorisation). */
export type RefreshResult = 'refreshed' | 'reused' | 'failed' | 'needs_reauth';

const registry = new Registry();
collectDefaultMetrics({ register: registry });

const requests = new Counter({
  name: 'svc_requests_total',
  help: 'Requests answered, by surface and status: the HTTP status (aborted when the client left first); for grpc, the envelope status (cancelled when the call was).',
  labelNames: ['surface', 'status'] as const,
  registers: [registry],
});
const latency = new Histogram({
  name: 'svc_request_duration_seconds',
  help: 'Time from request arrival to the end of the response, by surface.',
  labelNames: ['surface'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});
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

/**
 * Label children resolved once per label set: prom-client hashes the labels on every `inc`/`observe`
 * otherwise, which cost a request ~5 µs on the REST hot path. The sets are few (surfaces × statuses).
 */
const requestCounters = new Map<Surface, Map<number | string, ReturnType<typeof requests.labels>>>();
const latencyBySurface = new Map<Surface, ReturnType<typeof latency.labels>>();

export const metrics = {
  /** The Content-Type of `text()`. */
  contentType: registry.contentType,
  observeRequest(surface: Surface, status: number | string, seconds: number): void {
    let bySurface = requestCounters.get(surface);
    if (!bySurface) requestCounters.set(surface, (bySurface = new Map()));
    let counter = bySurface.get(status);
    if (!counter) bySurface.set(status, (counter = requests.labels({ surface, status: String(status) })));
    counter.inc();
    let histogram = latencyBySurface.get(surface);
    if (!histogram) latencyBySurface.set(surface, (histogram = latency.labels({ surface })));
    histogram.observe(seconds);
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

const STARTED = Symbol('svc.requestStarted');
type TimedResponse = ServerResponse & { [STARTED]: number };

/** One listener shared by every response (no closure per request). */
function onResponseClose(this: TimedResponse): void {
  metrics.observeRequest(surfaceOf(this.req?.url ?? ''), this.writableFinished ? this.statusCode : 'aborted', (performance.now() - this[STARTED]) / 1000);
}

/** Wraps a node:http request listener so every request is counted and timed when its response ends. */
export function instrumentHttp<L extends (req: IncomingMessage, res: ServerResponse) => unknown>(listener: L): L {
  return ((req: IncomingMessage, res: ServerResponse) => {
    (res as TimedResponse)[STARTED] = performance.now();
    res.on('close', onResponseClose);
    return listener(req, res);
  }) as L;
}
