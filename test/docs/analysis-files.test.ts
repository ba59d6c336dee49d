// Search keeps its operation analyses on disk, one file per catalogue version, so a restarted Engine
// reads them instead of analysing every operation again; a file from other analysis code, or one cut
// short, is ignored and rewritten.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/index.ts';
import { AnalysisFiles, buildDocsIndex, forgetDocsIndexCaches } from '../../src/docs/index.ts';
import { SqliteStore } from '../../src/store/index.ts';

let store: SqliteStore;
let catalog: Catalog;
let dir: string;

beforeAll(async () => {
  store = new SqliteStore(':memory:');
  catalog = await Catalog.load(store);
});

afterAll(async () => {
  await store.close();
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-analyses-'));
  forgetDocsIndexCaches(); // each build below is what a new process would do
  return () => rmSync(dir, { recursive: true, force: true });
});

const ids = () => catalog.get('github', 'v1')!.operations.map((o) => o.id);
const build = (files?: AnalysisFiles) => buildDocsIndex(catalog, new Map([['github', 'v1']]), ids(), [], files);
const top = (index: ReturnType<typeof build>, query: string) => (index.run({ query, limit: 5 }, () => true) as { results: { operationId: string }[] }).results.map((r) => r.operationId);
/** Waits for the file a build writes after answering. */
const written = async () => {
  for (let i = 0; i < 200 && !readdirSync(dir).some((f) => f.endsWith('.json')); i++) await new Promise((r) => setTimeout(r, 10));
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  expect(files).toHaveLength(1);
  return join(dir, files[0]!);
};

type Stored = { code: string; analyses: { id: string; fields: [string, number][] }[] };
/** Gives github.issues/create a word no operation has, so a search for it shows whether the file was read. */
const plant = (file: string, edit: (f: Stored) => void = () => undefined) => {
  const stored = JSON.parse(readFileSync(file, 'utf8')) as Stored;
  stored.analyses.find((a) => a.id === 'github.issues/create')!.fields.push(['zqxwv', 3]);
  edit(stored);
  writeFileSync(file, JSON.stringify(stored));
};

describe('search analyses on disk', () => {
  it('are written once per catalogue version and read back by a new process, which ranks the same', async () => {
    const queries = ['create an issue in a github repository', 'who am I', 'list the tickets under my account', 'nuke the old repo'];
    const fresh = build(new AnalysisFiles(dir));
    const expected = queries.map((q) => top(fresh, q));
    const file = await written();

    forgetDocsIndexCaches();
    const restarted = build(new AnalysisFiles(dir));
    expect(queries.map((q) => top(restarted, q))).toEqual(expected);

    plant(file);
    forgetDocsIndexCaches();
    expect(top(build(new AnalysisFiles(dir)), 'zqxwv')[0]).toBe('github.issues/create');
    // Without the files, the word is unknown.
    forgetDocsIndexCaches();
    expect(top(build(), 'zqxwv')).not.toContain('github.issues/create');
  });

  it('ignores and rewrites a file written by other analysis code', async () => {
    build(new AnalysisFiles(dir));
    const file = await written();
    const code = (JSON.parse(readFileSync(file, 'utf8')) as Stored).code;
    plant(file, (f) => (f.code = 'older-analysis-code'));
    forgetDocsIndexCaches();
    expect(top(build(new AnalysisFiles(dir)), 'zqxwv')).not.toContain('github.issues/create');
    await new Promise((r) => setImmediate(r));
    expect((JSON.parse(readFileSync(file, 'utf8')) as Stored).code).toBe(code);
  });

  it('ignores and rewrites a file cut short, and reports a directory it cannot write to', async () => {
    build(new AnalysisFiles(dir));
    const file = await written();
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 1000));
    forgetDocsIndexCaches();
    expect(top(build(new AnalysisFiles(dir)), 'create an issue')).toContain('github.issues/create');
    await new Promise((r) => setImmediate(r));
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow();

    const errors: unknown[] = [];
    const blocked = join(dir, 'not-a-directory');
    writeFileSync(blocked, '');
    forgetDocsIndexCaches();
    expect(top(build(new AnalysisFiles(blocked, (err) => errors.push(err))), 'create an issue')).toContain('github.issues/create');
    await new Promise((r) => setImmediate(r));
    expect(errors).toHaveLength(1);
  });
});
