// What a provider's answer becomes: the call's outcome, with its envelope, bytes and hash for the receipt.
import { hash } from 'node:crypto';
import type { ServiceIndex } from '../catalog/index.ts';
import { EngineError, failure, success, type Envelope } from '../envelope/index.ts';
import { getAt } from '../json-pointer/index.ts';
import type { ProviderResponse } from './provider-answer.ts';
import { attemptsDurationMs, type Attempt, type RetriedResponse } from './retry.ts';
import type { Outcome } from './types.ts';

/** The outcome of a call that got no answer: refused, or failed at the provider (its attempts, when retried, in its details). */
export function refusedOutcome(err: EngineError): Outcome {
  const attempts = err.details?.attempts as Attempt[] | undefined;
  if (!attempts) return { envelope: err.toEnvelope(), providerAnswered: false, pages: 0, durationMs: 0, bytes: 0, sha256: null };
  return { envelope: err.toEnvelope(), providerAnswered: false, pages: 0, durationMs: attempts.reduce((sum, a) => sum + a.durationMs, 0), bytes: 0, sha256: null, attempts };
}

/** What an answer's details say of its retries: the attempts, and why none was made when safety stopped one. */
export const retryDetails = (res: RetriedResponse): Record<string, unknown> | undefined =>
  res.attempts || res.notRetried !== undefined ? { ...(res.attempts ? { attempts: res.attempts } : {}), ...(res.notRetried !== undefined ? { not_retried: res.notRetried } : {}) } : undefined;

export const sha256 = (data: Buffer | string) => hash('sha256', data, 'hex');

/** JSON.rawJSON and JSON.isRawJSON (in V8 since Node 21), not yet in TypeScript's lib. */
export const RawJson = JSON as unknown as { rawJSON(text: string): object; isRawJSON(value: unknown): value is { readonly rawJSON: string } };

/** A run of 16 digits: an integer past 2^53 (16 digits) written out in full has one. */
const LONG_DIGITS = /\d{16}/;

/**
 * A page's JSON with each integer a double cannot hold (past ±2^53) kept as its source text
 * (JSON.rawJSON), so JSON.stringify writes the provider's own digits; undefined when the page
 * has none. The cheap digit test spares the usual page the slower parse with a reviver.
 */
export function exactParse(text: string | undefined): unknown {
  if (text === undefined || !LONG_DIGITS.test(text)) return undefined;
  let kept = false;
  let value: unknown;
  try {
    value = JSON.parse(text, (_key, v: unknown, context?: { source?: string }) => {
      if (typeof v !== 'number' || Number.isSafeInteger(v) || !Number.isInteger(v) || context?.source === undefined) return v;
      kept = true;
      return RawJson.rawJSON(context.source);
    });
  } catch (err) {
    if (err instanceof RangeError) return undefined; // nested too deeply for the reviver: joined as parsed, or refused when joined
    throw err;
  }
  return kept ? value : undefined;
}

/**
 * Whether the provider answered an error: a status outside 2xx, or a 2xx whose body says it failed
 * as the service's policy declares (Slack's HTTP 200 `{ ok: false, error }`).
 */
export function answeredError(index: ServiceIndex, res: ProviderResponse): boolean {
  if (res.status < 200 || res.status >= 300) return true;
  const rule = index.providerError;
  return rule !== undefined && getAt(res.data, rule.pointer) === rule.equals;
}

/** The provider's error answer as an envelope, with its exact-digit details when the body needs them. */
export function providerFailure(index: ServiceIndex, res: ProviderResponse, extra: Record<string, unknown> = {}): Pick<Outcome, 'envelope' | 'exactDetails'> {
  const ok = res.status >= 200 && res.status < 300;
  const envelope = failure(res.status, {
    code: 'PROVIDER_ERROR',
    // The provider's own error text stays in details.providerBody: a message quotes none of it.
    message: ok ? `${index.service} answered HTTP ${res.status} with an error (${index.providerError!.pointer} is ${JSON.stringify(index.providerError!.equals)})` : `${index.service} answered HTTP ${res.status}`,
    retryable: res.status >= 500 || res.status === 429,
    details: { providerBody: res.data, ...extra },
  });
  const exact = exactParse(res.json);
  return { envelope, exactDetails: exact === undefined ? undefined : { providerBody: exact, ...extra } };
}

/** The accessor of SuccessOf's `data`: one function, so every such envelope shares one shape. */
const DATA: PropertyDescriptor = { enumerable: true, configurable: true };

/**
 * A success envelope whose `data` is the answer's, read when the envelope's is: a JSON body is
 * parsed only once something reads it (./provider-answer.ts); the REST and gRPC answers splice its
 * text. `data` is an own enumerable property, so spreads, JSON and structured clones carry it.
 */
class SuccessOf implements Envelope<unknown> {
  readonly ok = true as const;
  readonly status: number;
  declare readonly data: unknown;
  declare readonly error: null;
  readonly #res: ProviderResponse;

  static {
    DATA.get = function (this: SuccessOf) {
      return this.#res.data;
    };
  }

  constructor(res: ProviderResponse) {
    this.status = res.status;
    this.#res = res;
    Object.defineProperty(this, 'data', DATA);
    (this as { error: null }).error = null; // after data: the keys in an envelope's order
  }
}

const successOf = (res: ProviderResponse): Envelope<unknown> => (res.json === undefined ? success(res.status, res.data) : new SuccessOf(res));

export function singleOutcome(index: ServiceIndex, res: RetriedResponse): Outcome {
  const ok = !answeredError(index, res);
  return {
    ...(ok ? { envelope: successOf(res) } : providerFailure(index, res, retryDetails(res))),
    providerAnswered: true,
    pages: 1,
    durationMs: attemptsDurationMs(res),
    bytes: res.raw.length,
    sha256: sha256(res.raw),
    dataJson: ok ? res.json : undefined,
    attempts: res.attempts,
  };
}
