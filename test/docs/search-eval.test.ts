// search_docs on the evaluation in test/search-eval/ (GitHub and six imported public APIs): it must
// beat plain BM25 on both splits, meet issue 26's goals on the test split and hold its dev figure; answers say how to call, whether the
// operation pages and whether it changes data; a query nothing explains gets weak matches and groups.
// The same requests as people type them: ./search-eval-typed.test.ts.
// The split figures print; test-split misses never do (test/search-eval/README.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogues, type LoadedCatalogue } from '../search-eval/catalogues.ts';
import { bm25Baseline, checkIntents, metrics, run, searchDocs, type Outcome } from '../search-eval/evaluate.ts';
import { intentsOf, SPLITS } from '../search-eval/intents.ts';

/** The dev figure this ranking reached, on every tenth dev request (tuned on it; all 30,759 tasks: 0.881 with the first stage alone, 0.891 with the learned second stage of 2026-12-06's second session, src/docs/rerank.ts, trained on it; every tenth, 3,079: 0.885 → 0.892, 0.906 with its boosted trees): a fall to the first stage's figure is a regression. */
const DEV_RECALL_AT_3_FLOOR = 0.885;
/** The same for the plain requests over all seven catalogues (tuned on too). */
const PLAIN_RECALL_AT_3_FLOOR = 0.9;

/** Issue 26's goals on the test split: GitHub R@3 ≥ 0.9 and R@1 ≥ 0.7, every other catalogue R@3 ≥ 0.85 (npm run bench -- search-quality measures the whole split). */
const TEST_GOALS: Record<string, { recallAt3: number; recallAt1: number }> = { github: { recallAt3: 0.9, recallAt1: 0.7 }, other: { recallAt3: 0.85, recallAt1: 0 } };

/** Each check below runs hundreds to thousands of searches: a minute or two while CI runs four files at once on two cores (the dev check ran past 180 s once with the machine busier still), so the guard against a hang sits well past that. */
const EVAL_TIMEOUT_MS = 420_000;

let catalogues: LoadedCatalogue[];
beforeAll(async () => {
  catalogues = await loadCatalogues();
}, 60_000);

describe('search_docs evaluation', () => {
  for (const split of SPLITS) {
    it(`beats plain BM25 on the ${split} split across all catalogues${split === 'test' ? ", and meets issue 26's goals on each" : ''}`, () => {
      const subject: Outcome[] = [];
      const baseline: Outcome[] = [];
      const byCatalogue = new Map<string, Outcome[]>();
      for (const c of catalogues) {
        // Dev and test, the two large splits, every tenth request (every third until 2026-12-05's seventh session, every fourth until its
        // eighth, when CI took 851 s of its 900, every fifth until 2026-12-06, when it took 782 s and 936 s on this machine): the same mix of catalogues and writers in a tenth of the time, which CI has. npm run bench -- search-quality measures the whole
        // test split (docs/benchmarks/search-quality.md).
        const intents = split === 'plain' ? intentsOf(c.name, split) : intentsOf(c.name, split).filter((_, i) => i % 10 === 0);
        checkIntents(intents, c.operations, `${split}/${c.name}`);
        const outcomes = run(searchDocs(c.index), intents);
        byCatalogue.set(c.name, outcomes);
        subject.push(...outcomes);
        baseline.push(...run(bm25Baseline(c.operations), intents));
      }
      const m = metrics(subject);
      const b = metrics(baseline);
      console.log(`${split}: ${m.intents} intents, search_docs R@1 ${m.recallAt1.toFixed(3)} R@3 ${m.recallAt3.toFixed(3)} MRR ${m.mrr.toFixed(3)}; BM25 R@3 ${b.recallAt3.toFixed(3)}`);
      expect(m.intents).toBeGreaterThanOrEqual(150);
      expect(m.recallAt3).toBeGreaterThan(b.recallAt3 + 0.03);
      expect(m.mrr).toBeGreaterThan(b.mrr);
      if (split === 'dev') expect(m.recallAt3).toBeGreaterThanOrEqual(DEV_RECALL_AT_3_FLOOR);
      if (split === 'plain') expect(m.recallAt3).toBeGreaterThanOrEqual(PLAIN_RECALL_AT_3_FLOOR);
      // Issue 26's goals, on the test split (never read; its misses never print): every catalogue's figures, so one that falls shows by name.
      if (split === 'test') {
        for (const [name, outcomes] of byCatalogue) {
          const c = metrics(outcomes);
          const goal = TEST_GOALS[name] ?? TEST_GOALS.other!;
          console.log(`test/${name}: R@1 ${c.recallAt1.toFixed(3)} R@3 ${c.recallAt3.toFixed(3)}`);
          expect(c.recallAt3, `test/${name} R@3`).toBeGreaterThanOrEqual(goal.recallAt3);
          expect(c.recallAt1, `test/${name} R@1`).toBeGreaterThanOrEqual(goal.recallAt1);
        }
      }
    }, EVAL_TIMEOUT_MS);
  }

  it('answers with the call, whether it pages and whether it changes data', () => {
    const github = catalogues.find((c) => c.name === 'github')!;
    const answer = github.index.run({ query: 'list the repositories of an organization', limit: 5 }, () => true) as { results: Record<string, unknown>[] };
    const listed = answer.results.find((r) => r.operationId === 'github.repos/list-for-org');
    expect(listed).toMatchObject({ call: 'call("github.repos/list-for-org", { org })', pages: true, changes_data: false });
    const created = (github.index.run({ query: 'create an issue', limit: 5 }, () => true) as { results: Record<string, unknown>[] }).results.find((r) => r.operationId === 'github.issues/create');
    expect(created).toMatchObject({ pages: false, changes_data: true });
  });

  it('marks guesses weak and offers the closest groups when nothing explains the query by its own words', () => {
    const slack = catalogues.find((c) => c.name === 'slack')!;
    const answer = slack.index.run({ query: 'quantum zebra', limit: 3 }, () => true) as { results: { match?: string }[]; no_good_match?: boolean; closest_groups?: unknown[]; hint: string };
    expect(answer.no_good_match).toBe(true);
    for (const r of answer.results) expect(r.match).toBe('weak');
    expect(answer.closest_groups?.length).toBeGreaterThan(0);
    expect(answer.hint).toMatch(/never guess an operation ID/);
    const good = slack.index.run({ query: 'send a message to a channel', limit: 3 }, () => true) as { results: { match?: string }[]; no_good_match?: boolean };
    expect(good.no_good_match).toBeUndefined();
    expect(good.results[0]!.match).toBeUndefined();
  });
});
