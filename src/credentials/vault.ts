// Secrets at rest: AES-256-GCM with a fresh 96-bit nonce per record and the bucket+service bound
// as additional authenticated data, so a ciphertext moved to another row fails to decrypt.
//
// Each secret is also bound to the origin (scheme://host:port) its service was reached at when it
// was set, sealed with the value so it cannot be edited in the database. Whoever may repoint a
// service's base URL cannot read secrets, so without the binding they could have them sent to a
// server of their choosing; sending a secret somewhere new takes setting it again.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { EngineError } from '../envelope/index.ts';
import type { SealedValue, SecretRow, Store } from '../store/index.ts';
import { MasterKeyError } from './master-key.ts';
import { open, seal } from './sealing.ts';

export const DEFAULT_BUCKET = 'default';

/** v1: the value alone, sealed before origins were bound; v2: `origin NUL value`. */
const aadV1 = (bucket: string, service: string) => `svc-engine/secret/v1\0${bucket}\0${service}`;
const aadV2 = (bucket: string, service: string) => `svc-engine/secret/v2\0${bucket}\0${service}`;

/** A secret as opened: its value and the origin it may be sent to (null: sealed before binding). */
export interface BoundSecret {
  value: string;
  origin: string | null;
}

/** The last row opened for one bucket+service, with what it holds. */
interface Opened {
  nonce: string;
  tag: string;
  ciphertext: string;
  secret: BoundSecret;
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

/**
 * The refusal when a credential's service is now reached somewhere other than where the credential
 * was set for (`what` names it; `again` is the command that sets it anew).
 */
export function originMoved(what: string, boundTo: string | null, now: string, again: string): EngineError {
  const was = boundTo === null ? 'at an address the Engine did not record' : `while the service was reached at ${boundTo}`;
  return new EngineError(
    'ENGINE_CREDENTIAL_MISSING',
    `${what} was set ${was}; the workspace now sends calls to ${now}, and a credential goes only where it was set for. Set it again to send it there: \`${again}\``,
  );
}

/** The marker holding a value sealed under the master key, to tell a wrong key at start. */
const KEY_CHECK = 'master-key-check';

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
  /**
   * What a row object held, for a store that hands out the same frozen row while it is unchanged
   * (SQLite's hot rows): no key string built or ciphertext compared per call. A changed row is a
   * new object, and takes the path above.
   */
  private readonly openedRows = new WeakMap<SecretRow, { bucket: string; service: string; secret: BoundSecret }>();

  constructor(key: Buffer, store: Store) {
    this.key = createSecretKey(key);
    this.store = store;
  }

  /** Stores `value`, to be sent only to `origin` (a URL's `scheme://host[:port]`; '' sends it nowhere). */
  async set(bucket: string, service: string, value: string, origin: string): Promise<void> {
    await this.store.putSecret({ bucket, service, ...this.sealBound(bucket, service, value, origin) });
  }

  /** `value` sealed with the origin it may be sent to, as a secret row holds it. */
  private sealBound(bucket: string, service: string, value: string, origin: string) {
    if (origin.includes('\0')) throw new TypeError('an origin holds no NUL');
    return { ...seal(this.key, aadV2(bucket, service), `${origin}\0${value}`), updatedAt: new Date().toISOString() };
  }

  /** Deletes the secret; false when none was set. Calls need it from the next request on. */
  async delete(bucket: string, service: string): Promise<boolean> {
    this.opened.delete(`${bucket}\0${service}`);
    return this.store.deleteSecret(bucket, service);
  }

  /** The secret and its origin, or null when none is set. Throws when the record was tampered with. */
  async get(bucket: string, service: string): Promise<BoundSecret | null> {
    return this.secretOf(bucket, service, await this.store.getSecret(bucket, service));
  }

  /** `get` answered at once, when the store reads without I/O; undefined when it cannot. */
  getSync(bucket: string, service: string): BoundSecret | null | undefined {
    const reads = this.store.sync;
    return reads ? this.secretOf(bucket, service, reads.secret(bucket, service)) : undefined;
  }

