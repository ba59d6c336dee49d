// The durable state of one workspace. SQLite is the embedded default; a PostgreSQL store
// implements the same interface and passes the same contract suite (test/store.contract.ts).

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

export interface SdkVersionRow {
  versionId: string;
  name: string;
  version: string;
  /** Sorted `<service>=<version>` pairs. */
  services: string[];
  /** Sorted public operation IDs. */
  operations: string[];
  createdAt: string;
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
}

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
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  close(): Promise<void>;

  listWorkspaceServices(): Promise<WorkspaceServiceRow[]>;
  getWorkspaceService(service: string): Promise<WorkspaceServiceRow | null>;
  putWorkspaceService(row: WorkspaceServiceRow): Promise<void>;
  deleteWorkspaceService(service: string): Promise<boolean>;

  putImportedService(row: ImportedServiceRow): Promise<void>;
  listImportedServices(): Promise<ImportedServiceRow[]>;

  putSecret(row: SecretRow): Promise<void>;
  getSecret(bucket: string, service: string): Promise<SecretRow | null>;
  listSecrets(): Promise<Pick<SecretRow, 'bucket' | 'service' | 'updatedAt'>[]>;

  /**
   * Publishes a version atomically, together with the app's first token when given: either both
   * rows become visible or neither does. Fails with StoreConflictError when the label exists.
   */
  publishSdkVersion(version: SdkVersionRow, firstToken: TokenRow | null): Promise<void>;
  getSdkVersion(versionId: string): Promise<SdkVersionRow | null>;
  /** Newest first. */
  listSdkVersions(name: string): Promise<SdkVersionRow[]>;
  /** The newest version of every app. */
  listLatestSdkVersions(): Promise<SdkVersionRow[]>;

  insertToken(row: TokenRow): Promise<void>;
  getTokenByHash(hash: string): Promise<TokenRow | null>;
  listTokens(kind: TokenKind, subject: string): Promise<TokenRow[]>;
  revokeToken(id: string, at: string): Promise<boolean>;
  touchToken(id: string, at: string): Promise<void>;

  insertReceipts(rows: ReceiptRow[]): Promise<void>;
  /** Newest first. */
  listReceipts(versionId: string, limit: number): Promise<ReceiptRow[]>;
}

export class StoreConflictError extends Error {
  override name = 'StoreConflictError';
}
