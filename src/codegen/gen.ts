// `npm run gen` writes generated/ from spec/; `npm run gen:check` regenerates into a temporary
// folder and fails when generated/ differs. Nothing under generated/ is edited by hand.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { parse as parseYaml } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import { transform } from 'esbuild';
import { checkRefs } from '../catalog/check.ts';
import { normalizeService } from '../catalog/normalize.ts';
import { parsePolicy } from '../catalog/policy.ts';
import type { SourceLocations } from '../catalog/problems.ts';
import { validateDefinition } from '../unified/definitions.ts';
import { getAt, parseFragmentPointer } from '../json-pointer/index.ts';
import { pythonModules } from './python-grpc.ts';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const HEADER = '// Written by `npm run gen` from spec/. Do not edit: change the spec and regenerate.\n';

type Obj = Record<string, any>;

/** The parameter a `$ref` of spec/engine.openapi.yaml names (`#/components/parameters/…`, read as RFC 6901). */
function ownParameter(spec: Obj, ref: string, operationId: string): Obj {
  const target = ref.startsWith('#') ? getAt(spec, parseFragmentPointer(ref.slice(1)), true) : undefined;
  if (target === null || typeof target !== 'object') throw new Error(`spec/engine.openapi.yaml: ${operationId} refers to parameter ${ref}, which does not resolve`);
  return target as Obj;
}

function write(outDir: string, file: string, content: string) {
  const target = join(outDir, file);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
}

/** Rewrites document-local $refs so that schemas extracted from the spec resolve against `engine.json`. */
function anchorRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(anchorRefs);
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `engine.json${v}` : anchorRefs(v)]),
    );
  }
  return node;
}

/** The schema with every `additionalProperties: false` dropped: fields added later pass, required ones are still checked. */
function open(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(open);
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).flatMap(([k, v]) => (k === 'additionalProperties' && v === false ? [] : [[k, open(v)]])));
  }
  return node;
}

const koaPath = (p: string) => p.replace(/\{([^}]+)\}/g, ':$1');

async function generateEngineApi(outDir: string) {
  const specText = readFileSync(join(root, 'spec/engine.openapi.yaml'), 'utf8');
  const spec = parseYaml(specText) as Obj;

  const ast = await openapiTS(spec as never, { alphabetize: true });
  write(outDir, 'engine-api/types.ts', HEADER + '/* eslint-disable */\n' + astToString(ast));

  const makeAjv = (coerce: boolean, schemas = spec.components.schemas) => {
    const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: coerce, code: { source: true, esm: true, lines: true } });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'engine.json', components: anchorRefs({ schemas }) });
    return ajv;
  };
  const bodyAjv = makeAjv(false);
  const paramAjv = makeAjv(true);
  // What a client checks an answer against: svc-cli tells another server, or an Engine too different
  // to understand, from an Engine by it. Open to fields a newer Engine adds.
  const responseAjv = makeAjv(false, open(spec.components.schemas));
  const bodyExports: Record<string, string> = {};
  const paramExports: Record<string, string> = {};
  const responseExports: Record<string, string> = {};
  const routes: Obj[] = [];
  const globalSecurity = spec.security?.[0] ? Object.keys(spec.security[0])[0] : null;

  for (const [path, item] of Object.entries<Obj>(spec.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
      const op = item[method];
      if (!op) continue;
      const id: string = op.operationId;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Obj) => (p.$ref ? ownParameter(spec, p.$ref, id) : p));
      let paramValidator: string | null = null;
      if (params.length) {
        const schema = {
          $id: `params-${id}`,
          type: 'object',
          additionalProperties: false,
          required: params.filter((p) => p.required).map((p) => p.name),
          properties: Object.fromEntries(params.map((p) => [p.name, anchorRefs(p.schema)])),
        };
        paramAjv.addSchema(schema);
        paramExports[id] = schema.$id;
        paramValidator = id;
      }
      let bodyValidator: string | null = null;
      const bodyType = op.requestBody?.content?.['application/x-www-form-urlencoded'] ? 'form' : 'json';
      const bodySchema = op.requestBody?.content?.[bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json']?.schema;
      if (bodySchema) {
        const schema = { $id: `body-${id}`, ...(anchorRefs(bodySchema) as Obj) };
        bodyAjv.addSchema(schema);
        bodyExports[id] = schema.$id;
        bodyValidator = id;
      }
      const success = Object.keys(op.responses).find((s) => /^2\d\d$/.test(s)) ?? '200';
      const responseSchema = op.responses[success]?.content?.['application/json']?.schema;
      if (responseSchema) {
        const schema = { $id: `response-${id}`, ...(open(anchorRefs(responseSchema)) as Obj) };
        responseAjv.addSchema(schema);
        responseExports[id] = schema.$id;
      }
      const security = op.security ? (op.security[0] ? Object.keys(op.security[0])[0] : null) : globalSecurity;
      routes.push({
        operationId: id,
        method: method.toUpperCase(),
        path,
        koaPath: koaPath(path),
        security,
        params: params.map((p) => ({ name: p.name, in: p.in })),
        paramValidator,
        bodyValidator,
        bodyRequired: op.requestBody?.required === true,
        bodyType,
        maxBodyBytes: typeof op['x-max-body-bytes'] === 'number' ? op['x-max-body-bytes'] : null,
        raw: op['x-raw'] === true,
        secretBody: op['x-secret-body'] === true,
        successStatus: Number(success),
      });
    }
  }
  // ajv's standalone output still calls require() for its runtime helpers, even in ESM mode.
  const esmPrelude = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n";
  const validatorsDts = (names: string[]) =>
    HEADER +
    "import type { ValidateFunction } from 'ajv';\n" +
    names.map((n) => `export declare const ${n}: ValidateFunction;`).join('\n') +
    '\n';
  write(outDir, 'engine-api/body-validators.js', HEADER + esmPrelude + standaloneCode.default(bodyAjv, bodyExports));
  write(outDir, 'engine-api/body-validators.d.ts', validatorsDts(Object.keys(bodyExports)));
  write(outDir, 'engine-api/param-validators.js', HEADER + esmPrelude + standaloneCode.default(paramAjv, paramExports));
  write(outDir, 'engine-api/param-validators.d.ts', validatorsDts(Object.keys(paramExports)));
  write(outDir, 'engine-api/response-validators.js', HEADER + esmPrelude + standaloneCode.default(responseAjv, responseExports));
  write(outDir, 'engine-api/response-validators.d.ts', validatorsDts(Object.keys(responseExports)));

  routes.sort((a, b) => (a.operationId < b.operationId ? -1 : 1));
  write(
    outDir,
    'engine-api/routes.ts',
    HEADER +
      `export interface RouteSpec {
  operationId: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
  path: string;
  koaPath: string;
  security: 'cliCredential' | 'executionToken' | 'mcpToken' | null;
  /** The handler takes the raw request and response (x-raw): the MCP transport. */
  raw: boolean;
  params: { name: string; in: 'path' | 'query' | 'header' }[];
  paramValidator: string | null;
  bodyValidator: string | null;
  bodyRequired: boolean;
  bodyType: 'json' | 'form';
  /** Route-specific request body limit (x-max-body-bytes); null means the Engine default. */
  maxBodyBytes: number | null;
  /** The body carries a credential (x-secret-body): refusals quote none of its text. */
  secretBody: boolean;
  successStatus: number;
}

export const routes = ${JSON.stringify(routes, null, 2)} as const satisfies readonly RouteSpec[];

export type OperationId = (typeof routes)[number]['operationId'];
`,
  );
}

