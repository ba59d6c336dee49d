// The master key every secret is sealed under: SVC_MASTER_KEY, else a key generated once into the
// data dir; and keys for other purposes derived from it.
import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class MasterKeyError extends Error {
  override name = 'MasterKeyError';
}

/**
 * 32 bytes from 64 hex characters or strict base64 (or base64url) — Buffer.from(…, 'base64') skips
 * characters outside the alphabet, and would take a passphrase as a key.
 */
function keyFrom(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (!/^[A-Za-z0-9+/]{43}=?$|^[A-Za-z0-9_-]{43}=?$/.test(text)) return undefined;
  const key = Buffer.from(text, 'base64');
  return key.length === 32 ? key : undefined;
}

/** SVC_MASTER_KEY (64 hex chars or base64 of 32 bytes), else a key generated once into the data dir (mode 0600). */
export function loadMasterKey(dataDir: string, fromEnv: string | undefined): Buffer {
  if (fromEnv) {
    const key = keyFrom(fromEnv);
    if (!key) throw new MasterKeyError('SVC_MASTER_KEY must be 32 bytes, as 64 hex characters or base64 (e.g. `openssl rand -hex 32`)');
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
  // On disk before anything is sealed with it: a crash must not leave secrets sealed under a key that was lost.
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, key.toString('base64') + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(file, 0o600);
  const dir = openSync(dataDir, 'r');
  try {
    fsyncSync(dir); // the file's directory entry too
  } finally {
    closeSync(dir);
  }
  return key;
}

/** A key for one other purpose (HKDF-SHA-256 of the master key), so no two uses share key material. */
export const purposeKey = (masterKey: Buffer, purpose: string): Buffer => Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `svc-engine ${purpose}`, 32));
