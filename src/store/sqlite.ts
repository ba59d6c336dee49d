// The embedded store: one SQLite file (better-sqlite3) in WAL mode with versioned migrations.
// Every multi-row write runs in one transaction, so a crash never leaves half a publish.
import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { SqliteApprovals } from './sqlite-approvals.ts';
import { SqliteGrants } from './sqlite-grants.ts';
import { HotRows } from './sqlite-hot.ts';
import { ReceiptInserter, ReceiptWriter, receiptColumns } from './sqlite-receipts.ts';
import { connectionFrom, deviceFrom, receiptFrom, tokenFrom, versionFrom, type Row } from './sqlite-rows.ts';
import { VERSION_TABLE, migrate } from './sqlite-schema.ts';
import {
  AFTER_EVERY_RECEIPT,
  StoreConflictError,
  type ImportedServiceRow,
  type ReceiptRow,
  type AppKind,
  type AppVersionRow,
  type SecretRow,
  type Store,
  type SyncReads,
  type TokenKind,
  type TokenRow,
  type WorkspaceServiceRow,
  type UserRow,
  type SigninCodeRow,
  type DeviceCodeRow,
  type ConnectionRow,
  type OAuthStateRow,
  type IdempotencyClaim,
  type IdempotencyState,
} from './types.ts';

export { MIGRATIONS } from './sqlite-schema.ts';

/**
 * SQLite's `synchronous` on every connection: FULL (the default) syncs each commit's WAL write to
 * disk, so a committed receipt survives a power cut; NORMAL syncs at checkpoints only (a process
 * crash loses nothing, an OS crash or power cut may lose the last commits). docs/benchmarks/durable-receipts.md.
 */
