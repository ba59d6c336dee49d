// The Engine's side of the sandbox: a small pool of worker processes (./worker.ts) that create
// isolates and run scripts, so neither `new Isolate` nor a script's bootstrap ever blocks the event
// loop that serves HTTP. Host bridges come back here and run against the real host.
//
// Processes, not threads: V8 cannot always recover from an isolate that runs out of memory (a Map
// or array whose next growth overshoots the limit aborts the whole process, as isolated-vm's own
// documentation warns), so a hostile script may take its worker down with it, never the Engine.
// The run then ends as crashed and the next run gets a fresh worker.
import type { ChildProcess } from 'node:child_process';
import { availableParallelism, constants } from 'node:os';
import { detectConfinement, scriptProcessOf, spawnWorker, type Confinement } from './confinement.ts';
import type { CompiledScript, PoolStats, SandboxHost, SandboxOutcome } from './run.ts';

export type ToWorker =
  | { type: 'run'; run: number; code: CompiledScript; tenant: string; budgetMs: number; resultCapBytes: number | undefined }
  | { type: 'stats' }
  | { type: 'cancel'; run: number }
  | { type: 'reply'; call: number; ok: true; value: unknown }
  | { type: 'reply'; call: number; ok: false; message: string }
  | { type: 'close' };

export type FromWorker =
  | { type: 'host'; run: number; call: number; method: keyof SandboxHost; args: unknown[] }
  | { type: 'done'; run: number; outcome: SandboxOutcome }
  | { type: 'stats'; stats: PoolStats };

export interface SandboxRun {
  code: CompiledScript;
  /** Whose run this is (the caller's token): runs of one tenant may reuse its isolates, never another's. */
  tenant: string;
  host: SandboxHost;
  /** Milliseconds left in the execute budget. */
  budgetMs: number;
  /** The largest returned value (JSON bytes) the worker hands back (default 1 MiB); a larger one is refused there, never copied here. */
  resultCapBytes?: number;
  signal: AbortSignal;
}

interface Pending {
  host: SandboxHost;
  tenant: string;
  settle: (outcome: SandboxOutcome) => void;
  /** Set once the script reached the host (a call, session state): running it again could repeat that. */
  bridged: boolean;
}

/** How long a worker may take to stop by itself when asked. */
const CLOSE_WAIT_MS = 5_000;

/** Tenants a worker remembers having served (its pool keeps at most 8 reusable isolates). */
const TENANTS_REMEMBERED = 16;

/**
 * Runs a worker process takes before it is replaced (once idle): what isolates leave behind in a
 * process' native memory (allocator fragmentation) then never accumulates for long.
 */
const RUNS_PER_WORKER = 50_000;

/** How much longer than a run's budget the Engine waits before it gives the run up. */
const GRACE_MS = 5_000;

/** The least budget worth running a lost run again with. */
const RERUN_MIN_MS = 250;
/**
 * How often a lost run is run again. Twice: workers that stop together (a host that kills them all)
 * may not have reported it yet when the first rerun picks one of them; the second goes to a worker
 * that has not been lost.
 */
const MAX_RERUNS = 2;

/** How long a worker may take to answer a stats request. */
const STATS_WAIT_MS = 2_000;

/**
 * How long the tenants with runs on a worker V8 aborted (out of memory) are kept apart: each one's
 * runs go to a worker holding only its own runs (or an idle one), and other tenants' runs go where
 * none of theirs are. A script resubmitted over and over then takes down only its own worker, and
 * a harmless tenant that shared the first crash stops sharing at once (it is confined to one
 * worker for the while, which costs it concurrency, not runs).
 */
const SUSPECT_MS = 10 * 60_000;

/**
 * How a worker ended: its signal, also when bubblewrap, which hosts it, reports the signal that
 * ended it as an exit code (128 + the signal's number).
 */
function endOf(code: number | null, signal: NodeJS.Signals | null, confinement: Confinement): { code: number | null; signal: NodeJS.Signals | null } {
  if (signal || confinement.level !== 'bwrap' || code === null || code <= 128) return { code, signal };
  const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0] as NodeJS.Signals | undefined;
  return name ? { code: null, signal: name } : { code, signal };
}

