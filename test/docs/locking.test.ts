// No more comments on a thing (src/docs/locking.ts) locks its conversation.
import { describe, expect, it } from 'vitest';
import { noMoreCommentsAsLocking } from '../../src/docs/locking.ts';
import { Ranker } from '../../src/docs/rank.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

describe('no more comments', () => {
  it('reads stopping further comments or replies as locking the conversation', () => {
    expect(noMoreCommentsAsLocking('Stop any more comments on it')).toBe('lock the conversation on it');
    expect(noMoreCommentsAsLocking('can I stop people from adding more comments to issue 404?')).toBe('can I lock the conversation to issue 404?');
    expect(noMoreCommentsAsLocking('I want issue #210 to stop getting new comments')).toBe('I want issue #210 to lock the conversation');
    expect(noMoreCommentsAsLocking('stop the comment notifications')).toBe('stop the comment notifications');
  });

  it('answers it with the lock, not a comment', () => {
    const ranker = new Ranker([
      op('g.issues/lock', 'PUT', '/repos/{owner}/{repo}/issues/{issue_number}/lock', 'Lock an issue', { description: "Users with push access can lock an issue or pull request's conversation." }),
      op('g.issues/create-comment', 'POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'Create an issue comment'),
      op('g.issues/list-comments', 'GET', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'List issue comments', { returnsList: true }),
    ]);
    expect(ranker.search('The thread on issue #45 is getting heated, stop any more comments on it.', 3)[0]!.id).toBe('g.issues/lock');
  });
});
