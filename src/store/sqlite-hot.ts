// The SQLite store's cache of the rows every call reads (token, enabled service, secret).
import type Database from 'better-sqlite3';
import type { SecretRow, TokenRow, WorkspaceServiceRow } from './types.ts';

/** Hot-path rows kept at most (a flood of unknown tokens empties the cache rather than growing it). */
const HOT_ROWS = 10_000;
/** How often hot reads look for another connection's commits. */
const CHANGE_CHECK_MS = 1;

/**
 * Hot-path rows kept while the database is unchanged (see `read`), one map per kind so a key is the
 * value looked up as it came (no key string built per call). Values are rows or null.
 */
export class HotRows {
  readonly tokens = new Map<string, TokenRow | null>();
  readonly services = new Map<string, WorkspaceServiceRow | null>();
  readonly secrets = new Map<string, Map<string, SecretRow | null>>();
  private rows = 0;
  private stamp = -1;
  private changes = -1;
  /** When `PRAGMA data_version` was last read (performance.now()). */
  private checkedAt = -Infinity;
  /** `PRAGMA data_version`, plucked: it moves when another connection commits. */
  private readonly dataVersion: Database.Statement;
  /** `hot_changes.n`, plucked: it moves with each write to the tables served here (./sqlite-schema.ts). */
  private readonly changeCount: Database.Statement;

  constructor(dataVersion: Database.Statement, changeCount: Database.Statement) {
    this.dataVersion = dataVersion;
    this.changeCount = changeCount;
  }

  /**
   * A read on every call (token check, service lookup, secret) answered from memory while nothing
   * changed since it was made. This connection's writes to those tables empty the cache (`clear`);
   * another connection's commit (the CLI, another process) moves `PRAGMA data_version`, read at most
   * once per CHANGE_CHECK_MS; the cache is emptied only if `hot_changes` moved too, since most such
   * commits are the receipt writer thread's (./sqlite-receipts.ts), which change none of these rows.
   * So a revocation or a rotated secret is seen by the next request (from another connection: by any
   * request a millisecond later), without three queries per call. Values are frozen. A clock, not a
   * flag re-armed with setImmediate each event-loop turn: that immediate cost an extra pass of the
   * loop, ~3 µs per request at concurrency 16 (measured in pairs).
   */
  read<T extends object | null>(map: Map<string, T>, key: string): T | undefined {
    const now = performance.now();
    if (now - this.checkedAt >= CHANGE_CHECK_MS) {
      this.checkedAt = now;
      const version = this.dataVersion.get() as number;
      if (version !== this.stamp) {
        // Read after data_version: a commit between the two reads is seen here or at the next check.
        // The stamp moves only once the count is read, so a failed read fails every read after it
        // rather than serving kept rows.
        const changes = this.changeCount.get() as number;
        this.stamp = version;
        if (changes !== this.changes) {
          this.clear();
          this.changes = changes;
        }
      }
    }
    return map.get(key);
  }

  keep<T extends object | null>(map: Map<string, T>, key: string, value: T): T {
    if (++this.rows > HOT_ROWS) this.clear();
    map.set(key, value);
    return value;
  }

  /** Called by every write to a table `read` serves (tokens, workspace_services, secrets). */
  clear() {
    this.tokens.clear();
    this.services.clear();
    // Each bucket's map too: a secret read looks its bucket's map up before `read` may clear.
    for (const inBucket of this.secrets.values()) inBucket.clear();
    this.secrets.clear();
    this.rows = 0;
  }
}
