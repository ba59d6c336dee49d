// `$ref`s are read one way by the import check, the input validator and the typed packages
// (src/catalog/refs.ts): RFC 6901 pointers into components.schemas, with escaped component names
// (`~1`, `~0`, and `%7E` percent-encoding), pointers into a component, and the keywords beside a
// `$ref` applied with its target. An import whose reference names nothing (a typo, another
// document, an invalid escape) or closes a cycle that never reaches a schema is refused with a 400
// naming where the reference is and what it points to, responses included. The packages name a
// type per place a reference reaches (recursion by name), carry a sibling `description` as its doc
// comment, intersect sibling constraints, and say so wherever a stored description's reference
// names nothing.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeService, parsePolicy } from '../../src/catalog/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';
import { download, publishImported, runPython, SYSTEM_PYTHON, typecheck, workdir, type Workdir } from '../fixtures/sdk-packages.ts';

const run = promisify(execFile);

let t: TestEngine;
let provider: FakeProvider;
let work: Workdir;
/** SDK `refs`: every operation of refsDocument(), imported as `refs@v1`. */
let published: { versionId: string; token: string; version: string };

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => json(res, 201, { name: 'Tom', kind: 'cat', ...(req.body ? JSON.parse(req.body) : {}) }));
  t = await startTestEngine();
  work = workdir('svc-refs-');
  published = (await publishImported(t, 'refs', refsDocument())) as typeof published;
}, 60_000);

afterAll(async () => {
  work?.cleanup();
  await t?.stop();
  await provider?.stop();
});

const ref = (pointer: string, siblings: object = {}) => ({ $ref: `#/components/schemas/${pointer}`, ...siblings });

/** An OpenAPI 3.1 description of `POST /pets` (operationId createPet), as JSON text. */
function describePets(o: { body?: unknown; parameter?: unknown; response?: unknown; schemas: Record<string, unknown> }): string {
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Refs', version: '1' },
    servers: [{ url: provider.url }],
    paths: {
      '/pets': {
        post: {
          operationId: 'createPet',
          ...(o.parameter ? { parameters: [{ name: 'q', in: 'query', schema: o.parameter }] } : {}),
          ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: o.body } } } } : {}),
          responses: { '201': { description: 'ok', ...(o.response ? { content: { 'application/json': { schema: o.response } } } : {}) } },
        },
      },
    },
    components: { schemas: o.schemas },
  });
}

const SCHEMAS = {
  'Pet/Kind': { type: 'string', enum: ['cat', 'dog'], description: 'Kind of pet.' },
  'Owner~Ref': { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
  Pet: { type: 'object', description: 'A pet.', required: ['name'], properties: { name: { type: 'string', minLength: 2 }, kind: ref('Pet~1Kind') } },
  Name: { type: 'string' },
  Nick: ref('Name', { description: 'Short nickname alias.' }),
  TreeNode: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: ref('TreeNode') } } },
};

// Every way of referring that resolves: escaped '/' (~1) and '~' (~0), the same percent-encoded
// (%7E), a pointer into a component's property, siblings beside a $ref (a description and a
// maxLength; properties and required, an intersection), a recursive component.
const refsDocument = () =>
  describePets({
  body: {
    type: 'object',
    required: ['kind', 'name'],
    properties: {
      kind: ref('Pet~1Kind'),
      pct: ref('Pet%7E1Kind'),
      name: ref('Pet/properties/name'),
      nick: ref('Name', { maxLength: 3, description: 'Short nickname' }),
      owner: ref('Owner~0Ref'),
      owner2: ref('Owner%7E0Ref'),
      tree: ref('TreeNode'),
      alias: ref('Nick'),
      tagged: ref('Pet', { required: ['tag'], properties: { tag: { type: 'string' } } }),
    },
  },
  response: ref('Pet'),
  schemas: SCHEMAS,
});

let serial = 0;

