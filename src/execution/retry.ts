// Retries of one provider request, only where sending it again cannot make the provider act twice:
// - any method, when nothing reached the provider (a connect error: PROVIDER_UNREACHABLE, which
//   src/execution/dispatch.ts reports only when no byte of the request was written) or when the
//   provider says it did not act (429);
// - 502, 503, 504, a timeout or a connection lost mid-request, only when the request is repeatable:
//   an idempotent method, or a key the provider honours (engine.yaml `idempotency`) on the request.
// Waits honour Retry-After and RateLimit-Reset, else jittered exponential backoff, and every
// attempt and wait fits the call's deadline. The usual call (one attempt that is not retried)
// allocates nothing here.
import { setTimeout as delay } from 'node:timers/promises';
import { EngineError } from '../envelope/index.ts';
import type { DispatchLimits, Dispatcher } from './dispatch.ts';
import type { ProviderResponse } from './provider-answer.ts';
import type { Redactor } from './redaction.ts';
import type { ReceiptAttempt } from '../store/index.ts';
import type { ProviderRequest } from './request.ts';

/** Attempts of one provider request when the service's engine.yaml sets no `retry.maxAttempts`. */
export const DEFAULT_MAX_ATTEMPTS = 3;
/** The first backoff's ceiling; each later one doubles, up to MAX_BACKOFF_MS. */
const BASE_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 2_000;
/**
 * The longest wait the Engine takes for a caller. A provider asking for more (GitHub's secondary
 * limits ask for a minute) gets its answer to the caller, who can schedule the retry itself.
 */
export const MAX_WAIT_MS = 10_000;
/** An attempt is not started with less than this left before the deadline: it could only time out. */
const MIN_ATTEMPT_MS = 50;

/** Methods that mean the same done once or more (RFC 9110 §9.2.2). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** One provider attempt as the receipt and the envelope's details list it. */
export type Attempt = ReceiptAttempt;

/** How one request may be retried. */
export interface RetryPlan {
  maxAttempts: number;
  /** Sending it twice cannot act twice: its method is idempotent, or it carries a key the provider honours. */
  repeatable: boolean;
  /** An attempt's own timeout, so that a repeatable request that hangs leaves time to try again; none: the call's whole deadline. */
  attemptTimeoutMs: number | undefined;
  /**
   * When the caller stops waiting (performance.now() time: a gRPC deadline, the end of an MCP run):
   * no wait or attempt starts that would end after it. Attempts are not cut at it: the caller's own
   * cancellation does that, and says so (gRPC answers DEADLINE_EXCEEDED).
   */
  stopAt?: number | undefined;
}

/** A provider answer, with its attempts when there was more than one. */
export type RetriedResponse = ProviderResponse & { attempts?: Attempt[]; notRetried?: string };

/** Why a retry that would otherwise be made was not: sending again could make the provider act twice. */
export const notRepeatable = (method: string) =>
  `not retried: ${method} is not idempotent and the request carries no idempotency key the provider honours, so the provider may have acted`;

/** The plan of a request: `keyed` when it carries an idempotency key the provider honours; `callerDeadline` in epoch ms. */
export function retryPlan(method: string, keyed: boolean, maxAttempts: number | undefined, attemptTimeoutMs: number | undefined, callerDeadline?: number): RetryPlan {
  const plan: RetryPlan = { maxAttempts: maxAttempts ?? DEFAULT_MAX_ATTEMPTS, repeatable: keyed || IDEMPOTENT_METHODS.has(method), attemptTimeoutMs };
  if (callerDeadline !== undefined) plan.stopAt = performance.now() + (callerDeadline - Date.now());
  return plan;
}

