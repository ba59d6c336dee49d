// Compiling an execute script: esbuild strips its types (no type-check) on a bounded service,
// after a nesting pre-check (./script-shape.ts) refuses shapes that would cost it too much.
import { availableParallelism } from 'node:os';
import * as esbuild from 'esbuild';
import type { CompiledScript } from './run.ts';
import { nestingProblem } from './script-shape.ts';

/** A script that was not compiled, and where in it (1-based, in the script as given) when known. */
abstract class ScriptRefused extends Error {
  readonly line: number | undefined;
  readonly column: number | undefined;
  constructor(message: string, line?: number, column?: number) {
    super(message);
    this.line = line;
    this.column = column;
  }
}

export class ScriptSyntaxError extends ScriptRefused {
  override name = 'ScriptSyntaxError';
}

/** A script refused before or while compiling for what it would cost: nested too deep, or too slow to compile. */
export class ScriptTooComplexError extends ScriptRefused {
  override name = 'ScriptTooComplexError';
}

/** Scripts compiled at once; more wait their turn (esbuild uses every core for each). */
const MAX_COMPILING = Math.max(1, availableParallelism());
/**
 * Longest a compilation may take. Scripts within the nesting bounds compile in well under a second
 * at the largest size an execute takes; one still running past this has its esbuild service
 * stopped (the next compilation starts another), so no script holds a core for long.
 */
const COMPILE_TIMEOUT_MS = 3_000;
let compiling = 0;
const compileTurns: (() => void)[] = [];

async function compileTurn<T>(work: () => Promise<T>): Promise<T> {
  if (compiling >= MAX_COMPILING) await new Promise<void>((resolve) => compileTurns.push(resolve));
  else compiling++;
  try {
    return await work();
  } finally {
    const next = compileTurns.shift();
    if (next) next(); // the place passes on
    else compiling--;
  }
}

const WRAP_PREFIX = 'async function __svc_main() {\n';

/** Agents repeat scripts (a page loop changes only its offset literal): keep recent compilations. */
const compiled = new Map<string, CompiledScript>();
const COMPILED_CACHE_SIZE = 256;

/**
 * Strips TypeScript types (no type-check); the code is the body of an async function. Refuses
 * (ScriptTooComplexError) a script nested beyond ./script-shape.ts's bounds before the compiler
 * sees it, and one that takes longer than COMPILE_TIMEOUT_MS to compile.
 */
export async function compileScript(code: string): Promise<CompiledScript> {
  const hit = compiled.get(code);
  if (hit) {
    compiled.delete(code);
    compiled.set(code, hit);
    return hit;
  }
  const problem = nestingProblem(code);
  if (problem) throw new ScriptTooComplexError(`${problem.message}; flatten it (name intermediate values, return early)`, problem.line, problem.column);
  const result = await compileTurn(() => transformScript(code));
  compiled.set(code, result);
  if (compiled.size > COMPILED_CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
  return result;
}

/** Rejects when the esbuild service is stopped under the compilations in flight (a new one is made for each stop). */
class ServiceRestarted extends Error {}
const restartSignal = () => {
  let restart!: (err: Error) => void;
  const stopped = new Promise<never>((_, reject) => (restart = reject));
  stopped.catch(() => undefined);
  return { stopped, restart };
};
let service = restartSignal();

/** Stops the esbuild service (the next compilation starts another); compilations in flight on it never answer, so they are told. */
function restartService(): void {
  const { restart } = service;
  service = restartSignal();
  void esbuild.stop();
  restart(new ServiceRestarted());
}

async function transformScript(code: string, retried = false): Promise<CompiledScript> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  try {
    const out = await Promise.race([
      esbuild.transform(`${WRAP_PREFIX}${code}\n}`, {
        loader: 'ts',
        sourcemap: 'external',
        sourcefile: 'script.ts',
        target: 'es2023',
        supported: { 'top-level-await': false },
        logLevel: 'silent',
      }),
      service.stopped,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          reject(new Error('compile timeout'));
          restartService();
        }, COMPILE_TIMEOUT_MS);
      }),
    ]);
    return { js: out.code, mapJson: out.map };
  } catch (err) {
    if (timedOut) throw new ScriptTooComplexError(`the script took longer than ${COMPILE_TIMEOUT_MS / 1000} s to compile; make it shorter or flatter`);
    // Another script's compilation stopped the service under this one: compile it again, once.
    if (err instanceof ServiceRestarted && !retried) return transformScript(code, true);
    const first = (err as esbuild.TransformFailure).errors?.[0];
    const line = first?.location ? first.location.line - 1 : undefined;
    throw new ScriptSyntaxError(first?.text ?? 'the script could not be parsed', line, first?.location ? first.location.column + 1 : undefined);
  } finally {
    clearTimeout(timer);
  }
}
