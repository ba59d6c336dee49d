// People who can approve a CLI sign-in: the owner account, created on first start, with a
// password (scrypt) or a one-time sign-in code printed on the Engine host.
import { createHmac, randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';
import type { Store } from '../store/index.ts';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: ScryptOptions) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1 } as const;
export const OWNER = 'owner';
const SIGNIN_CODE_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a browser that signed in stays a known device of that account. */
export const DEVICE_COOKIE_TTL_MS = 180 * 24 * 60 * 60 * 1000;
/** Well-formed device cookie values of one request that are checked; more are not (each costs one HMAC). */
const DEVICE_COOKIES_CHECKED = 16;
/** `<subject, base64url>.<issued ms, base 36>.<nonce>.<HMAC>`: only characters a cookie value may hold unquoted. */
const DEVICE_COOKIE_FORM = /^([A-Za-z0-9_-]{1,200})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, N, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(N), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected);
}

/** A human-friendly code: 4+4 characters from an alphabet without look-alikes. */
export function humanCode(): string {
  const alphabet = 'BCDFGHJKLMNPQRSTVWXZ23456789';
  const chars = Array.from({ length: 8 }, () => alphabet[randomInt(alphabet.length)]); // uniform: no modulo bias
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

export class Accounts {
  private readonly store: Store;
  private readonly codeKey: Buffer;
  private readonly deviceKey: Buffer;

  /**
   * `codeKey` keys the stored hashes of sign-in codes: a code has only about 38 bits, so a plain
   * SHA-256 of it, read from a leaked database or backup, would be reversed in minutes.
   * `deviceKey` signs device cookies (the same on every replica, as both derive from the master key).
   */
  constructor(store: Store, codeKey: Buffer, deviceKey: Buffer) {
    this.store = store;
    this.codeKey = codeKey;
    this.deviceKey = deviceKey;
  }

  /**
   * The cookie's MAC also covers the account's password hash as it is now: setting another password
   * retires every device cookie issued before, as it retires the sessions of those who knew the old one.
   */
  private deviceMac(payload: string, passwordHash: string | null): string {
    return createHmac('sha256', this.deviceKey).update(`${payload}\n${passwordHash ?? ''}`).digest('base64url');
  }

  /**
   * The value of a device cookie for a browser that just signed in as `subject` (OWASP's device
   * cookies). It proves nothing by itself: it only lets that browser's guesses be counted apart,
   * so failures from elsewhere cannot lock the account's owner out.
   */
  async deviceCookie(subject: string, now = Date.now()): Promise<string> {
    const user = await this.store.getUser(subject);
    const payload = `${Buffer.from(subject).toString('base64url')}.${now.toString(36)}.${randomBytes(16).toString('base64url')}`;
    return `${payload}.${this.deviceMac(payload, user?.passwordHash ?? null)}`;
  }

  /**
   * The device's ID when one of `cookies` is a device cookie this Engine issued, unexpired, to a
   * browser signed in as `username` under the account's present password. Several values may
   * arrive (another app on the same host can set a cookie of this name): any one that verifies
   * counts. Malformed ones are passed over before the cap, so junk set first cannot push ours out.
   */
  async trustedDevice(cookies: readonly string[], username: string, now = Date.now()): Promise<string | undefined> {
    const candidates = cookies
      .map((c) => DEVICE_COOKIE_FORM.exec(c))
      .filter((m) => m !== null)
      .slice(0, DEVICE_COOKIES_CHECKED);
    if (!candidates.length) return undefined;
    const user = await this.store.getUser(username);
    if (!user) return undefined;
    for (const parts of candidates) {
      const [, subject, issued, nonce, mac] = parts as unknown as [string, string, string, string, string];
      const expected = Buffer.from(this.deviceMac(`${subject}.${issued}.${nonce}`, user.passwordHash));
      if (!timingSafeEqual(Buffer.from(mac), expected)) continue;
      const age = now - parseInt(issued, 36);
      if (!(age >= -60_000 && age < DEVICE_COOKIE_TTL_MS)) continue; // a minute of clock skew between replicas
      if (Buffer.from(subject, 'base64url').toString() === username) return nonce;
    }
    return undefined;
  }

  private codeHash(code: string): string {
    return createHmac('sha256', this.codeKey).update(code).digest('hex');
  }

  /**
   * Creates the owner on first start. With a password it is set (or reset) from the environment;
   * without one, a fresh one-time sign-in code is returned for the operator to use once.
   * `credentialsRevoked`: the owner's CLI credentials revoked because the password changed.
   */
  async ensureOwner(password: string | undefined): Promise<{ signinCode: string | null; credentialsRevoked: number }> {
    const existing = await this.store.getUser(OWNER);
    if (password) {
      let credentialsRevoked = 0;
      if (!existing?.passwordHash || !(await verifyPassword(password, existing.passwordHash))) {
        await this.store.putUser({ subject: OWNER, passwordHash: await hashPassword(password), createdAt: existing?.createdAt ?? new Date().toISOString() });
        // A new password is how an owner shuts out whoever knew the old one (or a code): the
        // credentials sign-ins approved go with it, like the device cookies deviceMac retires.
        if (existing) credentialsRevoked = await this.revokeCliCredentials(OWNER);
      }
      // One-time codes printed by earlier starts (in CI logs, a journal) stop working once a password takes over.
      await this.store.revokeSigninCodes(OWNER, new Date().toISOString());
      return { signinCode: null, credentialsRevoked };
    }
    if (!existing) await this.store.putUser({ subject: OWNER, passwordHash: null, createdAt: new Date().toISOString() });
    if (existing?.passwordHash) return { signinCode: null, credentialsRevoked: 0 };
    // The code printed now replaces those earlier starts printed (in consoles, CI logs, journals).
    await this.store.revokeSigninCodes(OWNER, new Date().toISOString());
    return { signinCode: await this.issueSigninCode(OWNER), credentialsRevoked: 0 };
  }

  /** Revokes every live CLI credential of `subject`; returns how many. */
  private async revokeCliCredentials(subject: string): Promise<number> {
    const at = new Date().toISOString();
    const live = (await this.store.listTokens('cli', subject)).filter((t) => !t.revokedAt);
    const revoked = await Promise.all(live.map((t) => this.store.revokeToken(t.id, at, ['cli'])));
    return revoked.filter(Boolean).length;
  }

  async issueSigninCode(subject: string): Promise<string> {
    const code = humanCode();
    const now = Date.now();
    await this.store.insertSigninCode({
      hash: this.codeHash(code),
      subject,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + SIGNIN_CODE_TTL_MS).toISOString(),
      usedAt: null,
    });
    return code;
  }

  /** The subject when `secret` is the user's password or an unused one-time sign-in code of theirs. */
  async authenticate(username: string, secret: string): Promise<string | null> {
    const user = await this.store.getUser(username);
    if (!user || !secret) return null;
    if (user.passwordHash && (await verifyPassword(secret, user.passwordHash))) return user.subject;
    const code = secret.trim().toUpperCase();
    if (/^[A-Z0-9]{4}-[A-Z0-9]{4}$/.test(code)) {
      const used = await this.store.useSigninCode(this.codeHash(code), new Date().toISOString());
      if (used && used.subject === user.subject) return user.subject;
    }
    return null;
  }
}