const headerOf = (headers: ProviderResponse['headers'], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const DELTA_SECONDS = /^\s*(\d{1,9})\s*$/;
/** `reset=N` (draft-ietf-httpapi-ratelimit-headers up to -06) or `t=N` (from -07 on) in a RateLimit field. */
const RATELIMIT_RESET = /(?:^|[\s;,])(?:reset|t)\s*=\s*(\d{1,9})(?![\d.])/;

/**
 * How long the provider asks the Engine to wait, in milliseconds: Retry-After (delta seconds or an
 * HTTP-date), else RateLimit-Reset, else the reset of a RateLimit field; undefined when it says nothing.
 */
export function requestedWaitMs(headers: ProviderResponse['headers'], now = Date.now()): number | undefined {
  const retryAfter = headerOf(headers, 'retry-after');
  if (retryAfter !== undefined) {
    const seconds = DELTA_SECONDS.exec(retryAfter);
    if (seconds) return Number(seconds[1]) * 1000;
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }
  const reset = headerOf(headers, 'ratelimit-reset');
  const resetSeconds = reset === undefined ? null : DELTA_SECONDS.exec(reset);
  if (resetSeconds) return Number(resetSeconds[1]) * 1000;
  const field = headerOf(headers, 'ratelimit');
  const inField = field === undefined ? null : RATELIMIT_RESET.exec(field);
  return inField ? Number(inField[1]) * 1000 : undefined;
}

/** Jittered exponential backoff before attempt `next` (2, 3, …): half the step fixed, half random. */
export function backoffMs(next: number, random = Math.random): number {
  const step = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (next - 2));
  return Math.round(step / 2 + (random() * step) / 2);
}

type Verdict = 'retry' | 'unsafe' | 'final';

/** Whether an answer may be retried under the plan. */
function answerVerdict(status: number, plan: RetryPlan): Verdict {
  if (!RETRIED_STATUSES.has(status)) return 'final';
  if (status === 429) return 'retry';
  return plan.repeatable ? 'retry' : 'unsafe';
}

/** Whether a failure (no answer) may be retried under the plan; `cancelled`: the caller went away. */
function failureVerdict(err: unknown, plan: RetryPlan, cancelled: boolean): Verdict {
  if (!(err instanceof EngineError) || cancelled) return 'final';
  if (err.code === 'PROVIDER_UNREACHABLE' && err.providerExecution === 'not_started') return 'retry';
  if ((err.code === 'PROVIDER_TIMEOUT' || err.code === 'ENGINE_OUTCOME_UNKNOWN') && err.providerExecution === 'unknown') {
    return plan.repeatable ? 'retry' : 'unsafe';
  }
  return 'final';
}

const cancelledOf = (limits: DispatchLimits) => Boolean(limits.signal?.aborted || limits.connection?.destroyed);

/** How often a wait looks at the caller's connection (REST), as the dispatcher's deadline sweep does. */
const CONNECTION_POLL_MS = 100;

/** Waits `ms`; false as soon as the caller is gone (its signal fired, or its connection closed). */
async function pause(ms: number, limits: DispatchLimits): Promise<boolean> {
  const until = performance.now() + ms;
  for (let left = ms; left > 0; left = until - performance.now()) {
    try {
      await delay(limits.connection ? Math.min(left, CONNECTION_POLL_MS) : left, undefined, limits.signal ? { signal: limits.signal } : undefined);
    } catch {
      return false;
    }
    if (cancelledOf(limits)) return false;
  }
  return true;
}

/**
 * Sends `req`, and again while the plan allows it and time is left, within `limits.timeoutMs` for
 * all attempts and waits together. Answers the last attempt's response, or throws its failure with
 * `details.attempts` (and `details.not_retried` when only safety stopped a retry).
 */
export async function sendWithRetries(dispatcher: Dispatcher, req: ProviderRequest, limits: DispatchLimits, secret: Redactor | null, plan: RetryPlan): Promise<RetriedResponse> {
  const started = performance.now();
  const deadline = started + limits.timeoutMs;
  const cut = plan.attemptTimeoutMs !== undefined && plan.repeatable && plan.maxAttempts > 1 && plan.attemptTimeoutMs < limits.timeoutMs;
  let res: ProviderResponse;
  try {
    res = await dispatcher.send(req, cut ? { ...limits, timeoutMs: plan.attemptTimeoutMs! } : limits, secret);
  } catch (err) {
    return again(dispatcher, req, limits, secret, plan, deadline, { err, durationMs: performance.now() - started });
  }
  if (!RETRIED_STATUSES.has(res.status)) return res;
  return again(dispatcher, req, limits, secret, plan, deadline, { res, durationMs: res.durationMs });
}

