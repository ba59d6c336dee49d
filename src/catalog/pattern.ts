// Linear-time `pattern` checks. A provider's description carries JSON Schema patterns, which are
// ECMA-262 regular expressions; V8 runs them by backtracking, so a pattern such as `^(a+)+$`
// takes time exponential in the input and one call could stall the Engine. Patterns run on RE2
// (re2js, a pure-JS port of Go's regexp: one pass over the input, no backtracking), after the
// pattern is translated from ECMAScript syntax and meaning (with the `u` flag ajv uses) to RE2's.
// What RE2 cannot run in linear time (lookaround, backreferences) is refused when imported.
// Linear is not cheap for every pattern: RE2 may step through each instruction of the pattern's
// program for every character (a contrived 3,000-instruction pattern over 1 MiB took 24 s), so one
// validation's pattern work, characters × program size, is bounded (withPatternBudget).
// Patterns V8 provably backtracks in linear time (runsOnV8: anchored, one loop at most) run on V8.
import { RE2JS } from 're2js';

/** ECMAScript `\s` (WhiteSpace and LineTerminator) as code point ranges; RE2's `\s` is ASCII only. */
const SPACE: readonly [number, number][] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

const complement = (ranges: readonly [number, number][]): [number, number][] => {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
};

const hex = (cp: number) => `\\x{${cp.toString(16)}}`;
const rangeText = (ranges: readonly [number, number][]) => ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('');
const SPACE_TEXT = rangeText(SPACE);
const NON_SPACE_TEXT = rangeText(complement(SPACE));
/** ECMAScript `.` without the `s` flag: anything but a line terminator (RE2's `.` excludes only \n). */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const ANY = '[\\x{0}-\\x{10ffff}]';
const NOTHING = '[^\\x{0}-\\x{10ffff}]';

/** ECMAScript's long General_Category names; RE2 knows only the short ones. */
const CATEGORY: Record<string, string> = {
  Letter: 'L', Cased_Letter: 'LC', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm', Other_Letter: 'Lo',
  Mark: 'M', Combining_Mark: 'M', Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc', Enclosing_Mark: 'Me',
  Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl', Other_Number: 'No',
  Punctuation: 'P', punct: 'P', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd', Open_Punctuation: 'Ps', Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf', Other_Punctuation: 'Po',
  Symbol: 'S', Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So',
  Separator: 'Z', Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp',
  Other: 'C', Control: 'Cc', cntrl: 'Cc', Format: 'Cf', Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
};

const HEX4 = /^[0-9A-Fa-f]{4}$/;

/** One escape at `source[i] === '\\'`, as RE2 text; `inClass` inside `[...]`. */
function escape(source: string, i: number, inClass: boolean): { text: string; length: number } {
  const c = source[i + 1] ?? '';
  switch (c) {
    case 's':
      return { text: inClass ? SPACE_TEXT : `[${SPACE_TEXT}]`, length: 2 };
    case 'S':
      return { text: inClass ? NON_SPACE_TEXT : `[${NON_SPACE_TEXT}]`, length: 2 };
    case 'b':
      return { text: inClass ? hex(8) : '\\b', length: 2 }; // in a class, \b is backspace
    case '0':
      return { text: hex(0), length: 2 }; // with the u flag, \0 is never followed by a digit
    case 'c':
      return { text: hex(source.charCodeAt(i + 2) % 32), length: 3 };
    case 'u': {
      if (source[i + 2] === '{') {
        const end = source.indexOf('}', i + 3);
        return { text: hex(parseInt(source.slice(i + 3, end), 16)), length: end + 1 - i };
      }
      const unit = parseInt(source.slice(i + 2, i + 6), 16);
      // With the u flag an escaped surrogate pair is one code point.
      if (unit >= 0xd800 && unit <= 0xdbff && source.startsWith('\\u', i + 6) && HEX4.test(source.slice(i + 8, i + 12))) {
        const low = parseInt(source.slice(i + 8, i + 12), 16);
        if (low >= 0xdc00 && low <= 0xdfff) return { text: hex(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)), length: 12 };
      }
      return { text: hex(unit), length: 6 };
    }
    case 'p':
    case 'P': {
      const end = source.indexOf('}', i + 3);
      const body = source.slice(i + 3, end);
      const eq = body.indexOf('=');
      const [name, value] = eq < 0 ? ['', body] : [body.slice(0, eq), body.slice(eq + 1)];
      // Script=Greek → Greek; General_Category=Letter → L. Anything else is left for RE2 to judge.
      const mapped = name === '' || name === 'General_Category' || name === 'gc' ? (CATEGORY[value] ?? value) : name === 'Script' || name === 'sc' ? value : body;
      return { text: `\\${c}{${mapped}}`, length: end + 1 - i };
    }
    default: {
      // \d \w \D \W \B \f \n \r \t \v \xHH and escaped syntax characters mean the same in RE2;
      // backreferences (\1, \k<name>) are copied for RE2 to refuse. With the u flag no other escape compiles.
      return { text: `\\${c}`, length: 2 };
    }
  }
}

