// Light verbs (src/docs/light-verbs.ts): "make a copy of" says copy.
import { describe, expect, it } from 'vitest';
import { plainVerbs } from '../../src/docs/light-verbs.ts';
import { Ranker } from '../../src/docs/rank.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

describe('light verbs', () => {
  it('reads a light verb and the noun for an act as that noun\'s verb', () => {
    expect(plainVerbs('make a copy of the Onboarding project')).toBe('copy the Onboarding project');
    expect(plainVerbs('take a look at PR 5')).toBe('look PR 5');
    expect(plainVerbs('make my own copy of the modding-sdk repo')).toBe('copy the modding-sdk repo');
    expect(plainVerbs('make a new project called Hiring')).toBe('make a new project called Hiring');
    // A pronoun and a phrasal verb's particle are no light verb and noun.
    expect(plainVerbs('take her out of the acme org')).toBe('take her out of the acme org');
  });

  it('answers "make a copy of" with the catalogue\'s copy, not a new one', () => {
    const ranker = new Ranker([
      op('as.createProject', 'POST', '/projects', 'Create a project'),
      op('as.duplicateProject', 'POST', '/projects/{project_gid}/duplicate', 'Duplicate a project'),
      op('as.getProject', 'GET', '/projects/{project_gid}', 'Get a project'),
    ]);
    expect(ranker.search('make a copy of the Onboarding project', 3)[0]!.id).toBe('as.duplicateProject');
  });
});
