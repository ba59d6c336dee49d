// Attributes the CPU of a profiled Engine cold start (`node --cpu-prof … svc-engine serve`) to a
// few categories. Each busy sample goes to the first category that matches its stack (leaf →
// root), in the order below, so nested work counts once: e.g. Ajv compiling a schema while a
// module is evaluated counts as Ajv, not as module loading.
import { readFileSync } from 'node:fs';

interface Frame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Category {
  label: string;
  ms: number;
  share: number;
}

const MODULES = 'other module loading: resolving, reading, compiling and evaluating JS/TS modules (src and node_modules)';
const LOADER = 'Node\'s module loader itself (resolve, read, compile)';

/** npm:<package>, src/<file>, generated/<file>, or the URL. */
function area(url: string): string {
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 14).split('/');
    return `npm:${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  for (const dir of ['/src/', '/generated/']) {
    const i = url.indexOf(dir);
    if (i >= 0) return url.slice(i + 1);
  }
  return url.replace(/^file:\/\//, '');
}

const CATEGORIES: { label: string; match: (stack: Frame[]) => boolean }[] = [
  { label: 'garbage collection', match: (s) => s[0]!.functionName === '(garbage collector)' },
  { label: 'TypeScript type stripping of `.ts` modules (amaro)', match: (s) => s.some((f) => f.functionName === 'stripTypeScriptModuleTypes' || f.url.includes('amaro')) },
  { label: 'Ajv compiling JSON schemas (mostly validators compiled at module load; each new Ajv2020 instance also compiles the draft 2020-12 meta-schema)', match: (s) => s.some((f) => f.url.includes('/node_modules/ajv/')) },
  { label: 'Catalog.load (reading and JSON-parsing the bundled catalogue)', match: (s) => s.some((f) => f.functionName === 'load' && f.url.endsWith('/src/catalog/catalog.ts')) },
  { label: 'compiling Node built-in modules (no startup snapshot: `--no-node-snapshot`)', match: (s) => s.some((f) => f.functionName === 'compileForInternalLoader') },
  {
    // The bin's body runs after its imports are evaluated (top-level await of yargs → serve → startEngine).
    label: 'the bin and startEngine after the imports: yargs, config, SQLite open and migrations, services, listeners (synchronous parts)',
    match: (s) => s.some((f) => f.url.endsWith('/src/bin/svc-engine.ts') || f.url.endsWith('/src/engine/start.ts')),
  },
  { label: MODULES, match: (s) => s.some((f) => f.url.startsWith('node:internal/modules/')) },
  { label: 'everything else (process bootstrap, first HTTP request, timers)', match: () => true },
];

/**
 * Busy CPU time per category (idle and program samples excluded), largest first; and, within
 * module loading, per module whose code was running (the innermost non-Node frame), or Node's
 * loader itself.
 */
export function attributeColdStart(file: string): { totalMs: number; categories: Category[]; modules: Category[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackCache = new Map<number, Frame[]>();
  const stackOf = (id: number): Frame[] => {
    let s = stackCache.get(id);
    if (!s) {
      s = [];
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) s.push(byId.get(cur)!.callFrame);
      stackCache.set(id, s);
    }
    return s;
  };
  const totals = new Map<string, number>(CATEGORIES.map((c) => [c.label, 0]));
  const modules = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const stack = stackOf(profile.samples[i]!);
    const leaf = stack[0]!.functionName;
    if (leaf === '(idle)' || leaf === '(program)' || leaf === '(root)') continue;
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const cat = CATEGORIES.find((c) => c.match(stack))!;
    totals.set(cat.label, totals.get(cat.label)! + dt);
    if (cat.label === MODULES) {
      const own = stack.find((f) => f.url && !f.url.startsWith('node:'));
      const key = own ? area(own.url) : LOADER;
      modules.set(key, (modules.get(key) ?? 0) + dt);
    }
  }
  const list = (m: Map<string, number>) => [...m].map(([label, us]) => ({ label, ms: us / 1000, share: total ? us / total : 0 })).sort((a, b) => b.ms - a.ms);
  return { totalMs: total / 1000, categories: list(totals), modules: list(modules) };
}
