// search_docs in process: DocsIndex.run on the bundled GitHub catalogue (github@v1, loaded by the
// real Catalog) and on a synthetic 10,000-operation service (generated OpenAPI → normalizeService →
// Catalog.load), side by side with baselines on the same index in the same rounds:
//   intent queries  vs plain BM25 over the same operations (bm25Baseline from
//                   test/search-eval/evaluate.ts: MiniSearch with its default settings over each
//                   operation's id, summary, description, path and tags, one OR query) — so the table
//                   shows what search_docs costs beyond a textbook full-text search (its Ranker: query
//                   reading, expansion, structure-aware scoring; then sections and 64 KiB budget
//                   accounting); the Ranker.search calls and the JSON.stringify calls (budget checks)
//                   inside search_docs are also timed, to split where its time goes;
//   exact / browse  vs one JSON.stringify of the same answer (the serialisation any caller pays).
// Every round runs every query once for the subject and once for the baseline, alternating which
// goes first. Figures are percentiles over all samples; first calls (cold caches) are separate.
//
// Goals (issue 26): GitHub intent p50 ≤ 5 ms, 10,000-operation intent p50 ≤ 15 ms, GitHub index build ≤ 300 ms.
//
// Knobs: BENCH_DOCS_ROUNDS (15), BENCH_DOCS_SYNTH_OPS (10000), BENCH_CPU_PROF=<dir> (profile the
// measured intent rounds: <dir>/search-docs-<catalogue>.cpuprofile; summarise with lib/profile-summary.ts).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { AnalysisFiles, buildDocsIndex, DEFAULT_LIMIT, type DocsIndex, forgetDocsIndexCaches, type SearchArgs } from '../../src/docs/index.ts';
import type { Ranker } from '../../src/docs/rank.ts';
import { useWordPairs, wordPairs } from '../../src/docs/word-pairs.ts';
import type { Catalog } from '../../src/catalog/index.ts';
import { bm25Baseline, type Searcher } from '../search-eval/evaluate.ts';
import { GITHUB_BROWSE, GITHUB_EXACT, GITHUB_INTENTS, SYNTH_BROWSE, SYNTH_EXACT, SYNTH_INTENTS, SYNTH_SERVICE, loadBundledCatalog, loadSyntheticCatalog } from './lib/docs-workload.ts';
import { envInt, fullGc, kib, mib, msAuto, summarize, median, type Summary } from './lib/samples.ts';
import { machineCpu } from './lib/sysload.ts';
import { int, table } from './lib/stats.ts';
import { verdictOf } from './lib/summary.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';

export const name = 'search-docs';
export const title = 'search_docs latency in process (GitHub catalogue and 10,000 operations)';

/** Issue 26: intent p50 in process (ms) per catalogue; index build for GitHub (ms, median of the builds). */
const GOALS = { github: 5, synth: 15, githubBuild: 300 };

type Kind = 'intent' | 'long' | 'exact' | 'browse';
const KIND_LABEL: Record<Kind, string> = { intent: 'intent query', long: 'query at the 500-character limit', exact: 'exact lookup', browse: 'browse' };
/** Kinds that are free-text queries: their baseline is plain BM25 over the same operations. */
const isQuery = (kind: Kind) => kind === 'intent' || kind === 'long';
/** Issue 26 sets goals for intent queries only; long queries are a worst case (the tool's query limit is 500 characters), exact lookups and browse are shown in the tables. */
const hasGoal = (kind: Kind) => kind === 'intent';
/** `n` words taken from `text` in turn. */
function words(text: string, n: number): string {
  const all = text.split(' ');
  return Array.from({ length: n }, (_, i) => all[i % all.length]).join(' ');
}
/** Queries as long as the tool allows: one term repeated, many distinct terms, a pasted paragraph. */
const LONG_QUERIES = [
  words('repository', 50).slice(0, 500),
  Array.from({ length: 80 }, (_, i) => `${['repository', 'organization', 'workflow', 'collaborator', 'deployment'][i % 5]}${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7) % 26))}`).join(' ').slice(0, 500),
  words('please list every open pull request in the repository that changed a workflow file and still waits for a review from the team', 90).slice(0, 500),
];

