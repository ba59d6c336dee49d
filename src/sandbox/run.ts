// Runs one compiled `execute` script in a fresh isolated-vm context, in the calling thread. The
// Engine calls it inside sandbox worker processes (./worker.ts), so creating isolates and running
// scripts never blocks the thread that serves HTTP. The script sees only the functions of its
// environment (./bootstrap.ts); values cross by copy as JSON text, the host never runs a function
// the script supplies, and every host bridge is closed when the run ends.
import ivm from 'isolated-vm';
import { SourceMap } from 'node:module';
import { bridgeSource } from './bootstrap.ts';
import { base64Helper } from './base64.ts';
import { arrivals, bridgesFor, type SandboxHost, type Slot } from './bridges.ts';

export type { SandboxHost } from './bridges.ts';

export const MEMORY_LIMIT_MB = 64;
/** The largest returned value a run hands back unless told otherwise (an MCP execute's cap). */
export const DEFAULT_RESULT_CAP_BYTES = 1024 * 1024;

/** A script with its types stripped, and the source map back to the caller's lines (JSON text). */
export interface CompiledScript {
  js: string;
  mapJson: string;
}

export type SandboxOutcome =
  | { kind: 'returned'; json: string | undefined }
  /** The returned value's JSON is over the run's result cap: refused in the sandbox, the value never left it. */
  | { kind: 'too-large' }
  | { kind: 'threw'; error: ScriptFailure }
  /** `exhausted` (here and below): the script's isolate hit, or was stopped near, its memory limit; V8 may still abort the process hosting it. */
  | { kind: 'timeout'; exhausted?: boolean }
  | { kind: 'cancelled'; exhausted?: boolean }
  /** `lost`: the sandbox itself failed (its worker stopped, it did not answer), not the script. */
  | { kind: 'crashed'; message: string; lost?: boolean; exhausted?: boolean };

export interface ScriptFailure {
  name: string;
  message: string;
  line?: number | undefined;
  column?: number | undefined;
  /**
   * Set when the script threw an Engine refusal raised by a bridge (and did not catch it): the
   * host's id for it. The host answers from its own record, so a script cannot forge a code.
   */
  refusal?: number | undefined;
}

/** Maps a position in the compiled script back to the caller's line (1-based). */
function originalPosition(mapJson: string, stack: string | undefined): { line?: number; column?: number } {
  const match = stack?.match(/script\.js:(\d+):(\d+)/);
  if (!match) return {};
  const entry = new SourceMap(JSON.parse(mapJson)).findEntry(Number(match[1]) - 1, Number(match[2]) - 1) as { originalLine?: number; originalColumn?: number };
  if (entry?.originalLine === undefined) return {};
  return { line: entry.originalLine /* the wrapper adds one line above the body */, column: (entry.originalColumn ?? 0) + 1 };
}

/** An isolate and whose scripts it runs: once a run has taken it, only runs of that tenant. */
interface Home {
  isolate: ivm.Isolate;
  tenant: string | undefined;
  /** Runs it has served. */
  runs: number;
  /**
   * Resolvers of sleeps and bridge calls that finished runs left pending. They never resolve (no script code runs after
   * its run), and are held until the isolate is disposed: a host promise the isolate awaits that is
   * garbage-collected unresolved is rejected inside the isolate as "Promise was abandoned", which
   * isolated-vm can surface in whatever the isolate runs next — another run of the tenant.
   */
  held: (() => void)[];
}

/** A context that already holds the script environment (our code only; never user code), ready for one run. */
interface Warm {
  home: Home;
  context: ivm.Context;
  slot: Slot;
  refs: ivm.Reference[];
}

/**
 * Runs one isolate may serve before it is replaced. Each released context is garbage (~0.2 MB) that
 * V8 collects late, so an isolate's heap grows with its runs: short lives keep each near 6 MB, and
 * the replacement (~3 ms) is spread over its runs.
 */
const RUNS_PER_ISOLATE = 25;
/** Heap in use after a run above which the isolate is replaced instead of reused. */
const REUSE_HEAP_LIMIT_BYTES = 16 * 1024 * 1024;
/**
 * Growth of the worker process's memory during a run, as a share of MEMORY_LIMIT_MB, past which a
 * script stopped while it still ran counts as exhausted: V8 can be inside a collection or an
 * allocation (a Map's backing store doubling, say) that ends, after the run was answered, by
 * aborting the process. The process's, because a running isolate's own heap cannot be read without
 * waiting for its script.
 */
