// The second stage of ranking: the first stage's best candidates (./rank.ts) scored again by a
// linear model over their score parts (SCORE_PARTS), products of a few parts, and each part's
// standing among the candidates, with boosted regression trees over the same features on top. Both
// are learned on the evaluation's dev split (test/search-eval/train-reranker.ts) and hold no word,
// phrase or operation of any catalogue: the same model ranks an API imported at run time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCORE_PARTS, type ScorePart } from './weights.ts';

/** How many of the first stage's best candidates the second stage orders; where fewer compete, it does not run. */
export const RERANK_DEPTH = 40;
/**
 * How far below the first stage's best a candidate may score and still be moved by the second
 * stage: one further down stays below (0.4 to 1.2 alike on dev, 0.2 lower; none moved further lost nothing either).
 */
export const RERANK_MARGIN = 0.6;

const at = (part: ScorePart) => SCORE_PARTS.indexOf(part);

/** Pairs of parts whose product is a feature: agreement on two counts at once. */
const PRODUCTS: readonly (readonly [ScorePart, ScorePart])[] = [
  ['coverage', 'action'],
  ['coverage', 'resource'],
  ['action', 'resource'],
  ['similar', 'coverage'],
  ['similar', 'action'],
  ['similar', 'resource'],
  ['self', 'action'],
  ['extra', 'coverage'],
  ['values', 'action'],
  ['sureCoverage', 'action'],
  ['ownTermsMatched', 'resource'],
  ['ownTermsMatched', 'action'],
  ['sureCoverage', 'resource'],
  ['reads', 'action'],
  ['sureCoverage', 'similar'],
];

/** Parts read against the best among the candidates: whether it is the best. (How far below it would add nothing: a linear model ranking one query's candidates already has the part itself.) */
const STANDING: readonly ScorePart[] = ['coverage', 'similar', 'action', 'resource', 'sureCoverage', 'ownTermsMatched'];
/** Where those parts are in a candidate's parts, found once. */
const PRODUCT_AT = PRODUCTS.map(([a, b]) => [at(a), at(b)] as const);
const STANDING_AT = STANDING.map(at);

/** The features' names, in the order rerankFeatures writes them. */
export const RERANK_FEATURES: readonly string[] = [
  ...SCORE_PARTS,
  ...PRODUCTS.map(([a, b]) => `${a}*${b}`),
  ...STANDING.map((p) => `${p}=best`),
  'log(1+firstRank)',
];

/** Each candidate's features, the candidates given in the first stage's order with their parts. */
export function rerankFeatures(parts: readonly (readonly number[])[]): number[][] {
  const best = STANDING_AT.map((p) => Math.max(...parts.map((c) => c[p]!)));
  return parts.map((c, rank) => [
    ...c,
    ...PRODUCT_AT.map(([a, b]) => c[a]! * c[b]!),
    ...STANDING_AT.map((p, k) => (c[p]! >= best[k]! - 1e-9 ? 1 : 0)),
    Math.log1p(rank),
  ]);
}

/** A regression tree, its nodes in arrays: node n is a leaf where feature[n] < 0, and goes left where the feature is below below[n]. */
export interface Tree {
  feature: number[];
  below: number[];
  left: number[];
  right: number[];
  value: number[];
}

/** What a tree adds to a candidate's score. */
export function treeValue(tree: Tree, features: readonly number[]): number {
  let n = 0;
  while (tree.feature[n]! >= 0) n = features[tree.feature[n]!]! < tree.below[n]! ? tree.left[n]! : tree.right[n]!;
  return tree.value[n]!;
}

interface RerankModel {
  features: string[];
  weights: number[];
  /** Boosted trees fitted after the weights: each adds to the weighted sum. */
  trees?: Tree[];
}

let model: RerankModel | undefined;

/** The learned model (./reranker.json, written by the trainer). */
function learned(): RerankModel {
  if (model) return model;
  const file = JSON.parse(readFileSync(join(import.meta.dirname, 'reranker.json'), 'utf8')) as RerankModel;
  // A model trained on other features would weigh the wrong ones: refused at once.
  if (file.features.join('\n') !== RERANK_FEATURES.join('\n') || file.weights.length !== RERANK_FEATURES.length) {
    throw new Error('src/docs/reranker.json was trained on other features than src/docs/rerank.ts writes: train it again (npm run train:reranker)');
  }
  return (model = file);
}

/** The second stage's score of each candidate, given in the first stage's order with their parts. */
export function rerankScores(parts: readonly (readonly number[])[]): number[] {
  const { weights, trees = [] } = learned();
  return rerankFeatures(parts).map((f) => f.reduce((sum, x, k) => sum + weights[k]! * x, 0) + trees.reduce((sum, tree) => sum + treeValue(tree, f), 0));
}

/**
 * Orders `window`, the first stage's best candidates best first, by the second stage, in place. Only
 * candidates within RERANK_MARGIN of the best that `movable` allows are moved, among the places they
 * held; the others keep theirs. Scores are rewritten to the new order: the second stage's for those
 * moved, and for the rest a score that keeps their place (the first stage's gaps below the moved).
 */
export function reorder<T extends { score: number }>(window: T[], partsOf: (candidate: T) => readonly number[], movable: (candidate: T) => boolean): void {
  if (window.length < RERANK_DEPTH) return;
  const second = rerankScores(window.map(partsOf));
  const top = window[0]!.score;
  const moves = window.map((c) => c.score >= top - RERANK_MARGIN && movable(c));
  const moved = window.map((c, k) => ({ c, score: second[k]! })).filter((_, k) => moves[k]);
  moved.sort((a, b) => b.score - a.score);
  const first = window.map((c) => c.score);
  let next = 0;
  const order = window.map((c, k) => (moves[k] ? moved[next++]!.c : c));
  const lowest = moved.length ? moved.at(-1)!.score : top;
  next = 0;
  order.forEach((c, k) => {
    if (moves[k]) c.score = moved[next++]!.score;
    else if (first[k]! >= top - RERANK_MARGIN) c.score = k > 0 ? order[k - 1]!.score - 1e-9 : (moved[0]?.score ?? 0) + 1e-9;
    else c.score = lowest - 1 - (top - first[k]!);
  });
  window.splice(0, window.length, ...order);
}