interface KindResult {
  kind: Kind;
  queries: number;
  subject: Summary;
  baseline: Summary;
  /** Paired (same query, same round) subject − baseline. */
  added: Summary;
  /** Time spent inside the index's Ranker.search during the subject calls (intent only). */
  inside: Summary | undefined;
  /** Time spent inside JSON.stringify during the subject calls (the 64 KiB budget checks). */
  stringify: Summary;
  firstCalls: Summary;
  perQuery: { label: string; subjectP50: number; baselineP50: number; insideP50: number; stringifyP50: number; stringifyCalls: number; first: number; bytes: number; top: string }[];
  foreignCores: number;
}

interface CatalogueResult {
  key: 'github' | 'synth';
  /** GitHub's intents with the word pairs and with the general model (p50 ms). */
  pairsCost?: { pairs: number; general: number; ratio: number };
  label: string;
  operations: number;
  loadMs: number;
  extra: string;
  /** Builds from nothing (the first on cold code). */
  buildMs: number[];
  /** Builds over the same catalogue version once its index is kept (a second MCP version). */
  keptBuildMs: number[];
  /** Builds after a restart, with the analyses kept on disk (src/docs/analysis-files.ts). */
  diskBuildMs: number[];
  indexHeapBytes: number;
  kinds: KindResult[];
}

/** The DocsIndex's own Ranker (a private field; its search calls are timed inside search_docs). */
function rankerOf(index: DocsIndex): Ranker {
  const ranker = (index as unknown as { ranker?: Ranker }).ranker;
  if (!ranker || typeof ranker.search !== 'function') throw new Error('DocsIndex no longer keeps its Ranker in the private field `ranker`; update search-docs.bench.ts');
  return ranker;
}

const describeArgs = (a: SearchArgs) =>
  a.operationId !== undefined ? `${a.operationId}${a.section ? ` §${a.section}` : ''}${a.schemaPath ? ` ${a.schemaPath}` : ''}` : a.service ? `browse service=${a.service}` : 'browse (no filter)';

