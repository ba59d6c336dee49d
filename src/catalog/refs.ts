// What a `$ref` in a service's schemas names, read one way by the import check, search_docs and
// the typed packages, and as the input validator (ajv) reads it: a URI fragment holding an RFC 6901
// JSON Pointer into the description's components.schemas, each token percent-decoded and then
// unescaped (src/json-pointer parseFragmentPointer). It may name a component whose name holds '/'
// or '~' (`#/components/schemas/a~1b`, `#/components/schemas/a%7E1b`) or a place inside a component
// (`#/components/schemas/Pet/properties/name`). Nothing else resolves: another document, an `$id`
// or `$anchor`, a pointer outside components.schemas. Keywords beside a `$ref` apply together with
// its target (OpenAPI 3.1, JSON Schema 2020-12).
import { formatPointer, parseFragmentPointer, PointerError } from '../json-pointer/index.ts';
import { at } from './problems.ts';
import { isNullableWrapper } from './schema-dialect.ts';

export interface ResolvedRef {
  /** The target's pointer below components.schemas (`/Pet`, `/Pet/properties/name`): one key per target. */
  key: string;
  /** The same pointer as tokens (`['Pet', 'properties', 'name']`). */
  tokens: string[];
  target: unknown;
  /** Where the target is in the description, as an accessor: `components.schemas.Pet.properties.name`. */
  field: string;
}

