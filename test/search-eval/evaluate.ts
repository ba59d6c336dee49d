// Retrieval metrics over a list of intents: recall@1/3/5 (an expected operation is among the first k
// results) and MRR (the mean of 1/rank of the first expected result, 0 when it is not in the top 5),
// plus each query's latency. A Searcher is search_docs itself, or the plain BM25 baseline.
import MiniSearch from 'minisearch';
import type { OperationSpec } from '../../src/catalog/index.ts';
import type { DocsIndex } from '../../src/docs/index.ts';
import type { Intent } from './intents.ts';

export const DEPTH = 5;

export interface Searcher {
  /** The operation IDs found for `query`, best first, at most `k`. */
  search(query: string, k: number): string[];
}

export interface Outcome {
  intent: Intent;
  ranked: string[];
  /** 1-based rank of the first expected operation; 0 when it is not returned. */
  rank: number;
  ms: number;
}

export interface Metrics {
  intents: number;
  recallAt1: number;
  recallAt3: number;
  recallAt5: number;
  mrr: number;
}

/** search_docs as an agent calls it: DocsIndex.run with a query and a limit, the whole answer built. */
export function searchDocs(index: DocsIndex): Searcher {
  return {
    search: (query, k) => (index.run({ query, limit: k }, () => true) as { results: { operationId: string }[] }).results.map((r) => r.operationId),
  };
}

/** Plain BM25: MiniSearch with its default settings over each operation's text fields, OR-combined. */
export function bm25Baseline(operations: readonly OperationSpec[]): Searcher {
  const ms = new MiniSearch<{ id: string }>({ fields: ['id', 'summary', 'description', 'path', 'tags'], storeFields: [] });
  ms.addAll(operations.map((o) => ({ id: o.id, summary: o.summary, description: o.description, path: o.path, tags: o.tags.join(' ') })));
  return { search: (query, k) => ms.search(query).slice(0, k).map((h) => String(h.id)) };
}

/** Throws when an intent expects an operation the catalogue does not have. */
export function checkIntents(intents: readonly Intent[], operations: readonly OperationSpec[], where: string): void {
  const ids = new Set(operations.map((o) => o.id));
  for (const intent of intents) {
    const unknown = intent.expected.filter((id) => !ids.has(id));
    if (unknown.length) throw new Error(`${where}: intent '${intent.query}' expects unknown operation ${unknown.join(', ')}`);
  }
}

export function run(searcher: Searcher, intents: readonly Intent[]): Outcome[] {
  return intents.map((intent) => {
    const t0 = performance.now();
    const ranked = searcher.search(intent.query, DEPTH);
    const ms = performance.now() - t0;
    const at = ranked.findIndex((id) => intent.expected.includes(id));
    return { intent, ranked, rank: at + 1, ms };
  });
}

export function metrics(outcomes: readonly Outcome[]): Metrics {
  const n = outcomes.length || 1;
  const within = (k: number) => outcomes.filter((o) => o.rank > 0 && o.rank <= k).length / n;
  return {
    intents: outcomes.length,
    recallAt1: within(1),
    recallAt3: within(3),
    recallAt5: within(5),
    mrr: outcomes.reduce((sum, o) => sum + (o.rank ? 1 / o.rank : 0), 0) / n,
  };
}
