// `node --no-node-snapshot test/bench/lib/callgrind-summary.ts <callgrind dump> [perf map] [--per N] [--top K]`:
// the self instructions of each function in one callgrind dump (./callgrind.ts), per request when
// `--per N` gives the requests it covers. Callgrind names V8's generated code only by address; with
// the perf map Node writes under --perf-basic-prof (/tmp/perf-<pid>.map: run
// `BENCH_CALLGRIND_NODE_ARGS=--perf-basic-prof npm run bench:ab -- <rev> --instructions --keep DIR`;
// Node then also leaves isolate-*-v8.log files in the working directory) each address is charged to
// the JavaScript function whose code holds it. `--callers TEXT`: instead, who calls the functions
// whose name contains TEXT, and the instructions of those calls (inclusive).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { functionNames } from './callgrind.ts';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { per: { type: 'string', default: '1' }, top: { type: 'string', default: '60' }, callers: { type: 'string' } } });
const [dumpFile, mapFile] = positionals;
if (!dumpFile) {
  console.error('usage: callgrind-summary.ts <callgrind dump> [perf map] [--per N] [--top K]');
  process.exit(2);
}
const per = Number(values.per);

/** Code ranges of the perf map, sorted by start. */
const ranges = mapFile
  ? readFileSync(mapFile, 'utf8')
      .split('\n')
      .flatMap((line) => {
        const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/i.exec(line);
        return m ? [{ start: parseInt(m[1]!, 16), end: parseInt(m[1]!, 16) + parseInt(m[2]!, 16), name: m[3]! }] : [];
      })
      .sort((a, b) => a.start - b.start)
  : [];

function jsName(address: number): string | undefined {
  let lo = 0;
  let hi = ranges.length - 1;
  let found: (typeof ranges)[number] | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid]!.start <= address) {
      found = ranges[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found && address < found.end ? found.name : undefined;
}

/** A function's name: generated code's address is looked up in the perf map. */
function labelOf(name: string): string {
  const address = /^0x[0-9a-f]+$/i.test(name) ? parseInt(name, 16) : undefined;
  return address !== undefined ? (jsName(address) ?? '(generated code not in the map)') : name;
}

// The callgrind format: `fn=(id) name` names a function once, `fn=(id)` refers to it again; a cost
// line is `<position> <Ir>`; the cost line after `calls=` is that call's inclusive cost, not self.
const named = functionNames();
const self = new Map<string, number>();
/** Inclusive instructions of calls into a function matching --callers, by calling function. */
const calls = new Map<string, number>();
const wanted = values.callers;
let fn = '';
let callee = '';
let afterCalls = false;
let total = 0;
for (const line of readFileSync(dumpFile, 'utf8').split('\n')) {
  if (line.startsWith('fn=')) {
    fn = named(line.slice(3));
    continue;
  }
  if (line.startsWith('cfn=')) {
    callee = named(line.slice(4));
    continue;
  }
  if (line.startsWith('calls=')) {
    afterCalls = true;
    continue;
  }
  if (!/^[+\-*0-9]/.test(line)) continue;
  const parts = line.trim().split(/\s+/);
  const cost = Number(parts[parts.length - 1]);
  if (afterCalls) {
    afterCalls = false;
    if (wanted !== undefined && labelOf(callee).includes(wanted) && !labelOf(fn).includes(wanted)) calls.set(fn, (calls.get(fn) ?? 0) + cost);
    continue;
  }
  if (!Number.isFinite(cost) || parts.length < 2) continue;
  self.set(fn, (self.get(fn) ?? 0) + cost);
  total += cost;
}

const byName = new Map<string, number>();
for (const [name, cost] of wanted !== undefined ? calls : self) {
  const label = labelOf(name);
  byName.set(label, (byName.get(label) ?? 0) + cost);
}
const fmt = (n: number) => Math.round(n / per).toLocaleString('en-US').padStart(12);
console.log(`${fmt(total)}  total self instructions${per > 1 ? ` per request (÷ ${per})` : ''}${wanted !== undefined ? `; below, calls into *${wanted}* by caller` : ''}`);
for (const [name, cost] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
  console.log(`${fmt(cost)}  ${((cost / total) * 100).toFixed(2).padStart(5)}%  ${name.slice(0, 160)}`);
}
