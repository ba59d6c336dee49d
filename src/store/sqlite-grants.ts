// The SQLite store's OAuth grants of MCP clients (./grant-types.ts): its tables are created by a
// migration in ./sqlite-schema.ts; a grant's principal row goes in `tokens`.
import type Database from 'better-sqlite3';
import { CODE_COLUMNS, codeValues, GRANT_COLUMNS, grantValues, insertSql, TOKEN_COLUMNS, tokenValues } from './grant-columns.ts';
import type { GrantClientRow, GrantCodeRow, GrantIssue, GrantRow, GrantStore, GrantTokenRead, GrantTokenRow } from './grant-types.ts';
import { tokenFrom, type Row } from './sqlite-rows.ts';
import type { TokenRow } from './types.ts';


const codeFrom = (r: Row): GrantCodeRow => ({
  hash: r.hash,
  clientId: r.client_id,
  clientName: r.client_name,
  redirectUri: r.redirect_uri,
  codeChallenge: r.code_challenge,
  versionId: r.version_id,
  resource: r.resource,
  serverName: r.server_name,
  approvedBy: r.approved_by,
  allow: r.allow === null ? null : JSON.parse(r.allow),
  grantExpiresAt: r.grant_expires_at,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
  grantId: r.grant_id,
});

const grantFrom = (r: Row, prefix = ''): GrantRow => ({
  id: r[`${prefix}id`],
  clientId: r[`${prefix}client_id`],
  clientName: r[`${prefix}client_name`],
  redirectUri: r[`${prefix}redirect_uri`],
  versionId: r[`${prefix}version_id`],
  resource: r[`${prefix}resource`],
  approvedBy: r[`${prefix}approved_by`],
  createdAt: r[`${prefix}created_at`],
});

const grantTokenFrom = (r: Row, prefix = ''): GrantTokenRow => ({
  hash: r[`${prefix}hash`],
  grantId: r[`${prefix}grant_id`],
  kind: r[`${prefix}kind`],
  createdAt: r[`${prefix}created_at`],
  expiresAt: r[`${prefix}expires_at`],
  spentAt: r[`${prefix}spent_at`],
});

export class SqliteGrants implements GrantStore<TokenRow> {
  private readonly db: Database.Database;
  /** Writes a token row inside the caller's transaction (and empties the store's hot cache). */
  private readonly insertToken: (row: TokenRow) => void;

  constructor(db: Database.Database, insertToken: (row: TokenRow) => void) {
    this.db = db;
    this.insertToken = insertToken;
  }

  async insertClient(row: GrantClientRow) {
    this.db
      .prepare('INSERT INTO grant_clients (client_id, client_name, redirect_uris, created_at) VALUES (?, ?, ?, ?)')
      .run(row.clientId, row.clientName, JSON.stringify(row.redirectUris), row.createdAt);
  }
  async getClient(clientId: string): Promise<GrantClientRow | null> {
    const r = this.db.prepare('SELECT * FROM grant_clients WHERE client_id = ?').get(clientId) as Row | undefined;
    return r ? { clientId: r.client_id, clientName: r.client_name, redirectUris: JSON.parse(r.redirect_uris), createdAt: r.created_at } : null;
  }

  async insertCode(row: GrantCodeRow) {
    this.db.prepare(insertSql('grant_codes', CODE_COLUMNS, () => '?')).run(...codeValues(row));
  }
  async getCode(hash: string) {
    const r = this.db.prepare('SELECT * FROM grant_codes WHERE hash = ?').get(hash) as Row | undefined;
    return r ? codeFrom(r) : null;
  }

  private insertTokens(issue: GrantIssue) {
    const insert = this.db.prepare(insertSql('grant_tokens', TOKEN_COLUMNS, () => '?'));
    for (const t of issue.tokens) insert.run(...tokenValues(t));
  }

  async redeemCode(hash: string, at: string, issue: { principal: TokenRow; grant: GrantRow } & GrantIssue) {
    return this.db.transaction(() => {
      const used = this.db.prepare('UPDATE grant_codes SET used_at = ?, grant_id = ? WHERE hash = ? AND used_at IS NULL').run(at, issue.grant.id, hash).changes;
      if (!used) return false;
      this.insertToken(issue.principal);
      this.db.prepare(insertSql('grants', GRANT_COLUMNS, () => '?')).run(...grantValues(issue.grant));
      this.insertTokens(issue);
      return true;
    }).immediate();
  }

  async readToken(hash: string): Promise<GrantTokenRead<TokenRow> | null> {
    const r = this.db
      .prepare(
        `SELECT gt.hash AS gt_hash, gt.grant_id AS gt_grant_id, gt.kind AS gt_kind, gt.created_at AS gt_created_at,
                gt.expires_at AS gt_expires_at, gt.spent_at AS gt_spent_at,
                g.id AS g_id, g.client_id AS g_client_id, g.client_name AS g_client_name, g.redirect_uri AS g_redirect_uri,
                g.version_id AS g_version_id, g.resource AS g_resource, g.approved_by AS g_approved_by, g.created_at AS g_created_at,
                t.*
         FROM grant_tokens gt JOIN grants g ON g.id = gt.grant_id JOIN tokens t ON t.id = g.id
         WHERE gt.hash = ?`,
      )
      .get(hash) as Row | undefined;
    return r ? { token: grantTokenFrom(r, 'gt_'), grant: grantFrom(r, 'g_'), principal: tokenFrom(r) } : null;
  }

  async rotateRefresh(hash: string, at: string, next: GrantIssue) {
    return this.db.transaction(() => {
      const spent = this.db.prepare(`UPDATE grant_tokens SET spent_at = ? WHERE hash = ? AND kind = 'refresh' AND spent_at IS NULL`).run(at, hash).changes;
      if (!spent) return false;
      this.insertTokens(next);
      return true;
    }).immediate();
  }

  async listGrants(serverName: string) {
    const rows = this.db
      .prepare(`SELECT g.* FROM grants g JOIN tokens t ON t.id = g.id WHERE t.kind = 'mcp' AND t.subject = ? ORDER BY g.created_at, g.id`)
      .all(serverName) as Row[];
    return rows.map((r) => grantFrom(r));
  }
}
