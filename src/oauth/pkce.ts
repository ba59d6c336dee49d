// PKCE (RFC 7636) with S256 only: plain would hand the verifier to whoever sees the authorization request.
import { hash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** BASE64URL(SHA-256(verifier)): 43 characters without padding. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export const isChallenge = (value: string) => CHALLENGE.test(value);
export const isVerifier = (value: string) => VERIFIER.test(value);

/** Whether `verifier` hashes to `challenge` (S256), compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier) || !CHALLENGE.test(challenge)) return false;
  return timingSafeEqual(Buffer.from(hash('sha256', verifier, 'base64url')), Buffer.from(challenge));
}
