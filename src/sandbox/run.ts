// Runs one compiled `execute` script in a fresh isolated-vm context, in the calling thread. The
// Engine calls it inside sandbox worker threads (./worker.ts), so creating isolates and running
// scripts never blocks the thread that serves HTTP. The script sees only the functions of the
// interface's script environment; values cross by copy as JSON text, the host never runs a function
// the script supplies, and every host bridge is closed when the run ends.
import ivm from 'isolated-vm';
import { SourceMap } from 'node:module';
import { bridgeSource } from './bootstrap.ts';
import { base64Helper } from './base64.ts';

export const MEMORY_LIMIT_MB = 64;

/** A script with its types stripped, and the source map back to the caller's lines (JSON text). */
export interface CompiledScript {
  js: string;
  mapJson: string;
}

/** What the sandbox asks of its host. Every method receives and returns plain JSON-able values. */
export interface SandboxHost {
  call(operationId: unknown, params: unknown, options: unknown): Promise<unknown>;
  sessionGet(args: unknown[]): Promise<unknown>;
  sessionSet(args: unknown[]): Promise<unknown>;
  sessionPage(args: unknown[]): Promise<unknown>;
}

export type SandboxOutcome =
  | { kind: 'returned'; json: string | undefined }
  | { kind: 'threw'; error: ScriptFailure }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'crashed'; message: string };

export interface ScriptFailure {
  name: string;
  message: string;
  line?: number | undefined;
  column?: number | undefined;
  /** Set when the script threw an Engine refusal raised by call() (and did not catch it). */
  code?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

/** Maps a position in the compiled script back to the caller's line (1-based). */
function originalPosition(mapJson: string, stack: string | undefined): { line?: number; column?: number } {
  const match = stack?.match(/script\.js:(\d+):(\d+)/);
  if (!match) return {};
  const entry = new SourceMap(JSON.parse(mapJson)).findEntry(Number(match[1]) - 1, Number(match[2]) - 1) as { originalLine?: number; originalColumn?: number };
  if (entry?.originalLine === undefined) return {};
  return { line: entry.originalLine /* the wrapper adds one line above the body */, column: (entry.originalColumn ?? 0) + 1 };
}

/** The run a warm context serves: set when a run takes it, closed when the run settles. */
interface Slot {
  host: SandboxHost | undefined;
  settled: boolean;
  timers: Set<NodeJS.Timeout>;
}

/** An isolate whose context already holds the script environment (our code only; never user code). */
interface Warm {
  isolate: ivm.Isolate;
  context: ivm.Context;
  slot: Slot;
  refs: ivm.Reference[];
}

/** The host bridges of one context; they answer only while a run holds the slot. */
function bridgesFor(slot: Slot): ivm.Reference[] {
  const bridge = (fn: (host: SandboxHost, ...args: any[]) => Promise<unknown>) =>
    new ivm.Reference(async (...args: unknown[]) => {
      const host = slot.host;
      if (slot.settled || !host) throw new Error('the execute run has ended');
      const value = await fn(host, ...args);
      return value === undefined ? undefined : JSON.stringify(value);
    });
  const sleep = new ivm.Reference(
    (ms: number) =>
      new Promise<void>((resolve) => {
        if (slot.settled) return resolve();
        const timer = setTimeout(() => {
          slot.timers.delete(timer);
          resolve();
        }, ms);
        slot.timers.add(timer);
      }),
  );
  return [
    bridge((host, ...args: unknown[]) => {
      const [op, params, opts] = args.map((a) => (a === undefined ? undefined : JSON.parse(a as string)));
      return host.call(op, params, opts);
    }),
    bridge((host, argsJson) => host.sessionGet(JSON.parse(argsJson as string))),
    bridge((host, argsJson) => host.sessionSet(JSON.parse(argsJson as string))),
    bridge((host, argsJson) => host.sessionPage(JSON.parse(argsJson as string))),
    sleep,
  ];
}

/**
 * Isolates created ahead of time; each is used for exactly one run and then disposed. `new Isolate`
 * blocks its thread (about 1–3 ms), so the owner refills when it has nothing else to do, one isolate
 * at a time; a run that finds the pool empty creates its isolate itself.
 */
export class IsolatePool {
  private readonly ready: Warm[] = [];
  private readonly size: number;
  private filling: Promise<void> | undefined;
  private closed = false;

