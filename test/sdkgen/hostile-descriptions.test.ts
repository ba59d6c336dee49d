// Typed packages from hostile or unusual input, found by review: text from an imported OpenAPI
// document stays text (it never runs at import or breaks compilation), generated names never
// collide, and the TypeScript runtime refuses options it cannot honour, as the Python one does.
// Packages are built from OpenAPI documents a workspace imports (POST /v1/workspace/imports),
// downloaded like any other, unpacked, and then imported by Debian's /usr/bin/python3 (the wheel)
// or type-checked by the repo's tsc (the npm tarball's .d.ts files), or loaded by Node (its runtime).
import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';
import { download, publishImported, REPO, SYSTEM_PYTHON, typecheck, workdir, type Downloaded, type Workdir } from '../fixtures/sdk-packages.ts';

const run = promisify(execFile);

let t: TestEngine;
let provider: FakeProvider;
let work: Workdir;

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => {
    // demo-crm's contacts/get answers after a while, so that a call without a deadline is visible.
    if (req.url.startsWith('/v1/contacts/')) await new Promise((r) => setTimeout(r, 1500));
    json(res, 200, { id: 'con_1', name: 'Ada', email: 'ada@example.test', labels: {}, created_at: '2026-01-01T00:00:00Z' });
  });
  t = await startTestEngine({ SVC_GRPC_PORT: '0' });
  work = workdir('svc-review-');
}, 60_000);

afterAll(async () => {
  work?.cleanup();
  await t?.stop();
  await provider?.stop();
});

/** An OpenAPI 3.0 document as JSON (the import takes JSON as well as YAML). */
const openapi = (title: string, paths: Record<string, unknown>, schemas?: Record<string, unknown>) =>
  JSON.stringify({ openapi: '3.0.3', info: { title, version: '1' }, servers: [{ url: provider.url }], paths, ...(schemas ? { components: { schemas } } : {}) });

const getOp = (operationId: string, extra: Record<string, unknown> = {}) => ({ get: { operationId, responses: { '200': { description: 'ok' } }, ...extra } });

