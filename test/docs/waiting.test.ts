// Work waiting on other work (src/docs/waiting.ts): the query implies the catalogue's word for a dependency.
import { describe, expect, it } from 'vitest';
import { Ranker } from '../../src/docs/rank.ts';
import { waitsOnWork } from '../../src/docs/waiting.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

const ASANA = new Ranker([
  op('as.getTask', 'GET', '/tasks/{task_gid}', 'Get a task'),
  op('as.getProjectsForTask', 'GET', '/tasks/{task_gid}/projects', 'Get projects a task is in', { returnsList: true }),
  op('as.getDependenciesForTask', 'GET', '/tasks/{task_gid}/dependencies', 'Get dependencies from a task', { returnsList: true }),
]);

describe('work waiting on other work', () => {
  it('reads waiting, blocking and depending on a thing, not on a person or inside a comment', () => {
    for (const q of ['what is task 1205 waiting on', "this task can't start until the spec is finished", 'blocked by PROJ-3', 'it depends on the API work']) {
      expect(waitsOnWork(q)).toBe(true);
    }
    for (const q of ['show me the PRs waiting on me', 'comment on the onboarding task: waiting on legal', 'wait until tomorrow']) {
      expect(waitsOnWork(q)).toBe(false);
    }
  });

  it('answers what a task waits on with its dependencies', () => {
    expect(ASANA.search('what is task 1205 waiting on', 3)[0]!.id).toBe('as.getDependenciesForTask');
  });
});
