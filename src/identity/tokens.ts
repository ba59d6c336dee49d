// Bearer tokens of every kind (SDK and MCP execution tokens, CLI credentials): issued once,
// stored only as SHA-256, verified in constant time against the stored digest.
import { EngineError } from '../envelope/index.ts';
import { hash, timingSafeEqual } from 'node:crypto';
import { hashToken, newToken, newTokenId } from '../ids/index.ts';
import type { Store, TokenKind, TokenRow } from '../store/index.ts';
import { CLI_CREDENTIAL_TTL_S } from './limits.ts';

const TOKEN_SHAPE = /^svc_(sdk|mcp|cli)_[A-Za-z0-9_-]{43}$/;
/** last_used_at is written at most this often per token, to keep writes off the hot path. */
const TOUCH_INTERVAL_MS = 60_000;

export interface IssuedToken {
  token: string;
  row: TokenRow;
}

/** A row's stored SHA-256 as bytes (null when malformed), decoded once per row object: a caching store hands out the same one. */
const digests = new WeakMap<TokenRow, Buffer | null>();
function storedDigest(row: TokenRow): Buffer | null {
  let bytes = digests.get(row);
  if (bytes === undefined) {
    const decoded = Buffer.from(row.hash, 'hex');
    bytes = decoded.length === 32 ? decoded : null;
    digests.set(row, bytes);
  }
  return bytes;
}

const PREFIXES: Readonly<Record<TokenKind, string>> = { sdk: 'svc_sdk_', mcp: 'svc_mcp_', cli: 'svc_cli_' };

/**
 * Well-formed bearers seen lately and their SHA-256 (hex): a client sends the same token on every
 * call, and the digest is a function of the bearer alone, so whether it is still live is read from
 * the store each time as before. At most DIGESTS_KEPT; a flood of new bearers empties it.
 */
const digestsOf = new Map<string, Digest>();
const DIGESTS_KEPT = 1024;

/** A bearer's SHA-256: hex (the store's key) and bytes (for the comparison), both made once. */
interface Digest {
  hex: string;
  bytes: Buffer;
}

/** The bearer's SHA-256, or the 401 for a missing or malformed token. */
function digestOf(bearer: string | undefined, kind: TokenKind): Digest {
  if (!bearer) throw new EngineError('ENGINE_UNAUTHENTICATED', 'missing bearer token: send Authorization: Bearer <token>');
  if (!bearer.startsWith(PREFIXES[kind])) throw new EngineError('ENGINE_UNAUTHENTICATED', `the bearer token is not a valid ${kind} token`);
  let digest = digestsOf.get(bearer);
  if (digest === undefined) {
    if (!TOKEN_SHAPE.test(bearer)) throw new EngineError('ENGINE_UNAUTHENTICATED', `the bearer token is not a valid ${kind} token`);
    const hex = hash('sha256', bearer, 'hex');
    digest = { hex, bytes: Buffer.from(hex, 'hex') };
    if (digestsOf.size >= DIGESTS_KEPT) digestsOf.clear();
    digestsOf.set(bearer, digest);
  }
  return digest;
}

/** Whether the row's digest equals the presented one, compared in constant time. */
function digestMatches(row: TokenRow, digest: Digest): boolean {
  const stored = storedDigest(row);
  return stored !== null && digest.bytes.length === 32 && timingSafeEqual(stored, digest.bytes);
}

export class Tokens {
  private readonly store: Store;
  private readonly lastTouch = new Map<string, number>();

  constructor(store: Store) {
    this.store = store;
  }

  /**
   * Builds a new token and its row; the caller stores the row (alone or inside a larger write).
   * `expiresAt` null: never; left out: never, except a CLI credential, which lives CLI_CREDENTIAL_TTL_S.
   */
  mint(kind: TokenKind, subject: string, options: { expiresAt?: string | null; allow?: string[] | null; binding?: Record<string, string> | null; readOnly?: boolean } = {}): IssuedToken {
    const token = newToken(kind);
    const expiresAt = options.expiresAt !== undefined ? options.expiresAt : kind === 'cli' ? new Date(Date.now() + CLI_CREDENTIAL_TTL_S * 1000).toISOString() : null;
    return {
      token,
      row: {
        id: newTokenId(),
        kind,
        subject,
        hash: hashToken(token),
        createdAt: new Date().toISOString(),
        expiresAt,
        revokedAt: null,
        lastUsedAt: null,
        allow: options.allow ?? null,
        binding: options.binding ?? null,
        ...(options.readOnly ? { readOnly: true } : {}),
      },
    };
  }

