// The searchable entries: a physical operation (its sections dereferenced on demand) or a Unified
// operation, in the one shape the docs index ranks and answers from.
import { combinedHints, operationHints, type JsonSchema, type OperationSpec, type SafetyHints, type ServiceIndex } from '../catalog/index.ts';
import { inputKey } from '../catalog/types.ts';
import { formatPointer, getAt } from '../json-pointer/index.ts';
import { resolveSchemaRef } from '../catalog/refs.ts';
import { servicesOf, type UnifiedDefinition } from '../unified/definitions.ts';
import { cached, childrenOf, dereference, followRef, TOO_LARGE, TooLarge } from './sections.ts';

/** One searchable operation. Unified operations (added by the unified module) share this shape. */
export interface DocEntry {
  operationId: string;
  kind: 'physical' | 'unified';
  service: string;
  summary: string;
  description: string;
  method?: string;
  path?: string;
  tags: string[];
  /** Parameter names, their enumerated values and the request body's top-level field names: words a query may use. */
  fieldNames: string[];
  /** Top-level field names of its success answers. */
  responseNames?: string[];
  /** Descriptions of its parameters and top-level body fields, each cut short (ranking reads them lightly). */
  fieldTexts?: string[];
  /** Its answer is a list: it pages, or its success response is an array. */
  returnsList: boolean;
  /** Calling it may change data (any method but GET, HEAD and OPTIONS; a Unified operation that is not a list or get). */
  changesData: boolean;
  /** Safety hints (src/catalog/safety.ts); a Unified operation's are its steps' together. */
  readOnly: boolean;
  destructive: boolean;
  deprecated?: boolean;
  /** Names of the sections this operation has. */
  sectionNames: string[];
  /**
   * One (dereferenced) section, or its subtree at `tokens`, built on demand: undefined when the
   * path does not exist, a TooLarge when it is too large to build.
   */
  section: (name: string, tokens?: readonly string[]) => unknown;
  pagination: OperationSpec['pagination'];
  required: string[];
  /** Unified: the services its steps call (a query naming one of them still finds it). */
  services?: string[];
}

/** A schema with its own `$ref` chain followed (a few steps), or undefined. */
function shallow(schema: JsonSchema | null | undefined, index: ServiceIndex): Record<string, unknown> | undefined {
  let node: unknown = schema;
  for (let i = 0; i < 8 && node && typeof node === 'object' && typeof (node as { $ref?: unknown }).$ref === 'string'; i++) {
    const found = resolveSchemaRef((node as { $ref: string }).$ref, index.schemas);
    node = found.ok ? found.target : undefined;
  }
  return node && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
}

/** The top-level properties of an object schema (its `$ref` followed). */
function propertiesOf(schema: JsonSchema | null | undefined, index: ServiceIndex): Record<string, unknown> {
  const properties = shallow(schema, index)?.properties;
  return properties && typeof properties === 'object' ? (properties as Record<string, unknown>) : {};
}

/** How much of each parameter's or body field's description is read: its first sentence or so. */
const FIELD_TEXT_CHARS = 200;

/** The descriptions of an operation's parameters and top-level body fields ("The ID of the workflow. You can also pass the workflow file name"). */
function fieldTextsOf(op: OperationSpec, index: ServiceIndex): string[] {
  const texts = [...op.parameters.map((p) => p.description), ...Object.values(propertiesOf(op.body?.schema, index)).map((p) => shallow(p as JsonSchema, index)?.description)];
  return texts.filter((t): t is string => typeof t === 'string' && t.length > 0).map((t) => t.slice(0, FIELD_TEXT_CHARS));
}

/** At most this many response field names per operation: a large answer's names would match every query. */
const RESPONSE_NAMES = 60;

/**
 * Top-level field names of an operation's success answers (an array's items', allOf/oneOf/anyOf
 * members'): words a question about the answer uses ("is she online or away?" and a presence
 * answer's `online`, `presence`).
 */
function responseNamesOf(op: OperationSpec, index: ServiceIndex): string[] {
  const names = new Set<string>();
  let visits = 0;
  const walk = (schema: unknown) => {
    const node = shallow(schema as JsonSchema, index);
    if (!node || names.size >= RESPONSE_NAMES || ++visits > 200) return;
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) if (Array.isArray(node[key])) for (const member of node[key] as unknown[]) walk(member);
    if (node.items) walk(node.items);
    const properties = node.properties;
    if (!properties || typeof properties !== 'object') return;
    // Links and identifiers name other resources, not what this answer tells.
    for (const name of Object.keys(properties)) if (names.size < RESPONSE_NAMES && !/(^|_)(url|uri|href|link|id|ids)$/i.test(name) && !/[a-z](Url|Uri|Href|Link|Id|Ids)$/.test(name)) names.add(name);
  };
  for (const [status, schema] of Object.entries(op.responses)) if (status.startsWith('2') && schema) walk(schema);
  return [...names];
}

/** The string values a parameter's schema enumerates (its items' for an array), at most 20. */
function enumOf(schema: JsonSchema, index: ServiceIndex): string[] {
  const node = shallow(schema, index);
  const values = node?.enum ?? shallow(node?.items as JsonSchema | undefined, index)?.enum;
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string').slice(0, 20) : [];
}

/** Entries already built, by operation: a catalogue version's operations never change once loaded. */
let physicalEntries = new WeakMap<OperationSpec, DocEntry>();

/** Forgets every entry built (benchmarks measure a build as a new process makes it). */
export function forgetEntries(): void {
  physicalEntries = new WeakMap();
}

/** A physical operation as a search entry, built once per loaded operation (every index holding it shares it). */
export function physicalEntry(op: OperationSpec, index: ServiceIndex): DocEntry {
  let entry = physicalEntries.get(op);
  if (!entry) physicalEntries.set(op, (entry = buildPhysicalEntry(op, index)));
  return entry;
}

