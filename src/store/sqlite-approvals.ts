// Approvals in the SQLite store (./approval-types.ts); the table is made by a migration in ./sqlite-schema.ts.
import type Database from 'better-sqlite3';
import type { ApprovalCall, ApprovalRow, ApprovalStore } from './approval-types.ts';
import type { Row } from './sqlite-rows.ts';
import { APPROVAL_COLUMNS, approvalValues, callValues, sameCall } from './approval-columns.ts';
import { insertSql } from './grant-columns.ts';

const approvalFrom = (r: Row): ApprovalRow => ({
  id: r.id,
  versionId: r.version_id,
  tokenId: r.token_id,
  operation: r.operation,
  paramsHash: r.params_hash,
  summary: JSON.parse(r.summary),
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  approvedAt: r.approved_at,
  approvedBy: r.approved_by,
  usedAt: r.used_at,
});

const SAME_CALL = sameCall(() => '?');

export class SqliteApprovals implements ApprovalStore {
  private readonly db: Database.Database;
  constructor(db: Database.Database) {
    this.db = db;
  }

  async insert(a: ApprovalRow) {
    this.db.prepare(insertSql('mcp_approvals', APPROVAL_COLUMNS, () => '?')).run(...approvalValues(a));
  }
  async get(id: string) {
    const r = this.db.prepare('SELECT * FROM mcp_approvals WHERE id = ?').get(id) as Row | undefined;
    return r ? approvalFrom(r) : null;
  }
  async live(call: ApprovalCall, at: string) {
    const r = this.db.prepare(`SELECT * FROM mcp_approvals WHERE ${SAME_CALL} ORDER BY id DESC LIMIT 1`).get(...callValues(call, at)) as Row | undefined;
    return r ? approvalFrom(r) : null;
  }
  async waiting(at: string, limit: number) {
    const rows = this.db.prepare('SELECT * FROM mcp_approvals WHERE approved_at IS NULL AND used_at IS NULL AND expires_at > ? ORDER BY id DESC LIMIT ?').all(at, limit) as Row[];
    return rows.map(approvalFrom);
  }
  async approve(id: string, by: string, at: string) {
    const r = this.db
      .prepare('UPDATE mcp_approvals SET approved_at = ?, approved_by = ? WHERE id = ? AND approved_at IS NULL AND used_at IS NULL AND expires_at > ? RETURNING *')
      .get(at, by, id, at) as Row | undefined;
    return r ? approvalFrom(r) : null;
  }
  async release(id: string, usedAt: string) {
    return this.db.prepare('UPDATE mcp_approvals SET used_at = NULL WHERE id = ? AND used_at = ?').run(id, usedAt).changes > 0;
  }
  async use(call: ApprovalCall, at: string) {
    const r = this.db
      .prepare(`UPDATE mcp_approvals SET used_at = ? WHERE id = (SELECT id FROM mcp_approvals WHERE ${SAME_CALL} AND approved_at IS NOT NULL ORDER BY id LIMIT 1) RETURNING *`)
      .get(at, ...callValues(call, at)) as Row | undefined;
    return r ? approvalFrom(r) : null;
  }
}
