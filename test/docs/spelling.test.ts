// Mistyped words read as the catalogue's (src/docs/spelling.ts): one edit away, the catalogue's
// commonest first; names, values, derived and joined words left as written; the answer says so.
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/index.ts';
import { buildDocsIndex } from '../../src/docs/index.ts';
import { americanOf, correctionOf, correctSpelling, oneEditAway, type SpellingLexicon } from '../../src/docs/spelling.ts';
import { stemOf } from '../../src/docs/text.ts';
import { SqliteStore } from '../../src/store/index.ts';

/** A catalogue's stems with how many operations use each, and a little general English. */
function lexicon(catalogue: Record<string, number>, english: readonly string[] = []): SpellingLexicon {
  const uses = new Map(Object.entries(catalogue).map(([word, n]) => [stemOf(word), n]));
  return { uses: (stem) => uses.get(stem) ?? 0, englishRank: (word) => english.indexOf(word) };
}
const CATALOGUE = lexicon({ delete: 40, issue: 90, issues: 90, repository: 120, branch: 30, brace: 1, vote: 3, send: 5, site: 2, spam: 2 }, ['prima', 'offside', 'unsent', 'spammed', 'send', 'vote', 'site', 'spam']);

describe('oneEditAway', () => {
  it('makes every deletion, swap, change and insertion of one letter, and not the word itself', () => {
    const edits = oneEditAway('abc');
    for (const e of ['bc', 'ac', 'ab', 'bac', 'acb', 'xbc', 'abx', 'xabc', 'abcx']) expect(edits.has(e)).toBe(true);
    expect(edits.has('abc')).toBe(false);
    expect(edits.has('cab')).toBe(false); // two edits
  });
});

describe('correctionOf', () => {
  it.each([
    ['dleete', 'delete'], // two letters swapped
    ['isues', 'issues'], // one left out
    ['repositorry', 'repository'], // one added
    ['brench', 'branch'], // one changed
  ])('reads %j as the catalogue word %j', (typed, meant) => {
    expect(correctionOf(typed, CATALOGUE)).toBe(meant);
  });

  it('prefers the catalogue word more operations use when two are one edit away', () => {
    expect(correctionOf('brance', CATALOGUE)).toBe('branch');
  });

  it('leaves known words, short words and words nothing in the catalogue is near', () => {
    for (const word of ['delete', 'issue', 'isue', 'zzzzzz']) expect(correctionOf(word, CATALOGUE)).toBeUndefined();
  });

  it('offers no word of general English alone: a name one edit from one stays a name', () => {
    expect(correctionOf('priya', CATALOGUE)).toBeUndefined();
  });

  it('leaves a user name of an initial and a name, which no English word starts as ("bwells", not "wells")', () => {
    const names = lexicon({ well: 4, green: 3, rename: 2 });
    expect(correctionOf('bwells', names)).toBeUndefined();
    expect(correctionOf('jgreen', names)).toBeUndefined();
    // A letter typed twice at the start, or one left out after it, is still a typo.
    expect(correctionOf('ggreen', names)).toBe('green');
    expect(correctionOf('rname', names)).toBe('rename');
  });

  it.each(['unsend', 'upvote', 'offsite', 'spammer'])('leaves %j, a known word with a prefix or an ending, as written', (word) => {
    expect(correctionOf(word, CATALOGUE)).toBeUndefined();
  });
});

describe('correctSpelling', () => {
  it('corrects each mistyped word and lists what it read as what', () => {
    expect(correctSpelling('dleete the old isues on main', CATALOGUE)).toEqual({
      query: 'delete the old issues on main',
      corrections: [
        { from: 'dleete', to: 'delete' },
        { from: 'isues', to: 'issues' },
      ],
    });
  });

  it('leaves names, quoted text, identifiers, names in code and paths as written', () => {
    const query = 'Dleete "dleete isues" isues_42 parseIsues dleete.md src/dleete isues-tracker';
    expect(correctSpelling(query, CATALOGUE)).toEqual({ query, corrections: [] });
  });

  it('corrects ten words of a query at most', () => {
    const { corrections } = correctSpelling(Array.from({ length: 30 }, () => 'dleete').join(' '), CATALOGUE);
    expect(corrections).toHaveLength(10);
    // Texting short forms count against the same ten, and are read as typed beyond them.
    const typed = correctSpelling(Array.from({ length: 30 }, () => 'pls').join(' '), CATALOGUE);
    expect(typed.corrections).toHaveLength(10);
    expect(typed.query.split(' ').filter((w) => w === 'pls')).toHaveLength(20);
  });

  it('reads texting short forms as the words they stand for, and lists them', () => {
    expect(correctSpelling('pls dleete the old msg', CATALOGUE)).toEqual({
      query: 'please delete the old message',
      corrections: [
        { from: 'pls', to: 'please' },
        { from: 'msg', to: 'message' },
        { from: 'dleete', to: 'delete' },
      ],
    });
  });
});

