// The SQLite store's schema: its migrations, applied in order and counted in `PRAGMA user_version`.
import type Database from 'better-sqlite3';
import type { AppKind } from './types.ts';

/** Append-only: never edit a shipped migration, add the next one. */
export const MIGRATIONS: string[] = [
  `CREATE TABLE workspace_services (
     service TEXT PRIMARY KEY, version TEXT NOT NULL, base_url TEXT, enabled_at TEXT NOT NULL);
   CREATE TABLE imported_services (
     service TEXT NOT NULL, version TEXT NOT NULL, index_json TEXT NOT NULL, imported_at TEXT NOT NULL,
     PRIMARY KEY (service, version));
   CREATE TABLE secrets (
     bucket TEXT NOT NULL, service TEXT NOT NULL, ciphertext TEXT NOT NULL, nonce TEXT NOT NULL,
     tag TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (bucket, service));
   CREATE TABLE sdk_versions (
     version_id TEXT PRIMARY KEY, name TEXT NOT NULL, version TEXT NOT NULL, services TEXT NOT NULL,
     operations TEXT NOT NULL, created_at TEXT NOT NULL, seq INTEGER NOT NULL,
     UNIQUE (name, version), UNIQUE (name, seq));
   CREATE TABLE tokens (
     id TEXT PRIMARY KEY, kind TEXT NOT NULL, subject TEXT NOT NULL, hash TEXT NOT NULL UNIQUE,
     created_at TEXT NOT NULL, expires_at TEXT, revoked_at TEXT, last_used_at TEXT, allow TEXT, binding TEXT);
   CREATE INDEX tokens_subject ON tokens (kind, subject);
   CREATE TABLE receipts (
     id TEXT PRIMARY KEY, version_id TEXT NOT NULL, operation TEXT NOT NULL, surface TEXT NOT NULL,
     token_id TEXT, started_at TEXT NOT NULL, provider_duration_ms REAL NOT NULL, pages INTEGER NOT NULL,
     status INTEGER NOT NULL, ok INTEGER NOT NULL, bytes INTEGER NOT NULL, sha256 TEXT, error_code TEXT);
   CREATE INDEX receipts_version ON receipts (version_id, id);`,
  `CREATE TABLE mcp_versions (
     version_id TEXT PRIMARY KEY, name TEXT NOT NULL, version TEXT NOT NULL, services TEXT NOT NULL,
     operations TEXT NOT NULL, created_at TEXT NOT NULL, seq INTEGER NOT NULL,
     UNIQUE (name, version), UNIQUE (name, seq));
   CREATE TABLE users (subject TEXT PRIMARY KEY, password_hash TEXT, created_at TEXT NOT NULL);
   CREATE TABLE signin_codes (
     hash TEXT PRIMARY KEY, subject TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL, used_at TEXT);
   CREATE TABLE device_codes (
     hash TEXT PRIMARY KEY, user_code TEXT NOT NULL UNIQUE, client_id TEXT NOT NULL, status TEXT NOT NULL,
     subject TEXT, created_at TEXT NOT NULL, expires_at TEXT NOT NULL, last_polled_at TEXT);
   CREATE TABLE connections (
     id TEXT PRIMARY KEY, service TEXT NOT NULL, end_user_ref TEXT NOT NULL, auth_name TEXT NOT NULL,
     tokens TEXT NOT NULL, status TEXT NOT NULL, access_expires_at TEXT, generation INTEGER NOT NULL,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (service, end_user_ref, auth_name));
   CREATE TABLE oauth_states (
     hash TEXT PRIMARY KEY, service TEXT NOT NULL, end_user_ref TEXT NOT NULL, auth_name TEXT NOT NULL,
     verifier TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL);`,
  `CREATE TABLE idempotency_keys (
     scope TEXT NOT NULL, key TEXT NOT NULL, request_hash TEXT NOT NULL, state TEXT NOT NULL, result TEXT,
     created_at TEXT NOT NULL, PRIMARY KEY (scope, key));`,
  // Receipts are only ever listed by version, newest first: one B-tree keyed (version_id, id) instead
  // of a rowid table plus its id index plus a (version_id, id) index — about a fifth less per insert.
  `CREATE TABLE receipts_by_version (
     id TEXT NOT NULL, version_id TEXT NOT NULL, operation TEXT NOT NULL, surface TEXT NOT NULL,
     token_id TEXT, started_at TEXT NOT NULL, provider_duration_ms REAL NOT NULL, pages INTEGER NOT NULL,
     status INTEGER NOT NULL, ok INTEGER NOT NULL, bytes INTEGER NOT NULL, sha256 TEXT, error_code TEXT,
     PRIMARY KEY (version_id, id)) WITHOUT ROWID;
   INSERT INTO receipts_by_version SELECT id, version_id, operation, surface, token_id, started_at, provider_duration_ms,
     pages, status, ok, bytes, sha256, error_code FROM receipts;
   DROP TABLE receipts;
   ALTER TABLE receipts_by_version RENAME TO receipts;`,
  // One-time jobs that need more than SQL (the credential-origin binding): each records it ran.
  `CREATE TABLE markers (name TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // When a connection's consent last completed (a refresh writes updated_at, never this). A
  // connection made before it was recorded takes its creation, when its first consent completed.
  `ALTER TABLE connections ADD COLUMN consented_at TEXT;
   UPDATE connections SET consented_at = created_at;`,
  // Who started a device sign-in (shown on the approval page) and the lifetime asked for its credential.
  `ALTER TABLE device_codes ADD COLUMN requested_from TEXT;
   ALTER TABLE device_codes ADD COLUMN requested_agent TEXT;
   ALTER TABLE device_codes ADD COLUMN credential_ttl_seconds INTEGER;`,
  // OAuth grants of MCP clients (src/oauth): clients registered dynamically, codes, grants, their tokens.
  `CREATE TABLE grant_clients (
     client_id TEXT PRIMARY KEY, client_name TEXT, redirect_uris TEXT NOT NULL, created_at TEXT NOT NULL);
   CREATE TABLE grant_codes (
     hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, client_name TEXT NOT NULL, redirect_uri TEXT NOT NULL,
     code_challenge TEXT NOT NULL, version_id TEXT NOT NULL, resource TEXT NOT NULL, server_name TEXT NOT NULL,
     approved_by TEXT NOT NULL, allow TEXT, grant_expires_at TEXT, created_at TEXT NOT NULL, expires_at TEXT NOT NULL,
     used_at TEXT, grant_id TEXT);
   CREATE TABLE grants (
     id TEXT PRIMARY KEY, client_id TEXT NOT NULL, client_name TEXT NOT NULL, redirect_uri TEXT NOT NULL,
     version_id TEXT NOT NULL, resource TEXT NOT NULL, approved_by TEXT NOT NULL, created_at TEXT NOT NULL);
   CREATE TABLE grant_tokens (
     hash TEXT PRIMARY KEY, grant_id TEXT NOT NULL, kind TEXT NOT NULL, created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL, spent_at TEXT);
   CREATE INDEX grant_tokens_grant ON grant_tokens (grant_id);`,
  // The provider attempts of a retried call (JSON), null when its request was sent once.
  `ALTER TABLE receipts ADD COLUMN attempts TEXT;`,
  // Read-only execution tokens (issue 31 §3): 1 refuses every operation that is not read-only.
  `ALTER TABLE tokens ADD COLUMN read_only INTEGER NOT NULL DEFAULT 0;`,
  // Operations an MCP version gates behind a person's approval (JSON array, null: none), and the approvals (./approval-types.ts).
  `ALTER TABLE mcp_versions ADD COLUMN require_approval TEXT;
   ALTER TABLE sdk_versions ADD COLUMN require_approval TEXT;
   CREATE TABLE mcp_approvals (
     id TEXT PRIMARY KEY, version_id TEXT NOT NULL, token_id TEXT NOT NULL, operation TEXT NOT NULL,
     params_hash TEXT NOT NULL, summary TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL,
     approved_at TEXT, approved_by TEXT, used_at TEXT);
   CREATE INDEX mcp_approvals_call ON mcp_approvals (version_id, token_id, operation, params_hash);`,
  // A count of row writes to the tables the hot reads keep (./sqlite-hot.ts), so that a commit of only
  // receipts (the store's own writer thread, every batch) leaves the kept rows be. A migration that
  // rebuilds one of these tables must create its triggers again.
  `CREATE TABLE hot_changes (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
   INSERT INTO hot_changes (id, n) VALUES (1, 0);
   CREATE TRIGGER tokens_insert AFTER INSERT ON tokens BEGIN UPDATE hot_changes SET n = n + 1; END;
   CREATE TRIGGER tokens_update AFTER UPDATE ON tokens BEGIN UPDATE hot_changes SET n = n + 1; END;
   CREATE TRIGGER tokens_delete AFTER DELETE ON tokens BEGIN UPDATE hot_changes SET n = n + 1; END;
   CREATE TRIGGER workspace_services_insert AFTER INSERT ON workspace_services BEGIN UPDATE hot_changes SET n = n + 1; END;
   CREATE TRIGGER workspace_services_update AFTER UPDATE ON workspace_services BEGIN UPDATE hot_changes SET n = n + 1; END;
   CREATE TRIGGER workspace_services_delete AFTER DELETE ON workspace_services BEGIN UPDATE hot_changes SET n = n + 1; END;
   CREATE TRIGGER secrets_insert AFTER INSERT ON secrets BEGIN UPDATE hot_changes SET n = n + 1; END;
   CREATE TRIGGER secrets_update AFTER UPDATE ON secrets BEGIN UPDATE hot_changes SET n = n + 1; END;
   CREATE TRIGGER secrets_delete AFTER DELETE ON secrets BEGIN UPDATE hot_changes SET n = n + 1; END;`,
  // The trace a call ran in (W3C trace ID), null while tracing was off. Not indexed (Store.listTraceReceipts).
  `ALTER TABLE receipts ADD COLUMN trace_id TEXT;`,
];

/** The table each kind of app keeps its versions in. */
export const VERSION_TABLE: Record<AppKind, string> = { sdk: 'sdk_versions', mcp: 'mcp_versions' };

/** Applies the migrations this file has not had yet, one transaction each; refuses a newer schema. */
export function migrate(db: Database.Database): void {
  const newer = (current: number) =>
    Object.assign(new Error(`the database schema (version ${current}) is newer than this Engine understands (${MIGRATIONS.length}); run a newer Engine`), { name: 'StoreVersionError' });
  for (;;) {
    // The version is read inside the write lock: another process opening the same file at once
    // (`credential create` beside `serve`) may have applied this migration since a read outside it.
    const applied = db.transaction(() => {
      const current = db.pragma('user_version', { simple: true }) as number;
      if (current > MIGRATIONS.length) throw newer(current);
      if (current === MIGRATIONS.length) return false;
      db.exec(MIGRATIONS[current]!);
      db.pragma(`user_version = ${current + 1}`);
      return true;
    }).immediate();
    if (!applied) return;
  }
}
