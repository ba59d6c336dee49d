// Idempotency keys, the same on every surface and for physical and Unified calls: a key claims one
// request for 24 hours in the store (SQLite or PostgreSQL, so every replica sees it). The same key
// and request answers the first call's kept answer; another request is 409; a call still running
// with it is 409 retryable; one whose Engine stopped mid-call is an unknown outcome. The caller of
// `once` decides what is kept: an answer where nothing reached a provider is not, so the key may be
// used again. Where a provider honours keys of its own (engine.yaml `idempotency`), the request
// carries `providerKey`, derived from the caller's key and its scope, never the key itself.
import { createHash, createHmac } from 'node:crypto';
import { EngineError } from '../envelope/index.ts';
import { canonicalJson } from '../json-input/index.ts';
import type { Store } from '../store/index.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A key held this long by a call that never finished was left by an Engine that stopped mid-call:
 * past any call's chain of steps at the longest provider timeout (SVC_PROVIDER_TIMEOUT_MS ≤ 10 min).
 */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
/** Visible ASCII: a key has one spelling in an HTTP header, gRPC metadata, JSON and every store. */
const KEY_CHARACTERS = /^[\x21-\x7e]+$/;

/**
 * The key a caller gave at `field` (`idempotencyKey`, the `Idempotency-Key` header, …), checked:
 * 1 to 200 visible ASCII characters. Refused with a 400 naming the field.
 */
export function checkIdempotencyKey(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new EngineError('ENGINE_INVALID_INPUT', `${field} must be a string of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`, { details: { field } });
  }
  if (!KEY_CHARACTERS.test(value)) {
    throw new EngineError('ENGINE_INVALID_INPUT', `${field} must hold visible ASCII characters only (letters, digits and punctuation; no spaces or control characters)`, { details: { field } });
  }
  return value;
}

/** SHA-256 of a request's canonical JSON: the same key with another request is refused. */
export const requestHash = (request: unknown): string => createHash('sha256').update(canonicalJson(request)).digest('hex');

/** Keys belong to one token of one version: another token (another end user, another allowlist) never gets its answer. */
export const keyScope = (versionId: string, tokenId: string | null): string => `${versionId}:${tokenId ?? 'none'}`;

/**
 * The key sent to a provider that honours keys: an HMAC of the caller's key, its scope and `part`
 * (a Unified step's target), so two tenants' equal keys never meet at the provider and the
 * caller's key is never shown to it. The same inputs give the same key on every replica.
 */
export function providerKey(secret: Buffer, scope: string, key: string, part = ''): string {
  return `svc_${createHmac('sha256', secret).update(`${scope}\n${key}\n${part}`).digest('base64url')}`;
}

export interface KeyClaim {
  /** keyScope of the call. */
  scope: string;
  key: string;
  /** requestHash of the call. */
  requestHash: string;
  /** Where the caller gave the key, as refusals name it. */
  field: string;
}

export type Once<T> = { replayed: false; result: T } | { replayed: true; kept: string };

export class IdempotencyKeys {
  private readonly store: Store;

  constructor(store: Store) {
    this.store = store;
  }

  /**
   * Runs `work` under the key, or answers the kept answer of the call that held it. `keep` says
   * what to keep of the result (text), or null to release the key (nothing reached a provider).
   */
  async once<T>(claim: KeyClaim, work: () => Promise<T>, keep: (result: T) => string | null): Promise<Once<T>> {
    const { scope, key, field } = claim;
    const held = await this.store.claimIdempotencyKey({ scope, key, requestHash: claim.requestHash, createdAt: new Date().toISOString(), ttlMs: IDEMPOTENCY_TTL_MS });
    if (held.state !== 'claimed') {
      if (held.requestHash !== claim.requestHash) {
        throw new EngineError('ENGINE_IDEMPOTENCY_CONFLICT', `${field} '${key}' was used with a different request in the last 24 hours; use a new key`, { details: { field } });
      }
      if (held.state === 'pending') {
        // No call runs this long: the Engine that held the key stopped mid-call, and whether a provider acted is unknown.
        if (Date.parse(held.createdAt) + ABANDONED_AFTER_MS <= Date.now()) {
          throw new EngineError(
            'ENGINE_OUTCOME_UNKNOWN',
            `the call with ${field} '${key}' that started at ${held.createdAt} never finished (the Engine running it stopped); it may have reached a provider: check there before repeating it with a new key`,
            { details: { field }, providerExecution: 'unknown' },
          );
        }
        throw new EngineError('ENGINE_IDEMPOTENCY_CONFLICT', `a call with ${field} '${key}' is still running; wait for it and repeat`, { details: { field }, retryable: true });
      }
      return { replayed: true, kept: held.result! };
    }
    let result: T;
    try {
      result = await work();
    } catch (err) {
      await this.store.releaseIdempotencyKey(scope, key);
      throw err;
    }
    const kept = keep(result);
    if (kept === null) await this.store.releaseIdempotencyKey(scope, key);
    else await this.store.completeIdempotencyKey(scope, key, kept);
    return { replayed: false, result };
  }
}
