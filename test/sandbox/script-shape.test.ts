// The nesting pre-check run before a script is compiled (src/sandbox/script-shape.ts): what an
// agent writes passes, whatever brackets its strings, comments, regular expressions and template
// text hold; nesting past the bounds is refused with where it happens.
import { describe, expect, it } from 'vitest';
import { MAX_ARROW_NESTING, MAX_NESTING } from '../../src/sandbox/index.ts';
import { nestingProblem } from '../../src/sandbox/script-shape.ts';

const nested = (open: string, close: string, depth: number, inner = '1') => open.repeat(depth) + inner + close.repeat(depth);

describe('nestingProblem', () => {
  it('passes the scripts agents write', () => {
    const scripts = [
      `const page = await call("github.issues/list", { owner: "o", repo: "r", state: "open" });
       const byLabel = new Map<string, number>();
       for (const issue of page.data.items) {
         for (const label of issue.labels ?? []) byLabel.set(label.name, (byLabel.get(label.name) ?? 0) + 1);
       }
       return [...byLabel].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([name, n]) => ({ name, n }));`,
      // ASI style: declarations of arrows one after another, no semicolons.
      Array.from({ length: 40 }, (_, i) => `let f${i} = (x: number) => x + ${i}\nconst g${i} = async (y) => { return await f${i}(y) }`).join('\n') + '\nreturn f1(1)',
      // An else-if chain and an object of arrows.
      'let kind = ""\n' + Array.from({ length: 200 }, (_, i) => `${i ? 'else ' : ''}if (x === ${i}) { kind = "k${i}" }`).join('\n'),
      `const handlers = { ${Array.from({ length: 100 }, (_, i) => `h${i}: (e) => e.value * ${i}`).join(', ')} };\nreturn handlers.h3({ value: 2 })`,
      // Brackets and arrows that are text, not code.
      `const s = "${'((((['.repeat(200)}"; const t = '=>=>=>=>'; // ${'{'.repeat(300)}
       /* ${'x=>'.repeat(300)} */ const re = /[(]{2}\\(/g; const u = \`${'('.repeat(100)}\${ a ? \`\${b}\` : '[' }\`;
       return [s, t, re.test(s), u]`,
      // Division is not a regular expression.
      'const ratio = (a + b) / (c - d) / 2; const half = total / 2; return [ratio, half]',
      nested('(', ')', MAX_NESTING),
      'return ' + 'x => '.repeat(MAX_ARROW_NESTING) + '1',
    ];
    for (const script of scripts) expect(nestingProblem(script)).toBeUndefined();
  });

  it('refuses brackets nested past the bound, saying where', () => {
    expect(nestingProblem(`const a = 1;\nreturn ${nested('[', ']', MAX_NESTING + 1)}`)).toEqual({
      message: expect.stringContaining(`more than ${MAX_NESTING} levels deep`),
      line: 2,
      column: 8 + MAX_NESTING,
    });
    expect(nestingProblem(nested('{a:', '}', 10_000))).toBeDefined();
    expect(nestingProblem('return `' + nested('${`', '`}', MAX_NESTING + 1, 'x') + '`')).toBeDefined();
  });

  it('refuses arrow functions nested past their bound, with or without brackets around them', () => {
    expect(nestingProblem('return ' + 'x => '.repeat(MAX_ARROW_NESTING + 1) + '1')).toMatchObject({ message: `arrow functions nest more than ${MAX_ARROW_NESTING} deep`, line: 1 });
    expect(nestingProblem('return ' + nested('f(x => ', ')', MAX_ARROW_NESTING + 1))).toMatchObject({ message: expect.stringContaining('arrow functions') });
    // A `let` used as a name does not end the arrows before it.
    expect(nestingProblem('return ' + 'x => let && '.repeat(MAX_ARROW_NESTING + 1) + '1')).toBeDefined();
  });

  it('refuses statements nested without braces past the bound', () => {
    expect(nestingProblem('if (a) '.repeat(MAX_NESTING + 1) + 'x();')).toMatchObject({ message: expect.stringContaining('unbraced statement bodies') });
    expect(nestingProblem('for (;;) '.repeat(MAX_NESTING) + 'if (a) x();')).toBeDefined();
  });
});
