// Composition root: builds every concept module on top of the store and wires them together,
// without listening (./start.ts listens).
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { ActivityLog } from '../activity/index.ts';
import { Catalog } from '../catalog/index.ts';
import { AnalysisFiles } from '../docs/index.ts';
import { ConfigError, type EngineConfig } from '../config/index.ts';
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
import { describeConfinement, detectConfinement, FairQueue, SandboxWorkers } from '../sandbox/index.ts';
import { UnifiedOperations } from '../unified/index.ts';
import type { Logger } from '../log/index.ts';
import { tracingOn } from '../telemetry/index.ts';
import { Packages } from '../sdkgen/index.ts';
import { Apps } from '../apps/index.ts';
import type { ServerDeps } from '../server/index.ts';
import type { Store } from '../store/index.ts';
import { Workspace } from '../workspace/index.ts';

/** Marks the one-time binding of earlier credentials to origins (see assemble). */
const ORIGINS_BOUND = 'credential-origins-bound';

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
    {
      mcp,
      tokens,
      oauth: oauth.access,
      catalog,
      unified,
      log,
      sessionState,
      coordinator,
      approvals,
      analysisFiles: new AnalysisFiles(join(config.dataDir, 'search'), (err) => log.warn({ err }, 'cannot keep search analyses on disk; the next start analyses again')),
      tools: { execute },
    },
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
