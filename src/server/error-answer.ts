// The one mapping from an error to the HTTP answer, shared by the Koa app and the fast path: the
// envelope, its status, Retry-After when a refusal says how long to wait, and a log line for a
// failure that is not the Engine's own refusal.
import { EngineError, toEnvelope, type Envelope } from '../envelope/index.ts';
import type { Logger } from '../log/index.ts';
import { retryAfterOf } from './answers.ts';

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string> | undefined;
  body: Envelope;
}

/** Where the error happened, for the log line of an unexpected one (the route template, never the path). */
export interface ErrorPlace {
  log: Logger;
  method: string | undefined;
  route: string;
}

export function errorAnswer(err: unknown, place?: ErrorPlace): ErrorAnswer {
  if (place && !(err instanceof EngineError)) place.log.error({ err, method: place.method, route: place.route }, 'request failed');
  const body = toEnvelope(err);
  const retryAfter = retryAfterOf(body);
  return { status: body.status, headers: retryAfter ? { 'retry-after': retryAfter } : undefined, body };
}
