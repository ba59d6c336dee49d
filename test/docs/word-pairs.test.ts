// Word pairs learned from how people ask (src/docs/word-pairs.ts): the parts the second stage reads
// from them, how the trainer counts them (test/search-eval/word-pairs-fit.ts), and the table shipped.
import { afterEach, describe, expect, it } from 'vitest';
import { Ranker } from '../../src/docs/rank.ts';
import { RERANK_DEPTH } from '../../src/docs/rerank.ts';
import { SCORE_PARTS } from '../../src/docs/weights.ts';
import { operationTokens, pairParts, pairsKnow, useWordPairs, wordPairs, type WordPairs } from '../../src/docs/word-pairs.ts';
import { liftOf, PairCounts, type PairExample } from '../search-eval/word-pairs-fit.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';


afterEach(() => useWordPairs(undefined));

describe('the parts read from the pairs', () => {
  const pairs: WordPairs = { bug: { issu: 1.2, comment: -0.4 }, '@list': { '!list': 0.5 } };

  it('averages each request word’s best lift among the operation’s words, and the lift of every pair', () => {
    const [best, mean] = pairParts(pairs, ['bug', '@list'], ['issu', 'comment', '!list']);
    expect(best).toBeCloseTo((1.2 + 0.5) / 2);
    expect(mean).toBeCloseTo((1.2 - 0.4 + 0.5) / (2 * 3));
  });

  it('says nothing of words it never learned, and no best is below 0', () => {
    expect(pairParts(pairs, ['snippet'], ['gist'])).toEqual([0, 0]);
    expect(pairParts(pairs, ['constructor', 'bug'], ['constructor', 'tostr'])).toEqual([0, 0]);
    const [best, mean] = pairParts(pairs, ['bug'], ['comment']);
    expect(best).toBe(0);
    expect(mean).toBeCloseTo(-0.4);
    expect(pairParts(pairs, [], ['issu'])).toEqual([0, 0]);
  });

  it('reads an operation as its summary and ID stems, its action, what it is under and whether it is the signed-in user’s', () => {
    const tokens = operationTokens(['List', 'issues', 'list', 'for', 'repo'], { action: 'list', resource: ['issu'], head: 'issu', object: ['issu'], scope: ['repo'], self: true } as never);
    expect(tokens).toEqual(expect.arrayContaining(['list', 'issu', 'repo', '!list', '^repo', '!self']));
    expect(tokens).not.toContain('for');
  });
});

describe('learning the pairs', () => {
  /** A request whose asked operation (the first candidate) has `asked`, beside candidates that have `beside`. */
  const example = (request: string[], asked: string[], beside: string[][]): PairExample => ({
    request,
    candidates: [asked, ...beside],
    expected: Uint8Array.from([1, ...beside.map(() => 0)]),
  });
  const examples = [
    example(['bug'], ['issu', 'creat'], [['comment', 'creat'], ['comment'], ['label']]),
    example(['bug', 'file'], ['issu', 'creat'], [['comment', 'creat'], ['label']]),
    example(['bug'], ['issu'], [['comment'], ['comment', 'label']]),
    example(['bug', 'file'], ['issu', 'label'], [['comment'], ['comment']]),
  ];

  it('lifts a word always in the operation asked for and seldom beside it, and lowers one often beside it and never asked for', () => {
    const counts = new PairCounts();
    for (const e of examples) counts.add(e, 1);
    expect(counts.lift('bug', 'issu')).toBeGreaterThan(0.5);
    expect(counts.lift('bug', 'comment')).toBeLessThan(-0.3);
    expect(counts.lift('bug', 'unseen')).toBeUndefined();
    // Neither seen nor likely once: nothing to learn.
    expect(liftOf(0, 0.2)).toBeUndefined();
    expect(liftOf(0.5, 0.9)).toBeUndefined();
  });

  it('takes an example out exactly, so a request is scored by a table that never saw it', () => {
    const counts = new PairCounts();
    for (const e of examples.slice(0, 3)) counts.add(e, 1);
    const without = counts.table();
    expect(Object.keys(without)).toEqual(expect.arrayContaining(['bug', 'file']));
    counts.add(examples[3]!, 1);
    counts.add(examples[3]!, -1);
    const again = counts.table();
    for (const [u, row] of Object.entries(without)) for (const [v, lift] of Object.entries(row)) expect(again[u]?.[v]).toBeCloseTo(lift, 12);
    // The table for one request holds only what its words can look up.
    expect(counts.table(['bug', 'file'], [['issu']])).toEqual({ bug: { issu: counts.lift('bug', 'issu') }, file: { issu: counts.lift('file', 'issu') } });
  });
});

describe('the pairs in ranking', () => {
  // More operations than a window, so the second stage's parts are filled: gadgets and widgets alike.
  const ranker = () =>
    new Ranker(
      Array.from({ length: RERANK_DEPTH + 6 }, (_, i) =>
        i % 2 ? op(`w.gadgets/list-${i}`, 'GET', `/gadgets/${'x'.repeat(i)}`, `List gadgets ${i}`, { returnsList: true }) : op(`w.widgets/list-${i}`, 'GET', `/widgets/${'x'.repeat(i)}`, `List widgets ${i}`, { returnsList: true }),
      ),
    );
  const at = SCORE_PARTS.indexOf('pairBest');

  const windowParts = () => {
    const explain = new Map<string, Record<string, unknown>>();
    ranker().search('show every gizmo of widgets and gadgets', 5, undefined, undefined, explain);
    return [...explain].filter(([id, e]) => id !== '(query)' && Array.isArray(e.tokens)).map(([id, e]) => [id, (e.parts as number[])[at]!] as const);
  };

  it('gives each window candidate the lift its words have with the request’s, where the pairs were learned on its service', () => {
    useWordPairs({ services: ['w'], pairs: { gizmo: { gadget: 1 } } });
    const parts = windowParts();
    expect(parts.length).toBe(RERANK_DEPTH);
    for (const [id, best] of parts) expect(best > 0).toBe(id.startsWith('w.gadgets'));
  });

  it('reads no pairs for a service they were not learned on: the general model ranks it', () => {
    useWordPairs({ services: ['github'], pairs: { gizmo: { gadget: 1 } } });
    expect(windowParts().every(([, best]) => best === 0)).toBe(true);
  });

  it('ships a table of words: no operation ID, no phrase', () => {
    expect(wordPairs().services).toEqual(expect.arrayContaining(['github', 'stripe', 'slack']));
    expect(pairsKnow(['github', 'gitlab'])).toBe(true);
    expect(pairsKnow(['github', 'demo-crm'])).toBe(false);
    const shipped = Object.entries(wordPairs().pairs);
    expect(shipped.length).toBeGreaterThan(100);
    const notWords = shipped.flatMap(([u, row]) => [...(/^@?[a-z0-9']+$/.test(u) ? [] : [u]), ...Object.keys(row!).filter((v) => !/^[!^]?[a-z0-9']+$/.test(v))]);
    expect(notWords).toEqual([]);
  });
});
