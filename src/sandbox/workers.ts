// The main thread's side of the sandbox: a small pool of worker threads (./worker.ts) that create
// isolates and run scripts, so neither `new Isolate` nor a script's bootstrap ever blocks the event
// loop that serves HTTP. Host bridges come back here and run against the real host.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CompiledScript, PoolStats, SandboxHost, SandboxOutcome } from './run.ts';

export type ToWorker =
  | { type: 'run'; run: number; code: CompiledScript; tenant: string; budgetMs: number }
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
  signal: AbortSignal;
}

interface Pending {
  host: SandboxHost;
  settle: (outcome: SandboxOutcome) => void;
}

/** How long a worker may take to stop by itself when asked. */
const CLOSE_WAIT_MS = 5_000;

/** Tenants a worker remembers having served (its pool keeps at most 8 reusable isolates). */
const TENANTS_REMEMBERED = 16;

/** How much longer than a run's budget the main thread waits before it gives the run up. */
const GRACE_MS = 5_000;

class SandboxWorker {
  readonly worker: Worker;
  readonly runs = new Map<number, Pending>();
  /** Tenants whose runs came here lately, least recent first: their isolates may be waiting here. */
  readonly tenants = new Set<string>();
  private readonly statsWaiting: { resolve: (stats: PoolStats) => void; reject: (err: Error) => void }[] = [];

  constructor(warmIsolates: number, onExit: (w: SandboxWorker) => void) {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), {
      workerData: { warmIsolates },
      name: 'svc-sandbox',
      // The thread that hosts untrusted scripts' isolates sees none of the Engine's environment
      // (SVC_MASTER_KEY, DATABASE_URL, REDIS_URL): nothing to find there should an isolate be escaped.
      env: {},
      // A worker's own heap holds only bridges and messages in flight: keep it small, so its garbage
      // is collected early instead of growing the process' RSS (scripts run in isolates outside it).
      resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 },
    });
    this.worker.unref();
    this.worker.on('message', (message: FromWorker) => this.receive(message));
    this.worker.on('error', () => undefined); // 'exit' follows and settles the runs
    this.worker.on('exit', () => {
      for (const pending of this.runs.values()) pending.settle({ kind: 'crashed', message: 'the sandbox worker stopped during the run', lost: true });
      this.runs.clear();
      for (const { reject } of this.statsWaiting.splice(0)) reject(new Error('the sandbox worker stopped'));
      onExit(this);
    });
  }

  stats(): Promise<PoolStats> {
    return new Promise((resolve, reject) => {
      this.statsWaiting.push({ resolve, reject });
      this.worker.postMessage({ type: 'stats' } satisfies ToWorker);
    });
  }

  served(tenant: string) {
    this.tenants.delete(tenant);
    this.tenants.add(tenant);
    if (this.tenants.size > TENANTS_REMEMBERED) this.tenants.delete(this.tenants.values().next().value!);
  }

  private receive(message: FromWorker) {
    if (message.type === 'stats') return this.statsWaiting.shift()?.resolve(message.stats);
    const pending = this.runs.get(message.run);
    if (message.type === 'done') return pending?.settle(message.outcome); // settling removes the run
    const reply = (answer: ToWorker) => this.worker.postMessage(answer);
    if (!pending) return reply({ type: 'reply', call: message.call, ok: false, message: 'the execute run has ended' });
    const args = message.args as [unknown, unknown, unknown];
    const answer = message.method === 'call' ? pending.host.call(...args) : pending.host[message.method](args[0] as unknown[]);
    answer.then(
      (value) => {
        try {
          reply({ type: 'reply', call: message.call, ok: true, value });
        } catch (err) {
          // A value the thread cannot receive (DataCloneError) must fail the bridge call, not leave the script waiting out its budget.
          reply({ type: 'reply', call: message.call, ok: false, message: `the Engine could not hand the result to the script (${(err as Error)?.name ?? 'error'})` });
        }
      },
      (err: unknown) => reply({ type: 'reply', call: message.call, ok: false, message: String((err as Error)?.message ?? err) }),
    );
  }
}

