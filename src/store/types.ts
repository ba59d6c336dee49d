// The durable state of one workspace. SQLite is the embedded default; a PostgreSQL store
// implements the same interface and passes the same contract suite (test/store/store.contract.ts).
import type { ApprovalStore } from './approval-types.ts';
import type { GrantStore } from './grant-types.ts';

export interface WorkspaceServiceRow {
  service: string;
  version: string;
  /** Per-workspace base URL override, or null to use the catalog's. */
  baseUrl: string | null;
  enabledAt: string;
}

export interface ImportedServiceRow {
  service: string;
  version: string;
  /** The normalised ServiceIndex as JSON. */
  index: string;
  importedAt: string;
}

export interface SecretRow {
  bucket: string;
  service: string;
  /** AES-256-GCM ciphertext, nonce and tag (base64). */
  ciphertext: string;
  nonce: string;
  tag: string;
  updatedAt: string;
}

/** SDK apps and MCP servers share one versioning model; each kind has its own namespace. */
export type AppKind = 'sdk' | 'mcp';

export interface AppVersionRow {
  versionId: string;
  name: string;
  version: string;
  /** Sorted `<service>=<version>` pairs. */
  services: string[];
  /** Sorted public operation IDs. */
  operations: string[];
  createdAt: string;
  /** MCP only: the operations whose calls wait for a person's approval (entries as allowlists take them); absent: none. */
  requireApproval?: string[] | undefined;
}

export type TokenKind = 'sdk' | 'mcp' | 'cli';

export interface TokenRow {
  id: string;
  kind: TokenKind;
  /** SDK or MCP app name, or the CLI subject. */
  subject: string;
  hash: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** Allowed public operation IDs (`*` suffix globs); null means everything. */
  allow: string[] | null;
  /** Fixed selectors that override the caller's (end user, auth name, resource). */
  binding: Record<string, string> | null;
  /** Calls only operations that are read-only (src/catalog/safety.ts); absent: false. */
  readOnly?: boolean | undefined;
}

/** Sorts after every receipt ID (`rcp_` and Crockford base32): `id < this` holds for all (the stores' `before` when none is given). */
export const AFTER_EVERY_RECEIPT = 'rcp_~';

export interface ReceiptRow {
  id: string;
  versionId: string;
  operation: string;
  surface: 'rest' | 'grpc' | 'mcp';
  tokenId: string | null;
  startedAt: string;
  providerDurationMs: number;
  pages: number;
  status: number;
  ok: boolean;
  bytes: number;
  sha256: string | null;
  errorCode: string | null;
  /** The provider attempts, present only when a request was sent more than once (src/execution/retry.ts). */
  attempts?: ReceiptAttempt[] | null | undefined;
  /** The W3C trace ID the call ran in, present only while tracing was on (src/telemetry). */
  traceId?: string | null | undefined;
}

/** One provider attempt of a retried call. */
export interface ReceiptAttempt {
  /** The provider's HTTP status, when it answered. */
  status?: number;
  /** The Engine's code for an attempt that got no answer (PROVIDER_UNREACHABLE, PROVIDER_TIMEOUT, ENGINE_OUTCOME_UNKNOWN). */
  error?: string;
  /** Time spent on this attempt, in milliseconds. */
  durationMs: number;
  /** Time waited before this attempt (0 for the first), in milliseconds. */
  waitMs: number;
  /** The page this attempt read, for a paged call. */
  page?: number;
}

export interface UserRow {
  subject: string;
  /** scrypt hash (`scrypt$N$r$p$salt$hash`), or null until a password is set. */
  passwordHash: string | null;
  createdAt: string;
}

export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'redeemed';

export interface DeviceCodeRow {
  /** SHA-256 of the device code (the CLI's secret). */
  hash: string;
  userCode: string;
  clientId: string;
  status: DeviceCodeStatus;
  subject: string | null;
  createdAt: string;
  expiresAt: string;
  lastPolledAt: string | null;
  /** The address and User-Agent that started it, shown on the approval page (null: not recorded). */
  requestedFrom: string | null;
  requestedAgent: string | null;
  /** How long the CLI credential it yields lives, in seconds (null: the Engine's default). */
  credentialTtlSeconds: number | null;
}