describe('the import check reads $refs as RFC 6901 pointers into components.schemas', () => {
  it('accepts escaped names, percent-encoding, a pointer into a component, siblings and recursion; the input validator reads each alike', async () => {
    const call = (body: object) => t.execute(published.versionId, published.token, { operation: 'refs.createPet', input: { body } });
    const good = { kind: 'cat', pct: 'dog', name: 'Tom', nick: 'Al', owner: { id: 'o1' }, owner2: { id: 'o2' }, tree: { label: 'root', children: [{ label: 'leaf' }] }, alias: 'x', tagged: { name: 'Rex', tag: 't' } };
    const ok = await call(good);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // Each reference reaches the schema the packages type it by.
    const refusedAt = async (body: object, instancePath: string, message: RegExp) => {
      const res = await call({ ...good, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.errors.map((e: { instancePath: string; message: string }) => `${e.instancePath} ${e.message}`)).toContainEqual(expect.stringMatching(new RegExp(`^${instancePath} ${message.source}`)));
    };
    await refusedAt({ kind: 'fish' }, '/body/kind', /must be equal to one of the allowed values/);
    await refusedAt({ pct: 'fish' }, '/body/pct', /must be equal to one of the allowed values/);
    await refusedAt({ name: 'T' }, '/body/name', /must NOT have fewer than 2 characters/);
    await refusedAt({ nick: 'abcdef' }, '/body/nick', /must NOT have more than 3 characters/);
    await refusedAt({ owner2: {} }, '/body/owner2', /is missing required property 'id'/);
    await refusedAt({ tree: { children: [{ children: [{ label: 1 }] }] } }, '/body/tree/children/0/children/0/label', /must be string/);
    await refusedAt({ tagged: { name: 'Rex' } }, '/body/tagged', /is missing required property 'tag'/);
  }, 30_000);

  it.each([
    {
      what: 'a pointer into a component that names no property, in a response',
      response: true,
      document: () => describePets({ response: ref('Pet/properties/nmae'), schemas: SCHEMAS }),
      field: "document.paths['/pets'].post.responses['201'].content['application/json'].schema.$ref",
      says: ["$ref '#/components/schemas/Pet/properties/nmae' does not resolve: components.schemas.Pet.properties has no 'nmae'"],
    },
    {
      what: 'a reference to another document, in a component the request body reaches',
      document: () => describePets({ body: ref('Holder'), schemas: { Holder: { type: 'object', properties: { pet: { $ref: 'common.yaml#/components/schemas/Pet' } } } } }),
      field: 'document.components.schemas.Holder.properties.pet.$ref',
      says: ["$ref 'common.yaml#/components/schemas/Pet' refers to another document"],
    },
    {
      what: 'an absolute URI in a response',
      response: true,
      document: () => describePets({ response: { type: 'array', items: { $ref: 'https://schemas.example.com/pet.json' } }, schemas: SCHEMAS }),
      field: "document.paths['/pets'].post.responses['201'].content['application/json'].schema.items.$ref",
      says: ["$ref 'https://schemas.example.com/pet.json' refers to another document"],
    },
    {
      what: "an escape that is not ~0 or ~1 in a component name",
      document: () => describePets({ parameter: ref('Pet~2Kind'), schemas: SCHEMAS }),
      field: "document.paths['/pets'].post.parameters[0].schema.$ref",
      says: ["$ref '#/components/schemas/Pet~2Kind' is not a valid JSON Pointer", "invalid escape ('~' must be followed by 0 or 1)"],
    },
    {
      what: 'a name holding % written as is (a fragment is percent-decoded, as the validator decodes it)',
      response: true,
      document: () => describePets({ response: ref('a%41'), schemas: { 'a%41': { type: 'string' } } }),
      field: "document.paths['/pets'].post.responses['201'].content['application/json'].schema.$ref",
      says: ["$ref '#/components/schemas/a%41' does not resolve: components.schemas has no 'aA'"],
    },
    {
      what: 'an allOf/anyOf cycle that never reaches a schema, in a response',
      response: true,
      document: () => describePets({ response: ref('A'), schemas: { A: { allOf: [ref('B')] }, B: { anyOf: [ref('A'), { type: 'string' }] } } }),
      field: 'document.components.schemas.B.anyOf[0].$ref',
      says: ["$ref '#/components/schemas/A' closes a cycle", '(#/components/schemas/A → #/components/schemas/B → #/components/schemas/A)'],
    },
  ])('names where $what is and what it points to: in an input the operation is left out (alone, a 400), in a response a warning of the import', async ({ document, field, says, response }) => {
    const name = `badref-${++serial}`;
    const res = await t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document: document() });
    if (response) {
      // No call checks an answer against a response schema: the import goes ahead and says what cannot be read.
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const [warning, ...more] = res.body.versions[0].warnings;
      expect(more).toEqual([]);
      expect(warning).toMatchObject({ operationId: 'createPet', field });
      for (const text of says) expect(warning.reason).toContain(text);
      return;
    }
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('ENGINE_INVALID_INPUT');
    expect(res.body.error.details.field).toBe(field);
    // The description's only operation is left out for it, so nothing is callable: refused, naming it.
    expect(res.body.error.message).toContain('no operation can be called (1 left out; createPet: ');
    for (const text of says) expect(res.body.error.message).toContain(text);
  });
});

