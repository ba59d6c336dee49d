// Child side of the import-corpus bench: imports one OpenAPI document per message into a fresh
// in-memory Engine catalog (the Engine's own Catalog.import, as POST /v1/services/import does) and
// answers with the outcome, the time it took and the process's peak RSS so far.
import { readFileSync } from 'node:fs';
import { Catalog, CatalogError } from '../../../src/catalog/index.ts';
import { SqliteStore } from '../../../src/store/index.ts';

export interface ImportJob {
  file: string;
  service: string;
}

export interface ImportOutcome {
  file: string;
  /** 'imported', 'refused' (a 4xx CatalogError) or 'failed' (anything else: a 500). */
  result: 'imported' | 'refused' | 'failed';
  operations: number;
  omitted: { reason: string }[];
  warnings: number;
  message?: string;
  ms: number;
  maxRssBytes: number;
}

process.on('message', async (job: ImportJob) => {
  const store = new SqliteStore(':memory:');
  const t0 = performance.now();
  let outcome: Omit<ImportOutcome, 'ms' | 'maxRssBytes'>;
  try {
    const catalog = await Catalog.load(store);
    const index = await catalog.import({ service: job.service, version: 'v1', document: readFileSync(job.file, 'utf8') });
    outcome = { file: job.file, result: 'imported', operations: index.operations.length, omitted: (index.omitted ?? []).map((o) => ({ reason: o.reason })), warnings: index.warnings?.length ?? 0 };
  } catch (err) {
    outcome = { file: job.file, result: err instanceof CatalogError ? 'refused' : 'failed', operations: 0, omitted: [], warnings: 0, message: (err as Error).message?.slice(0, 500) ?? String(err) };
  }
  const ms = performance.now() - t0;
  await store.close();
  process.send!({ ...outcome, ms, maxRssBytes: process.resourceUsage().maxRSS * 1024 } satisfies ImportOutcome);
});
process.send!({ ready: true });
