// Acronyms a catalogue names operations by and writes out (src/docs/written-acronyms.ts).
import { describe, expect, it } from 'vitest';
import { Ranker } from '../../src/docs/rank.ts';
import { withWrittenAcronyms, writtenAcronyms } from '../../src/docs/written-acronyms.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

const operations = [
  op('sl.dnd_info', 'GET', '/dnd.info', "Retrieves a user's current Do Not Disturb status."),
  op('sl.users_info', 'GET', '/users.info', 'Gets information about a user.'),
  op('sl.users_setPresence', 'POST', '/users.setPresence', 'Manually sets user presence.'),
  op('sl.set_info', 'GET', '/set.info', 'Gets the Set Entry Token: a set of things.'),
];

describe('acronyms the catalogue writes out', () => {
  it('finds a short word of IDs and paths written out as capitalised words with its letters, never one the text writes alone', () => {
    expect(writtenAcronyms(operations).map(({ acronym }) => acronym)).toEqual(['dnd']);
  });

  it('reads the phrase, with spaces or hyphens, as the acronym', () => {
    const acronyms = writtenAcronyms(operations);
    expect(withWrittenAcronyms('Is Tom on do-not-disturb right now?', acronyms)).toBe('Is Tom on dnd right now?');
    expect(withWrittenAcronyms('please do not disturb me', acronyms)).toBe('please dnd me');
    expect(withWrittenAcronyms('do not delete it', acronyms)).toBe('do not delete it');
  });

  it('answers the phrase with the operations named by the acronym', () => {
    expect(new Ranker(operations).search('Are Maya, Tom or Raj on do-not-disturb right now?', 3)[0]!.id).toBe('sl.dnd_info');
  });
});
