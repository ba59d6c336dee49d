// The docs index is built once per catalogue version, not once per MCP version: an operation's
// analysis is keyed by the hash of its text, a ranker by the texts of its operations, so equal
// catalogues share them and a changed operation gets its own.
import { describe, expect, it } from 'vitest';
import { analysed } from '../../src/docs/analysis.ts';
import { Ranker } from '../../src/docs/rank.ts';
import { rankedOperation } from '../fixtures/ranked-operation.ts';
import { buildDocsIndex } from '../../src/docs/index.ts';
import { Catalog } from '../../src/catalog/index.ts';
import { SqliteStore } from '../../src/store/index.ts';

const op = (operationId: string, summary: string) => rankedOperation(operationId, 'GET', `/${operationId.slice(2)}`, summary, { returnsList: true });

describe('docs index cache', () => {
  it('shares one analysis between operations of equal text, and not with a changed one', () => {
    const first = analysed(op('x.tickets', 'List tickets'));
    expect(analysed(op('x.tickets', 'List tickets'))).toBe(first);
    expect(analysed(op('x.tickets', 'List open tickets'))).not.toBe(first);
  });

  it('shares one ranker between indexes over the same operation texts, in the same order', () => {
    const ops = () => [op('x.tickets', 'List tickets'), op('x.users', 'List users')];
    const ranker = Ranker.for(ops());
    expect(Ranker.for(ops())).toBe(ranker);
    expect(Ranker.for([ops()[0]!])).not.toBe(ranker);
    expect(Ranker.for([op('x.tickets', 'List tickets'), op('x.users', 'List the users')])).not.toBe(ranker);
  });

  it('builds the GitHub index once: a second MCP version over the same catalogue version reuses it', async () => {
    const store = new SqliteStore(':memory:');
    try {
      const catalog = await Catalog.load(store);
      const ids = catalog.get('github', 'v1')!.operations.map((o) => o.id);
      const one = buildDocsIndex(catalog, new Map([['github', 'v1']]), ids);
      const two = buildDocsIndex(catalog, new Map([['github', 'v1']]), ids);
      expect(two).not.toBe(one);
      expect((two as unknown as { ranker: Ranker }).ranker).toBe((one as unknown as { ranker: Ranker }).ranker);
      // The same answers from both.
      const query = { query: 'list the repositories of an organization' };
      expect(two.run(query, () => true)).toEqual(one.run(query, () => true));
      // A catalogue loaded again (a restart of the catalogue in this process) holds equal texts: the same ranker.
      const again = await Catalog.load(store);
      const three = buildDocsIndex(again, new Map([['github', 'v1']]), ids);
      expect((three as unknown as { ranker: Ranker }).ranker).toBe((one as unknown as { ranker: Ranker }).ranker);
    } finally {
      await store.close();
    }
  });
});