/** How a worker ended, for the log: its exit code, or the signal that ended it (SIGABRT: V8 gave up on memory). */
export type WorkerExit = {
  code: number | null;
  signal: NodeJS.Signals | null;
  expected: boolean;
  /** Tenants with runs on a worker V8 aborted (out of memory): one of them took it down. */
  outOfMemory: string[];
};

class SandboxWorker {
  readonly process: ChildProcess;
  readonly runs = new Map<number, Pending>();
  /** Tenants whose runs came here lately, least recent first: their isolates may be waiting here. */
  readonly tenants = new Set<string>();
  private readonly statsWaiting: { resolve: (stats: PoolStats) => void; reject: (err: Error) => void }[] = [];
  /** Set once the Engine asked it to stop. */
  closing = false;
  /** Runs sent to it so far. */
  started = 0;

  constructor(warmIsolates: number, confinement: Confinement, onExit: (w: SandboxWorker, exit: WorkerExit) => void) {
    this.process = spawnWorker(confinement, { args: [String(warmIsolates)] });
    // An idle worker keeps nothing alive.
    this.process.unref();
    this.process.channel?.unref();
    this.process.on('message', (message: FromWorker) => this.receive(message));
    this.process.on('error', () => undefined); // a failed send or spawn; 'exit' follows and settles the runs
    this.process.on('exit', (exitCode, exitSignal) => {
      const { code, signal } = endOf(exitCode, exitSignal, confinement);
      // V8 aborts (SIGABRT, or SIGTRAP) when an isolate's heap overshoots what it can recover from.
      const outOfMemory = !this.closing && (signal === 'SIGABRT' || signal === 'SIGTRAP');
      const runs = [...this.runs.values()];
      for (const pending of runs) {
        // The only run there took it down: its script must change. Several: which one did is not
        // known, and the others may run again as they were.
        const outcome: SandboxOutcome = !outOfMemory
          ? { kind: 'crashed', message: 'the sandbox worker stopped during the run', lost: true }
          : runs.length === 1
            ? { kind: 'crashed', message: 'the script used more memory than an execute may (64 MB): its sandbox process ended' }
            : { kind: 'crashed', message: 'a script running in the same sandbox process ran it out of memory; this run did not finish', lost: true };
        pending.settle(outcome);
      }
      this.runs.clear();
      for (const { reject } of this.statsWaiting.splice(0)) reject(new Error('the sandbox worker stopped'));
      onExit(this, { code, signal, expected: this.closing, outOfMemory: outOfMemory ? runs.map((p) => p.tenant) : [] });
    });
  }

  /** Sends unless the worker is gone (false: its 'exit' settles, or settled, what waits on it). */
  send(message: ToWorker): boolean {
    if (!this.process.connected) return false;
    this.process.send(message);
    return true;
  }

  /** Its pool's figures; rejects when it does not answer within STATS_WAIT_MS (a hung worker). */
  stats(): Promise<PoolStats> {
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (stats: PoolStats) => {
          clearTimeout(timer);
          resolve(stats);
        },
        reject: (err: Error) => {
          clearTimeout(timer);
          const at = this.statsWaiting.indexOf(waiter);
          if (at >= 0) this.statsWaiting.splice(at, 1);
          reject(err);
        },
      };
      const timer = setTimeout(() => waiter.reject(new Error('the sandbox worker did not answer')), STATS_WAIT_MS);
      this.statsWaiting.push(waiter);
      if (!this.send({ type: 'stats' } satisfies ToWorker)) waiter.reject(new Error('the sandbox worker stopped'));
    });
  }

  /** Ends it at once (a worker that stopped answering); its 'exit' settles what was on it. */
  kill(): void {
    this.process.kill('SIGKILL');
  }

  served(tenant: string) {
    this.started++;
    this.tenants.delete(tenant);
    this.tenants.add(tenant);
    if (this.tenants.size > TENANTS_REMEMBERED) this.tenants.delete(this.tenants.values().next().value!);
  }

  private receive(message: FromWorker) {
    if (message.type === 'stats') return this.statsWaiting.shift()?.resolve(message.stats);
    const pending = this.runs.get(message.run);
    if (message.type === 'done') return pending?.settle(message.outcome); // settling removes the run
    const reply = (answer: ToWorker) => this.send(answer);
    if (!pending) return reply({ type: 'reply', call: message.call, ok: false, message: 'the execute run has ended' });
    pending.bridged = true;
    const args = message.args as [unknown, unknown, unknown];
    const answer = message.method === 'call' ? pending.host.call(...args) : pending.host[message.method](args[0] as unknown[]);
    answer.then(
      (value) => {
        try {
          reply({ type: 'reply', call: message.call, ok: true, value });
        } catch {
          // A value that cannot be copied to the worker must fail the bridge call, not leave the script
          // waiting out its budget. The serializer's message quotes the value: never passed on.
          reply({ type: 'reply', call: message.call, ok: false, message: 'the Engine could not hand the result to the script (a value that cannot be copied)' });
        }
      },
      (err: unknown) => reply({ type: 'reply', call: message.call, ok: false, message: String((err as Error)?.message ?? err) }),
    );
  }
}

