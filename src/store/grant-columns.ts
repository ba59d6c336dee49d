// The columns of the grant tables as both stores write them (./sqlite-grants.ts,
// ./postgres-grants.ts): the same names in the same order, JSON values as text.
import type { GrantCodeRow, GrantRow, GrantTokenRow } from './grant-types.ts';

const jsonOrNull = (value: unknown) => (value === null ? null : JSON.stringify(value));

export const CODE_COLUMNS = [
  'hash', 'client_id', 'client_name', 'redirect_uri', 'code_challenge', 'version_id', 'resource', 'server_name',
  'approved_by', 'allow', 'grant_expires_at', 'created_at', 'expires_at', 'used_at', 'grant_id',
] as const;
export const codeValues = (r: GrantCodeRow) => [
  r.hash, r.clientId, r.clientName, r.redirectUri, r.codeChallenge, r.versionId, r.resource, r.serverName,
  r.approvedBy, jsonOrNull(r.allow), r.grantExpiresAt, r.createdAt, r.expiresAt, r.usedAt, r.grantId,
];

export const GRANT_COLUMNS = ['id', 'client_id', 'client_name', 'redirect_uri', 'version_id', 'resource', 'approved_by', 'created_at'] as const;
export const grantValues = (g: GrantRow) => [g.id, g.clientId, g.clientName, g.redirectUri, g.versionId, g.resource, g.approvedBy, g.createdAt];

export const TOKEN_COLUMNS = ['hash', 'grant_id', 'kind', 'created_at', 'expires_at', 'spent_at'] as const;
export const tokenValues = (t: GrantTokenRow) => [t.hash, t.grantId, t.kind, t.createdAt, t.expiresAt, t.spentAt];

/** `INSERT INTO table (columns) VALUES (…)` with `?` (SQLite) or `$n` (PostgreSQL) placeholders. */
export function insertSql(table: string, columns: readonly string[], placeholder: (n: number) => string): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => placeholder(i + 1)).join(', ')})`;
}
