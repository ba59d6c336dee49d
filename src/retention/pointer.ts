// Strict RFC 6901 resolution for session reads: reuses the shared parser, but without the `-1`
// last-element extension that pagination policies use (a session path names exactly one value).
import { parsePointer, PointerError } from '../json-pointer/index.ts';
import { clip, invalidInput } from './errors.ts';

const INDEX = /^(0|[1-9][0-9]*)$/;

/** Parses `pointer`, turning a syntax error into ENGINE_INVALID_INPUT. */
export function pointerTokens(pointer: unknown, what: string): string[] {
  if (typeof pointer !== 'string') throw invalidInput(`${what} must be a string JSON Pointer (RFC 6901)`);
  try {
    return parsePointer(pointer);
  } catch (err) {
    if (err instanceof PointerError) throw invalidInput(`${what} '${clip(pointer)}' is not a valid JSON Pointer: it must be empty or start with '/', and '~' must be followed by 0 or 1`);
    throw err;
  }
}

/** The value at `tokens`, or `found: false` when a step is missing. */
export function resolveTokens(doc: unknown, tokens: readonly string[]): { found: boolean; value?: unknown } {
  let node = doc;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!INDEX.test(token)) return { found: false };
      const i = Number(token);
      if (i >= node.length) return { found: false };
      node = node[i];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: node };
}
