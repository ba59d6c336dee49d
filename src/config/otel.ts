// The OpenTelemetry SDK's standard environment variables for traces (the OTLP exporter and the
// sampler, as the OpenTelemetry specification names them), read and checked with the Engine's
// other settings so that a bad one stops the start naming it. Endpoints and headers are never
// echoed: a URL's user info or a header (a hosted collector's API key) may be a secret.
import { inspect } from 'node:util';
import { ConfigError } from './errors.ts';

export interface TracesSampler {
  /** OTEL_TRACES_SAMPLER: one of the specification's built-in samplers. */
  name: 'parentbased_always_on' | 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_off' | 'parentbased_traceidratio';
  /** OTEL_TRACES_SAMPLER_ARG: the share of traces a ratio sampler keeps, 0 to 1. */
  ratio: number;
}

/** OTEL_EXPORTER_OTLP_PROTOCOL: how spans are encoded on OTLP/HTTP (the specification's default is protobuf). */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** Where and how traces are exported (OTLP/HTTP, protobuf or JSON) and which are sampled. */
export interface OtlpTraces {
  /** The full traces URL. */
  url: string;
  /** The variable it came from, for messages (its value is not shown). */
  urlVariable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_EXPORTER_OTLP_ENDPOINT';
  /** Sent with each export (a hosted collector's API key): secrets. */
  headers: SecretHeaders;
  compression: 'gzip' | 'none';
  protocol: OtlpProtocol;
  sampler: TracesSampler;
  batch: SpanBatching;
}

/** OTEL_BSP_*: how finished spans wait for export (the specification's batch span processor). */
export interface SpanBatching {
  /** OTEL_BSP_MAX_QUEUE_SIZE: spans waiting past which new ones are dropped. */
  maxQueueSize: number;
  /** OTEL_BSP_MAX_EXPORT_BATCH_SIZE: spans per export at most, at most the queue. */
  maxExportBatchSize: number;
  /** OTEL_BSP_SCHEDULE_DELAY: ms a batch that is not full waits. */
  scheduledDelayMillis: number;
  /** OTEL_BSP_EXPORT_TIMEOUT: ms an export may take. */
  exportTimeoutMillis: number;
}

/**
 * Header values kept out of every dump: JSON.stringify and util.inspect (pino, console) show only
 * how many there are; the exporter reads them with `values()`.
 */
export class SecretHeaders {
  readonly #values: Readonly<Record<string, string>>;
  constructor(values: Record<string, string>) {
    this.#values = Object.freeze({ ...values });
  }
  values(): Readonly<Record<string, string>> {
    return this.#values;
  }
  get size(): number {
    return Object.keys(this.#values).length;
  }
  toJSON(): string {
    return `[${this.size} secret header(s)]`;
  }
  [inspect.custom](): string {
    return this.toJSON();
  }
}

/** An http(s) URL with a host and no fragment (a query only where allowed), or the error naming `name`; the value is not echoed. */
function httpUrlFrom(name: string, raw: string, query: boolean, example: string): string {
  const value = raw.trim();
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.hash || (!query && url.search)) {
    throw new ConfigError(`${name} must be an http(s) URL with no ${query ? '' : 'query or '}fragment, such as ${example} (the value is not shown: it may hold credentials)`);
  }
  return value;
}

/** The OTLP/HTTP traces URL of a base endpoint: the signal path is appended (the OTLP exporter specification). */
export const tracesUrl = (endpoint: string): string => `${endpoint.replace(/\/+$/, '')}/v1/traces`;

/** An HTTP header name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_TRACES_HEADERS: `name=value` pairs, comma-separated,
 * values percent-encoded (the specification's format). A bad entry is named by its position only.
 */
function headersFrom(name: string, raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = (raw ?? '').split(',');
  entries.forEach((entry, i) => {
    if (entry.trim() === '') return;
    const eq = entry.indexOf('=');
    const key = eq === -1 ? '' : entry.slice(0, eq).trim();
    let value: string | undefined;
    try {
      value = eq === -1 ? undefined : decodeURIComponent(entry.slice(eq + 1).trim());
    } catch {
      value = undefined;
    }
    if (!TOKEN.test(key) || value === undefined || /[\0-\x08\x0a-\x1f\x7f]/.test(value)) {
      throw new ConfigError(
        `${name} entry ${i + 1} must be name=value, the name an HTTP header name and the value percent-encoded without control characters, such as api-key=abc%20def,x-team=core (the value is not shown: it may hold a secret)`,
      );
    }
    out[key.toLowerCase()] = value;
  });
  return out;
}

function compressionFrom(env: NodeJS.ProcessEnv, name: string): 'gzip' | 'none' | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (raw !== 'gzip' && raw !== 'none') throw new ConfigError(`${name} must be gzip or none (got '${env[name]}')`);
  return raw;
}

