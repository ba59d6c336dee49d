// Identifiers and token material (docs/architecture.md, identifiers). Tokens are 256-bit random and stored only as SHA-256.
import { hash, randomBytes, randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let poolAt = POOL_BYTES;

let lastTime = -1;
/** The 80-bit random part as 16 base-32 digits (0..31), incremented within one millisecond. */
const digits = new Uint8Array(16);
/** The ID being minted, as ASCII: 10 time characters, then 16 random ones. */
const text = Buffer.alloc(26);
const ALPHABET = Buffer.from(CROCKFORD, 'latin1');

function freshRandom() {
  if (poolAt + 10 > POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  // 10 bytes = 80 bits = 16 five-bit digits.
  for (let i = 0; i < 2; i++) {
    const o = poolAt + i * 5;
    const hi = pool[o]! * 2 ** 8 + pool[o + 1]!; // 16 bits
    const lo = pool[o + 2]! * 2 ** 16 + pool[o + 3]! * 2 ** 8 + pool[o + 4]!; // 24 bits
    const bits = hi * 2 ** 24 + lo; // 40 bits, exact in a double
    for (let d = 0; d < 8; d++) digits[i * 8 + d] = Math.floor(bits / 2 ** (35 - d * 5)) % 32;
  }
  poolAt += 10;
}

/**
 * A ULID (48-bit millisecond time + 80 random bits, Crockford base 32), monotonic within the
 * process: IDs minted in the same millisecond (or while the clock steps back) increment the random
 * part, so they still sort in creation order. Randomness comes from a pooled buffer, one fill per
 * 409 IDs minted in distinct milliseconds.
 */
export function ulid(): string {
  const now = Date.now();
  if (now > lastTime) {
    lastTime = now;
    let t = now;
    for (let i = 9; i >= 0; i--) {
      text[i] = ALPHABET[t % 32]!;
      t = Math.floor(t / 32);
    }
    freshRandom();
  } else {
    let i = 15;
    while (i >= 0 && digits[i] === 31) digits[i--] = 0;
    if (i < 0) throw new Error('ulid: random part overflowed within one millisecond');
    digits[i]!++;
  }
  for (let i = 0; i < 16; i++) text[10 + i] = ALPHABET[digits[i]!]!;
  return text.toString('latin1', 0, 26);
}

export const newVersionId = (): string => `ver_${ulid()}`;
export const newTokenId = (): string => `tok_${ulid()}`;
export const newReceiptId = (): string => `rcp_${ulid()}`;
export const newApprovalId = (): string => `apr_${ulid()}`;

/** The smallest receipt ID minted at or after `ms`: every ID below it was minted earlier. */
export function receiptIdAt(ms: number): string {
  // NaN would make a bound above every ID (a prune would delete everything).
  if (!Number.isFinite(ms)) throw new RangeError(`receiptIdAt: ${ms} is not a time`);
  let t = Math.min(Math.max(0, Math.floor(ms)), 2 ** 48 - 1);
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  return `rcp_${time}`;
}

export type TokenKind = 'sdk' | 'mcp' | 'cli';

/** A fresh bearer token: `svc_<kind>_` + 43 base64url characters (256 bits). */
export const newToken = (kind: TokenKind): string => `svc_${kind}_${randomBytes(32).toString('base64url')}`;

export const hashToken = (token: string): string => hash('sha256', token, 'hex');

export const VERSION_ID = /^ver_[0-9A-HJKMNP-TV-Z]{26}$/;
