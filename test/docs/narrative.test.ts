// Clauses that tell what happened (src/docs/narrative.ts).
import { describe, expect, it } from 'vitest';
import { isPastForm, MISTAKEN, toldVerbAt } from '../../src/docs/narrative.ts';

const told = (clause: string) => toldVerbAt(clause.split(' '));

describe('told clauses', () => {
  it('finds the verb of a teller and of a thing that was done to', () => {
    expect(told('i put the urgent tag on task 999 by mistake')).toBe(1);
    expect(told('someone accidentally archived libcat')).toBe(2);
    expect(told('task a was marked as waiting on task b')).toBe(3);
  });

  it('finds none in a request, a present tense or a relative clause', () => {
    expect(told('i need to delete the branch')).toBe(-1);
    expect(told('we want the old board gone')).toBe(-1);
    expect(told('list the issues that were closed')).toBe(-1);
    expect(told('list what was touched')).toBe(-1);
    expect(told('delete the branch was merged')).toBe(-1);
    expect(told('delete it')).toBe(-1);
  });

  it('knows past forms and words for a mistake', () => {
    expect(['deleted', 'put', 'took', 'sent'].every(isPastForm)).toBe(true);
    expect(['delete', 'red'].some(isPastForm)).toBe(false);
    expect(MISTAKEN.test('closed it too early')).toBe(true);
    expect(MISTAKEN.test('posted in error')).toBe(true);
    expect(MISTAKEN.test('close it early')).toBe(false);
  });
});
