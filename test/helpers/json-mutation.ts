// JSON values with one thing made wrong, for the property-based fuzzes (test/api-fuzz.test.ts,
// test/grpc-fuzz.test.ts): numbers JSON.stringify cannot write, and a value replaced, removed or
// given a property no schema names, at one place.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Segment = string | number;

/** A JSON number written as is (`1e400`, 2^53 + 1), which JSON.stringify could not produce. */
export class RawNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** As a replacement: remove the value (an array item, an object property). */
export const DELETE = Symbol('delete');
/** As a replacement: add this property to the object there (or put an object holding it there). */
export const EXTRA_KEY = 'fuzzUnknownKey';

export const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Arrays nested `depth` deep around a string. */
export const nest = (depth: number): Json => (depth === 0 ? 'leaf' : [nest(depth - 1)]);

/** JSON text of `value`, RawNumbers spliced in as written. */
export function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v) => (v instanceof RawNumber ? `\u0001raw${raws.push(v.text) - 1}\u0001` : v));
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i) => raws[Number(i)]!);
}

/** A copy of `base` with the value at `path` replaced by `replacement` (or DELETE, EXTRA_KEY). */
export function mutate(base: Json, path: Segment[], replacement: unknown): unknown {
  const copy = structuredClone(base) as any;
  const parent = path.slice(0, -1).reduce((n, k) => n[k], copy);
  const key = path.at(-1)!;
  if (replacement === DELETE) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else if (replacement === EXTRA_KEY) {
    const target = parent[key];
    if (isObject(target)) target[EXTRA_KEY] = 1;
    else parent[key] = { [EXTRA_KEY]: 1 };
  } else parent[key] = replacement;
  return copy;
}
