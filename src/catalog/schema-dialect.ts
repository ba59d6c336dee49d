// OpenAPI 3.0's schema dialect (nullable, boolean exclusive bounds) as JSON Schema 2020-12.
import type { JsonSchema } from './types.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The `{ anyOf: [schema, { type: 'null' }] }` objects toJsonSchema makes for a 3.0 `nullable` with no
 * `type` beside it (a `$ref`, an `allOf`): checks that name a place in the description skip them, so
 * they name `….owner.$ref` as written, not `….owner.anyOf[0].$ref`.
 */
const nullableWrappers = new WeakSet<object>();
export const isNullableWrapper = (node: object): boolean => nullableWrappers.has(node);

/** Converts OpenAPI 3.0 schema dialect (nullable, boolean exclusive bounds) to JSON Schema 2020-12. */
export function toJsonSchema(schema: unknown): JsonSchema {
  if (Array.isArray(schema)) return schema.map(toJsonSchema) as unknown as JsonSchema;
  if (!isObj(schema)) return schema as JsonSchema;
  const out: Obj = {};
  for (const [key, value] of Object.entries(schema)) {
    // `__proto__` is no keyword; assigned, it would set the schema's prototype and lend it keywords.
    if (key === 'example' || key === 'examples' || key === 'xml' || key === 'externalDocs' || key === '__proto__') continue;
    if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions') {
      out[key] = isObj(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v)]))
        : value;
    } else if (key === 'enum' || key === 'const' || key === 'default' || key === 'required') {
      out[key] = value;
    } else {
      out[key] = isObj(value) || Array.isArray(value) ? toJsonSchema(value) : value;
    }
  }
  if (out.exclusiveMinimum === true && typeof out.minimum === 'number') {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  } else if (typeof out.exclusiveMinimum === 'boolean') delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === true && typeof out.maximum === 'number') {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  } else if (typeof out.exclusiveMaximum === 'boolean') delete out.exclusiveMaximum;
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type)) {
      if (!out.type.includes('null')) out.type = [...out.type, 'null'];
    } else {
      const wrapper = { anyOf: [out, { type: 'null' }] };
      nullableWrappers.add(wrapper);
      return wrapper;
    }
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  } else if ('nullable' in out) delete out.nullable;
  return out;
}