export type RefResolution = ({ ok: true } & ResolvedRef) | { ok: false; problem: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A `$ref` as messages quote it: long ones cut (it is the description's text, not the Engine's). */
const quoted = (ref: string) => `'${ref.length > 200 ? `${ref.slice(0, 200)}…` : ref}'`;

const SUPPORTED = "only references into this description's components.schemas ('#/components/schemas/<name>', optionally going on into the component) are supported";

function resolve(ref: string, schemas: Obj): RefResolution {
  if (!ref.startsWith('#')) return { ok: false, problem: `$ref ${quoted(ref)} refers to another document; ${SUPPORTED}` };
  let tokens: string[];
  try {
    tokens = parseFragmentPointer(ref.slice(1));
  } catch (err) {
    if (!(err instanceof PointerError)) throw err;
    const anchor = !ref.startsWith('#/') && ref.length > 1;
    return { ok: false, problem: anchor ? `$ref ${quoted(ref)} names an $anchor, not a JSON Pointer; ${SUPPORTED}` : `$ref ${quoted(ref)} is not a valid JSON Pointer: ${err.message}` };
  }
  if (tokens.length < 3 || tokens[0] !== 'components' || tokens[1] !== 'schemas') {
    return { ok: false, problem: `$ref ${quoted(ref)} does not point to a schema under components.schemas; ${SUPPORTED}` };
  }
  const inner = tokens.slice(2);
  let node: unknown = schemas;
  let field = 'components.schemas';
  for (const token of inner) {
    const index = Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
    const found = index !== undefined ? index < (node as unknown[]).length : isObj(node) && Object.hasOwn(node, token);
    if (!found) return { ok: false, problem: `$ref ${quoted(ref)} does not resolve: ${field} has no ${index !== undefined ? `item ${index}` : `'${token}'`}` };
    node = index !== undefined ? (node as unknown[])[index] : (node as Obj)[token];
    field = at(field, index ?? token);
  }
  return { ok: true, key: formatPointer(inner), tokens: inner, target: node, field };
}

/** Resolutions per components.schemas object: a large description repeats its references thousands of times. */
const resolved = new WeakMap<object, Map<string, RefResolution>>();

/** What `ref` names among `schemas` (a service's components.schemas), or why it names nothing. */
export function resolveSchemaRef(ref: string, schemas: Record<string, unknown>): RefResolution {
  let known = resolved.get(schemas);
  if (!known) resolved.set(schemas, (known = new Map()));
  let found = known.get(ref);
  if (!found) known.set(ref, (found = resolve(ref, schemas)));
  return found;
}

/** Keywords that annotate rather than constrain: beside a $ref, the sibling's value stands in for the target's. */
export const ANNOTATIONS = new Set(['title', 'description', 'default', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'externalDocs']);

/** `node` without its `$ref`, or undefined when it has no other keyword. */
export function siblingsOf(node: object): Record<string, unknown> | undefined {
  // Rest properties define each key, `__proto__` included (assigned, it would set the copy's prototype).
  const { $ref: _ref, ...siblings } = node as Obj;
  return Object.keys(siblings).length ? siblings : undefined;
}

// Where a schema holds subschemas, and whether each applies to the instance the schema applies to
// (in place) or to a part of it (a property, an item).
const SCHEMA_MAPS: Record<string, boolean> = { properties: false, patternProperties: false, $defs: false, definitions: false, dependentSchemas: true };
const SCHEMA_LISTS: Record<string, boolean> = { items: false, prefixItems: false, allOf: true, anyOf: true, oneOf: true };
const SCHEMA_ONES: Record<string, boolean> = {
  not: true, if: true, then: true, else: true,
  contains: false, additionalProperties: false, unevaluatedProperties: false, unevaluatedItems: false, propertyNames: false, additionalItems: false, contentSchema: false,
};

export interface Subschema {
  node: unknown;
  /** Its place below the schema: `['properties', 'name']`, `['allOf', 0]`. */
  path: (string | number)[];
  inPlace: boolean;
}

/** The subschemas of a schema object, in keyword order (values that are no schema included: callers skip them). */
export function subschemas(node: Obj): Subschema[] {
  // A 3.0 `nullable` the catalog rewrote: its schema stands where the description wrote it.
  if (isNullableWrapper(node)) {
    const [schema, nullSchema] = node.anyOf as unknown[];
    return [
      { node: schema, path: [], inPlace: true },
      { node: nullSchema, path: ['nullable'], inPlace: true },
    ];
  }
  const children: Subschema[] = [];
  for (const [key, inPlace] of Object.entries(SCHEMA_MAPS)) {
    const map = node[key];
    if (isObj(map)) for (const [name, sub] of Object.entries(map)) children.push({ node: sub, path: [key, name], inPlace });
  }
  for (const [key, inPlace] of Object.entries(SCHEMA_LISTS)) {
    const value = node[key];
    if (Array.isArray(value)) value.forEach((sub, i) => children.push({ node: sub, path: [key, i], inPlace }));
    else children.push({ node: value, path: [key], inPlace });
  }
  for (const [key, inPlace] of Object.entries(SCHEMA_ONES)) children.push({ node: node[key], path: [key], inPlace });
  return children;
}

/** A `$ref` that names nothing, or closes a cycle; `field` is where the `$ref` is (`….schema.$ref`). */
export interface RefProblem {
  field: string;
  ref: string;
  message: string;
}

interface Edge {
  key: string;
  ref: string;
  field: string;
}

/**
 * The `$ref`s of some schemas (each with where it is) and of every target they reach, followed
 * once per target. Records each target, each reference that names nothing, and, per target, the
 * references it applies in place: a cycle of those (A is B, B is A; or A is `allOf: [B]` …) never
 * reaches a schema that looks at the value, so checking a value against it never ends.
 */
export class RefWalk {
  /** Every target reached, in the order first reached. */
  readonly targets = new Map<string, ResolvedRef>();
  readonly problems: RefProblem[] = [];
  /** Targets on a cycle of in-place references. */
  readonly cyclic = new Set<string>();
  private readonly schemas: Obj;
  private readonly edges = new Map<string, Edge[]>();
  private readonly state = new Map<string, 'open' | 'done'>();

  constructor(schemas: Record<string, unknown>) {
    this.schemas = schemas;
  }

  /**
   * Walks `schema` (found at `field`) and every target it reaches for the first time. Returns the
   * problems found in this walk: references that name nothing, then one per cycle closed.
   */
  add(schema: unknown, field: string): RefProblem[] {
    const before = this.problems.length;
    const added: string[] = [];
    const queue: { node: unknown; field: string; owner?: string }[] = [{ node: schema, field }];
    while (queue.length) {
      const { node: root, field: rootField, owner } = queue.shift()!;
      // Depth-first, iteratively (a schema may nest deeply); `inPlace`: reached from the root through in-place keywords only.
      const stack: { node: unknown; field: string; inPlace: boolean }[] = [{ node: root, field: rootField, inPlace: true }];
      while (stack.length) {
        const { node, field: here, inPlace } = stack.pop()!;
        if (!isObj(node)) continue;
        if (typeof node.$ref === 'string') {
          const ref = node.$ref;
          const refField = at(here, '$ref');
          const found = resolveSchemaRef(ref, this.schemas);
          if (!found.ok) this.problems.push({ field: refField, ref, message: found.problem });
          else {
            if (owner !== undefined && inPlace) this.edges.get(owner)!.push({ key: found.key, ref, field: refField });
            if (!this.targets.has(found.key)) {
              this.targets.set(found.key, { key: found.key, tokens: found.tokens, target: found.target, field: found.field });
              this.edges.set(found.key, []);
              added.push(found.key);
              queue.push({ node: found.target, field: found.field, owner: found.key });
            }
          }
        }
        for (const c of subschemas(node).reverse()) {
          if (isObj(c.node)) stack.push({ node: c.node, field: c.path.reduce<string>(at, here), inPlace: inPlace && c.inPlace });
        }
      }
    }
    for (const key of added) this.close(key);
    return this.problems.slice(before);
  }

  /** Depth-first over in-place edges from `start`, iteratively (a chain may be long); a reference back to a target still open closes a cycle. */
  private close(start: string): void {
    if (this.state.has(start)) return;
    this.state.set(start, 'open');
    /** The edges taken from `start`; each frame is a target on the way, with how many of its edges have been followed. */
    const path: Edge[] = [];
    const frames = [{ key: start, next: 0 }];
    while (frames.length) {
      const frame = frames.at(-1)!;
      const edge = this.edges.get(frame.key)![frame.next++];
      if (!edge) {
        this.state.set(frame.key, 'done');
        frames.pop();
        path.pop();
        continue;
      }
      const state = this.state.get(edge.key);
      if (state === undefined) {
        this.state.set(edge.key, 'open');
        frames.push({ key: edge.key, next: 0 });
        path.push(edge);
      } else if (state === 'open') {
        // The cycle runs from the target `edge` names back to it: the edges taken since it was entered, then `edge`.
        const cycle = [...path.slice(path.findIndex((e) => e.key === edge.key) + 1), edge];
        for (const e of cycle) this.cyclic.add(e.key);
        this.problems.push({
          field: edge.field,
          ref: edge.ref,
          message: `$ref ${quoted(edge.ref)} closes a cycle of schemas that each apply the next to the same value, through $ref, allOf, anyOf, oneOf, not or if/then/else (${[edge, ...cycle].map((e) => e.ref).join(' → ')}): it never reaches a schema that looks at the value, so checking one would never end`,
        });
      }
    }
  }
}
