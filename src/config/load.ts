// Engine settings from the environment, validated once at start-up: a value that cannot be used
// stops the start with one line naming it (ConfigError).
import { maxHeaderSize } from 'node:http';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { ConfigError } from './errors.ts';
import { otlpTracesFrom } from './otel.ts';
import type { EngineConfig } from './settings.ts';

/**
 * An integer setting: unset or blank takes the default; otherwise plain decimal digits only.
 * `Number()` would read ' ' as 0 (turning retention or a rate limit off) and take '0x1F' or '1e3'.
 */
export function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = /^\s*\d{1,15}\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got '${raw}')`);
  }
  return value;
}

/** One SVC_TRUSTED_PROXIES or SVC_EGRESS_ALLOW entry: an address, or a CIDR range whose prefix fits its family. */
function isAddressOrRange(entry: string): boolean {
  const slash = entry.indexOf('/');
  if (slash === -1) return isIP(entry) !== 0;
  const family = isIP(entry.slice(0, slash));
  const prefix = entry.slice(slash + 1);
  return family !== 0 && /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** SVC_TRUSTED_PROXIES, SVC_EGRESS_ALLOW: IP addresses and CIDR ranges (a load balancer pool's subnet), comma-separated. */
function rangesFrom(env: NodeJS.ProcessEnv, name: string): string[] {
  const entries = list(env[name]);
  const bad = entries.find((e) => !isAddressOrRange(e));
  if (bad !== undefined) throw new ConfigError(`${name} must list IP addresses or CIDR ranges, comma-separated (got '${bad}')`);
  return entries;
}

/** One of `choices` (the first when unset or blank), as written; anything else is refused naming them. */
function choiceFrom<const T extends string>(env: NodeJS.ProcessEnv, name: string, choices: readonly [T, ...T[]]): T {
  const raw = env[name]?.trim();
  if (!raw) return choices[0];
  if (!(choices as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be ${choices.join(' or ')} (got '${env[name]}')`);
  return raw as T;
}

