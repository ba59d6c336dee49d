// What an import must pass before it is stored. Every `$ref` of every operation's schemas
// (parameters, request body and responses) and of what they reach names a schema (src/catalog/refs.ts):
// search_docs and the typed packages read responses too, and a reference the validator can follow
// they can. Then every operation's input validator compiles with the executor's own ajv setup
// (src/execution/validation.ts), so a description the Engine accepts can be called. A schema ajv
// cannot compile (a pattern that is no regular expression or needs backtracking, an unknown type,
// anything the meta-schema refuses) would otherwise fail every call with a 500. Compiling is the
// complete test; when it fails, the schemas of that operation are walked to name the field at fault.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { compileInputValidator, serviceAjv } from './input-schema.ts';
import { CatalogError, at, type SourceLocations } from './problems.ts';
import { isNullableWrapper } from './schema-dialect.ts';
import { patternProblem } from './pattern.ts';
import { RefWalk, resolveSchemaRef, subschemas as schemaChildren } from './refs.ts';
import type { JsonSchema, OmittedOperation, OperationSpec, ServiceIndex } from './types.ts';

/** Operations whose validators one ajv instance compiles before it is dropped. */
const COMPILE_BATCH = 1000;

/** How long the check runs before letting other work on the event loop have a turn. */
const SLICE_MS = 25;

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Problem {
  field: string;
  message: string;
}

/**
 * Checks every operation's `$ref`s, then compiles its input validator, as a call would. An operation
 * with a problem is left out, listed in `omitted` with the field (`document.paths['/pets'].get.parameters[0].schema.pattern`)
 * and the reason. Yields to the event loop between slices: a large description (GitHub's,
 * 1,000+ operations) takes a second or two.
 */
export async function checkCallable(index: ServiceIndex, locations: SourceLocations): Promise<void> {
  const oversized = sizeProblem(index, locations);
  if (oversized) throw new CatalogError(`${index.service}@${index.version}: ${oversized.field}: ${oversized.message}`, { field: `document.${oversized.field}` });
  const warnings = [...dropUnusablePatterns(index, locations), ...(await checkRefs(index, locations))];
  if (warnings.length) index.warnings = [...(index.warnings ?? []), ...warnings];
  let ajv: Ajv2020;
  try {
    ajv = serviceAjv(index);
  } catch (err) {
    // Adding components.schemas fails on two schemas with one $id or $anchor, or nesting past the stack.
    const field = componentAt(index, err);
    throw new CatalogError(`${index.service}@${index.version}: ${field}: ${err instanceof RangeError ? 'the component schemas nest too deeply' : firstLine(err)}`, { field: `document.${field}` });
  }
  const pause = slicer();
  let compiled = 0;
  for (const op of index.operations) {
    // The validators are checked, not kept: a fresh ajv every so often lets the code of those
    // compiled go (Microsoft Graph's 11,000 operations otherwise hold most of a gigabyte of it).
    if (++compiled % COMPILE_BATCH === 0) ajv = serviceAjv(index);
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
      omit(index, op, problem);
    }
    await pause();
  }
  dropOmitted(index);
}

/** Operations found uncallable, by index: taken out of `operations` once the walk over them ends. */
const uncallable = new WeakMap<ServiceIndex, Set<OperationSpec>>();

/** Leaves `op` out of the import, with the problem as its reason. */
function omit(index: ServiceIndex, op: OperationSpec, problem: Problem): void {
  let set = uncallable.get(index);
  if (!set) uncallable.set(index, (set = new Set()));
  if (set.has(op)) return;
  set.add(op);
  (index.omitted ??= []).push({ operationId: op.providerOperationId, field: `document.${problem.field}`, reason: problem.message, hint: 'fix it in the description and import it as a new version to call it' });
}

function dropOmitted(index: ServiceIndex): void {
  const set = uncallable.get(index);
  if (set?.size) index.operations = index.operations.filter((op) => !set.has(op));
}