/**
 * Worker threads running execute scripts; started on the first run (an Engine that never runs a
 * script holds none). Each run goes to an idle worker, in turn, else to the least busy one.
 */
export class SandboxWorkers {
  private readonly workers: SandboxWorker[] = [];
  private readonly size: number;
  private readonly warmIsolates: number;
  private nextRun = 0;
  private turn = 0;
  private closed = false;

  constructor(options: { workers?: number; warmIsolates?: number } = {}) {
    this.size = Math.max(1, options.workers ?? Math.min(availableParallelism(), 4));
    this.warmIsolates = options.warmIsolates ?? 2;
  }

  run(options: SandboxRun): Promise<SandboxOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'crashed', message: 'the Engine is shutting down' });
    const worker = this.pick(options.tenant);
    worker.served(options.tenant);
    const id = this.nextRun++;
    return new Promise<SandboxOutcome>((resolve) => {
      let done = false;
      const onAbort = () => worker.worker.postMessage({ type: 'cancel', run: id } satisfies ToWorker);
      const guard = setTimeout(() => settle({ kind: 'crashed', message: 'the sandbox did not answer within the budget', lost: true }), Math.max(0, options.budgetMs) + GRACE_MS);
      const settle = (outcome: SandboxOutcome) => {
        if (done) return;
        done = true;
        clearTimeout(guard);
        options.signal.removeEventListener('abort', onAbort);
        worker.runs.delete(id);
        resolve(outcome);
      };
      worker.runs.set(id, { host: options.host, settle });
      options.signal.addEventListener('abort', onAbort, { once: true });
      worker.worker.postMessage({ type: 'run', run: id, code: options.code, tenant: options.tenant, budgetMs: options.budgetMs } satisfies ToWorker);
      if (options.signal.aborted) onAbort();
    });
  }

  /** Isolates created, contexts reused, isolates waiting for reuse and live timers, summed over the running threads (for tests and diagnostics). */
  async stats(): Promise<PoolStats> {
    const all = await Promise.all(this.workers.map((w) => w.stats()));
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

  /** Threads running now (for tests and diagnostics). */
  get threads(): number {
    return this.workers.length;
  }

  /** Asks every worker to stop (runs in progress end as cancelled); a worker that has not exited within 5 s is terminated. */
  async close(): Promise<void> {
    this.closed = true;
    const workers = this.workers.splice(0);
    await Promise.all(
      workers.map(async (w) => {
        const exited = new Promise<void>((resolve) => w.worker.once('exit', () => resolve()));
        w.worker.postMessage({ type: 'close' } satisfies ToWorker);
        const timer = setTimeout(() => void w.worker.terminate(), CLOSE_WAIT_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  /**
   * Starts the workers on first use. Then an idle worker that served this tenant lately (its isolates
   * may be waiting there), else an idle one, taking turns so each has time to refill; else the least busy.
   */
  private pick(tenant: string): SandboxWorker {
    while (this.workers.length < this.size) {
      const worker = new SandboxWorker(this.warmIsolates, (gone) => {
        const at = this.workers.indexOf(gone);
        if (at >= 0) this.workers.splice(at, 1);
      });
      this.workers.push(worker);
    }
    const n = this.workers.length;
    let idle: SandboxWorker | undefined;
    let idleAt = 0;
    for (let i = 0; i < n; i++) {
      const w = this.workers[(this.turn + i) % n]!;
      if (w.runs.size !== 0) continue;
      if (w.tenants.has(tenant)) return w;
      if (!idle) [idle, idleAt] = [w, i];
    }
    if (idle) {
      this.turn = (this.turn + idleAt + 1) % n;
      return idle;
    }
    let best = this.workers[0]!;
    for (const w of this.workers) if (w.runs.size < best.runs.size || (w.runs.size === best.runs.size && w.tenants.has(tenant) && !best.tenants.has(tenant))) best = w;
    return best;
  }
}
