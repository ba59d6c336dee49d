// Word pairs learned from how people ask: for a word of a request and a word of an operation, how
// much likelier the operation is the one asked for than the other candidates beside it (a lift, in
// logs). Learned on the evaluation's dev split by test/search-eval/train-reranker.ts and read by the
// second stage's model with pairs (./rerank.ts) as two parts. It holds words, not operations, but
// what it says of a word holds for the catalogues it was learned on: on a catalogue it never saw
// it made the second stage worse (docs/search.md), so only their services are ranked with it.
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedQuery } from './query.ts';
import type { Structure } from './structure.ts';
import { stems } from './text.ts';

/** Each request word's lifts, by operation word: plain objects as JSON reads them, so loading the table is one parse (a row becomes a Map on its first use, so a word such as "constructor" is no entry). */
export type WordPairs = Readonly<Record<string, Readonly<Record<string, number>> | undefined>>;

/** The table and the services whose requests taught it: only their operations are ranked with it. */
export interface LearnedPairs {
  services: readonly string[];
  pairs: WordPairs;
}

const PAIRS_PATH = join(import.meta.dirname, 'word-pairs.json');
/** What the trainer writes before the table: `{"trained":…,"services":[…],"pairs":{…}}`. */
const TABLE_KEY = ',"pairs":';
/** How much of the file's start holds its head, the table left out. */
const HEAD_BYTES = 16 * 1024;
let services: readonly string[] | undefined;
let shipped: WordPairs | undefined;
/** A table set in place of the shipped one (the trainer's, fitted without the requests it scores). */
let override: LearnedPairs | undefined;

/**
 * The services the shipped table was learned on, read from the file's start without the table:
 * parsing its 3 MB costs 0.2–0.3 s and 23 MB of heap, which a process that searches no such service
 * never needs.
 */
function learnedOn(): readonly string[] {
  if (services) return services;
  if (!existsSync(PAIRS_PATH)) return (services = []);
  const start = Buffer.alloc(HEAD_BYTES);
  const fd = openSync(PAIRS_PATH, 'r');
  let text: string;
  try {
    text = start.toString('utf8', 0, readSync(fd, start, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
  const at = text.indexOf(TABLE_KEY);
  // Written some other way: the whole file says.
  if (at < 0) return (services = (JSON.parse(readFileSync(PAIRS_PATH, 'utf8')) as LearnedPairs).services);
  return (services = (JSON.parse(`${text.slice(0, at)}}`) as { services: string[] }).services);
}

/** The learned table (./word-pairs.json): empty until one is trained. */
export function wordPairs(): LearnedPairs {
  if (override) return override;
  shipped ??= existsSync(PAIRS_PATH) ? (JSON.parse(readFileSync(PAIRS_PATH, 'utf8')) as LearnedPairs).pairs : {};
  return { services: learnedOn(), pairs: shipped };
}

/** Ranks with `pairs` instead of the shipped table until called again without one. */
export function useWordPairs(pairs: LearnedPairs | undefined): void {
  override = pairs;
}

/** Whether operations of these services are ranked with the word pairs: all were among those they were learned on. */
export function pairsKnow(of: Iterable<string>): boolean {
  const known = override?.services ?? learnedOn();
  for (const service of of) if (!known.includes(service)) return false;
  return true;
}

/** A request's words for the table: its written words' stems (no names, nothing a message says) and what it asks as tokens of their own. */
export function requestTokens(parsed: ParsedQuery): string[] {
  const tokens = new Set(parsed.terms.filter((t) => t.at >= 0 && !t.name && !t.said && !t.idPrefix).map((t) => t.stem));
  tokens.add(`@${parsed.action ?? 'none'}`);
  if (parsed.self) tokens.add('@self');
  if (parsed.who || parsed.asksWho) tokens.add('@who');
  if (parsed.yesNo) tokens.add('@yesno');
  return [...tokens];
}

/** An operation's words for the table: the stems of its summary and ID, its action, and what it is under. */
export function operationTokens(gist: readonly string[], structure: Structure): string[] {
  const tokens = new Set(gist.flatMap((w) => stems(w.toLowerCase())));
  tokens.add(`!${structure.action}`);
  for (const s of structure.scope) tokens.add(`^${s}`);
  if (structure.self) tokens.add('!self');
  return [...tokens];
}

/**
 * The two parts the second stage reads: each request word's best lift among the operation's
 * words, averaged over the request's words; and the mean lift over every pair.
 */
export function pairParts(pairs: WordPairs, request: readonly string[], operation: readonly string[]): [best: number, mean: number] {
  if (!request.length || !operation.length) return [0, 0];
  let best = 0;
  let sum = 0;
  for (const u of request) {
    const row = rowOf(pairs, u);
    if (!row) continue;
    let top = 0;
    for (const v of operation) {
      const lift = row.get(v);
      if (lift === undefined) continue;
      sum += lift;
      if (lift > top) top = lift;
    }
    best += top;
  }
  return [best / request.length, sum / (request.length * operation.length)];
}

/** Each table's rows as Maps, made on a word's first use: a search looks a row up for each of 40 candidates' words. */
const rowsOf = new WeakMap<WordPairs, Map<string, ReadonlyMap<string, number> | undefined>>();

function rowOf(pairs: WordPairs, word: string): ReadonlyMap<string, number> | undefined {
  let rows = rowsOf.get(pairs);
  if (!rows) rowsOf.set(pairs, (rows = new Map()));
  if (rows.has(word)) return rows.get(word);
  const row = Object.hasOwn(pairs, word) ? pairs[word] : undefined;
  const map = row ? new Map(Object.entries(row)) : undefined;
  rows.set(word, map);
  return map;
}
