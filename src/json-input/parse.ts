// JSON text from callers (REST bodies, gRPC input_json), parsed without losing anything silently:
// nesting the Engine's recursive steps (validation, request building) cannot take is refused, and
// so are numbers a double cannot hold (an integer past ±2^53 would be rounded, 1e309 becomes
// Infinity and then null), each with a 400 naming where it is.
// Also the canonical text of a JSON value, for comparing and hashing values whatever their key order.
import { parse as tolerantParse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { EngineError } from '../envelope/index.ts';

/** Deepest nesting of arrays and objects accepted: far beyond real API inputs, far below a stack overflow. */
export const MAX_JSON_DEPTH = 128;

/** Text that may hold a number a double cannot hold: 16+ digits in a row, or a 3-digit exponent. */
const MAYBE_INEXACT = /\d{16}|[eE][+-]?\d{3}/;
const INTEGER_TOKEN = /^-?\d+$/;

/** The nesting depth of JSON text, counted over brackets outside strings; stops once past `limit`. */
function depthOf(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Whether JSON text nests arrays and objects deeper than `limit` (one pass; strings skipped; text shorter than two characters a level cannot). */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  return text.length >= limit * 2 && depthOf(text, limit) > limit;
}

const tooDeep = (field: string, named = field) =>
  new EngineError('ENGINE_INVALID_INPUT', `${field}: nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`, { details: { field: named, max_depth: MAX_JSON_DEPTH } });

const label = (field: string, key: string) => (key === '' ? field : `${field} property '${key.length > 60 ? `${key.slice(0, 60)}…` : key}'`);

/** A place in a value: object keys and array indexes, from the top. */
type JsonPath = (string | number)[];

/** A place as schema errors name a field (`binding.endUserRef`, `operations.0`); `field` itself for the top. */
const fieldAt = (field: string, path: JsonPath) => (path.length ? path.join('.') : field);

/**
 * Where `value` first nests past `limit` levels, as the keys leading there (array indexes after the
 * last key dropped: `{"x":[[[…]]]}` is at `x`). Recurses at most `limit` + 1 levels.
 */
function pathPast(value: unknown, limit: number, path: JsonPath = []): JsonPath | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (path.length >= limit) {
    const found = [...path];
    while (typeof found.at(-1) === 'number') found.pop();
    return found;
  }
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_v, i) => i) : Object.keys(value);
  for (const k of keys) {
    path.push(k);
    const found = pathPast((value as Record<string | number, unknown>)[k], limit, path);
    path.pop();
    if (found) return found;
  }
  return undefined;
}

/**
 * Parses JSON a caller sent as `field` (e.g. 'body', 'input_json'). Throws ENGINE_INVALID_INPUT for
 * text that is not JSON, nests deeper than MAX_JSON_DEPTH, or holds a number that would change.
 * `secret`: the text carries a credential (a secret's PUT): refusals quote neither numbers nor keys.
 */
export function parseJsonInput(text: string, field: string, secret = false): unknown {
  const value = parseJsonText(text, field);
  checkJsonInput(text, value, field, secret);
  return value;
}

/** JSON.parse of text a caller sent as `field`, refusing text that is not JSON; checkJsonInput makes the other checks of parseJsonInput. */
export function parseJsonText(text: string, field: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    // Depth first: describing the fault re-parses with a parser that recurses once per level.
    if (nestsDeeperThan(text)) throw tooDeep(field);
    throw new EngineError('ENGINE_INVALID_INPUT', `${field}: not valid JSON (${syntaxProblem(text, (err as Error).message)})`, { details: { field } });
  }
}

/**
 * Refuses `value`, parsed from `text`, when it nests deeper than MAX_JSON_DEPTH or holds a number a
 * double would change. `within`: details.field names the place in the value (`input.amount`), as a
 * schema error would, rather than `field`; never in a secret's text, whose keys may be the secret.
 */
export function checkJsonInput(text: string, value: unknown, field: string, secret = false, within = false): void {
  const name = within && !secret;
  if (nestsDeeperThan(text)) throw tooDeep(field, name ? fieldAt(field, pathPast(value, MAX_JSON_DEPTH) ?? []) : field);
  if (MAYBE_INEXACT.test(text)) checkNumbers(text, field, secret, name);
}

/**
 * What is wrong with JSON text, never quoting it: the text may hold a secret (a PUT of a secret
 * whose value lost its quotes), and V8's "Unexpected token" message quotes the text around the
 * fault. Its other messages name only a position, and are kept.
 */
function syntaxProblem(text: string, parserMessage: string): string {
  if (!parserMessage.includes('"')) return parserMessage;
  const errors: ParseError[] = [];
  tolerantParse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return 'unexpected token';
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - before.lastIndexOf('\n');
  return `${printParseErrorCode(first.error)} at position ${first.offset} (line ${line} column ${column})`;
}

/** Stands in for a refused number, and then for each value holding it, so that its place is known once the parse ends. */
const REFUSED = Symbol('refused number');

/** Parses again with the source text of each number at hand, refusing the first that a double would change. */
function checkNumbers(text: string, field: string, secret: boolean, within: boolean): void {
  let refused: { message: string; path: JsonPath } | undefined;
  const segment = (holder: unknown, key: string) => (Array.isArray(holder) ? Number(key) : key);
  JSON.parse(text, function (this: unknown, key: string, value: unknown, context?: { source?: string }) {
    if (refused) {
      // An ancestor of the refused number (revivers run innermost first): its key goes in front.
      if (within && value !== null && typeof value === 'object' && Object.values(value).includes(REFUSED)) {
        refused.path.unshift(segment(this, key));
        return REFUSED;
      }
      return value;
    }
    if (typeof value !== 'number') return value;
    const source = context?.source ?? String(value);
    // A secret that lost its quotes is a number here: never echoed, nor a key that may be one.
    const where = secret ? field : label(field, key);
    const shown = secret ? '' : ` ${source.slice(0, 40)}`;
    if (!Number.isFinite(value)) refused = { message: `${where}: the number${shown} is out of range`, path: [segment(this, key)] };
    else if (INTEGER_TOKEN.test(source) && !Number.isSafeInteger(value) && BigInt(source) !== BigInt(value)) {
      refused = { message: `${where}: the integer${shown} cannot be represented exactly (beyond ±2^53); send it as a string`, path: [segment(this, key)] };
    }
    return refused ? REFUSED : value;
  });
  // The outermost call is the parse's own holder, under key ''.
  if (refused) throw new EngineError('ENGINE_INVALID_INPUT', refused.message, { details: { field: within ? fieldAt(field, refused.path.slice(1)) : field } });
}

/** JSON text with object keys sorted: equal JSON values give equal text (undefined reads as null). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(object[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
