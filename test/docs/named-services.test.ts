// A service the query names ("… on GitHub") is taken out of what is ranked; the rest is ranked as
// written, so a value in it (a slug, an email address, a tracker key) stays one value.
import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/index.ts';
import { Catalog } from '../../src/catalog/index.ts';
import { buildDocsIndex } from '../../src/docs/index.ts';

describe('search_docs, a service named in the query', () => {
  it('ranks the rest of the query as written: a slug stays a slug', async () => {
    const store = new SqliteStore(':memory:');
    try {
      const catalog = await Catalog.load(store);
      const ids = catalog.get('github', 'v1')!.operations.map((o) => o.id);
      const docs = buildDocsIndex(catalog, new Map([['github', 'v1']]), ids);
      const ranked = (query: string) => (docs.run({ query, limit: 5 }, () => true) as { results: { operationId: string }[] }).results.map((r) => r.operationId);
      for (const query of ['star acme/api', 'delete the webhook 12 of acme/api']) {
        expect(ranked(`${query} on GitHub`)).toEqual(ranked(query));
        expect(ranked(`GitHub: ${query}`)).toEqual(ranked(query));
      }
    } finally {
      await store.close();
    }
  });
});
