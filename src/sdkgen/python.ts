// The Python package: a wheel and an sdist with the same shape as the TypeScript package
// (`Client(grpc_url=..., token=...)`, `client.Github.issues.create({...})`), TypedDicts generated
// from the operation schemas, and the gRPC stubs generated from spec/engine.proto.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { JsonSchema } from '../catalog/index.ts';
import type { ArchiveFile } from './archive.ts';
import { Names, pascal, refIntersection, refTarget, shapesType, type SdkModel, type SdkOperation, type SdkService } from './model.ts';
import { pyDoc, pyStr, staticFile, type Render } from './templates.ts';

const root = resolve(import.meta.dirname, '../..');
const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);
const isAttribute = (key: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) && !PY_KEYWORDS.has(key) && !key.startsWith('__');

type Schema = Record<string, unknown>;

const literal = (v: unknown): string | undefined =>
  v === null ? 'None' : v === true ? 'True' : v === false ? 'False' : typeof v === 'string' ? pyStr(v) : typeof v === 'number' && Number.isInteger(v) ? String(v) : undefined;

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes('_t.Any')) return '_t.Any';
  const rest = unique.filter((p) => p !== 'None');
  const nullable = rest.length < unique.length;
  if (!rest.length) return 'None';
  const inner = rest.length === 1 ? rest[0]! : `_t.Union[${rest.join(', ')}]`;
  return nullable ? `_t.Optional[${inner}]` : inner;
}

/** Python type expressions and TypedDicts of one service's schemas. */
class PyTypes {
  /** TypedDict definitions, dependencies before dependants. */
  readonly classes: string[] = [];
  /** Type aliases, written after every class, each with its description. */
  readonly aliases: { name: string; expr: string; bareRef?: string; doc?: unknown }[] = [];
  private readonly names = new Names();
  private readonly service: SdkService;

  constructor(service: SdkService) {
    this.service = service;
    for (const c of service.components) this.names.claim(c.name);
    for (const op of service.operations) [op.inputType, op.outputType].forEach((n) => this.names.claim(n));
  }

  /** The schema a `$ref` names, when it names a type with a schema. */
  private component(ref: string): Schema | undefined {
    const target = refTarget(this.service, ref);
    return !('problem' in target) && target.schema && typeof target.schema === 'object' ? (target.schema as Schema) : undefined;
  }

  /** Object-shaped schema (inline or through refs and allOf) → its properties and required keys; undefined when not an object. */
  private objectShape(schema: unknown, depth = 0): { properties: Record<string, unknown>; required: Set<string> } | undefined {
    if (!schema || typeof schema !== 'object' || depth > 10) return undefined;
    const s = (refIntersection(schema) ?? schema) as Schema;
    if (typeof s.$ref === 'string') return this.objectShape(this.component(s.$ref), depth + 1);
    if (Array.isArray(s.allOf)) {
      const merged = { properties: {} as Record<string, unknown>, required: new Set<string>() };
      for (const part of s.allOf) {
        // A part that does not shape the type (`{ maxLength: 3 }`) leaves the shape as it is; one with only `required` makes keys required.
        if (!shapesType(part)) continue;
        const only = part as Schema;
        if (Object.keys(only).every((k) => k === 'required' || k === 'type') && Array.isArray(only.required) && (only.type === undefined || only.type === 'object')) {
          only.required.forEach((r) => merged.required.add(String(r)));
          continue;
        }
        const shape = this.objectShape(part, depth + 1);
        if (!shape) return undefined;
        Object.assign(merged.properties, shape.properties);
        shape.required.forEach((r) => merged.required.add(r));
      }
      Object.assign(merged.properties, (s.properties as Record<string, unknown>) ?? {});
      for (const r of Array.isArray(s.required) ? s.required : []) merged.required.add(String(r));
      return merged;
    }
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (s.properties && typeof s.properties === 'object' && (types.includes('object') || s.type === undefined)) {
      return { properties: s.properties as Record<string, unknown>, required: new Set(Array.isArray(s.required) ? s.required.map(String) : []) };
    }
    return undefined;
  }

