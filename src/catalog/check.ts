// What an import must pass before it is stored: every operation's input validator compiles with
// the executor's own ajv setup (src/execution/validation.ts), so a description the Engine accepts
// can be called. A schema ajv cannot compile (a pattern that is no regular expression or needs
// backtracking, a $ref to nothing, an unknown type, anything the meta-schema refuses) would
// otherwise fail every call with a 500. Compiling is the complete test; when it fails, the
// schemas of that operation are walked to name the field at fault.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { compileInputValidator, serviceAjv } from '../execution/validation.ts';
import { CatalogError, at, refLocation, type SourceLocations } from './normalize.ts';
import { patternProblem } from './pattern.ts';
import type { JsonSchema, OperationSpec, ServiceIndex } from './types.ts';

/** How long the check runs before letting other work on the event loop have a turn. */
const SLICE_MS = 25;

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is a subschema or an array of them. */
const SCHEMA_LISTS = ['items', 'prefixItems', 'allOf', 'anyOf', 'oneOf'];
const SCHEMA_ONES = ['not', 'if', 'then', 'else', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'additionalItems', 'contentSchema'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Problem {
  field: string;
  message: string;
}

/**
 * Compiles every operation's input validator, as a call would. Throws a CatalogError naming the
 * operation and the field (`document.paths['/pets'].get.parameters[0].schema.pattern`) for the
 * first that does not compile. Yields to the event loop between slices: a large description
 * (GitHub's, 1,000+ operations) takes a second or two.
 */
export async function checkCallable(index: ServiceIndex, locations: SourceLocations): Promise<void> {
  const oversized = sizeProblem(index, locations);
  if (oversized) throw new CatalogError(`${index.service}@${index.version}: ${oversized.field}: ${oversized.message}`, { field: `document.${oversized.field}` });
  let ajv: Ajv2020;
  try {
    ajv = serviceAjv(index);
  } catch (err) {
    // Adding components.schemas fails on two schemas with one $id or $anchor, or nesting past the stack.
    const field = componentAt(index, err);
    throw new CatalogError(`${index.service}@${index.version}: ${field}: ${err instanceof RangeError ? 'the component schemas nest too deeply' : firstLine(err)}`, { field: `document.${field}` });
  }
  let slice = performance.now();
  for (const op of index.operations) {
    try {
      compileInputValidator(ajv, index, op);
    } catch (err) {
      const where = locations.get(op) ?? op.providerOperationId;
      let problem: Problem | undefined;
      try {
        problem = locate(ajv, index, op, locations);
      } catch {
        problem = undefined; // the walk found nothing it could name; the compile error still stands
      }
      problem ??= { field: where, message: `the operation's input schema cannot be compiled (${firstLine(err)})` };
      throw new CatalogError(`${index.service}@${index.version} ${op.providerOperationId}: ${problem.field}: ${problem.message}`, { field: `document.${problem.field}` });
    }
    if (performance.now() - slice > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
}

/** The component schema (and keyword) a failed addSchema names by its $id or $anchor, else components.schemas. */
function componentAt(index: ServiceIndex, err: unknown): string {
  const named = /"([^"]+)"/.exec(err instanceof Error ? err.message : '')?.[1];
  if (named !== undefined) {
    for (const [name, schema] of Object.entries(index.schemas)) {
      if (!isObj(schema)) continue;
      if (schema.$id === named) return at(at(at('components', 'schemas'), name), '$id');
      if (typeof schema.$anchor === 'string' && named.endsWith(`#${schema.$anchor}`)) return at(at(at('components', 'schemas'), name), '$anchor');
    }
  }
  return at('components', 'schemas');
}

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

/** The first problem in `op`'s input schemas (and the component schemas they refer to), or undefined. */
function locate(ajv: Ajv2020, index: ServiceIndex, op: OperationSpec, locations: SourceLocations): Problem | undefined {
  const roots: { schema: JsonSchema; field: string }[] = [];
  for (const p of op.parameters) roots.push({ schema: p.schema, field: at(locations.get(p) ?? at('parameters', p.name), 'schema') });
  if (op.body) roots.push({ schema: op.body.schema, field: at(locations.get(op.body) ?? 'requestBody', 'schema') });

  const holder = { components: { schemas: index.schemas } };
  const visited = new Set<unknown>();
  const walked: { schema: unknown; field: string }[] = [];
  const queue = [...roots];
  while (queue.length) {
    const { schema, field } = queue.shift()!;
    if (visited.has(schema)) continue;
    visited.add(schema);
    walked.push({ schema, field });
    // Depth-first through the keywords that hold subschemas, iteratively (a schema may nest deeply).
    const stack: { node: unknown; field: string }[] = [{ node: schema, field }];
    while (stack.length) {
      const { node, field: here } = stack.pop()!;
      if (!isObj(node)) continue;
      const problem = nodeProblem(node, here, holder, (target, targetField) => queue.push({ schema: target as JsonSchema, field: targetField }));
      if (problem) return problem;
      stack.push(...subschemas(node, here).reverse());
    }
  }
  // What the meta-schema refuses (a negative minLength, a `required` that is not an array, …).
  for (const { schema, field } of walked) {
    if (ajv.validateSchema(schema as object)) continue;
    const error = ajv.errors?.[0];
    if (!error) continue;
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((f, token) => at(f, /^\d+$/.test(token) ? Number(token) : token), field);
    return { field: path, message: `${error.message ?? 'is invalid'} (JSON Schema 2020-12)` };
  }
  return undefined;
}

/**
 * A schema object with more properties than any real API has (GitHub's largest has 105). ajv
 * compiles an operation's validator in one synchronous step, ~0.15 ms per property: 20,000
 * properties held the event loop for 3 s, at import and again at the operation's first call.
 */
function sizeProblem(index: ServiceIndex, locations: SourceLocations): Problem | undefined {
  const roots: { node: unknown; field: string }[] = Object.entries(index.schemas).map(([name, schema]) => ({ node: schema, field: at(at('components', 'schemas'), name) }));
  for (const op of index.operations) {
    for (const p of op.parameters) roots.push({ node: p.schema, field: at(locations.get(p) ?? at('parameters', p.name), 'schema') });
    if (op.body) roots.push({ node: op.body.schema, field: at(locations.get(op.body) ?? 'requestBody', 'schema') });
  }
  const stack = roots.reverse();
  while (stack.length) {
    const { node, field } = stack.pop()!;
    if (!isObj(node)) continue;
    for (const key of ['properties', 'patternProperties'] as const) {
      const map = node[key];
      if (isObj(map) && Object.keys(map).length > MAX_PROPERTIES) {
        return { field: at(field, key), message: `holds ${Object.keys(map).length} properties; a schema may hold at most ${MAX_PROPERTIES}` };
      }
    }
    stack.push(...subschemas(node, field));
  }
  return undefined;
}

/** The subschemas of a schema object, each with where it is, in keyword order. */
function subschemas(node: Obj, field: string): { node: unknown; field: string }[] {
  const children: { node: unknown; field: string }[] = [];
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (isObj(map)) for (const [name, sub] of Object.entries(map)) children.push({ node: sub, field: at(at(field, key), name) });
  }
  for (const key of SCHEMA_LISTS) {
    const value = node[key];
    if (Array.isArray(value)) value.forEach((sub, i) => children.push({ node: sub, field: at(at(field, key), i) }));
    else children.push({ node: value, field: at(field, key) });
  }
  for (const key of SCHEMA_ONES) children.push({ node: node[key], field: at(field, key) });
  return children;
}

