// Approvals in the PostgreSQL store (./approval-types.ts); the table is made by a migration in ./postgres-schema.ts.
import type pg from 'pg';
import type { ApprovalCall, ApprovalRow, ApprovalStore } from './approval-types.ts';
import { camel } from './postgres-rows.ts';
import { APPROVAL_COLUMNS, approvalValues, callValues, sameCall } from './approval-columns.ts';
import { insertSql } from './grant-columns.ts';

const SAME_CALL = sameCall((n) => `$${n}`);

export class PostgresApprovals implements ApprovalStore {
  private readonly pool: pg.Pool;
  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  private async one(sql: string, params: unknown[]): Promise<ApprovalRow | null> {
    const r = (await this.pool.query(sql, params)).rows[0];
    return r ? camel<ApprovalRow>(r) : null;
  }

  async insert(a: ApprovalRow) {
    await this.pool.query(insertSql('mcp_approvals', APPROVAL_COLUMNS, (n) => `$${n}`), approvalValues(a));
  }
  get(id: string) {
    return this.one('SELECT * FROM mcp_approvals WHERE id = $1', [id]);
  }
  live(call: ApprovalCall, at: string) {
    return this.one(`SELECT * FROM mcp_approvals WHERE ${SAME_CALL} ORDER BY id DESC LIMIT 1`, callValues(call, at));
  }
  async waiting(at: string, limit: number) {
    const { rows } = await this.pool.query('SELECT * FROM mcp_approvals WHERE approved_at IS NULL AND used_at IS NULL AND expires_at > $1 ORDER BY id DESC LIMIT $2', [at, limit]);
    return rows.map((r) => camel<ApprovalRow>(r));
  }
  approve(id: string, by: string, at: string) {
    return this.one('UPDATE mcp_approvals SET approved_at = $1, approved_by = $2 WHERE id = $3 AND approved_at IS NULL AND used_at IS NULL AND expires_at > $1 RETURNING *', [at, by, id]);
  }
  async release(id: string, usedAt: string) {
    return ((await this.pool.query('UPDATE mcp_approvals SET used_at = NULL WHERE id = $1 AND used_at = $2', [id, usedAt])).rowCount ?? 0) > 0;
  }
  use(call: ApprovalCall, at: string) {
    // SKIP LOCKED: two re-runs at once on two replicas take at most one approval each, never the same.
    return this.one(
      `UPDATE mcp_approvals SET used_at = $5 WHERE id = (SELECT id FROM mcp_approvals WHERE ${SAME_CALL} AND approved_at IS NOT NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING *`,
      callValues(call, at),
    );
  }
}
