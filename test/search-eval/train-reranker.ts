// Trains the second stage of search_docs' ranking (src/docs/rerank.ts) on the dev split only, and
// writes it to src/docs/reranker.json, with the word pairs it reads to src/docs/word-pairs.json. `npm run train:reranker` (about 20 minutes: 25 on all of dev, 38,916 requests, in 2026-12-06's fifth session, a half fit running beside it for most of that).
//
// Each dev request is searched as search_docs searches it; the first stage's best RERANK_DEPTH
// candidates, with their features, are kept where an expected operation is among them; their
// word-pair parts are then read again from tables that never saw the request. The model
// puts the expected operation first (a softmax over the candidates, its log-likelihood): first its
// linear weights, fitted by L-BFGS and held near the first stage's own, then boosted regression
// trees on top of them. The test split is never read here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogues } from './catalogues.ts';
import { intentsOf } from './intents.ts';
import { modelFeatures, RERANK_DEPTH, RERANK_FEATURES, RERANK_MODEL_FILES, rerankFeatures, type RerankModelName, type Tree } from '../../src/docs/rerank.ts';
import { SCORE_PARTS, SCORE_WEIGHTS } from '../../src/docs/weights.ts';
import { pairParts, useWordPairs } from '../../src/docs/word-pairs.ts';
import { PairCounts, type PairExample } from './word-pairs-fit.ts';

/**
 * RERANK_MODEL=general fits the model for any catalogue (src/docs/reranker.json, no word pairs);
 * the default, pairs, fits the one that also reads word pairs (src/docs/reranker-pairs.json), and
 * counts the pairs (src/docs/word-pairs.json).
 */
const MODEL = (process.env.RERANK_MODEL ?? 'pairs') as RerankModelName;
if (MODEL !== 'general' && MODEL !== 'pairs') throw new Error(`RERANK_MODEL: expected general or pairs, got ${MODEL}`);
const MODEL_PATH = join(import.meta.dirname, '../../src/docs', RERANK_MODEL_FILES[MODEL]);
const PAIRS_PATH = join(import.meta.dirname, '../../src/docs/word-pairs.json');
/** How many parts the dev requests are cut into for the word pairs' cross-fitting. */
const PAIR_FOLDS = 5;
/** Scores are divided by this before the softmax: the first stage's scores differ by tenths. */
const TEMPERATURE = 0.1;
/** Pull towards the first stage's weights (L2), so a feature few requests use stays near them. */
const PULL = 1e-3;
const ITERATIONS = 300;

/** The model's features: all, or all but the pair features; and where each is among all. */
const FEATURES = [...modelFeatures(MODEL)];
const USED = FEATURES.map((f) => RERANK_FEATURES.indexOf(f));
const F = FEATURES.length;
/** The first stage's weights over the features: where training starts, and what it is held near. */
const start = USED.map((k) => (k < SCORE_PARTS.length ? SCORE_WEIGHTS[k]! : 0));

/** The model as JSON: one line per feature and weight, one per tree. */
const write = (weights: number[], about: Record<string, unknown>, trees: Tree[] = []) => {
  const head = JSON.stringify({ ...about, features: FEATURES, weights: weights.map((w) => Math.round(w * 1e6) / 1e6) }, null, 1);
  const treeLines = trees.map((t) => `  ${JSON.stringify(t)}`).join(',\n');
  writeFileSync(MODEL_PATH, `${head.slice(0, -'\n}'.length)},\n "trees": [\n${treeLines}\n ]\n}\n`);
};

// Searching with the first stage's weights over the features orders every candidate as the first stage does.
write(start, { trained: 'not yet: the first stage’s weights' });
// The pair parts are read again below from tables that never saw the request; none is needed to search.
useWordPairs({ services: [], pairs: {} });

interface Request {
  /** Features of each candidate, in the first stage's order, flattened. */
  x: Float64Array;
  n: number;
  expected: Uint8Array;
}

/** A kept request before its features: its candidates' parts, and its words and theirs for the word pairs. */
interface Collected {
  parts: number[][];
  expected: Uint8Array;
  example: PairExample;
  /** Its cross-fitting fold (PAIR_FOLDS). */
  fold: number;
}
const collected: Collected[] = [];
/**
 * RERANK_HOLD_OUT=<catalogue>:<from> leaves that catalogue's dev requests from that index on out of
 * the fit, for a measure on writers it never saw (`github:8772`: the twenty-four writers appended
 * last, test/search-eval/README.md) or on a catalogue it never saw (`stripe:0`).
 */
