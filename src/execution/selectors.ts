// The caller's selectors (which credential a call uses), checked as the spec's Selectors schema allows them.
import { EngineError } from '../envelope/index.ts';
import type { Selectors } from './types.ts';

export const NO_SELECTORS: Selectors = Object.freeze({});

/** Longest value of each selector (the spec's Selectors schema); authType is an enum. */
const SELECTOR_MAX_LENGTH: Readonly<Record<keyof Selectors, number>> = { endUserRef: 200, authType: 0, authName: 64, resourceId: 200 };

/**
 * Text a caller names things with (selectors, idempotency keys, operation IDs), as the spec's
 * patterns allow it: no control characters (PostgreSQL TEXT cannot hold NUL) and no unpaired
 * surrogates (a store keeping UTF-8 turns each into U+FFFD, so two names would become one).
 */
export const isPlainText = (value: string): boolean => PLAIN_TEXT.test(value);
const PLAIN_TEXT = /^[^\p{Cc}\p{Cs}]+$/u;

/**
 * The caller's selectors as the spec's Selectors schema allows them. Anything else is refused with
 * ENGINE_INVALID_INPUT naming the field: a misspelt selector must not quietly pick another credential.
 */
export function checkSelectors(value: unknown, field = 'selectors'): Selectors | undefined {
  if (value === undefined) return undefined;
  const refuse = (at: string, message: string) => new EngineError('ENGINE_INVALID_INPUT', `${at}: ${message}`, { details: { field: at } });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refuse(field, 'must be an object { endUserRef?, authType?, authName?, resourceId? }');
  }
  for (const [key, v] of Object.entries(value)) {
    const at = `${field}.${key}`;
    if (!Object.hasOwn(SELECTOR_MAX_LENGTH, key)) throw refuse(at, 'is not a selector (allowed: endUserRef, authType, authName, resourceId)');
    if (key === 'authType') {
      if (v !== 'api_key' && v !== 'oauth2') throw refuse(at, "must be 'api_key' or 'oauth2'");
    } else if (typeof v !== 'string' || v.length === 0 || v.length > SELECTOR_MAX_LENGTH[key as keyof Selectors]) {
      throw refuse(at, `must be a string of 1 to ${SELECTOR_MAX_LENGTH[key as keyof Selectors]} characters`);
    } else if (!isPlainText(v)) {
      // A store keeping UTF-8 would turn an unpaired surrogate into U+FFFD: two references, one connection.
      throw refuse(at, 'must not hold control characters or unpaired UTF-16 surrogates');
    }
  }
  return value as Selectors;
}

/** The selectors a binding fixes (its defined values), or NO_SELECTORS when it fixes none. */
export function definedOnly(o: Selectors | null | undefined): Selectors {
  if (!o) return NO_SELECTORS;
  const defined = Object.entries(o).filter(([, v]) => v !== undefined && v !== null);
  return defined.length ? (Object.fromEntries(defined) as Selectors) : NO_SELECTORS;
}
