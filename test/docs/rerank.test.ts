// The second stage of ranking (src/docs/rerank.ts): its features from the first stage's parts, the
// trained model it reads, and when ranking uses it (src/docs/rank.ts): a full window of candidates only.
import { beforeAll, describe, expect, it } from 'vitest';
import { Ranker } from '../../src/docs/rank.ts';
import { RERANK_DEPTH, RERANK_FEATURES, RERANK_MARGIN, reorder, rerankFeatures, rerankScores, forestOf, forestValue } from '../../src/docs/rerank.ts';
import { SCORE_PARTS, type ScorePart } from '../../src/docs/weights.ts';
import { loadCatalogues, type LoadedCatalogue } from '../search-eval/catalogues.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

const feature = (name: string) => RERANK_FEATURES.indexOf(name);

/** The candidates a search explained, in the first stage's order, with their first-stage scores and parts. */
const firstStage = (explain: Map<string, Record<string, unknown>>) =>
  [...explain]
    .filter(([id]) => id !== '(query)')
    .map(([id, e]) => ({ id, score: e.score as number, parts: e.parts as number[] }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));

/** Parts of a candidate: all 0 but those given. */
const parts = (given: Partial<Record<ScorePart, number>>) => SCORE_PARTS.map((name) => given[name] ?? 0);

describe('second-stage features', () => {
  it('writes every part, then products of parts, whether each standing part is the best, and the first-stage rank', () => {
    const [first, second] = rerankFeatures([parts({ coverage: 0.8, action: 1, similar: 0.5 }), parts({ coverage: 0.9, action: 0.4, similar: 0.2 })]);
    expect(first).toHaveLength(RERANK_FEATURES.length);
    expect(first!.slice(0, SCORE_PARTS.length)).toEqual(parts({ coverage: 0.8, action: 1, similar: 0.5 }));
    expect(first![feature('coverage*action')]).toBeCloseTo(0.8);
    expect(second![feature('similar*coverage')]).toBeCloseTo(0.18);
    // Coverage is best in the second candidate, action in the first.
    expect([first![feature('coverage=best')], second![feature('coverage=best')]]).toEqual([0, 1]);
    expect([first![feature('action=best')], second![feature('action=best')]]).toEqual([1, 0]);
    expect([first![feature('log(1+firstRank)')], second![feature('log(1+firstRank)')]]).toEqual([0, Math.log(2)]);
  });

  it('places each candidate among the others by a few parts: 0 where none has more, 1 where all do', () => {
    const features = rerankFeatures([parts({ similar: 0.2 }), parts({ similar: 0.9 }), parts({ similar: 0.5 }), parts({ similar: 0.9 })]);
    expect(features.map((f) => f[feature('similar:place')])).toEqual([1, 0, 2 / 3, 0]);
  });

  it('scores with the trained model, which was trained on these features', () => {
    const scores = rerankScores([parts({ sureCoverage: 0.9, coverage: 0.9, action: 1, resource: 1 }), parts({ coverage: 0.2 })]);
    expect(scores.every(Number.isFinite)).toBe(true);
    // More of the query explained by its own words, the asked action and resource: the better answer.
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });
});

describe('the two models', () => {
  const plain = parts({ sureCoverage: 0.6, coverage: 0.6, action: 1, resource: 1 });
  const lifted = parts({ sureCoverage: 0.6, coverage: 0.6, action: 1, resource: 1, pairBest: 1.5, pairMean: 0.4 });

  it('the general one never reads the word pairs: two candidates that differ only in them score alike', () => {
    // Each alone, so both are first in their window.
    const [a] = rerankScores([plain], undefined, 'general');
    const [b] = rerankScores([lifted], undefined, 'general');
    expect(a).toBeCloseTo(b!, 12);
  });

  it('the one with pairs puts the candidate whose words the request’s lift above its twin', () => {
    const [a] = rerankScores([plain], undefined, 'pairs');
    const [b] = rerankScores([lifted], undefined, 'pairs');
    expect(b).toBeGreaterThan(a!);
  });
});

