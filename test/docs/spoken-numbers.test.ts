// Numbers said in words read as digits where they name a thing (src/docs/spoken-numbers.ts).
import { describe, expect, it } from 'vitest';
import { digitsFor, spokenValue } from '../../src/docs/spoken-numbers.ts';

const digits = (text: string) => {
  const changes: string[] = [];
  return { text: digitsFor(text, (from, to) => changes.push(`${from}→${to}`)), changes };
};

describe('spokenValue', () => {
  it.each([
    ['seven', 7],
    ['nineteen', 19],
    ['forty two', 42],
    ['forty-two', 42],
    ['three hundred and twelve', 312],
    ['nine hundred ninety nine', 999],
  ])('reads %j as %i', (said, value) => {
    expect(spokenValue(said)).toBe(value);
  });

  it.each(['seven seven', 'twenty thirty', 'twelve three', 'twenty hundred'])('makes no number of %j', (said) => {
    expect(spokenValue(said)).toBeUndefined();
  });
});

describe('digitsFor', () => {
  it('writes a number that names a thing in digits: at the end, before punctuation or a preposition', () => {
    expect(digits('close issue forty two')).toEqual({ text: 'close issue 42', changes: ['forty two→42'] });
    expect(digits('merge PR number seven into main, then tag it')).toEqual({ text: 'merge PR number 7 into main, then tag it', changes: ['seven→7'] });
    expect(digits('what is on issue twelve?').text).toBe('what is on issue 12?');
  });

  it('leaves a count before a noun and a lone "one" as words', () => {
    for (const text of ['compare two branches', 'the last five runs', 'create one', 'the one I posted', 'issue one']) expect(digits(text)).toEqual({ text, changes: [] });
  });
});