/** Resolves after a turn of the event loop once a slice of work has run, else at once. */
function slicer(): () => Promise<void> {
  let slice = performance.now();
  return async () => {
    if (performance.now() - slice <= SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    slice = performance.now();
  };
}

/** An operation's input schemas (parameters, request body), each with where it is in the description. */
function inputSchemas(op: OperationSpec, locations: SourceLocations): { schema: JsonSchema; field: string }[] {
  const roots: { schema: JsonSchema; field: string }[] = [];
  for (const p of op.parameters) roots.push({ schema: p.schema, field: at(locations.get(p) ?? at('parameters', p.name), 'schema') });
  if (op.body) roots.push({ schema: op.body.schema, field: at(locations.get(op.body) ?? 'requestBody', 'schema') });
  return roots;
}

/**
 * Leaves out each operation whose input schemas (parameters, request body), or a schema they
 * reach, hold a `$ref` that names nothing (another document, a pointer to no schema) or closes a
 * cycle that never reaches a schema: every call would run into it. The same problems in response
 * schemas, which no call checks an answer against, are returned instead: the import goes ahead and
 * says where the typed packages type a value as unknown and search_docs shows a `$ref` as written.
 * Each target is walked once for the whole description, inputs first. `npm run gen` refuses both.
 */
export async function checkRefs(index: ServiceIndex, locations: SourceLocations): Promise<OmittedOperation[]> {
  const walk = new RefWalk(index.schemas);
  const pause = slicer();
  for (const op of index.operations) {
    for (const { schema, field } of inputSchemas(op, locations)) {
      const [problem] = walk.add(schema, field);
      if (problem) omit(index, op, problem);
    }
    await pause();
  }
  dropOmitted(index);
  const warnings: OmittedOperation[] = [];
  for (const op of index.operations) {
    for (const [status, schema] of Object.entries(op.responses)) {
      const field = (schema !== null && typeof schema === 'object' && locations.get(schema)) || at(at(locations.get(op) ?? op.providerOperationId, 'responses'), status);
      for (const problem of walk.add(schema, field)) warnings.push({ operationId: op.providerOperationId, field: `document.${problem.field}`, reason: problem.message });
    }
    await pause();
  }
  return warnings;
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
  const roots = inputSchemas(op, locations);
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
      const problem = nodeProblem(node, here);
      if (problem) return problem;
      const target = typeof node.$ref === 'string' ? resolveSchemaRef(node.$ref, index.schemas) : undefined;
      if (target?.ok) queue.push({ schema: target.target as JsonSchema, field: target.field });
      stack.push(...subschemas(node, here).reverse());
    }
  }
  // What the meta-schema refuses (a negative minLength, a `required` that is not an array, …).
  for (const { schema, field } of walked) {
    if (ajv.validateSchema(schema as object)) continue;
    const error = ajv.errors?.[0];
    if (!error) continue;
    const tokens = error.instancePath
      .split('/')
      .slice(1)
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    return { field: sourceField(schema, tokens, field), message: `${error.message ?? 'is invalid'} (JSON Schema 2020-12)` };
  }
  return undefined;
}

/** Where `tokens` (a path into `schema`, found at `field`) is in the description: a rewritten 3.0 `nullable` adds no step. */
function sourceField(schema: unknown, tokens: string[], field: string): string {
  let node = schema;
  let here = field;
  for (let i = 0; i < tokens.length; i++) {
    if (isObj(node) && isNullableWrapper(node) && tokens[i] === 'anyOf' && (tokens[i + 1] === '0' || tokens[i + 1] === '1')) {
      node = (node.anyOf as unknown[])[Number(tokens[i + 1])];
      if (tokens[++i] === '1') here = at(here, 'nullable');
      continue;
    }
    const token = tokens[i]!;
    here = at(here, /^\d+$/.test(token) ? Number(token) : token);
    node = isObj(node) || Array.isArray(node) ? (node as Record<string, unknown>)[token] : undefined;
  }
  return here;
}

/**
 * A schema object with more properties than any real API has (GitHub's largest has 105). ajv
 * compiles an operation's validator in one synchronous step, ~0.15 ms per property: 20,000
 * properties held the event loop for 3 s, at import and again at the operation's first call.
 */
function sizeProblem(index: ServiceIndex, locations: SourceLocations): Problem | undefined {
  const roots: { node: unknown; field: string }[] = Object.entries(index.schemas).map(([name, schema]) => ({ node: schema, field: at(at('components', 'schemas'), name) }));
  for (const op of index.operations) for (const { schema, field } of inputSchemas(op, locations)) roots.push({ node: schema, field });
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

/**
 * Takes out each `pattern` (and `patternProperties` key) the Engine cannot check in linear time or
 * cannot read, from the component schemas and every operation's input schemas, with a warning for
 * each: the provider still checks its own constraint, and the operation stays callable.
 */
function dropUnusablePatterns(index: ServiceIndex, locations: SourceLocations): OmittedOperation[] {
  const warnings: OmittedOperation[] = [];
  const seen = new Set<unknown>();
  const walk = (root: unknown, field: string, operationId: string) => {
    const stack = [{ node: root, field }];
    while (stack.length) {
      const { node, field } = stack.pop()!;
      if (!isObj(node) || seen.has(node)) continue;
      seen.add(node);
      if (typeof node.pattern === 'string') {
        const problem = patternProblem(node.pattern);
        if (problem) {
          delete node.pattern;
          warnings.push({ operationId, field: `document.${at(field, 'pattern')}`, reason: `pattern ${problem}; not checked by the Engine (the provider still checks it)` });
        }
      }
      if (isObj(node.patternProperties)) {
        for (const key of Object.keys(node.patternProperties)) {
          const problem = patternProblem(key);
          if (!problem) continue;
          delete node.patternProperties[key];
          warnings.push({ operationId, field: `document.${at(at(field, 'patternProperties'), key)}`, reason: `pattern ${problem}; not checked by the Engine (the provider still checks it)` });
        }
      }
      stack.push(...subschemas(node, field));
    }
  };
  for (const [name, schema] of Object.entries(index.schemas)) walk(schema, at(at('components', 'schemas'), name), '*');
  for (const op of index.operations) for (const { schema, field } of inputSchemas(op, locations)) walk(schema, field, op.providerOperationId);
  return warnings;
}

/** The subschemas of a schema object, each with where it is, in keyword order. */
const subschemas = (node: Obj, field: string): { node: unknown; field: string }[] =>
  schemaChildren(node).map((c) => ({ node: c.node, field: c.path.reduce<string>(at, field) }));

/** Properties one schema object may declare. */
const MAX_PROPERTIES = 1_000;

/** A problem with one schema object itself (not its subschemas, nor what its `$ref` names: checkRefs looked at those). */
function nodeProblem(node: Obj, field: string): Problem | undefined {
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
