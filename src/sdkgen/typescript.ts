// The TypeScript package: an npm tarball with an ESM client (`new Client({ grpcUrl, token })`,
// `client.Github.issues.create(input)`), `.d.ts` types generated from the operation schemas by
// json-schema-to-typescript, and the gRPC stubs generated from spec/engine.proto.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { JSONSchema } from 'json-schema-to-typescript';
import type { JsonSchema } from '../catalog/index.ts';
import type { ArchiveFile } from './archive.ts';
import { refIntersection, refTarget, shapesType, tsMemberName, type SdkModel, type SdkOperation, type SdkService } from './model.ts';
import { comment, staticFile, type Render } from './templates.ts';

const root = resolve(import.meta.dirname, '../..');
const grpcStubs = () => readFileSync(resolve(root, 'generated/grpc/engine.js'));

/** The package's runtime dependencies: the versions this Engine itself runs with. */
function runtimeDependencies(): Record<string, string> {
  const own = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return { '@bufbuild/protobuf': own.dependencies['@bufbuild/protobuf']!, '@grpc/grpc-js': own.dependencies['@grpc/grpc-js']! };
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_ONE = new Set(['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems', 'unevaluatedProperties']);
/**
 * The keywords passed on; everything else (titles and IDs that would make json-schema-to-typescript
 * name or fetch things on its own, examples, vendor extensions that may hold `$ref`s) is dropped.
 */
const KEPT = new Set([
  'type', 'required', 'enum', 'const', 'description', 'deprecated', 'default', 'format',
  'minItems', 'maxItems', 'readOnly', 'writeOnly',
  ...SCHEMA_MAPS, ...SCHEMA_LISTS, ...SCHEMA_ONE,
]);

type Types = Pick<SdkService, 'schemas' | 'types'>;

/**
 * Rewrites a schema for json-schema-to-typescript: a `$ref` becomes the type of what it names (or
 * `unknown`, documented with why), documented by a `description` beside it; keywords beside it
 * that shape a type make an intersection with that type (refIntersection).
 */
function forCompiler(schema: unknown, types: Types): JSONSchema {
  if (schema === true || schema === undefined) return {};
  if (schema === false) return { tsType: 'never' };
  if (!schema || typeof schema !== 'object') return {};
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    // Keywords beside it that only narrow values (`maxLength`) leave its type as it is.
    const joined = refIntersection(s);
    if (joined && shapesType((joined.allOf as unknown[])[1])) return forCompiler(joined, types);
    const target = refTarget(types, s.$ref);
    const doc = [s.description, 'problem' in target ? `Typed unknown: ${target.problem}` : undefined].filter((d) => typeof d === 'string' && d);
    return { tsType: 'problem' in target ? 'unknown' : target.name, ...(doc.length ? { description: doc.join('\n\n') } : {}), ...(s.deprecated === true ? { deprecated: true } : {}) };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (!KEPT.has(k)) continue;
    if (SCHEMA_MAPS.has(k) && v && typeof v === 'object') out[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, forCompiler(sub, types)]));
    else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) out[k] = v.map((sub) => forCompiler(sub, types));
    else if (SCHEMA_ONE.has(k)) out[k] = Array.isArray(v) ? v.map((sub) => forCompiler(sub, types)) : typeof v === 'boolean' && k === 'additionalProperties' ? v : forCompiler(v, types);
    else out[k] = v;
  }
  return out as JSONSchema;
}

const COMPILE_OPTIONS = {
  bannerComment: '',
  format: false,
  declareExternallyReferenced: false,
  unknownAny: true,
  strictIndexSignatures: false,
  additionalProperties: true,
  $refOptions: {},
} as const;

/** Indents json-schema-to-typescript's unformatted output by brace depth (prettier would cost more than the whole build). */
function indent(code: string): string {
  let depth = 0;
  return code
    .split('\n')
    .map((line) => {
      const t = line.trim();
      if (t.startsWith('/**') || t.startsWith('*')) return t ? `${'  '.repeat(depth)}${t.startsWith('*') ? ' ' : ''}${t}` : t;
      const bare = t.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '');
      const closesFirst = bare.startsWith('}') ? 1 : 0;
      depth = Math.max(0, depth - closesFirst);
      const out = t ? `${'  '.repeat(depth)}${t}` : t;
      depth = Math.max(0, depth + closesFirst + (bare.match(/\{/g)?.length ?? 0) - (bare.match(/\}/g)?.length ?? 0));
      return out;
    })
    .join('\n');
}

/** Loaded on the first build: importing it costs about half a second, which Engine start-up should not pay. */
let compiler: Promise<typeof import('json-schema-to-typescript')> | undefined;

