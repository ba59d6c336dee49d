// Provider patterns run on RE2 (src/catalog/pattern.ts) after translation from ECMAScript: they
// must mean what V8 would make of them, and every operation of the bundled catalogue must still
// compile with the executor's validator setup.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCallable } from '../../src/catalog/check.ts';
import { GENERATED_CATALOG_DIR, type ServiceIndex } from '../../src/catalog/index.ts';
import { linearRegExp, patternProblem, toRe2Syntax } from '../../src/catalog/pattern.ts';

const ATOMS = [
  'a', 'b', '.', '\\s', '\\S', '\\d', '\\w', '\\W', '\\b', '[ab]', '[^a]', '[\\s]', '[\\S]', '[^\\s]', '[\\sa]', '[\\b]', '\\u0061', '\\u{1F600}',
  '\\uD83D\\uDE00', '😀', '\\x61', '[^]', '[]', '\\p{L}', '\\p{Letter}', '\\p{Script=Greek}', '\\P{Lu}', '\\n', '\\t', '\\v', '\\0', '\\cJ', '[\\[]',
  '[a-c]', '\\/', '\\.', '\\u00a0', '(?<n>a)', '-', '\\$', '\\^',
];
const QUANTIFIERS = ['', '', '*', '+', '?', '{1,2}', '*?', '{2}'];
const CHARS = ['a', 'b', 'c', ' ', '\n', '\r', '\t', '\v', '\u00a0', '\u2028', '\u3000', '\ufeff', '😀', '\ud83d', 'α', 'A', '1', '_', '\b', '\0', '/', '.', '-', '[', '$', '^', 'é'];

describe('linearRegExp', () => {
  it('agrees with V8 (u flag) on generated patterns and inputs', () => {
    const piece = fc.tuple(fc.constantFrom(...ATOMS), fc.constantFrom(...QUANTIFIERS)).map(([a, q]) => a + q);
    const sequence = fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join(''));
    const pattern = fc
      .tuple(fc.boolean(), fc.array(sequence, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.boolean())
      .map(([start, alternatives, group, end]) => (start ? '^' : '') + (group ? `(?:${alternatives.join('|')})` : alternatives.join('|')) + (end ? '$' : ''));
    const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 8 }).map((c) => c.join(''));
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 8 }), (source, inputs) => {
        let native: RegExp;
        try {
          native = new RegExp(source, 'u');
        } catch {
          return; // not an ECMAScript pattern: refused at import (below)
        }
        const linear = linearRegExp(source, 'u');
        for (const input of inputs) expect(linear.test(input), `${source} (RE2: ${toRe2Syntax(source)}) on ${JSON.stringify(input)}`).toBe(native.test(input));
      }),
      { numRuns: 3000 },
    );
  });

  it('runs catastrophic-backtracking patterns in linear time', () => {
    for (const source of ['^(a+)+$', '^(a|a)*$', '^(a|aa)+$', '^(\\w+\\s?)+$', '(x+x+)+y']) {
      const re = linearRegExp(source, 'u');
      const started = performance.now();
      re.test(`${'a'.repeat(50_000)}!`);
      expect(performance.now() - started, source).toBeLessThan(1000);
    }
  });

  it('refuses what is not an ECMAScript pattern, and what RE2 cannot run', () => {
    expect(patternProblem('(')).toContain('not a valid regular expression');
    expect(patternProblem('a{,3}')).toContain('not a valid regular expression'); // RE2 would read it, ECMAScript (u) does not
    expect(patternProblem('(?i)a')).toContain('not a valid regular expression');
    for (const source of ['(?=a)', '(?!a)', '(?<=a)b', '(?<!a)b', '(a)\\1', '(?<n>a)\\k<n>', 'a{1001}']) {
      expect(patternProblem(source), source).toContain('cannot be checked in linear time');
    }
    expect(patternProblem('^[A-Za-z0-9.\\-_]+$')).toBeUndefined();
  });
});

describe('the bundled catalogue', () => {
  const manifest = JSON.parse(readFileSync(`${GENERATED_CATALOG_DIR}/manifest.json`, 'utf8')) as { service: string; file: string }[];
  it.each(manifest.map((m) => [m.service, m.file]))('%s: every operation still compiles (patterns on RE2)', async (_service, file) => {
    const index = JSON.parse(readFileSync(`${GENERATED_CATALOG_DIR}/../${file}`, 'utf8')) as ServiceIndex;
    await expect(checkCallable(index, new WeakMap())).resolves.toBeUndefined();
  }, 60_000);
});