/** Properties one schema object may declare. */
const MAX_PROPERTIES = 1_000;

/** What a local `$ref` (`#/components/schemas/X`) points to in `holder`, or undefined. */
function resolveRef(holder: Obj, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let target: unknown = holder;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    target = (isObj(target) || Array.isArray(target)) && Object.hasOwn(target, key) ? (target as Obj)[key] : undefined;
    if (target === undefined) return undefined;
  }
  return target;
}

/** A problem with one schema object itself (not its subschemas); `follow` is handed each component a `$ref` resolves to. */
function nodeProblem(node: Obj, field: string, holder: Obj, follow: (target: unknown, field: string) => void): Problem | undefined {
  const ref = node.$ref;
  if (typeof ref === 'string') {
    if (!ref.startsWith('#/')) return { field: at(field, '$ref'), message: `'${ref}' is not a local $ref; only references into the document's components.schemas are supported` };
    const target = resolveRef(holder, ref);
    if (target === undefined || !ref.startsWith('#/components/schemas/')) {
      return { field: at(field, '$ref'), message: `$ref '${ref}' does not resolve to a schema under components.schemas` };
    }
    // A schema that is a $ref to one that is a $ref … back to the first never reaches a schema: ajv recurses until the stack ends.
    const chain = [ref];
    for (let hop: unknown = target; isObj(hop) && typeof hop.$ref === 'string'; hop = resolveRef(holder, hop.$ref)) {
      if (chain.includes(hop.$ref)) {
        return { field: at(refLocation(chain[chain.length - 1]!), '$ref'), message: `$ref '${hop.$ref}' closes a cycle of $refs that never reaches a schema (${[...chain, hop.$ref].join(' → ')})` };
      }
      chain.push(hop.$ref);
    }
    follow(target, refLocation(ref));
  }
  if (typeof node.pattern === 'string') {
    const problem = patternProblem(node.pattern);
    if (problem) return { field: at(field, 'pattern'), message: `pattern ${problem}` };
  }
  if (isObj(node.patternProperties)) {
    for (const key of Object.keys(node.patternProperties)) {
      const problem = patternProblem(key);
      if (problem) return { field: at(at(field, 'patternProperties'), key), message: `pattern ${problem}` };
    }
  }
  const types = typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? node.type : [];
  const unknown = types.find((t) => typeof t !== 'string' || !JSON_TYPES.has(t));
  if (unknown !== undefined) {
    return { field: at(field, 'type'), message: `'${String(unknown)}' is not a JSON Schema type (${[...JSON_TYPES].join(', ')})` };
  }
  return undefined;
}
