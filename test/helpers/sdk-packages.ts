// Downloads an SDK version's packages from a test Engine and installs them the way an application
// would: the npm tarball into a fresh project (offline, from the npm cache), the wheel into a venv
// of Debian's /usr/bin/python3 that sees the system grpcio and protobuf.
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestEngine } from './engine.ts';
import { json, startFakeProvider, type FakeProvider } from './fake-provider.ts';

const run = promisify(execFile);
export const REPO = resolve(import.meta.dirname, '../..');
export const SYSTEM_PYTHON = '/usr/bin/python3';

const contact = (id: string) => ({ id, name: 'Ada', email: 'ada@example.test', labels: {}, created_at: '2026-01-01T00:00:00Z' });

/** A fake demo-crm: contacts in 3 cursor pages of one, get by ID, create; task create; only with `Bearer <secret>`. */
export function startCrmProvider(secret: string): Promise<FakeProvider> {
  return startFakeProvider(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${secret}`) return json(res, 401, { error: 'bad key' });
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/v1/contacts' && req.method === 'GET') {
      const page = Number(url.searchParams.get('starting_after')?.slice(4) ?? 0);
      return json(res, 200, { data: [contact(`con_${page + 1}`)], has_more: page + 1 < 3 });
    }
    if (url.pathname === '/v1/contacts' && req.method === 'POST') return json(res, 201, { ...contact('con_new'), ...JSON.parse(req.body) });
    if (url.pathname === '/v1/tasks' && req.method === 'POST') return json(res, 201, { id: 'tsk_1', status: 'open', created_at: '2026-01-01T00:00:00Z', ...JSON.parse(req.body) });
    if (url.pathname.startsWith('/v1/contacts/')) return json(res, 200, { ...contact(url.pathname.split('/')[3]!), labels: { tier: 'gold' } });
    json(res, 404, { error: 'no route' });
  });
}

/** Enables demo-crm and github at `baseUrl` with `secret`, and publishes SDK `name`; returns the publish result. */
export async function publishApp(t: TestEngine, name: string, baseUrl: string, secret: string, operations: string[]): Promise<{ versionId: string; token: string; version: string }> {
  for (const service of ['demo-crm', 'github']) {
    const enabled = await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1', baseUrl });
    if (enabled.status !== 200) throw new Error(`enable ${service}: ${JSON.stringify(enabled.body)}`);
    const stored = await t.api('PUT', `/v1/buckets/default/secrets/${service}`, { value: secret });
    if (stored.status !== 204) throw new Error(`secret ${service}: ${JSON.stringify(stored.body)}`);
  }
  const res = await t.api('POST', '/v1/sdks/publish', { name, services: ['demo-crm=v1', 'github=v1'], operations });
  if (res.status !== 200) throw new Error(`publish: ${JSON.stringify(res.body)}`);
  t.canaries.push(secret, res.body.token);
  return res.body;
}

export interface Downloaded {
  filename: string;
  sha256: string;
  bytes: Buffer;
}

export async function download(t: TestEngine, name: string, version: string, kind: string): Promise<Downloaded> {
  const res = await fetch(`${t.url}/v1/sdks/${name}/versions/${version}/packages/${kind}`, { headers: { authorization: `Bearer ${t.cliToken}` } });
  if (res.status !== 200) throw new Error(`download ${kind} answered ${res.status}: ${await res.text()}`);
  const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
  if (!filename) throw new Error('download has no file name');
  return { filename, sha256: res.headers.get('x-content-sha256') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
}

export interface Workdir {
  dir: string;
  cleanup(): void;
}

export function workdir(prefix: string): Workdir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Downloads a version's TypeScript package and Python wheel and installs both in a new workdir. */
export async function installBoth(t: TestEngine, name: string, version: string, prefix: string): Promise<{ work: Workdir; project: string; python: string }> {
  const work = workdir(prefix);
  const [tgz, wheel] = await Promise.all([download(t, name, version, 'typescript'), download(t, name, version, 'python-wheel')]);
  const [project, python] = await Promise.all([installTypescript(work.dir, tgz), installPython(work.dir, wheel)]);
  return { work, project, python };
}

/** A fresh npm project with the tarball installed offline; returns the project dir. */
export async function installTypescript(dir: string, file: Downloaded): Promise<string> {
  const project = join(dir, 'app');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', version: '0.0.0', private: true, type: 'module' }));
  const tgz = join(dir, file.filename);
  writeFileSync(tgz, file.bytes);
  const install = (mode: string) =>
    run('npm', ['install', mode, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', tgz], {
      cwd: project,
      env: { ...process.env, npm_config_update_notifier: 'false' },
      timeout: 60_000,
    });
  try {
    await install('--offline');
  } catch (err) {
    // A transitive dependency newer than anything in the npm cache (e.g. @types/node): fetch only what is missing.
    if (!String((err as { stderr?: string }).stderr).includes('ENOTCACHED')) throw err;
    await install('--prefer-offline');
  }
  return project;
}

/**
 * Type-checks with the repo's TypeScript 5.9. `declarations`: the package's own .d.ts files, fully
 * checked (skipLibCheck off) against the standard library only. Otherwise the given programs, with
 * Node's types and the installed package, whose .d.ts were checked on their own.
 */
export async function typecheck(project: string, files: string[], options: { declarations?: boolean } = {}): Promise<{ ok: boolean; output: string }> {
  const config = {
    compilerOptions: {
      noEmit: true,
      strict: true,
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      skipDefaultLibCheck: true,
      ...(options.declarations
        ? { skipLibCheck: false, lib: ['es2022', 'dom'], types: [] }
        : { skipLibCheck: true, lib: ['es2022'], types: ['node'], typeRoots: [join(REPO, 'node_modules/@types')] }),
    },
    files,
  };
  const name = options.declarations ? 'tsconfig.declarations.json' : 'tsconfig.json';
  writeFileSync(join(project, name), JSON.stringify(config, null, 2));
  try {
    const { stdout } = await run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', name], { cwd: project, timeout: 90_000 });
    return { ok: true, output: stdout };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** Runs a script of the project with Node (type stripping) and parses its last stdout line as JSON. */
export async function runNode(project: string, file: string, env: Record<string, string>): Promise<unknown> {
  const { stdout } = await run(process.execPath, [file], { cwd: project, env: { ...process.env, ...env }, timeout: 30_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/**
 * A venv of /usr/bin/python3 that sees the system packages (grpcio, protobuf, and pip itself), with
 * the package installed from the file alone: no index. An sdist is built with the system setuptools.
 */
async function installIntoVenv(dir: string, venvName: string, file: Downloaded, extra: string[] = []): Promise<string> {
  const venv = join(dir, venvName);
  await run(SYSTEM_PYTHON, ['-m', 'venv', '--system-site-packages', '--without-pip', venv], { timeout: 60_000 });
  const path = join(dir, file.filename);
  writeFileSync(path, file.bytes);
  const python = join(venv, 'bin/python');
  await run(python, ['-m', 'pip', 'install', '--no-index', '--disable-pip-version-check', '--no-cache-dir', '--quiet', ...extra, path], { timeout: 90_000 });
  return python;
}

export const installPython = (dir: string, wheel: Downloaded) => installIntoVenv(dir, 'venv', wheel);
export const installPythonSdist = (dir: string, sdist: Downloaded) => installIntoVenv(dir, 'venv-sdist', sdist, ['--no-build-isolation']);

/** Runs Python code and parses its last stdout line as JSON. */
export async function runPython(python: string, code: string, env: Record<string, string> = {}): Promise<unknown> {
  const { stdout } = await run(python, ['-c', code], { env: { ...process.env, ...env }, timeout: 30_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/** Imports `document` as `<name>@v1`, enables it, and publishes an SDK `<name>` of all its operations. */
export async function publishImported(t: TestEngine, name: string, document: string): Promise<{ version: string; token: string }> {
  const imported = await t.api('POST', '/v1/workspace/imports', { name, version: 'v1', document });
  if (imported.status !== 201) throw new Error(`import ${name}: ${JSON.stringify(imported.body)}`);
  const enabled = await t.api('PUT', `/v1/workspace/services/${name}`, { version: 'v1' });
  if (enabled.status !== 200) throw new Error(`enable ${name}: ${JSON.stringify(enabled.body)}`);
  const res = await t.api('POST', '/v1/sdks/publish', { name, services: [`${name}=v1`], operations: [`${name}=*`] });
  if (res.status !== 200) throw new Error(`publish ${name}: ${JSON.stringify(res.body)}`);
  t.canaries.push(res.body.token);
  return res.body;
}
