// A sandbox worker process: owns pre-warmed isolates and runs scripts for the Engine. Host bridges
// (call, session.*) are answered by the Engine, which owns the Executor and the session store;
// everything crossing the IPC channel is structured-cloned plain data.
import { getPriority, setPriority } from 'node:os';
import { IsolatePool, runScript, type CompiledScript, type SandboxHost } from './run.ts';
import type { ToWorker, FromWorker } from './workers.ts';

// Started with --check (src/sandbox/confinement.ts): isolated-vm has loaded under this confinement; that is all.
if (process.argv[2] === '--check') process.exit(0);
process.title = 'svc-sandbox';
/** How much lower than the Engine's a worker's scheduling priority is (added to its niceness, up to 19). */
const WORKER_NICENESS = 5;
// Scripts yield the CPU to the Engine: on Linux this thread's niceness is inherited by the threads
// it starts from now on, the isolates' among them, so a script spinning on every core still leaves
// the Engine's event loop (which answers other tokens) the larger share.
try {
  setPriority(Math.min(19, getPriority() + WORKER_NICENESS));
} catch {
  /* a platform that refuses: scripts run at the Engine's priority */
}
// Ctrl-C in a terminal signals the whole process group: the Engine drains its executes first and
// then stops its workers itself, so a worker never ends by a signal meant for the Engine.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => undefined);

const pool = new IsolatePool(Number(process.argv[2] ?? 2));
const runs = new Map<number, AbortController>();
/** The runs in progress, settled once each has sent its 'done'. */
const inFlight = new Set<Promise<void>>();

/** Ends the runs in progress (their isolates disposed, not left spinning), then the pool. */
async function windDown(): Promise<void> {
  for (const abort of runs.values()) abort.abort();
  await Promise.allSettled([...inFlight]);
  await pool.close();
}

// The Engine gone (its channel closed, however it ended): nothing is left to run for. A script
// spinning after an await would otherwise keep this process at full CPU for good.
process.on('disconnect', () => {
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), 2_000).unref();
  void windDown().finally(() => process.exit(0));
});
/** Refills only while no run is in progress here: a refill blocks this thread's event loop. */
const refillWhenIdle = () => {
  if (runs.size === 0) void pool.refill(() => runs.size > 0);
};
const replies = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
let nextCall = 0;

const send = (message: FromWorker) => {
  if (process.connected) process.send!(message);
};

function hostFor(run: number): SandboxHost {
  const ask = (method: keyof SandboxHost, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const call = nextCall++;
      replies.set(call, { resolve, reject });
      send({ type: 'host', run, call, method, args });
    });
  return {
    call: (operationId, params, options) => ask('call', [operationId, params, options]),
    sessionGet: (args) => ask('sessionGet', [args]),
    sessionSet: (args) => ask('sessionSet', [args]),
    sessionPage: (args) => ask('sessionPage', [args]),
  };
}

async function run(id: number, code: CompiledScript, tenant: string, budgetMs: number, resultCapBytes: number | undefined) {
  const abort = new AbortController();
  runs.set(id, abort);
  try {
    const outcome = await runScript({ code, tenant, host: hostFor(id), budgetMs, resultCapBytes, signal: abort.signal, pool });
    send({ type: 'done', run: id, outcome });
  } catch (err) {
    send({ type: 'done', run: id, outcome: { kind: 'crashed', message: `the sandbox failed: ${(err as Error)?.message ?? String(err)}` } });
  } finally {
    runs.delete(id);
    refillWhenIdle();
  }
}

setImmediate(refillWhenIdle);

process.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'run': {
      const running = run(message.run, message.code, message.tenant, message.budgetMs, message.resultCapBytes).finally(() => inFlight.delete(running));
      inFlight.add(running);
      break;
    }
    case 'cancel':
      runs.get(message.run)?.abort();
      break;
    case 'reply': {
      const waiting = replies.get(message.call);
      replies.delete(message.call);
      if (message.ok) waiting?.resolve(message.value);
      else waiting?.reject(new Error(message.message));
      break;
    }
    case 'stats':
      send({ type: 'stats', stats: pool.stats });
      break;
    case 'close':
      // Stop cleanly: no isolate is left half-made, and the process ends by itself once nothing is
      // pending (ending it abruptly while isolated-vm has work in flight can hang or abort it).
      // Each run in progress sends its 'done' (cancelled) before the channel closes.
      void windDown().finally(() => process.disconnect());
      break;
  }
});
