// `svc-cli sdk apply --download [--dir <dir>]`: writes the typed packages of the applied version
// (npm tarball, Python wheel and sdist) and its README, byte for byte as the Engine built them,
// checked against the SHA-256 the Engine sends. Progress lines appear on a TTY only.
import { createHash } from 'node:crypto';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { PublishResult } from '../../lib/definition.ts';
import type { Session } from '../../lib/engine.ts';
import { CliError } from '../../lib/errors.ts';
import { makeDir, writeFile } from '../../lib/files.ts';
import { print, progress, shellWord } from '../../lib/output.ts';

const KINDS = [
  { kind: 'typescript', label: 'TypeScript package', install: (f: string) => `npm install ${f}` },
  { kind: 'python-wheel', label: 'Python wheel', install: (f: string) => `pip install ${f}` },
  { kind: 'python-sdist', label: 'Python sdist', install: () => '' },
  { kind: 'readme', label: 'README', install: () => '' },
] as const;

export interface DownloadedPackage {
  kind: (typeof KINDS)[number]['kind'];
  file: string;
  bytes: number;
  sha256: string;
}

/**
 * `file` as an install command takes it from the current directory: `./` keeps npm and pip from
 * reading a bare name as a registry package, and a path a shell would split is quoted.
 */
function localPath(file: string): string {
  const path = relative(process.cwd(), file);
  return shellWord(isAbsolute(path) || path.startsWith('../') ? path : `./${path}`);
}

/** Downloads every package of `name@version` into `dir`; prints where they went unless `json`. */
export async function downloadPackages(s: Session, result: PublishResult, dir: string, json: boolean): Promise<{ downloads: DownloadedPackage[] }> {
  const target = resolve(dir);
  makeDir(target);
  const downloads: DownloadedPackage[] = [];
  for (const { kind, label } of KINDS) {
    progress(`downloading the ${label} of ${result.name}@${result.version}`);
    const request = s.api.GET('/v1/sdks/{name}/versions/{version}/packages/{kind}', {
      params: { path: { name: result.name, version: result.version, kind } },
      parseAs: 'arrayBuffer',
    });
    const data = await s.call(request, `the version was ${result.published ? 'published' : 'already published'}; run \`svc-cli sdk apply --download\` again`);
    const { response } = await request;
    const filename = /filename="([^"/\\]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
    if (!filename) throw new CliError(`the Engine sent the ${label} without a file name`, 'check that SVC_ENGINE_URL points at svc-engine');
    const bytes = Buffer.from(data as ArrayBuffer);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const expected = response.headers.get('x-content-sha256');
    if (expected && expected !== sha256) throw new CliError(`the ${label} of ${result.name}@${result.version} arrived damaged (SHA-256 mismatch)`, 'run the command again');
    const file = join(target, filename);
    writeFile(file, bytes);
    downloads.push({ kind, file, bytes: bytes.length, sha256 });
  }
  if (!json) {
    const where = relative(process.cwd(), target) || '.';
    print(`Downloaded ${result.name}@${result.version} to ${where}/`);
    const width = Math.max(...downloads.map((d) => relative(target, d.file).length));
    for (const [i, d] of downloads.entries()) {
      const name = relative(target, d.file);
      const install = KINDS[i]!.install(localPath(d.file));
      print(`  ${name.padEnd(width)}  ${KINDS[i]!.label}${install ? `: ${install}` : ''}`);
    }
  }
  return { downloads };
}