  async issue(kind: TokenKind, subject: string, options: Parameters<Tokens['mint']>[2] = {}): Promise<IssuedToken> {
    const issued = this.mint(kind, subject, options);
    await this.store.insertToken(issued.row);
    return issued;
  }

  /**
   * The live token row for a bearer value of the given kind. Every refusal is the same 401 so that
   * a caller learns nothing about which tokens exist.
   */
  async verify(bearer: string | undefined, kind: TokenKind): Promise<TokenRow> {
    const digest = digestOf(bearer, kind);
    const reads = this.store.sync;
    return this.accept(reads ? reads.tokenByHash(digest.hex) : await this.store.getTokenByHash(digest.hex), digest, kind);
  }

  /** `verify` answered at once, when the store reads without I/O (SQLite); undefined when it cannot. */
  verifySync(bearer: string | undefined, kind: TokenKind): TokenRow | undefined {
    const reads = this.store.sync;
    if (!reads) return undefined;
    const digest = digestOf(bearer, kind);
    return this.accept(reads.tokenByHash(digest.hex), digest, kind);
  }

  /** The row if it is a live token of `kind` whose digest is `digest`; otherwise the one 401. */
  private accept(row: TokenRow | null, digest: Digest, kind: TokenKind): TokenRow {
    if (!row || row.kind !== kind || !digestMatches(row, digest)) {
      throw new EngineError('ENGINE_UNAUTHENTICATED', `the bearer token is not a valid ${kind} token`);
    }
    return this.admit(row);
  }

  /**
   * A token row found by other means than its own bearer (an OAuth grant's, found by one of the
   * grant's access tokens: src/oauth), if it is live; its last use is recorded like a bearer's.
   */
  admit(row: TokenRow): TokenRow {
    // A CLI credential's holder is told when and why it stopped working, so svc-cli can say to sign in again.
    const cli = row.kind === 'cli';
    if (row.revokedAt) {
      if (cli) throw new EngineError('ENGINE_UNAUTHENTICATED', `the CLI credential was revoked at ${row.revokedAt}`, { details: { reason: 'revoked', at: row.revokedAt } });
      throw new EngineError('ENGINE_UNAUTHENTICATED', 'the bearer token was revoked');
    }
    if (row.expiresAt && !(Date.parse(row.expiresAt) > Date.now())) { // an unreadable expiry counts as passed
      if (cli) throw new EngineError('ENGINE_UNAUTHENTICATED', `the CLI credential expired at ${row.expiresAt}`, { details: { reason: 'expired', at: row.expiresAt } });
      throw new EngineError('ENGINE_UNAUTHENTICATED', 'the bearer token has expired');
    }
    this.touch(row.id);
    return row;
  }

  private touch(id: string) {
    const now = Date.now();
    if ((this.lastTouch.get(id) ?? 0) + TOUCH_INTERVAL_MS > now) return;
    this.lastTouch.set(id, now);
    void this.store.touchToken(id, new Date(now).toISOString()).catch(() => this.lastTouch.delete(id));
  }

  /** Whether a token accepted earlier is still live (not revoked, not expired), read again from the store. */
  async stillLive(row: TokenRow): Promise<boolean> {
    const now = await this.store.getTokenByHash(row.hash);
    return now !== null && !now.revokedAt && (!now.expiresAt || Date.parse(now.expiresAt) > Date.now());
  }

  /** Revokes a live token, of one of `kinds` when given; false when there is no such token. */
  async revoke(id: string, kinds?: readonly TokenKind[]): Promise<boolean> {
    return this.store.revokeToken(id, new Date().toISOString(), kinds);
  }
}

/** Reads `Authorization: Bearer <token>`; anything else yields undefined. */
export function bearerFrom(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
