// Splits raw intents (test/search-eval/raw/<catalogue>.json, one or more files per catalogue named
// <catalogue>[-part].json) into dev and test halves, by the SHA-256 of catalogue and query: the
// first half in hash order is test. Run once, before any ranking change; the split is then frozen.
// Usage: node test/search-eval/split.ts
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUES } from './catalogues.ts';
import type { Intent } from './intents.ts';

const dir = import.meta.dirname;
const raw = join(dir, 'raw');
for (const { name } of CATALOGUES) {
  const files = readdirSync(raw).filter((f) => f === `${name}.json` || (f.startsWith(`${name}-`) && f.endsWith('.json') && !CATALOGUES.some((c) => c.name !== name && f.startsWith(`${c.name}`))));
  const intents = files.flatMap((f) => JSON.parse(readFileSync(join(raw, f), 'utf8')) as Intent[]);
  const hash = (i: Intent) => createHash('sha256').update(`${name}\n${i.query}`).digest('hex');
  const ordered = intents.map((i) => ({ i, h: hash(i) })).sort((a, b) => (a.h < b.h ? -1 : 1)).map((x) => ({ query: x.i.query, expected: x.i.expected }));
  const half = Math.ceil(ordered.length / 2);
  for (const [split, part] of [['test', ordered.slice(0, half)], ['dev', ordered.slice(half)]] as const) {
    mkdirSync(join(dir, split), { recursive: true });
    writeFileSync(join(dir, split, `${name}.json`), `${JSON.stringify(part, null, 1)}\n`);
  }
  console.log(`${name}: ${files.join(', ')} → ${half} test, ${ordered.length - half} dev`);
}