export interface SigninCodeRow {
  hash: string;
  subject: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface SealedValue {
  ciphertext: string;
  nonce: string;
  tag: string;
}

export interface ConnectionRow {
  id: string;
  service: string;
  endUserRef: string;
  authName: string;
  /** The encrypted token set (access token, refresh token). */
  tokens: SealedValue;
  status: 'active' | 'needs_reauth';
  accessExpiresAt: string | null;
  /** Increments on every token write; refreshes compare it to detect a concurrent writer. */
  generation: number;
  createdAt: string;
  /** The last write of any kind: a consent, a refresh, or marking it needs_reauth. */
  updatedAt: string;
  /** When the end user last completed consent: written by putConnection only, never by a refresh. */
  consentedAt: string;
}

export interface OAuthStateRow {
  hash: string;
  service: string;
  endUserRef: string;
  authName: string;
  /** PKCE verifier, sealed. */
  verifier: SealedValue;
  createdAt: string;
  expiresAt: string;
}

export interface IdempotencyClaim {
  /** Namespace of the key: the SDK or MCP version that received the call. */
  scope: string;
  key: string;
  /** SHA-256 of the canonical request; the same key with another request is refused. */
  requestHash: string;
  createdAt: string;
  /** Keys older than this are forgotten and may be claimed again. */
  ttlMs: number;
}

/** `createdAt`: when the call holding the key started. */
export type IdempotencyState = { state: 'claimed' } | { state: 'pending' | 'done'; requestHash: string; result: string | null; createdAt: string };

/**
 * The reads on every call, answered at once by a store that needs no I/O for them (SQLite: an
 * in-process file behind a hot cache). Each returns exactly what its async read would resolve to.
 * Taking them synchronously spares the call path a promise and a microtask turn per lookup (with
 * the other synchronous fast paths, ~3 µs of a REST execution, measured in pairs).
 */
export interface SyncReads {
  tokenByHash(hash: string): TokenRow | null;
  workspaceService(service: string): WorkspaceServiceRow | null;
  secret(bucket: string, service: string): SecretRow | null;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Present when the store answers the per-call reads without I/O; absent for PostgreSQL. */
  readonly sync?: SyncReads | undefined;
  /** OAuth grants of MCP clients (src/oauth). */
  readonly grants: GrantStore<TokenRow>;
  /** Approvals of gated MCP calls (issue 31 §3). */
  readonly approvals: ApprovalStore;
  close(): Promise<void>;
  /** Resolves when the database answers a trivial query; rejects when it cannot (readiness). */
  ping(): Promise<void>;

  listWorkspaceServices(): Promise<WorkspaceServiceRow[]>;
  getWorkspaceService(service: string): Promise<WorkspaceServiceRow | null>;
  putWorkspaceService(row: WorkspaceServiceRow): Promise<void>;
  deleteWorkspaceService(service: string): Promise<boolean>;
  /**
   * Makes the enabled services exactly `services`, in one transaction, while `unchanged` accepts the
   * rows enabled now (read inside it): otherwise false, writing nothing. No other workspace write
   * lands between that read and the writes, on any replica. A row whose version and base URL stay
   * keeps its enabledAt.
   */
  replaceWorkspaceServices(services: WorkspaceServiceRow[], unchanged: (current: WorkspaceServiceRow[]) => boolean): Promise<boolean>;

  /** Stores an imported service version; false (and nothing written) when that version exists: versions never change. */
  insertImportedService(row: ImportedServiceRow): Promise<boolean>;
  /** Imported service versions, only those imported at or after `since` (an ISO time) when given. */
  listImportedServices(since?: string): Promise<ImportedServiceRow[]>;

  putSecret(row: SecretRow): Promise<void>;
  /**
   * Writes `next` over a bucket+service secret only while it still holds exactly the sealed value
   * `read` (compare-and-set); false, writing nothing, when it changed or was deleted meanwhile.
   */
  replaceSecret(read: SecretRow, next: Pick<SecretRow, 'ciphertext' | 'nonce' | 'tag' | 'updatedAt'>): Promise<boolean>;
  getSecret(bucket: string, service: string): Promise<SecretRow | null>;
  listSecrets(): Promise<Pick<SecretRow, 'bucket' | 'service' | 'updatedAt'>[]>;
  /** Deletes one bucket+service secret; false when there was none. */
  deleteSecret(bucket: string, service: string): Promise<boolean>;

  /**
   * Publishes a version atomically, together with the app's first token when given: either both
   * rows become visible or neither does. Fails with StoreConflictError when the label exists, or when
   * `basedOn` is given and the app's newest version is no longer that one (null: none) — another
   * publish got in between and the label was derived from a stale history.
   */
  publishVersion(kind: AppKind, version: AppVersionRow, firstToken: TokenRow | null, basedOn?: string | null): Promise<void>;
  getVersion(kind: AppKind, versionId: string): Promise<AppVersionRow | null>;
  /** Newest first. */
  listVersions(kind: AppKind, name: string): Promise<AppVersionRow[]>;
  /** The newest version of every app of that kind. */
  listLatestVersions(kind: AppKind): Promise<AppVersionRow[]>;