const list = (raw: string | undefined) => (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** Whether a host name (brackets optional) names this machine: `localhost`, 127.0.0.0/8 (IPv4-mapped too) or `::1`. */
export function isLoopbackName(name: string): boolean {
  const host = name.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The names /mcp accepts in Host besides loopback ones (DNS-rebinding protection): those listed and
 * SVC_PUBLIC_URL's. Off loopback with none listed: any (empty), as the Engine is reached by names it
 * cannot know; on loopback another name is accepted only when listed.
 */
function allowedHostsFrom(env: NodeJS.ProcessEnv, loopback: boolean): string[] {
  // Blank is unset: on loopback it never switches the check off.
  const listed = list(env.SVC_MCP_ALLOWED_HOSTS).map((h) => h.toLowerCase().replace(/^\[|\]$/g, ''));
  if (!loopback && !listed.length) return [];
  const publicHost = env.SVC_PUBLIC_URL ? [new URL(env.SVC_PUBLIC_URL).hostname.toLowerCase().replace(/^\[|\]$/g, '')] : [];
  return [...new Set([...listed, ...publicHost])];
}

/** SVC_PUBLIC_URL: the absolute http(s) address clients reach the Engine at (MCP URLs, OAuth callbacks). */
function publicUrlFrom(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`SVC_PUBLIC_URL must be an absolute http(s) URL such as https://engine.example.com (got '${raw}')`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`SVC_PUBLIC_URL must be an http or https URL (got '${raw}')`);
  if (url.username || url.password || url.search || url.hash) throw new ConfigError('SVC_PUBLIC_URL must hold no credentials, query or fragment');
  return raw.replace(/\/+$/, '');
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
function logLevelFrom(raw: string | undefined): string {
  if (!raw) return 'info';
  if (!LOG_LEVELS.includes(raw)) throw new ConfigError(`SVC_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${raw}')`);
  return raw;
}

/** A switch: unset, blank, `0` or `false` is off; `1` or `true` is on; anything else is refused. */
function switchFrom(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0 (got '${env[name]}')`);
}

function redisUrlFrom(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^rediss?:\/\//i.test(raw)) throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  // Not echoed: the URL may hold the Redis password.
  if (!URL.canParse(raw)) throw new ConfigError('REDIS_URL is not a valid URL (check the host, port and any escaping in the password)');
  return raw;
}

/** SVC_TRACE_INPUT_SERVICES: service names (as `svc-cli services` lists them), comma-separated. */
function serviceNamesFrom(env: NodeJS.ProcessEnv, name: string): string[] {
  const names = list(env[name]);
  const bad = names.find((n) => !/^[a-z][a-z0-9-]{0,62}$/.test(n));
  if (bad !== undefined) throw new ConfigError(`${name} must list service names (lowercase letters, digits and '-'), comma-separated (got '${bad}')`);
  return names;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): EngineConfig {
  const publicUrl = publicUrlFrom(env.SVC_PUBLIC_URL); // checked before allowedHostsFrom reads it
  const httpPort = intFrom(env, 'SVC_HTTP_PORT', 8700, 0, 65535);
  const loopback = isLoopbackName(env.SVC_HOST || '127.0.0.1');
  return {
    host: env.SVC_HOST || '127.0.0.1',
    httpPort,
    // An ephemeral HTTP port (tests, side-by-side Engines) takes an ephemeral gRPC port too.
    grpcPort: intFrom(env, 'SVC_GRPC_PORT', httpPort === 0 ? 0 : 8701, 0, 65535),
    dataDir: resolve(env.SVC_DATA_DIR || './.svc-engine'),
    masterKey: env.SVC_MASTER_KEY || undefined,
    logLevel: logLevelFrom(env.SVC_LOG_LEVEL),
    maxRequestBytes: intFrom(env, 'SVC_MAX_REQUEST_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    httpHeadersTimeoutMs: intFrom(env, 'SVC_HTTP_HEADERS_TIMEOUT_MS', 20_000, 100, 600_000),
    httpRequestTimeoutMs: intFrom(env, 'SVC_HTTP_REQUEST_TIMEOUT_MS', 120_000, 100, 3_600_000),
    httpMaxConnections: intFrom(env, 'SVC_HTTP_MAX_CONNECTIONS', 10_000, 1, 1_000_000),
    httpSendTimeoutMs: intFrom(env, 'SVC_HTTP_SEND_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
    grpcMaxConnections: intFrom(env, 'SVC_GRPC_MAX_CONNECTIONS', 10_000, 1, 1_000_000),
    grpcIdleMs: intFrom(env, 'SVC_GRPC_IDLE_MS', 300_000, 1_000, 86_400_000),
    // Node's own limit by default: 16 KiB, or what --max-http-header-size set.
    httpMaxHeaderBytes: intFrom(env, 'SVC_HTTP_MAX_HEADER_BYTES', Math.min(Math.max(maxHeaderSize, 1024), 1024 * 1024), 1024, 1024 * 1024),
    restMaxResultBytes: intFrom(env, 'SVC_REST_MAX_RESULT_BYTES', 8 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    providerConnectTimeoutMs: intFrom(env, 'SVC_PROVIDER_CONNECT_TIMEOUT_MS', 5_000, 1, 120_000),
    providerTimeoutMs: intFrom(env, 'SVC_PROVIDER_TIMEOUT_MS', 30_000, 1, 600_000),
    providerAttemptTimeoutMs: intFrom(env, 'SVC_PROVIDER_ATTEMPT_TIMEOUT_MS', 0, 0, 600_000),
    providerMaxConnections: intFrom(env, 'SVC_PROVIDER_MAX_CONNECTIONS', 256, 1, 65_536),
    egressAllow: rangesFrom(env, 'SVC_EGRESS_ALLOW'),
    publicUrl,
    ownerPassword: env.SVC_OWNER_PASSWORD || undefined,
    deviceCodeTtlSeconds: intFrom(env, 'SVC_DEVICE_CODE_TTL_S', 600, 1, 3600),
    deviceIntervalSeconds: intFrom(env, 'SVC_DEVICE_INTERVAL_S', 5, 0, 60),
    mcpAllowedOrigins: [...list(env.SVC_MCP_ALLOWED_ORIGINS), ...(publicUrl ? [new URL(publicUrl).origin] : [])],
    mcpAllowedHosts: allowedHostsFrom(env, loopback),
    mcpLoopback: loopback,
    mcpSessionIdleMs: intFrom(env, 'SVC_MCP_SESSION_IDLE_MS', 30 * 60 * 1000, 1000, 24 * 60 * 60 * 1000),
    mcpSessionsPerToken: intFrom(env, 'SVC_MCP_SESSIONS_PER_TOKEN', 256, 1, 100_000),
    mcpSessionInUseMs: intFrom(env, 'SVC_MCP_SESSION_IN_USE_MS', 60_000, 1_000, 24 * 60 * 60 * 1000),
    executeBudgetMs: intFrom(env, 'SVC_EXECUTE_BUDGET_MS', 30_000, 100, 30_000),
    redisUrl: redisUrlFrom(env.REDIS_URL),
    redisKeyPrefix: env.SVC_REDIS_KEY_PREFIX || 'svc:',
    dbPoolSize: intFrom(env, 'SVC_DB_POOL_SIZE', 10, 1, 1000),
    sqliteSynchronous: choiceFrom(env, 'SVC_SQLITE_SYNCHRONOUS', ['FULL', 'NORMAL']),
    receiptWrites: choiceFrom(env, 'SVC_RECEIPT_WRITES', ['durable', 'batched']),
    trustedProxies: rangesFrom(env, 'SVC_TRUSTED_PROXIES'),
    oauthRefreshWaitMs: intFrom(env, 'SVC_OAUTH_REFRESH_WAIT_MS', 15_000, 100, 60_000),
    rateLimitPerMinute: intFrom(env, 'SVC_RATE_LIMIT_PER_MINUTE', 0, 0, 10_000_000),
    receiptRetentionDays: intFrom(env, 'SVC_RECEIPT_RETENTION_DAYS', 30, 0, 36_500),
    sandboxConfinement: choiceFrom(env, 'SVC_SANDBOX_CONFINEMENT', ['auto', 'bwrap', 'permission']),
    // 65534 is `nobody`; 0 would keep scripts' processes as root.
    sandboxUid: intFrom(env, 'SVC_SANDBOX_UID', 65_534, 1, 4_294_967_294),
    sandboxGid: intFrom(env, 'SVC_SANDBOX_GID', 65_534, 1, 4_294_967_294),
    executeConcurrencyPerToken: intFrom(env, 'SVC_EXECUTE_CONCURRENCY_PER_TOKEN', 2, 1, 1_000),
    executeConcurrency: intFrom(env, 'SVC_EXECUTE_CONCURRENCY', 32, 1, 10_000),
    executeQueuePerToken: intFrom(env, 'SVC_EXECUTE_QUEUE_PER_TOKEN', 256, 0, 100_000),
    executeQueue: intFrom(env, 'SVC_EXECUTE_QUEUE', 1_024, 0, 1_000_000),
    executeQueueWaitMs: intFrom(env, 'SVC_EXECUTE_QUEUE_WAIT_MS', 10_000, 0, 30_000),
    mcpOAuthAccessTokenTtlSeconds: intFrom(env, 'SVC_MCP_OAUTH_ACCESS_TOKEN_TTL_S', 3600, 1, 86_400),
    mcpOAuthCodeTtlSeconds: intFrom(env, 'SVC_MCP_OAUTH_CODE_TTL_S', 60, 1, 600),
    mcpOAuthLoopbackClientIds: switchFrom(env, 'SVC_TEST_MCP_OAUTH_LOOPBACK_CLIENT_IDS'),
    otlpTraces: otlpTracesFrom(env),
    otelServiceName: env.OTEL_SERVICE_NAME?.trim() || undefined,
    traceInputServices: serviceNamesFrom(env, 'SVC_TRACE_INPUT_SERVICES'),
  };
}