function buildPhysicalEntry(op: OperationSpec, index: ServiceIndex): DocEntry {
  const names = [
    ...(op.parameters.length ? ['parameters'] : []),
    ...(op.body ? ['request'] : []),
    ...Object.entries(op.responses)
      .filter(([, schema]) => schema !== null)
      .map(([status]) => `response:${status}`),
  ];
  /** A section's shape, with each of its schemas passed through `schema`. */
  const shape = (name: string, schema: (s: JsonSchema) => unknown): unknown => {
    if (name === 'parameters') {
      return Object.fromEntries(
        op.parameters.map((p) => [
          inputKey(p),
          { ...(p.key ? { name: p.name } : {}), in: p.in, required: p.required, ...(p.description ? { description: p.description } : {}), schema: schema(p.schema), ...(p.slashPreserving ? { slashPreserving: true } : {}) },
        ]),
      );
    }
    if (name === 'request') return { contentType: op.body!.contentType, required: op.body!.required, inputKey: 'body', schema: schema(op.body!.schema) };
    return schema(op.responses[name.slice('response:'.length)]!);
  };
  const build = (name: string) => shape(name, (s) => dereference(s, index));
  const key = (name: string) => `${index.service}@${index.version}/${op.id}/${name}`;
  /**
   * A subtree of a section too large to build. The pointer is walked over the section's catalog
   * form, following a $ref wherever the walk stands on one, so it reads as it would in the
   * dereferenced section; only the subtree it reaches is dereferenced.
   */
  const subtree = (name: string, tokens: readonly string[]): unknown => {
    const stack: string[] = [];
    let node = followRef(shape(name, (s) => s), index, stack);
    for (const token of tokens) {
      node = getAt(node, [token], true);
      if (node === undefined) return undefined;
      node = followRef(node, index, stack);
    }
    // The empty path is the whole section, which has already failed to build.
    if (!tokens.length) return new TooLarge(childrenOf(node));
    const value = cached(`${key(name)}#${formatPointer(tokens)}`, () => dereference(node, index, stack));
    return value === TOO_LARGE ? new TooLarge(childrenOf(node)) : value;
  };
  return {
    operationId: op.id,
    kind: 'physical',
    service: op.service,
    summary: op.summary,
    description: op.description,
    method: op.method,
    path: op.path,
    tags: op.tags,
    fieldNames: [
      ...op.parameters.map((p) => p.name),
      ...Object.keys(propertiesOf(op.body?.schema, index)),
      ...op.parameters.flatMap((p) => enumOf(p.schema, index)),
      ...Object.values(propertiesOf(op.body?.schema, index)).flatMap((p) => enumOf(p as JsonSchema, index)),
    ],
    responseNames: responseNamesOf(op, index),
    fieldTexts: fieldTextsOf(op, index),
    changesData: !['GET', 'HEAD', 'OPTIONS'].includes(op.method.toUpperCase()),
    ...operationHints(index, op),
    returnsList: op.pagination !== null || Object.entries(op.responses).some(([status, schema]) => status.startsWith('2') && shallow(schema, index)?.type === 'array'),
    deprecated: op.deprecated,
    pagination: op.pagination,
    required: [...op.parameters.filter((p) => p.required).map(inputKey), ...(op.body?.required ? ['body'] : [])],
    sectionNames: names,
    section: (name, tokens = []) => {
      if (!names.includes(name)) return undefined;
      const whole = cached(key(name), () => build(name));
      return whole === TOO_LARGE ? subtree(name, tokens) : getAt(whole, tokens, true);
    },
  };
}

/**
 * A Unified operation's hints: its steps' together, of those that run at this version (a step on a
 * service the version does not pin is never called here); none that run: neither read-only nor destructive.
 */
function unifiedHints(def: UnifiedDefinition, hints: (operation: string) => SafetyHints | undefined): SafetyHints {
  const known = Object.values(def.steps).flatMap((step) => hints(step.operation) ?? []);
  return known.length ? combinedHints(known) : { readOnly: false, destructive: false };
}

/** A Unified operation as a search entry: sections input, targets and output. */
export function unifiedEntry(def: UnifiedDefinition, pagination: (operation: string) => OperationSpec['pagination'], hints: (operation: string) => SafetyHints | undefined): DocEntry {
  // A step whose operation is not known here counts as neither read-only nor destructive.
  const stepHints = (operation: string) => hints(operation) ?? { readOnly: false, destructive: false };
  const targets = Object.fromEntries(
    Object.entries(def.steps).map(([name, step]) => {
      const policy = pagination(step.operation);
      const { readOnly, destructive } = stepHints(step.operation);
      return [
        name,
        {
          operation: step.operation,
          dependsOn: step.dependsOn,
          read_only: readOnly,
          destructive,
          pagination: policy ? { supported: true, caller_bound_supported: policy.callerBound, engine_max_pages: policy.engineMaxPages } : { supported: false },
        },
      ];
    }),
  );
  const sections: Record<string, unknown> = { input: def.input, targets, output: def.output };
  return {
    operationId: def.name,
    kind: 'unified',
    service: 'unified',
    summary: def.summary,
    description: def.description,
    tags: [def.name.split('.')[1]!],
    fieldNames: Object.keys((def.input as { properties?: object }).properties ?? {}),
    returnsList: false,
    changesData: !/\.(list|get)(_|$)/.test(def.name),
    ...unifiedHints(def, hints),
    pagination: null,
    required: ['input', 'targets'],
    services: servicesOf(def),
    sectionNames: Object.keys(sections),
    section: (name, tokens = []) => getAt(sections[name], tokens, true),
  };
}
