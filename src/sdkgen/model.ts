// The SDK model: what every package and the README of one SDK version are rendered from. Built
// from the immutable version (its services and sorted operation IDs) and the operation index, so
// the same version always gives the same model.
import type { JsonSchema, OperationSpec, ServiceIndex } from '../catalog/index.ts';
import { ANNOTATIONS, RefWalk, resolveSchemaRef, siblingsOf } from '../catalog/refs.ts';
import { inputSchemaOf } from '../catalog/index.ts';
import type { AppVersionRow } from '../store/index.ts';
import { closureOf, type UnifiedDefinition } from '../unified/definitions.ts';

/** An operation as the packages show it: its index entry's identity and docs, plus names in both languages. */
export interface SdkOperation extends Pick<OperationSpec, 'id' | 'service' | 'providerOperationId' | 'method' | 'path' | 'summary' | 'description' | 'deprecated' | 'group'> {
  /** The same path in Python (snake_case, keywords suffixed with `_`). */
  pyGroup: string[];
  tsPath: string;
  pyPath: string;
  /** Type names within the service's type module. */
  inputType: string;
  outputType: string;
  inputSchema: Record<string, unknown>;
  /** The union of the 2xx response schemas; null when none declares a JSON body; undefined when unknown. */
  outputSchema: JsonSchema | null | undefined;
  /** Whether the input has required properties (the argument is optional otherwise). */
  inputRequired: boolean;
  /** A placeholder input with every required property, for docs. */
  example: Record<string, unknown>;
  pagination: { style: string; engineMaxPages: number; callerBound: boolean } | null;
  /** Unified operations: their binding steps, `step → physical operation`; null for physical ones. */
  unifiedSteps: string | null;
}

/** A name JavaScript accepts after a dot, and a declaration can use bare (`new` would declare a constructor). */
const TS_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const bareTsName = (name: string) => TS_IDENTIFIER.test(name) && name !== 'new';
/** A member name for a `.d.ts` declaration: quoted when it is not a bare identifier (`"getPet.v2"`, `"3ds"`). */
export const tsMemberName = (name: string): string => (bareTsName(name) ? name : JSON.stringify(name));
/** How code reaches a member: `.name`, or `["getPet.v2"]` when a dot cannot. */
export const tsAccess = (name: string): string => (TS_IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);

/** A type the packages declare for a place a `$ref` names: a component, or a place inside one. */
export interface SdkComponent {
  /** The place as a pointer below components.schemas (`/Pet`, `/Pet/properties/name`; src/catalog/refs.ts). */
  key: string;
  /** Its type name in both languages. */
  name: string;
  schema: JsonSchema;
  /** Why no type can be declared from it (a cycle that never reaches a schema): it is declared unknown, saying so. */
  problem?: string;
}

export interface SdkService {
  name: string;
  version: string;
  title: string;
  /** The client property: `Github`, `DemoCrm`. */
  className: string;
  /** The Python module of its types: `github`, `demo_crm`. */
  pyModule: string;
  oauth: boolean;
  apiKey: boolean;
  /** The provider's components.schemas, which every `$ref` points into. */
  schemas: Record<string, JsonSchema>;
  /** Every place the selected operations' `$ref`s reach, sorted by key, with its type name. */
  components: SdkComponent[];
  /** The same, by key. */
  types: ReadonlyMap<string, SdkComponent>;
  /** Each `$ref` the packages type as unknown (it names nothing, or closes a cycle), with why and where: the types modules say so. */
  refProblems: string[];
  operations: SdkOperation[];
}

export interface SdkModel {
  name: string;
  version: string;
  versionId: string;
  /** npm package name and tarball file name. */
  npmName: string;
  npmFile: string;
  /** Python distribution name, import package and file names. */
  pyDist: string;
  pyPackage: string;
  wheelFile: string;
  sdistFile: string;
  /** The README's name as a download (the packages carry it as README.md). */
  readmeFile: string;
  services: SdkService[];
  operations: SdkOperation[];
}

const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case type'.split(' '),
);