type Result = { res: ProviderResponse; err?: undefined; durationMs: number } | { err: unknown; res?: undefined; durationMs: number };

/** The attempts after a first one that may call for another. */
async function again(dispatcher: Dispatcher, req: ProviderRequest, limits: DispatchLimits, secret: Redactor | null, plan: RetryPlan, deadline: number, first: Result): Promise<RetriedResponse> {
  const attempts: Attempt[] = [];
  let result = first;
  let waited = 0;
  let notRetried: string | undefined;
  /** An attempt before the last may have made the provider act (it answered other than 429, or was cut once sent). */
  let actedBefore = false;
  for (let attempt = 1; ; attempt++) {
    attempts.push(describe(result, waited));
    const verdict = result.res ? answerVerdict(result.res.status, plan) : failureVerdict(result.err, plan, cancelledOf(limits));
    if (verdict === 'unsafe') notRetried = notRepeatable(req.method);
    if (verdict !== 'retry' || attempt >= plan.maxAttempts) break;
    const asked = result.res ? requestedWaitMs(result.res.headers) : undefined;
    if (asked !== undefined && asked > MAX_WAIT_MS) break;
    // Retry-After is a minimum: a little jitter above it keeps many callers from coming back at once.
    const wait = asked !== undefined ? asked + Math.round(Math.random() * Math.min(250, asked / 10)) : backoffMs(attempt + 1);
    if (performance.now() + wait + MIN_ATTEMPT_MS > Math.min(deadline, plan.stopAt ?? Infinity)) break;
    if (!(await pause(wait, limits)) || cancelledOf(limits)) break; // the caller went away while waiting
    waited = wait;
    actedBefore ||= result.res ? result.res.status !== 429 : !(result.err instanceof EngineError) || result.err.providerExecution !== 'not_started';
    const remaining = deadline - performance.now();
    const last = attempt + 1 >= plan.maxAttempts;
    const timeoutMs = !last && plan.repeatable && plan.attemptTimeoutMs !== undefined ? Math.min(remaining, plan.attemptTimeoutMs) : remaining;
    const sentAt = performance.now();
    try {
      const res = await dispatcher.send(req, { ...limits, timeoutMs: Math.max(1, timeoutMs) }, secret);
      result = { res, durationMs: res.durationMs };
    } catch (err) {
      result = { err, durationMs: performance.now() - sentAt };
    }
  }
  const many = attempts.length > 1;
  if (result.res) {
    if (!many && notRetried === undefined) return result.res;
    const res: RetriedResponse = result.res;
    if (many) res.attempts = attempts;
    if (notRetried !== undefined) res.notRetried = notRetried;
    return res;
  }
  const err = result.err;
  if (!(err instanceof EngineError) || (!many && notRetried === undefined)) throw err;
  throw new EngineError(err.code, err.message, {
    retryable: err.retryable,
    // The last attempt sent nothing, but an earlier one may have reached the provider.
    providerExecution: actedBefore && err.providerExecution === 'not_started' ? 'unknown' : err.providerExecution,
    details: { ...err.details, ...(many ? { attempts } : {}), ...(notRetried !== undefined ? { not_retried: notRetried } : {}) },
  });
}

function describe(result: Result, waitMs: number): Attempt {
  const durationMs = Math.round(result.durationMs * 1000) / 1000;
  if (result.res) return { status: result.res.status, durationMs, waitMs };
  return { error: result.err instanceof EngineError ? result.err.code : 'ENGINE_INTERNAL', durationMs, waitMs };
}

/** The provider time of a response's attempts together (the one attempt's when there was one). */
export const attemptsDurationMs = (res: RetriedResponse): number => (res.attempts ? res.attempts.reduce((sum, a) => sum + a.durationMs, 0) : res.durationMs);
