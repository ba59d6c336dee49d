// Schema sections of an operation, dereferenced: `$ref`s inlined with the keywords beside them,
// recursion cut, a node budget past which a section is reported too large, and the section cache
// with the JSON sizes of cached sections.
import type { ServiceIndex } from '../catalog/index.ts';
import { ANNOTATIONS, resolveSchemaRef, siblingsOf } from '../catalog/refs.ts';

/** Dereferencing stops past this many schema nodes; the section is then reported too large. */
const DEREF_NODE_BUDGET = 50_000;

export const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** JSON size of a section value; sections are cached objects, so their size is measured once. */
const sectionSizes = new WeakMap<object, number>();
export function sectionBytes(value: unknown): number {
  if (typeof value !== 'object' || value === null) return bytes(value);
  let size = sectionSizes.get(value);
  if (size === undefined) sectionSizes.set(value, (size = bytes(value)));
  return size;
}

/** What cached() keeps for a section too large to build. A marker object only this module holds: a real schema may well have a `tooLarge` key. */
export const TOO_LARGE: unknown = Object.freeze({});

/** A section or subtree too large to build, with the keys an agent can follow one level deeper. */
export class TooLarge {
  readonly children: string[];
  constructor(children: string[]) {
    this.children = children;
  }
}

class DerefBudget extends Error {}

/**
 * What a `$ref` names (src/catalog/refs.ts: an RFC 6901 pointer into components.schemas, as the
 * import check, the typed packages and the input validator read it). `key` identifies the target
 * for cycle detection; `name` is the component's, or the pointer below components.schemas; undefined
 * when it names nothing (an import refuses one in an input schema and warns of one in a response:
 * shown as written).
 */
function resolveRef(ref: string, index: ServiceIndex): { key: string; name: string; target: unknown } | undefined {
  const found = resolveSchemaRef(ref, index.schemas);
  return found.ok ? { key: found.key, name: found.tokens.length === 1 ? found.tokens[0]! : found.key.slice(1), target: found.target } : undefined;
}

const recursive = (name: string) => ({ $comment: `recursive: same shape as ${name}` });

/**
 * A `$ref` with sibling keywords (OpenAPI 3.1, JSON Schema 2020-12: both apply). Merged into one
 * schema when no constraint keyword is on both sides (the sibling's annotations stand in for the
 * target's), else `allOf` of the two, so no constraint is lost. Decided on the keys alone, so the
 * dereferenced section and a schemaPath walk (followRef) agree on its shape.
 */
function withSiblings(target: unknown, siblings: Record<string, unknown>): unknown {
  if (target && typeof target === 'object' && !Array.isArray(target)) {
    const clash = Object.keys(siblings).some((k) => Object.hasOwn(target, k) && !ANNOTATIONS.has(k) && !k.startsWith('x-'));
    if (!clash) return { ...target, ...siblings };
  }
  return { allOf: [target, siblings] };
}

/**
 * Inlines `#/components/schemas/…` references, keeping the keywords beside each; recursion is cut
 * with a `$comment`. `stack` holds the references already entered above `schema`, when it is a
 * subtree of a larger one.
 */
export function dereference(schema: unknown, index: ServiceIndex, stack: string[] = []): unknown {
  let nodes = 0;
  const walk = (node: unknown, stack: string[]): unknown => {
    if (++nodes > DEREF_NODE_BUDGET) throw new DerefBudget();
    if (Array.isArray(node)) return node.map((n) => walk(n, stack));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    const resolved = typeof ref === 'string' ? resolveRef(ref, index) : undefined;
    if (resolved) {
      const target = stack.includes(resolved.key) ? recursive(resolved.name) : walk(resolved.target, [...stack, resolved.key]);
      const siblings = siblingsOf(node);
      return siblings ? withSiblings(target, walk(siblings, stack) as Record<string, unknown>) : target;
    }
    // fromEntries defines each key, `__proto__` included (assigned, it would set the copy's prototype).
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, stack)]));
  };
  return walk(schema, stack);
}

/**
 * `node` as dereference() shows it one level deep: its `$ref` chain followed and merged with the
 * keywords beside each `$ref` as dereference() merges them, pushing each reference entered onto
 * `stack`. A reference already on the stack is where dereference() cuts recursion, so a cyclic
 * chain ends there. Values below the first level are left as they are in the catalog.
 */
export function followRef(node: unknown, index: ServiceIndex, stack: string[]): unknown {
  const ref = node && typeof node === 'object' ? (node as { $ref?: unknown }).$ref : undefined;
  const resolved = typeof ref === 'string' ? resolveRef(ref, index) : undefined;
  if (!resolved) return node;
  let target: unknown;
  if (stack.includes(resolved.key)) target = recursive(resolved.name);
  else {
    stack.push(resolved.key);
    target = followRef(resolved.target, index, stack);
  }
  const siblings = siblingsOf(node as object);
  return siblings ? withSiblings(target, siblings) : target;
}

export const childrenOf = (node: unknown) => (node && typeof node === 'object' ? Object.keys(node) : []);

/** Dereferenced sections are costly to build and often asked again: keep the most recent ones. */
const sectionCache = new Map<string, unknown>();
const SECTION_CACHE_SIZE = 512;
export function cached(key: string, build: () => unknown): unknown {
  if (sectionCache.has(key)) {
    const value = sectionCache.get(key);
    sectionCache.delete(key);
    sectionCache.set(key, value);
    return value;
  }
  let value: unknown;
  try {
    value = build();
  } catch (err) {
    if (!(err instanceof DerefBudget)) throw err;
    value = TOO_LARGE;
  }
  sectionCache.set(key, value);
  if (sectionCache.size > SECTION_CACHE_SIZE) sectionCache.delete(sectionCache.keys().next().value!);
  return value;
}