describe('search_docs with a mistyped query', () => {
  it('ranks it as the corrected query, echoes the query as written and says what it read', async () => {
    const store = new SqliteStore(':memory:');
    try {
      const catalog = await Catalog.load(store);
      const docs = buildDocsIndex(catalog, new Map([['github', 'v1']]), catalog.get('github', 'v1')!.operations.map((o) => o.id));
      type Answer = { query: string; read_as?: { from: string; to: string }[]; results: { operationId: string }[] };
      const search = (query: string) => docs.run({ query, limit: 3 }, () => true) as Answer;
      const typed = search('dleete a repositry');
      expect(typed.query).toBe('dleete a repositry');
      expect(typed.read_as).toEqual([
        { from: 'dleete', to: 'delete' },
        { from: 'repositry', to: 'repository' },
      ]);
      expect(typed.results.map((r) => r.operationId)).toEqual(search('delete a repository').results.map((r) => r.operationId));
      expect(typed.results[0]!.operationId).toBe('github.repos/delete');
      expect(search('delete a repository').read_as).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

describe('americanOf', () => {
  const AMERICAN_CATALOGUE = lexicon({ organization: 50, authorize: 4, canceled: 3, color: 2, center: 2, license: 6, catalog: 2, analyze: 1, hour: 9 });
  it.each([
    ['organisation', 'organization'],
    ['authorised', 'authorized'],
    ['colours', 'colors'],
    ['centre', 'center'],
    ['licence', 'license'],
    ['catalogue', 'catalog'],
    ['analysed', 'analyzed'],
  ])('reads %j as the catalogue writes it, %j', (british, american) => {
    expect(americanOf(british, AMERICAN_CATALOGUE)).toBe(american);
  });

  it('leaves a word the catalogue has, and an ending whose American form the catalogue lacks', () => {
    expect(americanOf('organization', AMERICAN_CATALOGUE)).toBeUndefined();
    expect(americanOf('promise', AMERICAN_CATALOGUE)).toBeUndefined(); // "promize": not the catalogue's
    expect(americanOf('hours', AMERICAN_CATALOGUE)).toBeUndefined(); // "hors": not the catalogue's
  });

  it('corrects a British spelling general English knows, and says so', () => {
    expect(correctSpelling('list the members of an organisation', AMERICAN_CATALOGUE)).toEqual({
      query: 'list the members of an organization',
      corrections: [{ from: 'organisation', to: 'organization' }],
    });
  });
});

describe('contractions typed without their apostrophe', () => {
  it('are read as written English writes them, capitalised as typed, and listed', () => {
    expect(correctSpelling('Whats open? dont close it, im on it', CATALOGUE)).toEqual({
      query: "What's open? don't close it, i'm on it",
      corrections: [
        { from: 'Whats', to: "What's" },
        { from: 'dont', to: "don't" },
        { from: 'im', to: "i'm" },
      ],
    });
  });

  it('leave words of their own ("its", "ill", "wont", "lets") and quoted text as written', () => {
    const query = "its ill, lets go; wont say 'dont panic'";
    expect(correctSpelling(query, CATALOGUE)).toEqual({ query, corrections: [] });
  });
});

describe('numbers said in words', () => {
  it('are written in digits where they name a thing, not inside quotes, and listed', () => {
    expect(correctSpelling("close issue forty two and post 'back at five.' on it", CATALOGUE)).toEqual({
      query: "close issue 42 and post 'back at five.' on it",
      corrections: [{ from: 'forty two', to: '42' }],
    });
  });
});
