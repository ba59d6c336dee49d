// Sandbox worker processes are confined (src/sandbox/confinement.ts): host-side code running in a
// worker started exactly as the Engine starts its own (fixtures/sandbox-probe.ts, loaded before the
// worker's module) cannot read the data dir or master.key, open a socket to the host, spawn a
// process, write a file or start a thread; the same probe outside the sandbox can do each. The
// Engine's own workers run unprivileged, with no_new_privs, no capabilities, in their own network
// namespace and in `/`; the level is logged at start and reported by /readyz. This machine has
// bubblewrap (.ci/run installs it; fixtures/prerequisites.ts names it), so the level here is `bwrap`;
// the permission model alone (level `permission`) is checked too.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { compileScript, detectConfinement, spawnWorker, type Confinement, type SandboxHost } from '../../src/sandbox/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import type { Attempt, ProbeRequest } from '../fixtures/sandbox-probe.ts';

const PROBE = fileURLToPath(new URL('../fixtures/sandbox-probe.ts', import.meta.url));
const WORKER_MODULE = fileURLToPath(new URL('../../src/sandbox/run.ts', import.meta.url));

type Results = Record<'readOwnModule' | 'readMasterKey' | 'readDatabase' | 'listDataDir' | 'readPasswd' | 'connect' | 'spawn' | 'write' | 'workerThread', Attempt>;

/** Sends the probe its request and waits for its answer. */
function probe(child: ChildProcess, request: ProbeRequest): Promise<Results> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the probe did not answer')), 30_000);
    child.on('message', (m: { type?: string; results?: Results }) => {
      if (m?.type !== 'probed') return;
      clearTimeout(timer);
      resolve(m.results!);
    });
    child.once('exit', (code, signal) => reject(new Error(`the probed process ended (${code ?? signal})`)));
    child.send(request);
  });
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

const host: SandboxHost = {
  call: async () => ({ value: null }),
  sessionGet: async () => ({ value: null }),
  sessionSet: async () => ({ value: null }),
  sessionPage: async () => ({ value: { items: [] } }),
};

/** `Key:\tvalue` lines of /proc/<pid>/status. */
function status(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  );
}

