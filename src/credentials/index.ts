// Secrets at rest: AES-256-GCM with a fresh 96-bit nonce per record and the bucket+service bound
// as additional authenticated data, so a ciphertext moved to another row fails to decrypt.
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import type { SealedValue, SecretRow, Store } from '../store/index.ts';

export const DEFAULT_BUCKET = 'default';

export class MasterKeyError extends Error {
  override name = 'MasterKeyError';
}

/** SVC_MASTER_KEY (64 hex chars or base64 of 32 bytes), else a key generated once into the data dir (mode 0600). */
export function loadMasterKey(dataDir: string, fromEnv: string | undefined): Buffer {
  if (fromEnv) {
    const key = /^[0-9a-fA-F]{64}$/.test(fromEnv) ? Buffer.from(fromEnv, 'hex') : Buffer.from(fromEnv, 'base64');
    if (key.length !== 32) throw new MasterKeyError('SVC_MASTER_KEY must be 32 bytes, as 64 hex characters or base64');
    return key;
  }
  const file = join(dataDir, 'master.key');
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new MasterKeyError(`${file} does not hold a 32-byte base64 key`);
    return key;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

const aad = (bucket: string, service: string) => Buffer.from(`svc-engine/secret/v1\0${bucket}\0${service}`);

/** AES-256-GCM with a fresh nonce; `context` is bound as AAD so a value only opens where it was sealed. */
export function seal(key: Buffer | KeyObject, context: string, plaintext: string): SealedValue {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { ciphertext: ciphertext.toString('base64'), nonce: nonce.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
}

export function open(key: Buffer | KeyObject, context: string, sealed: SealedValue): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.nonce, 'base64'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
}

/** The last row opened for one bucket+service, with its plaintext. */
interface Opened {
  nonce: string;
  tag: string;
  ciphertext: string;
  plaintext: string;
}

/**
 * Why a credential value cannot be used as given, or undefined. A value goes into an HTTP header,
 * a query string or a form body as it is: a control character or line break could not be sent
 * (or would split the header), surrounding whitespace is almost always a newline kept from a file,
 * and a lone surrogate has no UTF-8 form. Refused when set, not found out on every later call.
 */
export function credentialValueProblem(value: string): string | undefined {
  if (!value.isWellFormed()) return 'holds a lone UTF-16 surrogate, which has no UTF-8 form';
  if (value.trim() === '') return 'is empty or only whitespace';
  if (value.trim() !== value) return 'starts or ends with whitespace (a line break kept from a file?)';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return 'holds a control character or line break, which cannot be sent in a request';
  return undefined;
}

export class SecretVault {
  /** A KeyObject made once: a raw Buffer key is re-imported by every cipher (~10 µs each). */
  private readonly key: KeyObject;
  private readonly store: Store;
  /**
   * Plaintext of the row last read per bucket+service. The row is still read on every get, and the
   * cache is used only when its nonce, tag and ciphertext are all unchanged, so a `secret set` by any
   * replica takes effect on the next call and a tampered row still fails to open.
   */
  private readonly opened = new Map<string, Opened>();

  constructor(key: Buffer, store: Store) {
    this.key = createSecretKey(key);
    this.store = store;
  }

  async set(bucket: string, service: string, value: string): Promise<void> {
    const sealed = seal(this.key, aad(bucket, service).toString(), value);
    await this.store.putSecret({ bucket, service, ...sealed, updatedAt: new Date().toISOString() });
  }

  /** The plaintext secret, or null when none is set. Throws when the record was tampered with. */
  async get(bucket: string, service: string): Promise<string | null> {
    return this.plaintextOf(bucket, service, await this.store.getSecret(bucket, service));
  }

  /** `get` answered at once, when the store reads without I/O; undefined when it cannot. */
  getSync(bucket: string, service: string): string | null | undefined {
    const reads = this.store.sync;
    return reads ? this.plaintextOf(bucket, service, reads.secret(bucket, service)) : undefined;
  }

  /** The row's plaintext, opened once per sealed value. */
  private plaintextOf(bucket: string, service: string, row: SecretRow | null): string | null {
    if (!row) return null;
    const id = `${bucket}\0${service}`;
    const hit = this.opened.get(id);
    if (hit && hit.nonce === row.nonce && hit.tag === row.tag && hit.ciphertext === row.ciphertext) return hit.plaintext;
    const plaintext = open(this.key, aad(bucket, service).toString(), row);
    this.opened.set(id, { nonce: row.nonce, tag: row.tag, ciphertext: row.ciphertext, plaintext });
    return plaintext;
  }

  /** Seals any value under this vault's key (OAuth tokens, PKCE verifiers). */
  seal(context: string, plaintext: string): SealedValue {
    return seal(this.key, `svc-engine/${context}`, plaintext);
  }

  open(context: string, sealed: SealedValue): string {
    return open(this.key, `svc-engine/${context}`, sealed);
  }

  async list() {
    return this.store.listSecrets();
  }
}
