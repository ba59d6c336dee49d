// The host bridges of one isolated-vm context (call(), session.*, sleeps and timers) and the slot
// of the run they serve: answered only while a run holds the slot, never once it has settled.
import ivm from 'isolated-vm';

/** Host timers a run may hold at once: its pending timers (1,000, ./bootstrap.ts) and sleeps (1,000). */
export const MAX_PENDING_TIMERS = 2000;
/** call() and session requests one run may have waiting on the host at once. */
export const MAX_PENDING_BRIDGE_CALLS = 16;
const MIB = 1024 * 1024;
/** Answer text one run may take in through call() and session requests (a snapshot holds at most 4 MiB). */
export const MAX_BRIDGE_BYTES = 32 * MIB;

/** What the sandbox asks of its host. Every method receives and returns plain JSON-able values. */
export interface SandboxHost {
  call(operationId: unknown, params: unknown, options: unknown): Promise<unknown>;
  sessionGet(args: unknown[]): Promise<unknown>;
  sessionSet(args: unknown[]): Promise<unknown>;
  sessionPage(args: unknown[]): Promise<unknown>;
}

/** The run a warm context serves: set when a run takes it, closed when the run settles. */
export interface Slot {
  host: SandboxHost | undefined;
  settled: boolean;
  /** Pending sleeps and timers: their host timer and the resolver of the promise the isolate awaits. */
  timers: Map<NodeJS.Timeout, () => void>;
  /** The host timers of the script's setTimeout ids, so clearTimeout frees them (sleeps have none). */
  timerIds: Map<number, NodeJS.Timeout>;
  /** Keeps a sleep or bridge call the run left pending unanswered for as long as the isolate lives (see Home.held, ./run.ts). */
  hold: (resolve: () => void) => void;
  /** Bridge calls (call(), session.*) of this run waiting on the host, and the answer bytes it has taken in. */
  pending: number;
  received: number;
  /** Bridge calls of this run that have reached the host, and who waits for how many (see arrivals). */
  arrived: number;
  awaiting?: { count: number; done: () => void } | undefined;
}

/**
 * Longest a finished run waits for the bridge calls its script started to reach the host. They are
 * already queued on this thread when the result is (see arrivals): the bound only covers a count
 * that cannot be met (a call whose arguments failed to copy).
 */
const ARRIVAL_WAIT_MS = 1_000;

/**
 * Resolves once `count` bridge calls of the run have reached the host. isolated-vm hands this
 * thread the result through a task queued when the script first awaited: when the thread runs that
 * task only after the script has finished (busy, or not scheduled, on a loaded machine), the bridge
 * calls the script made meanwhile (a session.set it did not await) are still queued behind it, and
 * would otherwise find the run settled and be dropped.
 */
export function arrivals(slot: Slot, count: number): Promise<void> | undefined {
  if (slot.arrived >= count) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      slot.awaiting = undefined;
      resolve();
    };
    const timer = setTimeout(done, ARRIVAL_WAIT_MS);
    slot.awaiting = { count, done };
  });
}

/** A promise that never settles, held for as long as the isolate lives (see Home.held, ./run.ts). */
const unanswered = (slot: Slot) => new Promise<never>((resolve) => slot.hold(resolve as () => void));

/** A bridge answer the script environment throws as an error (see bootstrap's unwrap); no host record backs it. */
const refusedAnswer = (message: string) => JSON.stringify({ refused: { code: 'MCP_SCRIPT_ERROR', message, id: -1 } });

/** The host bridges of one context; they answer only while a run holds the slot. */
export function bridgesFor(slot: Slot): ivm.Reference[] {
  const bridge = (fn: (host: SandboxHost, ...args: any[]) => Promise<unknown>) =>
    new ivm.Reference(async (...args: unknown[]) => {
      if (++slot.arrived === slot.awaiting?.count) slot.awaiting.done();
      // An answer after the run ended would resume the ended run's code in an isolate that serves
      // the tenant's next runs: such a bridge call is held unanswered, like a leftover sleep.
      const host = slot.host;
      if (slot.settled || !host) return unanswered(slot);
      // Each bridge call is work on the thread that serves HTTP: a script firing thousands at once
      // (or reading megabytes again and again) held it, and every other tenant's runs, for seconds.
      // Refused with an answer, not a throw: a promise rejected before the isolate awaits it is an
      // unhandled rejection, which ends the worker process and every run in it.
      if (slot.pending >= MAX_PENDING_BRIDGE_CALLS) {
        return refusedAnswer(`at most ${MAX_PENDING_BRIDGE_CALLS} call() and session requests may be pending at once; await some before starting more`);
      }
      if (slot.received > MAX_BRIDGE_BYTES) return refusedAnswer(`this run has read ${MAX_BRIDGE_BYTES / MIB} MiB through call() and session requests, the most one run may`);
      slot.pending++;
      let value: unknown;
      try {
        value = await fn(host, ...args);
      } catch (err) {
        if (slot.settled) return unanswered(slot);
        throw err;
      } finally {
        slot.pending--;
      }
      if (slot.settled) return unanswered(slot);
      if (value === undefined) return undefined;
      const text = JSON.stringify(value);
      slot.received += text.length;
      return text;
    });
  const sleep = new ivm.Reference(
    (ms: number, id: number) =>
      new Promise<void>((resolve, reject) => {
        if (slot.settled) return slot.hold(resolve); // a sleep started after the run ended never wakes
        // The script environment keeps to this too; here it holds whatever the script does to it.
        if (slot.timers.size >= MAX_PENDING_TIMERS) return reject(new RangeError(`at most ${MAX_PENDING_TIMERS} timers and sleeps may be pending`));
        const timer = setTimeout(() => {
          slot.timers.delete(timer);
          if (id) slot.timerIds.delete(id);
          resolve();
        }, ms);
        slot.timers.set(timer, resolve);
        if (id) slot.timerIds.set(id, timer);
      }),
  );
  // clearTimeout: the host timer goes too, and the isolate's wait ends (its callback is already dropped).
  const cancel = new ivm.Reference((id: number) => {
    const timer = slot.timerIds.get(id);
    if (!timer) return;
    slot.timerIds.delete(id);
    clearTimeout(timer);
    const resolve = slot.timers.get(timer);
    slot.timers.delete(timer);
    resolve?.();
  });
  return [
    bridge((host, ...args: unknown[]) => {
      const [op, params, opts] = args.map((a) => (a === undefined ? undefined : JSON.parse(a as string)));
      return host.call(op, params, opts);
    }),
    bridge((host, argsJson) => host.sessionGet(JSON.parse(argsJson as string))),
    bridge((host, argsJson) => host.sessionSet(JSON.parse(argsJson as string))),
    bridge((host, argsJson) => host.sessionPage(JSON.parse(argsJson as string))),
    sleep,
    cancel,
  ];
}