/**
 * A description an earlier Engine stored without these checks: a response referring to nothing,
 * to another document, and to two components that are each other.
 */
const legacyDocument = () =>
  describePets({
    response: { type: 'object', properties: { a: ref('A'), gone: ref('Gone'), ext: { $ref: 'common.yaml#/Thing' } } },
    schemas: { A: ref('B'), B: ref('A') },
  });

describe('typed packages of references', () => {
  let tsDir: string;
  let site: string;

  beforeAll(async () => {
    // As an earlier Engine stored it: normalised, never checked.
    const index = normalizeService({ service: 'legacy', version: 'v1', document: JSON.parse(legacyDocument()), policy: parsePolicy({ baseUrl: provider.url }, 'test') });
    expect(await t.engine.store.insertImportedService({ service: 'legacy', version: 'v1', index: JSON.stringify(index), importedAt: new Date().toISOString() })).toBeTruthy();
    expect((await t.api('PUT', '/v1/workspace/services/legacy', { version: 'v1' })).status).toBe(200);
    const legacy = await t.api('POST', '/v1/sdks/publish', { name: 'legacy', services: ['legacy=v1'], operations: ['legacy=*'] });
    expect(legacy.status, JSON.stringify(legacy.body)).toBe(200);
    t.canaries.push(legacy.body.token);

    tsDir = join(work.dir, 'ts');
    site = join(work.dir, 'site');
    for (const [name, version] of [['refs', published.version], ['legacy', legacy.body.version as string]] as const) {
      const [tarball, wheel] = await Promise.all([download(t, name, version, 'typescript'), download(t, name, version, 'python-wheel')]);
      mkdirSync(join(tsDir, name), { recursive: true });
      writeFileSync(join(tsDir, tarball.filename), tarball.bytes);
      await run('tar', ['-xzf', join(tsDir, tarball.filename), '-C', join(tsDir, name)]);
      writeFileSync(join(work.dir, wheel.filename), wheel.bytes);
      await run(SYSTEM_PYTHON, ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', join(work.dir, wheel.filename), site]);
    }
  }, 60_000);

  it('TypeScript: names a type per place a reference reaches, recursion by name, with a sibling description as its doc comment', () => {
    const types = readFileSync(join(tsDir, 'refs/package/types/refs.d.ts'), 'utf8');
    expect(types).toMatch(/\n\s*kind: PetKind\n\s*pct\?: PetKind\n\s*name: PetPropertiesName\n/);
    expect(types).toMatch(/\/\*\*\n\s*\* Short nickname\n\s*\*\/\n\s*nick\?: Name\n\s*owner\?: OwnerRef\n\s*owner2\?: OwnerRef\n\s*tree\?: TreeNode\n\s*alias\?: Nick\n/);
    expect(types).toMatch(/\n\s*tagged\?: \(Pet & \{\n\s*tag: string\n/);
    expect(types).toMatch(/\* Short nickname alias\.\n\s*\*\/\nexport type Nick = Name\n/);
    expect(types).toMatch(/\* Kind of pet\.\n\s*\*\/\nexport type PetKind = \("cat" \| "dog"\)\n/);
    expect(types).toContain('export type PetPropertiesName = string\n');
    expect(types).toMatch(/export interface TreeNode \{\n\s*label\?: string\n\s*children\?: TreeNode\[\]\n/);
    expect(types).toContain('export type CreatePetOutput = Pet\n');
    expect(types).not.toContain('Typed unknown');
  });

  it('TypeScript: a stored description whose references name nothing, or each other, still type-checks and says what is typed unknown and why', () => {
    const types = readFileSync(join(tsDir, 'legacy/package/types/legacy.d.ts'), 'utf8');
    expect(types).toContain("// Typed unknown: $ref '#/components/schemas/Gone' does not resolve: components.schemas has no 'Gone' (at output of legacy.createPet.properties.gone.$ref)");
    expect(types).toContain("// Typed unknown: $ref 'common.yaml#/Thing' refers to another document");
    expect(types).toContain("// Typed unknown: $ref '#/components/schemas/A' closes a cycle");
    expect(types).toMatch(/\* Typed unknown: \$ref '#\/components\/schemas\/Gone' does not resolve: components.schemas has no 'Gone'\n\s*\*\/\n\s*gone\?: unknown\n/);
    expect(types).toMatch(/\* Typed unknown: its \$refs form a cycle that never reaches a schema describing the value \(see above\)\n\s*\*\/\nexport type A = unknown\n/);
  });

  it('TypeScript: the declarations type-check, and programs get the referenced types (a wrong value is a type error)', async () => {
    const declarations = await typecheck(tsDir, ['refs/package/index.d.ts', 'legacy/package/index.d.ts'], { declarations: true });
    expect(declarations.output).toBe('');
    expect(declarations.ok).toBe(true);
    const program = (body: string) => `import type { CreatePetInput, CreatePetOutput, Nick, PetKind, TreeNode } from './refs/package/types/refs.js';\n${body}\n`;
    writeFileSync(
      join(tsDir, 'good.ts'),
      program(`const tree: TreeNode = { label: 'root', children: [{ label: 'leaf', children: [] }] };
const nick: Nick = 'Al';
const input: CreatePetInput = { body: { kind: 'cat', pct: 'dog', name: 'Tom', nick, owner: { id: 'o1' }, owner2: { id: 'o2' }, tree, alias: nick, tagged: { name: 'Rex', tag: 't' } } };
export const read = (out: CreatePetOutput): [string, PetKind | undefined] => [out.name, out.kind];
void input;`),
    );
    const wrong = {
      'kind.ts': `export const i: CreatePetInput = { body: { kind: 'fish', name: 'Tom' } };`,
      'pct.ts': `export const i: CreatePetInput = { body: { kind: 'cat', name: 'Tom', pct: 'fish' } };`,
      'owner.ts': `export const i: CreatePetInput = { body: { kind: 'cat', name: 'Tom', owner2: {} } };`,
      'tree.ts': `export const tree: TreeNode = { children: [{ children: [{ label: 1 }] }] };`,
      'tagged.ts': `export const i: CreatePetInput = { body: { kind: 'cat', name: 'Tom', tagged: { name: 'Rex' } } };`,
    };
    for (const [file, body] of Object.entries(wrong)) writeFileSync(join(tsDir, file), program(`${body}\nexport type Unused = [Nick, PetKind, TreeNode, CreatePetOutput];`));
    const result = await typecheck(tsDir, ['good.ts', ...Object.keys(wrong)]);
    const errors = result.output.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(errors.filter((l) => l.startsWith('good.ts'))).toEqual([]);
    expect(errors.filter((l) => l.startsWith('kind.ts'))).toEqual([expect.stringMatching(/Type '"fish"' is not assignable to type 'PetKind'/)]);
    expect(errors.filter((l) => l.startsWith('pct.ts'))).toEqual([expect.stringMatching(/Type '"fish"' is not assignable to type 'PetKind \| undefined'/)]);
    expect(errors.filter((l) => l.startsWith('owner.ts'))).toEqual([expect.stringMatching(/Property 'id' is missing/)]);
    expect(errors.filter((l) => l.startsWith('tree.ts'))).toEqual([expect.stringMatching(/Type 'number' is not assignable to type 'string'/)]);
    expect(errors.filter((l) => l.startsWith('tagged.ts'))).toEqual([expect.stringMatching(/Type '\{ name: string; \}' is not assignable to type 'Pet & \{ \[k: string\]: unknown; tag: string; \}'/)]);
  }, 90_000);

  it('Python: both packages import, the TypedDicts resolve to the referenced types, and what is typed _t.Any is said', async () => {
    const out = (await runPython(
      SYSTEM_PYTHON,
      `
import json, typing
import svc_sdk_refs, svc_sdk_legacy
from svc_sdk_refs.types import refs
from svc_sdk_legacy.types import legacy
hints = lambda cls: {k: str(v) for k, v in typing.get_type_hints(cls).items()}
print(json.dumps({
    "body": hints(refs.CreatePetInputBody),
    "required": sorted(refs.CreatePetInputBody.__required_keys__),
    "tree": hints(refs.TreeNode),
    "tagged": sorted(refs.CreatePetInputBodyTagged.__required_keys__),
    "output": typing.is_typeddict(refs.CreatePetOutput) and refs.CreatePetOutput is refs.Pet,
    "legacy": hints(legacy.CreatePetOutput),
}))
`,
      { PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: '1' },
    )) as Record<string, any>;
    const cls = (name: string) => `<class 'svc_sdk_refs.types.refs.${name}'>`;
    expect(out.body).toEqual({
      kind: "typing.Literal['cat', 'dog']",
      pct: "typing.Literal['cat', 'dog']",
      name: "<class 'str'>",
      nick: "<class 'str'>",
      owner: cls('OwnerRef'),
      owner2: cls('OwnerRef'),
      tree: cls('TreeNode'),
      alias: "<class 'str'>",
      tagged: cls('CreatePetInputBodyTagged'),
    });
    expect(out.required).toEqual(['kind', 'name']);
    expect(out.tree).toEqual({ label: "<class 'str'>", children: 'typing.List[svc_sdk_refs.types.refs.TreeNode]' });
    expect(out.tagged).toEqual(['name', 'tag']);
    expect(out.output).toBe(true);
    expect(out.legacy).toEqual({ a: 'typing.Any', gone: 'typing.Any', ext: 'typing.Any' });
    const refsModule = readFileSync(join(site, 'svc_sdk_refs/types/refs.py'), 'utf8');
    expect(refsModule).toContain('# Short nickname alias.\nNick = Name\n');
    const legacyModule = readFileSync(join(site, 'svc_sdk_legacy/types/legacy.py'), 'utf8');
    expect(legacyModule).toContain("# Typed _t.Any: $ref '#/components/schemas/Gone' does not resolve: components.schemas has no 'Gone'");
    expect(legacyModule).toContain("# Typed _t.Any: $ref 'common.yaml#/Thing' refers to another document");
    expect(legacyModule).toMatch(/# Typed _t\.Any: its \$refs form a cycle that never reaches a schema describing the value \(see above\)\nA = _t\.Any\n/);
  }, 30_000);
});