/** Declares `name` from a schema already rewritten by forCompiler. */
async function declare(name: string, prepared: JSONSchema, description?: string): Promise<string> {
  const { compile } = await (compiler ??= import('json-schema-to-typescript'));
  if (description && typeof prepared === 'object' && !prepared.description) prepared.description = description;
  return indent((await compile(prepared, name, COMPILE_OPTIONS)).trim());
}

/** `types/<service>.d.ts`: every reachable component, then each operation's input and output. */
export async function serviceTypes(service: SdkService): Promise<string> {
  const blocks: Promise<string>[] = [];
  for (const c of service.components) blocks.push(c.problem ? declare(c.name, { tsType: 'unknown' }, `Typed unknown: ${c.problem}`) : declare(c.name, forCompiler(c.schema, service)));
  for (const op of service.operations) {
    blocks.push(declare(op.inputType, forCompiler(op.inputSchema, service), `Input of \`${op.id}\`: parameters by name, the request body under \`body\`.`));
    // Declared directly, not through forCompiler: it drops `tsType`, which a provider's schema must never set.
    const output: JSONSchema = op.outputSchema === undefined ? { tsType: 'unknown' } : op.outputSchema === null ? { tsType: 'null' } : forCompiler(op.outputSchema, service);
    blocks.push(declare(op.outputType, output, `\`data\` of a successful \`${op.id}\` call.`));
  }
  const problems = service.refProblems.map((p) => `// Typed unknown: ${comment(p)}\n`).join('');
  const header = `// Types of ${comment(service.title)} (${service.name} ${service.version}) used by the selected operations, from the provider's schemas.\n// Generated by svc-engine; do not edit.\n${problems}`;
  return `${header}\n${(await Promise.all(blocks)).join('\n\n')}\n`;
}

interface TreeNode {
  name: string;
  pad: string;
  closePad: string;
  op?: SdkOperation;
  children?: TreeNode[];
}

/** The grouped paths of a service as a tree (children sorted by name), for the `.d.ts` template. */
function tree(operations: SdkOperation[], depth = 1, prefix: string[] = []): TreeNode {
  const pad = '  '.repeat(depth);
  const names = [...new Set(operations.map((o) => o.group[prefix.length]!))].sort();
  return {
    name: prefix.at(-1) ?? '',
    pad: '  '.repeat(Math.max(0, depth - 1)),
    closePad: '  '.repeat(depth - 1),
    children: names.map((name) => {
      const here = operations.filter((o) => o.group[prefix.length] === name);
      const leaf = here.find((o) => o.group.length === prefix.length + 1);
      if (leaf) return { name: tsMemberName(name), pad, closePad: pad, op: leaf };
      return { ...tree(here, depth + 1, [...prefix, name]), name: tsMemberName(name), pad };
    }),
  };
}

/** `{ issues: { create: 'github.issues/create' } }` */
function table(operations: SdkOperation[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const op of [...operations].sort((a, b) => (a.group.join('.') < b.group.join('.') ? -1 : 1))) {
    let node = out;
    for (const segment of op.group.slice(0, -1)) node = (node[segment] ??= {}) as Record<string, unknown>;
    node[op.group.at(-1)!] = op.id;
  }
  return out;
}

export async function typescriptPackage(model: SdkModel, templates: Record<string, Render>, readme: string): Promise<ArchiveFile[]> {
  const context = {
    ...model,
    description: `Typed client of the svc-engine SDK ${model.name} ${model.version} (${model.operations.length} operations over gRPC).`,
    dependencies: runtimeDependencies(),
    tables: Object.fromEntries(model.services.map((s) => [s.className, table(s.operations)])),
    services: model.services.map((s) => ({ ...s, tree: tree(s.operations) })),
  };
  const files: ArchiveFile[] = [
    { path: 'package.json', content: Buffer.from(templates['package.json']!(context)) },
    { path: 'README.md', content: Buffer.from(readme) },
    { path: 'index.js', content: Buffer.from(templates['index.js']!(context)) },
    { path: 'index.d.ts', content: Buffer.from(templates['index.d.ts']!(context)) },
    { path: 'runtime.js', content: staticFile('typescript', 'runtime.js') },
    { path: 'runtime.d.ts', content: staticFile('typescript', 'runtime.d.ts') },
    { path: 'engine.js', content: grpcStubs() },
  ];
  const types = await Promise.all(model.services.map(async (s) => ({ path: `types/${s.name}.d.ts`, content: Buffer.from(await serviceTypes(s)) })));
  return [...files, ...types].map((f) => ({ path: `package/${f.path}`, content: f.content }));
}
