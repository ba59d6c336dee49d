// Words and stems (src/docs/text.ts), the same for the catalogue and for queries.
import { describe, expect, it } from 'vitest';
import { stemOf, textStems } from '../../src/docs/text.ts';

describe('stemOf', () => {
  it('stems an irregular past form as its verb, so "to be sent" meets "send" and "paid" meets "pay"', () => {
    expect(stemOf('sent')).toBe(stemOf('send'));
    expect(stemOf('paid')).toBe(stemOf('pay'));
    expect(stemOf('wrote')).toBe(stemOf('write'));
    expect(textStems('Schedules a message to be sent to a channel')).toContain(stemOf('send'));
  });

  it('keeps the past forms read more often as words of their own ("done" as a state, "found")', () => {
    expect(stemOf('done')).toBe('done');
    expect(stemOf('found')).toBe('found');
  });

  it('keeps a plural in -ings a noun of its own, not its verb', () => {
    expect(stemOf('settings')).not.toBe(stemOf('set'));
  });
});