function loadSource(dir: string, source: unknown): unknown {
  if (typeof source === 'string') {
    const text = readFileSync(join(dir, source), 'utf8');
    return source.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  }
  if (source && typeof source === 'object' && typeof (source as Obj).npm === 'string') {
    return JSON.parse(readFileSync(require.resolve((source as Obj).npm), 'utf8'));
  }
  throw new Error(`${dir}/engine.yaml: 'source' must be a file name or { npm: <package file> }`);
}

async function generateCatalog(outDir: string) {
  const servicesDir = join(root, 'spec/services');
  const manifest: Obj[] = [];
  for (const service of readdirSync(servicesDir).sort()) {
    for (const version of readdirSync(join(servicesDir, service)).sort()) {
      const dir = join(servicesDir, service, version);
      const rawPolicy = parseYaml(readFileSync(join(dir, 'engine.yaml'), 'utf8')) as Obj;
      const policy = parsePolicy(rawPolicy, `spec/services/${service}/${version}/engine.yaml`);
      const locations: SourceLocations = new WeakMap();
      const index = normalizeService({ service, version, document: loadSource(dir, rawPolicy.source), policy, strict: true }, locations);
      // A bundled service is reviewed: every parameter kept, every $ref naming a schema, responses'
      // too (search_docs and the typed packages follow them), and nothing left out but what the
      // description itself cannot carry (no JSON body, another server).
      const kept = index.omitted?.length ?? 0;
      const warnings = [...(index.warnings ?? []), ...(await checkRefs(index, locations))];
      const dropped = index.omitted?.slice(kept) ?? [];
      const problem = warnings[0] ?? dropped[0];
      if (problem) throw new Error(`spec/services/${service}/${version}: ${problem.field}: ${problem.reason}`);
      const file = `catalog/${service}@${version}.json`;
      write(outDir, file, JSON.stringify(index));
      manifest.push({ service, version, title: index.title, baseUrl: index.baseUrl, operations: index.operations.length, file });
    }
  }
  write(outDir, 'catalog/manifest.json', JSON.stringify(manifest, null, 2) + '\n');
}

