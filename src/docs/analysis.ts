// What ranking reads from one operation on its own: each stem's best field weight, its structure
// (src/docs/structure.ts), the words its meaning is read from, and what the catalogue-wide tables
// (abbreviations, acronyms) count. It depends on the operation's text only, so it is computed once
// per distinct operation text and shared by every index that holds the operation: an MCP version,
// a second version over the same catalogue, a restart of the same catalogue in one process.
import { createHash } from 'node:crypto';
import { actionOfStem, reverses } from './lexicon.ts';
import { analyse, type OperationText, type Structure } from './structure.ts';
import { stems, textStems, words } from './text.ts';

export interface RankedOperation extends OperationText {
  kind: 'physical' | 'unified';
  tags: string[];
  /** Parameter and top-level body field names. */
  fieldNames: string[];
  /** Field names of its success answers. */
  responseNames?: string[] | undefined;
  /** Descriptions of its parameters and top-level body fields. */
  fieldTexts?: string[] | undefined;
  deprecated?: boolean | undefined;
}

/** Field weights: where in an operation a query word is found. */
export const W = { head: 3, resource: 2.4, summary: 2, name: 1.6, scope: 1.4, tags: 1, fields: 0.6, response: 0.3, description: 0.4, fieldTexts: 0.05 } as const;

export interface AnalysedOperation {
  id: string;
  /** Best field weight of each stem. */
  fields: Map<string, number>;
  structure: Structure;
  summaryStems: string[];
  /** Stems of its summary, resource and scope, each once. */
  about: string[];
  /** The words its meaning is read from (summary, ID, resource), as written. */
  gist: string[];
  /** Content words of its description's first sentence, as written: what it tells beyond its summary. */
  told: string[];
  kind: RankedOperation['kind'];
  deprecated: boolean;
  /** A word written for each stem of its summary, ID and path (first seen). */
  surface: [stem: string, word: string][];
  /** `short long`: a path or ID stem that begins or ends one of its summary stems ("repo repositori"). */
  prefixPairs: string[];
  /** Pairs of adjacent content words of its summary ("pull request"), as often as written. */
  phrases: string[];
  /** Stems of its path parameters' words (`/customers/{customer}`: custom): what it takes by ID. */
  pathParameters: string[];
}

/** A summary's "for the authenticated user" (or current, calling, requesting): whose the thing is. */
const WHOSE = /\b(?:for|of|by|to|from|with) the (authenticated|current|calling|requesting) user\b/;

