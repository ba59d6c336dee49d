// Structured logs (pino). Credentials are redacted by path; values never reach a log line by design,
// and redaction is the second line of defence.
import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'token',
  'secret',
  'value',
  '*.token',
  '*.secret',
  '*.value',
  // Node's URL errors carry the text parsed and its base: a provider URL may hold a query-string key.
  'err.input',
  'err.base',
  // ioredis errors carry the command that failed: HELLO/AUTH hold the Redis password.
  'err.command.args',
];

/**
 * `fields`: added to every line as it is written (the active trace's IDs, src/telemetry), read then,
 * not when the logger is made.
 */
export function createLogger(level: string, destination?: DestinationStream, fields?: () => object): Logger {
  return pino({ level, base: { service: 'svc-engine' }, redact: { paths: REDACT, censor: '[redacted]' }, ...(fields ? { mixin: fields } : {}) }, destination);
}

/**
 * Counts occurrences of something worth one warning a while (connections dropped past a cap) and
 * logs at most one per `everyMs`, with how many happened since the last (this one included).
 */
export function throttledWarning(log: Logger, fields: () => Record<string, unknown>, message: string, everyMs = 60_000): () => void {
  let count = 0;
  let warnedAt = -Infinity;
  return () => {
    count++;
    if (performance.now() - warnedAt < everyMs) return;
    warnedAt = performance.now();
    log.warn({ ...fields(), dropped: count }, message);
    count = 0;
  };
}
