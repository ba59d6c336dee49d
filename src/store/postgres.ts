// The PostgreSQL store (DATABASE_URL=postgres://…): the same Store interface and contract as the
// embedded SQLite store, for several Engine replicas sharing one database. Its connections are in
// ./postgres-pool.ts, its schema and migrations in ./postgres-schema.ts.
//
// - Every multi-row write SqliteStore runs in one transaction runs in one transaction here too.
// - Values come back exactly as SQLite returns them: TEXT columns are COLLATE "C" (byte order, like
//   SQLite's BINARY), BIGINT parses to a JS number, `ok` is a boolean.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { PostgresApprovals } from './postgres-approvals.ts';
import { PostgresGrants } from './postgres-grants.ts';
import { DEFAULT_POOL_SIZE, inTransaction, newPool, type Queryable } from './postgres-pool.ts';
import { camel, camelAll, json, tokenRow, versionRow, type Row } from './postgres-rows.ts';
import { LABEL_CONSTRAINTS, VERSION_TABLE, migrate } from './postgres-schema.ts';
import {
  AFTER_EVERY_RECEIPT,
  StoreConflictError,
  type ImportedServiceRow,
  type ReceiptRow,
  type AppKind,
  type AppVersionRow,
  type SecretRow,
  type Store,
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

export { DEFAULT_POOL_SIZE } from './postgres-pool.ts';
export { MIGRATIONS, MIGRATION_LOCK_KEY, migrate } from './postgres-schema.ts';

/** How long a publish retries while another publish of the same app holds its lock (then 409). */
const PUBLISH_LOCK_WAIT_MS = 10_000;

/** How long a workspace replace waits for another workspace write to finish (then it fails). */
const WORKSPACE_LOCK_WAIT_MS = 10_000;

/** A 64-bit advisory-lock key for a publish of `name`, so seq allocation per app is serialised. */
function publishLockKey(kind: AppKind, name: string): string {
  return createHash('sha256').update(`svc-engine:publish:${kind}:${name}`).digest().readBigInt64BE(0).toString();
}

const VERSION_COLUMNS = 'version_id, name, version, services, operations, created_at, require_approval';

export interface PostgresStoreOptions {
  /** Maximum pool connections (SVC_DB_POOL_SIZE); default 10. */
  poolSize?: number;
}

/** As SQLite answers a receipt: attempts only on one of a retried call, a trace ID only on a traced one. */
function asSqliteAnswers(row: ReceiptRow): ReceiptRow {
  if (row.attempts === null) delete row.attempts;
  if (row.traceId === null) delete row.traceId;
  return row;
}

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  readonly poolSize: number;
  private readonly pool: pg.Pool;
  private closed = false;
  readonly grants: PostgresGrants;
  readonly approvals: PostgresApprovals;

  private constructor(pool: pg.Pool, poolSize: number) {
    this.pool = pool;
    this.poolSize = poolSize;
    this.grants = new PostgresGrants(pool, (client, row) => this.insertTokenOn(client, row));
    this.approvals = new PostgresApprovals(pool);
  }

  /** Connects, runs pending migrations (under the advisory lock) and returns the ready store. */
  static async open(connectionString: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
    const pool = newPool(connectionString, poolSize);
    try {
      const client = await pool.connect();
      try {
        await migrate(client);
      } finally {
        client.release();
      }
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
    return new PostgresStore(pool, poolSize);
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
  async ping() {
    await this.pool.query('SELECT 1');
  }
  async getMarker(name: string) {
    const rows = await this.rows('SELECT value FROM markers WHERE name = $1', [name]);
    return rows.length ? (rows[0]!.value as string) : null;
  }
  async setMarker(name: string, value: string) {
    await this.pool.query('INSERT INTO markers (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, value]);
  }

  private async rows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.pool.query(sql, params)).rows;
  }
  private async one(sql: string, params: unknown[] = []): Promise<Row | null> {
    return (await this.pool.query(sql, params)).rows[0] ?? null;
  }
  private async changed(sql: string, params: unknown[] = []): Promise<boolean> {
    return ((await this.pool.query(sql, params)).rowCount ?? 0) > 0;
  }

  async listWorkspaceServices(): Promise<WorkspaceServiceRow[]> {
    return camelAll(await this.rows('SELECT * FROM workspace_services ORDER BY service'));
  }
  async getWorkspaceService(service: string): Promise<WorkspaceServiceRow | null> {
    const r = await this.one('SELECT * FROM workspace_services WHERE service = $1', [service]);
    return r ? camel<WorkspaceServiceRow>(r) : null;
  }
  async putWorkspaceService(row: WorkspaceServiceRow) {
    await this.pool.query(
      `INSERT INTO workspace_services (service, version, base_url, enabled_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (service) DO UPDATE SET version = excluded.version, base_url = excluded.base_url, enabled_at = excluded.enabled_at`,
      [row.service, row.version, row.baseUrl, row.enabledAt],
    );
  }
  async deleteWorkspaceService(service: string) {
    return this.changed('DELETE FROM workspace_services WHERE service = $1', [service]);
  }
  async replaceWorkspaceServices(services: WorkspaceServiceRow[], unchanged: (current: WorkspaceServiceRow[]) => boolean) {
    return inTransaction(this.pool, async (client) => {
      // SHARE ROW EXCLUSIVE conflicts with itself and with every INSERT, UPDATE and DELETE: another
      // replace or a single enable/disable (on any replica) waits for this transaction, or this one
      // for it, so the rows checked are the rows replaced. Bounded, like a publish's lock wait.
      await client.query(`SET LOCAL lock_timeout = '${WORKSPACE_LOCK_WAIT_MS}ms'`);
      await client.query('LOCK TABLE workspace_services IN SHARE ROW EXCLUSIVE MODE');
      const current = camelAll<WorkspaceServiceRow>((await client.query('SELECT * FROM workspace_services ORDER BY service')).rows);
      if (!unchanged(current)) return false;
      const kept = new Set(services.map((r) => r.service));
      const gone = current.filter((r) => !kept.has(r.service)).map((r) => r.service);
      if (gone.length) await client.query('DELETE FROM workspace_services WHERE service = ANY($1::text[])', [gone]);
      for (const r of services) {
        await client.query(
          `INSERT INTO workspace_services (service, version, base_url, enabled_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (service) DO UPDATE SET version = excluded.version, base_url = excluded.base_url, enabled_at = excluded.enabled_at
           WHERE workspace_services.version IS DISTINCT FROM excluded.version OR workspace_services.base_url IS DISTINCT FROM excluded.base_url`,
          [r.service, r.version, r.baseUrl, r.enabledAt],
        );
      }
      return true;
    }).catch((err: { code?: string }) => {
      if (err.code === '55P03') throw new StoreConflictError(`another workspace change has held the workspace for ${WORKSPACE_LOCK_WAIT_MS / 1000} s; try again`);
      throw err;
    });
  }

  async insertImportedService(row: ImportedServiceRow) {
    return this.changed(
      `INSERT INTO imported_services (service, version, index_json, imported_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (service, version) DO NOTHING`,
      [row.service, row.version, row.index, row.importedAt],
    );
  }
  async listImportedServices(since = ''): Promise<ImportedServiceRow[]> {
    return camelAll(await this.rows('SELECT service, version, index_json AS "index", imported_at FROM imported_services WHERE imported_at >= $1 ORDER BY service, version', [since]));
  }

  async putSecret(row: SecretRow) {
    await this.pool.query(
      `INSERT INTO secrets (bucket, service, ciphertext, nonce, tag, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (bucket, service) DO UPDATE SET ciphertext = excluded.ciphertext, nonce = excluded.nonce,
         tag = excluded.tag, updated_at = excluded.updated_at`,
      [row.bucket, row.service, row.ciphertext, row.nonce, row.tag, row.updatedAt],
    );
  }
  async replaceSecret(read: SecretRow, next: Pick<SecretRow, 'ciphertext' | 'nonce' | 'tag' | 'updatedAt'>) {
    // Under READ COMMITTED a concurrent writer blocks on the row, then re-evaluates the condition.
    return this.changed(
      `UPDATE secrets SET ciphertext = $1, nonce = $2, tag = $3, updated_at = $4
       WHERE bucket = $5 AND service = $6 AND ciphertext = $7 AND nonce = $8 AND tag = $9`,
      [next.ciphertext, next.nonce, next.tag, next.updatedAt, read.bucket, read.service, read.ciphertext, read.nonce, read.tag],
    );
  }
  async getSecret(bucket: string, service: string): Promise<SecretRow | null> {
    const r = await this.one('SELECT * FROM secrets WHERE bucket = $1 AND service = $2', [bucket, service]);
    return r ? camel<SecretRow>(r) : null;
  }
  async listSecrets() {
    return camelAll<Pick<SecretRow, 'bucket' | 'service' | 'updatedAt'>>(await this.rows('SELECT bucket, service, updated_at FROM secrets ORDER BY bucket, service'));
  }
  async deleteSecret(bucket: string, service: string) {
    return this.changed('DELETE FROM secrets WHERE bucket = $1 AND service = $2', [bucket, service]);
  }

  async publishVersion(kind: AppKind, version: AppVersionRow, firstToken: TokenRow | null, basedOn?: string | null) {
    try {
      // SQLite's IMMEDIATE transaction serialises seq allocation; here a per-app advisory lock does,
      // so concurrent publishes of different labels never collide on (name, seq). It is tried, not
      // waited for: a publish waiting on a stalled replica would hold a pooled connection the whole
      // time, and a few such waits starve every other request of connections.
      const deadline = Date.now() + PUBLISH_LOCK_WAIT_MS;
      for (let pause = 10; !(await this.publishOnce(kind, version, firstToken, basedOn)); pause = Math.min(pause * 2, 250)) {
        if (Date.now() >= deadline) throw new StoreConflictError(`another publish of ${version.name} has been in progress for ${PUBLISH_LOCK_WAIT_MS / 1000} s; try again`);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    } catch (err) {
      const e = err as { code?: string; constraint?: string };
      if (e.code === '23505' && e.constraint && LABEL_CONSTRAINTS.has(e.constraint)) {
        throw new StoreConflictError(`${version.name}@${version.version} already exists`);
      }
      throw err;
    }
  }

  /** One attempt at publishVersion: false, having changed nothing, when another publish of the app holds its lock. */
  private publishOnce(kind: AppKind, version: AppVersionRow, firstToken: TokenRow | null, basedOn: string | null | undefined): Promise<boolean> {
    const table = VERSION_TABLE[kind];
    return inTransaction(this.pool, async (client) => {
      const locked = await client.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [publishLockKey(kind, version.name)]);
      if (!locked.rows[0]?.locked) return false;
      if (basedOn !== undefined) {
        const latest = await client.query(`SELECT version_id FROM ${table} WHERE name = $1 ORDER BY seq DESC LIMIT 1`, [version.name]);
        if (((latest.rows[0]?.version_id as string | undefined) ?? null) !== basedOn) throw new StoreConflictError(`${version.name} was published concurrently`);
      }
      await client.query(
        `INSERT INTO ${table} (version_id, name, version, services, operations, created_at, require_approval, seq)
         SELECT $1, $2, $3, $4::jsonb, $5::jsonb, $6, $7::jsonb, COALESCE(MAX(seq), 0) + 1 FROM ${table} WHERE name = $2`,
        [version.versionId, version.name, version.version, json(version.services), json(version.operations), version.createdAt, version.requireApproval?.length ? json(version.requireApproval) : null],
      );
      if (firstToken) await this.insertTokenOn(client, firstToken);
      return true;
    });
  }
  async getVersion(kind: AppKind, versionId: string) {
    const r = await this.one(`SELECT ${VERSION_COLUMNS} FROM ${VERSION_TABLE[kind]} WHERE version_id = $1`, [versionId]);
    return r ? versionRow<AppVersionRow>(r) : null;
  }
  async listVersions(kind: AppKind, name: string) {
    return (await this.rows(`SELECT ${VERSION_COLUMNS} FROM ${VERSION_TABLE[kind]} WHERE name = $1 ORDER BY seq DESC`, [name])).map((r) => versionRow<AppVersionRow>(r));
  }
  async listLatestVersions(kind: AppKind) {
    return (await this.rows(`SELECT DISTINCT ON (name) ${VERSION_COLUMNS} FROM ${VERSION_TABLE[kind]} ORDER BY name, seq DESC`)).map((r) => versionRow<AppVersionRow>(r));
  }

  private async insertTokenOn(client: Queryable, t: TokenRow) {
    await client.query(
      `INSERT INTO tokens (id, kind, subject, hash, created_at, expires_at, revoked_at, last_used_at, allow, binding, read_only)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11)`,
      [t.id, t.kind, t.subject, t.hash, t.createdAt, t.expiresAt, t.revokedAt, t.lastUsedAt, json(t.allow), json(t.binding), t.readOnly === true],
    );
  }
  async insertToken(row: TokenRow) {
    await this.insertTokenOn(this.pool, row);
  }
  async getTokenByHash(hash: string) {
    const r = await this.one('SELECT * FROM tokens WHERE hash = $1', [hash]);
    return r ? tokenRow<TokenRow>(r) : null;
  }
  async listTokens(kind: TokenKind, subject?: string) {
    return (await this.rows('SELECT * FROM tokens WHERE kind = $1 AND ($2::text IS NULL OR subject = $2) ORDER BY created_at, id', [kind, subject ?? null])).map((r) => tokenRow<TokenRow>(r));
  }
  async revokeToken(id: string, at: string, kinds?: readonly TokenKind[]) {
    return this.changed('UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL AND ($3::text[] IS NULL OR kind = ANY($3::text[]))', [at, id, kinds ? [...kinds] : null]);
  }
  async touchToken(id: string, at: string) {
    await this.pool.query('UPDATE tokens SET last_used_at = $1 WHERE id = $2', [at, id]);
  }

  async getUser(subject: string): Promise<UserRow | null> {
    const r = await this.one('SELECT * FROM users WHERE subject = $1', [subject]);
    return r ? camel<UserRow>(r) : null;
  }
  async putUser(row: UserRow) {
    await this.pool.query(
      `INSERT INTO users (subject, password_hash, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (subject) DO UPDATE SET password_hash = excluded.password_hash`,
      [row.subject, row.passwordHash, row.createdAt],
    );
  }
  async insertSigninCode(row: SigninCodeRow) {
    await this.pool.query('INSERT INTO signin_codes (hash, subject, created_at, expires_at, used_at) VALUES ($1, $2, $3, $4, $5)', [
      row.hash,
      row.subject,
      row.createdAt,
      row.expiresAt,
      row.usedAt,
    ]);
  }
  async deleteExpired(before: string) {
    let deleted = 0;
    for (const table of ['signin_codes', 'device_codes', 'oauth_states', 'grant_codes', 'grant_tokens', 'mcp_approvals']) {
      deleted += (await this.pool.query(`DELETE FROM ${table} WHERE expires_at < $1`, [before])).rowCount ?? 0;
    }
    return deleted;
  }
  async revokeSigninCodes(subject: string, at: string) {
    return (await this.pool.query('UPDATE signin_codes SET used_at = $1 WHERE subject = $2 AND used_at IS NULL', [at, subject])).rowCount ?? 0;
  }
  async useSigninCode(hash: string, at: string): Promise<SigninCodeRow | null> {
    const r = await this.one('UPDATE signin_codes SET used_at = $1 WHERE hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING *', [at, hash]);
    return r ? camel<SigninCodeRow>(r) : null;
  }

  async insertDeviceCode(row: DeviceCodeRow) {
    await this.pool.query(
      'INSERT INTO device_codes (hash, user_code, client_id, status, subject, created_at, expires_at, last_polled_at, requested_from, requested_agent, credential_ttl_seconds) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
      [row.hash, row.userCode, row.clientId, row.status, row.subject, row.createdAt, row.expiresAt, row.lastPolledAt, row.requestedFrom, row.requestedAgent, row.credentialTtlSeconds],
    );
  }
  async getDeviceCode(hash: string) {
    const r = await this.one('SELECT * FROM device_codes WHERE hash = $1', [hash]);
    return r ? camel<DeviceCodeRow>(r) : null;
  }
  async getDeviceCodeByUserCode(userCode: string) {
    const r = await this.one('SELECT * FROM device_codes WHERE user_code = $1', [userCode]);
    return r ? camel<DeviceCodeRow>(r) : null;
  }
  async decideDeviceCode(userCode: string, status: 'approved' | 'denied', subject: string | null) {
    return this.changed(`UPDATE device_codes SET status = $1, subject = $2 WHERE user_code = $3 AND status = 'pending'`, [status, subject, userCode]);
  }
  async redeemDeviceCode(hash: string, credential: TokenRow) {
    // A concurrent redeem waits on the row lock, then re-checks status = 'approved' and changes nothing.
    return inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query(`UPDATE device_codes SET status = 'redeemed' WHERE hash = $1 AND status = 'approved'`, [hash]);
      if (!rowCount) return false;
      await this.insertTokenOn(client, credential);
      return true;
    });
  }
  async touchDeviceCode(hash: string, at: string, earliest: string) {
    // A concurrent poll's UPDATE waits for this row and re-checks the condition against what this one wrote.
    const onTime = (await this.pool.query('UPDATE device_codes SET last_polled_at = $1 WHERE hash = $2 AND (last_polled_at IS NULL OR last_polled_at <= $3)', [at, hash, earliest])).rowCount === 1;
    // Never backwards: replicas' clocks differ.
    if (!onTime) await this.pool.query('UPDATE device_codes SET last_polled_at = GREATEST(last_polled_at, $1) WHERE hash = $2', [at, hash]);
    return onTime;
  }

  async putConnection(row: ConnectionRow) {
    await this.pool.query(
      `INSERT INTO connections (id, service, end_user_ref, auth_name, tokens, status, access_expires_at, generation, created_at, updated_at, consented_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (service, end_user_ref, auth_name) DO UPDATE SET tokens = excluded.tokens, status = excluded.status,
         access_expires_at = excluded.access_expires_at, generation = connections.generation + 1, updated_at = excluded.updated_at,
         consented_at = excluded.consented_at`,
      [row.id, row.service, row.endUserRef, row.authName, json(row.tokens), row.status, row.accessExpiresAt, row.generation, row.createdAt, row.updatedAt, row.consentedAt],
    );
  }
  async getConnection(service: string, endUserRef: string, authName: string) {
    const r = await this.one('SELECT * FROM connections WHERE service = $1 AND end_user_ref = $2 AND auth_name = $3', [service, endUserRef, authName]);
    return r ? camel<ConnectionRow>(r) : null;
  }
  async listConnections(service?: string) {
    const rows = service
      ? await this.rows('SELECT * FROM connections WHERE service = $1 ORDER BY service, end_user_ref, auth_name', [service])
      : await this.rows('SELECT * FROM connections ORDER BY service, end_user_ref, auth_name');
    return camelAll<ConnectionRow>(rows);
  }
  async deleteConnection(id: string) {
    const r = await this.one('DELETE FROM connections WHERE id = $1 RETURNING *', [id]);
    return r ? camel<ConnectionRow>(r) : null;
  }
  async updateConnectionTokens(id: string, expectedGeneration: number, next: Pick<ConnectionRow, 'tokens' | 'status' | 'accessExpiresAt' | 'updatedAt'>) {
    // Under READ COMMITTED a concurrent writer blocks on the row, then re-evaluates the generation.
    return this.changed(
      `UPDATE connections SET tokens = $1::jsonb, status = $2, access_expires_at = $3, updated_at = $4, generation = generation + 1
       WHERE id = $5 AND generation = $6`,
      [json(next.tokens), next.status, next.accessExpiresAt, next.updatedAt, id, expectedGeneration],
    );
  }
  async insertOAuthState(row: OAuthStateRow) {
    await this.pool.query(
      'INSERT INTO oauth_states (hash, service, end_user_ref, auth_name, verifier, created_at, expires_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)',
      [row.hash, row.service, row.endUserRef, row.authName, json(row.verifier), row.createdAt, row.expiresAt],
    );
  }
  async takeOAuthState(hash: string) {
    const r = await this.one('DELETE FROM oauth_states WHERE hash = $1 RETURNING *', [hash]);
    return r ? camel<OAuthStateRow>(r) : null;
  }

  async claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyState> {
    // One upsert decides atomically across replicas: it inserts a new key, or takes over one whose
    // TTL has run out (created_at + ttl <= now, as SQLite computes it); a live key is left alone
    // (and row-locked) and then reported. Should a release delete the key between the two
    // statements, the claim is simply tried again.
    const expiredBefore = new Date(Date.parse(claim.createdAt) - claim.ttlMs).toISOString();
    for (;;) {
      const claimed = await this.changed(
        `INSERT INTO idempotency_keys (scope, key, request_hash, state, result, created_at) VALUES ($1, $2, $3, 'pending', NULL, $4)
         ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'pending', result = NULL, created_at = excluded.created_at
         WHERE idempotency_keys.created_at::timestamptz <= $5::timestamptz`,
        [claim.scope, claim.key, claim.requestHash, claim.createdAt, expiredBefore],
      );
      if (claimed) return { state: 'claimed' };
      const r = await this.one('SELECT state, request_hash, result, created_at FROM idempotency_keys WHERE scope = $1 AND key = $2', [claim.scope, claim.key]);
      if (r) return { state: r.state === 'done' ? 'done' : 'pending', requestHash: r.request_hash, result: r.result, createdAt: r.created_at };
    }
  }
  async completeIdempotencyKey(scope: string, key: string, result: string) {
    await this.pool.query(`UPDATE idempotency_keys SET state = 'done', result = $1 WHERE scope = $2 AND key = $3`, [result, scope, key]);
  }
  async releaseIdempotencyKey(scope: string, key: string) {
    await this.pool.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND state = 'pending'`, [scope, key]);
  }

  async insertReceipts(rows: ReceiptRow[]) {
    if (!rows.length) return;
    try {
      await this.insertReceiptBatch(rows);
    } catch (err) {
      if (rows.length === 1) throw err;
      // One row PostgreSQL refuses must not lose the others of its batch (other tenants' calls among them).
      const failed = (await Promise.allSettled(rows.map((row) => this.insertReceiptBatch([row])))).filter((r) => r.status === 'rejected');
      if (failed.length) throw new Error(`${failed.length} of ${rows.length} receipts could not be written: ${(failed[0] as PromiseRejectedResult).reason}`);
    }
  }

  private async insertReceiptBatch(rows: ReceiptRow[]) {
    // One statement over parallel arrays: atomic like SQLite's transaction, one round trip, no parameter limit.
    const col = <K extends keyof ReceiptRow>(k: K) => rows.map((r) => r[k]);
    await this.pool.query(
      `INSERT INTO receipts (id, version_id, operation, surface, token_id, started_at, provider_duration_ms, pages, status, ok, bytes, sha256, error_code, attempts, trace_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::int[], $9::int[],
         $10::bool[], $11::bigint[], $12::text[], $13::text[], $14::jsonb[], $15::text[])`,
      [
        col('id'),
        col('versionId'),
        col('operation'),
        col('surface'),
        col('tokenId'),
        col('startedAt'),
        col('providerDurationMs'),
        col('pages'),
        col('status'),
        col('ok'),
        col('bytes'),
        col('sha256'),
        col('errorCode'),
        rows.map((r) => (r.attempts ? JSON.stringify(r.attempts) : null)),
        rows.map((r) => r.traceId ?? null),
      ],
    );
  }
  async listReceipts(versionId: string, limit: number, before?: string) {
    const rows = camelAll<ReceiptRow>(
      before === undefined
        ? await this.rows('SELECT * FROM receipts WHERE version_id = $1 ORDER BY id DESC LIMIT $2', [versionId, limit])
        : await this.rows('SELECT * FROM receipts WHERE version_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3', [versionId, before, limit]),
    );
    return rows.map(asSqliteAnswers);
  }
  async listTraceReceipts(versionId: string, traceId: string, limit: number, scan: number, before?: string) {
    // A bounded window of the version's newest receipts (its (version_id, id) index, newest first),
    // then the trace's among them, and the window's size and oldest receipt: one statement, one snapshot.
    const found = await this.rows(
      `WITH w AS (SELECT * FROM receipts WHERE version_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3)
       SELECT m.*, s.n AS window_size, s.oldest AS window_oldest
         FROM (SELECT count(*)::int AS n, min(id) AS oldest FROM w) AS s
         LEFT JOIN LATERAL (SELECT * FROM w WHERE trace_id = $4 ORDER BY id DESC LIMIT $5) AS m ON true
        ORDER BY m.id DESC`,
      [versionId, before ?? AFTER_EVERY_RECEIPT, scan, traceId, limit],
    );
    const { window_size: size, window_oldest: oldest } = found[0] as { window_size: number; window_oldest: string | null };
    const rows = camelAll<ReceiptRow>(found.filter((r) => r.id !== null).map(({ window_size: _n, window_oldest: _o, ...row }) => row));
    return { rows: rows.map(asSqliteAnswers), scannedTo: size >= scan ? oldest : null };
  }
  async pruneReceipts(beforeId: string, limit: number) {
    const res = await this.pool.query('DELETE FROM receipts WHERE id IN (SELECT id FROM receipts WHERE id < $1 ORDER BY id LIMIT $2)', [beforeId, limit]);
    return res.rowCount ?? 0;
  }
}