  insertToken(row: TokenRow): Promise<void>;
  getTokenByHash(hash: string): Promise<TokenRow | null>;
  /** Tokens of `kind`, of one subject when given, oldest first. */
  listTokens(kind: TokenKind, subject?: string): Promise<TokenRow[]>;
  /** Revokes a live token (of one of `kinds` when given); false when no such live token. */
  revokeToken(id: string, at: string, kinds?: readonly TokenKind[]): Promise<boolean>;
  touchToken(id: string, at: string): Promise<void>;

  getUser(subject: string): Promise<UserRow | null>;
  putUser(row: UserRow): Promise<void>;
  insertSigninCode(row: SigninCodeRow): Promise<void>;
  /** Marks an unused, unexpired code used; false when it cannot be used. */
  useSigninCode(hash: string, at: string): Promise<SigninCodeRow | null>;
  /**
   * Deletes sign-in codes, device codes, OAuth consent states, and MCP clients' authorization codes
   * and grant tokens that expired before `before`; returns how many.
   */
  deleteExpired(before: string): Promise<number>;
  /** Marks every unused sign-in code of `subject` used at `at`; returns how many. */
  revokeSigninCodes(subject: string, at: string): Promise<number>;

  insertDeviceCode(row: DeviceCodeRow): Promise<void>;
  getDeviceCode(hash: string): Promise<DeviceCodeRow | null>;
  getDeviceCodeByUserCode(userCode: string): Promise<DeviceCodeRow | null>;
  /** Moves a pending code to approved or denied; false when it was not pending. */
  decideDeviceCode(userCode: string, status: 'approved' | 'denied', subject: string | null): Promise<boolean>;
  /** Atomically marks an approved code redeemed and stores the credential it yields. */
  redeemDeviceCode(hash: string, credential: TokenRow): Promise<boolean>;
  /**
   * Records a poll of a device code at `at`; true when the poll before it was at or before
   * `earliest` (or there was none): the check and the write are one step, so two polls at once
   * cannot both be on time (RFC 8628 slow_down).
   */
  touchDeviceCode(hash: string, at: string, earliest: string): Promise<boolean>;

  /**
   * Stores a completed consent: a new connection, or new tokens, status and consentedAt for the one
   * the end user already has (its ID and createdAt kept, its generation bumped).
   */
  putConnection(row: ConnectionRow): Promise<void>;
  getConnection(service: string, endUserRef: string, authName: string): Promise<ConnectionRow | null>;
  listConnections(service?: string): Promise<ConnectionRow[]>;
  /** Deletes a connection by ID, returning what it was (null: none). A refresh in flight then writes nothing (its ID is gone). */
  deleteConnection(id: string): Promise<ConnectionRow | null>;
  /** Writes new tokens only when the stored generation still equals `expectedGeneration`; consentedAt stays. */
  updateConnectionTokens(id: string, expectedGeneration: number, next: Pick<ConnectionRow, 'tokens' | 'status' | 'accessExpiresAt' | 'updatedAt'>): Promise<boolean>;
  insertOAuthState(row: OAuthStateRow): Promise<void>;
  /** Returns and deletes a state (single use). */
  takeOAuthState(hash: string): Promise<OAuthStateRow | null>;

  /** Claims a key for a new call, or reports the live claim (pending or done) that holds it. Atomic. */
  claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyState>;
  completeIdempotencyKey(scope: string, key: string, result: string): Promise<void>;
  /** Drops a pending claim whose call failed before producing a result. */
  releaseIdempotencyKey(scope: string, key: string): Promise<void>;

  /** A one-time job's record (its value), or null when it has not run. */
  getMarker(name: string): Promise<string | null>;
  /** Records a one-time job; the first value written stays. */
  setMarker(name: string, value: string): Promise<void>;

  insertReceipts(rows: ReceiptRow[]): Promise<void>;
  /** Newest first. */
  /** A version's receipts, newest first; with `before`, only those with a smaller (older) ID. */
  listReceipts(versionId: string, limit: number, before?: string): Promise<ReceiptRow[]>;
  /**
   * The receipts of one trace among the `scan` newest of a version older than `before`, newest
   * first, at most `limit`. `scannedTo`: the oldest receipt of a full window (a search goes on
   * before it), null when the window reached the version's oldest receipt. Bounded, not indexed:
   * an index of trace IDs, random keys, cost each receipt write more than these searches cost.
   */
  listTraceReceipts(versionId: string, traceId: string, limit: number, scan: number, before?: string): Promise<{ rows: ReceiptRow[]; scannedTo: string | null }>;
  /**
   * Deletes at most `limit` receipts whose ID sorts below `beforeId` (receipt IDs are ULIDs, so
   * below means older), oldest first within a version; returns how many it deleted.
   */
  pruneReceipts(beforeId: string, limit: number): Promise<number>;
}

export class StoreConflictError extends Error {
  override name = 'StoreConflictError';
}
