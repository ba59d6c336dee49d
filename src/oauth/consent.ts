// What the consent page offers and accepts: the operations to keep, how long the grant lasts, and
// the form's CSRF token. The token binds one authorization request to one browser: an HMAC, under
// a key derived from the master key (the same on every replica), of a random cookie value and the
// request's parameters, so a form posted from elsewhere, or with its request altered, is refused.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppVersionRow } from '../store/index.ts';
import type { Approval, AuthorizationRequest } from './authorize.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** The grant lifetimes a person may choose, shortest first. */
export const GRANT_LIFETIMES = [
  { value: '1h', label: '1 hour', ms: HOUR },
  { value: '1d', label: '1 day', ms: DAY },
  { value: '7d', label: '7 days', ms: 7 * DAY },
  { value: '30d', label: '30 days', ms: 30 * DAY },
  { value: '90d', label: '90 days', ms: 90 * DAY },
  { value: '365d', label: '1 year', ms: 365 * DAY },
] as const;
export const DEFAULT_LIFETIME = '30d';

/** A consent form stays usable this long after the page was shown. */
export const CONSENT_FORM_TTL_MS = 15 * 60 * 1000;

/**
 * The approval a form describes: `kept` are the operations left ticked, by their index in the
 * version's operations. A string when the choice cannot be approved (it names what to change).
 */
export function approvalOf(version: AppVersionRow, kept: readonly number[], lifetime: string | undefined, subject: string, now = Date.now()): Approval | string {
  const chosen = [...new Set(kept)].filter((i) => Number.isInteger(i) && i >= 0 && i < version.operations.length);
  if (!chosen.length || chosen.length !== kept.length) return 'Keep at least one operation of this server.';
  const span = GRANT_LIFETIMES.find((l) => l.value === (lifetime ?? DEFAULT_LIFETIME));
  if (!span) return 'Choose how long the access lasts.';
  const allow = chosen.length === version.operations.length ? null : chosen.sort((a, b) => a - b).map((i) => version.operations[i]!);
  return { subject, allow, expiresAt: new Date(now + span.ms).toISOString() };
}

export class ConsentForms {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    this.key = key;
  }

  /** A fresh value for the browser's consent cookie. */
  nonce(): string {
    return randomBytes(16).toString('base64url');
  }

  private mac(nonce: string, request: AuthorizationRequest, issued: string): Buffer {
    const fields = [nonce, issued, request.clientId, request.redirectUri, request.state ?? '', request.codeChallenge, request.resource];
    return createHmac('sha256', this.key).update(JSON.stringify(fields)).digest();
  }

  /** The form's CSRF token for `request` in the browser holding `nonce`. */
  token(nonce: string, request: AuthorizationRequest, now = Date.now()): string {
    const issued = now.toString(36);
    return `${issued}.${this.mac(nonce, request, issued).toString('base64url')}`;
  }

  /** Whether `token` was made for this request and browser, within CONSENT_FORM_TTL_MS. */
  verify(token: string | undefined, nonces: readonly string[], request: AuthorizationRequest, now = Date.now()): boolean {
    const m = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
    if (!m) return false;
    const age = now - parseInt(m[1]!, 36);
    if (!(age >= -60_000 && age < CONSENT_FORM_TTL_MS)) return false;
    const presented = Buffer.from(m[2]!, 'base64url');
    return nonces.some((nonce) => /^[A-Za-z0-9_-]{22}$/.test(nonce) && timingSafeEqual(this.mac(nonce, request, m[1]!), presented));
  }
}
