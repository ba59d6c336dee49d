// RFC 6901 JSON Pointers, plus one extension used by pagination policies: a `-1` array index
// means the last element (`/data/-1/id`).

export class PointerError extends Error {
  override name = 'PointerError';
}

/** One reference token unescaped (`~1` → '/', `~0` → '~'); `pointer` names the whole for the error. */
function unescapeToken(token: string, pointer: string): string {
  if (/~[^01]|~$/.test(token)) throw new PointerError(`'${pointer}' has an invalid escape ('~' must be followed by 0 or 1)`);
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PointerError(`'${pointer}' is not a JSON Pointer: it must be empty or start with '/'`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => unescapeToken(token, pointer));
}

/**
 * A pointer in its URI fragment form (RFC 6901 §6; `fragment` is what follows '#'): each
 * '/'-separated token percent-decoded, then unescaped. `%7E1` is '~1', so '/'; an encoded '/'
 * (`%2F`) stays inside its token, as a URI keeps an encoded delimiter data (and as ajv reads a $ref).
 */
export function parseFragmentPointer(fragment: string): string[] {
  if (fragment === '') return [];
  if (!fragment.startsWith('/')) throw new PointerError(`'#${fragment}' is not a JSON Pointer fragment: it must be '#' or start with '#/'`);
  return fragment
    .slice(1)
    .split('/')
    .map((token) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(token);
      } catch {
        throw new PointerError(`'#${fragment}' has a malformed percent-encoding ('%' must be followed by two hex digits of UTF-8)`);
      }
      return unescapeToken(decoded, `#${fragment}`);
    });
}

export const formatPointer = (tokens: readonly (string | number)[]): string =>
  tokens.map((t) => '/' + String(t).replace(/~/g, '~0').replace(/\//g, '~1')).join('');

function step(node: unknown, token: string, strict = false): { found: boolean; value?: unknown } {
  if (Array.isArray(node)) {
    if (token === '-1' && !strict) return node.length ? { found: true, value: node[node.length - 1] } : { found: false };
    if (!/^(0|[1-9][0-9]*)$/.test(token)) return { found: false };
    const i = Number(token);
    return i < node.length ? { found: true, value: node[i] } : { found: false };
  }
  if (node !== null && typeof node === 'object' && Object.prototype.hasOwnProperty.call(node, token)) {
    return { found: true, value: (node as Record<string, unknown>)[token] };
  }
  return { found: false };
}

/**
 * The value at `pointer`, or `undefined` when any step is missing. `-1` names an array's last item
 * (pagination policies' extension), unless `strict`: then only RFC 6901 indexes do (a caller's pointer).
 */
export function getAt(doc: unknown, pointer: string | readonly string[], strict = false): unknown {
  let node = doc;
  for (const token of typeof pointer === 'string' ? parsePointer(pointer) : pointer) {
    const next = step(node, token, strict);
    if (!next.found) return undefined;
    node = next.value;
  }
  return node;
}

/** Returns a shallow-copied document with `value` placed at `pointer` ('' replaces the root). */
export function setAt(doc: unknown, pointer: string, value: unknown): unknown {
  const tokens = parsePointer(pointer);
  if (!tokens.length) return value;
  if (tokens.some((t) => t === '__proto__' || t === 'constructor' || t === 'prototype')) {
    throw new PointerError(`'${pointer}' names a reserved key`);
  }
  const copy = (node: unknown): Record<string, unknown> | unknown[] =>
    Array.isArray(node) ? [...node] : { ...(node as Record<string, unknown>) };
  const root = copy(doc);
  let node: Record<string, unknown> | unknown[] = root;
  tokens.forEach((token, i) => {
    const last = i === tokens.length - 1;
    const key = Array.isArray(node) && token === '-1' ? node.length - 1 : token;
    const target = node as Record<string | number, unknown>;
    if (last) target[key] = value;
    else {
      const child = copy(target[key] ?? {});
      target[key] = child;
      node = child;
    }
  });
  return root;
}
