// One Engine per SQLite data dir. Two would each keep their own rate limits, OAuth refresh locks
// and MCP sessions over one database (PostgreSQL with Redis is the way to run several).
//
// The lock is an EXCLUSIVE transaction held open on a small SQLite file (engine.lock) for the
// Engine's life: SQLite takes it with the kernel's fcntl locks, which the kernel releases when the
// process dies, whatever its PID namespace (another container on the same volume) and however the
// directory is named. A PID file alone could not tell a live holder in another container, a PID
// reused after a crash, or two starters racing to take over the same stale file. engine.pid still
// names the holder, for the refusal's message.
import { mkdirSync, readFileSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../config/index.ts';

/** Data dirs this process's Engines hold, with their lock connections: held here, a lock whose release was dropped is never collected (and so never given back). */
const heldHere = new Map<string, Database.Database>();

const holderOf = (pidFile: string): string => {
  try {
    const pid = Number.parseInt(readFileSync(pidFile, 'utf8'), 10);
    return Number.isInteger(pid) ? ` (pid ${pid})` : '';
  } catch {
    return '';
  }
};

/** Takes the data dir for this Engine; returns the release. Throws ConfigError when a live Engine holds it. */
export function lockDataDir(path: string): () => void {
  mkdirSync(path, { recursive: true });
  // One directory, however it is named (a symlink, a relative path): one holder in this process.
  const dataDir = realpathSync(path);
  const pidFile = join(dataDir, 'engine.pid');
  const inUse = () => new ConfigError(`SVC_DATA_DIR ${path} is in use by another running Engine${holderOf(pidFile)}; stop it, or give this one its own SVC_DATA_DIR`);
  if (heldHere.has(dataDir)) throw inUse();

  let lock: Database.Database | undefined;
  try {
    lock = new Database(join(dataDir, 'engine.lock'), { timeout: 0 });
    lock.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    lock?.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw inUse();
    throw new ConfigError(`SVC_DATA_DIR ${path} cannot be used: its lock file (engine.lock) cannot be taken: ${(err as Error).message}`);
  }
  try {
    writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
  } catch (err) {
    lock.close(); // also ends its transaction: the lock is given back
    throw err;
  }
  heldHere.set(dataDir, lock);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    heldHere.delete(dataDir);
    try {
      // Only our own: an Engine that took the dir over since would lose its name.
      if (readFileSync(pidFile, 'utf8').trim() === String(process.pid)) unlinkSync(pidFile);
    } catch {
      /* already gone */
    }
    lock.close();
  };
}
