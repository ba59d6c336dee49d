// The Handlebars environment of the package templates in templates/sdk/: helpers that quote
// text for each target language, and the templates themselves, loaded once.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Handlebars from 'handlebars';
import { shellQuote, shellWord } from '../shell/index.ts';

export const TEMPLATE_DIR = resolve(import.meta.dirname, '../../templates/sdk');

/** One line of text safe inside a `/** … *\/` or `//` comment. */
export const comment = (text: unknown) => String(text ?? '').replace(/\s+/g, ' ').trim().replace(/\*\//g, '*\\/');

/** A Python string literal (JSON string escapes are valid Python escapes). */
export const pyStr = (text: string) => JSON.stringify(text);

/** A Python literal of a JSON value, on one line: `{"a": [1, True, None]}`. */
export function pyLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'None';
  if (typeof value === 'string') return pyStr(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pyStr(k)}: ${pyLiteral(v)}`).join(', ')}}`;
}

/**
 * Text inside a Python `"""…"""` docstring: backslashes and quotes escaped, and control characters
 * other than line feed and tab as `\xNN` (a NUL makes Python refuse the file; a lone CR ends a line).
 */
export const pyDoc = (text: unknown) =>
  String(text ?? '')
    .replace(/\r\n?/g, '\n')
    .trim()
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** A Markdown table cell. */
const cell = (text: unknown) => String(text ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

export function createEnvironment(): typeof Handlebars {
  const hb = Handlebars.create();
  hb.registerHelper({
    json: (value: unknown) => JSON.stringify(value),
    jsonBlock: (value: unknown, indent: unknown) => {
      const text = JSON.stringify(value, null, 2);
      return typeof indent === 'number' ? text.replace(/\n/g, `\n${' '.repeat(indent)}`) : text;
    },
    comment,
    cell,
    pystr: (text: unknown) => pyStr(String(text)),
    pydoc: pyDoc,
    pyLiteral: (value: unknown) => pyLiteral(value),
    shell: (text: unknown) => shellQuote(String(text)),
    shellWord: (text: unknown) => shellWord(String(text)),
    compactJson: (value: unknown) => JSON.stringify(value),
    concat: (...parts: unknown[]) => parts.slice(0, -1).join(''),
    eq: (a: unknown, b: unknown) => a === b,
    rbrace: () => '}',
  });
  return hb;
}

export type Render = (context: object) => string;

/** Compiles every `*.hbs` below templates/sdk/<dir>/ (partials are the files whose name starts with a lowercase letter and ends in Node.hbs). */
export function loadTemplates(hb: typeof Handlebars, dir: string): Record<string, Render> {
  const folder = join(TEMPLATE_DIR, dir);
  const out: Record<string, Render> = {};
  for (const file of readdirSync(folder).sort()) {
    if (!file.endsWith('.hbs')) continue;
    const source = readFileSync(join(folder, file), 'utf8');
    const name = file.slice(0, -4);
    if (name.endsWith('Node')) hb.registerPartial(name, source.trimEnd());
    else out[name] = hb.compile(source, { noEscape: true, strict: false });
  }
  return out;
}

/** Files shipped as they are (no placeholders). */
export const staticFile = (dir: string, file: string): Buffer => readFileSync(join(TEMPLATE_DIR, dir, file));
