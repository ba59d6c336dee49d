// People "open" at a time (src/docs/free-time.ts) are free then.
import { describe, expect, it } from 'vitest';
import { openAsFree } from '../../src/docs/free-time.ts';

describe('people open at a time', () => {
  it('reads "open" after the people it describes and before a time as free', () => {
    expect(openAsFree('when are Sam and I both open Thursday afternoon?')).toBe('when are Sam and I both free Thursday afternoon?');
    expect(openAsFree('a slot where both are open.')).toBe('a slot where both are free.');
    expect(openAsFree("I'm open tomorrow")).toBe("I'm free tomorrow");
  });

  it('leaves "open" as a thing\'s state or a verb', () => {
    expect(openAsFree('what PRs are open in acme/api')).toBe('what PRs are open in acme/api');
    expect(openAsFree('list all open issues')).toBe('list all open issues');
    expect(openAsFree('which dashboards can I open?')).toBe('which dashboards can I open?');
  });
});