const heldOut = (() => {
  const [catalogue = '', from = '0'] = (process.env.RERANK_HOLD_OUT ?? '').split(':');
  if (catalogue && !Number.isInteger(Number(from))) throw new Error(`RERANK_HOLD_OUT: expected <catalogue>:<index>, got ${process.env.RERANK_HOLD_OUT}`);
  return { catalogue, from: Number(from) };
})();
let unreachable = 0;
let searched = 0;
/** The services whose requests the pairs are counted from: only those are ranked with them. */
const trainedOn: string[] = [];
for (const c of await loadCatalogues()) {
  // The parts of each candidate of the last search, as ranking explains them (src/docs/rank.ts).
  const ranker = (c.index as unknown as { ranker: { search: (...args: unknown[]) => unknown } }).ranker;
  const search = ranker.search.bind(ranker);
  let explained = new Map<string, { score: number; parts?: number[] }>();
  ranker.search = (typed: unknown, limit: unknown, keep: unknown, read: unknown) => {
    explained = new Map();
    return search(typed, limit, keep, read, explained);
  };
  // RERANK_TRAIN_HALF=1 fits on every other dev request (the odd ones), so the even ones can measure a change to the features.
  const half = process.env.RERANK_TRAIN_HALF === '1';
  const intents = intentsOf(c.name, 'dev').filter((_, i) => (!half || i % 2 === 1) && !(c.name === heldOut.catalogue && i >= heldOut.from));
  if (intents.length) trainedOn.push(c.name);
  for (const [k, intent] of intents.entries()) {
    explained = new Map();
    c.index.run({ query: intent.query, limit: 5 }, () => true);
    searched++;
    const candidates = [...explained]
      .filter(([, e]) => e.parts !== undefined)
      .sort(([a, x], [b, y]) => y.score - x.score || (a < b ? -1 : 1))
      .slice(0, RERANK_DEPTH);
    const expected = Uint8Array.from(candidates, ([id]) => (intent.expected.includes(id) ? 1 : 0));
    // Fewer candidates than a full window are ranked by the first stage alone (src/docs/rank.ts).
    if (candidates.length < RERANK_DEPTH || !expected.some((e) => e === 1)) {
      unreachable++;
      continue;
    }
    const tokens = (entry: unknown) => (entry as { tokens?: string[] } | undefined)?.tokens ?? [];
    collected.push({
      parts: candidates.map(([, e]) => [...e.parts!]),
      expected,
      example: { request: tokens(explained.get('(query)')), candidates: candidates.map(([, e]) => tokens(e)), expected },
      // Folds are runs of each catalogue's requests, not every fifth one: a writer's requests sit together, and one fold's look-alikes must not score it.
      fold: Math.floor((k * PAIR_FOLDS) / intents.length),
    });
  }
  console.log(`${c.name}: ${collected.length} requests kept so far`);
}

// The word pairs (src/docs/word-pairs.ts): each request's two pair parts are read from a table
// counted without its fold, so the model learns how far a pair seen elsewhere carries; the table
// written is counted from all of them.
const PAIR_BEST = SCORE_PARTS.indexOf('pairBest');
const PAIR_MEAN = SCORE_PARTS.indexOf('pairMean');
const counts = new PairCounts();
if (MODEL === 'pairs') for (const r of collected) counts.add(r.example, 1);
for (let fold = 0; MODEL === 'pairs' && fold < PAIR_FOLDS; fold++) {
  const held = collected.filter((r) => r.fold === fold);
  for (const r of held) counts.add(r.example, -1);
  for (const r of held) {
    const table = counts.table(r.example.request, r.example.candidates);
    r.parts.forEach((p, j) => ([p[PAIR_BEST], p[PAIR_MEAN]] = pairParts(table, r.example.request, r.example.candidates[j]!)));
  }
  for (const r of held) counts.add(r.example, 1);
}
if (MODEL === 'pairs') {
  const pairs = counts.table(undefined, undefined, 2);
  writeFileSync(PAIRS_PATH, `${JSON.stringify({ trained: `on the dev split of test/search-eval: ${collected.length} requests (npm run train:reranker)`, services: trainedOn, pairs })}\n`);
  console.log(`wrote ${PAIRS_PATH}: ${Object.values(pairs).reduce((n, row) => n + Object.keys(row).length, 0)} pairs of ${Object.keys(pairs).length} request words`);
}

