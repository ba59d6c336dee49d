// search_docs retrieval quality on the evaluation in test/search-eval/: recall@1/3/5 and MRR per
// catalogue and split, with each catalogue's p50 query latency (in process, DocsIndex.run) and its
// index build time. The baseline, in the same run, is plain BM25: MiniSearch over the same
// operations' ID, summary, description, path and tags with default settings, OR-combined.
//
// Misses are printed for the dev split only: the test split is measured, never read (see
// test/search-eval/README.md). BENCH_SEARCH_CATALOGUES=github,stripe limits the catalogues.
import { CATALOGUES, loadCatalogues } from '../search-eval/catalogues.ts';
import { intentsOf, SPLITS, type Split } from '../search-eval/intents.ts';
import { bm25Baseline, checkIntents, metrics, run, searchDocs, type Metrics, type Outcome } from '../search-eval/evaluate.ts';
import { median } from './lib/samples.ts';
import { verdictOf } from './lib/summary.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';

export const name = 'search-quality';
export const title = 'search_docs retrieval quality (test/search-eval)';

const GOALS = { githubAt3: 0.9, githubAt1: 0.7, otherAt3: 0.85 };

const f2 = (x: number) => x.toFixed(2);
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

export async function run_(ctx: BenchContext): Promise<BenchResult> {
  const wanted = process.env.BENCH_SEARCH_CATALOGUES?.split(',') ?? CATALOGUES.map((c) => c.name);
  const loaded = await loadCatalogues(wanted);
  const lines: string[] = [];
  const table: string[] = [
    row(['catalogue', 'operations', 'split', 'intents', 'R@1', 'R@3', 'R@5', 'MRR', 'BM25 R@1 / R@3', 'p50 ms', 'index build ms']),
    row(['---', '---:', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  const totals = new Map<Split, { outcomes: Outcome[]; baseline: Outcome[] }>(SPLITS.map((s) => [s, { outcomes: [], baseline: [] }]));
  const verdicts: string[] = [];
  const met: boolean[] = [];
  let github: Metrics | undefined;
  for (const c of loaded) {
    const subject = searchDocs(c.index);
    const baselineSearch = bm25Baseline(c.operations);
    for (const split of SPLITS) {
      const intents = intentsOf(c.name, split);
      if (!intents.length) continue;
      checkIntents(intents, c.operations, `${split}/${c.name}`);
      run(subject, intents); // warm-up: first calls build cached sections
      const outcomes = run(subject, intents);
      const baseline = run(baselineSearch, intents);
      totals.get(split)!.outcomes.push(...outcomes);
      totals.get(split)!.baseline.push(...baseline);
      const m = metrics(outcomes);
      const b = metrics(baseline);
      table.push(row([c.name, c.operations.length, split, m.intents, f2(m.recallAt1), f2(m.recallAt3), f2(m.recallAt5), f2(m.mrr), `${f2(b.recallAt1)} / ${f2(b.recallAt3)}`, median(outcomes.map((o) => o.ms)).toFixed(2), c.buildMs.toFixed(0)]));
      if (split === 'test') {
        verdicts.push(verdict(c.name, m));
        met.push(meets(c.name, m));
        if (c.name === 'github') github = m;
      }
      if (split !== 'test') {
        for (const o of outcomes.filter((o) => o.rank === 0 || o.rank > 3)) {
          ctx.log(`${split} miss [${c.name}] "${o.intent.query}" → ${o.ranked.slice(0, 3).join(', ') || '(nothing)'} (wanted ${o.intent.expected.join(' | ')}${o.rank ? `, found at ${o.rank}` : ''})`);
        }
      }
    }
  }
  const testAll = totals.get('test')!.outcomes.length ? metrics(totals.get('test')!.outcomes) : undefined;
  for (const split of SPLITS) {
    const { outcomes, baseline } = totals.get(split)!;
    if (!outcomes.length) continue;
    const m = metrics(outcomes);
    const b = metrics(baseline);
    table.push(row([`**all**`, '', split, m.intents, f2(m.recallAt1), f2(m.recallAt3), f2(m.recallAt5), f2(m.mrr), `${f2(b.recallAt1)} / ${f2(b.recallAt3)}`, median(outcomes.map((o) => o.ms)).toFixed(2), '']));
  }
  lines.push(
    `Goals on the test split: GitHub recall@3 ≥ ${GOALS.githubAt3} and recall@1 ≥ ${GOALS.githubAt1}; every other catalogue recall@3 ≥ ${GOALS.otherAt3}.`,
    '',
    table.join('\n'),
    '',
    verdicts.join(' '),
    '',
    'R@k: the share of intents whose expected operation is in the first k results; MRR over the first 5. The BM25 column is the baseline measured in the same run: MiniSearch with default settings over the same operations (ID, summary, description, path, tags), OR-combined. p50: `DocsIndex.run` in process, the whole search_docs answer. The method: `docs/search.md`.',
    '',
    'Reproduce: `npm run bench -- search-quality` (`BENCH_SEARCH_CATALOGUES=github,slack` for some catalogues only). Dev- and plain-split misses are printed on the console; test-split misses are never printed.',
  );
  const measured = [github && `GitHub R@3 ${f2(github.recallAt3)}, R@1 ${f2(github.recallAt1)}`, testAll && `all R@3 ${f2(testAll.recallAt3)}`].filter(Boolean).join('; ');
  return {
    report: lines.join('\n'),
    summary: {
      goal: `test: GitHub R@3 ≥ ${GOALS.githubAt3}, R@1 ≥ ${GOALS.githubAt1}; others R@3 ≥ ${GOALS.otherAt3}`,
      measured: measured || 'no test intents',
      verdict: verdictOf(met),
    },
  };
}

/** The goal on the test split: GitHub's R@3 and R@1, every other catalogue's R@3. */
function meets(catalogue: string, m: Metrics): boolean {
  return catalogue === 'github' ? m.recallAt3 >= GOALS.githubAt3 && m.recallAt1 >= GOALS.githubAt1 : m.recallAt3 >= GOALS.otherAt3;
}

/** Verdicts give three decimals: at two, a recall just short of its goal reads as the goal itself ("0.85 misses 0.85"). */
function verdict(catalogue: string, m: Metrics): string {
  if (catalogue === 'github') return `GitHub test: ${meets(catalogue, m) ? 'meets' : 'misses'} its goals (R@3 ${m.recallAt3.toFixed(3)}, R@1 ${m.recallAt1.toFixed(3)}).`;
  return `${catalogue} test: R@3 ${m.recallAt3.toFixed(3)} ${meets(catalogue, m) ? 'meets' : 'misses'} ${GOALS.otherAt3}.`;
}

export { run_ as run };