  /** A type expression for `schema`; nested objects become TypedDicts named after `hint`. */
  expr(schema: unknown, hint: string): string {
    if (schema === undefined || schema === true || schema === false || !schema || typeof schema !== 'object') return '_t.Any';
    const joined = refIntersection(schema);
    if (joined) return this.expr(joined, hint);
    const s = schema as Schema;
    if (typeof s.$ref === 'string') {
      // A reference that names no type is _t.Any; the module's header says which and why (refProblems).
      const target = refTarget(this.service, s.$ref);
      return 'problem' in target ? '_t.Any' : pyStr(target.name);
    }
    if (s.const !== undefined) return literal(s.const) ? `_t.Literal[${literal(s.const)}]` : '_t.Any';
    if (Array.isArray(s.enum)) {
      const values = s.enum.map(literal);
      return values.every((v) => v !== undefined) && values.length ? `_t.Literal[${[...new Set(values)].join(', ')}]` : '_t.Any';
    }
    for (const k of ['oneOf', 'anyOf'] as const) {
      if (Array.isArray(s[k])) return union((s[k] as unknown[]).map((sub, i) => this.expr(sub, `${hint}${i + 1}`)));
    }
    if (Array.isArray(s.allOf)) {
      // Parts that only narrow values (`{ maxLength: 3 }`) leave the type of the others.
      const typed = s.allOf.filter(shapesType);
      if (typed.length === 1 && !s.properties) return this.expr(typed[0], hint);
      const shape = this.objectShape(s);
      return shape ? this.typedDict(hint, shape, s.description) : '_t.Any';
    }
    if (Array.isArray(s.type)) return union(s.type.map((t) => this.expr({ ...s, type: t }, hint)));
    switch (s.type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `_t.List[${Array.isArray(s.items) ? '_t.Any' : this.expr(s.items, `${hint}Item`)}]`;
      case 'object':
      case undefined: {
        const shape = this.objectShape(s);
        if (shape && Object.keys(shape.properties).length) return this.typedDict(hint, shape, s.description);
        if (s.additionalProperties && typeof s.additionalProperties === 'object') return `_t.Dict[str, ${this.expr(s.additionalProperties, `${hint}Value`)}]`;
        return s.type === 'object' || shape ? '_t.Dict[str, _t.Any]' : '_t.Any';
      }
      default:
        return '_t.Any';
    }
  }

  /** Declares a TypedDict (class syntax when every key is an identifier) and returns its quoted name. */
  typedDict(wanted: string, shape: { properties: Record<string, unknown>; required: Set<string> }, description: unknown, claimed = false): string {
    const name = claimed ? wanted : this.names.claim(pascal(wanted));
    const keys = Object.keys(shape.properties);
    const fields = keys.map((k) => {
      const type = this.expr(shape.properties[k], `${name}${pascal(k)}`);
      return { key: k, type: shape.required.has(k) ? `_Required[${type}]` : type };
    });
    const doc = typeof description === 'string' && description.trim() ? pyDoc(description) : '';
    if (keys.every(isAttribute)) {
      const body = [...(doc ? [`    """${doc}"""`, ''] : []), ...fields.map((f) => `    ${f.key}: ${f.type}`)];
      this.classes.push(`class ${name}(_TypedDict, total=False):\n${body.length ? body.join('\n') : '    pass'}\n`);
    } else {
      this.classes.push(`${pyComment(description)}${name} = _TypedDict(\n    ${pyStr(name)},\n    {\n${fields.map((f) => `        ${pyStr(f.key)}: ${f.type},`).join('\n')}\n    },\n    total=False,\n)\n`);
    }
    return pyStr(name);
  }

