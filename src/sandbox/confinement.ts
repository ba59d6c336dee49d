// How sandbox worker processes (./worker.ts) are confined, so that an escape from an isolate lands
// in a process that can do next to nothing (docs/operations/security.md):
//   - always, Node's permission model: reads only of the worker's own modules and of isolated-vm
//     with its native addon; no writes, no child processes, no worker threads, no WASI, no inspector;
//   - an Engine running as root starts them as an unprivileged uid and gid;
//   - where bubblewrap is installed and the host lets it create namespaces, inside it: a network
//     namespace with no interface but a loopback of its own, its own PID, IPC and UTS namespaces, a
//     read-only file system holding only the system libraries, node and those files (not the
//     checkout, not the data dir), no capabilities and no_new_privs.
// Every worker starts in `/`, never in the checkout or the data dir.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `auto`: bubblewrap when it works here, else the permission model alone. */
export type ConfinementMode = 'auto' | 'bwrap' | 'permission';
/** `bwrap`: the permission model inside bubblewrap's namespaces; `permission`: the permission model (and uid) only. */
export type ConfinementLevel = 'bwrap' | 'permission';

export interface Confinement {
  level: ConfinementLevel;
  /** The uid and gid workers run as; undefined when the Engine is not root (they run as its user). */
  user: { uid: number; gid: number } | undefined;
  /** Why bubblewrap is not used, when it is not. */
  fallback: string | undefined;
  /** The bubblewrap binary, at level `bwrap`. */
  bwrap: string | undefined;
  /** The only files and directories a worker may read. */
  reads: string[];
  /** Symbolic links on the way to them ([target, link]: a node_modules that is a link), made again inside bubblewrap. */
  links: [string, string][];
  /** Set when a worker could not start here at all (its user cannot read the checkout, say): why. */
  unusable: string | undefined;
}

export interface ConfinementOptions {
  mode?: ConfinementMode;
  /** Who workers run as when the Engine runs as root (default 65534, `nobody`). */
  uid?: number;
  gid?: number;
}

const SANDBOX_DIR = dirname(fileURLToPath(import.meta.url));
/** ./worker.ts and what it imports at run time (type-only imports are erased). A new import there goes here too. */
const WORKER_MODULES = ['worker.ts', 'run.ts', 'bridges.ts', 'bootstrap.ts', 'base64.ts'];
export const WORKER_FILE = join(SANDBOX_DIR, 'worker.ts');

/** The symbolic links on `path`, as [target, link]: bubblewrap makes them again, so a lookup through them works inside. */
function linksOn(path: string): [string, string][] {
  const links: [string, string][] = [];
  let current = '/';
  for (const part of path.split('/').filter(Boolean)) {
    const next = join(current, part);
    if (lstatSync(next).isSymbolicLink()) {
      links.push([readlinkSync(next), next]);
      current = realpathSync(next);
    } else current = next;
  }
  return links;
}

/**
 * A package as Node finds it from `from` (the nearest node_modules holding it): the path Node
 * looks it up at, its real directory (where Node loads it from) and the links between them.
 */
function packageFrom(name: string, from: string): { paths: string[]; dir: string; links: [string, string][] } {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) {
      const real = realpathSync(candidate);
      return { paths: real === candidate ? [real] : [candidate, real], dir: real, links: linksOn(candidate) };
    }
    if (dirname(dir) === dir) throw new Error(`the sandbox needs ${name}, which is not installed`);
  }
}

/**
 * What a worker must read: its modules, isolated-vm (its JavaScript and the prebuilt addon it picks)
 * and node-gyp-build, which picks it, where Node looks them up and where it loads them from.
 * node-gyp-build also asks whether /etc/alpine-release exists, and the permission model throws on a
 * question it does not allow.
 */
function workerNeeds(): { reads: string[]; links: [string, string][] } {
  const ivm = packageFrom('isolated-vm', SANDBOX_DIR);
  const gypBuild = packageFrom('node-gyp-build', ivm.dir);
  const links = [...ivm.links, ...gypBuild.links];
  // Node reads each link on the way too (to resolve it): a linked node_modules is readable through its link.
  const reads = [...WORKER_MODULES.map((m) => realpathSync(join(SANDBOX_DIR, m))), ...ivm.paths, ...gypBuild.paths, ...links.map(([, link]) => link), '/etc/alpine-release'];
  return { reads: outermost(reads), links };
}