const requests: Request[] = collected.map((r) => {
  const x = new Float64Array(r.parts.length * F);
  rerankFeatures(r.parts).forEach((f, j) => USED.forEach((k, at) => (x[j * F + at] = f[k]!)));
  return { x, n: r.parts.length, expected: r.expected };
});

// Each feature is measured in its own spread while fitting (better conditioned), the weights back in the features' units after.
const spread = new Float64Array(F);
{
  const sum = new Float64Array(F);
  const squares = new Float64Array(F);
  let rows = 0;
  for (const r of requests) {
    for (let j = 0; j < r.n; j++) for (let k = 0; k < F; k++) {
      sum[k] = sum[k]! + r.x[j * F + k]!;
      squares[k] = squares[k]! + r.x[j * F + k]! ** 2;
    }
    rows += r.n;
  }
  for (let k = 0; k < F; k++) spread[k] = Math.sqrt(Math.max(squares[k]! / rows - (sum[k]! / rows) ** 2, 0)) || 1;
  for (const r of requests) for (let j = 0; j < r.n; j++) for (let k = 0; k < F; k++) r.x[j * F + k] = r.x[j * F + k]! / spread[k]!;
}
const origin = Float64Array.from(start, (w, k) => w * spread[k]!);

/**
 * The softmax over one request's `n` candidates, given their scores in `s` (already divided by
 * TEMPERATURE): writes each candidate's gradient of the negative log-likelihood of the expected ones
 * into `gradient`, and its curvature into `curvature` when asked; answers that negative log-likelihood.
 */
function softmax(s: Float64Array, n: number, expected: Uint8Array, gradient: Float64Array, curvature?: Float64Array): number {
  let max = -Infinity;
  for (let j = 0; j < n; j++) if (s[j]! > max) max = s[j]!;
  let all = 0;
  let good = 0;
  for (let j = 0; j < n; j++) {
    const e = Math.exp(s[j]! - max);
    gradient[j] = e;
    all += e;
    if (expected[j]) good += e;
  }
  for (let j = 0; j < n; j++) {
    const p = gradient[j]! / all;
    gradient[j] = p - (expected[j] ? gradient[j]! / good : 0);
    if (curvature) curvature[j] = Math.max(p * (1 - p), 1e-6);
  }
  return -Math.log(good / all);
}

/** The mean negative log-likelihood of the expected operations, plus the pull, and its gradient. */
function objective(w: Float64Array): { value: number; gradient: Float64Array } {
  const gradient = new Float64Array(F);
  let value = 0;
  const s = new Float64Array(RERANK_DEPTH);
  const candidate = new Float64Array(RERANK_DEPTH);
  for (const r of requests) {
    for (let j = 0; j < r.n; j++) {
      let sum = 0;
      for (let k = 0; k < F; k++) sum += w[k]! * r.x[j * F + k]!;
      s[j] = sum / TEMPERATURE;
    }
    value += softmax(s, r.n, r.expected, candidate);
    for (let j = 0; j < r.n; j++) {
      const coefficient = candidate[j]! / TEMPERATURE;
      if (coefficient !== 0) for (let k = 0; k < F; k++) gradient[k] = gradient[k]! + coefficient * r.x[j * F + k]!;
    }
  }
  value /= requests.length;
  for (let k = 0; k < F; k++) {
    gradient[k] = gradient[k]! / requests.length + 2 * PULL * (w[k]! - origin[k]!);
    value += PULL * (w[k]! - origin[k]!) ** 2;
  }
  return { value, gradient };
}

const dot = (a: Float64Array, b: Float64Array) => a.reduce((sum, x, k) => sum + x * b[k]!, 0);

