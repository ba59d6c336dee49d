// A tracker key (src/docs/keys.ts) names a thing of the resource the catalogue addresses by key.
import { describe, expect, it } from 'vitest';
import { takesTrackerKey } from '../../src/docs/keys.ts';
import { Ranker } from '../../src/docs/rank.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

describe('tracker keys', () => {
  it('are taken by the key parameter of the resource they name, not by another resource\'s', () => {
    expect(takesTrackerKey('/rest/api/3/issue/{issueIdOrKey}/comment', 'issu')).toBe(true);
    expect(takesTrackerKey('/rest/api/3/statuscategory/{idOrKey}', 'issu')).toBe(false);
    expect(takesTrackerKey('/rest/api/3/statuscategory/{idOrKey}', undefined)).toBe(true);
    expect(takesTrackerKey('/rest/api/3/status', 'issu')).toBe(false);
  });

  it('answer "what\'s the status of SUP-441?" with the issue, not a status category taken by key', () => {
    const ranker = new Ranker([
      op('jira.getIssue', 'GET', '/rest/api/3/issue/{issueIdOrKey}', 'Get issue'),
      op('jira.editIssue', 'PUT', '/rest/api/3/issue/{issueIdOrKey}', 'Edit issue'),
      op('jira.getStatusCategory', 'GET', '/rest/api/3/statuscategory/{idOrKey}', 'Get status category'),
    ]);
    expect(ranker.search("what's the status of SUP-441?", 3)[0]!.id).toBe('jira.getIssue');
  });
});