/**
 * The paths not inside another of them, shortest first. Node 24's permission model misses a
 * directory given after a path inside it (`--allow-fs-read=/a/b/c --allow-fs-read=/a/b` does not allow `/a/b`).
 */
function outermost(paths: string[]): string[] {
  const kept: string[] = [];
  for (const path of [...new Set(paths)].sort((a, b) => a.length - b.length)) if (!kept.some((k) => path.startsWith(`${k}/`))) kept.push(path);
  return kept;
}

/** The package.json that says the worker's .ts files are ES modules (read by Node's loader, never by the script). */
function projectPackageJson(): string | undefined {
  for (let dir = SANDBOX_DIR; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Node's flags for a worker: its heap, then the permission model with only `reads` allowed. */
function nodeFlags(reads: string[], preload: string | undefined): string[] {
  return [
    '--no-node-snapshot',
    // Its own heap holds only bridges and messages in flight (scripts run in isolates outside it).
    '--max-old-space-size=128',
    '--max-semi-space-size=4',
    '--permission',
    // isolated-vm is a native addon; what it may read is still bounded below.
    '--allow-addons',
    // The warning that says so goes nowhere useful (stderr is ignored) and would hide a probe's error.
    '--disable-warning=SecurityWarning',
    ...reads.map((r) => `--allow-fs-read=${r}`),
    ...(preload ? [`--import=${preload}`] : []),
  ];
}

/** Binds the system libraries node loads (/usr, and /lib* as the host has them: directories or links into /usr). */
function systemBinds(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const dir of ['/lib', '/lib64', '/lib32', '/libx32']) {
    let stat;
    try {
      stat = lstatSync(dir);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else args.push('--ro-bind', dir, dir);
  }
  return args;
}

/** bubblewrap's arguments up to the command: every namespace, a read-only root holding only what a worker needs. */
function bwrapArgs(reads: string[], links: [string, string][], node: string): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', ...systemBinds()];
  const linked = (path: string) => links.some(([, link]) => path === link || path.startsWith(`${link}/`));
  const binds = [node, ...reads.filter((r) => existsSync(r) && !linked(r))];
  const pkg = projectPackageJson();
  if (pkg) binds.push(pkg);
  for (const path of binds) if (!path.startsWith('/usr/')) args.push('--ro-bind', path, path);
  for (const [target, link] of links) args.push('--symlink', target, link);
  args.push('--proc', '/proc', '--dev', '/dev', '--remount-ro', '/', '--chdir', '/');
  return args;
}

function findBwrap(): string | undefined {
  const path = (process.env.PATH ?? '').split(delimiter).filter((p) => p.startsWith('/'));
  for (const dir of ['/usr/bin', '/usr/local/bin', ...path]) {
    const file = join(dir, 'bwrap');
    if (existsSync(file)) return file;
  }
  return undefined;
}

const spawnUser = (c: Confinement) => (c.user ? { uid: c.user.uid, gid: c.user.gid } : {});

/** The command that starts a worker under `c`, with `tail` after the worker module: [file, arguments]. */
function workerCommand(c: Confinement, tail: string[], preload?: string): [string, string[]] {
  const reads = preload ? [...c.reads, preload] : c.reads;
  const node = [...nodeFlags(reads, preload), WORKER_FILE, ...tail];
  return c.level === 'bwrap' && c.bwrap ? [c.bwrap, [...bwrapArgs(reads, c.links, process.execPath), '--', process.execPath, ...node]] : [process.execPath, node];
}

/**
 * Starts a worker under `c` in its check mode (./worker.ts: it loads isolated-vm and ends) and
 * waits for it: undefined when it ran, else the line that says why not.
 */
function probe(c: Confinement): string | undefined {
  const [file, args] = workerCommand(c, ['--check']);
  const run = spawnSync(file, args, { ...spawnUser(c), cwd: '/', env: {}, encoding: 'utf8', timeout: 15_000 });
  if (run.status === 0) return undefined;
  const lines = `${run.stderr ?? ''}`.split('\n').map((l) => l.trim()).filter(Boolean);
  const said = lines.find((l) => /error|denied|cannot|can't|not permitted|no such/i.test(l)) ?? lines[0] ?? run.error?.message ?? `exit ${run.status ?? run.signal}`;
  return said.slice(0, 200);
}

/**
 * Decides how workers are confined here (once per option set: it may start bubblewrap once to see
 * that it can create namespaces). Never throws for a missing or refused bubblewrap: the answer's
 * `level` and `fallback` say what is in force, and the Engine refuses to start when `bwrap` was required.
 */
export function detectConfinement(options: ConfinementOptions = {}): Confinement {
  const mode = options.mode ?? 'auto';
  const key = `${mode}:${options.uid ?? ''}:${options.gid ?? ''}`;
  const known = detected.get(key);
  if (known) return known;
  const root = process.getuid?.() === 0;
  const { reads, links } = workerNeeds();
  const base: Confinement = {
    level: 'permission',
    user: root ? { uid: options.uid ?? 65534, gid: options.gid ?? 65534 } : undefined,
    fallback: undefined,
    bwrap: undefined,
    reads,
    links,
    unusable: undefined,
  };
  let confinement: Confinement | undefined;
  let fallback = 'SVC_SANDBOX_CONFINEMENT is permission';
  if (mode !== 'permission') {
    const bwrap = findBwrap();
    if (!bwrap) fallback = 'bubblewrap (bwrap) is not installed';
    else {
      // A worker in the namespaces and mounts it would get, loading isolated-vm.
      const inBwrap: Confinement = { ...base, level: 'bwrap', bwrap };
      const failed = probe(inBwrap);
      if (failed === undefined) confinement = inBwrap;
      else fallback = `bubblewrap cannot confine here (${failed})`;
    }
  }
  if (!confinement) {
    confinement = { ...base, fallback };
    // As another user, the checkout itself may be out of its reach (a clone in /root): better said at start than at each execute.
    const failed = base.user ? probe(confinement) : undefined;
    if (failed !== undefined) confinement.unusable = `sandbox workers cannot start as uid ${base.user!.uid}, gid ${base.user!.gid}: ${failed}`;
  }
  detected.set(key, confinement);
  return confinement;
}
const detected = new Map<string, Confinement>();

/** One line for the log and /readyz: the level and what it comprises. */
export function describeConfinement(c: Confinement): string {
  const user = c.user ? `uid ${c.user.uid}, gid ${c.user.gid}` : 'the Engine user';
  const layers = c.level === 'bwrap' ? 'Node permission model inside bubblewrap (no network, own PID namespace, read-only minimal file system)' : 'Node permission model only (network open)';
  return `${layers}, as ${user}`;
}

export interface WorkerProcessOptions {
  /** Arguments after the worker module. */
  args: string[];
  /**
   * For tests: a module the worker imports before its own (`--import`), made readable to it and
   * nothing else changed; how a test runs host-side code under the workers' real confinement.
   */
  preload?: string;
}

/**
 * Starts a worker process under `confinement`, with an empty environment and an IPC channel
 * (structured clone, as between threads). Its stdio is ignored: V8's last words on a crash are for
 * the Engine's log (an exit code or signal), not its stdout.
 */
export function spawnWorker(confinement: Confinement, options: WorkerProcessOptions): ChildProcess {
  const [file, args] = workerCommand(confinement, options.args, options.preload ? realpathSync(options.preload) : undefined);
  return spawn(file, args, {
    ...spawnUser(confinement),
    cwd: '/',
    // The process that hosts untrusted scripts' isolates sees none of the Engine's environment
    // (SVC_MASTER_KEY, DATABASE_URL, REDIS_URL): nothing to find there should an isolate be escaped.
    env: {},
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
}

/**
 * The process that runs scripts: the worker itself, or under bubblewrap the node process two levels
 * below it (bubblewrap, then its PID namespace's init). Falls back to `pid` until that exists.
 */
export function scriptProcessOf(pid: number, confinement: Confinement): number {
  if (confinement.level !== 'bwrap') return pid;
  let current = pid;
  for (let level = 0; level < 2; level++) {
    let children: string;
    try {
      children = readFileSync(`/proc/${current}/task/${current}/children`, 'utf8').trim();
    } catch {
      return pid;
    }
    const [child] = children.split(/\s+/);
    if (!child) return pid;
    current = Number(child);
  }
  return current;
}