describe('boosted trees', () => {
  // Feature 0 below 0.5: left, a leaf of 1; else feature 1 below 2: a leaf of 2, or of 3.
  const tree = { feature: [0, -1, 1, -1, -1], below: [0.5, 0, 2, 0, 0], left: [1, -1, 3, -1, -1], right: [2, -1, 4, -1, -1], value: [0, 1, 0, 2, 3] };
  // A stump on feature 1: below 5, 10; else 20.
  const stump = { feature: [1, -1, -1], below: [5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, 10, 20] };

  it('add the value of the leaf a candidate’s features lead to in each tree', () => {
    expect(forestValue(forestOf([tree]), [0.2, 9])).toBe(1);
    expect(forestValue(forestOf([tree]), [0.5, 1])).toBe(2);
    expect(forestValue(forestOf([tree]), [0.7, 2])).toBe(3);
    // Packed one after another, the second tree's nodes are found past the first's.
    expect(forestValue(forestOf([tree, stump]), [0.7, 2])).toBe(13);
    expect(forestValue(forestOf([stump, tree]), [0.2, 9])).toBe(21);
  });
});

describe('when ranking uses the second stage', () => {
  /** A catalogue of `n` operations on the same resource: candidates for "list the widgets" all. */
  const widgets = (n: number) =>
    new Ranker(Array.from({ length: n }, (_, i) => op(`w.widgets/op-${String(i).padStart(2, '0')}`, i % 2 ? 'GET' : 'POST', `/widgets/${'x'.repeat(i)}`, i % 2 ? `List widgets ${i}` : `Create widget ${i}`, { returnsList: i % 2 === 1 })));

  it('keeps the first stage’s order and scores where fewer candidates than a full window compete', () => {
    const explain = new Map<string, Record<string, unknown>>();
    const found = widgets(RERANK_DEPTH - 5).search('list the widgets', 5, undefined, undefined, explain);
    const expected = firstStage(explain).slice(0, 5);
    expect(found.map((h) => h.id)).toEqual(expected.map((c) => c.id));
    expect(found.map((h) => h.score)).toEqual(expected.map((c) => c.score));
  });

  it('orders the candidates close to the first stage’s best by the second stage’s scores, and leaves the rest in place below them', () => {
    const explain = new Map<string, Record<string, unknown>>();
    const found = widgets(RERANK_DEPTH + 10).search('list the widgets', 5, undefined, undefined, explain);
    const window = firstStage(explain).slice(0, RERANK_DEPTH);
    const second = rerankScores(window.map((c) => c.parts));
    const top = window[0]!.score;
    const close = window.map((c, k) => ({ ...c, second: second[k]! })).filter((c) => c.score >= top - RERANK_MARGIN);
    expect(close.length).toBeGreaterThan(5);
    const expected = close.sort((a, b) => b.second - a.second || (a.id < b.id ? -1 : 1)).slice(0, 5);
    expect(found.map((h) => h.id)).toEqual(expected.map((c) => c.id));
    expect(found.map((h) => h.score)).toEqual(expected.map((c) => c.second));
  });
});

