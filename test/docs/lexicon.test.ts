// The verb lexicon (src/docs/lexicon.ts): how a query's verb says what to do.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/docs/query.ts';

describe('verb lexicon', () => {
  it('reads sharing and subscribing as making a grant or a subscription', () => {
    expect(parseQuery('share my calendar with my assistant').action).toBe('create');
    expect(parseQuery('subscribe me to the team holidays calendar').action).toBe('create');
  });

  it('reads a creating verb with a prefix that undoes it as removing what it made', () => {
    expect(parseQuery('unsubscribe from the holidays calendar').action).toBe('delete');
    expect(parseQuery('unsend that message').action).toBe('delete');
    expect(parseQuery('deregister the runner').action).toBe('delete');
    // A word that only starts like one ("describe", "design") keeps its own reading.
    expect(parseQuery('describe the repo').action).toBe('get');
  });

  it('reads a phrasal verb in any of its forms, joined or around its object', () => {
    expect(parseQuery('tear webhook 4321 down').action).toBe('delete');
    expect(parseQuery('sign alex out of every session').action).toBe('delete');
    expect(parseQuery('could you try taking bob off the repo').action).toBe('delete');
    expect(parseQuery('we took alex off the team').action).toBe('delete');
    expect(parseQuery('roll back the release').action).toBe('update');
    expect(parseQuery('back up the wiki').action).toBe('create');
    // "tear" alone, or "down" with no verb of its own, is no phrasal verb.
    expect(parseQuery('show the tear in the log').action).not.toBe('delete');
  });
});