/** L-BFGS with a backtracking (Armijo) line search. */
function minimise(from: Float64Array): Float64Array {
  const memory = 10;
  let w = Float64Array.from(from);
  let { value, gradient } = objective(w);
  const steps: { s: Float64Array; y: Float64Array; rho: number }[] = [];
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    // The two-loop recursion: the direction from the last steps' curvature.
    const q = Float64Array.from(gradient);
    const alphas: number[] = [];
    for (let m = steps.length - 1; m >= 0; m--) {
      const { s, y, rho } = steps[m]!;
      const alpha = rho * dot(s, q);
      alphas[m] = alpha;
      for (let k = 0; k < F; k++) q[k] = q[k]! - alpha * y[k]!;
    }
    const last = steps.at(-1);
    const scale = last ? dot(last.s, last.y) / dot(last.y, last.y) : 1 / Math.max(1, Math.sqrt(dot(gradient, gradient)));
    for (let k = 0; k < F; k++) q[k] = q[k]! * scale;
    for (let m = 0; m < steps.length; m++) {
      const { s, y, rho } = steps[m]!;
      const beta = rho * dot(y, q);
      for (let k = 0; k < F; k++) q[k] = q[k]! + s[k]! * (alphas[m]! - beta);
    }
    const slope = -dot(gradient, q);
    if (slope >= 0) break; // not a descent direction: as good as it gets
    let step = 1;
    let next = w;
    let found = { value, gradient };
    for (; step >= 1e-10; step /= 2) {
      next = Float64Array.from(w, (x, k) => x - step * q[k]!);
      found = objective(next);
      if (found.value <= value + 1e-4 * step * slope) break;
    }
    const s = Float64Array.from(next, (x, k) => x - w[k]!);
    const y = Float64Array.from(found.gradient, (g, k) => g - gradient[k]!);
    const sy = dot(s, y);
    if (sy > 1e-12) {
      steps.push({ s, y, rho: 1 / sy });
      if (steps.length > memory) steps.shift();
    }
    const gained = value - found.value;
    w = next;
    ({ value, gradient } = found);
    if (iteration % 10 === 0) console.log(`iteration ${iteration}: loss ${value.toFixed(5)}`);
    if (gained < 1e-7) break;
  }
  return w;
}

console.log(`${searched} dev requests searched; ${requests.length} have an expected operation among the first ${RERANK_DEPTH} (${unreachable} do not); ${F} features`);
const learned = minimise(origin);

// Boosted trees on top of the weights: each fits the same softmax's gradient and curvature per
// candidate (a Newton step per leaf), over the features cut into quantile bins.
const TREES = Number(process.env.RERANK_TREES ?? 300);
const DEPTH = Number(process.env.RERANK_TREE_DEPTH ?? 6);
const SHRINKAGE = 0.1;
const BINS = 32;
/** Leaves' regularisation, and the least curvature either side of a split. */
const LEAF_PULL = 1;
const LEAST_CURVATURE = 1;

const firstRow = new Int32Array(requests.length + 1);
requests.forEach((r, q) => (firstRow[q + 1] = firstRow[q]! + r.n));
/** Candidates of all requests, one row each. */
const R = firstRow[requests.length]!;
/** Each feature's cut points (in the fitting units), from every seventh row. */
const cuts: Float64Array[] = [];
for (let k = 0; k < F; k++) {
  const sample: number[] = [];
  for (const r of requests) for (let j = 0; j < r.n; j += 7) sample.push(r.x[j * F + k]!);
  sample.sort((a, b) => a - b);
  const points = new Set<number>();
  for (let b = 1; b < BINS; b++) points.add(sample[Math.floor((b / BINS) * (sample.length - 1))]!);
  cuts.push(Float64Array.from([...points].sort((a, b) => a - b)));
}
/** A row's bin for each feature: how many cut points are at or below its value (below cut b: bin ≤ b). */
const bins = new Uint8Array(R * F);
const boost = new Float64Array(R);
const base = new Float64Array(R);
requests.forEach((r, q) => {
  for (let j = 0; j < r.n; j++) {
    const row = firstRow[q]! + j;
    let sum = 0;
    for (let k = 0; k < F; k++) {
      const x = r.x[j * F + k]!;
      sum += learned[k]! * x;
      const c = cuts[k]!;
      let lo = 0;
      let hi = c.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (c[mid]! <= x) lo = mid + 1;
        else hi = mid;
      }
      bins[row * F + k] = lo;
    }
    base[row] = sum / TEMPERATURE;
  }
});
const isExpected = new Uint8Array(R);
requests.forEach((r, q) => r.expected.forEach((e, j) => (isExpected[firstRow[q]! + j] = e)));

/** Stochastic boosting, off by default: each tree is grown on this share of the requests (RERANK_SUBSAMPLE) and may split on this share of the features (RERANK_COLSAMPLE); every row still takes its leaf's value. */
const SUBSAMPLE = Number(process.env.RERANK_SUBSAMPLE ?? 1);
const COLSAMPLE = Number(process.env.RERANK_COLSAMPLE ?? 1);
/** The draws' seed (RERANK_SEED): a fixed one makes a run repeatable. */
let seed = Number(process.env.RERANK_SEED ?? 12345) >>> 0;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;