/**
 * Worker processes running execute scripts; started on the first run (an Engine that never runs a
 * script holds none). Each run goes to an idle worker, in turn, else to the least busy one.
 */
export class SandboxWorkers {
  private readonly workers: SandboxWorker[] = [];
  private readonly size: number;
  private readonly warmIsolates: number;
  private readonly onWorkerExit: ((exit: WorkerExit) => void) | undefined;
  private readonly runsPerWorker: number;
  private nextRun = 0;
  private turn = 0;
  private closed = false;
  /** Workers past their runs, finishing the runs they have before they are stopped. */
  private readonly draining = new Set<SandboxWorker>();
  /** Workers being replaced, until they have ended. */
  private readonly retiring = new Set<Promise<void>>();
  /** Tenants kept apart, until when (see SUSPECT_MS). */
  private readonly suspects = new Map<string, number>();

  private confined: Confinement | undefined;

  /**
   * `runsPerWorker`: runs after which a worker process is replaced by a fresh one. `onWorkerExit`:
   * told when a worker ends (one that ended unasked was most likely taken down by a script).
   * `confinement`: how workers are confined (./confinement.ts); by default what this host allows,
   * decided when the first worker starts.
   */
  constructor(
    options: { workers?: number; warmIsolates?: number; runsPerWorker?: number; onWorkerExit?: (exit: WorkerExit) => void; confinement?: Confinement } = {},
  ) {
    this.size = Math.max(1, options.workers ?? Math.min(availableParallelism(), 4));
    this.warmIsolates = options.warmIsolates ?? 2;
    this.runsPerWorker = Math.max(1, options.runsPerWorker ?? RUNS_PER_WORKER);
    this.onWorkerExit = options.onWorkerExit;
    this.confined = options.confinement;
  }

  /** How the worker processes are confined. */
  get confinement(): Confinement {
    this.confined ??= detectConfinement();
    return this.confined;
  }

  run(options: SandboxRun): Promise<SandboxOutcome> {
    return this.attempt(options, MAX_RERUNS);
  }

