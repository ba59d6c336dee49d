// The execute sandbox: TypeScript scripts compiled by esbuild (types stripped, no type-check) and
// run by a pool of worker processes, each owning its pre-warmed isolated-vm isolates (./run.ts),
// confined (./confinement.ts).
import * as esbuild from 'esbuild';
import type { CompiledScript } from './run.ts';

// Types only from ./run.ts: loading it loads isolated-vm, which only the worker processes need.
export type { CompiledScript, PoolStats, SandboxHost, SandboxOutcome, ScriptFailure } from './run.ts';
export { SandboxWorkers, type SandboxRun, type WorkerExit } from './workers.ts';
export { describeConfinement, detectConfinement, spawnWorker, type Confinement, type ConfinementLevel, type ConfinementMode } from './confinement.ts';

export class ScriptSyntaxError extends Error {
  override name = 'ScriptSyntaxError';
  readonly line: number | undefined;
  readonly column: number | undefined;
  constructor(message: string, line?: number, column?: number) {
    super(message);
    this.line = line;
    this.column = column;
  }
}

const WRAP_PREFIX = 'async function __svc_main() {\n';

/** Agents repeat scripts (a page loop changes only its offset literal): keep recent compilations. */
const compiled = new Map<string, CompiledScript>();
const COMPILED_CACHE_SIZE = 256;

/** Strips TypeScript types (no type-check); the code is the body of an async function. */
export async function compileScript(code: string): Promise<CompiledScript> {
  const hit = compiled.get(code);
  if (hit) {
    compiled.delete(code);
    compiled.set(code, hit);
    return hit;
  }
  const result = await transformScript(code);
  compiled.set(code, result);
  if (compiled.size > COMPILED_CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
  return result;
}

async function transformScript(code: string): Promise<CompiledScript> {
  try {
    const out = await esbuild.transform(`${WRAP_PREFIX}${code}\n}`, {
      loader: 'ts',
      sourcemap: 'external',
      sourcefile: 'script.ts',
      target: 'es2023',
      supported: { 'top-level-await': false },
      logLevel: 'silent',
    });
    return { js: out.code, mapJson: out.map };
  } catch (err) {
    const first = (err as esbuild.TransformFailure).errors?.[0];
    const line = first?.location ? first.location.line - 1 : undefined;
    throw new ScriptSyntaxError(first?.text ?? 'the script could not be parsed', line, first?.location ? first.location.column + 1 : undefined);
  }
}

