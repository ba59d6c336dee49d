// The PostgreSQL store's schema. Versioned migrations run on open, in one transaction holding a
// transaction-scoped advisory lock on MIGRATION_LOCK_KEY: replicas starting together queue on the
// lock, and each one re-reads schema_migrations after acquiring it, so every migration is applied
// exactly once. The lock ends with the transaction (or the connection, if the process dies), never
// outliving a crash.
import type { Queryable } from './postgres-pool.ts';
import type { AppKind } from './types.ts';

/** The advisory-lock key every replica takes while migrating ('svcmigr' as bytes). */
export const MIGRATION_LOCK_KEY = 0x7376636d696772n;


/**
 * Append-only: never edit a shipped migration, add the next one. Numbered independently of the
 * SQLite migrations (version 1 here is the schema SQLite reaches after its own migrations 1 and 2).
 */
export const MIGRATIONS: string[] = [
  `CREATE TABLE workspace_services (
     service TEXT COLLATE "C" PRIMARY KEY, version TEXT COLLATE "C" NOT NULL, base_url TEXT, enabled_at TEXT COLLATE "C" NOT NULL);
   CREATE TABLE imported_services (
     service TEXT COLLATE "C" NOT NULL, version TEXT COLLATE "C" NOT NULL, index_json TEXT NOT NULL,
     imported_at TEXT COLLATE "C" NOT NULL, PRIMARY KEY (service, version));
   CREATE TABLE secrets (
     bucket TEXT COLLATE "C" NOT NULL, service TEXT COLLATE "C" NOT NULL, ciphertext TEXT NOT NULL, nonce TEXT NOT NULL,
     tag TEXT NOT NULL, updated_at TEXT COLLATE "C" NOT NULL, PRIMARY KEY (bucket, service));
   CREATE TABLE sdk_versions (
     version_id TEXT COLLATE "C" PRIMARY KEY, name TEXT COLLATE "C" NOT NULL, version TEXT COLLATE "C" NOT NULL,
     services JSONB NOT NULL, operations JSONB NOT NULL, created_at TEXT COLLATE "C" NOT NULL, seq INTEGER NOT NULL,
     CONSTRAINT sdk_versions_label UNIQUE (name, version), CONSTRAINT sdk_versions_seq UNIQUE (name, seq));
   CREATE TABLE mcp_versions (
     version_id TEXT COLLATE "C" PRIMARY KEY, name TEXT COLLATE "C" NOT NULL, version TEXT COLLATE "C" NOT NULL,
     services JSONB NOT NULL, operations JSONB NOT NULL, created_at TEXT COLLATE "C" NOT NULL, seq INTEGER NOT NULL,
     CONSTRAINT mcp_versions_label UNIQUE (name, version), CONSTRAINT mcp_versions_seq UNIQUE (name, seq));
   CREATE TABLE tokens (
     id TEXT COLLATE "C" PRIMARY KEY, kind TEXT COLLATE "C" NOT NULL, subject TEXT COLLATE "C" NOT NULL,
     hash TEXT COLLATE "C" NOT NULL UNIQUE, created_at TEXT COLLATE "C" NOT NULL, expires_at TEXT COLLATE "C",
     revoked_at TEXT COLLATE "C", last_used_at TEXT COLLATE "C", allow JSONB, binding JSONB);
   CREATE INDEX tokens_subject ON tokens (kind, subject);
   CREATE TABLE receipts (
     id TEXT COLLATE "C" PRIMARY KEY, version_id TEXT COLLATE "C" NOT NULL, operation TEXT COLLATE "C" NOT NULL,
     surface TEXT COLLATE "C" NOT NULL, token_id TEXT COLLATE "C", started_at TEXT COLLATE "C" NOT NULL,
     provider_duration_ms DOUBLE PRECISION NOT NULL, pages INTEGER NOT NULL, status INTEGER NOT NULL, ok BOOLEAN NOT NULL,
     bytes BIGINT NOT NULL, sha256 TEXT, error_code TEXT);
   CREATE INDEX receipts_version ON receipts (version_id, id);
   CREATE TABLE users (subject TEXT COLLATE "C" PRIMARY KEY, password_hash TEXT, created_at TEXT COLLATE "C" NOT NULL);
   CREATE TABLE signin_codes (
     hash TEXT COLLATE "C" PRIMARY KEY, subject TEXT COLLATE "C" NOT NULL, created_at TEXT COLLATE "C" NOT NULL,
     expires_at TEXT COLLATE "C" NOT NULL, used_at TEXT COLLATE "C");
   CREATE TABLE device_codes (
     hash TEXT COLLATE "C" PRIMARY KEY, user_code TEXT COLLATE "C" NOT NULL UNIQUE, client_id TEXT NOT NULL,
     status TEXT COLLATE "C" NOT NULL, subject TEXT COLLATE "C", created_at TEXT COLLATE "C" NOT NULL,
     expires_at TEXT COLLATE "C" NOT NULL, last_polled_at TEXT COLLATE "C");
   CREATE TABLE connections (
     id TEXT COLLATE "C" PRIMARY KEY, service TEXT COLLATE "C" NOT NULL, end_user_ref TEXT COLLATE "C" NOT NULL,
     auth_name TEXT COLLATE "C" NOT NULL, tokens JSONB NOT NULL, status TEXT COLLATE "C" NOT NULL,
     access_expires_at TEXT COLLATE "C", generation BIGINT NOT NULL, created_at TEXT COLLATE "C" NOT NULL,
     updated_at TEXT COLLATE "C" NOT NULL, UNIQUE (service, end_user_ref, auth_name));
   CREATE TABLE oauth_states (
     hash TEXT COLLATE "C" PRIMARY KEY, service TEXT COLLATE "C" NOT NULL, end_user_ref TEXT COLLATE "C" NOT NULL,
     auth_name TEXT COLLATE "C" NOT NULL, verifier JSONB NOT NULL, created_at TEXT COLLATE "C" NOT NULL,
     expires_at TEXT COLLATE "C" NOT NULL);`,
  `CREATE TABLE idempotency_keys (
     scope TEXT COLLATE "C" NOT NULL, key TEXT COLLATE "C" NOT NULL, request_hash TEXT NOT NULL, state TEXT NOT NULL,
     result TEXT, created_at TEXT COLLATE "C" NOT NULL, PRIMARY KEY (scope, key));`,
  // One-time jobs that need more than SQL (the credential-origin binding): each records it ran.
  `CREATE TABLE markers (name TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);`,
  // When a connection's consent last completed (a refresh writes updated_at, never this). A
  // connection made before it was recorded takes its creation, when its first consent completed.
  `ALTER TABLE connections ADD COLUMN consented_at TEXT COLLATE "C";
   UPDATE connections SET consented_at = created_at;
   ALTER TABLE connections ALTER COLUMN consented_at SET NOT NULL;`,
  // Who started a device sign-in (shown on the approval page) and the lifetime asked for its credential.
  `ALTER TABLE device_codes ADD COLUMN requested_from TEXT, ADD COLUMN requested_agent TEXT, ADD COLUMN credential_ttl_seconds INTEGER;`,
  // OAuth grants of MCP clients (src/oauth): clients registered dynamically, codes, grants, their tokens.
  `CREATE TABLE grant_clients (
     client_id TEXT COLLATE "C" PRIMARY KEY, client_name TEXT, redirect_uris JSONB NOT NULL, created_at TEXT COLLATE "C" NOT NULL);
   CREATE TABLE grant_codes (
     hash TEXT COLLATE "C" PRIMARY KEY, client_id TEXT COLLATE "C" NOT NULL, client_name TEXT NOT NULL,
     redirect_uri TEXT COLLATE "C" NOT NULL, code_challenge TEXT COLLATE "C" NOT NULL, version_id TEXT COLLATE "C" NOT NULL,
     resource TEXT COLLATE "C" NOT NULL, server_name TEXT COLLATE "C" NOT NULL, approved_by TEXT COLLATE "C" NOT NULL,
     allow JSONB, grant_expires_at TEXT COLLATE "C", created_at TEXT COLLATE "C" NOT NULL, expires_at TEXT COLLATE "C" NOT NULL,
     used_at TEXT COLLATE "C", grant_id TEXT COLLATE "C");
   CREATE TABLE grants (
     id TEXT COLLATE "C" PRIMARY KEY, client_id TEXT COLLATE "C" NOT NULL, client_name TEXT NOT NULL,
     redirect_uri TEXT COLLATE "C" NOT NULL, version_id TEXT COLLATE "C" NOT NULL, resource TEXT COLLATE "C" NOT NULL,
     approved_by TEXT COLLATE "C" NOT NULL, created_at TEXT COLLATE "C" NOT NULL);
   CREATE TABLE grant_tokens (
     hash TEXT COLLATE "C" PRIMARY KEY, grant_id TEXT COLLATE "C" NOT NULL, kind TEXT COLLATE "C" NOT NULL,
     created_at TEXT COLLATE "C" NOT NULL, expires_at TEXT COLLATE "C" NOT NULL, spent_at TEXT COLLATE "C");
   CREATE INDEX grant_tokens_grant ON grant_tokens (grant_id);`,
  // The provider attempts of a retried call, null when its request was sent once.
  `ALTER TABLE receipts ADD COLUMN attempts JSONB;`,
  // Read-only execution tokens (issue 31 §3): true refuses every operation that is not read-only.
  `ALTER TABLE tokens ADD COLUMN read_only BOOLEAN NOT NULL DEFAULT false;`,
  // Operations an MCP version gates behind a person's approval (null: none), and the approvals (./approval-types.ts).
  `ALTER TABLE mcp_versions ADD COLUMN require_approval JSONB;
   ALTER TABLE sdk_versions ADD COLUMN require_approval JSONB;
   CREATE TABLE mcp_approvals (
     id TEXT COLLATE "C" PRIMARY KEY, version_id TEXT COLLATE "C" NOT NULL, token_id TEXT COLLATE "C" NOT NULL,
     operation TEXT COLLATE "C" NOT NULL, params_hash TEXT COLLATE "C" NOT NULL, summary JSONB NOT NULL,
     created_at TEXT COLLATE "C" NOT NULL, expires_at TEXT COLLATE "C" NOT NULL, approved_at TEXT COLLATE "C",
     approved_by TEXT, used_at TEXT COLLATE "C");
   CREATE INDEX mcp_approvals_call ON mcp_approvals (version_id, token_id, operation, params_hash);`,
  // The trace a call ran in (W3C trace ID), null while tracing was off. Not indexed (Store.listTraceReceipts).
  `ALTER TABLE receipts ADD COLUMN trace_id TEXT COLLATE "C";`,
];

/** The table each kind of app keeps its versions in, and the constraints a duplicate label or seq breaks. */
export const VERSION_TABLE: Record<AppKind, string> = { sdk: 'sdk_versions', mcp: 'mcp_versions' };
export const LABEL_CONSTRAINTS = new Set(['sdk_versions_label', 'sdk_versions_seq', 'mcp_versions_label', 'mcp_versions_seq']);


/** Applies pending migrations in one transaction under the migration advisory lock. Returns the versions applied. */
export async function migrate(client: Queryable): Promise<number[]> {
  const applied: number[] = [];
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ current: number }>('SELECT COALESCE(MAX(version), 0)::int AS current FROM schema_migrations');
    const current = rows[0]!.current;
    if (current > MIGRATIONS.length) {
      throw Object.assign(new Error(`the database schema (version ${current}) is newer than this Engine understands (${MIGRATIONS.length}); run a newer Engine`), { name: 'StoreVersionError' });
    }
    for (let v = current; v < MIGRATIONS.length; v++) {
      await client.query(MIGRATIONS[v]!);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [v + 1]);
      applied.push(v + 1);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
  return applied;
}
