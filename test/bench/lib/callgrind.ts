// Instruction counts of a bench child run under valgrind's callgrind (`npm run bench:ab -- --instructions`).
// Callgrind counts the instructions every thread of the process executes, the same whatever else
// runs on the machine. `callgrind_control --dump` writes the counts gathered since the last dump
// to a new file (<dir>/callgrind.out.<pid>.<n>) and zeroes them, so a dump taken when the child is
// idle closes one measured stretch and opens the next; callgrind_annotate reads the files.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Whether valgrind and callgrind_control are installed. */
export function hasCallgrind(): boolean {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The command line that runs Node under callgrind, its dumps in `dir`. */
export function callgrindWrapper(dir: string): string[] {
  // Only instruction counts (no cache simulation); per-function costs stay in the dumps, for callgrind_annotate.
  // Not instrumented until startInstrumentation: the warm-up runs ~5× faster than counted code.
  return ['valgrind', '--tool=callgrind', '--quiet', '--instr-atstart=no', `--callgrind-out-file=${join(dir, 'callgrind.out.%p')}`];
}

/** Turns callgrind's instrumentation on in process `pid` (counting starts with it). */
export function startInstrumentation(pid: number): void {
  execFileSync('callgrind_control', ['--instr=on', String(pid)], { stdio: 'ignore', timeout: 60_000 });
}

/**
 * Work counted apart from the rounds' own, as the inclusive instructions of calls into these V8
 * functions from outside them. The optimizing compilers (and Sparkplug's) run as functions get hot,
 * which under callgrind still goes on now and then after the warm-up, while a long run spends next
 * to nothing there. The full (mark-compact) collector — its marking steps, its pause, the sweeping
 * it leaves to allocation, the marking write barrier — runs once in several rounds and then doubles
 * that round's count; its cost follows the whole heap rather than the request. These four entries
 * do not call one another (IncrementalMarking::AdvanceAndFinalizeIfComplete, which holds a step and
 * a pause, is left out for that). Minor collections (scavenges) stay counted. (callgrind's
 * --toggle-collect on such functions lost track of whether it was collecting.)
 */
export const APART = {
  compilers: /^v8::internal::Compiler::(CompileOptimized|CompileOptimizedOSR|CompileBaseline|FinalizeTurbofanCompilationJob|FinalizeMaglevCompilationJob)\(/,
  fullGc: /^v8::internal::(IncrementalMarking::Step|Heap::MarkCompact|Sweeper::ParallelSweepSpace|WriteBarrier::MarkingFromCode)\(/,
};

/** Dumps the counts of process `pid` gathered since its last dump: their total instructions, those counted APART among them, and the file. */
export function dumpInstructions(pid: number, dir: string): { instructions: number; compilers: number; fullGc: number; file: string } {
  execFileSync('callgrind_control', ['--dump', String(pid)], { stdio: 'ignore', timeout: 60_000 });
  const prefix = `callgrind.out.${pid}.`;
  const numbers = readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .map((f) => Number(f.slice(prefix.length)))
    .filter(Number.isInteger);
  if (!numbers.length) throw new Error(`callgrind wrote no dump for process ${pid} in ${dir}`);
  const file = join(dir, prefix + Math.max(...numbers));
  const text = readFileSync(file, 'utf8');
  const totals = /^totals:\s*(\d+)/m.exec(text);
  if (!totals) throw new Error(`${file} has no totals line`);
  return { instructions: Number(totals[1]), compilers: callsInto(text, APART.compilers), fullGc: callsInto(text, APART.fullGc), file };
}

/** Reads the function names of a dump in order: `(id) name` names id, `(id)` is the name given before. */
export function functionNames(): (spec: string) => string {
  const names = new Map<string, string>();
  return (spec) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(spec);
    if (!m) return spec;
    if (m[2] !== undefined) names.set(m[1]!, m[2]);
    return names.get(m[1]!) ?? '';
  };
}

/**
 * The inclusive instructions of calls into the functions `wanted` matches from outside them, read
 * from a dump. Callgrind's format: `fn=(id) name` names a function once and `fn=(id)` refers to it
 * after, `cfn=` likewise names a callee, and the cost line after `calls=` is that call's inclusive cost.
 */
export function callsInto(text: string, wanted: RegExp): number {
  const named = functionNames();
  let caller = '';
  let callee = '';
  let inclusive = false;
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('fn=')) caller = named(line.slice(3));
    else if (line.startsWith('cfn=')) callee = named(line.slice(4));
    else if (line.startsWith('calls=')) inclusive = true;
    else if (inclusive) {
      inclusive = false;
      if (wanted.test(callee) && !wanted.test(caller)) sum += Number(line.trim().split(/\s+/).at(-1));
    }
  }
  return sum;
}