/** spec/unified/*.yaml → generated/unified/index.json, validated against the catalogue just written. */
function generateUnified(outDir: string) {
  const dir = join(root, 'spec/unified');
  const manifest = JSON.parse(readFileSync(join(outDir, 'catalog/manifest.json'), 'utf8')) as { file: string }[];
  const ids = new Set<string>();
  for (const entry of manifest) {
    for (const op of (JSON.parse(readFileSync(join(outDir, entry.file), 'utf8')) as { operations: { id: string }[] }).operations) ids.add(op.id);
  }
  const definitions = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => validateDefinition(parseYaml(readFileSync(join(dir, f), 'utf8')), `spec/unified/${f}`, (id) => ids.has(id)));
  const names = new Set<string>();
  for (const d of definitions) {
    if (names.has(d.name)) throw new Error(`spec/unified: two definitions are named ${d.name}`);
    names.add(d.name);
  }
  definitions.sort((a, b) => (a.name < b.name ? -1 : 1));
  write(outDir, 'unified/index.json', JSON.stringify(definitions, null, 2) + '\n');
}

/** Runs a code generator; a missing tool fails with what to install rather than a bare ENOENT. */
function tool(command: string, args: string[], hint: string) {
  try {
    execFileSync(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { code?: string; stderr?: Buffer };
    const why = e.code === 'ENOENT' ? `${command} is not installed` : (e.stderr?.toString().trim() ?? String(err));
    throw new Error(`gen: ${command} ${args.join(' ')} failed: ${why}\n${hint}`);
  }
}

/**
 * spec/engine.proto → generated/grpc/engine.ts (ts-proto for @grpc/grpc-js, via buf with the local
 * plugin from node_modules/.bin: no remote plugins, no network), generated/grpc/engine.js (the same
 * module with its types stripped, shipped inside the typed TypeScript packages), and
 * generated/python/engine_pb2{,_grpc}.py (shipped inside the Python packages).
 */
async function generateGrpc(outDir: string) {
  const tmp = mkdtempSync(join(tmpdir(), 'svc-gen-proto-'));
  try {
    const plugin = join(root, 'node_modules/.bin/protoc-gen-ts_proto');
    const template = {
      version: 'v2',
      plugins: [
        {
          local: plugin,
          out: join(tmp, 'ts'),
          opt: ['outputServices=grpc-js', 'esModuleInterop=true', 'env=node', 'outputJsonMethods=false', 'useOptionals=messages'],
        },
      ],
    };
    tool(join(root, 'node_modules/.bin/buf'), ['generate', 'spec', '--path', 'spec/engine.proto', '--template', JSON.stringify(template)], 'Run `npm ci` (buf and ts-proto are devDependencies).');
    const ts = HEADER + readFileSync(join(tmp, 'ts/engine.ts'), 'utf8');
    write(outDir, 'grpc/engine.ts', ts);
    const js = await transform(ts, { loader: 'ts', format: 'esm', target: 'es2022', legalComments: 'inline' });
    write(outDir, 'grpc/engine.js', HEADER + js.code);

    // Python: rendered from buf's descriptor set (src/codegen/python-grpc.ts), so gen needs no protoc.
    const descriptors = join(tmp, 'engine.binpb');
    tool(join(root, 'node_modules/.bin/buf'), ['build', 'spec', '--path', 'spec/engine.proto', '-o', descriptors], 'Run `npm ci` (buf is a devDependency).');
    const python = pythonModules(readFileSync(descriptors), 'engine.proto');
    write(outDir, 'python/engine_pb2.py', python.pb2);
    write(outDir, 'python/engine_pb2_grpc.py', python.grpc);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function generate(outDir: string) {
  write(outDir, 'README.md', '# generated/\n\nWritten by `npm run gen` from `spec/`. Never edit by hand; `npm run gen:check` fails in CI when this folder is stale.\n');
  await generateEngineApi(outDir);
  await generateCatalog(outDir);
  await generateGrpc(outDir);
  generateUnified(outDir);
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(dir, f)).isFile())
    .sort();
}

async function main() {
  const target = join(root, 'generated');
  if (process.argv.includes('--check')) {
    const fresh = mkdtempSync(join(tmpdir(), 'svc-gen-'));
    try {
      await generate(fresh);
      const want = listFiles(fresh);
      const have = listFiles(target);
      const stale = [
        ...want.filter((f) => !have.includes(f) || !readFileSync(join(fresh, f)).equals(readFileSync(join(target, f)))),
        ...have.filter((f) => !want.includes(f)),
      ];
      if (stale.length) {
        console.error(`generated/ is stale (${stale.length} file(s) differ): ${stale.slice(0, 10).join(', ')}\nRun \`npm run gen\` and commit the result.`);
        process.exit(1);
      }
      console.log(`generated/ is up to date (${want.length} files).`);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
    return;
  }
  rmSync(target, { recursive: true, force: true });
  await generate(target);
  console.log(`wrote ${relative(root, target)}/ (${listFiles(target).length} files)`);
}

await main();
