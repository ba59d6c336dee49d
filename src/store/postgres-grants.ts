// The PostgreSQL store's OAuth grants of MCP clients (./grant-types.ts), shared by every replica:
// its tables are created by a migration in ./postgres-schema.ts; a grant's principal
// row goes in `tokens`. Single-use writes (a code, a refresh token) are one conditional UPDATE, so
// of two replicas exchanging the same one, exactly one wins.
import type pg from 'pg';
import { CODE_COLUMNS, codeValues, GRANT_COLUMNS, grantValues, insertSql, TOKEN_COLUMNS, tokenValues } from './grant-columns.ts';
import type { GrantClientRow, GrantCodeRow, GrantIssue, GrantRow, GrantStore, GrantTokenRead, GrantTokenRow } from './grant-types.ts';
import { inTransaction, type Queryable } from './postgres-pool.ts';
import { camel, camelAll, json, tokenRow, type Row } from './postgres-rows.ts';
import type { TokenRow } from './types.ts';


/** A row's columns that start with `prefix`, without it. */
const part = (r: Row, prefix: string): Row => Object.fromEntries(Object.entries(r).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));

export class PostgresGrants implements GrantStore<TokenRow> {
  private readonly pool: pg.Pool;
  /** Writes a token row on the caller's connection (its transaction). */
  private readonly insertToken: (client: Queryable, row: TokenRow) => Promise<void>;

  constructor(pool: pg.Pool, insertToken: (client: Queryable, row: TokenRow) => Promise<void>) {
    this.pool = pool;
    this.insertToken = insertToken;
  }

  async insertClient(row: GrantClientRow) {
    await this.pool.query('INSERT INTO grant_clients (client_id, client_name, redirect_uris, created_at) VALUES ($1, $2, $3::jsonb, $4)', [
      row.clientId,
      row.clientName,
      json(row.redirectUris),
      row.createdAt,
    ]);
  }
  async getClient(clientId: string) {
    const r = (await this.pool.query('SELECT * FROM grant_clients WHERE client_id = $1', [clientId])).rows[0] as Row | undefined;
    return r ? camel<GrantClientRow>(r) : null;
  }

  async insertCode(row: GrantCodeRow) {
    await this.pool.query(insertSql('grant_codes', CODE_COLUMNS, (n) => `$${n}`), codeValues(row));
  }
  async getCode(hash: string) {
    const r = (await this.pool.query('SELECT * FROM grant_codes WHERE hash = $1', [hash])).rows[0] as Row | undefined;
    return r ? camel<GrantCodeRow>(r) : null;
  }

  private async insertTokens(client: Queryable, issue: GrantIssue) {
    for (const t of issue.tokens) await client.query(insertSql('grant_tokens', TOKEN_COLUMNS, (n) => `$${n}`), tokenValues(t));
  }

  async redeemCode(hash: string, at: string, issue: { principal: TokenRow; grant: GrantRow } & GrantIssue) {
    // A concurrent redeem waits on the row lock, then re-checks used_at IS NULL and changes nothing.
    return inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query('UPDATE grant_codes SET used_at = $1, grant_id = $2 WHERE hash = $3 AND used_at IS NULL', [at, issue.grant.id, hash]);
      if (!rowCount) return false;
      await this.insertToken(client, issue.principal);
      await client.query(insertSql('grants', GRANT_COLUMNS, (n) => `$${n}`), grantValues(issue.grant));
      await this.insertTokens(client, issue);
      return true;
    });
  }

  async readToken(hash: string): Promise<GrantTokenRead<TokenRow> | null> {
    const r = (
      await this.pool.query(
        `SELECT gt.hash AS gt_hash, gt.grant_id AS gt_grant_id, gt.kind AS gt_kind, gt.created_at AS gt_created_at,
                gt.expires_at AS gt_expires_at, gt.spent_at AS gt_spent_at,
                g.id AS g_id, g.client_id AS g_client_id, g.client_name AS g_client_name, g.redirect_uri AS g_redirect_uri,
                g.version_id AS g_version_id, g.resource AS g_resource, g.approved_by AS g_approved_by, g.created_at AS g_created_at,
                t.id AS t_id, t.kind AS t_kind, t.subject AS t_subject, t.hash AS t_hash, t.created_at AS t_created_at,
                t.expires_at AS t_expires_at, t.revoked_at AS t_revoked_at, t.last_used_at AS t_last_used_at,
                t.allow AS t_allow, t.binding AS t_binding
         FROM grant_tokens gt JOIN grants g ON g.id = gt.grant_id JOIN tokens t ON t.id = g.id
         WHERE gt.hash = $1`,
        [hash],
      )
    ).rows[0] as Row | undefined;
    if (!r) return null;
    return { token: camel<GrantTokenRow>(part(r, 'gt_')), grant: camel<GrantRow>(part(r, 'g_')), principal: tokenRow<TokenRow>(part(r, 't_')) };
  }

  async rotateRefresh(hash: string, at: string, next: GrantIssue) {
    return inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query(`UPDATE grant_tokens SET spent_at = $1 WHERE hash = $2 AND kind = 'refresh' AND spent_at IS NULL`, [at, hash]);
      if (!rowCount) return false;
      await this.insertTokens(client, next);
      return true;
    });
  }

  async listGrants(serverName: string) {
    const { rows } = await this.pool.query(`SELECT g.* FROM grants g JOIN tokens t ON t.id = g.id WHERE t.kind = 'mcp' AND t.subject = $1 ORDER BY g.created_at, g.id`, [
      serverName,
    ]);
    return camelAll<GrantRow>(rows);
  }
}
