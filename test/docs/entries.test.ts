// What search reads of a catalogue operation (src/docs/entries.ts), from the bundled GitHub catalogue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog, type ServiceIndex } from '../../src/catalog/index.ts';
import { physicalEntry } from '../../src/docs/entries.ts';
import { SqliteStore } from '../../src/store/index.ts';

let store: SqliteStore;
let github: ServiceIndex;

beforeAll(async () => {
  store = new SqliteStore(':memory:');
  github = (await Catalog.load(store)).get('github', 'v1')!;
});
afterAll(() => store.close());

describe('physicalEntry', () => {
  it("keeps the descriptions of an operation's parameters and body fields, cut short, for ranking to read", () => {
    const dispatch = github.operations.find((o) => o.id === 'github.actions/create-workflow-dispatch')!;
    const texts = physicalEntry(dispatch, github).fieldTexts ?? [];
    expect(texts.some((t) => /workflow file name/i.test(t))).toBe(true);
    expect(texts.every((t) => t.length <= 200)).toBe(true);
  });
});
