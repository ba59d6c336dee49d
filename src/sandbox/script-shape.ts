// A linear pre-check of a script's nesting, run before the compiler sees it. esbuild's cost grows
// with nesting faster than with size: one 100 KB script of nested brackets took its service from
// 15 MB to 460 MB, and arrow functions nested a thousand deep (3 KB) took it 4.5 s of CPU, growing
// with the cube of the depth. Scripts an agent writes nest a few levels; these bounds leave room.
//
// The scan reads tokens only as far as nesting needs: it skips strings, comments, template text and
// regular expressions, and counts open brackets and template substitutions, arrow functions whose
// expression body has not ended (at a `,` or `;` of their level, or the bracket that holds them),
// and statements whose body has not ended (`if (a) if (b) …`). It never parses: code it misreads
// is left to the compiler, and what it counts is never below what the compiler will nest.

/** Levels of nesting a script may reach: brackets, template substitutions, unbraced statement bodies, arrow functions. */
export const MAX_NESTING = 64;
/** Arrow functions one inside another (each level costs esbuild far more than a bracket). */
export const MAX_ARROW_NESTING = 16;

export interface NestingProblem {
  message: string;
  /** 1-based, in the script as given. */
  line: number;
  column: number;
}

interface Frame {
  /** Arrow functions opened at this level whose expression body has not ended. */
  arrows: number;
  /** Statements opened at this level (if, for, while, do, else, with) whose body has not ended. */
  statements: number;
  /** A `${` of a template literal: its `}` resumes the template's text. */
  template: boolean;
}

/** Statements whose body may be one unbraced statement: each nests what follows it. */
const NESTING_STATEMENTS = new Set(['if', 'for', 'while', 'do', 'else', 'with']);
/** Words that start a statement (or end an expression): an arrow's expression body before them has ended. */
const STATEMENT_WORDS = new Set(['return', 'throw', 'const', 'var', 'break', 'continue', 'switch', 'try', 'case', 'default', 'debugger']);
/** Words after which a `/` starts a regular expression, not a division. */
const BEFORE_EXPRESSION = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

const isIdentifierChar = (c: string) => /[\w$\u0080-\uffff]/.test(c);

/** Whether the `let` ending at `i` declares (`let x`): in sloppy code `let` alone may be a variable's name. */
function declares(code: string, i: number): boolean {
  const next = /^\s*([A-Za-z_$][\w$]*)/.exec(code.slice(i, i + 64));
  return next !== null && !['in', 'instanceof', 'of'].includes(next[1]!);
}

/** Where a script first nests deeper than MAX_NESTING or MAX_ARROW_NESTING, or undefined. */
export function nestingProblem(code: string): NestingProblem | undefined {
  const frames: Frame[] = [{ arrows: 0, statements: 0, template: false }];
  let arrows = 0;
  let statements = 0;
  /** What came last: an operand (a `/` after it divides) or not (a `/` after it starts a regular expression). */
  let afterOperand = false;
  const at = (i: number, message: string): NestingProblem => {
    let line = 1;
    let lineStart = 0;
    for (let j = 0; j < i; j++) if (code.charCodeAt(j) === 10) [line, lineStart] = [line + 1, j + 1];
    return { message, line, column: i - lineStart + 1 };
  };
  const depth = () => frames.length - 1 + arrows + statements;
  const tooDeep = (i: number) =>
    arrows > MAX_ARROW_NESTING
      ? at(i, `arrow functions nest more than ${MAX_ARROW_NESTING} deep`)
      : depth() > MAX_NESTING
        ? at(i, `the script nests more than ${MAX_NESTING} levels deep (brackets, template substitutions, arrow functions and unbraced statement bodies count)`)
        : undefined;
  const endArrows = (frame: Frame) => {
    arrows -= frame.arrows;
    frame.arrows = 0;
  };
  const endStatements = (frame: Frame) => {
    statements -= frame.statements;
    frame.statements = 0;
  };
  /** Scans template text from `i` to its end (returns past the backtick) or to a `${` (opens a level, returns past it). */
  const templateText = (i: number): number => {
    for (; i < code.length; i++) {
      const c = code[i];
      if (c === '\\') i++;
      else if (c === '`') return i + 1;
      else if (c === '$' && code[i + 1] === '{') {
        frames.push({ arrows: 0, statements: 0, template: true });
        afterOperand = false;
        return i + 2;
      }
    }
    return i;
  };

  let i = 0;
  while (i < code.length) {
    const c = code[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const top = frames[frames.length - 1]!;
    if (c === '/' && code[i + 1] === '/') {
      const end = code.indexOf('\n', i);
      i = end < 0 ? code.length : end;
      continue;
    }
    if (c === '/' && code[i + 1] === '*') {
      const end = code.indexOf('*/', i + 2);
      i = end < 0 ? code.length : end + 2;
      continue;
    }
    if (c === '/' && !afterOperand) {
      // A regular expression: to its closing slash outside a character class, then its flags.
      let inClass = false;
      for (i++; i < code.length && code[i] !== '\n'; i++) {
        const r = code[i];
        if (r === '\\') i++;
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
      }
      for (i++; i < code.length && isIdentifierChar(code[i]!); i++);
      afterOperand = true;
      continue;
    }
    if (c === '"' || c === "'") {
      for (i++; i < code.length && code[i] !== c && code[i] !== '\n'; i++) if (code[i] === '\\') i++;
      i++;
      afterOperand = true;
      continue;
    }
    if (c === '`') {
      const before = frames.length;
      i = templateText(i + 1);
      if (frames.length > before) {
        const problem = tooDeep(i);
        if (problem) return problem;
      } else afterOperand = true;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      frames.push({ arrows: 0, statements: 0, template: false });
      afterOperand = false;
      const problem = tooDeep(i);
      if (problem) return problem;
      i++;
      continue;
    }
    if (c === ')' || c === ']' || c === '}') {
      i++;
      afterOperand = c !== '}';
      if (frames.length === 1) continue; // unbalanced: the compiler says where
      const closed = frames.pop()!;
      endArrows(closed);
      endStatements(closed);
      if (closed.template) {
        const before = frames.length;
        i = templateText(i);
        afterOperand = frames.length === before;
        const problem = tooDeep(i);
        if (problem) return problem;
      } else if (c === '}') {
        // A block ended: so did the statements whose body it was.
        endStatements(frames[frames.length - 1]!);
      }
      continue;
    }
    if (c === '=' && code[i + 1] === '>') {
      top.arrows++;
      arrows++;
      afterOperand = false;
      const problem = tooDeep(i);
      if (problem) return problem;
      i += 2;
      continue;
    }
    if (c === ',' || c === ';') {
      endArrows(top);
      if (c === ';') endStatements(top);
      afterOperand = false;
      i++;
      continue;
    }
    if (isIdentifierChar(c)) {
      const start = i;
      for (i++; i < code.length && isIdentifierChar(code[i]!); i++);
      const word = code.slice(start, i);
      if (NESTING_STATEMENTS.has(word)) {
        endArrows(top);
        top.statements++;
        statements++;
        const problem = tooDeep(start);
        if (problem) return problem;
      } else if (STATEMENT_WORDS.has(word) || (word === 'let' && declares(code, i))) endArrows(top);
      afterOperand = !BEFORE_EXPRESSION.has(word) && !NESTING_STATEMENTS.has(word) && !STATEMENT_WORDS.has(word);
      continue;
    }
    // Any other punctuation or operator: what follows is an operand, so a `/` there starts a regular expression.
    afterOperand = false;
    i++;
  }
  return undefined;
}