const trees: Tree[] = [];
const g = new Float64Array(R);
const h = new Float64Array(R);
for (let t = 0; t < TREES; t++) {
  const s = new Float64Array(RERANK_DEPTH);
  const grownOn: number[] = [];
  const usable = Uint8Array.from({ length: F }, () => (random() < COLSAMPLE ? 1 : 0));
  /** Each split node's bin: bins at or below it go left. */
  const binAt: number[] = [];
  for (let q = 0; q < requests.length; q++) {
    if (SUBSAMPLE < 1 && random() >= SUBSAMPLE) continue;
    const from = firstRow[q]!;
    const to = firstRow[q + 1]!;
    for (let i = from; i < to; i++) {
      grownOn.push(i);
      s[i - from] = base[i]! + boost[i]!;
    }
    softmax(s, to - from, isExpected.subarray(from, to), g.subarray(from, to), h.subarray(from, to));
  }
  const tree: Tree = { feature: [], below: [], left: [], right: [], value: [] };
  const grow = (rows: Int32Array, depth: number): number => {
    let G = 0;
    let H = 0;
    for (const i of rows) {
      G += g[i]!;
      H += h[i]!;
    }
    const node = tree.feature.length;
    tree.feature.push(-1);
    tree.below.push(0);
    tree.left.push(-1);
    tree.right.push(-1);
    const value = -G / (H + LEAF_PULL);
    tree.value.push(value);
    binAt.push(-1);
    if (depth === DEPTH || rows.length < 100) return node;
    const gh = new Float64Array(F * BINS);
    const hh = new Float64Array(F * BINS);
    for (const i of rows) {
      const gi = g[i]!;
      const hi = h[i]!;
      const at = i * F;
      for (let k = 0; k < F; k++) {
        const b = k * BINS + bins[at + k]!;
        gh[b] = gh[b]! + gi;
        hh[b] = hh[b]! + hi;
      }
    }
    let best = { gain: 1e-9, k: -1, b: -1 };
    const parent = (G * G) / (H + LEAF_PULL);
    for (let k = 0; k < F; k++) {
      if (!usable[k]) continue;
      let gl = 0;
      let hl = 0;
      for (let b = 0; b < cuts[k]!.length; b++) {
        gl += gh[k * BINS + b]!;
        hl += hh[k * BINS + b]!;
        if (hl < LEAST_CURVATURE || H - hl < LEAST_CURVATURE) continue;
        const gain = (gl * gl) / (hl + LEAF_PULL) + ((G - gl) * (G - gl)) / (H - hl + LEAF_PULL) - parent;
        if (gain > best.gain) best = { gain, k, b };
      }
    }
    if (best.k < 0) return node;
    const leftRows = rows.filter((i) => bins[i * F + best.k]! <= best.b);
    const rightRows = rows.filter((i) => bins[i * F + best.k]! > best.b);
    tree.feature[node] = best.k;
    binAt[node] = best.b;
    // Bin ≤ b holds the values below cut point b: the threshold, back in the features' own units.
    tree.below[node] = cuts[best.k]![best.b]! * spread[best.k]!;
    tree.left[node] = grow(leftRows, depth + 1);
    tree.right[node] = grow(rightRows, depth + 1);
    return node;
  };
  grow(Int32Array.from(grownOn), 0);
  // Every row, the tree grown on it or not, takes the value of the leaf its bins lead to.
  for (let i = 0; i < R; i++) {
    let n = 0;
    while (tree.feature[n]! >= 0) n = bins[i * F + tree.feature[n]!]! <= binAt[n]! ? tree.left[n]! : tree.right[n]!;
    boost[i] = boost[i]! + SHRINKAGE * tree.value[n]!;
  }
  // Leaf values in the score's units (the softmax divided it by TEMPERATURE), shrunk.
  tree.value = tree.value.map((v) => v * SHRINKAGE * TEMPERATURE);
  trees.push(tree);
  if (t % 10 === 9) console.log(`tree ${t + 1}`);
}

write(Array.from(learned, (w, k) => w / spread[k]!), { trained: `on the dev split of test/search-eval: ${requests.length} requests (npm run train:reranker)` }, trees);
console.log(`wrote ${MODEL_PATH}`);