describe('sandbox worker confinement', () => {
  let t: TestEngine;
  let confinement: Confinement;
  let request: ProbeRequest;
  const writeTo = join(tmpdir(), `svc-sandbox-probe-${process.pid}`);

  beforeAll(async () => {
    t = await startTestEngine();
    confinement = t.engine.deps.sandbox.confinement;
    request = { type: 'probe', dataDir: t.dataDir, port: Number(new URL(t.url).port), allowed: WORKER_MODULE, writeTo };
  });
  afterAll(async () => {
    rmSync(writeTo, { force: true });
    await t.stop();
  });

  it('confines workers with bubblewrap here, says so at start and in /readyz', async () => {
    expect({ level: confinement.level, fallback: confinement.fallback }).toEqual({ level: 'bwrap', fallback: undefined });
    expect(t.logs.some((line) => line.includes('"confinement":"bwrap"') && line.includes('sandbox workers confined'))).toBe(true);
    const ready = (await (await fetch(`${t.url}/readyz`)).json()) as { sandbox: unknown };
    expect(ready.sandbox).toEqual({ confinement: 'bwrap' });
  });

  it('lets code in a worker read only its own modules: no data dir, no socket, no process, no write, no thread', async () => {
    // A worker started as the Engine starts its own, with the probe loaded before the worker's module.
    const worker = spawnWorker(confinement, { args: ['1'], preload: PROBE });
    try {
      const results = await probe(worker, request);
      expect(results.readOwnModule).toEqual({ ok: true });
      for (const name of ['readMasterKey', 'readDatabase', 'listDataDir', 'readPasswd', 'spawn', 'write', 'workerThread'] as const) {
        expect({ name, ...results[name] }).toEqual({ name, ok: false, error: 'ERR_ACCESS_DENIED' });
      }
      // Its own network namespace: nothing listens on its loopback, and the host's is out of reach.
      expect(results.connect).toEqual({ ok: false, error: 'ECONNREFUSED' });
      expect(existsSync(writeTo)).toBe(false);
      // The same process still runs scripts: this is a working worker, not a crippled copy.
      const done = new Promise((resolve) => worker.on('message', (m: { type?: string; outcome?: unknown }) => m?.type === 'done' && resolve(m.outcome)));
      worker.send({ type: 'run', run: 1, code: await compileScript('return 6 * 7'), tenant: 'probe', budgetMs: 10_000, resultCapBytes: undefined });
      expect(await done).toEqual({ kind: 'returned', json: '42' });
    } finally {
      await stopped(worker);
    }
  }, 60_000);

  it('is what stops the probe: unconfined, the same code reads the master key, connects, spawns and writes', async () => {
    const plain = spawn(process.execPath, ['--import', PROBE, '-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced' });
    try {
      const results = await probe(plain, request);
      for (const name of Object.keys(results) as (keyof Results)[]) expect({ name, ...results[name] }).toEqual({ name, ok: true });
    } finally {
      await stopped(plain);
      rmSync(writeTo, { force: true });
    }
  }, 60_000);

  it('still refuses files, processes and threads with the permission model alone (level `permission`), though not the network', async () => {
    const permission = detectConfinement({ mode: 'permission' });
    expect({ level: permission.level, user: permission.user }).toEqual({ level: 'permission', user: process.getuid!() === 0 ? { uid: 65534, gid: 65534 } : undefined });
    const worker = spawnWorker(permission, { args: ['1'], preload: PROBE });
    try {
      const results = await probe(worker, request);
      expect(results.readOwnModule).toEqual({ ok: true });
      for (const name of ['readMasterKey', 'readDatabase', 'listDataDir', 'readPasswd', 'spawn', 'write', 'workerThread'] as const) {
        expect({ name, ...results[name] }).toEqual({ name, ok: false, error: 'ERR_ACCESS_DENIED' });
      }
      expect(results.connect).toEqual({ ok: true }); // what only bubblewrap takes away
    } finally {
      await stopped(worker);
    }
  }, 60_000);

  it.runIf(process.getuid!() === 0)('says at start when workers cannot run as their user at all (a checkout only root can read)', () => {
    // The sandbox modules in a directory only root may enter, as a clone in /root would be.
    const home = mkdtempSync(join(tmpdir(), 'svc-private-'));
    try {
      chmodSync(home, 0o700);
      cpSync(fileURLToPath(new URL('../../src/sandbox', import.meta.url)), join(home, 'src/sandbox'), { recursive: true });
      cpSync(fileURLToPath(new URL('../../package.json', import.meta.url)), join(home, 'package.json'));
      symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(home, 'node_modules'));
      const script = `import { detectConfinement } from ${JSON.stringify(join(home, 'src/sandbox/confinement.ts'))}; console.log(JSON.stringify(detectConfinement()));`;
      const c = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Confinement;
      expect(c).toMatchObject({ level: 'permission', fallback: expect.stringMatching(/^bubblewrap cannot confine here \(.*Permission denied\)$/) });
      expect(c.unusable).toMatch(/^sandbox workers cannot start as uid 65534, gid 65534: /);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);

  it('takes its settings from the environment, refusing what it cannot use', () => {
    expect(loadConfig({})).toMatchObject({ sandboxConfinement: 'auto', sandboxUid: 65534, sandboxGid: 65534 });
    expect(loadConfig({ SVC_SANDBOX_CONFINEMENT: 'bwrap', SVC_SANDBOX_UID: '1000', SVC_SANDBOX_GID: '1000' })).toMatchObject({ sandboxConfinement: 'bwrap', sandboxUid: 1000, sandboxGid: 1000 });
    expect(() => loadConfig({ SVC_SANDBOX_CONFINEMENT: 'namespaces' })).toThrow(/^SVC_SANDBOX_CONFINEMENT must be auto or bwrap or permission \(got 'namespaces'\)$/);
    expect(() => loadConfig({ SVC_SANDBOX_UID: '0' })).toThrow(/^SVC_SANDBOX_UID must be an integer from 1 to/);
  });

  it("runs the Engine's own workers unprivileged, without capabilities, with no_new_privs, in their own network namespace, in /, below the Engine's priority", async () => {
    const sandbox = t.engine.deps.sandbox;
    const outcome = await sandbox.run({ code: await compileScript('return 1'), tenant: 'tok_probe', host, budgetMs: 10_000, signal: new AbortController().signal });
    expect(outcome).toEqual({ kind: 'returned', json: '1' });
    const [pid] = sandbox.pids;
    const worker = status(pid!);
    expect(readFileSync(`/proc/${pid}/comm`, 'utf8').trim()).toBe('svc-sandbox');
    expect(worker.Uid!.split(/\s+/)).not.toContain('0');
    expect(worker.Gid!.split(/\s+/)).not.toContain('0');
    if (process.getuid!() === 0) expect(worker.Uid!.split(/\s+/)[0]).toBe('65534');
    expect(worker.NoNewPrivs).toBe('1');
    expect(worker.CapEff).toBe('0000000000000000');
    expect(readlinkSync(`/proc/${pid}/ns/net`)).not.toBe(readlinkSync('/proc/self/ns/net'));
    expect(readlinkSync(`/proc/${pid}/ns/pid`)).not.toBe(readlinkSync('/proc/self/ns/pid'));
    expect(readlinkSync(`/proc/${pid}/cwd`)).toBe('/');
    // Scripts run at a lower priority than the Engine (niceness + 5), so a spinning one leaves it the CPU.
    const niceness = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    expect(niceness(readFileSync(`/proc/${pid}/stat`, 'utf8'))).toBe(Math.min(19, niceness(readFileSync('/proc/self/stat', 'utf8')) + 5));
    // The worker renames itself (its argv is overwritten): its flags show on the bubblewrap above it.
    const parent = Number(status(Number(worker.PPid)).PPid);
    expect(readFileSync(`/proc/${parent}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining(['--unshare-all', '--permission', '--allow-addons']));
  }, 60_000);
});