  /**
   * One run on one worker. A run its worker lost (the worker stopped, or could not take it) before
   * the script reached the host had no effect anywhere, so it runs again on another worker (up to
   * `reruns` more times) with the budget it has left: a script that ran its process out of memory
   * then takes down only its own worker (its tenant is kept apart), not the runs that shared the first one.
   */
  private attempt(options: SandboxRun, reruns: number): Promise<SandboxOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'crashed', message: 'the Engine is shutting down' });
    const startedAt = performance.now();
    const worker = this.pick(options.tenant);
    worker.served(options.tenant);
    const id = this.nextRun++;
    return new Promise<SandboxOutcome>((resolve) => {
      let done = false;
      const onAbort = () => worker.send({ type: 'cancel', run: id } satisfies ToWorker);
      const guard = setTimeout(() => {
        settle({ kind: 'crashed', message: 'the sandbox did not answer within the budget', lost: true });
        // A worker that let a run's budget pass unanswered is hung: it gets no further runs.
        this.discard(worker);
      }, Math.max(0, options.budgetMs) + GRACE_MS);
      const settle = (outcome: SandboxOutcome) => {
        if (done) return;
        done = true;
        clearTimeout(guard);
        options.signal.removeEventListener('abort', onAbort);
        worker.runs.delete(id);
        // V8 can abort a process some time after one of its isolates ran out of memory (while it is
        // disposed, say), or was stopped near it: the worker gets no further runs, so none of them is
        // blamed for that abort.
        if ('exhausted' in outcome && outcome.exhausted && this.workers.includes(worker)) {
          this.remove(worker);
          this.draining.add(worker);
        }
        if (worker.runs.size === 0 && this.draining.has(worker)) this.retire(worker);
        const budgetMs = Math.floor(options.budgetMs - (performance.now() - startedAt));
        if (reruns > 0 && outcome.kind === 'crashed' && outcome.lost && !pending.bridged && !options.signal.aborted && budgetMs >= RERUN_MIN_MS) {
          // After the worker's exit is handled (it settles its runs first): the pool no longer holds it.
          setImmediate(() => resolve(this.attempt({ ...options, budgetMs }, reruns - 1)));
          return;
        }
        resolve(outcome);
      };
      const pending: Pending = { host: options.host, tenant: options.tenant, settle, bridged: false };
      worker.runs.set(id, pending);
      options.signal.addEventListener('abort', onAbort, { once: true });
      let sent = false;
      try {
        sent = worker.send({ type: 'run', run: id, code: options.code, tenant: options.tenant, budgetMs: options.budgetMs, resultCapBytes: options.resultCapBytes } satisfies ToWorker);
      } catch {
        /* not sendable: answered below */
      }
      if (!sent) return settle({ kind: 'crashed', message: 'the sandbox worker could not take the run', lost: true });
      if (options.signal.aborted) onAbort();
    });
  }

  /** Isolates created, contexts reused, isolates waiting for reuse and live timers, summed over the worker processes that answer (for tests and diagnostics). */
  async stats(): Promise<PoolStats> {
    // A worker that does not answer (hung, or gone meanwhile) counts for nothing rather than hold this up.
    const settled = await Promise.allSettled(this.workers.map((w) => w.stats()));
    const all = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    return all.reduce(
      (sum, s) => ({
        isolatesCreated: sum.isolatesCreated + s.isolatesCreated,
        contextsReused: sum.contextsReused + s.contextsReused,
        reusable: sum.reusable + s.reusable,
        hostTimers: sum.hostTimers + s.hostTimers,
      }),
      { isolatesCreated: 0, contextsReused: 0, reusable: 0, hostTimers: 0 },
    );
  }

  /** Worker processes running now (for tests and diagnostics). */
  get processes(): number {
    return this.workers.length;
  }

  /** Process IDs of the processes running scripts now, one per worker (for tests and diagnostics). */
  get pids(): number[] {
    return this.workers.flatMap((w) => (w.process.pid === undefined ? [] : [scriptProcessOf(w.process.pid, this.confinement)]));
  }

  /** Process IDs of the processes running scripts with runs in progress (for tests and diagnostics). */
  get busyPids(): number[] {
    return this.workers.flatMap((w) => (w.runs.size === 0 || w.process.pid === undefined ? [] : [scriptProcessOf(w.process.pid, this.confinement)]));
  }

  /** Asks every worker to stop (runs in progress end as cancelled); a worker that has not exited within 5 s is killed. */
  async close(): Promise<void> {
    this.closed = true;
    const draining = [...this.draining];
    this.draining.clear();
    await Promise.all([...this.workers.splice(0), ...draining].map((w) => this.stop(w)));
  }

  /** Takes a worker out of the pool (no further runs go to it). */
  private remove(w: SandboxWorker): void {
    const at = this.workers.indexOf(w);
    if (at >= 0) this.workers.splice(at, 1);
  }

  /** Takes a worker out of the pool and kills it. */
  private discard(w: SandboxWorker): void {
    this.remove(w);
    this.draining.delete(w);
    w.kill();
  }

  /** Stops a worker taken out of the pool, tracked until it has ended. */
  private retire(w: SandboxWorker): void {
    this.draining.delete(w);
    const stopping = this.stop(w).finally(() => this.retiring.delete(stopping));
    this.retiring.add(stopping);
  }

  private spawn(): SandboxWorker {
    const worker = new SandboxWorker(this.warmIsolates, this.confinement, (gone, exit) => {
      this.remove(gone);
      this.draining.delete(gone);
      if (exit.outOfMemory.length) this.suspectOf(exit.outOfMemory);
      this.onWorkerExit?.(exit);
    });
    this.workers.push(worker);
    return worker;
  }

  private suspect(tenant: string): boolean {
    const until = this.suspects.get(tenant);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.suspects.delete(tenant);
    return false;
  }

  /** Keeps apart the tenants with runs on a worker V8 aborted. */
  private suspectOf(tenants: string[]): void {
    const until = Date.now() + SUSPECT_MS;
    for (const t of tenants) this.suspects.set(t, until);
  }

  /** Resolves once the workers being replaced have ended (for tests and diagnostics). */
  async retired(): Promise<void> {
    await Promise.all(this.retiring);
  }

  private async stop(w: SandboxWorker): Promise<void> {
    if (w.process.exitCode !== null || w.process.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => w.process.once('exit', () => resolve()));
    w.closing = true;
    w.send({ type: 'close' } satisfies ToWorker);
    const timer = setTimeout(() => w.process.kill('SIGKILL'), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }

  /**
   * Starts the workers on first use. Then an idle worker that served this tenant lately (its isolates
   * may be waiting there), else an idle one, taking turns so each has time to refill; else the least busy.
   */
  private pick(tenant: string): SandboxWorker {
    // A worker whose channel closed is ending: its 'exit' has yet to take it out of the pool.
    for (const w of [...this.workers]) if (!w.process.connected) this.remove(w);
    // A worker past its runs leaves the pool at once (a replacement starts below) and is stopped
    // when the runs it has end: under steady load it is replaced all the same.
    for (const w of [...this.workers]) {
      if (w.started < this.runsPerWorker) continue;
      this.remove(w);
      if (w.runs.size === 0) this.retire(w);
      else this.draining.add(w);
    }
    // Workers started past the pool size (below) leave again once idle.
    for (const w of [...this.workers]) {
      if (this.workers.length <= this.size) break;
      if (w.runs.size !== 0) continue;
      this.remove(w);
      this.retire(w);
    }
    while (this.workers.length < this.size) this.spawn();
    // A tenant kept apart runs on a worker holding only its own runs, else an idle one; other
    // tenants' runs go where no kept-apart tenant's are, whenever such a worker exists.
    const holdsSuspect = (w: SandboxWorker) => {
      for (const p of w.runs.values()) if (this.suspect(p.tenant)) return true;
      return false;
    };
    const onlyOwn = (w: SandboxWorker) => {
      if (w.runs.size === 0) return false;
      for (const p of w.runs.values()) if (p.tenant !== tenant) return false;
      return true;
    };
    let from: SandboxWorker[];
    if (this.suspect(tenant)) {
      const own = this.workers.find(onlyOwn);
      from = own ? [own] : this.workers.filter((w) => w.runs.size === 0);
    } else {
      from = this.workers.filter((w) => !holdsSuspect(w));
    }
    // Every worker holds a kept-apart tenant's runs (or, for a kept-apart tenant, another's): one
    // more worker, up to twice the pool, rather than this run beside them.
    if (!from.length && this.workers.length < this.size * 2) from = [this.spawn()];
    if (!from.length) from = this.workers;
    const n = from.length;
    let idle: SandboxWorker | undefined;
    let idleAt = 0;
    for (let i = 0; i < n; i++) {
      const w = from[(this.turn + i) % n]!;
      if (w.runs.size !== 0) continue;
      if (w.tenants.has(tenant)) return w;
      if (!idle) [idle, idleAt] = [w, i];
    }
    if (idle) {
      this.turn = (this.turn + idleAt + 1) % n;
      return idle;
    }
    let best = from[0]!;
    for (const w of from) if (w.runs.size < best.runs.size || (w.runs.size === best.runs.size && w.tenants.has(tenant) && !best.tenants.has(tenant))) best = w;
    return best;
  }
}
