// AES-256-GCM sealing with a fresh 96-bit nonce per value and a context bound as additional
// authenticated data, so a ciphertext moved elsewhere fails to open.
import { createCipheriv, createDecipheriv, randomBytes, type KeyObject } from 'node:crypto';
import type { SealedValue } from '../store/index.ts';

/** AES-256-GCM with a fresh nonce; `context` is bound as AAD so a value only opens where it was sealed. */
export function seal(key: Buffer | KeyObject, context: string, plaintext: string): SealedValue {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { ciphertext: ciphertext.toString('base64'), nonce: nonce.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
}

export function open(key: Buffer | KeyObject, context: string, sealed: SealedValue): string {
  const nonce = Buffer.from(sealed.nonce, 'base64');
  const tag = Buffer.from(sealed.tag, 'base64');
  // GCM accepts a tag cut short (down to 4 bytes): a shortened tag would weaken the seal to a guess.
  if (nonce.length !== 12 || tag.length !== 16) throw new Error('the sealed value is malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: 16 });
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
}
