// Summarises a V8 .cpuprofile (from `BENCH_CPU_PROF=<dir> npm run bench -- rest`): top functions
// by self time and by inclusive time, and self time grouped by source area.
// Usage: node test/bench/lib/profile-summary.ts <file.cpuprofile> [topN]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function area(url: string): string {
  if (!url) return '(native/V8)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 14).split('/');
    return `npm:${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  const gen = url.indexOf('/generated/');
  if (gen >= 0) return url.slice(gen + 1);
  return url.replace(/^file:\/\//, '');
}

export function summarise(profile: Profile, top = 30): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: ProfileNode) => {
    const f = n.callFrame;
    return `${f.functionName || '(anonymous)'}  ${area(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(profile.samples[i]!);
    if (!leaf) continue;
    const fn = leaf.callFrame.functionName;
    if (fn === '(idle)' || fn === '(program)' || fn === '(root)') continue;
    total += dt;
    self.set(key(leaf), (self.get(key(leaf)) ?? 0) + dt);
    const a = fn === '(garbage collector)' ? '(garbage collector)' : area(leaf.callFrame.url);
    areas.set(a, (areas.get(a) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const k = key(byId.get(id)!);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  }
  const pct = (v: number) => `${((100 * v) / total).toFixed(1).padStart(5)}%`;
  const list = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${pct(v)}  ${k}`)
      .join('\n');
  return [
    `busy samples: ${(total / 1000).toFixed(0)} ms of ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms profiled`,
    '',
    '== self time by area ==',
    list(areas, top),
    '',
    '== self time by function ==',
    list(self, top),
    '',
    '== inclusive time by function ==',
    list(inclusive, top * 2),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node test/bench/lib/profile-summary.ts <file.cpuprofile> [topN]');
    process.exit(2);
  }
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(process.argv[3]) || 30));
}