const NEAR_LIMIT_SHARE = 0.5;
/** Reusable isolates kept per pool (least recently used go first) and how long one may sit idle. */
const MAX_REUSABLE = 8;
const REUSABLE_IDLE_MS = 30_000;
/**
 * A waiting isolate is checked this often; one that used more than IDLE_CPU_NS of CPU while waiting
 * is running something a finished script left (a finalizer, say) and is disposed, so leftovers never
 * hold isolate threads other runs need.
 */
const WATCH_EVERY_MS = 250;
const IDLE_CPU_NS = 10_000_000n;
/**
 * Making the next context waits behind anything a finished script left running in its isolate (a
 * microtask loop, say); past this the isolate is disposed instead.
 */
const PREPARE_TIMEOUT_MS = 1_000;
/** Sleeps left pending by finished runs past which an isolate is replaced rather than reused. */
const MAX_HELD = 4_000;

/** A used isolate waiting for its tenant's next run, watched while it waits. */
interface Waiting {
  warm: Warm;
  watch: NodeJS.Timeout;
  /** The isolate's CPU time when it started waiting, and since when it waits. */
  cpu: bigint;
  since: number;
}

export interface PoolStats {
  /** Isolates created (ahead of time or for a run). */
  isolatesCreated: number;
  /** Runs served by a fresh context in an isolate an earlier run of the same tenant used. */
  contextsReused: number;
  /** Used isolates waiting, with a ready context, for their tenant's next run. */
  reusable: number;
  /** Timers alive on the pool's thread: scripts' sleeps and timers, so none outlives what it serves. */
  hostTimers: number;
}

/**
 * Isolates for runs. `new Isolate` blocks its thread (about 1–3 ms), so fresh ones are created ahead
 * of time while the owner is idle. Every run gets a fresh context (its own globals, builtins and
 * bridges) and an isolate no other run is using; after a run that ended normally its isolate gets a
 * new context and waits for the next run of the same tenant (the caller's token): tenants never share
 * an isolate. A run that timed out, was cancelled or crashed has its isolate disposed.
 */
export class IsolatePool {
  private readonly fresh: Warm[] = [];
  /** Ready contexts in isolates already used, per tenant; Map order is least recently used first. */
  private readonly reusable = new Map<string, Waiting[]>();
  private readonly size: number;
  private filling: Promise<void> | undefined;
  /** Contexts being made in used isolates (close waits for them). */
  private readonly preparing = new Set<Promise<unknown>>();
  private closed = false;
  private readonly counts = { isolatesCreated: 0, contextsReused: 0 };
  private reusableCount = 0;

  get stats(): PoolStats {
    return { ...this.counts, reusable: this.reusableCount, hostTimers: process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length };
  }

  constructor(size = 2) {
    this.size = size;
  }

  get warm(): number {
    return this.fresh.length;
  }

  /** A context with the script environment, in `home`'s isolate (on the isolate's own thread). */
  private async prepare(home: Home): Promise<Warm> {
    const slot: Slot = { host: undefined, settled: false, timers: new Map(), timerIds: new Map(), hold: (resolve) => home.held.push(resolve), pending: 0, received: 0, arrived: 0 };
    const refs = bridgesFor(slot);
    try {
      const context = await home.isolate.createContext();
      await context.evalClosure(bridgeSource, [...refs, new ivm.Callback(base64Helper)]);
      return { home, context, slot, refs };
    } catch (err) {
      for (const ref of refs) ref.release();
      throw err;
    }
  }

  private async create(): Promise<Warm> {
    const home: Home = { isolate: new ivm.Isolate({ memoryLimit: MEMORY_LIMIT_MB }), tenant: undefined, runs: 0, held: [] };
    this.counts.isolatesCreated++;
    try {
      return await this.prepare(home);
    } catch (err) {
      home.isolate.dispose();
      throw err;
    }
  }

  /** Tops the fresh isolates up, yielding between isolates; stops early when `busy()` says work arrived. */
  refill(busy: () => boolean = () => false): Promise<void> {
    this.filling ??= this.fill(busy).finally(() => (this.filling = undefined));
    return this.filling;
  }

