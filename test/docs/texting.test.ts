// Texting short forms read as the words they stand for (src/docs/texting.ts), as correctSpelling
// (src/docs/spelling.ts) reads them: outside quotes, unless the catalogue writes the form itself.
import { describe, expect, it } from 'vitest';
import { correctSpelling, type SpellingLexicon } from '../../src/docs/spelling.ts';
import { stemOf } from '../../src/docs/text.ts';

/** A catalogue that writes `written` itself; every other word is known English, so nothing reads as mistyped. */
const catalogue = (...written: string[]): SpellingLexicon => ({ uses: (stem) => (written.some((w) => stemOf(w) === stem) ? 1 : 0), englishRank: () => 0 });

const read = (text: string, lexicon: SpellingLexicon = catalogue()) => {
  const { query, corrections } = correctSpelling(text, lexicon);
  return { text: query, changes: corrections.map(({ from, to }) => `${from}→${to}`) };
};

describe('texting short forms', () => {
  it('reads short forms as the words they stand for', () => {
    expect(read('pls mute notifs for the mtg tmrw')).toEqual({ text: 'please mute notifications for the meeting tomorrow', changes: ['pls→please', 'notifs→notifications', 'mtg→meeting', 'tmrw→tomorrow'] });
    expect(read('book appt w/ dana, w/o a room').text).toBe('book appointment with dana, without a room');
    expect(read('Pls dm alex').text).toBe('Please direct message alex');
    expect(read("I'm drowning in to-dos").text).toBe("I'm drowning in todos");
    expect(read('+1 SUP-99, we need this').text).toBe('upvote SUP-99, we need this');
    expect(read('text +1 415 555 0100 the code').text).toBe('text +1 415 555 0100 the code');
  });

  it("reads the shell's commands typed as verbs, unless the catalogue writes the word itself", () => {
    expect(read('ls my tasks').text).toBe('list my tasks');
    expect(read("grep slack for 'release candidate'").text).toBe("search slack for 'release candidate'");
    expect(read('whoami').text).toBe('who am I');
    expect(read('rm src/ls and ./grep').text).toBe('remove src/ls and ./grep');
    expect(read('grep the logs', catalogue('grep')).changes).toEqual([]);
  });

  it('leaves names, paths, identifiers, capitals and what the catalogue writes itself as written', () => {
    expect(read('star u/alex and acme/w/o and msg_9 and #msg').changes).toEqual([]);
    expect(read('merge PR 5 for U2 and UR').changes).toEqual([]);
    expect(read('show user info', catalogue('info')).changes).toEqual([]);
    expect(read('create a cal event', catalogue('cal')).text).toBe('create a cal event');
  });

  it('reads "DM" in capitals too, and in full even where the catalogue writes it: it stands for nothing else', () => {
    expect(read('start a DM with Ana').text).toBe('start a direct message with Ana');
    expect(read('check my DMs', catalogue('dm')).text).toBe('check my direct messages');
    expect(read('start a dm with alice', catalogue('dm')).text).toBe('start a direct message with alice');
  });

  it('keeps quoted text as written', () => {
    expect(read("post 'thx u' in #general").text).toBe("post 'thx u' in #general");
  });
});
