// What the Engine keeps of the OAuth grants MCP clients obtain from it (src/oauth): clients
// registered dynamically, authorization codes, grants and their access and refresh tokens. Every
// secret is kept only as its SHA-256. A grant's principal is an ordinary `tokens` row (kind mcp, ID
// `tok_…`), so it is listed, checked and revoked like a static MCP token: `Principal` is that row's
// type (TokenRow, ./types.ts, which imports this file).

/** A client registered with Dynamic Client Registration (RFC 7591); URL client IDs (metadata documents) are fetched, not stored. */
export interface GrantClientRow {
  clientId: string;
  clientName: string | null;
  redirectUris: string[];
  createdAt: string;
}

/** An authorization code: what the person approved, waiting to be exchanged once. */
export interface GrantCodeRow {
  /** SHA-256 of the code. */
  hash: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  /** The PKCE S256 challenge the exchange's verifier must match. */
  codeChallenge: string;
  /** The MCP server version the grant is for (its resource, RFC 8707). */
  versionId: string;
  resource: string;
  /** The MCP server's name: the subject of the grant's token row. */
  serverName: string;
  /** Who approved. */
  approvedBy: string;
  /** The operations approved; null: every operation of the version. */
  allow: string[] | null;
  /** When the grant ends (the person's choice). */
  grantExpiresAt: string | null;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  /** The grant its exchange made (revoked if the code is presented again). */
  grantId: string | null;
}

/** A grant: one client's access to one MCP server version, approved by a person. Its ID is its token row's. */
export interface GrantRow {
  id: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  versionId: string;
  resource: string;
  approvedBy: string;
  createdAt: string;
}

export type GrantTokenKind = 'access' | 'refresh';

/** An access or refresh token of a grant. */
export interface GrantTokenRow {
  hash: string;
  grantId: string;
  kind: GrantTokenKind;
  createdAt: string;
  expiresAt: string;
  /** A refresh token once exchanged (rotation): presenting it again revokes the grant. */
  spentAt: string | null;
}

/** A grant token with its grant and the grant's token row, read together. */
export interface GrantTokenRead<Principal> {
  token: GrantTokenRow;
  grant: GrantRow;
  principal: Principal;
}

/** What exchanging a code or a refresh token writes. */
export interface GrantIssue {
  tokens: GrantTokenRow[];
}

export interface GrantStore<Principal> {
  insertClient(row: GrantClientRow): Promise<void>;
  getClient(clientId: string): Promise<GrantClientRow | null>;

  insertCode(row: GrantCodeRow): Promise<void>;
  getCode(hash: string): Promise<GrantCodeRow | null>;
  /**
   * Marks an unused code used and, in the same transaction, writes the grant it yields: its token
   * row, the grant and its first tokens. False, writing nothing, when the code was used already.
   */
  redeemCode(hash: string, at: string, grant: { principal: Principal; grant: GrantRow } & GrantIssue): Promise<boolean>;

  /** A token by its hash, with its grant and the grant's token row; null when unknown. */
  readToken(hash: string): Promise<GrantTokenRead<Principal> | null>;
  /**
   * Spends an unspent refresh token and writes the tokens that replace it, in one transaction.
   * False, writing nothing, when it was spent already (by a concurrent exchange too).
   */
  rotateRefresh(hash: string, at: string, next: GrantIssue): Promise<boolean>;

  /** The grants whose token row names this MCP server, oldest first. */
  listGrants(serverName: string): Promise<GrantRow[]>;
}
