// Provider patterns run on RE2 (src/catalog/pattern.ts) after translation from ECMAScript: they
// must mean what V8 would make of them, and every operation of the bundled catalogue must still
// compile with the executor's validator setup. Translation and the per-validation work budget are
// checked on their own too.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCallable } from '../../src/catalog/check.ts';
import { GENERATED_CATALOG_DIR, type ServiceIndex } from '../../src/catalog/index.ts';
import { linearRegExp, PATTERN_WORK_BUDGET, patternProblem, runsOnV8, toRe2Syntax, withPatternBudget } from '../../src/catalog/pattern.ts';

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

  it('leaves to V8 only anchored patterns of one-code-point atoms with at most one loop', () => {
    for (const source of ['^con_[0-9a-z]+$', '^\\d{4}-\\d{2}-\\d{2}$', '^[A-Za-z0-9.\\-_]+$', '^[^/]*$', '^.{1,64}$', '^\\$+$', '^ab?c$']) {
      expect(runsOnV8(source), source).toBe(true);
    }
    // Unanchored, two loops, nested or alternated ones, lazy ones, groups, classes of more than one kind of code point: RE2.
    for (const source of ['con_[0-9a-z]+$', '^a+b+$', '^(a+)+$', '^a|b$', '^a+?$', '^(?:ab)+$', '^\\s+$', '^[\\s]+$', '^😀+$', '^\\p{L}+$', '^a*$b', '^[]$']) {
      expect(runsOnV8(source), source).toBe(false);
    }
    // Either engine, the same answers and the same budget.
    const id = linearRegExp('^con_[0-9a-z]+$', 'u');
    expect([id.test('con_0001'), id.test('con_'), id.test('con_A1'), id.test('xcon_1'), id.test('con_1\n')]).toEqual([true, false, false, false, false]);
    const { refused } = withPatternBudget(() => id.test('con_'.padEnd(PATTERN_WORK_BUDGET, 'a')));
    expect(refused?.pattern).toBe('^con_[0-9a-z]+$');
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

describe('toRe2Syntax', () => {
  it.each([
    ['.', '[^\\n\\r\\x{2028}\\x{2029}]'], // ECMAScript's dot stops at every line terminator, RE2's only at \n
    ['[^]', '[\\x{0}-\\x{10ffff}]'],
    ['[]', '[^\\x{0}-\\x{10ffff}]'],
    ['[\\b]', '[\\x{8}]'], // backspace in a class, a word boundary outside
    ['\\b', '\\b'],
    ['[[]', '[\\[]'], // literal in ECMAScript, a POSIX class opener in RE2
    ['\\uD83D\\uDE00', '\\x{1f600}'], // an escaped surrogate pair is one code point (u flag)
    ['\\u{1F600}', '\\x{1f600}'],
    ['\\cJ', '\\x{a}'],
    ['\\p{Letter}', '\\p{L}'],
    ['\\P{General_Category=Decimal_Number}', '\\P{Nd}'],
    ['\\p{Script=Greek}', '\\p{Greek}'],
    ['(?<year>\\d{4})', '(\\d{4})'],
    ['(?<=a)b', '(?<=a)b'], // lookbehind is left for RE2 to refuse
  ])('writes %j as %j', (source, re2) => {
    expect(toRe2Syntax(source)).toBe(re2);
  });

  it('widens \\s and \\S to ECMAScript white space (RE2 knows only ASCII)', () => {
    const space = toRe2Syntax('\\s');
    for (const cp of [0x09, 0x20, 0xa0, 0x2028, 0x3000, 0xfeff]) expect(space).toContain(`\\x{${cp.toString(16)}}`);
    expect(toRe2Syntax('[\\s]')).toBe(`[${space.slice(1, -1)}]`);
    expect(linearRegExp('^\\S$', 'u').test('\u3000')).toBe(false);
    expect(linearRegExp('^\\S$', 'u').test('x')).toBe(true);
  });
});

describe('withPatternBudget', () => {
  const re = linearRegExp('^(?:a|b|c|d|e|f|g|h)*$', 'u');
  /** The most characters this pattern gets in one validation, as the budget reports it. */
  const maxChars = () => withPatternBudget(() => re.test('a'.repeat(PATTERN_WORK_BUDGET + 1))).refused!.maxChars;

  it('refuses a text past the budget without running it, and names the text and the pattern', () => {
    const text = 'a'.repeat(PATTERN_WORK_BUDGET + 1);
    const { value, refused } = withPatternBudget(() => re.test(text));
    expect(value).toBe(false);
    expect(refused).toEqual({ text, pattern: '^(?:a|b|c|d|e|f|g|h)*$', maxChars: expect.any(Number) });
    expect(refused!.maxChars).toBeLessThan(PATTERN_WORK_BUDGET);
  });

  it('counts the work of every check in one validation, and names only the first text refused', () => {
    const max = maxChars();
    const { value, refused } = withPatternBudget(() => [re.test('a'.repeat(max)), re.test('b'), re.test('c')]);
    expect(value).toEqual([true, false, false]);
    expect(refused?.text).toBe('b');
  });

  it('gives each validation a fresh budget, and an inner one leaves the outer budget as it was', () => {
    const max = maxChars();
    const { value } = withPatternBudget(() => {
      const first = re.test('a'.repeat(max));
      const inner = withPatternBudget(() => re.test('a'.repeat(max)));
      return [first, inner.value, inner.refused, re.test('a')];
    });
    expect(value).toEqual([true, true, undefined, false]);
    expect(withPatternBudget(() => re.test('a')).value).toBe(true);
  });

  it('leaves checks outside a validation unbounded', () => {
    expect(re.test('a'.repeat(maxChars() + 1))).toBe(true);
  });
});

describe('linearRegExp for ajv', () => {
  it('keys ajv\'s cache by the pattern, marked as RE2', () => {
    expect(String(linearRegExp('^a$', 'u'))).toBe('re2:^a$');
    expect(linearRegExp.code).toBe('linearRegExp');
  });

  it('throws a PatternError, and clips a long pattern RE2 refuses to 120 characters in its message', () => {
    const long = `${'a'.repeat(300)}(?=b)`;
    expect(() => linearRegExp(long, 'u')).toThrow(expect.objectContaining({ name: 'PatternError' }));
    const message = patternProblem(long)!;
    expect(message.startsWith(`'${'a'.repeat(117)}...' cannot be checked in linear time: `)).toBe(true);
    expect(message).not.toContain('a'.repeat(118));
  });
});

describe('the bundled catalogue', () => {
  const manifest = JSON.parse(readFileSync(`${GENERATED_CATALOG_DIR}/manifest.json`, 'utf8')) as { service: string; file: string }[];
  it.each(manifest.map((m) => [m.service, m.file]))('%s: every operation still compiles (patterns on RE2)', async (_service, file) => {
    const index = JSON.parse(readFileSync(`${GENERATED_CATALOG_DIR}/../${file}`, 'utf8')) as ServiceIndex;
    await expect(checkCallable(index, new WeakMap())).resolves.toBeUndefined();
  }, 60_000);
});