export type SqliteSynchronous = 'FULL' | 'NORMAL';

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly stmt: Record<string, Database.Statement>;
  private readonly versionStmt: Record<AppKind, Record<'nextSeq' | 'insert' | 'get' | 'latestOf' | 'list' | 'latest', Database.Statement>>;
  /** Receipts go to a writer thread (file-backed), else (`:memory:`, or the writer failed) straight in. */
  private readonly receiptWriter: ReceiptWriter | undefined;
  private readonly receipts: ReceiptInserter;
  /** Rows every call reads, kept while the database is unchanged (./sqlite-hot.ts). */
  private readonly hot: HotRows;
  readonly grants: SqliteGrants;
  readonly approvals: SqliteApprovals;

  constructor(file: string, options: { synchronous?: SqliteSynchronous } = {}) {
    const synchronous = options.synchronous ?? 'FULL';
    if (file !== ':memory:') {
      mkdirSync(dirname(file), { recursive: true });
      // Created owner-only; SQLite gives the -wal and -shm files the database file's mode.
      closeSync(openSync(file, 'a', 0o600));
    }
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${synchronous}`);
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
    this.hot = new HotRows(this.db.prepare('PRAGMA data_version').pluck(), this.db.prepare('SELECT n FROM hot_changes').pluck());
    this.receipts = new ReceiptInserter(this.db);
    this.receiptWriter = file === ':memory:' ? undefined : new ReceiptWriter(file, synchronous);
    this.grants = new SqliteGrants(this.db, (row) => this.insertTokenSync(row));
    this.approvals = new SqliteApprovals(this.db);
    const prepare = (sql: string) => this.db.prepare(sql);
    this.versionStmt = {
      sdk: this.versionStatements('sdk'),
      mcp: this.versionStatements('mcp'),
    };
    this.stmt = {
      listWs: prepare('SELECT * FROM workspace_services ORDER BY service'),
      getWs: prepare('SELECT * FROM workspace_services WHERE service = ?'),
      putWs: prepare(
        `INSERT INTO workspace_services (service, version, base_url, enabled_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (service) DO UPDATE SET version = excluded.version, base_url = excluded.base_url, enabled_at = excluded.enabled_at`,
      ),
      delWs: prepare('DELETE FROM workspace_services WHERE service = ?'),
      putWsChanged: prepare(
        `INSERT INTO workspace_services (service, version, base_url, enabled_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (service) DO UPDATE SET version = excluded.version, base_url = excluded.base_url, enabled_at = excluded.enabled_at
         WHERE workspace_services.version IS NOT excluded.version OR workspace_services.base_url IS NOT excluded.base_url`,
      ),
      putImport: prepare(
        `INSERT INTO imported_services (service, version, index_json, imported_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (service, version) DO NOTHING`,
      ),
      listImports: prepare('SELECT * FROM imported_services WHERE imported_at >= ? ORDER BY service, version'),
      putSecret: prepare(
        `INSERT INTO secrets (bucket, service, ciphertext, nonce, tag, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (bucket, service) DO UPDATE SET ciphertext = excluded.ciphertext, nonce = excluded.nonce,
           tag = excluded.tag, updated_at = excluded.updated_at`,
      ),
      replaceSecret: prepare(
        `UPDATE secrets SET ciphertext = @ciphertext, nonce = @nonce, tag = @tag, updated_at = @updatedAt
         WHERE bucket = @bucket AND service = @service AND ciphertext = @readCiphertext AND nonce = @readNonce AND tag = @readTag`,
      ),
      getSecret: prepare('SELECT * FROM secrets WHERE bucket = ? AND service = ?'),
      listSecrets: prepare('SELECT bucket, service, updated_at FROM secrets ORDER BY bucket, service'),
      deleteSecret: prepare('DELETE FROM secrets WHERE bucket = ? AND service = ?'),
      insertToken: prepare(
        `INSERT INTO tokens (id, kind, subject, hash, created_at, expires_at, revoked_at, last_used_at, allow, binding, read_only)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      tokenByHash: prepare('SELECT * FROM tokens WHERE hash = ?'),
      listTokens: prepare('SELECT * FROM tokens WHERE kind = @kind AND (@subject IS NULL OR subject = @subject) ORDER BY created_at, id'),
      revokeToken: prepare(
        'UPDATE tokens SET revoked_at = @at WHERE id = @id AND revoked_at IS NULL AND (@kinds IS NULL OR kind IN (SELECT value FROM json_each(@kinds)))',
      ),
      touchToken: prepare('UPDATE tokens SET last_used_at = ? WHERE id = ?'),
      listReceipts: prepare('SELECT * FROM receipts WHERE version_id = ? ORDER BY id DESC LIMIT ?'),
      listReceiptsBefore: prepare('SELECT * FROM receipts WHERE version_id = ? AND id < ? ORDER BY id DESC LIMIT ?'),
      // A bounded window of the version's newest receipts (its primary key, newest first), then the trace's among them.
      listTraceReceipts: prepare(
        'SELECT * FROM (SELECT * FROM receipts WHERE version_id = @versionId AND id < @before ORDER BY id DESC LIMIT @scan) WHERE trace_id = @traceId ORDER BY id DESC LIMIT @limit',
      ),
      /** The oldest receipt of a full window: the scan-th newest older than @before. */
      traceWindowEnd: prepare('SELECT id FROM receipts WHERE version_id = @versionId AND id < @before ORDER BY id DESC LIMIT 1 OFFSET @scan - 1'),
    };
  }

  /** The per-call reads, answered at once from the hot cache or the file (see SyncReads). */
  readonly sync: SyncReads = {
    tokenByHash: (hash) => {
      const hit = this.hot.read(this.hot.tokens, hash);
      if (hit !== undefined) return hit;
      const r = this.stmt.tokenByHash!.get(hash) as Row | undefined;
      let row: TokenRow | null = null;
      if (r) {
        row = tokenFrom(r);
        if (row.allow) Object.freeze(row.allow);
        if (row.binding) Object.freeze(row.binding);
        Object.freeze(row);
      }
      return this.hot.keep(this.hot.tokens, hash, row);
    },
    workspaceService: (service) => {
      const hit = this.hot.read(this.hot.services, service);
      if (hit !== undefined) return hit;
      const r = this.stmt.getWs!.get(service) as Row | undefined;
      return this.hot.keep(this.hot.services, service, r ? Object.freeze({ service: r.service, version: r.version, baseUrl: r.base_url, enabledAt: r.enabled_at }) : null);
    },
    secret: (bucket, service) => {
      let inBucket = this.hot.secrets.get(bucket);
      if (!inBucket) this.hot.secrets.set(bucket, (inBucket = new Map()));
      const hit = this.hot.read(inBucket, service);
      if (hit !== undefined) return hit;
      const r = this.stmt.getSecret!.get(bucket, service) as Row | undefined;
      return this.hot.keep(
        inBucket,
        service,
        r ? Object.freeze({ bucket: r.bucket, service: r.service, ciphertext: r.ciphertext, nonce: r.nonce, tag: r.tag, updatedAt: r.updated_at }) : null,
      );
    },
  };

  private versionStatements(kind: AppKind) {
    const table = VERSION_TABLE[kind];
    return {
      nextSeq: this.db.prepare(`SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM ${table} WHERE name = ?`),
      insert: this.db.prepare(
        `INSERT INTO ${table} (version_id, name, version, services, operations, created_at, seq, require_approval) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      get: this.db.prepare(`SELECT * FROM ${table} WHERE version_id = ?`),
      latestOf: this.db.prepare(`SELECT version_id FROM ${table} WHERE name = ? ORDER BY seq DESC LIMIT 1`),
      list: this.db.prepare(`SELECT * FROM ${table} WHERE name = ? ORDER BY seq DESC`),
      latest: this.db.prepare(
        `SELECT v.* FROM ${table} v JOIN (SELECT name, MAX(seq) AS seq FROM ${table} GROUP BY name) m
           ON v.name = m.name AND v.seq = m.seq ORDER BY v.name`,
      ),
    };
  }

  async close() {
    await this.receiptWriter?.close();
    this.db.close();
  }
  async ping() {
    this.db.prepare('SELECT 1').get();
  }
  async getMarker(name: string) {
    return (this.db.prepare('SELECT value FROM markers WHERE name = ?').pluck().get(name) as string | undefined) ?? null;
  }
  async setMarker(name: string, value: string) {
    this.db.prepare('INSERT INTO markers (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, value);
  }

  async listWorkspaceServices(): Promise<WorkspaceServiceRow[]> {
    return (this.stmt.listWs!.all() as Row[]).map((r) => ({ service: r.service, version: r.version, baseUrl: r.base_url, enabledAt: r.enabled_at }));
  }
  async getWorkspaceService(service: string): Promise<WorkspaceServiceRow | null> {
    return this.sync.workspaceService(service);
  }
  async putWorkspaceService(row: WorkspaceServiceRow) {
    this.hot.clear();
    this.stmt.putWs!.run(row.service, row.version, row.baseUrl, row.enabledAt);
  }
  async deleteWorkspaceService(service: string) {
    this.hot.clear();
    return this.stmt.delWs!.run(service).changes > 0;
  }
  async replaceWorkspaceServices(services: WorkspaceServiceRow[], unchanged: (current: WorkspaceServiceRow[]) => boolean) {
    this.hot.clear();
    // IMMEDIATE: the write lock is taken before the read, so no other connection writes in between.
    return this.db.transaction(() => {
      const current = (this.stmt.listWs!.all() as Row[]).map((r): WorkspaceServiceRow => ({ service: r.service, version: r.version, baseUrl: r.base_url, enabledAt: r.enabled_at }));
      if (!unchanged(current)) return false;
      const kept = new Set(services.map((r) => r.service));
      for (const r of current) if (!kept.has(r.service)) this.stmt.delWs!.run(r.service);
      for (const r of services) this.stmt.putWsChanged!.run(r.service, r.version, r.baseUrl, r.enabledAt);
      return true;
    }).immediate();
  }

  async insertImportedService(row: ImportedServiceRow) {
    return this.stmt.putImport!.run(row.service, row.version, row.index, row.importedAt).changes > 0;
  }
  async listImportedServices(since = ''): Promise<ImportedServiceRow[]> {
    return (this.stmt.listImports!.all(since) as Row[]).map((r) => ({ service: r.service, version: r.version, index: r.index_json, importedAt: r.imported_at }));
  }

  async putSecret(row: SecretRow) {
    this.hot.clear();
    this.stmt.putSecret!.run(row.bucket, row.service, row.ciphertext, row.nonce, row.tag, row.updatedAt);
  }
  async replaceSecret(read: SecretRow, next: Pick<SecretRow, 'ciphertext' | 'nonce' | 'tag' | 'updatedAt'>) {
    this.hot.clear();
    const { bucket, service, ciphertext: readCiphertext, nonce: readNonce, tag: readTag } = read;
    return this.stmt.replaceSecret!.run({ ...next, bucket, service, readCiphertext, readNonce, readTag }).changes > 0;
  }
  async getSecret(bucket: string, service: string): Promise<SecretRow | null> {
    return this.sync.secret(bucket, service);
  }
  async listSecrets() {
    return (this.stmt.listSecrets!.all() as Row[]).map((r) => ({ bucket: r.bucket, service: r.service, updatedAt: r.updated_at }));
  }
  async deleteSecret(bucket: string, service: string) {
    this.hot.clear();
    return this.stmt.deleteSecret!.run(bucket, service).changes > 0;
  }

  async publishVersion(kind: AppKind, version: AppVersionRow, firstToken: TokenRow | null, basedOn?: string | null) {
    const stmt = this.versionStmt[kind];
    try {
      this.db.transaction(() => {
        if (basedOn !== undefined) {
          const latest = stmt.latestOf.get(version.name) as { version_id: string } | undefined;
          if ((latest?.version_id ?? null) !== basedOn) throw new StoreConflictError(`${version.name} was published concurrently`);
        }
        const { seq } = stmt.nextSeq.get(version.name) as { seq: number };
        stmt.insert.run(
          version.versionId,
          version.name,
          version.version,
          JSON.stringify(version.services),
          JSON.stringify(version.operations),
          version.createdAt,
          seq,
          version.requireApproval?.length ? JSON.stringify(version.requireApproval) : null,
        );
        if (firstToken) this.insertTokenSync(firstToken);
      }).immediate();
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && /\.(name|version|seq)\b/.test((err as Error).message)) {
        throw new StoreConflictError(`${version.name}@${version.version} already exists`);
      }
      throw err;
    }
  }
  async getVersion(kind: AppKind, versionId: string) {
    const r = this.versionStmt[kind].get.get(versionId) as Row | undefined;
    return r ? versionFrom(r) : null;
  }
  async listVersions(kind: AppKind, name: string) {
    return (this.versionStmt[kind].list.all(name) as Row[]).map(versionFrom);
  }
  async listLatestVersions(kind: AppKind) {
    return (this.versionStmt[kind].latest.all() as Row[]).map(versionFrom);
  }

  private insertTokenSync(t: TokenRow) {
    this.hot.clear();
    this.stmt.insertToken!.run(
      t.id,
      t.kind,
      t.subject,
      t.hash,
      t.createdAt,
      t.expiresAt,
      t.revokedAt,
      t.lastUsedAt,
      t.allow === null ? null : JSON.stringify(t.allow),
      t.binding === null ? null : JSON.stringify(t.binding),
      t.readOnly ? 1 : 0,
    );
  }
  async insertToken(row: TokenRow) {
    this.insertTokenSync(row);
  }
  async getTokenByHash(hash: string) {
    return this.sync.tokenByHash(hash);
  }
  async listTokens(kind: TokenKind, subject?: string) {
    return this.stmt.listTokens!.all({ kind, subject: subject ?? null }).map((r) => tokenFrom(r as Row));
  }
  async revokeToken(id: string, at: string, kinds?: readonly TokenKind[]) {
    this.hot.clear();
    return this.stmt.revokeToken!.run({ at, id, kinds: kinds ? JSON.stringify(kinds) : null }).changes > 0;
  }
  async touchToken(id: string, at: string) {
    this.hot.clear();
    this.stmt.touchToken!.run(at, id);
  }

  async getUser(subject: string): Promise<UserRow | null> {
    const r = this.db.prepare('SELECT * FROM users WHERE subject = ?').get(subject) as Row | undefined;
    return r ? { subject: r.subject, passwordHash: r.password_hash, createdAt: r.created_at } : null;
  }
  async putUser(row: UserRow) {
    this.db
      .prepare(
        `INSERT INTO users (subject, password_hash, created_at) VALUES (?, ?, ?)
         ON CONFLICT (subject) DO UPDATE SET password_hash = excluded.password_hash`,
      )
      .run(row.subject, row.passwordHash, row.createdAt);
  }
  async insertSigninCode(row: SigninCodeRow) {
    this.db.prepare('INSERT INTO signin_codes (hash, subject, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?)').run(row.hash, row.subject, row.createdAt, row.expiresAt, row.usedAt);
  }
  async deleteExpired(before: string) {
    return this.db.transaction(() =>
      ['signin_codes', 'device_codes', 'oauth_states', 'grant_codes', 'grant_tokens', 'mcp_approvals'].reduce((n, table) => n + this.db.prepare(`DELETE FROM ${table} WHERE expires_at < ?`).run(before).changes, 0),
    )();
  }
  async revokeSigninCodes(subject: string, at: string) {
    return this.db.prepare('UPDATE signin_codes SET used_at = ? WHERE subject = ? AND used_at IS NULL').run(at, subject).changes;
  }
  async useSigninCode(hash: string, at: string): Promise<SigninCodeRow | null> {
    const r = this.db
      .prepare('UPDATE signin_codes SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING *')
      .get(at, hash, at) as Row | undefined;
    return r ? { hash: r.hash, subject: r.subject, createdAt: r.created_at, expiresAt: r.expires_at, usedAt: r.used_at } : null;
  }

  async insertDeviceCode(row: DeviceCodeRow) {
    this.db
      .prepare(
        'INSERT INTO device_codes (hash, user_code, client_id, status, subject, created_at, expires_at, last_polled_at, requested_from, requested_agent, credential_ttl_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(row.hash, row.userCode, row.clientId, row.status, row.subject, row.createdAt, row.expiresAt, row.lastPolledAt, row.requestedFrom, row.requestedAgent, row.credentialTtlSeconds);
  }
  async getDeviceCode(hash: string) {
    const r = this.db.prepare('SELECT * FROM device_codes WHERE hash = ?').get(hash) as Row | undefined;
    return r ? deviceFrom(r) : null;
  }
  async getDeviceCodeByUserCode(userCode: string) {
    const r = this.db.prepare('SELECT * FROM device_codes WHERE user_code = ?').get(userCode) as Row | undefined;
    return r ? deviceFrom(r) : null;
  }
  async decideDeviceCode(userCode: string, status: 'approved' | 'denied', subject: string | null) {
    return this.db.prepare(`UPDATE device_codes SET status = ?, subject = ? WHERE user_code = ? AND status = 'pending'`).run(status, subject, userCode).changes > 0;
  }
  async redeemDeviceCode(hash: string, credential: TokenRow) {
    return this.db.transaction(() => {
      const changed = this.db.prepare(`UPDATE device_codes SET status = 'redeemed' WHERE hash = ? AND status = 'approved'`).run(hash).changes;
      if (!changed) return false;
      this.insertTokenSync(credential);
      return true;
    }).immediate();
  }
  async touchDeviceCode(hash: string, at: string, earliest: string) {
    const onTime = this.db.prepare('UPDATE device_codes SET last_polled_at = ? WHERE hash = ? AND (last_polled_at IS NULL OR last_polled_at <= ?)').run(at, hash, earliest).changes === 1;
    // Never backwards: replicas' clocks differ.
    if (!onTime) this.db.prepare("UPDATE device_codes SET last_polled_at = MAX(IFNULL(last_polled_at, ''), ?) WHERE hash = ?").run(at, hash);
    return onTime;
  }

  async putConnection(row: ConnectionRow) {
    this.db
      .prepare(
        `INSERT INTO connections (id, service, end_user_ref, auth_name, tokens, status, access_expires_at, generation, created_at, updated_at, consented_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (service, end_user_ref, auth_name) DO UPDATE SET tokens = excluded.tokens, status = excluded.status,
           access_expires_at = excluded.access_expires_at, generation = connections.generation + 1, updated_at = excluded.updated_at,
           consented_at = excluded.consented_at`,
      )
      .run(row.id, row.service, row.endUserRef, row.authName, JSON.stringify(row.tokens), row.status, row.accessExpiresAt, row.generation, row.createdAt, row.updatedAt, row.consentedAt);
  }
  async getConnection(service: string, endUserRef: string, authName: string) {
    const r = this.db.prepare('SELECT * FROM connections WHERE service = ? AND end_user_ref = ? AND auth_name = ?').get(service, endUserRef, authName) as Row | undefined;
    return r ? connectionFrom(r) : null;
  }
  async listConnections(service?: string) {
    const rows = (service
      ? this.db.prepare('SELECT * FROM connections WHERE service = ? ORDER BY service, end_user_ref, auth_name').all(service)
      : this.db.prepare('SELECT * FROM connections ORDER BY service, end_user_ref, auth_name').all()) as Row[];
    return rows.map(connectionFrom);
  }
  async deleteConnection(id: string) {
    const r = this.db.prepare('DELETE FROM connections WHERE id = ? RETURNING *').get(id) as Row | undefined;
    return r ? connectionFrom(r) : null;
  }
  async updateConnectionTokens(id: string, expectedGeneration: number, next: Pick<ConnectionRow, 'tokens' | 'status' | 'accessExpiresAt' | 'updatedAt'>) {
    return (
      this.db
        .prepare(
          `UPDATE connections SET tokens = ?, status = ?, access_expires_at = ?, updated_at = ?, generation = generation + 1
           WHERE id = ? AND generation = ?`,
        )
        .run(JSON.stringify(next.tokens), next.status, next.accessExpiresAt, next.updatedAt, id, expectedGeneration).changes > 0
    );
  }
  async insertOAuthState(row: OAuthStateRow) {
    this.db
      .prepare('INSERT INTO oauth_states (hash, service, end_user_ref, auth_name, verifier, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(row.hash, row.service, row.endUserRef, row.authName, JSON.stringify(row.verifier), row.createdAt, row.expiresAt);
  }
  async takeOAuthState(hash: string) {
    const r = this.db.prepare('DELETE FROM oauth_states WHERE hash = ? RETURNING *').get(hash) as Row | undefined;
    return r
      ? { hash: r.hash, service: r.service, endUserRef: r.end_user_ref, authName: r.auth_name, verifier: JSON.parse(r.verifier), createdAt: r.created_at, expiresAt: r.expires_at }
      : null;
  }

  async claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyState> {
    return this.db.transaction((): IdempotencyState => {
      const row = this.db.prepare('SELECT * FROM idempotency_keys WHERE scope = ? AND key = ?').get(claim.scope, claim.key) as Row | undefined;
      if (row && Date.parse(row.created_at) + claim.ttlMs > Date.parse(claim.createdAt)) {
        return { state: row.state === 'done' ? 'done' : 'pending', requestHash: row.request_hash, result: row.result, createdAt: row.created_at };
      }
      this.db
        .prepare(
          `INSERT INTO idempotency_keys (scope, key, request_hash, state, result, created_at) VALUES (?, ?, ?, 'pending', NULL, ?)
           ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'pending', result = NULL, created_at = excluded.created_at`,
        )
        .run(claim.scope, claim.key, claim.requestHash, claim.createdAt);
      return { state: 'claimed' };
    }).immediate();
  }
  async completeIdempotencyKey(scope: string, key: string, result: string) {
    this.db.prepare(`UPDATE idempotency_keys SET state = 'done', result = ? WHERE scope = ? AND key = ?`).run(result, scope, key);
  }
  async releaseIdempotencyKey(scope: string, key: string) {
    this.db.prepare(`DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND state = 'pending'`).run(scope, key);
  }

  /** One transaction, committed by the receipt writer thread (./sqlite-receipts.ts) before this resolves. */
  async insertReceipts(rows: ReceiptRow[]) {
    if (this.receiptWriter) {
      try {
        return await this.receiptWriter.insert(rows);
      } catch (err) {
        if (!this.db.open) throw err;
        // The writer thread failed (it died, or could not open the file): the batch is written here instead.
      }
    }
    this.receipts.insert(rows.map(receiptColumns));
  }
  async listReceipts(versionId: string, limit: number, before?: string) {
    const rows = before === undefined ? this.stmt.listReceipts!.all(versionId, limit) : this.stmt.listReceiptsBefore!.all(versionId, before, limit);
    return rows.map((r) => receiptFrom(r as Row));
  }
  async listTraceReceipts(versionId: string, traceId: string, limit: number, scan: number, before?: string) {
    const params = { versionId, traceId, limit, scan, before: before ?? AFTER_EVERY_RECEIPT };
    // One read transaction: a batch the writer thread commits between the two reads would move the window's end.
    return this.db.transaction(() => {
      const rows = this.stmt.listTraceReceipts!.all(params).map((r) => receiptFrom(r as Row));
      const end = this.stmt.traceWindowEnd!.get(params) as { id: string } | undefined;
      return { rows, scannedTo: end?.id ?? null };
    })();
  }
  async pruneReceipts(beforeId: string, limit: number) {
    // Receipts are keyed (version_id, id): one range delete per version uses that key, where a
    // delete by id alone would scan the table. The versions come from the key itself, one index
    // seek each (a loose index scan), so a receipt is pruned whatever its version.
    const versions = this.db
      .prepare(
        `WITH RECURSIVE v(id) AS (SELECT MIN(version_id) FROM receipts
           UNION ALL SELECT (SELECT MIN(version_id) FROM receipts WHERE version_id > v.id) FROM v WHERE v.id IS NOT NULL)
         SELECT id FROM v WHERE id IS NOT NULL`,
      )
      .pluck()
      .all() as string[];
    const prune = this.db.prepare(
      'DELETE FROM receipts WHERE version_id = ? AND id IN (SELECT id FROM receipts WHERE version_id = ? AND id < ? ORDER BY id LIMIT ?)',
    );
    let deleted = 0;
    for (const versionId of versions) {
      if (deleted >= limit) break;
      deleted += prune.run(versionId, versionId, beforeId, limit - deleted).changes;
    }
    return deleted;
  }
}