  private async fill(busy: () => boolean): Promise<void> {
    while (!this.closed && this.fresh.length < this.size && !busy()) {
      const warm = await this.create();
      if (this.closed) warm.home.isolate.dispose();
      else this.fresh.push(warm);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** A ready context for a run of `tenant`: in an isolate of that tenant's if one waits, else a fresh one. */
  async take(tenant: string): Promise<Warm> {
    const waiting = this.reusable.get(tenant) ?? [];
    while (waiting.length) {
      const entry = waiting.at(-1)!;
      if (!this.idle(entry)) {
        this.drop(tenant, entry.warm); // removes it from `waiting`
        continue;
      }
      waiting.pop();
      if (!waiting.length) this.reusable.delete(tenant);
      this.reusableCount--;
      clearInterval(entry.watch);
      this.counts.contextsReused++;
      return entry.warm;
    }
    const warm = this.fresh.pop() ?? (await this.create());
    warm.home.tenant = tenant;
    return warm;
  }

  /** After a run that ended normally: its isolate gets a new context for the tenant's next run, or is disposed. */
  recycle(used: Warm): void {
    const { home } = used;
    home.runs++;
    used.context.release();
    if (this.closed || home.isolate.isDisposed || home.runs >= RUNS_PER_ISOLATE || home.held.length > MAX_HELD || !home.tenant) return dispose(home);
    const watchdog = setTimeout(() => dispose(home), PREPARE_TIMEOUT_MS);
    const making = (async () => {
      const heap = await home.isolate.getHeapStatistics();
      if (heap.used_heap_size > REUSE_HEAP_LIMIT_BYTES) throw new Error('heap too large to reuse');
      return this.prepare(home);
    })();
    this.preparing.add(making);
    making
      .then(
        (warm) => {
          if (!this.closed && !home.isolate.isDisposed) return this.keep(home.tenant!, warm);
          for (const ref of warm.refs) ref.release();
          dispose(home);
        },
        () => dispose(home),
      )
      .finally(() => {
        clearTimeout(watchdog);
        this.preparing.delete(making);
      });
  }

  /** Whether a waiting isolate is still usable: not disposed, nothing running in it since it started waiting. */
  private idle(entry: Waiting): boolean {
    const { isolate } = entry.warm.home;
    return !isolate.isDisposed && isolate.cpuTime - entry.cpu <= IDLE_CPU_NS;
  }

  private keep(tenant: string, warm: Warm) {
    const entry: Waiting = {
      warm,
      cpu: warm.home.isolate.cpuTime,
      since: Date.now(),
      watch: setInterval(() => {
        if (!this.idle(entry) || Date.now() - entry.since > REUSABLE_IDLE_MS) this.drop(tenant, warm);
      }, WATCH_EVERY_MS).unref(),
    };
    const list = this.reusable.get(tenant) ?? [];
    this.reusable.delete(tenant); // re-inserted last: most recently used
    this.reusable.set(tenant, [...list, entry]);
    this.reusableCount++;
    while (this.reusableCount > MAX_REUSABLE) {
      const [oldest, entries] = this.reusable.entries().next().value!;
      this.drop(oldest, entries[0]!.warm);
    }
  }

  private drop(tenant: string, warm: Warm) {
    const list = this.reusable.get(tenant);
    const at = list?.findIndex((e) => e.warm === warm) ?? -1;
    if (at < 0) return;
    clearInterval(list![at]!.watch);
    list!.splice(at, 1);
    if (!list!.length) this.reusable.delete(tenant);
    this.reusableCount--;
    for (const ref of warm.refs) ref.release();
    dispose(warm.home);
  }

  /** Disposes every isolate; resolves once isolates and contexts being made have been made and disposed too. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.fresh.splice(0)) dispose(w.home);
    for (const [tenant, list] of [...this.reusable]) for (const { warm } of [...list]) this.drop(tenant, warm);
    await this.filling?.catch(() => undefined);
    await Promise.all([...this.preparing].map((p) => p.catch(() => undefined)));
  }
}

function dispose(home: Home) {
  if (!home.isolate.isDisposed) home.isolate.dispose();
  home.held.length = 0; // nothing awaits them any more
}

/** `asked`: the bridge calls the script had started when it finished (./bootstrap.ts). */
type Finished = ({ ok: true; json?: string; tooLarge?: true } | { ok: false; error: ScriptFailure & { stack?: string } }) & { asked: number };

/** The envelope __svc_finish returns, or undefined when a script tampered with it. */
function parseFinish(text: unknown): Finished | undefined {
  let value: unknown;
  try {
    value = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
  const r = value as Partial<{ ok: unknown; json: unknown; tooLarge: unknown; asked: unknown; error: { name?: unknown; message?: unknown } }> | null;
  if (!r || typeof r !== 'object' || !Number.isSafeInteger(r.asked) || (r.asked as number) < 0) return undefined;
  if (r.ok === true && (r.json === undefined || typeof r.json === 'string') && (r.tooLarge === undefined || r.tooLarge === true)) return r as Finished;
  if (r.ok === false && r.error && typeof r.error === 'object' && typeof r.error.name === 'string' && typeof r.error.message === 'string') return r as Finished;
  return undefined;
}

export interface RunOptions {
  code: CompiledScript;
  /** Whose run this is (the caller's token): only runs of the same tenant share an isolate. */
  tenant: string;
  host: SandboxHost;
  /** Milliseconds left in the execute budget. */
  budgetMs: number;
  /** The largest returned value, in bytes of JSON, this run may hand back (default 1 MiB). */
  resultCapBytes?: number | undefined;
  signal: AbortSignal;
  pool: IsolatePool;
}

/**
 * Runs the compiled script. Timers, session and call bridges live on the host and are released
 * when the run settles, so nothing the script started can outlive it.
 */
export async function runScript(options: RunOptions): Promise<SandboxOutcome> {
  const resultCap = Math.floor(options.resultCapBytes ?? DEFAULT_RESULT_CAP_BYTES);
  const warm = await options.pool.take(options.tenant);
  const { home, context, slot, refs } = warm;
  const { isolate } = home;
  slot.host = options.host;

  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let finished = false;
  let outcome: SandboxOutcome;
  let stoppedNearLimit = false;
  const memoryAtStart = process.memoryUsage.rss();
  try {
    // One trip to the isolate's thread: define the script and start it; the answer is the promise
    // __svc_finish returns (the timeout bounds the synchronous part, the budget timer the rest).
    const run = context.eval(`${options.code.js}\n__svc_finish(__svc_main, ${resultCap})`, { filename: 'script.js', timeout: Math.max(1, options.budgetMs), promise: true, copy: true }) as unknown as Promise<string>;
    const stop = new Promise<SandboxOutcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout' }), Math.max(0, options.budgetMs));
      onAbort = () => resolve({ kind: 'cancelled' });
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
    });
    outcome = await Promise.race([
      run.then(async (text): Promise<SandboxOutcome> => {
        const result = parseFinish(text);
        if (!result) return { kind: 'threw', error: { name: 'Error', message: 'the script broke the sandbox environment (its result could not be read)' } };
        await arrivals(slot, result.asked);
        if (result.ok) return result.tooLarge || (result.json !== undefined && Buffer.byteLength(result.json) > resultCap) ? { kind: 'too-large' } : { kind: 'returned', json: result.json };
        const { stack, ...error } = result.error;
        return { kind: 'threw', error: { ...error, ...originalPosition(options.code.mapJson, stack) } };
      }),
      stop,
    ]);
    finished = outcome.kind === 'returned' || outcome.kind === 'threw';
  } catch (err) {
    const message = String((err as Error)?.message ?? err);
    if (/memory limit/i.test(message) || isolate.isDisposed) outcome = { kind: 'crashed', message: `the script exceeded the ${MEMORY_LIMIT_MB} MB memory limit`, exhausted: true };
    else if (/timed out/i.test(message)) outcome = { kind: 'timeout' };
    else outcome = { kind: 'threw', error: { name: (err as Error)?.name ?? 'Error', message, ...originalPosition(options.code.mapJson, (err as Error)?.stack) } };
  } finally {
    slot.settled = true;
    slot.host = undefined;
    slot.awaiting?.done(); // a run stopped while it waited: its timer goes
    if (timer) clearTimeout(timer);
    if (onAbort) options.signal.removeEventListener('abort', onAbort);
    for (const [timer, resolve] of slot.timers) {
      clearTimeout(timer);
      slot.hold(resolve);
    }
    slot.timers.clear();
    slot.timerIds.clear();
    for (const ref of refs) ref.release();
    // A script that finished has its isolate recycled after its answer goes out; a runaway one is stopped now.
    if (finished) setImmediate(() => options.pool.recycle(warm));
    else {
      stoppedNearLimit = process.memoryUsage.rss() - memoryAtStart >= NEAR_LIMIT_SHARE * MEMORY_LIMIT_MB * 1024 * 1024;
      dispose(home);
    }
  }
  // A script stopped while it still ran may have been mid-allocation (see NEAR_LIMIT_SHARE).
  return stoppedNearLimit && (outcome.kind === 'timeout' || outcome.kind === 'cancelled') ? { ...outcome, exhausted: true } : outcome;
}