/** `simple-user` → `SimpleUser`, `addLabels` → `AddLabels`, `2fa` → `T2fa`. */
export function pascal(text: string): string {
  const out = text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')
    // As json-schema-to-typescript names the declarations: a letter after digits is upper-case (3ds → 3Ds).
    .replace(/[0-9]+[a-z]/g, (m) => m.toUpperCase());
  return /^[0-9]/.test(out) ? `T${out}` : out || 'T';
}

/** `addCustomLabelsToSelfHostedRunnerForOrg` → `add_custom_labels_to_self_hosted_runner_for_org`; `import` → `import_`. */
export function snake(text: string): string {
  const s = text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  const id = /^[0-9]/.test(s) ? `_${s}` : s || '_';
  return PY_KEYWORDS.has(id) ? `${id}_` : id;
}

/** Hands out unique names: the first holder of a name keeps it, later ones get 2, 3, … */
/** Type names for both languages: None, True and False would be Python syntax, not class names. */
const typeNamer = (): Names => {
  const names = new Names();
  for (const reserved of ['None', 'True', 'False']) names.claim(reserved);
  return names;
};

export class Names {
  private readonly taken = new Set<string>();
  claim(wanted: string): string {
    let name = wanted;
    for (let i = 2; this.taken.has(name); i++) name = `${wanted}${i}`;
    this.taken.add(name);
    return name;
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a `$ref` names for the packages: its type, or why it names none (then typed unknown). */
export function refTarget(service: Pick<SdkService, 'schemas' | 'types'>, ref: string): SdkComponent | { problem: string } {
  const found = resolveSchemaRef(ref, service.schemas);
  if (!found.ok) return { problem: found.problem };
  return service.types.get(found.key) ?? { problem: `$ref '${ref}' is not among the schemas the selected operations reach` };
}

/**
 * `{ $ref, …siblings }` as the packages read it when keywords other than annotations stand beside
 * the `$ref`: JSON Schema 2020-12 (OpenAPI 3.1) applies them together with the target, so it is
 * the intersection `allOf: [{ $ref }, constraints]`, the annotations kept beside it (the sibling
 * `description` documents the place, the target's type keeps its own). Undefined for any other schema.
 */
export function refIntersection(schema: unknown): Obj | undefined {
  if (!isObj(schema) || typeof schema.$ref !== 'string') return undefined;
  const siblings = siblingsOf(schema) ?? {};
  const constraints = Object.entries(siblings).filter(([k]) => !ANNOTATIONS.has(k) && !k.startsWith('x-') && k !== '$comment');
  if (!constraints.length) return undefined;
  const annotations = Object.entries(siblings).filter(([k]) => ANNOTATIONS.has(k));
  return { ...Object.fromEntries(annotations), allOf: [{ $ref: schema.$ref }, Object.fromEntries(constraints)] };
}

/** Keywords that shape a schema's static type; a schema with none of them (`{ maxLength: 3 }`) only narrows values, which the Engine checks. */
const TYPE_KEYWORDS = ['$ref', 'type', 'enum', 'const', 'properties', 'patternProperties', 'additionalProperties', 'items', 'prefixItems', 'required', 'allOf', 'anyOf', 'oneOf'];
export const shapesType = (schema: unknown): boolean => schema === false || (isObj(schema) && TYPE_KEYWORDS.some((k) => Object.hasOwn(schema, k)));

/**
 * The types a service's packages declare: one per place the operations' `$ref`s reach (a
 * component, or a place inside one, named after its pointer), and the references that name no
 * schema or close a cycle that never reaches one (said in the types modules, typed unknown).
 * Recursion through properties or items stays: a type refers to itself by name.
 */
function referencedTypes(roots: { schema: unknown; field: string }[], schemas: Record<string, JsonSchema>, names: Names): Pick<SdkService, 'components' | 'types' | 'refProblems'> {
  const walk = new RefWalk(schemas);
  const problems = new Set<string>();
  for (const { schema, field } of roots) for (const p of walk.add(schema, field)) problems.add(`${p.message} (at ${p.field})`);
  const keys = [...walk.targets.keys()].sort();
  const components = keys.map((key): SdkComponent => {
    const { tokens, target } = walk.targets.get(key)!;
    return {
      key,
      name: names.claim(pascal(tokens.join(' '))),
      schema: target as JsonSchema,
      ...(walk.cyclic.has(key) ? { problem: `its $refs form a cycle that never reaches a schema describing the value (see above)` } : {}),
    };
  });
  return { components, types: new Map(components.map((c) => [c.key, c])), refProblems: [...problems] };
}

function outputSchemaOf(op: OperationSpec): JsonSchema | null | undefined {
  const codes = Object.keys(op.responses)
    .filter((c) => /^2\d\d$/.test(c) || c === '2XX')
    .sort();
  if (!codes.length) return undefined;
  const schemas = codes.map((c) => op.responses[c] ?? null);
  const distinct = schemas.filter((s, i) => schemas.findIndex((o) => JSON.stringify(o) === JSON.stringify(s)) === i);
  if (distinct.every((s) => s === null)) return null;
  const bodies = distinct.filter((s): s is JsonSchema => s !== null);
  const nullable = distinct.length > bodies.length;
  if (bodies.length === 1 && !nullable) return bodies[0]!;
  return { anyOf: [...bodies, ...(nullable ? [{ type: 'null' }] : [])] };
}

/** `schema` with its `$ref`s followed, the keywords beside each standing in for the target's (close enough for a placeholder). */
function followRefs(schema: unknown, schemas: Record<string, JsonSchema>, depth = 0): Obj | undefined {
  if (!isObj(schema) || depth > 20) return undefined;
  if (typeof schema.$ref !== 'string') return schema;
  const found = resolveSchemaRef(schema.$ref, schemas);
  const target = found.ok ? followRefs(found.target, schemas, depth + 1) : undefined;
  return target || siblingsOf(schema) ? { ...target, ...siblingsOf(schema) } : undefined;
}

/** A placeholder value that has the schema's shape (for docs; not guaranteed to pass every pattern). */
export function exampleOf(schema: unknown, name: string, schemas: Record<string, JsonSchema>, depth = 0): unknown {
  const s = followRefs(schema, schemas);
  if (!s || depth > 6) return null;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length) {
      if (key === 'allOf') {
        const merged: Record<string, unknown> = {};
        for (const part of options) {
          const v = exampleOf(part, name, schemas, depth + 1);
          if (v && typeof v === 'object' && !Array.isArray(v)) Object.assign(merged, v);
        }
        return merged;
      }
      return exampleOf(options.find((o) => followRefs(o, schemas)?.type !== 'null') ?? options[0], name, schemas, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return s.format === 'date-time' ? '2026-01-01T00:00:00Z' : s.format === 'date' ? '2026-01-01' : s.format === 'uri' ? 'https://example.com' : `<${name}>`;
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      return min > 0 ? [exampleOf(s.items, name, schemas, depth + 1)] : [];
    }
    case 'object':
    case undefined: {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      if (type === undefined && !s.properties) return null;
      return Object.fromEntries(required.filter((k) => k in props).map((k) => [k, exampleOf(props[k], k, schemas, depth + 1)]));
    }
    default:
      return null;
  }
}

const SELECTORS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    endUserRef: { type: 'string', minLength: 1, maxLength: 200 },
    authType: { enum: ['api_key', 'oauth2'] },
    authName: { type: 'string', minLength: 1, maxLength: 64 },
    resourceId: { type: 'string', minLength: 1, maxLength: 200 },
  },
};

