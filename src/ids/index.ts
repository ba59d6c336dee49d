// Identifiers and token material (DESIGN §4). Tokens are 256-bit random and stored only as SHA-256.
import { hash, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let poolAt = POOL_BYTES;

let lastTime = -1;
let timeText = '';
/** The 80-bit random part as 16 base-32 digits (0..31), incremented within one millisecond. */
const digits = new Uint8Array(16);

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
    let text = '';
    for (let i = 0; i < 10; i++) {
      text = CROCKFORD[t % 32]! + text;
      t = Math.floor(t / 32);
    }
    timeText = text;
    freshRandom();
  } else {
    let i = 15;
    while (i >= 0 && digits[i] === 31) digits[i--] = 0;
    if (i < 0) throw new Error('ulid: random part overflowed within one millisecond');
    digits[i]!++;
  }
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[digits[i]!];
  return timeText + random;
}

export const newVersionId = (): string => `ver_${ulid()}`;
export const newTokenId = (): string => `tok_${ulid()}`;
export const newReceiptId = (): string => `rcp_${ulid()}`;

export type TokenKind = 'sdk' | 'mcp' | 'cli';

/** A fresh bearer token: `svc_<kind>_` + 43 base64url characters (256 bits). */
export const newToken = (kind: TokenKind): string => `svc_${kind}_${randomBytes(32).toString('base64url')}`;

export const hashToken = (token: string): string => hash('sha256', token, 'hex');

/** Compares two hex digests in constant time. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export const VERSION_ID = /^ver_[0-9A-HJKMNP-TV-Z]{26}$/;