  /**
   * Binds secrets sealed before origins were (v1 rows) to the origin `originOf` names for their
   * service, which is where they were being sent; one it cannot name ('' or null) is bound to none
   * and refused until set again. Run once, at the first start that binds origins; returns how many.
   *
   * Each row is replaced only while it still holds the v1 value read (compare-and-set): a `secret
   * set` or another replica's bind in between is kept, never overwritten with the old value. A row
   * that changed is read again, and bound only if it is still a v1 seal (one an older replica wrote).
   */
  async bindUnbound(originOf: (service: string) => Promise<string | null>): Promise<number> {
    let bound = 0;
    for (const { bucket, service } of await this.store.listSecrets()) {
      for (;;) {
        const row = await this.store.getSecret(bucket, service);
        const secret = row && this.openV1(bucket, service, row);
        if (secret === null) break; // gone, bound already, or tampered (which stays refused)
        if (await this.store.replaceSecret(row!, this.sealBound(bucket, service, secret, (await originOf(service)) ?? ''))) {
          bound++;
          break;
        }
      }
    }
    return bound;
  }

  /** A v1 row's value, or null when the row is not a v1 seal. */
  private openV1(bucket: string, service: string, row: SecretRow): string | null {
    try {
      return open(this.key, aadV1(bucket, service), row);
    } catch {
      return null;
    }
  }

  /** What the row holds, opened once per sealed value. */
  private secretOf(bucket: string, service: string, row: SecretRow | null): BoundSecret | null {
    if (row) {
      const known = this.openedRows.get(row);
      if (known && known.bucket === bucket && known.service === service) return known.secret;
    }
    const id = `${bucket}\0${service}`;
    if (!row) {
      this.opened.delete(id); // deleted, maybe by another replica: its plaintext is not kept either
      return null;
    }
    const hit = this.opened.get(id);
    let secret: BoundSecret;
    if (hit && hit.nonce === row.nonce && hit.tag === row.tag && hit.ciphertext === row.ciphertext) secret = hit.secret;
    else secret = this.openRow(bucket, service, row, id);
    if (Object.isFrozen(row)) this.openedRows.set(row, { bucket, service, secret });
    return secret;
  }

  private openRow(bucket: string, service: string, row: SecretRow, id: string): BoundSecret {
    let secret: BoundSecret;
    try {
      const plaintext = open(this.key, aadV2(bucket, service), row);
      const cut = plaintext.indexOf('\0');
      secret = Object.freeze({ origin: plaintext.slice(0, cut) || null, value: plaintext.slice(cut + 1) });
    } catch (err) {
      // Not a v2 seal: a v1 row opens with no origin; anything else rethrows v2's failure.
      const v1 = this.openV1(bucket, service, row);
      if (v1 === null) throw err;
      secret = Object.freeze({ origin: null, value: v1 });
    }
    this.opened.set(id, { nonce: row.nonce, tag: row.tag, ciphertext: row.ciphertext, secret });
    return secret;
  }

  /** Seals any value under this vault's key (OAuth tokens, PKCE verifiers). */
  seal(context: string, plaintext: string): SealedValue {
    return seal(this.key, `svc-engine/${context}`, plaintext);
  }

  open(context: string, sealed: SealedValue): string {
    return open(this.key, `svc-engine/${context}`, sealed);
  }

  /**
   * Refuses to start with a key other than the one the store's data was sealed with: every secret
   * and connection would fail to open on every call, as an Engine fault. The first start keeps a
   * check value; a store from before it was kept is checked against one of its secrets.
   */
  async verifyKey(): Promise<void> {
    const wrongKey = () =>
      new MasterKeyError('the master key (SVC_MASTER_KEY, or master.key in SVC_DATA_DIR) is not the one this data was sealed with; start with the key it was sealed with');
    const check = await this.store.getMarker(KEY_CHECK);
    if (check !== null) {
      try {
        this.open(KEY_CHECK, JSON.parse(check) as SealedValue);
        return;
      } catch {
        throw wrongKey();
      }
    }
    const first = (await this.store.listSecrets())[0];
    if (first) await this.get(first.bucket, first.service).catch(() => Promise.reject(wrongKey()));
    await this.store.setMarker(KEY_CHECK, JSON.stringify(this.seal(KEY_CHECK, 'svc-engine master key check')));
    // Replicas started together (each with a key of its own, SVC_MASTER_KEY forgotten) race to write
    // the check, and a lost write changes nothing: the check that landed decides.
    const landed = await this.store.getMarker(KEY_CHECK);
    try {
      this.open(KEY_CHECK, JSON.parse(landed ?? 'null') as SealedValue);
    } catch {
      throw wrongKey();
    }
  }

  /** Every secret's bucket, service, update time and bound origin (never its value). */
  async list(): Promise<{ bucket: string; service: string; origin: string | null; updatedAt: string }[]> {
    const rows = await this.store.listSecrets();
    return Promise.all(
      rows.map(async (r) => ({ ...r, origin: (await this.get(r.bucket, r.service).catch(() => null))?.origin ?? null })),
    );
  }
}