/** Unpacks the wheel (a zip) into a directory that /usr/bin/python3 can import from. */
async function unpackWheel(name: string, wheel: Downloaded): Promise<string> {
  const dir = join(work.dir, `${name}-py`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, wheel.filename);
  writeFileSync(file, wheel.bytes);
  const site = join(dir, 'site');
  await run(SYSTEM_PYTHON, ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', file, site]);
  return site;
}

/** Imports the package (and its types) the way an application does; never throws. */
async function importPython(site: string, pkg: string): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(SYSTEM_PYTHON, ['-c', `import ${pkg}, ${pkg}.types\nprint("IMPORTED")`], {
      env: { ...process.env, PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: '1' },
      timeout: 30_000,
    });
    return { ok: stdout.includes('IMPORTED'), stdout, stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Unpacks the npm tarball; returns the directory holding `package/`. */
async function unpackTarball(name: string, tarball: Downloaded): Promise<string> {
  const dir = join(work.dir, `${name}-ts`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, tarball.filename);
  writeFileSync(file, tarball.bytes);
  await run('tar', ['-xzf', file, '-C', dir]);
  return dir;
}

/** Imports, publishes, downloads and unpacks the Python wheel of `document`. */
async function pythonPackageOf(name: string, document: string): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  const published = await publishImported(t, name, document);
  const site = await unpackWheel(name, await download(t, name, published.version, 'python-wheel'));
  return importPython(site, `svc_sdk_${name.replace(/-/g, '_')}`);
}

/** Imports, publishes, downloads the npm tarball of `document` and type-checks its .d.ts files on their own. */
async function typescriptDeclarationsOf(name: string, version: string): Promise<{ ok: boolean; output: string }> {
  const dir = await unpackTarball(name, await download(t, name, version, 'typescript'));
  return typecheck(dir, ['package/index.d.ts'], { declarations: true });
}

describe('generated packages: text from an imported OpenAPI document stays text', () => {
  // info.title is rendered raw into the Python types module's docstring (templates/sdk/python/types.py.hbs
  // line 1) and into the `//` header of types/<service>.d.ts (src/sdkgen/typescript.ts serviceTypes).
  const TITLE = 'Evil API"""\nprint("INJECTED-BY-TITLE")\n"""';
  let titleVersion: string;

  it('Python: an info.title holding """ does not run code when the package is imported', async () => {
    // The title is escaped like every other docstring text (pyDoc), so importing the
    // package runs nothing from the document and succeeds.
    titleVersion = (await publishImported(t, 'evil-title', openapi(TITLE, { '/things': getOp('listThings') }))).version;
    const site = await unpackWheel('evil-title', await download(t, 'evil-title', titleVersion, 'python-wheel'));
    const imported = await importPython(site, 'svc_sdk_evil_title');
    expect(imported.stdout).not.toContain('INJECTED-BY-TITLE');
    expect(imported.ok).toBe(true);
  }, 60_000);

  it('TypeScript: an info.title with line breaks keeps types/<service>.d.ts a comment and compiling', async () => {
    // The header comment of the types file is one line (as the `comment` helper makes
    // every other comment), so tsc accepts the package's declarations.
    titleVersion ??= (await publishImported(t, 'evil-title', openapi(TITLE, { '/things': getOp('listThings') }))).version;
    const checked = await typescriptDeclarationsOf('evil-title', titleVersion);
    expect(checked.output).toBe('');
    expect(checked.ok).toBe(true);
  }, 90_000);

  // The public operation ID (`<service>.<operationId>`) goes into the method docstring of _client.py
  // (with the path) and into the JSDoc of index.d.ts. The catalog accepts any operationId whose
  // '/'-separated parts each hold a letter or digit.
  const HOSTILE_ID = 'list*/x"""y';
  let idVersion: string;

  it('Python: an operationId holding """ keeps _client.py importable', async () => {
    // op.id (and op.path) go through pydoc in the docstring; the package imports.
    idVersion = (await publishImported(t, 'evil-id', openapi('Ids', { '/things': getOp(HOSTILE_ID) }))).version;
    const site = await unpackWheel('evil-id', await download(t, 'evil-id', idVersion, 'python-wheel'));
    const imported = await importPython(site, 'svc_sdk_evil_id');
    expect(imported.stderr).not.toMatch(/SyntaxError/);
    expect(imported.ok).toBe(true);
  }, 60_000);

  it('TypeScript: an operationId holding */ keeps the JSDoc of index.d.ts closed', async () => {
    // op.id goes through the `comment` helper (which escapes */), so tsc accepts index.d.ts.
    idVersion ??= (await publishImported(t, 'evil-id', openapi('Ids', { '/things': getOp(HOSTILE_ID) }))).version;
    const checked = await typescriptDeclarationsOf('evil-id', idVersion);
    expect(checked.output).toBe('');
    expect(checked.ok).toBe(true);
  }, 90_000);

  it('Python: a schema description with a carriage return does not run code at import', async () => {
    // A TypedDict whose keys are not all identifiers (here `from`) is declared functionally, with
    // its description as `# ` comment lines. A lone '\r' is a line break to Python: every line break
    // Python knows starts a new comment line, so the description never becomes code.
    const document = openapi(
      'Cr',
      { '/things': { post: { operationId: 'makeThing', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Evil' } } } }, responses: { '200': { description: 'ok' } } } } },
      { Evil: { type: 'object', description: "A thing.\rprint('INJECTED-BY-CR')", properties: { from: { type: 'string' } } } },
    );
    const imported = await pythonPackageOf('evil-cr', document);
    expect(imported.stdout).not.toContain('INJECTED-BY-CR');
    expect(imported.ok).toBe(true);
  }, 60_000);

  it('Python: a summary holding a NUL character keeps _client.py importable', async () => {
    // Python refuses a module whose source holds a NUL ("source code string cannot contain null
    // bytes"): pyDoc escapes control characters (\x00) in docstrings.
    const imported = await pythonPackageOf('evil-nul', openapi('Nul', { '/things': getOp('listThings', { summary: 'List\u0000things' }) }));
    expect(imported.stderr).not.toMatch(/null bytes/);
    expect(imported.ok).toBe(true);
  }, 60_000);
});

describe('generated packages: names that collide with the generated code', () => {
  it("Python: a service named 't' does not replace the typing alias _t of _client.py", async () => {
    // _client.py imports typing as `_t`; the service modules are imported as `_types_<module>`, a
    // prefix no service name can turn into `_t`, so a service named `t` leaves the alias alone.
    const imported = await pythonPackageOf('t', openapi('T', { '/things': getOp('listThings') }));
    expect(imported.stderr).not.toMatch(/AttributeError/);
    expect(imported.ok).toBe(true);
  }, 60_000);
});

describe('TypeScript package runtime: options it cannot honour are refused, as the Python runtime does', () => {
  let sdk: { versionId: string; token: string };
  let Client: new (options: Record<string, unknown>) => any;

  beforeAll(async () => {
    sdk = await publishSdk(t, { name: 'rt', service: 'demo-crm', baseUrl: provider.url, secret: 'canary-review-rt-5d1e', operations: ['contacts/get'] });
    const versions = (await t.api('GET', '/v1/sdks/rt/versions')).body.versions as { version: string }[];
    const dir = await unpackTarball('rt', await download(t, 'rt', versions[0]!.version, 'typescript'));
    // The package resolves @grpc/grpc-js and @bufbuild/protobuf from the repo's own node_modules.
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
    ({ Client } = await import(pathToFileURL(join(dir, 'package/index.js')).href));
  }, 60_000);

  it('refuses selectors with keys it does not know instead of sending the call without them', async () => {
    // ts-proto encodes only the four known selector fields: an unknown key (`end_user_ref`, the
    // Python spelling, or any typo) would be dropped and the call would run on the workspace's
    // default credential. Like the Python runtime, the TypeScript one refuses it with a 400 envelope,
    // and nothing reaches the provider.
    const client = new Client({ grpcUrl: t.engine.grpcUrl, token: sdk.token });
    try {
      const before = provider.requests.length;
      const result = await client.DemoCrm.contacts.get({ contact_id: 'con_1' }, { selectors: { end_user_ref: 'u_42' } });
      expect(provider.requests.length).toBe(before);
      expect(result).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT' } });
    } finally {
      client.close();
    }
  }, 30_000);

  it('does not turn timeoutMs: 0 into a call without any deadline', async () => {
    // 0 or a negative timeoutMs must not mean "no deadline" (only Infinity says that): like the
    // Python runtime's timeout=0, it is refused with a 400 envelope and the provider is not called.
    const client = new Client({ grpcUrl: t.engine.grpcUrl, token: sdk.token });
    try {
      const before = provider.requests.length;
      const result = await client.DemoCrm.contacts.get({ contact_id: 'con_1' }, { timeoutMs: 0 });
      expect(provider.requests.length).toBe(before);
      expect(result.ok).toBe(false);
    } finally {
      client.close();
    }
  }, 30_000);
});
