// search_docs on the evaluation in test/search-eval/ (GitHub and six imported public APIs): it must
// beat plain BM25 on both splits and hold its dev figure; answers say how to call, whether the
// operation pages and whether it changes data; a query nothing explains gets weak matches and groups.
// The split figures print; test-split misses never do (test/search-eval/README.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogues, type LoadedCatalogue } from '../search-eval/catalogues.ts';
import { bm25Baseline, checkIntents, metrics, run, searchDocs, type Outcome } from '../search-eval/evaluate.ts';
import { intentsOf, SPLITS, type Intent } from '../search-eval/intents.ts';
import { withoutApostrophes, withSpokenNumbers, withTypos } from '../search-eval/typos.ts';
import { spelledBritish } from '../search-eval/british.ts';

/** The dev figure this ranking reached (tuned on it; 6,506 tasks since the sixty-fourth writer's joined: 0.833, 0.829 with the ranking of e6b1f74): a fall below it is a regression. */
const DEV_RECALL_AT_3_FLOOR = 0.81;
/** The same for the plain requests over all seven catalogues (tuned on too). */
const PLAIN_RECALL_AT_3_FLOOR = 0.9;
/** Dev with one letter mistyped in 30 % of its longer words (seed 7): 0.584 without reading mistyped words (src/docs/spelling.ts), 0.659 with it (1,151 tasks then; 0.803 on the 5,720 of 2026-12-04's fourth session). */
const DEV_TYPOS_RECALL_AT_3_FLOOR = 0.645;
/** The plain requests British English spells otherwise (48), so spelled: 0.792 without reading British spellings (src/docs/spelling.ts), 0.917 with it (0.938 now). */
const PLAIN_BRITISH_RECALL_AT_3_FLOOR = 0.89;
/** The dev requests with an apostrophe (222 then, 1,768 now), typed without any: 0.590 without restoring contractions (src/docs/spelling.ts), 0.613 with it (0.791 now). */
const DEV_NO_APOSTROPHES_RECALL_AT_3_FLOOR = 0.6;
/** The dev requests with a number (77 then, 749 now), the number said in words: 0.494 without the typed-text readings (src/docs/spelling.ts, spoken-numbers.ts), 0.532 with them (0.796 now). */
const DEV_SPOKEN_NUMBERS_RECALL_AT_3_FLOOR = 0.52;

/** Each check below runs hundreds to thousands of searches: tens of seconds while CI runs three files at once on two cores. */
const EVAL_TIMEOUT_MS = 180_000;

let catalogues: LoadedCatalogue[];
beforeAll(async () => {
  catalogues = await loadCatalogues();
}, 60_000);

describe('search_docs evaluation', () => {
  for (const split of SPLITS) {
    it(`beats plain BM25 on the ${split} split across all catalogues`, () => {
      const subject: Outcome[] = [];
      const baseline: Outcome[] = [];
      for (const c of catalogues) {
        const intents = intentsOf(c.name, split);
        checkIntents(intents, c.operations, `${split}/${c.name}`);
        subject.push(...run(searchDocs(c.index), intents));
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
    }, EVAL_TIMEOUT_MS);
  }

  /** search_docs over a split's intents transformed as people type them (a transform may keep only the intents it changed). */
  const typed = (split: 'dev' | 'plain', transform: (intents: Intent[]) => Intent[]) => {
    const outcomes: Outcome[] = [];
    for (const c of catalogues) outcomes.push(...run(searchDocs(c.index), transform(intentsOf(c.name, split))));
    return metrics(outcomes);
  };

  it('ranks dev requests with mistyped words nearly as well as written', () => {
    const t = typed('dev', (intents) => withTypos(intents, 0.3, 7));
    console.log(`dev with typos: R@1 ${t.recallAt1.toFixed(3)} R@3 ${t.recallAt3.toFixed(3)} (as written: the dev split's figure above)`);
    expect(t.recallAt3).toBeGreaterThanOrEqual(DEV_TYPOS_RECALL_AT_3_FLOOR);
  }, EVAL_TIMEOUT_MS);

  it('ranks plain requests spelled the British way as the catalogue spells them', () => {
    const m = typed('plain', spelledBritish);
    console.log(`plain spelled the British way: ${m.intents} intents, R@1 ${m.recallAt1.toFixed(3)} R@3 ${m.recallAt3.toFixed(3)}`);
    expect(m.intents).toBeGreaterThanOrEqual(40);
    expect(m.recallAt3).toBeGreaterThanOrEqual(PLAIN_BRITISH_RECALL_AT_3_FLOOR);
  }, EVAL_TIMEOUT_MS);

  it('reads contractions typed without their apostrophe ("dont", "whats")', () => {
    const m = typed('dev', withoutApostrophes);
    console.log(`dev without apostrophes: ${m.intents} intents, R@1 ${m.recallAt1.toFixed(3)} R@3 ${m.recallAt3.toFixed(3)}`);
    expect(m.intents).toBeGreaterThanOrEqual(50);
    expect(m.recallAt3).toBeGreaterThanOrEqual(DEV_NO_APOSTROPHES_RECALL_AT_3_FLOOR);
  }, EVAL_TIMEOUT_MS);

  it('reads numbers said in words ("issue forty two") as digits', () => {
    const m = typed('dev', withSpokenNumbers);
    console.log(`dev with numbers said in words: ${m.intents} intents, R@1 ${m.recallAt1.toFixed(3)} R@3 ${m.recallAt3.toFixed(3)}`);
    expect(m.intents).toBeGreaterThanOrEqual(25);
    expect(m.recallAt3).toBeGreaterThanOrEqual(DEV_SPOKEN_NUMBERS_RECALL_AT_3_FLOOR);
  }, EVAL_TIMEOUT_MS);

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
