// The reference pages name only what exists: every REST route of spec/engine.openapi.yaml is in
// docs/reference/rest.md and no other; every error code they list is a code the source uses, and
// every Engine code (src/envelope) is listed; every svc-cli option and SVC_* setting they name is
// read somewhere. Text only: no Engine.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ENGINE_STATUS } from '../../src/envelope/index.ts';

const root = resolve(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const reference = (page: string) => read(join('docs', 'reference', page));
const referenceAll = () => readdirSync(join(root, 'docs', 'reference')).map((f) => reference(f)).join('\n');

/** The text of every .ts file under `dirs` (and extra files), to grep. */
function sources(dirs: string[], extra: string[] = []): string {
  const files = dirs.flatMap((d) => readdirSync(join(root, d), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(d, f)));
  return [...files, ...extra].map(read).join('\n');
}

describe('docs/reference', () => {
  it('rest.md lists every route of the OpenAPI contract outside /mcp, and only those', () => {
    const spec = parse(read('spec/engine.openapi.yaml')) as { paths: Record<string, Record<string, unknown>> };
    const methods = new Set(['get', 'put', 'post', 'delete', 'patch']);
    const routes = Object.entries(spec.paths).flatMap(([path, item]) => Object.keys(item).filter((m) => methods.has(m)).map((m) => `${m.toUpperCase()} ${path}`));
    const documented = [...reference('rest.md').matchAll(/`((?:GET|PUT|POST|DELETE|PATCH) \/[^`\s]*)`/g)].map((m) => m[1]!);
    expect(documented.filter((r) => !routes.includes(r))).toEqual([]);
    expect(routes.filter((r) => !r.includes(' /mcp/') && !documented.includes(r))).toEqual([]);
  });

  it('envelope.md lists every Engine code, and every code it lists is used in the source', () => {
    const page = reference('envelope.md');
    // The first cell of each table row names the codes.
    const firstCells = page.split('\n').filter((l) => l.startsWith('| `')).map((l) => l.split(' | ')[0]!);
    const listed = new Set(firstCells.flatMap((c) => [...c.matchAll(/`([A-Z]+_[A-Z_]+)`/g)].map((m) => m[1]!)));
    expect(Object.keys(ENGINE_STATUS).filter((code) => !listed.has(code))).toEqual([]);
    const src = sources(['src']);
    expect([...listed].filter((code) => !(code in ENGINE_STATUS) && !src.includes(`'${code}'`))).toEqual([]);
  });

  it('names only svc-cli options and settings that exist', () => {
    const cli = sources(['cli', 'src/bin']);
    const options = [...reference('cli.md').matchAll(/(?<![\w-])--([a-z][a-z-]+)/g)].map((m) => m[1]!.replace(/^no-/, ''));
    expect(options.filter((o) => o !== 'help' && !cli.includes(`'${o}'`))).toEqual([]);
    const everything = sources(['src', 'cli'], ['install.sh']);
    const settings = [...referenceAll().matchAll(/\b(SVC_[A-Z_]+|DATABASE_URL|REDIS_URL)\b/g)].map((m) => m[1]!);
    expect([...new Set(settings)].filter((s) => !everything.includes(s))).toEqual([]);
  });
});