describe('parts read for the second stage’s window only', () => {
  /** Candidates for "list the invoices": 30 operations on invoices, 15 on receipts, and 5 on invoices beyond the window's reach. */
  const billing = () =>
    new Ranker([
      ...Array.from({ length: 30 }, (_, i) => op(`b.invoices/op-${i}`, 'GET', `/invoices/v${i}`, `List invoices ${i}`, { returnsList: true, tags: ['invoices'] })),
      ...Array.from({ length: 15 }, (_, i) => op(`b.receipts/op-${i}`, 'GET', `/receipts/v${i}/invoices`, `List receipts for invoices ${i}`, { returnsList: true, tags: ['receipts'] })),
    ]);
  const explained = (query: string) => {
    const explain = new Map<string, Record<string, unknown>>();
    billing().search(query, 5, undefined, undefined, explain);
    return firstStage(explain);
  };
  const part = (c: { parts: number[] }, name: ScorePart) => c.parts[SCORE_PARTS.indexOf(name)]!;

  it('spreads the first stage’s belief over the window’s heads and groups, and leaves candidates outside the window without any', () => {
    const ranked = explained('list the invoices');
    const window = ranked.slice(0, RERANK_DEPTH);
    const beliefOf = (name: ScorePart, key: (c: { id: string }) => string) => {
      const seen = new Map<string, number>();
      for (const c of window) seen.set(key(c), part(c, name));
      return [...seen.values()].reduce((a, b) => a + b, 0);
    };
    // Each group's belief is the same for all its members; the groups' beliefs make up the whole.
    expect(beliefOf('groupBelief', (c) => c.id.split('/')[0]!)).toBeCloseTo(1);
    const invoices = window.filter((c) => c.id.startsWith('b.invoices'));
    expect(part(invoices[0]!, 'groupBelief')).toBeGreaterThan(part(window.find((c) => c.id.startsWith('b.receipts'))!, 'groupBelief'));
    for (const c of ranked.slice(RERANK_DEPTH)) expect([part(c, 'groupBelief'), part(c, 'headBelief'), part(c, 'alignGist')]).toEqual([0, 0, 0]);
  });

  it('aligns the query’s words with an operation’s by meaning: its own words fully, others by their closeness', () => {
    const window = explained('list the receipts').slice(0, RERANK_DEPTH);
    const receipts = window.find((c) => c.id.startsWith('b.receipts'))!;
    const invoices = window.find((c) => c.id.startsWith('b.invoices'))!;
    expect(part(receipts, 'alignGist')).toBeCloseTo(1, 5);
    expect(part(invoices, 'alignGist')).toBeGreaterThan(0);
    expect(part(invoices, 'alignGist')).toBeLessThan(0.99);
  });
});

describe('the second stage on GitHub', () => {
  let github: LoadedCatalogue;
  beforeAll(async () => {
    [github] = (await loadCatalogues(['github'])) as [LoadedCatalogue];
  }, 60_000);

  // Dev requests the first stage put another operation first for (test/search-eval/dev).
  it.each([
    ['stop watching acme/noisy-repo, it floods my inbox', 'github.activity/delete-repo-subscription'],
    ['clean up the stale feature/old-nav branch', 'github.git/delete-ref'],
  ])('puts the operation %j asks for first', (query, expected) => {
    const answer = github.index.run({ query, limit: 3 }, () => true) as { results: { operationId: string }[] };
    expect(answer.results[0]!.operationId).toBe(expected);
  });
});

describe('reorder', () => {
  /** A window of candidates, first-stage scores falling by `step`; the second stage prefers those with more own-word coverage. */
  const window = (step: number, coverageStep: number, kinds: string[] = []) =>
    Array.from({ length: RERANK_DEPTH }, (_, k) => {
      const covered = Math.min(1, k * coverageStep);
      return { name: `c${k}`, kind: kinds[k] ?? 'physical', score: 2 - k * step, parts: parts({ sureCoverage: covered, coverage: covered, resource: 1, action: 1 }) };
    });
  const names = (w: { name: string }[]) => w.map((c) => c.name);

  it('moves only candidates within the margin of the best, and keeps the others below them in their order', () => {
    const w = window(RERANK_MARGIN / 4, 0.2);
    reorder(w, (c) => c.parts, () => true);
    // The first five are within the margin (0, ¼, ½, ¾, 1 margin below the best): the one explaining most comes first.
    expect(names(w).slice(0, 5)).toEqual(['c4', 'c3', 'c2', 'c1', 'c0']);
    expect(names(w).slice(5)).toEqual(Array.from({ length: RERANK_DEPTH - 5 }, (_, k) => `c${k + 5}`));
    // Scores follow the new order.
    expect(w.every((c, k) => k === 0 || c.score < w[k - 1]!.score)).toBe(true);
  });

  it('keeps an unmovable candidate in its place and moves the others around it', () => {
    const w = window(RERANK_MARGIN / 8, 0.1, ['physical', 'unified']);
    reorder(w, (c) => c.parts, (c) => c.kind !== 'unified');
    expect(w[1]!.name).toBe('c1');
    expect(w[0]!.name).toBe('c8');
    expect(w.every((c, k) => k === 0 || c.score < w[k - 1]!.score)).toBe(true);
  });

  it('leaves fewer candidates than a full window as they are', () => {
    const w = window(0.01, 0.02).slice(0, RERANK_DEPTH - 1);
    const before = w.map((c) => ({ ...c }));
    reorder(w, (c) => c.parts, () => true);
    expect(w).toEqual(before);
  });
});
