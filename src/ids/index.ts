// Identifiers and token material (DESIGN §4). Tokens are 256-bit random and stored only as SHA-256.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { monotonicFactory } from 'ulid';

// Monotonic, so IDs minted in the same millisecond still sort in creation order.
const ulid = monotonicFactory();

export const newVersionId = (): string => `ver_${ulid()}`;
export const newTokenId = (): string => `tok_${ulid()}`;
export const newReceiptId = (): string => `rcp_${ulid()}`;

export type TokenKind = 'sdk' | 'mcp' | 'cli';

/** A fresh bearer token: `svc_<kind>_` + 43 base64url characters (256 bits). */
export const newToken = (kind: TokenKind): string => `svc_${kind}_${randomBytes(32).toString('base64url')}`;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Compares two hex digests in constant time. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export const VERSION_ID = /^ver_[0-9A-HJKMNP-TV-Z]{26}$/;