async function measureKind(
  ctx: BenchContext,
  index: DocsIndex,
  bm25: Searcher,
  kind: Kind,
  workload: SearchArgs[],
  rounds: number,
  profile: { dir: string; file: string } | undefined,
): Promise<KindResult> {
  const ranker = rankerOf(index);
  const callable = () => true;
  // Time spent inside Ranker.search while search_docs runs (instance-level wrapper, this index only).
  const original = ranker.search;
  let inside = 0;
  const wrapped = function (this: Ranker, ...args: Parameters<typeof original>) {
    const t0 = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      inside += performance.now() - t0;
    }
  } as typeof original;

  // Time spent in JSON.stringify while search_docs runs: its 64 KiB budget checks serialise the
  // answer built so far (global wrapper, installed only for the synchronous run() call).
  const stringify = JSON.stringify;
  let inStringify = 0;
  let stringifyCalls = 0;
  const countingStringify = function (...args: Parameters<typeof JSON.stringify>) {
    const t0 = performance.now();
    try {
      return stringify(...args);
    } finally {
      inStringify += performance.now() - t0;
      stringifyCalls++;
    }
  } as typeof JSON.stringify;

  const answers = new Map<number, Record<string, unknown>>();
  const subjectOnce = (i: number): { ms: number; insideMs: number; stringifyMs: number; stringifyCalls: number } => {
    inside = 0;
    inStringify = 0;
    stringifyCalls = 0;
    ranker.search = wrapped;
    JSON.stringify = countingStringify;
    let answer: Record<string, unknown>;
    const t0 = performance.now();
    try {
      answer = index.run(workload[i]!, callable);
    } finally {
      JSON.stringify = stringify;
      // Back to the prototype's method (no own property left behind on the instance).
      delete (ranker as { search?: unknown }).search;
      if (ranker.search !== original) ranker.search = original;
    }
    const t1 = performance.now();
    if (!answers.has(i)) answers.set(i, answer);
    return { ms: t1 - t0, insideMs: inside, stringifyMs: inStringify, stringifyCalls };
  };
  const baselineOnce = (i: number): number => {
    const args = workload[i]!;
    if (isQuery(kind)) {
      const t0 = performance.now();
      const hits = bm25.search(args.query!, args.limit ?? DEFAULT_LIMIT);
      const t1 = performance.now();
      if (hits.length < 0) throw new Error('unreachable');
      return t1 - t0;
    }
    const answer = answers.get(i)!;
    const t0 = performance.now();
    const text = JSON.stringify(answer);
    const t1 = performance.now();
    if (!text) throw new Error('empty answer');
    return t1 - t0;
  };

  // First calls: cold section cache and cold code paths for this kind on this index.
  const first = workload.map((_, i) => subjectOnce(i).ms);
  // Warm-up.
  for (let r = 0; r < 2; r++) for (let i = 0; i < workload.length; i++) (subjectOnce(i), baselineOnce(i));

  const subj: number[][] = workload.map(() => []);
  const base: number[][] = workload.map(() => []);
  const ins: number[][] = workload.map(() => []);
  const str: number[][] = workload.map(() => []);
  const strCalls: number[] = workload.map(() => 0);
  const added: number[] = [];
  let session: Session | undefined;
  if (profile) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const cpu0 = process.cpuUsage();
  const sys0 = machineCpu();
  const w0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < workload.length; i++) {
      let s: ReturnType<typeof subjectOnce>;
      let b: number;
      if (r % 2 === 0) {
        s = subjectOnce(i);
        b = baselineOnce(i);
      } else {
        b = baselineOnce(i);
        s = subjectOnce(i);
      }
      subj[i]!.push(s.ms);
      ins[i]!.push(s.insideMs);
      str[i]!.push(s.stringifyMs);
      strCalls[i] = s.stringifyCalls;
      base[i]!.push(b);
      added.push(s.ms - b);
    }
    // Let timers and GC breathe between rounds, as an Engine would between requests.
    await new Promise((res) => setImmediate(res));
  }
  const wall = performance.now() - w0;
  const sys1 = machineCpu();
  const cpu1 = process.cpuUsage(cpu0);
  if (session && profile) {
    const { profile: p } = await session.post('Profiler.stop');
    session.disconnect();
    mkdirSync(profile.dir, { recursive: true });
    writeFileSync(join(profile.dir, profile.file), JSON.stringify(p));
    ctx.log(`profile written to ${join(profile.dir, profile.file)}`);
  }
  const foreignCores = Math.max(0, (sys1.busyUs - sys0.busyUs - (cpu1.user + cpu1.system)) / 1000 / wall);

  const perQuery = workload.map((args, i) => {
    const answer = answers.get(i)! as { results?: { operationId: string }[]; operations?: unknown[]; total?: number; schema_status?: { included_sections: string[] } };
    const top =
      isQuery(kind)
        ? (answer.results ?? []).map((x) => x.operationId).join(', ')
        : kind === 'browse'
          ? `${answer.operations?.length ?? 0} of ${answer.total ?? 0} listed`
          : `sections: ${answer.schema_status?.included_sections.join(', ') || '–'}`;
    return {
      label: isQuery(kind) ? `"${args.query!.length > 60 ? `${args.query!.slice(0, 57)}…` : args.query}" (${args.query!.length} chars)` : describeArgs(args),
      subjectP50: median(subj[i]!),
      baselineP50: median(base[i]!),
      insideP50: median(ins[i]!),
      stringifyP50: median(str[i]!),
      stringifyCalls: strCalls[i]!,
      first: first[i]!,
      bytes: Buffer.byteLength(JSON.stringify(answers.get(i)!)),
      top,
    };
  });
  const all = (xs: number[][]) => xs.flat();
  const result: KindResult = {
    kind,
    queries: workload.length,
    subject: summarize(all(subj)),
    baseline: summarize(all(base)),
    added: summarize(added),
    inside: isQuery(kind) ? summarize(all(ins)) : undefined,
    stringify: summarize(all(str)),
    firstCalls: summarize(first),
    perQuery,
    foreignCores,
  };
  ctx.log(
    `${KIND_LABEL[kind].padEnd(13)} ${workload.length} queries × ${rounds} rounds: search_docs p50 ${msAuto(result.subject.p50)} p99 ${msAuto(result.subject.p99)} ms | baseline p50 ${msAuto(result.baseline.p50)} p99 ${msAuto(result.baseline.p99)} ms | other load ${foreignCores.toFixed(2)} cores`,
  );
  return result;
}

