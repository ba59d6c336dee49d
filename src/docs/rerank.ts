// The second stage of ranking: the first stage's best candidates (./rank.ts) scored again by a
// linear model over their score parts (SCORE_PARTS), products of a few parts, and a few parts'
// standing and place among the candidates, with boosted regression trees over the same features on top. Both
// are learned on the evaluation's dev split (test/search-eval/train-reranker.ts) and hold no word,
// phrase or operation of any catalogue: the general model ranks an API imported at run time. A
// second model also reads word pairs (./word-pairs.ts), for the catalogues they were learned on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCORE_PARTS, type ScorePart } from './weights.ts';

/** How many of the first stage's best candidates the second stage orders; where fewer compete, it does not run. */
export const RERANK_DEPTH = 40;
/**
 * How far below the first stage's best a candidate may score and still be moved by the second
 * stage: one further down stays below. With 61 features and trees of depth 6, on the dev half held
 * out from fitting: 0.6 R@3 0.9155, 1 0.9173, no margin 0.9177 (the weaker model of 46 features
 * ranked alike from 0.4 to 1.2).
 */
export const RERANK_MARGIN = 1;

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
/** Parts read by their place among the candidates (0 the best, 1 the last): how far below the best they are in order, not in value. */
const PLACED: readonly ScorePart[] = ['coverage', 'similar', 'sureCoverage', 'alignGist', 'alignTold'];
/** Where those parts are in a candidate's parts, found once. */
const PRODUCT_AT = PRODUCTS.map(([a, b]) => [at(a), at(b)] as const);
const STANDING_AT = STANDING.map(at);
const PLACED_AT = PLACED.map(at);

/** The features' names, in the order rerankFeatures writes them. */
export const RERANK_FEATURES: readonly string[] = [
  ...SCORE_PARTS,
  ...PRODUCTS.map(([a, b]) => `${a}*${b}`),
  ...STANDING.map((p) => `${p}=best`),
  'log(1+firstRank)',
  ...PLACED.map((p) => `${p}:place`),
];