  /** A named type: a TypedDict when the schema is an object, an alias otherwise. */
  declare(name: string, schema: unknown): void {
    const s = schema && typeof schema === 'object' ? ((refIntersection(schema) ?? schema) as Schema) : undefined;
    // A reference alone, or with keywords beside it that only narrow values: an alias of the type it names.
    const typed = Array.isArray(s?.allOf) && !s!.properties ? s!.allOf.filter(shapesType) : [];
    const only = typed.length === 1 ? (typed[0] as Schema) : undefined;
    const ref = typeof s?.$ref === 'string' ? s.$ref : typeof only?.$ref === 'string' && !refIntersection(only) ? only.$ref : undefined;
    const target = ref === undefined ? undefined : refTarget(this.service, ref);
    if (target && !('problem' in target)) {
      this.aliases.push({ name, expr: target.name, bareRef: target.name, doc: s!.description });
      return;
    }
    const types = Array.isArray(s?.type) ? (s!.type as unknown[]) : [s?.type];
    const shape = s && !s.anyOf && !s.oneOf && !s.enum && !types.includes('null') ? this.objectShape(s) : undefined;
    if (shape && (Object.keys(shape.properties).length || s!.additionalProperties === false)) {
      this.typedDict(name, shape, s!.description, true);
      return;
    }
    this.aliases.push({ name, expr: this.expr(schema, name), doc: s?.description });
  }

  /** Classes, then aliases; an alias that is a bare reference comes after the alias it names. */
  render(): string {
    const byName = new Map(this.aliases.map((a) => [a.name, a]));
    const state = new Map<string, 'visiting' | 'done'>();
    const lines: string[] = [];
    const visit = (a: (typeof this.aliases)[number]) => {
      if (state.get(a.name) === 'done') return;
      state.set(a.name, 'visiting');
      const target = a.bareRef ? byName.get(a.bareRef) : undefined;
      const cyclic = target !== undefined && state.get(target.name) === 'visiting';
      if (target && !cyclic) visit(target);
      lines.push(`${pyComment(a.doc)}${a.name} = ${cyclic ? '_t.Any' : a.expr}\n`);
      state.set(a.name, 'done');
    };
    this.aliases.forEach(visit);
    return [...this.classes, ...lines].join('\n\n');
  }
}

/** `# ` comment lines of a description (every line break Python knows starts a new comment line), or ''. */
function pyComment(description: unknown): string {
  const doc = typeof description === 'string' && description.trim() ? pyDoc(description) : '';
  return doc ? `${doc.split(/\r\n|\r|\n/).map((l) => `# ${l}`.trimEnd()).join('\n')}\n` : '';
}

export function serviceTypesPy(service: SdkService): string {
  const types = new PyTypes(service);
  for (const c of service.components) {
    if (c.problem) types.aliases.push({ name: c.name, expr: '_t.Any', doc: `Typed _t.Any: ${c.problem}` });
    else types.declare(c.name, c.schema);
  }
  for (const op of service.operations) {
    types.declare(op.inputType, op.inputSchema);
    types.declare(op.outputType, op.outputSchema === undefined ? true : op.outputSchema === null ? { type: 'null' } : (op.outputSchema as JsonSchema));
  }
  const problems = service.refProblems.map((p) => pyComment(`Typed _t.Any: ${p}`)).join('');
  return `${problems ? `${problems}\n\n` : ''}${types.render()}`;
}

interface PyClass {
  className: string;
  doc: string;
  children: { attr: string; className: string }[];
  methods: { name: string; op: SdkOperation; types: string }[];
}

