// Starting and stopping the Engine: the data dir locked, traces started, the modules assembled
// (./assemble.ts), the HTTP and gRPC listeners opened, background pruning scheduled, and a stop that
// drains requests in flight before closing everything in order.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { plainHttpWarning, type EngineConfig } from '../config/index.ts';
import { observeHttpResponse } from '../metrics/index.ts';
import { createLogger, throttledWarning, type Logger } from '../log/index.ts';
import { startTracing, traceLogFields, type Tracing } from '../telemetry/index.ts';
import { startGrpcServer } from '../grpc/index.ts';
import { acceptExpectContinue, answerClientErrors, closeStalledSends, createHttpApp, HttpDrain, refuseExpectation, requireHost } from '../server/index.ts';
import { openStore, type Store } from '../store/index.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { type EngineOptions, assemble } from './assemble.ts';

export interface Engine {
  readonly config: EngineConfig;
  readonly deps: Awaited<ReturnType<typeof assemble>>;
  readonly store: Store;
  /** http://host:port of the running HTTP listener. */
  readonly url: string;
  /** host:port of the running gRPC listener (the typed packages' `grpcUrl`). */
  readonly grpcUrl: string;
  /** The owner's one-time sign-in code, when one was issued at this start (printed by the bin). */
  readonly signinCode: string | null;
  /**
   * Graceful stop: no new connections; requests (and gRPC calls) in flight finish within the execute
   * budget plus a margin while new requests on open connections get 503 ENGINE_UNAVAILABLE; then
   * everything closes. Calling it again returns the same stop.
   */
  stop(): Promise<void>;
}

/**
 * Shutdown waits for requests in flight up to the execute budget plus this: an execute's answer may
 * wait up to 2 s for session.set writes its script left running, then store a snapshot.
 */
const DRAIN_MARGIN_MS = 3_000;
/** How long expired sign-in codes, device codes and consent states are kept before they are deleted. */
const EXPIRED_GRACE_MS = 24 * 60 * 60 * 1000;
/** How often receipts past SVC_RECEIPT_RETENTION_DAYS are deleted (and once at start). */
const RECEIPT_PRUNE_EVERY_MS = 60 * 60 * 1000;

export async function startEngine(config: EngineConfig, options: EngineOptions = {}): Promise<Engine> {
  const unlock = options.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  // A line written inside a traced request carries its trace's IDs.
  const log = createLogger(config.logLevel, options.logDestination, config.otlpTraces ? traceLogFields : undefined);
  // Traces (src/telemetry): only with an OTLP endpoint; flushed when the Engine stops.
  const otlp = config.otlpTraces;
  const tracing = otlp
    ? startTracing({
        url: otlp.url,
        headers: otlp.headers.values(),
        compression: otlp.compression,
        protocol: otlp.protocol,
        sampler: otlp.sampler,
        batch: otlp.batch,
        inputServices: config.traceInputServices,
        serviceName: config.otelServiceName,
        onError: throttledWarning(log, () => ({}), `exporting traces to ${otlp.urlVariable} failed: the collector refused the spans or did not answer, and they were dropped`),
      })
    : undefined;
  try {
    return await startLocked(config, options, unlock, tracing, log);
  } catch (err) {
    unlock();
    await tracing?.shutdown();
    throw err;
  }
}