/** The operation IDs the docs index is built from: every operation of `service`@v1. */
const indexedIds = (catalog: Catalog, service: string) => catalog.get(service, 'v1')!.operations.map((o) => o.id);

function indexOf(catalog: Catalog, service: string, files?: AnalysisFiles): { index: DocsIndex; ms: number } {
  const ops = indexedIds(catalog, service);
  const t0 = performance.now();
  const index = buildDocsIndex(catalog, new Map([[service, 'v1']]), ops, [], files);
  return { index, ms: performance.now() - t0 };
}

/**
 * Builds the index `builds` times from nothing (the kept analyses forgotten before each, as in a
 * new process; the first also on cold code), measures the heap the last one retains, then builds
 * it again `builds` times as a second MCP version over the same catalogue version would (kept).
 */
async function buildRepeatedly(catalog: Catalog, service: string, builds: number): Promise<{ index: DocsIndex; times: number[]; keptTimes: number[]; diskTimes: number[]; heapBytes: number }> {
  const times: number[] = [];
  for (let i = 0; i < builds - 1; i++) {
    forgetDocsIndexCaches();
    times.push(indexOf(catalog, service).ms);
  }
  forgetDocsIndexCaches();
  fullGc();
  const h0 = process.memoryUsage().heapUsed;
  const { index, ms } = indexOf(catalog, service);
  times.push(ms);
  fullGc();
  const heapBytes = process.memoryUsage().heapUsed - h0;
  const keptTimes = Array.from({ length: builds }, () => indexOf(catalog, service).ms);
  // After a restart, with the analyses the first process kept on disk.
  const dir = mkdtempSync(join(tmpdir(), 'bench-analyses-'));
  try {
    const files = new AnalysisFiles(dir);
    forgetDocsIndexCaches();
    indexOf(catalog, service, files);
    await new Promise((r) => setImmediate(r)); // the file is written after the build answers
    if (!readdirSync(dir).some((f) => f.endsWith('.json'))) throw new Error(`${service}: no analyses were kept on disk`);
    const diskTimes = Array.from({ length: builds }, () => {
      forgetDocsIndexCaches();
      return indexOf(catalog, service, files).ms;
    });
    return { index, times, keptTimes, diskTimes, heapBytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Plain BM25 over the operations the docs index holds (the catalogue's, filtered to the indexed IDs). */
function baselineOf(catalog: Catalog, service: string, index: DocsIndex): Searcher {
  const ids = new Set(indexedIds(catalog, service));
  const operations = catalog.get(service, 'v1')!.operations.filter((o) => ids.has(o.id));
  if (operations.length !== index.size) throw new Error(`${service}@v1: BM25 baseline has ${operations.length} operations, the docs index ${index.size}`);
  return bm25Baseline(operations);
}

/**
 * What the word pairs cost (src/docs/word-pairs.ts): each GitHub intent query run twice in a row,
 * once with the learned pairs and the model that reads them and once with the general model (no
 * pairs, as for a catalogue they were not learned on), alternating which goes first.
 */
function wordPairsCost(index: DocsIndex, queries: readonly string[], rounds: number): { pairs: number; general: number; ratio: number } {
  const learned = wordPairs();
  const none = { services: [], pairs: {} };
  const times = { pairs: [] as number[], general: [] as number[] };
  for (let round = 0; round <= rounds; round++) {
    for (const [q, query] of queries.entries()) {
      const order = (round + q) % 2 ? (['pairs', 'general'] as const) : (['general', 'pairs'] as const);
      for (const model of order) {
        useWordPairs(model === 'pairs' ? learned : none);
        const t0 = performance.now();
        index.run({ query, limit: 3 }, () => true);
        // The first round warms both paths up.
        if (round > 0) times[model].push(performance.now() - t0);
      }
    }
  }
  useWordPairs(undefined);
  const pairs = median(times.pairs);
  const general = median(times.general);
  return { pairs, general, ratio: pairs / general };
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const rounds = envInt('BENCH_DOCS_ROUNDS', 15);
  const synthOps = envInt('BENCH_DOCS_SYNTH_OPS', 10_000);
  const profileDir = process.env.BENCH_CPU_PROF || undefined;
  const results: CatalogueResult[] = [];

  // GitHub, as bundled.
  const bundled = await loadBundledCatalog();
  const gh = bundled.catalog.get('github', 'v1')!;
  ctx.log(`github@v1: ${gh.operations.length} operations, Catalog.load ${msAuto(bundled.loadMs)} ms`);
  const ghBuild = await buildRepeatedly(bundled.catalog, 'github', 5);
  ctx.log(`github@v1 docs index: build ${ghBuild.times.map((t) => msAuto(t)).join(' / ')} ms, kept ${ghBuild.keptTimes.map((t) => msAuto(t)).join(' / ')} ms, retains ${mib(ghBuild.heapBytes)}`);
  const ghBm25 = baselineOf(bundled.catalog, 'github', ghBuild.index);
  const ghKinds: KindResult[] = [];
  for (const [kind, workload] of [
    ['intent', GITHUB_INTENTS.map((query) => ({ query }))],
    ['long', LONG_QUERIES.map((query) => ({ query }))],
    ['exact', GITHUB_EXACT],
    ['browse', GITHUB_BROWSE],
  ] as [Kind, SearchArgs[]][]) {
    ghKinds.push(await measureKind(ctx, ghBuild.index, ghBm25, kind, workload, rounds, profileDir && kind === 'intent' ? { dir: profileDir, file: 'search-docs-github.cpuprofile' } : undefined));
  }
  const pairsCost = wordPairsCost(ghBuild.index, GITHUB_INTENTS, rounds);
  ctx.log(`word pairs on GitHub intents: p50 ${msAuto(pairsCost.pairs)} ms with them, ${msAuto(pairsCost.general)} ms with the general model`);
  results.push({
    key: 'github',
    pairsCost,
    label: `GitHub (\`github@v1\`, ${int(gh.operations.length)} operations)`,
    operations: gh.operations.length,
    loadMs: bundled.loadMs,
    extra: `Catalog.load of the bundled catalogue (demo-crm + github, ${int(Object.keys(gh.schemas).length)} GitHub component schemas): ${msAuto(bundled.loadMs)} ms`,
    buildMs: ghBuild.times,
    keptBuildMs: ghBuild.keptTimes,
    diskBuildMs: ghBuild.diskTimes,
    indexHeapBytes: ghBuild.heapBytes,
    kinds: ghKinds,
  });
  await bundled.store.close();

  // Synthetic service, imported-style.
  const synth = await loadSyntheticCatalog(synthOps);
  const so = synth.index.operations;
  ctx.log(
    `${SYNTH_SERVICE}@v1 (synthetic): ${so.length} operations; generate ${msAuto(synth.generateMs)} ms, normalizeService ${msAuto(synth.normalizeMs)} ms, Catalog.load ${msAuto(synth.loadMs)} ms (${mib(synth.indexBytes)} index)`,
  );
  const synthBuild = await buildRepeatedly(synth.catalog, SYNTH_SERVICE, 3);
  ctx.log(`${SYNTH_SERVICE}@v1 docs index: build ${synthBuild.times.map((t) => msAuto(t)).join(' / ')} ms, retains ${mib(synthBuild.heapBytes)}`);
  const synthBm25 = baselineOf(synth.catalog, SYNTH_SERVICE, synthBuild.index);
  const synthKinds: KindResult[] = [];
  for (const [kind, workload] of [
    ['intent', SYNTH_INTENTS.map((query) => ({ query }))],
    // (A smaller BENCH_DOCS_SYNTH_OPS may not generate every listed operation.)
    ['exact', SYNTH_EXACT.filter((a) => synth.catalog.operation(SYNTH_SERVICE, 'v1', a.operationId!))],
    ['browse', SYNTH_BROWSE],
  ] as [Kind, SearchArgs[]][]) {
    synthKinds.push(await measureKind(ctx, synthBuild.index, synthBm25, kind, workload, rounds, profileDir && kind === 'intent' ? { dir: profileDir, file: 'search-docs-synthetic.cpuprofile' } : undefined));
  }
  const avg = (f: (o: (typeof so)[number]) => number) => so.reduce((s, o) => s + f(o), 0) / so.length;
  results.push({
    key: 'synth',
    label: `synthetic (\`${SYNTH_SERVICE}@v1\`, ${int(so.length)} operations)`,
    operations: so.length,
    loadMs: synth.loadMs,
    extra:
      `generated OpenAPI 3.1 document (seeded; ${int(Object.keys(synth.index.schemas).length)} component schemas; summaries ${avg((o) => o.summary.length).toFixed(0)} chars, descriptions ${avg((o) => o.description.length).toFixed(0)} chars, ${avg((o) => o.parameters.length).toFixed(1)} parameters per operation on average) → ` +
      `normalizeService ${msAuto(synth.normalizeMs)} ms → ${mib(synth.indexBytes)} index JSON → Catalog.load ${msAuto(synth.loadMs)} ms`,
    buildMs: synthBuild.times,
    keptBuildMs: synthBuild.keptTimes,
    diskBuildMs: synthBuild.diskTimes,
    indexHeapBytes: synthBuild.heapBytes,
    kinds: synthKinds,
  });
  await synth.store.close();

  return report(results, rounds, Boolean(profileDir));
}

function report(results: CatalogueResult[], rounds: number, profiled: boolean): BenchResult {
  const out: string[] = [];
  const goalOf = (c: CatalogueResult) => (c.key === 'github' ? GOALS.github : GOALS.synth);
  const verdict = (met: boolean) => (met ? 'met' : '**missed**');
  out.push(
    '`DocsIndex.run` — the whole search_docs answer as the MCP tool builds it, minus the MCP transport (see `mcp-server` for the same queries end to end) — ' +
      'on the bundled GitHub catalogue and on a synthetic 10,000-operation service (`test/bench/lib/docs-workload.ts`: a seeded OpenAPI document with varied summaries, markdown descriptions, scoped paths, path/query/header parameters, request bodies and `$ref` schemas, normalised by `normalizeService` and loaded by `Catalog.load` like an imported service). ' +
      'Baselines on the same operations in the same rounds: for intent queries plain BM25 (`bm25Baseline` in `test/search-eval/evaluate.ts`: MiniSearch with its default settings over each operation\'s id, summary, description, path and tags, one OR query, the top 3 kept), the textbook full-text search that search_docs\' ranking is measured against in `search-quality`; for exact lookups and browse one `JSON.stringify` of the same answer.',
  );
  out.push('');
  out.push(
    `Method: ${rounds} rounds after 2 warm-up rounds; every round runs each query once for search_docs and once for the baseline, alternating which goes first; ` +
      '`callable` always answers true. Percentiles are over all samples (queries × rounds); "added" is paired per query and round. ' +
      'First calls (before warm-up) are reported separately: they build dereferenced sections (cached afterwards, 512 entries process-wide) and warm the code.',
  );
  if (profiled) out.push('', '**Profiled run** (BENCH_CPU_PROF): the intent rounds ran under the sampling profiler; figures are slower than unprofiled runs.');
  out.push('');

  out.push('### Goals (issue 26)', '');
  const goalRows: string[][] = [];
  // The same goals, a few words each, for the row in BENCHMARKS.md.
  const checks: { goal: string; measured: string; met: boolean }[] = [];
  for (const c of results) {
    const who = c.key === 'github' ? 'GitHub' : `${int(c.operations)} ops`;
    for (const k of c.kinds.filter((k) => hasGoal(k.kind))) {
      const met = k.subject.p50 <= goalOf(c);
      goalRows.push([`${c.key === 'github' ? 'GitHub' : `${int(c.operations)} operations`}, ${KIND_LABEL[k.kind]}`, `${msAuto(k.subject.p50)} ms (p99 ${msAuto(k.subject.p99)} ms)`, `p50 ≤ ${goalOf(c)} ms`, verdict(met)]);
      checks.push({ goal: `${who} ${k.kind} p50 ≤ ${goalOf(c)} ms`, measured: `${msAuto(k.subject.p50)} ms`, met });
    }
    if (c.key === 'github') {
      const build = median(c.buildMs);
      goalRows.push([`GitHub, docs index build (\`buildDocsIndex\`, from nothing)`, `${msAuto(build)} ms (median of ${c.buildMs.length}; first, on cold code, ${msAuto(c.buildMs[0]!)} ms)`, `≤ ${GOALS.githubBuild} ms`, verdict(build <= GOALS.githubBuild)]);
      goalRows.push([`GitHub, docs index after a restart (analyses kept on disk)`, `${msAuto(median(c.diskBuildMs))} ms (median of ${c.diskBuildMs.length})`, 'not analysed at every start', verdict(median(c.diskBuildMs) < build)]);
      goalRows.push([`GitHub, docs index of a second MCP version over the same catalogue version (kept)`, `${msAuto(median(c.keptBuildMs))} ms (median of ${c.keptBuildMs.length})`, 'built once per catalogue version', verdict(median(c.keptBuildMs) < build / 5)]);
      checks.push({ goal: `GitHub build ≤ ${GOALS.githubBuild} ms`, measured: `${msAuto(build)} ms`, met: build <= GOALS.githubBuild });
    }
  }
  out.push(table(['catalogue, measure', 'measured', 'goal', 'verdict'], goalRows, ['l', 'r', 'r', 'l']));
  out.push('', 'Request goals are search_docs p50 in process; the build goal is the median of the builds from nothing (each after `forgetDocsIndexCaches()`, as in a new process; the first also on cold code). An index is kept per catalogue version (by the hash of its operations\' text), so another MCP version over it reuses the work: the "kept" row.');
  out.push('');

  for (const c of results) {
    out.push(`### ${c.label}`, '');
    if (c.pairsCost) out.push(`Word pairs (src/docs/word-pairs.ts, the catalogues they were learned on only): the ${GITHUB_INTENTS.length} intent queries, each run with them and with the general model back to back, ${rounds} rounds: p50 ${msAuto(c.pairsCost.pairs)} ms against ${msAuto(c.pairsCost.general)} ms (${c.pairsCost.ratio.toFixed(2)}×).`, '');
    out.push(`${c.extra}. Docs index build (\`buildDocsIndex\`, ${c.buildMs.length} builds from nothing): ${c.buildMs.map((t) => `${msAuto(t)} ms`).join(', ')} (median ${msAuto(median(c.buildMs))} ms); after a restart with the analyses on disk: ${c.diskBuildMs.map((t) => `${msAuto(t)} ms`).join(', ')}; kept, for a second MCP version: ${c.keptBuildMs.map((t) => `${msAuto(t)} ms`).join(', ')}; the index retains ${mib(c.indexHeapBytes)} of heap (after a full GC).`);
    out.push('');
    out.push(
      table(
        ['request', 'samples', 'search_docs p50 / p90 / p99 / max ms', 'baseline', 'baseline p50 / p99 ms', 'added p50 / p99 ms', 'of which ranking p50 / p99 ms', 'of which JSON.stringify (budget checks) p50 / p99 ms', 'first call p50 / max ms', 'other load (cores)'],
        c.kinds.map((k) => [
          `${KIND_LABEL[k.kind]} (${k.queries})`,
          int(k.subject.n),
          `${msAuto(k.subject.p50)} / ${msAuto(k.subject.p90)} / ${msAuto(k.subject.p99)} / ${msAuto(k.subject.max)}`,
          isQuery(k.kind) ? 'plain BM25 (MiniSearch defaults, OR)' : 'JSON.stringify(answer)',
          `${msAuto(k.baseline.p50)} / ${msAuto(k.baseline.p99)}`,
          `${msAuto(k.added.p50)} / ${msAuto(k.added.p99)}`,
          k.inside ? `${msAuto(k.inside.p50)} / ${msAuto(k.inside.p99)}` : '–',
          `${msAuto(k.stringify.p50)} / ${msAuto(k.stringify.p99)}`,
          `${msAuto(k.firstCalls.p50)} / ${msAuto(k.firstCalls.max)}`,
          k.foreignCores.toFixed(2),
        ]),
        ['l', 'r', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
      ),
    );
    out.push('');
    out.push(`<details><summary>Per query (${c.label.replace(/`/g, '')}): medians over ${rounds} rounds</summary>`, '');
    for (const k of c.kinds) {
      out.push(
        table(
          [KIND_LABEL[k.kind], 'search_docs p50 ms', 'baseline p50 ms', ...(isQuery(k.kind) ? ['of which ranking ms'] : []), 'of which JSON.stringify ms (calls)', 'first call ms', 'answer', 'result'],
          k.perQuery.map((q) => [
            q.label,
            msAuto(q.subjectP50),
            msAuto(q.baselineP50),
            ...(isQuery(k.kind) ? [msAuto(q.insideP50)] : []),
            `${msAuto(q.stringifyP50)} (${q.stringifyCalls})`,
            msAuto(q.first),
            kib(q.bytes),
            q.top.replace(/\|/g, '\\|'),
          ]),
          ['l', 'r', 'r', ...(isQuery(k.kind) ? (['r'] as const) : []), 'r', 'r', 'r', 'l'],
        ),
      );
      out.push('');
    }
    out.push('</details>', '');
  }
  out.push(
    'Reading the tables: "of which ranking" is the time spent inside the index\'s `Ranker.search` (src/docs/rank.ts) during an intent query — reading the query, widening terms through abbreviations, acronyms and word vectors, and scoring every candidate operation; it is called once, or twice when a service the query names has no match for the rest; ' +
      '"of which JSON.stringify" is the time spent serialising inside search_docs — its 64 KiB budget checks re-serialise the answer built so far after each inlined section (intent, exact) or each listed operation (browse), with the number of calls per request; ' +
      'the rest is spotting service names in the query, result assembly and building/copying sections (dereferenced sections are cached). ' +
      'The plain BM25 baseline is one OR query over an index of its own (built once, outside the timings), with no query reading, expansion or structure, and returns bare IDs: it shows what a textbook full-text search costs on the same operations, not a lower bound on search_docs. ' +
      'Queries at the 500-character limit (no goal; the worst an agent can send): plain BM25 looks up a repeated term again for every repeat.',
  );
  out.push('');
  out.push(
    'Reproduce: `npm run bench -- search-docs` (knobs: BENCH_DOCS_ROUNDS, BENCH_DOCS_SYNTH_OPS). Where the time goes: `BENCH_CPU_PROF=/tmp/prof npm run bench -- search-docs` (the reports are left unchanged), then `node test/bench/lib/profile-summary.ts /tmp/prof/search-docs-github.cpuprofile`.',
  );
  return {
    report: out.join('\n'),
    summary: { goal: checks.map((c) => c.goal).join('; '), measured: checks.map((c) => c.measured).join('; '), verdict: verdictOf(checks.map((c) => c.met)) },
  };
}