/** One step's report in a Unified result (src/unified StepReport). */
const STEP_REPORT_SCHEMA = {
  type: 'object',
  required: ['target', 'operation', 'status', 'httpStatus', 'providerDurationMs', 'dispatched'],
  properties: {
    target: { type: 'string' },
    operation: { type: 'string' },
    status: { enum: ['succeeded', 'failed', 'refused', 'skipped'] },
    httpStatus: { type: ['integer', 'null'] },
    providerDurationMs: { type: 'number' },
    dispatched: { type: 'boolean', description: 'Whether a provider request may have left the Engine for this step.' },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
  },
};

/**
 * The targets a version can run: those whose steps (and the steps they depend on) call services it
 * selects (docs/architecture.md, Unified operations); the Engine refuses the others when called.
 */
function runnableTargets(def: UnifiedDefinition, version: AppVersionRow): string[] {
  const services = new Set(version.services.map((pin) => pin.slice(0, pin.indexOf('='))));
  const serviceOf = (step: string) => def.steps[step]!.operation.slice(0, def.steps[step]!.operation.indexOf('.'));
  return Object.keys(def.steps).filter((target) => [...closureOf(def, target)].every((step) => services.has(serviceOf(step))));
}

/** A Unified call's parameters: `{ input, targets, selectors?, pagination?, idempotencyKey? }`, selectors and bounds keyed by target. */
function unifiedParamsSchema(def: UnifiedDefinition, steps: string[]): Record<string, unknown> {
  const byStep = (schema: unknown) => ({ type: 'object', additionalProperties: false, properties: Object.fromEntries(steps.map((s) => [s, schema])) });
  return {
    type: 'object',
    additionalProperties: false,
    required: ['input', 'targets'],
    properties: {
      input: def.input,
      targets: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: steps }, description: 'The binding steps to run, with every step they depend on; never defaults to all.' },
      selectors: { ...byStep(SELECTORS_SCHEMA), description: 'Non-secret routing per target.' },
      pagination: { ...byStep({ type: 'object', additionalProperties: false, required: ['maxPages'], properties: { maxPages: { type: 'integer', minimum: 1 } } }), description: 'A caller bound per target.' },
      idempotencyKey: { type: 'string', minLength: 1, maxLength: 200 },
    },
  };
}

