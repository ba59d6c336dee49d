// Composition root: wires the concept modules together and starts the Engine's listeners.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import { ActivityLog } from '../activity/index.ts';
import { Catalog } from '../catalog/index.ts';
import { ConfigError, plainHttpWarning, type EngineConfig } from '../config/index.ts';
import { SecretVault, loadMasterKey, purposeKey } from '../credentials/index.ts';
import { EgressPolicy } from '../egress/index.ts';
import { Dispatcher, Executor, IdempotencyKeys } from '../execution/index.ts';
import { Accounts, DeviceFlow, Tokens } from '../identity/index.ts';
import { Connections, serviceOfVaultEntry } from '../connections/index.ts';
import { LocalCoordinator, type Coordinator } from '../coordination/index.ts';
import { McpGateway } from '../mcp/index.ts';
import { AuthorizationServer } from '../oauth/index.ts';
import { createExecuteTool, RESULT_CAP_BYTES } from '../mcp/execute.ts';
import { Approvals } from '../approvals/index.ts';
import { Calls } from '../calls/index.ts';
import { MemorySessionStateStore, tracedSessionState, type SessionStateStore } from '../retention/index.ts';
import { observeHttpResponse } from '../metrics/index.ts';
import { describeConfinement, detectConfinement, FairQueue, SandboxWorkers } from '../sandbox/index.ts';
import { UnifiedOperations } from '../unified/index.ts';
import { createLogger, throttledWarning, type Logger } from '../log/index.ts';
import { startTracing, tracingOn, type Tracing } from '../telemetry/index.ts';
import { startGrpcServer } from '../grpc/index.ts';
import { Packages } from '../sdkgen/index.ts';
import { Apps } from '../apps/index.ts';
import { acceptExpectContinue, answerClientErrors, closeStalledSends, createHttpApp, HttpDrain, refuseExpectation, requireHost, type ServerDeps } from '../server/index.ts';
import { openStore, type Store } from '../store/index.ts';
import { Workspace } from '../workspace/index.ts';
import { lockDataDir } from './data-dir-lock.ts';

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
/** Marks the one-time binding of earlier credentials to origins (see assemble). */
const ORIGINS_BOUND = 'credential-origins-bound';
/** How often receipts past SVC_RECEIPT_RETENTION_DAYS are deleted (and once at start). */
const RECEIPT_PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface EngineOptions {
  logDestination?: DestinationStream;
  databaseUrl?: string;
}

