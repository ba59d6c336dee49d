// One Engine per SQLite data dir. Two would each keep their own rate limits, OAuth refresh locks
// and MCP sessions over one database (PostgreSQL with Redis is the way to run several). The lock
// is a file holding the owner's PID: one left by a process that died is taken over.
import { mkdirSync, readFileSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/index.ts';

/** Data dirs this process's Engines hold (an in-process Engine's PID is our own). */
const heldHere = new Set<string>();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by another user
  }
};

/** Takes the data dir for this Engine; returns the release. Throws ConfigError when a live Engine holds it. */
export function lockDataDir(path: string): () => void {
  mkdirSync(path, { recursive: true });
  // One directory, however it is named (a symlink, a relative path): one holder in this process.
  const dataDir = realpathSync(path);
  const file = join(dataDir, 'engine.pid');
  for (;;) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner = Number.NaN;
    try {
      owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
    } catch {
      /* removed meanwhile: try again */
    }
    const ours = owner === process.pid;
    if (Number.isInteger(owner) && ((ours && heldHere.has(dataDir)) || (!ours && alive(owner)))) {
      throw new ConfigError(`SVC_DATA_DIR ${path} is in use by another running Engine (pid ${owner}); stop it, or give this one its own SVC_DATA_DIR`);
    }
    try {
      unlinkSync(file); // left by an Engine that is gone
    } catch (err) {
      // Gone already (another starter took it over first: the next round sees whose it is). Any
      // other failure (a read-only dir, engine.pid a directory) would repeat forever.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new ConfigError(`SVC_DATA_DIR ${path}: the lock file of an Engine that is gone (engine.pid) cannot be removed: ${(err as Error).message}`);
      }
    }
  }
  heldHere.add(dataDir);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    heldHere.delete(dataDir);
    try {
      unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
}
