// Migrations opened concurrently, the data-dir lock (racing starters, aliases, PID namespaces, reused
// PIDs), and a data dir the Engine cannot write (found by review). Some tests use `unshare` (root), as on CI.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/index.ts';
import { lockDataDir } from '../../src/engine/data-dir-lock.ts';

const root = resolve(import.meta.dirname, '../..');
const storeUrl = pathToFileURL(join(root, 'src/store/sqlite.ts')).href;
const lockUrl = pathToFileURL(join(root, 'src/engine/data-dir-lock.ts')).href;
const bin = join(root, 'src/bin/svc-engine.ts');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const track = (child: ChildProcess) => {
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  return { child, output: () => out };
};
const deadPid = async () => {
  const dead = spawn(process.execPath, ['-e', '0']);
  await once(dead, 'exit');
  return dead.pid!;
};

const canUnshare = (args: string[]) => process.platform === 'linux' && spawnSync('unshare', [...args, 'true']).status === 0;
const mountNamespaces = canUnshare(['--mount']);

describe('SQLite migrations opened concurrently', () => {
  it('two processes opening a fresh engine.db at once both get a migrated store', async () => {
    // Found by review: SqliteStore.migrate (src/store/sqlite.ts:319) reads user_version before taking the write lock, so the second opener re-runs migration 1 ("table workspace_services already exists").
    const dir = tempDir('svc-review-migrate-');
    const file = join(dir, 'engine.db');
    // Another connection (a starting `svc-engine serve`, say) holds the write lock while the CLI opens the file.
    const holder = new Database(file);
    holder.pragma('journal_mode = WAL');
    holder.exec('BEGIN IMMEDIATE');
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { SqliteStore } = await import(${JSON.stringify(storeUrl)});
         console.log('opening');
         try { await new SqliteStore(${JSON.stringify(file)}).close(); console.log('ok'); } catch (err) { console.log('failed: ' + err.message); }`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const { output } = track(child);
    for (let i = 0; i < 200 && !output().includes('opening'); i++) await sleep(25);
    await sleep(500); // the child has read user_version 0 and waits on the lock (busy_timeout 5 s)
    holder.exec('ROLLBACK');
    holder.close();
    let here = 'ok';
    try {
      await new SqliteStore(file).close();
    } catch (err) {
      here = `failed: ${(err as Error).message}`;
    }
    await once(child, 'exit');
    expect({ here, child: output().trim().split('\n').at(-1) }).toEqual({ here: 'ok', child: 'ok' });
  });
});

describe('data-dir lock', () => {
  /** Runs lockDataDir(dir) in a child (optionally inside `unshare …`): LOCKED (held for holdMs) or the refusal. */
  const lockIn = (dir: string, holdMs: number, wrap: string[] = []) => {
    const code = `import { lockDataDir } from ${JSON.stringify(lockUrl)}; try { lockDataDir(${JSON.stringify(dir)}); console.log('LOCKED'); setTimeout(() => {}, ${holdMs}); } catch (err) { console.log('refused: ' + err.message); }`;
    const [command, ...args] = [...wrap, process.execPath, '--input-type=module', '-e', code];
    return track(spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  };

  // Found by review: two starters judging the same engine.pid stale could both take the dir (one deleted the other's fresh lock).
  it('lets exactly one of several starters racing for a dir with a stale engine.pid take it', async () => {
    const dir = tempDir('svc-review-lock-race-');
    writeFileSync(join(dir, 'engine.pid'), `${await deadPid()}\n`);
    // The winner holds the lock until the test ends (cleanup kills it), so every starter meets it
    // however slowly the six processes start on a loaded machine; the test waits until all answered.
    const runs = Array.from({ length: 6 }, () => lockIn(dir, 60_000));
    for (let i = 0; i < 800 && runs.some((r) => !/LOCKED|refused/.test(r.output())); i++) await sleep(25);
    const outputs = runs.map((r) => r.output());
    expect(outputs.filter((o) => o.includes('LOCKED'))).toHaveLength(1);
    expect(outputs.filter((o) => o.includes('in use by another running Engine'))).toHaveLength(5);
  });

  // Found by review: a live Engine in another PID namespace (another container on the same volume) looked dead to a PID check.
  it('is not taken over from another PID namespace, nor held by a reused PID', async () => {
    const dir = tempDir('svc-review-lock-ns-');
    cleanups.push(lockDataDir(dir));
    const other = lockIn(dir, 0, ['unshare', '--pid', '--fork']);
    await once(other.child, 'exit');
    expect(other.output()).toMatch(/refused: .*in use by another running Engine/);
    // engine.pid naming a live process that holds no lock (a PID reused after a crash) does not block a start.
    const free = tempDir('svc-review-lock-reused-');
    writeFileSync(join(free, 'engine.pid'), `${process.ppid}\n`);
    const starter = lockIn(free, 0);
    await once(starter.child, 'exit');
    expect(starter.output()).toContain('LOCKED');
  });

  it('is not taken over by a second Engine in this process that names the same data dir through a symlink', async () => {
    // Found by review: heldHere (src/engine/data-dir-lock.ts:9,37-38) is keyed by the path as given, so an alias of a dir this process holds looks like our own stale lock and is taken over.
    const dir = tempDir('svc-review-lock-alias-');
    const link = `${dir}-link`;
    symlinkSync(dir, link);
    cleanups.push(() => rmSync(link, { force: true }));
    cleanups.push(lockDataDir(dir));
    let second: (() => void) | undefined;
    try {
      second = lockDataDir(link);
    } catch (err) {
      expect((err as Error).message).toMatch(/in use by another running Engine/);
    }
    second?.();
    expect(second).toBeUndefined();
  });

});

describe('a data dir the Engine cannot write', () => {
  /** Runs `svc-engine serve` in a private mount namespace, after `setup` (sh) prepared $M (a tmpfs); at most 10 s. */
  const serveIn = (setup: string) => {
    const base = tempDir('svc-review-mnt-');
    const mnt = join(base, 'm');
    mkdirSync(mnt);
    const script = `set -e; M=${mnt}; mount -t tmpfs -o size=256k tmpfs "$M"; ${setup}
      exec timeout -s KILL 10 "${process.execPath}" --no-node-snapshot "${bin}" serve`;
    const run = spawnSync('unshare', ['--mount', 'sh', '-c', script], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, SVC_DATA_DIR: join(mnt, 'data'), SVC_HTTP_PORT: '0', SVC_GRPC_PORT: '0', SVC_LOG_LEVEL: 'silent' },
    });
    return { status: run.status, stderr: run.stderr.trim() };
  };

  it('read-only data dir holding a stale engine.pid: one line and exit 2, not a start that spins forever', async () => {
    // Found by review: lockDataDir (src/engine/data-dir-lock.ts:41-45) swallows every unlink error and loops, so a stale lock it cannot delete (EROFS, EACCES) hangs start-up at 100% CPU.
    const stale = await deadPid();
    const run = serveIn(`mkdir "$M/data"; echo ${stale} > "$M/data/engine.pid"; mount -o remount,ro "$M"`);
    expect(run.status).toBe(2); // today: still spinning when the 10 s timeout SIGKILLs it (status null)
    expect(run.stderr).toMatch(/^svc-engine: SVC_DATA_DIR .*\n?$/);
  });

  it('full data dir: one line naming SVC_DATA_DIR and exit 2, not an ENOSPC stack trace', async () => {
    // Found by review: operatorProblem (src/bin/commands.ts:85) does not treat ENOSPC/EDQUOT as a data-dir problem, so a full disk at the lock write is an uncaught stack trace (exit 1) and leaves an empty engine.pid.
    const run = serveIn(`mkdir "$M/data"; dd if=/dev/zero of="$M/fill" bs=4k count=1000 2>/dev/null || true`);
    expect(run.stderr.split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^svc-engine: SVC_DATA_DIR .*(no space|ENOSPC|disk is full)/i);
    expect(run.status).toBe(2);
  });
});