/** The selected Unified operations as one more service on the client (`client.Unified.tasks.create`). */
function unifiedService(version: AppVersionRow, definitions: readonly UnifiedDefinition[], className: string, pyModule: string): SdkService | null {
  const selected = version.operations.filter((id) => id.startsWith('unified.'));
  if (!selected.length) return null;
  const typeNames = typeNamer();
  const operations = selected.map((id): SdkOperation => {
    const def = definitions.find((d) => d.name === id);
    if (!def) throw new Error(`Unified operation ${id} of ${version.name}@${version.version} is not defined`);
    const targets = runnableTargets(def, version);
    const group = id.split('.').slice(1);
    const pyGroup = group.map(snake);
    const base = pascal(group.join(' '));
    return {
      id,
      service: 'unified',
      providerOperationId: group.join('.'),
      method: 'Unified',
      path: '',
      summary: def.summary,
      description: def.description,
      deprecated: false,
      group,
      pyGroup,
      tsPath: `client.${className}.${group.join('.')}`,
      pyPath: `client.${className}.${pyGroup.join('.')}`,
      inputType: typeNames.claim(`${base}Input`),
      outputType: typeNames.claim(`${base}Output`),
      inputSchema: unifiedParamsSchema(def, targets),
      outputSchema: {
        type: 'object',
        required: ['output', 'steps'],
        properties: {
          output: def.output,
          steps: { type: 'array', items: STEP_REPORT_SCHEMA, description: 'What each target did, in the order of targets.' },
        },
      },
      inputRequired: true,
      example: { input: exampleOf(def.input, 'input', {}), targets },
      pagination: null,
      unifiedSteps: targets.map((step) => `${step} → ${def.steps[step]!.operation}`).join(', '),
    };
  });
  return { name: 'unified', version: '', title: 'Unified operations', className, pyModule, oauth: false, apiKey: false, schemas: {}, components: [], types: new Map(), refProblems: [], operations };
}

