// The Engine's settings as the rest of the Engine reads them (EngineConfig), each with the
// environment variable it comes from; ./load.ts reads and checks them.
import type { OtlpTraces } from './otel.ts';

export interface EngineConfig {
  host: string;
  httpPort: number;
  grpcPort: number;
  dataDir: string;
  masterKey: string | undefined;
  logLevel: string;
  /** Largest request body the Engine reads, in bytes. */
  maxRequestBytes: number;
  /** How long a client may take to send a request's headers, and the whole request (slow clients hold sockets). */
  httpHeadersTimeoutMs: number;
  httpRequestTimeoutMs: number;
  /** Largest request line and headers the HTTP server reads; more is 431 (SVC_HTTP_MAX_HEADER_BYTES). */
  httpMaxHeaderBytes: number;
  /** How long queued answer bytes may wait for a client that does not read before its connection is closed (SVC_HTTP_SEND_TIMEOUT_MS). */
  httpSendTimeoutMs: number;
  /** Open HTTP connections past which new ones are closed unanswered (SVC_HTTP_MAX_CONNECTIONS). */
  httpMaxConnections: number;
  /** Open gRPC connections past which new ones are closed before any HTTP/2 byte (SVC_GRPC_MAX_CONNECTIONS). */
  grpcMaxConnections: number;
  /** A gRPC connection with no call for this long is closed (SVC_GRPC_IDLE_MS); the client reconnects on its next call. */
  grpcIdleMs: number;
  /** Cap on a provider result (all pages together) for REST and gRPC calls. */
  restMaxResultBytes: number;
  /** Provider connect timeout and total per-request timeout, in milliseconds. */
  providerConnectTimeoutMs: number;
  providerTimeoutMs: number;
  /**
   * One provider attempt's timeout when a timeout would be retried (an idempotent method, or a key the
   * provider honours), so that another attempt fits SVC_PROVIDER_TIMEOUT_MS; 0 (the default): none.
   */
  providerAttemptTimeoutMs: number;
  /** Connections open at once to one provider origin; further requests wait for one (SVC_PROVIDER_MAX_CONNECTIONS). */
  providerMaxConnections: number;
  /** Private, loopback and reserved ranges providers may be reached at (SVC_EGRESS_ALLOW, CIDR ranges; src/egress). */
  egressAllow: string[];
  /** Public base URL printed in links (MCP runtime URLs, sign-in page). */
  publicUrl: string | undefined;
  /** Owner password; without it the Engine prints a one-time sign-in code at start. */
  ownerPassword: string | undefined;
  deviceCodeTtlSeconds: number;
  deviceIntervalSeconds: number;
  /** Browser origins allowed on /mcp besides the request's own (SVC_MCP_ALLOWED_ORIGINS, comma-separated, and SVC_PUBLIC_URL's). */
  mcpAllowedOrigins: string[];
  /** Host header names accepted on /mcp besides loopback ones (SVC_MCP_ALLOWED_HOSTS and SVC_PUBLIC_URL's); empty off loopback: any. */
  mcpAllowedHosts: string[];
  /** The Engine listens on a loopback address: loopback Hosts and Origins are accepted on /mcp, on any port. */
  mcpLoopback: boolean;
  mcpSessionIdleMs: number;
  /** Open MCP sessions one token may hold (SVC_MCP_SESSIONS_PER_TOKEN). */
  mcpSessionsPerToken: number;
  /** A session used less than this long ago is in use, never closed to make room for another (SVC_MCP_SESSION_IN_USE_MS). */
  mcpSessionInUseMs: number;
  /** Total budget of one execute (30 s, docs/architecture.md); lower it only for tests. */
  executeBudgetMs: number;
  /** Provider calls one token may make per minute, over every surface and replica; 0 = no limit. */
  rateLimitPerMinute: number;
  /** Activity receipts older than this many days are deleted (hourly); 0 keeps them forever. */
  receiptRetentionDays: number;
  /** Lifetime of an access token the Engine issues to an MCP client (SVC_MCP_OAUTH_ACCESS_TOKEN_TTL_S). */
  mcpOAuthAccessTokenTtlSeconds: number;
  /** Lifetime of an authorization code, from consent to its exchange (SVC_MCP_OAUTH_CODE_TTL_S). */
  mcpOAuthCodeTtlSeconds: number;
  /** Tests only: client ID metadata documents may also be fetched from loopback http URLs (SVC_TEST_MCP_OAUTH_LOOPBACK_CLIENT_IDS). */
  mcpOAuthLoopbackClientIds: boolean;
  /** REDIS_URL: MCP session state (snapshots, session.set values) lives in Redis, shared by replicas; unset keeps it in memory. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key the Engine writes (SVC_REDIS_KEY_PREFIX, default `svc:`). */
  redisKeyPrefix: string;
  /** Longest a call waits for another replica's OAuth refresh before a retryable failure (SVC_OAUTH_REFRESH_WAIT_MS). */
  oauthRefreshWaitMs: number;
  /** PostgreSQL pool connections (SVC_DB_POOL_SIZE). */
  dbPoolSize: number;
  /** SQLite's `synchronous` (SVC_SQLITE_SYNCHRONOUS): FULL syncs every commit to disk; NORMAL may lose the last ones to a power cut. */
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** SVC_RECEIPT_WRITES: `durable`, a call that may have changed data is answered once its receipt is committed; `batched`, like reads. */
  receiptWrites: 'durable' | 'batched';
  /** Proxy addresses and CIDR ranges whose X-Forwarded-For names the client (SVC_TRUSTED_PROXIES). */
  trustedProxies: string[];
  /** How sandbox workers are confined (SVC_SANDBOX_CONFINEMENT): `auto`, `bwrap` (required) or `permission`. */
  sandboxConfinement: 'auto' | 'bwrap' | 'permission';
  /** The uid and gid sandbox workers run as when the Engine runs as root (SVC_SANDBOX_UID, SVC_SANDBOX_GID). */
  sandboxUid: number;
  sandboxGid: number;
  /** Executes one token runs at once (SVC_EXECUTE_CONCURRENCY_PER_TOKEN) and all tokens together (SVC_EXECUTE_CONCURRENCY). */
  executeConcurrencyPerToken: number;
  executeConcurrency: number;
  /** Executes that may wait for a place, per token and in all, and how long each may wait (SVC_EXECUTE_QUEUE_*). */
  executeQueuePerToken: number;
  executeQueue: number;
  executeQueueWaitMs: number;
  /** OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _COMPRESSION and OTEL_TRACES_SAMPLER(_ARG) (./otel.ts); no endpoint, no tracing at all (src/telemetry). */
  otlpTraces: OtlpTraces | undefined;
  /** OTEL_SERVICE_NAME: the spans' `service.name` (default `svc-engine`). */
  otelServiceName: string | undefined;
  /** Services whose calls' input values go on their spans (SVC_TRACE_INPUT_SERVICES); none by default. */
  traceInputServices: string[];
}