  constructor(size = 2) {
    this.size = size;
  }

  get warm(): number {
    return this.ready.length;
  }

  private async create(): Promise<Warm> {
    const isolate = new ivm.Isolate({ memoryLimit: MEMORY_LIMIT_MB });
    const slot: Slot = { host: undefined, settled: false, timers: new Set() };
    const refs = bridgesFor(slot);
    try {
      // The context and the script environment are built on the isolate's own thread.
      const context = await isolate.createContext();
      await context.evalClosure(bridgeSource, [...refs, new ivm.Callback(base64Helper)]);
      return { isolate, context, slot, refs };
    } catch (err) {
      for (const ref of refs) ref.release();
      isolate.dispose();
      throw err;
    }
  }

  /** Tops the pool up, yielding between isolates; stops early when `busy()` says work arrived. */
  refill(busy: () => boolean = () => false): Promise<void> {
    this.filling ??= this.fill(busy).finally(() => (this.filling = undefined));
    return this.filling;
  }

  private async fill(busy: () => boolean): Promise<void> {
    while (!this.closed && this.ready.length < this.size && !busy()) {
      const warm = await this.create();
      if (this.closed) warm.isolate.dispose();
      else this.ready.push(warm);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async take(): Promise<Warm> {
    return this.ready.pop() ?? this.create();
  }

  /** Disposes the warm isolates; resolves once an isolate being made has been made and disposed too. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.ready.splice(0)) w.isolate.dispose();
    await this.filling?.catch(() => undefined);
  }
}

export interface RunOptions {
  code: CompiledScript;
  host: SandboxHost;
  /** Milliseconds left in the execute budget. */
  budgetMs: number;
  signal: AbortSignal;
  pool: IsolatePool;
}

/**
 * Runs the compiled script. Timers, session and call bridges live on the host and are released
 * when the run settles, so nothing the script started can outlive it.
 */
export async function runScript(options: RunOptions): Promise<SandboxOutcome> {
  const { isolate, context, slot, refs } = await options.pool.take();
  slot.host = options.host;

  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let finished = false;
  try {
    const main = await context.eval(`${options.code.js}\n__svc_main`, { reference: true, filename: 'script.js', timeout: Math.max(1, options.budgetMs) });
    const finish = (await context.global.get('__svc_finish', { reference: true })) as ivm.Reference;
    const run = finish.apply(undefined, [main.derefInto()], { result: { promise: true, copy: true } }) as Promise<string>;
    const stop = new Promise<SandboxOutcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout' }), Math.max(0, options.budgetMs));
      onAbort = () => resolve({ kind: 'cancelled' });
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
    });
    const outcome: SandboxOutcome = await Promise.race([
      run.then((text): SandboxOutcome => {
        const result = JSON.parse(text) as { ok: true; json?: string } | { ok: false; error: ScriptFailure & { stack?: string } };
        if (result.ok) return { kind: 'returned', json: result.json };
        const { stack, ...error } = result.error;
        return { kind: 'threw', error: { ...error, ...originalPosition(options.code.mapJson, stack) } };
      }),
      stop,
    ]);
    finished = outcome.kind === 'returned' || outcome.kind === 'threw';
    return outcome;
  } catch (err) {
    const message = String((err as Error)?.message ?? err);
    if (/memory limit/i.test(message) || isolate.isDisposed) return { kind: 'crashed', message: `the script exceeded the ${MEMORY_LIMIT_MB} MB memory limit` };
    if (/timed out/i.test(message)) return { kind: 'timeout' };
    const position = originalPosition(options.code.mapJson, (err as Error)?.stack);
    return { kind: 'threw', error: { name: (err as Error)?.name ?? 'Error', message, ...position } };
  } finally {
    slot.settled = true;
    slot.host = undefined;
    if (timer) clearTimeout(timer);
    if (onAbort) options.signal.removeEventListener('abort', onAbort);
    for (const t of slot.timers) clearTimeout(t);
    slot.timers.clear();
    for (const ref of refs) ref.release();
    // A script that finished is disposed after its answer goes out; a runaway one is stopped now.
    if (finished) setImmediate(() => isolate.isDisposed || isolate.dispose());
    else if (!isolate.isDisposed) isolate.dispose();
  }
}
