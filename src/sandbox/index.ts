// The execute sandbox: TypeScript scripts compiled by esbuild (types stripped, no type-check) and
// run by a pool of worker processes, each owning its pre-warmed isolated-vm isolates (./run.ts),
// confined (./confinement.ts) and shared fairly between tokens (./fair-queue.ts).
export { ScriptSyntaxError, ScriptTooComplexError, compileScript } from './compile.ts';
// Types only from ./run.ts: loading it loads isolated-vm, which only the worker processes need.
export type { CompiledScript, PoolStats, SandboxHost, SandboxOutcome, ScriptFailure } from './run.ts';
export { SandboxWorkers, type SandboxRun, type WorkerExit } from './workers.ts';
export { describeConfinement, detectConfinement, spawnWorker, type Confinement, type ConfinementLevel, type ConfinementMode } from './confinement.ts';
export { AdmissionCancelled, BusyError, FairQueue, type FairQueueLimits, type Release } from './fair-queue.ts';
export { MAX_ARROW_NESTING, MAX_NESTING } from './script-shape.ts';