/**
 * An ECMAScript pattern (already known to compile with the `u` flag) written in RE2 syntax with
 * the same meaning. RE2 refuses what it cannot run in linear time.
 */
export function toRe2Syntax(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    if (c === '\\') {
      const { text, length } = escape(source, i, inClass);
      out += text;
      i += length;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c === '[' ? '\\[' : c; // a '[' inside a class is literal in ECMAScript, a POSIX class opener in RE2
      i++;
    } else if (c === '[') {
      if (source.startsWith('[^]', i)) {
        out += ANY;
        i += 3;
      } else if (source.startsWith('[]', i)) {
        // ECMAScript's empty classes; in RE2 a ']' right after '[' or '[^' is literal.
        out += NOTHING;
        i += 2;
      } else {
        inClass = true;
        const negated = source[i + 1] === '^';
        out += negated ? '[^' : '[';
        i += negated ? 2 : 1;
      }
    } else if (c === '.') {
      out += DOT;
      i++;
    } else if (c === '(' && source.startsWith('(?<', i) && source[i + 3] !== '=' && source[i + 3] !== '!') {
      // A named group: only whether the pattern matches counts, so it is a plain group (RE2 names allow fewer characters).
      out += '(';
      i = source.indexOf('>', i) + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Why a pattern cannot be used: not an ECMA-262 regular expression, or one RE2 cannot run. */
export class PatternError extends Error {
  override name = 'PatternError';
}

export interface LinearPattern {
  test(text: string): boolean;
  toString(): string;
}

/**
 * Pattern work one input validation may do, in characters × program instructions: a few tenths of
 * a second at worst (every instruction live on every character) on a 2-core machine. GitHub's
 * largest pattern (44 instructions) gets 680,000 characters; its base64 content pattern (23) more
 * than a default 1 MiB request holds.
 */
export const PATTERN_WORK_BUDGET = 30_000_000;

interface Budget {
  remaining: number;
  /** The first text refused for want of budget, the pattern it was checked against, and the most characters that pattern gets in one call. */
  refused?: { text: string; pattern: string; maxChars: number };
}
/** Outside withPatternBudget, pattern checks are unbounded. */
let budget: Budget = { remaining: Infinity };

/**
 * Runs `check` (an ajv validator call) with a fresh pattern-work budget. A pattern check that would
 * exceed it fails (ajv reports the value as not matching) and `refused` names the first such text.
 */
export function withPatternBudget<T>(check: () => T): { value: T; refused: Budget['refused'] } {
  const outer = budget;
  budget = { remaining: PATTERN_WORK_BUDGET };
  try {
    const value = check();
    return { value, refused: budget.refused };
  } finally {
    budget = outer;
  }
}

/** An escape that matches one code point, or an escaped syntax character. */
const ONE_ESCAPE = String.raw`\\[dDwW^$\\.*+?()[\]{}|/-]`;
/**
 * One item of a pattern V8 may run itself (see `runsOnV8`): an atom matching exactly one code point
 * (a literal, an escape above, `.`, or a class of literals, ranges and those escapes), then at most
 * one greedy quantifier. Group 1 holds a fixed count `{n}`; group 2 any other quantifier.
 */
const ONE_ITEM = new RegExp(
  String.raw`(?:[^\\^$.|?*+()[\]{}\ud800-\udfff]|${ONE_ESCAPE}|\.|\[\^?(?:[^\\\][\ud800-\udfff]|${ONE_ESCAPE})+\])(?:(\{\d+\})|([+*?]|\{\d+,\d*\}))?(?![?])`,
  'y',
);

/**
 * Whether V8's backtracking runs `pattern` in time linear in the input: it starts with `^`, each
 * atom matches exactly one code point, and at most one of them repeats a variable number of times.
 * A match then tries at most one start and, per length of that one loop, a fixed-length rest. Such
 * patterns (most ID and format patterns: `^con_[0-9a-z]+$`, `^\d{4}-\d{2}-\d{2}$`) run on V8's
 * own engine, ~20× faster than re2js; everything else runs on RE2.
 */
export function runsOnV8(pattern: string): boolean {
  if (!pattern.startsWith('^')) return false;
  let loops = 0;
  for (let i = 1; i < pattern.length; ) {
    if (pattern[i] === '$' && i === pattern.length - 1) break;
    ONE_ITEM.lastIndex = i;
    const item = ONE_ITEM.exec(pattern);
    if (!item) return false;
    if (item[2] !== undefined && ++loops > 1) return false;
    i = ONE_ITEM.lastIndex;
  }
  return true;
}

const compiled = new Map<string, RE2JS>();
const MAX_CACHED = 1000;

function compile(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (re) return re;
  try {
    new RegExp(pattern, 'u'); // the ECMA-262 syntax JSON Schema patterns are written in
  } catch (err) {
    throw new PatternError(`'${clip(pattern)}' is not a valid regular expression (${(err as Error).message.replace(/^Invalid regular expression: /, '')})`);
  }
  try {
    re = RE2JS.compile(toRe2Syntax(pattern));
  } catch (err) {
    throw new PatternError(
      `'${clip(pattern)}' cannot be checked in linear time: ${(err as Error).message.replace(/^error parsing regexp: /, '')} ` +
        '(the Engine runs patterns on RE2, which has no lookahead, lookbehind or backreferences and repeats at most 1000 times)',
    );
  }
  if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!);
  compiled.set(pattern, re);
  return re;
}

const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}...` : s);

/**
 * ajv's `code.regExp`: compiles `pattern` for linear-time matching, or throws PatternError. ajv
 * passes the `u` flag; the pattern is always read as with it.
 */
export const linearRegExp = Object.assign(
  (pattern: string, _flags: string): LinearPattern => {
    const re = compile(pattern);
    const size = re.programSize();
    // The same budget either way, so what is refused does not depend on the engine.
    const v8 = runsOnV8(pattern) ? new RegExp(pattern, 'u') : undefined;
    return {
      test: (text: string) => {
        const work = text.length * size;
        if (work > budget.remaining) {
          budget.refused ??= { text, pattern, maxChars: Math.floor(PATTERN_WORK_BUDGET / size) };
          return false;
        }
        budget.remaining -= work;
        return v8 ? v8.test(text) : re.test(text);
      },
      toString: () => `re2:${pattern}`, // ajv's cache key for the compiled pattern
    };
  },
  { code: 'linearRegExp' },
);

/** Why `pattern` cannot be used in a schema, or undefined. */
export function patternProblem(pattern: string): string | undefined {
  try {
    compile(pattern);
    return undefined;
  } catch (err) {
    if (err instanceof PatternError) return err.message;
    throw err;
  }
}