export function buildModel(
  version: AppVersionRow,
  indexOf: (service: string, version: string) => ServiceIndex,
  unifiedDefinitions: readonly UnifiedDefinition[] = [],
): SdkModel {
  const services: SdkService[] = [];
  const clientNames = new Names();
  const pyModules = new Names();
  for (const pair of version.services) {
    const [service = '', serviceVersion = ''] = pair.split('=');
    const index = indexOf(service, serviceVersion);
    const className = clientNames.claim(pascal(service));
    const typeNames = typeNamer();
    const pyNamers = new Map<string, Names>();
    const pyChosen = new Map<string, string>();
    const operations: SdkOperation[] = [];
    const ops = version.operations
      .filter((id) => id.startsWith(`${service}.`))
      .map((id) => {
        const op = index.operations.find((o) => o.id === id);
        if (!op) throw new Error(`operation ${id} of ${version.name}@${version.version} is not in ${service}@${serviceVersion}`);
        return op;
      })
      .sort((a, b) => (a.group.join('.') < b.group.join('.') ? -1 : 1));
    for (const op of ops) {
      // Python names are unique per parent node: two camelCase names that snake to the same word keep apart.
      const pyGroup = op.group.map((segment, i) => {
        const parent = op.group.slice(0, i).join('.');
        const key = `${parent}.${segment}`;
        let name = pyChosen.get(key);
        if (name === undefined) {
          let namer = pyNamers.get(parent);
          if (!namer) pyNamers.set(parent, (namer = new Names()));
          pyChosen.set(key, (name = namer.claim(snake(segment))));
        }
        return name;
      });
      const base = pascal(op.group.join(' '));
      const inputSchema = inputSchemaOf(op);
      const required = inputSchema.required as string[];
      const example = Object.fromEntries(
        required.map((k) => [k, exampleOf((inputSchema.properties as Record<string, unknown>)[k], k, index.schemas)]),
      );
      operations.push({
        id: op.id,
        service,
        providerOperationId: op.providerOperationId,
        method: op.method,
        path: op.path,
        summary: op.summary || op.providerOperationId,
        description: op.description,
        deprecated: op.deprecated,
        group: op.group,
        pyGroup,
        tsPath: `client.${className}${op.group.map(tsAccess).join('')}`,
        pyPath: `client.${className}.${pyGroup.join('.')}`,
        inputType: typeNames.claim(`${base}Input`),
        outputType: typeNames.claim(`${base}Output`),
        inputSchema,
        outputSchema: outputSchemaOf(op),
        inputRequired: required.length > 0,
        example,
        pagination: op.pagination ? { style: op.pagination.style, engineMaxPages: op.pagination.engineMaxPages, callerBound: op.pagination.callerBound } : null,
        unifiedSteps: null,
      });
    }
    const roots = operations.flatMap((o) => [
      { schema: o.inputSchema, field: `input of ${o.id}` },
      { schema: o.outputSchema, field: `output of ${o.id}` },
    ]);
    services.push({
      name: service,
      version: serviceVersion,
      title: index.title,
      className,
      pyModule: pyModules.claim(snake(service)),
      oauth: index.auth.some((a) => a.type === 'oauth2'),
      apiKey: index.auth.some((a) => a.type === 'api_key' || a.type === 'http_basic'),
      schemas: index.schemas,
      ...referencedTypes(roots, index.schemas, typeNames),
      operations,
    });
  }
  const unified = unifiedService(version, unifiedDefinitions, clientNames.claim('Unified'), pyModules.claim('unified'));
  if (unified) services.push(unified);
  const pyDist = `svc-sdk-${version.name}`;
  const pyPackage = pyDist.replace(/-/g, '_');
  return {
    name: version.name,
    version: version.version,
    versionId: version.versionId,
    npmName: `@svc-sdk/${version.name}`,
    npmFile: `svc-sdk-${version.name}-${version.version}.tgz`,
    pyDist,
    pyPackage,
    wheelFile: `${pyPackage}-${version.version}-py3-none-any.whl`,
    sdistFile: `${pyPackage}-${version.version}.tar.gz`,
    readmeFile: `svc-sdk-${version.name}-${version.version}-README.md`,
    services,
    operations: services.flatMap((s) => s.operations),
  };
}