/** Builds every service on top of the store, without listening. */
export async function assemble(
  config: EngineConfig,
  log: Logger,
  store: Store,
): Promise<ServerDeps & { dispatcher: Dispatcher; sessionState: SessionStateStore; sandbox: SandboxWorkers; executeQueue: FairQueue }> {
  const catalog = await Catalog.load(store);
  const workspace = new Workspace(store, catalog);
  const masterKey = loadMasterKey(config.dataDir, config.masterKey);
  const vault = new SecretVault(masterKey, store);
  const tokens = new Tokens(store);
  const activity = new ActivityLog(store, log);
  const urls = { http: config.publicUrl ?? `http://${config.host}:${config.httpPort}` };
  // Refresh locks across replicas live in Redis when it is configured (ioredis loads only then).
  const coordinator: Coordinator = config.redisUrl
    ? await (await import('../coordination/redis.ts')).RedisCoordinator.open({
        url: config.redisUrl,
        keyPrefix: config.redisKeyPrefix,
        onError: (err) => log.warn({ err }, 'redis coordination connection error'),
        onLocalCounting: (code) => log.warn({ code }, 'redis unavailable: rate and sign-in limits are counted per replica until it answers again'),
      })
    : new LocalCoordinator();
  const egress = new EgressPolicy(config.egressAllow);
  const connections = new Connections({
    store,
    vault,
    catalog,
    workspace,
    log,
    callbackUrl: () => `${urls.http}/v1/oauth/callback`,
    coordinator,
    refreshWaitMs: config.oauthRefreshWaitMs,
    egress,
  });
  await vault.verifyKey();
  // Credentials stored before they were bound to an origin are bound to where they were being sent,
  // once: a row left unbound later (an older replica still running) is refused, never bound to
  // wherever its service points by then.
  if ((await store.getMarker(ORIGINS_BOUND)) === null) {
    const bound =
      (await vault.bindUnbound((name) => workspace.credentialOrigin(serviceOfVaultEntry(name)).catch(() => null))) + (await connections.bindUnbound());
    await store.setMarker(ORIGINS_BOUND, new Date().toISOString());
    log.info({ bound }, 'bound earlier credentials to the origins their services are reached at');
  }
  const dispatcher = new Dispatcher({ connectTimeoutMs: config.providerConnectTimeoutMs, maxConnections: config.providerMaxConnections, egress });
  const executor = new Executor({
    catalog,
    workspace,
    vault,
    activity,
    connections,
    dispatcher,
    log,
    providerTimeoutMs: config.providerTimeoutMs,
    durableWrites: config.receiptWrites === 'durable',
    attemptTimeoutMs: config.providerAttemptTimeoutMs || undefined,
    idempotencySecret: purposeKey(masterKey, 'provider idempotency keys'),
    rateLimit: config.rateLimitPerMinute > 0 ? { perMinute: config.rateLimitPerMinute, coordinator } : undefined,
  });
  const keys = new IdempotencyKeys(store);
  const unified = new UnifiedOperations({ executor, store, keys });
  const packages = new Packages({ catalog, unified: unified.list() });
  const sdk = new Apps('sdk', { store, catalog, workspace, tokens, unified: unified.list() });
  const mcp = new Apps('mcp', { store, catalog, workspace, tokens, unified: unified.list() });
  const accounts = new Accounts(store, purposeKey(masterKey, 'sign-in codes'), purposeKey(masterKey, 'sign-in devices'));
  const deviceFlow = new DeviceFlow(store, tokens, { ttlSeconds: config.deviceCodeTtlSeconds, intervalSeconds: config.deviceIntervalSeconds });
  const sessionStore = config.redisUrl
    ? // ioredis loads only when Redis is configured: the embedded default starts without it.
      await (await import('../retention/redis.ts')).RedisSessionStateStore.open({
        url: config.redisUrl,
        keyPrefix: config.redisKeyPrefix,
        idleTtlMs: config.mcpSessionIdleMs,
        onError: (err) => log.warn({ err }, 'redis connection error'),
      })
    : new MemorySessionStateStore(undefined, config.mcpSessionIdleMs);
  // Snapshot and session.set reads and writes get spans of their own while tracing is on.
  const sessionState = tracingOn() ? tracedSessionState(sessionStore, config.redisUrl ? 'redis' : 'memory') : sessionStore;
  const confinement = detectConfinement({ mode: config.sandboxConfinement, uid: config.sandboxUid, gid: config.sandboxGid });
  if (config.sandboxConfinement === 'bwrap' && confinement.level !== 'bwrap') throw new ConfigError(`SVC_SANDBOX_CONFINEMENT is bwrap, but ${confinement.fallback}`);
  if (confinement.unusable) throw new ConfigError(`${confinement.unusable}; make the checkout readable to that user, or set SVC_SANDBOX_UID and SVC_SANDBOX_GID`);
  // Without bubblewrap a script that escapes its isolate has the network: an operator should know.
  log[confinement.level === 'bwrap' ? 'info' : 'warn'](
    { confinement: confinement.level, uid: confinement.user?.uid, gid: confinement.user?.gid, fallback: confinement.fallback },
    `sandbox workers confined (${confinement.level}): ${describeConfinement(confinement)}${confinement.fallback ? `; not bubblewrap: ${confinement.fallback}` : ''}`,
  );
  // A place to run per token at once, a bounded wait for the rest (src/sandbox/fair-queue.ts). A
  // run's wait is part of its budget: at most half of it, so a run that waited still has time.
  const executeQueue = new FairQueue({
    perTenant: config.executeConcurrencyPerToken,
    total: config.executeConcurrency,
    waitingPerTenant: config.executeQueuePerToken,
    waiting: config.executeQueue,
    waitMs: Math.min(config.executeQueueWaitMs, Math.floor(config.executeBudgetMs / 2)),
  });
  const sandbox = new SandboxWorkers({
    confinement,
    onWorkerExit: (exit) => {
      if (!exit.expected) log.warn({ code: exit.code, signal: exit.signal }, 'a sandbox worker process ended unasked (a script may have run it out of memory); the next run starts a new one');
    },
  });
  const approvals = new Approvals(store);
  const calls = new Calls({ sdk, mcp, executor, unified, keys, approvals, resultCapBytes: { rest: config.restMaxResultBytes, grpc: config.restMaxResultBytes, mcp: RESULT_CAP_BYTES } });
  const execute = createExecuteTool({ calls, sessionState, sandbox, queue: executeQueue, budgetMs: config.executeBudgetMs, tokens });
  const oauth = new AuthorizationServer({
    store,
    tokens,
    issuer: () => urls.http,
    consentKey: purposeKey(masterKey, 'mcp oauth consent forms'),
    accessTokenTtlSeconds: config.mcpOAuthAccessTokenTtlSeconds,
    codeTtlSeconds: config.mcpOAuthCodeTtlSeconds,
    egress,
    loopbackClientIds: config.mcpOAuthLoopbackClientIds,
  });
  const mcpGateway = new McpGateway(
    { mcp, tokens, oauth: oauth.access, catalog, unified, log, sessionState, tools: { execute } },
    {
      allowedOrigins: config.mcpAllowedOrigins,
      allowedHosts: config.mcpAllowedHosts,
      loopback: config.mcpLoopback,
      sessions: { perToken: config.mcpSessionsPerToken, inUseMs: config.mcpSessionInUseMs },
      sweepEveryMs: Math.min(60_000, config.mcpSessionIdleMs),
    },
  );
  return { config, log, store, urls, catalog, workspace, vault, tokens, sdk, mcp, executor, calls, approvals, activity, dispatcher, accounts, deviceFlow, connections, coordinator, mcpGateway, oauth, sessionState, sandbox, executeQueue, sandboxConfinement: confinement.level, unified, packages };
}

export async function startEngine(config: EngineConfig, options: EngineOptions = {}): Promise<Engine> {
  const unlock = options.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  const log = createLogger(config.logLevel, options.logDestination);
  // Traces (src/telemetry): only with OTEL_EXPORTER_OTLP_ENDPOINT; flushed when the Engine stops.
  const tracing = config.otlpEndpoint
    ? startTracing({
        endpoint: config.otlpEndpoint,
        inputServices: config.traceInputServices,
        serviceName: config.otelServiceName,
        onError: throttledWarning(log, () => ({}), 'exporting traces to OTEL_EXPORTER_OTLP_ENDPOINT failed: the collector refused the spans or did not answer, and they were dropped'),
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