const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json'];

/** OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf or http/json; grpc is refused by name. */
function protocolFrom(env: NodeJS.ProcessEnv, name: string): OtlpProtocol | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (raw === 'grpc') throw new ConfigError(`${name}=grpc is not supported: the Engine exports OTLP over HTTP; set http/protobuf (the default) or http/json and the collector's OTLP/HTTP port (4318)`);
  if (!PROTOCOLS.includes(raw as OtlpProtocol)) throw new ConfigError(`${name} must be http/protobuf or http/json (got '${env[name]}')`);
  return raw as OtlpProtocol;
}

const SAMPLERS = ['parentbased_always_on', 'always_on', 'always_off', 'traceidratio', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

/** OTEL_TRACES_SAMPLER and, for the ratio samplers, OTEL_TRACES_SAMPLER_ARG (0 to 1; 1 when unset). */
function samplerFrom(env: NodeJS.ProcessEnv): TracesSampler {
  const raw = env.OTEL_TRACES_SAMPLER?.trim();
  const name = (raw || SAMPLERS[0]) as TracesSampler['name'];
  if (!SAMPLERS.includes(name)) throw new ConfigError(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')} (got '${env.OTEL_TRACES_SAMPLER}')`);
  if (!name.endsWith('traceidratio')) return { name, ratio: 1 };
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = arg ? (/^(0|1)?(\.\d+)?$/.test(arg) && arg !== '.' ? Number(arg) : NaN) : 1;
  if (!(ratio >= 0 && ratio <= 1)) throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 for ${name}, such as 0.1 for 1 trace in 10 (got '${env.OTEL_TRACES_SAMPLER_ARG}')`);
  return { name, ratio };
}

/** The longest delay a Node timer takes: past it, setTimeout fires after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/** A whole number from `min` up (to `max` where given), or the error naming `name`. */
function countFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, unit: string, max?: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || !Number.isSafeInteger(value) || (max !== undefined && value > max)) {
    throw new ConfigError(`${name} must be a whole number of ${unit} from ${min}${max !== undefined ? ` to ${max}` : ''} (got '${env[name]}')`);
  }
  return value;
}

/** OTEL_BSP_* with the specification's defaults; a batch larger than the queue is refused. */
function batchingFrom(env: NodeJS.ProcessEnv): SpanBatching {
  const maxQueueSize = countFrom(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, 1, 'spans');
  const maxExportBatchSize = countFrom(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', Math.min(512, maxQueueSize), 1, 'spans');
  if (maxExportBatchSize > maxQueueSize) throw new ConfigError(`OTEL_BSP_MAX_EXPORT_BATCH_SIZE (${maxExportBatchSize}) must not exceed OTEL_BSP_MAX_QUEUE_SIZE (${maxQueueSize})`);
  return {
    maxQueueSize,
    maxExportBatchSize,
    scheduledDelayMillis: countFrom(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, 1, 'milliseconds', MAX_TIMER_MS),
    exportTimeoutMillis: countFrom(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30_000, 1, 'milliseconds', MAX_TIMER_MS),
  };
}

/**
 * Where and how traces are exported, or undefined (no tracing, and no other variable read) when
 * neither endpoint is set.
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is the traces URL as is; OTEL_EXPORTER_OTLP_ENDPOINT a base URL
 * that gets `/v1/traces`. The traces-specific headers, compression and protocol win over the
 * general ones (headers name by name).
 */
export function otlpTracesFrom(env: NodeJS.ProcessEnv): OtlpTraces | undefined {
  const signal = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() ? httpUrlFrom('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, true, 'http://127.0.0.1:4318/v1/traces') : undefined;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ? httpUrlFrom('OTEL_EXPORTER_OTLP_ENDPOINT', env.OTEL_EXPORTER_OTLP_ENDPOINT, false, 'http://127.0.0.1:4318 (traces go to its /v1/traces)') : undefined;
  if (signal === undefined && base === undefined) return undefined;
  const headers = { ...headersFrom('OTEL_EXPORTER_OTLP_HEADERS', env.OTEL_EXPORTER_OTLP_HEADERS), ...headersFrom('OTEL_EXPORTER_OTLP_TRACES_HEADERS', env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) };
  const compression = compressionFrom(env, 'OTEL_EXPORTER_OTLP_TRACES_COMPRESSION') ?? compressionFrom(env, 'OTEL_EXPORTER_OTLP_COMPRESSION') ?? 'none';
  const protocol = protocolFrom(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? protocolFrom(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  return {
    url: signal ?? tracesUrl(base!),
    urlVariable: signal !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT',
    headers: new SecretHeaders(headers),
    compression,
    protocol,
    sampler: samplerFrom(env),
    batch: batchingFrom(env),
  };
}
