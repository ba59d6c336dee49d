// Learns the word pairs of src/docs/word-pairs.ts from dev requests: for a request word u and an
// operation word v, how often v is in the operation asked for against how often it is in the
// candidates beside it, over the requests that have u. Counted so that a fold of requests can be
// taken out and put back, for the trainer to score each request with a table that never saw it.
import type { WordPairs } from '../../src/docs/word-pairs.ts';

export interface PairExample {
  request: readonly string[];
  /** Each candidate's words, in the window's order. */
  candidates: readonly (readonly string[])[];
  expected: Uint8Array;
}

/**
 * A lift from what was seen and what the candidates made likely: observed against expected, each
 * with one added; none where neither count reached one. (A word of one request and a pair seen once
 * count: on GitHub requests of 24 writers the fit never saw, keeping only words of 3 requests and
 * pairs seen twice gave R@3 0.852, R@1 0.677 against 0.854, 0.684, docs/search-history.md.)
 */
export function liftOf(seen: number, likely: number): number | undefined {
  // Below one, not below 1 - 1e-9: a fold counted out leaves float residue, never a whole sighting.
  if (seen < 1 - 1e-9 && likely < 1 - 1e-9) return undefined;
  const lift = Math.log((seen + 1) / (likely + 1));
  return Math.abs(lift) < MIN_LIFT ? undefined : lift;
}
/** Lifts nearer 0 than this are left out of the table: they say nothing, and cost space. */
const MIN_LIFT = 0.1;

export class PairCounts {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  /** By request word, then operation word: how many times v was in an operation asked for (shared among several asked for). */
  private readonly seen = new Map<number, Map<number, number>>();
  /** By request word, then operation word: v's share of the window's candidates, summed: how many times v would be asked for by chance. */
  private readonly likely = new Map<number, Map<number, number>>();

  private id(token: string): number {
    let id = this.ids.get(token);
    if (id === undefined) {
      this.ids.set(token, (id = this.names.length));
      this.names.push(token);
    }
    return id;
  }

  /** Counts an example in (sign 1) or takes it out again (sign -1). */
  add(example: PairExample, sign: 1 | -1): void {
    const n = example.candidates.length;
    const asked = example.expected.reduce((a, e) => a + e, 0);
    if (!n || !asked) return;
    const share = new Map<number, number>();
    const hit = new Map<number, number>();
    example.candidates.forEach((tokens, j) => {
      for (const t of tokens) {
        const v = this.id(t);
        share.set(v, (share.get(v) ?? 0) + 1 / n);
        if (example.expected[j]) hit.set(v, (hit.get(v) ?? 0) + 1 / asked);
      }
    });
    for (const token of example.request) {
      const u = this.id(token);
      let likely = this.likely.get(u);
      if (!likely) this.likely.set(u, (likely = new Map()));
      let seen = this.seen.get(u);
      if (!seen) this.seen.set(u, (seen = new Map()));
      for (const [v, s] of share) likely.set(v, (likely.get(v) ?? 0) + sign * s);
      for (const [v, h] of hit) seen.set(v, (seen.get(v) ?? 0) + sign * h);
    }
  }

  /** The lift of one pair as the counts stand (undefined: not in the table). */
  lift(u: string, v: string): number | undefined {
    const a = this.ids.get(u);
    const b = this.ids.get(v);
    if (a === undefined || b === undefined) return undefined;
    return liftOf(this.seen.get(a)?.get(b) ?? 0, this.likely.get(a)?.get(b) ?? 0);
  }

  /** The table as the counts stand, restricted to what `request` and `operations` can look up (all when not given); lifts rounded to `digits` when given. */
  table(request?: readonly string[], operations?: readonly (readonly string[])[], digits?: number): Record<string, Record<string, number>> {
    const table: Record<string, Record<string, number>> = {};
    const round = digits === undefined ? (x: number) => x : (x: number) => Math.round(x * 10 ** digits) / 10 ** digits;
    const us = request ? request.flatMap((u) => this.ids.get(u) ?? []) : [...this.likely.keys()];
    const vs = operations ? [...new Set(operations.flat())].flatMap((v) => this.ids.get(v) ?? []) : undefined;
    for (const u of us) {
      const seen = this.seen.get(u);
      const likely = this.likely.get(u);
      if (!likely) continue;
      const row: Record<string, number> = {};
      let size = 0;
      for (const v of vs ?? likely.keys()) {
        const lift = liftOf(seen?.get(v) ?? 0, likely.get(v) ?? 0);
        if (lift !== undefined) {
          row[this.names[v]!] = round(lift);
          size++;
        }
      }
      if (size) table[this.names[u]!] = row;
    }
    return table;
  }
}