/** One class per node of a service's grouped paths. */
function classes(service: SdkService): PyClass[] {
  const out: PyClass[] = [];
  // Distinct attributes can share a PascalCase spelling (v2_beta and v2beta): class names are claimed, never reused.
  const classNames = new Names();
  const visit = (ops: SdkOperation[], depth: number, className: string, doc: string) => {
    const cls: PyClass = { className, doc, children: [], methods: [] };
    out.push(cls);
    const names = [...new Set(ops.map((o) => o.pyGroup[depth]!))].sort();
    for (const name of names) {
      const here = ops.filter((o) => o.pyGroup[depth] === name);
      const leaf = here.find((o) => o.pyGroup.length === depth + 1);
      if (leaf) cls.methods.push({ name, op: leaf, types: `_types_${service.pyModule}` });
      else {
        const child = classNames.claim(`${className}_${pascal(name)}`);
        cls.children.push({ attr: name, className: child });
        visit(here, depth + 1, child, `${doc}.${name}`);
      }
    }
  };
  visit(service.operations, 0, `_${service.className}`, `client.${service.className}`);
  return out;
}

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('base64url');

export interface PythonPackages {
  wheel: ArchiveFile[];
  sdist: ArchiveFile[];
}

export function pythonPackage(model: SdkModel, templates: Record<string, Render>, readme: string): PythonPackages {
  const context = {
    ...model,
    summary: `Typed client of the svc-engine SDK ${model.name} ${model.version} (${model.operations.length} operations over gRPC).`,
    classes: model.services.flatMap(classes),
    readme,
  };
  const pkg = model.pyPackage;
  const sources: ArchiveFile[] = [
    { path: `${pkg}/__init__.py`, content: Buffer.from(templates['__init__.py']!(context)) },
    { path: `${pkg}/_client.py`, content: Buffer.from(templates['_client.py']!(context)) },
    { path: `${pkg}/_runtime.py`, content: staticFile('python', '_runtime.py') },
    { path: `${pkg}/engine_pb2.py`, content: readFileSync(resolve(root, 'generated/python/engine_pb2.py')) },
    { path: `${pkg}/engine_pb2_grpc.py`, content: readFileSync(resolve(root, 'generated/python/engine_pb2_grpc.py')) },
    { path: `${pkg}/py.typed`, content: Buffer.alloc(0) },
    { path: `${pkg}/types/__init__.py`, content: Buffer.from(templates['types_init.py']!(context)) },
    ...model.services.map((s) => ({
      path: `${pkg}/types/${s.pyModule}.py`,
      content: Buffer.from(templates['types.py']!({ ...context, service: s, body: serviceTypesPy(s) })),
    })),
  ];
  const metadata = Buffer.from(templates.METADATA!(context));
  const distInfo = `${pkg}-${model.version}.dist-info`;
  const wheelFiles: ArchiveFile[] = [
    ...sources,
    { path: `${distInfo}/METADATA`, content: metadata },
    { path: `${distInfo}/WHEEL`, content: Buffer.from('Wheel-Version: 1.0\nGenerator: svc-engine\nRoot-Is-Purelib: true\nTag: py3-none-any\n') },
    { path: `${distInfo}/top_level.txt`, content: Buffer.from(`${pkg}\n`) },
  ];
  const record = [...wheelFiles]
    .sort((a, b) => (a.path < b.path ? -1 : 1))
    .map((f) => `${f.path},sha256=${sha256(f.content)},${f.content.length}`)
    .concat(`${distInfo}/RECORD,,`)
    .join('\n');
  wheelFiles.push({ path: `${distInfo}/RECORD`, content: Buffer.from(`${record}\n`) });

  const sdistRoot = `${pkg}-${model.version}`;
  const sdist: ArchiveFile[] = [
    ...sources.map((f) => ({ path: `${sdistRoot}/${f.path}`, content: f.content })),
    { path: `${sdistRoot}/PKG-INFO`, content: metadata },
    { path: `${sdistRoot}/README.md`, content: Buffer.from(readme) },
    { path: `${sdistRoot}/pyproject.toml`, content: Buffer.from(templates['pyproject.toml']!(context)) },
  ];
  return { wheel: wheelFiles, sdist };
}
