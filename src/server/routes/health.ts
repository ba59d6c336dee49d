// Liveness, readiness and metrics: what orchestrators and scrapers poll.
import type { Logger } from '../../log/index.ts';
import { metrics } from '../../metrics/index.ts';
import type { Handlers, ServerDeps } from '../types.ts';

/** How long a readiness probe may take before its dependency counts as unavailable. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Runs one readiness probe under PROBE_TIMEOUT_MS. The answer names the failure by a short code only
 * (an errno, a SQLSTATE or TIMEOUT): /readyz is unauthenticated, so no message, host or address.
 */
async function probe(check: () => Promise<void>, backend: string, log: Logger) {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`), { code: 'TIMEOUT' })), PROBE_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok' as const, backend, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const error = typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'UNAVAILABLE';
    log.warn({ dependency: backend, error, reason: (err as Error).message }, 'readiness probe failed');
    return { status: 'unavailable' as const, backend, latencyMs: Math.round((performance.now() - started) * 100) / 100, error };
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(deps: ServerDeps): Pick<Handlers, 'getLiveness' | 'getReadiness' | 'getMetrics'> {
  return {
    async getLiveness() {
      return { body: { status: 'ok' as const } };
    },

    async getReadiness() {
      // Redis is a dependency only when configured (REDIS_URL): then it holds the refresh locks and
      // the MCP session state every replica shares, and a replica that cannot reach it is not ready.
      const [database, redis] = await Promise.all([
        probe(() => deps.store.ping(), deps.store.kind, deps.log),
        deps.coordinator.kind === 'redis' ? probe(() => deps.coordinator.ping(), 'redis', deps.log) : undefined,
      ]);
      const checks = redis ? { database, redis } : { database };
      const ready = Object.values(checks).every((c) => c.status === 'ok');
      // How a script escaping its isolate would be confined (src/sandbox/confinement.ts): a level, no detail.
      const sandbox = { confinement: deps.sandboxConfinement };
      return { status: ready ? 200 : 503, body: { status: ready ? ('ready' as const) : ('unavailable' as const), checks, sandbox } };
    },

    async getMetrics() {
      return { type: metrics.contentType, body: await metrics.text() };
    },
  };
}