export function analyseOperation(op: RankedOperation): AnalysedOperation {
  const structure = analyse(op);
  const fields = new Map<string, number>();
  const put = (list: Iterable<string>, weight: number) => {
    for (const s of list) if ((fields.get(s) ?? 0) < weight) fields.set(s, weight);
  };
  // Without a summary, the description's first clause says what the operation does ("Retrieves the current account balance"), not what follows it (", based on the authentication …").
  const summaryWords = words(op.summary || op.description.replace(/<[^>]*>/g, ' ').split(/(?<=[.!?])\s/)[0]!.split(/[,;:(]|\s[-–—]\s/)[0] || '');
  const summaryStems = summaryWords.flatMap(stems);
  const named = op.operationId.slice(op.operationId.indexOf('.') + 1);
  const nameStems = textStems(named);
  put(textStems(op.description.slice(0, 1500)), W.description);
  put((op.responseNames ?? []).flatMap((n) => textStems(n)), W.response);
  // What its parameters' descriptions say ("You can also pass the workflow file name"), lightly: a word found only there (0.05; 0.1 to 0.3 churned dev more for the same gain).
  put((op.fieldTexts ?? []).flatMap((t) => textStems(t)), W.fieldTexts);
  put(op.fieldNames.flatMap((n) => textStems(n)), W.fields);
  put(op.tags.flatMap((t) => textStems(t)), W.tags);
  put(structure.scope, W.scope);
  put(nameStems, W.name);
  put(summaryStems, W.summary);
  put(structure.object, W.resource);
  put(structure.resource, W.resource);
  if (structure.head) put([structure.head], W.head);
  // "… for the authenticated user" says whose, which the self cue weighs: not what it is about, nor its meaning.
  const whose = WHOSE.exec(summaryWords.join(' '));
  const whoseWords = new Set(whose ? [whose[1]!, 'user'] : []);
  const whoseStems = new Set([...whoseWords].flatMap(stems));
  // A Unified operation's summary tells how it spans providers; what it is about is its name.
  const about = [...new Set([...(op.kind === 'unified' ? [] : summaryStems.filter((s) => !whoseStems.has(s))), ...structure.resource, ...structure.scope])].filter((s) => !actionOfStem(s));
  const gist = [...summaryWords, ...words(named)].filter((w) => stems(w).length && !whoseWords.has(w));
  const told = op.summary ? words(op.description.replace(/<[^>]*>/g, ' ').split(/(?<=[.!?])\s/)[0] ?? '').filter((w) => stems(w).length && !whoseWords.has(w)).slice(0, 40) : [];
  const surface = new Map<string, string>();
  for (const w of [...summaryWords, ...words(op.operationId), ...words(op.path ?? '')]) {
    const s = stems(w)[0];
    if (s && !surface.has(s)) surface.set(s, w);
  }
  const prefixPairs: string[] = [];
  for (const short of new Set([...nameStems, ...structure.resource, ...structure.scope])) {
    for (const long of new Set(summaryStems)) {
      if (short.length >= 3 && long.length > short.length && (long.startsWith(short) || (long.endsWith(short) && !reverses(long, short)))) prefixPairs.push(`${short} ${long}`);
    }
  }
  const content = summaryWords.filter((w) => stems(w).length);
  const phrases: string[] = [];
  for (let i = 0; i + 1 < content.length; i++) phrases.push(`${content[i]} ${content[i + 1]}`);
  const pathParameters = [...new Set([...(op.path ?? '').matchAll(/\{([^{}]+)\}/g)].flatMap((m) => textStems(m[1]!)))];
  return { id: op.operationId, fields, structure, summaryStems, about, gist, told, kind: op.kind, deprecated: op.deprecated ?? false, surface: [...surface], prefixPairs, phrases, pathParameters };
}

/** Analyses kept, by the hash of the text they were read from; the least recently used go first. */
const CACHE_LIMIT = 25_000;
const cache = new Map<string, AnalysedOperation>();

/** Keys already computed, by operation object (a catalogue's entries are built once: src/docs/entries.ts). */
const keys = new WeakMap<RankedOperation, string>();

/** The text an analysis reads, hashed: equal texts share one analysis. */
export function analysisKey(op: RankedOperation): string {
  let key = keys.get(op);
  if (key === undefined) {
    const text = JSON.stringify([op.operationId, op.kind, op.method, op.path, op.summary, op.description.slice(0, 1500), op.returnsList, op.tags, op.fieldNames, op.responseNames ?? [], op.fieldTexts ?? [], op.deprecated ?? false]);
    key = createHash('sha256').update(text).digest('base64');
    keys.set(op, key);
  }
  return key;
}

/** The operation's analysis, computed once per distinct operation text. */
export function analysed(op: RankedOperation): AnalysedOperation {
  const key = analysisKey(op);
  let found = cache.get(key);
  if (found) {
    cache.delete(key);
  } else {
    found = analyseOperation(op);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, found);
  return found;
}

/** Keeps an analysis read back from disk (./analysis-files.ts) as the operation's own. */
export function keepAnalysis(op: RankedOperation, analysis: AnalysedOperation): void {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(analysisKey(op), analysis);
}

/** Forgets every analysis kept (benchmarks measure a build as a new process makes it). */
export function forgetAnalyses(): void {
  cache.clear();
}
