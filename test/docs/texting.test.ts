// Texting short forms read as the words they stand for (src/docs/texting.ts).
import { describe, expect, it } from 'vitest';
import { spelledOut } from '../../src/docs/texting.ts';

const read = (text: string, written: (form: string) => boolean = () => false) => {
  const changes: string[] = [];
  return { text: spelledOut(text, written, (from, to) => changes.push(`${from}→${to}`)), changes };
};

describe('spelledOut', () => {
  it('reads short forms as the words they stand for', () => {
    expect(read('pls mute notifs for the mtg tmrw')).toEqual({ text: 'please mute notifications for the meeting tomorrow', changes: ['pls→please', 'notifs→notifications', 'mtg→meeting', 'tmrw→tomorrow'] });
    expect(read('book appt w/ dana, w/o a room').text).toBe('book appointment with dana, without a room');
    expect(read('Pls dm alex').text).toBe('Please direct message alex');
  });

  it('leaves names, paths, identifiers, capitals and what the catalogue writes itself as written', () => {
    expect(read('star u/alex and acme/w/o and msg_9 and #msg').changes).toEqual([]);
    expect(read('merge PR 5 for U2 and UR').changes).toEqual([]);
    expect(read('show user info', (form) => form === 'info').changes).toEqual([]);
    expect(read('create a cal event', (form) => form === 'cal').text).toBe('create a cal event');
  });

  it('keeps what the caller keeps (quoted text)', () => {
    expect(spelledOut("post 'thx u' in #general", () => false, () => {}, (at) => at >= 5 && at < 12)).toBe("post 'thx u' in #general");
  });
});
