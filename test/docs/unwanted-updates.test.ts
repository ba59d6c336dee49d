// Updates no longer wanted (src/docs/unwanted-updates.ts) ask to stop watching.
import { describe, expect, it } from 'vitest';
import { Ranker } from '../../src/docs/rank.ts';
import { unwantedUpdatesAsUnwatching } from '../../src/docs/unwanted-updates.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

describe('updates no longer wanted', () => {
  it('reads not wanting updates, notifications or emails, or asking them to stop, as stop watching', () => {
    expect(unwantedUpdatesAsUnwatching("I don't need updates on PA-12 anymore")).toBe('I stop watching on PA-12 anymore');
    expect(unwantedUpdatesAsUnwatching("I don't want any more notifications from acme/monorepo")).toBe('I stop watching from acme/monorepo');
    expect(unwantedUpdatesAsUnwatching('stop sending me notifications about that issue')).toBe('stop watching about that issue');
    expect(unwantedUpdatesAsUnwatching('send me notifications about that issue')).toBe('send me notifications about that issue');
  });

  it('answers them with removing the one asking as a watcher', () => {
    const ranker = new Ranker([
      op('j.removeWatcher', 'DELETE', '/issue/{issueIdOrKey}/watchers', 'Delete watcher'),
      op('j.deleteIssue', 'DELETE', '/issue/{issueIdOrKey}', 'Delete issue'),
      op('j.getIssue', 'GET', '/issue/{issueIdOrKey}', 'Get issue'),
    ]);
    expect(ranker.search("I don't need updates on PA-12 anymore, take me off it.", 3)[0]!.id).toBe('j.removeWatcher');
  });
});