/** Each candidate's features, the candidates given in the first stage's order with their parts. */
export function rerankFeatures(parts: readonly (readonly number[])[]): number[][] {
  const best = STANDING_AT.map((p) => Math.max(...parts.map((c) => c[p]!)));
  // A candidate's place by a part: how many candidates have more of it, as a share of the others.
  const places = PLACED_AT.map((p) => parts.map((c) => parts.filter((o) => o[p]! > c[p]! + 1e-9).length / Math.max(parts.length - 1, 1)));
  return parts.map((c, rank) => [
    ...c,
    ...PRODUCT_AT.map(([a, b]) => c[a]! * c[b]!),
    ...STANDING_AT.map((p, k) => (c[p]! >= best[k]! - 1e-9 ? 1 : 0)),
    Math.log1p(rank),
    ...places.map((place) => place[rank]!),
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

interface RerankModel {
  features: string[];
  weights: number[];
  /** Boosted trees fitted after the weights: each adds to the weighted sum. */
  trees?: Tree[];
}

/** Every tree's nodes in one set of typed arrays, tree t's root at roots[t]: read without a pointer per node. */
export interface Forest {
  roots: Int32Array;
  feature: Int32Array;
  below: Float64Array;
  left: Int32Array;
  right: Int32Array;
  value: Float64Array;
}

export function forestOf(trees: readonly Tree[]): Forest {
  const nodes = trees.reduce((sum, t) => sum + t.feature.length, 0);
  const forest: Forest = { roots: new Int32Array(trees.length), feature: new Int32Array(nodes), below: new Float64Array(nodes), left: new Int32Array(nodes), right: new Int32Array(nodes), value: new Float64Array(nodes) };
  let at = 0;
  trees.forEach((t, k) => {
    forest.roots[k] = at;
    for (let n = 0; n < t.feature.length; n++) {
      forest.feature[at + n] = t.feature[n]!;
      forest.below[at + n] = t.below[n]!;
      forest.left[at + n] = at + t.left[n]!;
      forest.right[at + n] = at + t.right[n]!;
      forest.value[at + n] = t.value[n]!;
    }
    at += t.feature.length;
  });
  return forest;
}

/** What all the trees add to a candidate's score: each the value of the leaf the features lead to. */
export function forestValue(forest: Forest, features: readonly number[]): number {
  const { roots, feature, below, left, right, value } = forest;
  let sum = 0;
  for (let t = 0; t < roots.length; t++) {
    let n = roots[t]!;
    while (feature[n]! >= 0) n = features[feature[n]!]! < below[n]! ? left[n]! : right[n]!;
    sum += value[n]!;
  }
  return sum;
}

/** The features only the model with word pairs reads (./word-pairs.ts). */
const PAIR_FEATURES: readonly ScorePart[] = ['pairBest', 'pairMean'];

/** Which learned model: the general one, for any catalogue, or the one that also reads word pairs, for the catalogues they were learned on. */
export type RerankModelName = 'general' | 'pairs';
/** Each model's file, beside this one. */
export const RERANK_MODEL_FILES: Readonly<Record<RerankModelName, string>> = { general: 'reranker.json', pairs: 'reranker-pairs.json' };
/** The features a model is trained on: all, or for the general one all but the pair features. */
export const modelFeatures = (name: RerankModelName): readonly string[] =>
  name === 'general' ? RERANK_FEATURES.filter((f) => !(PAIR_FEATURES as readonly string[]).includes(f)) : RERANK_FEATURES;
const models = new Map<RerankModelName, RerankModel & { forest: Forest }>();

/**
 * A learned model (./reranker.json, ./reranker-pairs.json, written by the trainer), its weights and
 * trees put over all of RERANK_FEATURES: a model trained on fewer (the general one has no pair
 * features) weighs the others 0 and never splits on them.
 */
function learned(name: RerankModelName): RerankModel & { forest: Forest } {
  const known = models.get(name);
  if (known) return known;
  const path = join(import.meta.dirname, RERANK_MODEL_FILES[name]);
  const file = JSON.parse(readFileSync(path, 'utf8')) as RerankModel;
  const wanted = modelFeatures(name);
  // A model trained on other features would weigh the wrong ones: refused at once.
  if (file.features.join('\n') !== wanted.join('\n') || file.weights.length !== wanted.length) {
    throw new Error(`src/docs/${RERANK_MODEL_FILES[name]} was trained on other features than src/docs/rerank.ts writes: train it again (npm run train:reranker)`);
  }
  const full = file.features.map((f) => RERANK_FEATURES.indexOf(f));
  const weights = RERANK_FEATURES.map(() => 0);
  file.weights.forEach((w, j) => (weights[full[j]!] = w));
  const trees = (file.trees ?? []).map((t) => ({ ...t, feature: t.feature.map((f) => (f < 0 ? f : full[f]!)) }));
  const model = { ...file, features: [...RERANK_FEATURES], weights, trees, forest: forestOf(trees) };
  models.set(name, model);
  return model;
}

/**
 * The second stage's score of each candidate, given in the first stage's order with their parts;
 * where `wanted` is given, only of the candidates it marks (NaN for the rest, which still count
 * among the others in every candidate's features).
 */
export function rerankScores(parts: readonly (readonly number[])[], wanted?: readonly boolean[], model: RerankModelName = 'general'): number[] {
  const { weights, forest } = learned(model);
  return rerankFeatures(parts).map((f, k) => (wanted && !wanted[k] ? NaN : f.reduce((sum, x, j) => sum + weights[j]! * x, 0) + forestValue(forest, f)));
}

/**
 * Orders `window`, the first stage's best candidates best first, by the second stage, in place. Only
 * candidates within RERANK_MARGIN of the best that `movable` allows are moved, among the places they
 * held; the others keep theirs. Scores are rewritten to the new order: the second stage's for those
 * moved, and for the rest a score that keeps their place (the first stage's gaps below the moved).
 */
export function reorder<T extends { score: number }>(window: T[], partsOf: (candidate: T) => readonly number[], movable: (candidate: T) => boolean, model: RerankModelName = 'general'): void {
  if (window.length < RERANK_DEPTH) return;
  const top = window[0]!.score;
  const moves = window.map((c) => c.score >= top - RERANK_MARGIN && movable(c));
  const second = rerankScores(window.map(partsOf), moves, model);
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
