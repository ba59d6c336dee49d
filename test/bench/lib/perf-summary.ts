// `node test/bench/lib/perf-summary.ts <perf.data> --requests N [--top K]`: the CPU time of a
// `perf record -g` profile of an Engine (Node run with --perf-basic-prof-only-functions, so
// generated code has names) per request, each sample charged to the innermost JavaScript function on
// its stack: tracing (src/telemetry, @opentelemetry, the async context), the Engine's other code,
// Node's own, other dependencies, or none (the kernel, the collector, libuv below any JavaScript).
// Unlike the inspector (BENCH_CPU_PROF), perf leaves V8's compiled code as it runs; its sampling
// still adds CPU, so compare Engines recorded in the same run, not against an unrecorded one.
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { requests: { type: 'string' }, top: { type: 'string', default: '25' } } });
const [dataFile] = positionals;
const requests = Number(values.requests);
if (!dataFile || !(requests > 0)) {
  console.error('usage: perf-summary.ts <perf.data> --requests N [--top K]');
  process.exit(2);
}

const PART_OF: readonly (readonly [RegExp, string])[] = [
  [/src\/telemetry\/|@opentelemetry\/|async_context_frame/, 'tracing'],
  [/node_modules\//, 'dependencies'],
  [/ node:/, 'Node'],
  [/\/src\/|\/generated\//, 'the Engine'],
];
const partOf = (frame: string) => PART_OF.find(([pattern]) => pattern.test(frame))?.[1] ?? 'other JavaScript';

const byPart = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
let period = 0;
let charged = false;
const charge = (frame: string | undefined) => {
  const part = frame === undefined ? 'no JavaScript (kernel, collector, libuv)' : partOf(frame);
  byPart.set(part, (byPart.get(part) ?? 0) + period);
  if (frame !== undefined) {
    const name = frame.replace(/^JS:[*~^+']*/, '').replace(/file:\/\/|\S*\/(?=(src|node_modules)\/)/g, '');
    byFunction.set(name, (byFunction.get(name) ?? 0) + period);
  }
  total += period;
  charged = true;
};
// `perf script -F period,ip,sym`: a sample's period (ns of CPU) on its own line, then its stack, innermost first.
const script = execFileSync('perf', ['script', '-i', dataFile, '-F', 'period,ip,sym'], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
for (const line of script.split('\n')) {
  const trimmed = line.trim();
  if (/^\d+$/.test(trimmed)) {
    if (!charged && period > 0) charge(undefined);
    period = Number(trimmed);
    charged = false;
  } else if (!charged && period > 0 && trimmed.includes(' JS:')) charge(trimmed.slice(trimmed.indexOf('JS:')));
}
if (!charged && period > 0) charge(undefined);

const us = (ns: number) => (ns / requests / 1000).toFixed(2).padStart(8);
console.log(`${us(total)} µs of CPU per request (${requests} requests), by the innermost JavaScript function of each sample:`);
for (const [part, ns] of [...byPart].sort((a, b) => b[1] - a[1])) console.log(`${us(ns)}  ${part}`);
console.log('');
for (const [name, ns] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`${us(ns)}  ${name.slice(0, 150)}`);