async function startLocked(config: EngineConfig, options: EngineOptions, unlock: () => void, tracing: Tracing | undefined, log: Logger): Promise<Engine> {
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: options.databaseUrl, poolSize: config.dbPoolSize, synchronous: config.sqliteSynchronous });
  const deps = await assemble(config, log, store);
  const { signinCode, credentialsRevoked } = await deps.accounts.ensureOwner(config.ownerPassword);
  if (credentialsRevoked) log.warn({ revoked: credentialsRevoked }, "the owner's password changed: the owner's CLI credentials are revoked (run `svc-cli login` again)");
  const app = createHttpApp(deps);
  const drain = new HttpDrain(log, observeHttpResponse, config.maxRequestBytes);
  const drainBudgetMs = config.executeBudgetMs + DRAIN_MARGIN_MS;
  const handle = drain.wrap(requireHost(app.callback()));
  // A client that trickles its headers or body is cut off (408) rather than holding a socket for
  // Node's 5 minutes; timeouts are checked at a tenth of the shorter one (Node's default: every 30 s).
  const server: Server = createServer(
    {
      ServerResponse: drain.Response,
      headersTimeout: Math.min(config.httpHeadersTimeoutMs, config.httpRequestTimeoutMs),
      requestTimeout: config.httpRequestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(Math.min(config.httpHeadersTimeoutMs, config.httpRequestTimeoutMs) / 10))),
      requireHostHeader: false, // requireHost refuses it, with an envelope
      maxHeaderSize: config.httpMaxHeaderBytes,
    },
    handle,
  );
  server.on('checkContinue', acceptExpectContinue(handle));
  server.on('checkExpectation', drain.wrap(refuseExpectation));
  answerClientErrors(server, log, config.httpMaxHeaderBytes);
  const stopSendSweep = closeStalledSends(server, config.httpSendTimeoutMs, log);
  server.maxConnections = config.httpMaxConnections;
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.httpPort, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const hostInUrl = config.host.includes(':') ? `[${config.host}]` : config.host; // an IPv6 address is bracketed in a URL
  const url = `http://${hostInUrl}:${port}`;
  if (!config.publicUrl) deps.urls.http = url;
  const grpc = await startGrpcServer(deps, { host: config.host, port: config.grpcPort, shutdownGraceMs: drainBudgetMs }).catch(async (err: unknown) => {
    stopSendSweep();
    await new Promise((resolve) => server.close(resolve));
    throw err;
  });
  const grpcUrl = `${hostInUrl}:${grpc.port}`;
  log.info({ url, grpcUrl }, 'engine listening');
  const plainHttp = plainHttpWarning(config);
  if (plainHttp) log.warn(plainHttp);
  log.info({ allowed: config.egressAllow }, 'providers are called on public addresses, and on the private and loopback ranges SVC_EGRESS_ALLOW lists');
  deps.activity.startPruning(config.receiptRetentionDays, RECEIPT_PRUNE_EVERY_MS);
  // Sign-in and consent rows are useless once expired; a day's grace keeps "expired" answers telling.
  const purgeExpired = () =>
    void store.deleteExpired(new Date(Date.now() - EXPIRED_GRACE_MS).toISOString()).catch((err: unknown) => log.warn({ err }, 'purging expired sign-in state failed'));
  const purgeTimer = setInterval(purgeExpired, RECEIPT_PRUNE_EVERY_MS).unref();
  purgeExpired();

  let stopping: Promise<void> | undefined;
  return {
    config,
    deps,
    store,
    url,
    grpcUrl,
    signinCode,
    stop() {
      stopping ??= (async () => {
        // Executes still waiting for a place are refused (MCP_BUSY, nothing ran): another replica can take them.
        deps.executeQueue.close();
        const [, drained] = await Promise.all([grpc.stop(), drain.drain(server, drainBudgetMs)]);
        await deps.mcpGateway.close();
        await deps.oauth.close();
        await deps.sandbox.close();
        await deps.sessionState.close();
        await deps.coordinator.close();
        clearInterval(purgeTimer);
        stopSendSweep();
        await deps.activity.stopPruning();
        await deps.activity.flush();
        // Provider requests of calls the drain gave up on have no one left to answer: end them.
        await deps.dispatcher.close({ abort: drained.abandoned > 0 });
        // Those calls end now, each recording its receipt: written before the store closes.
        await new Promise((resolve) => setImmediate(resolve));
        await deps.activity.flush();
        await store.close();
        // The spans still batched go to the collector; one that does not answer costs the exporter's timeout (10 s).
        await tracing?.shutdown();
        unlock();
      })();
      return stopping;
    },
  };
}
