// Idioms read as the words catalogues write (src/docs/idioms.ts).
import { describe, expect, it } from 'vitest';
import { withIdiomsRead } from '../../src/docs/idioms.ts';
import { Ranker } from '../../src/docs/rank.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

/** Each query read as expected. */
const expectRead = (cases: [string, string][]) => {
  for (const [query, read] of cases) expect(withIdiomsRead(query), query).toBe(read);
};

describe('idioms read as the words catalogues write', () => {
  it('reads "open" after the people it describes and before a time as free, not a thing\'s state or a verb', () => {
    expectRead([
      ['when are Sam and I both open Thursday afternoon?', 'when are Sam and I both free Thursday afternoon?'],
      ['a slot where both are open.', 'a slot where both are free.'],
      ["I'm open tomorrow", "I'm free tomorrow"],
      ['what PRs are open in acme/api', 'what PRs are open in acme/api'],
      ['list all open issues', 'list all open issues'],
      ['which dashboards can I open?', 'which dashboards can I open?'],
    ]);
  });

  it('reads not wanting updates, notifications or emails, or asking them to stop, as stop watching', () => {
    expectRead([
      ["I don't need updates on PA-12 anymore", 'I stop watching on PA-12 anymore'],
      ["I don't want any more notifications from acme/monorepo", 'I stop watching from acme/monorepo'],
      ['stop sending me notifications about that issue', 'stop watching about that issue'],
      ['send me notifications about that issue', 'send me notifications about that issue'],
    ]);
  });

  it('reads stopping further comments or replies as locking the conversation', () => {
    expectRead([
      ['Stop any more comments on it', 'lock the conversation on it'],
      ['can I stop people from adding more comments to issue 404?', 'can I lock the conversation to issue 404?'],
      ['I want issue #210 to stop getting new comments', 'I want issue #210 to lock the conversation'],
      ['stop the comment notifications', 'stop the comment notifications'],
      ['Stop anyone else from commenting on it.', 'lock the conversation on it.'],
      ['Freeze that thread.', 'lock the conversation.'],
      ['Can I stop any new comments on it?', 'Can I lock the conversation on it?'],
      ['Stop people commenting on it', 'lock the conversation on it'],
      ['freeze the repo', 'freeze the repo'],
    ]);
  });

  it('reads places that send visitors, traffic or people to a thing as its referral sources', () => {
    expectRead([
      ['which sites are sending people to our repo?', 'which sites are referral sources of visitors to our repo?'],
      ['Which websites drive the most traffic to acme/docs', 'Which websites referral sources of visitors to acme/docs'],
      ['send people an invite to the repo', 'send people an invite to the repo'],
      // Where the visitors or the traffic come from.
      ['where is the traffic to the club site repo coming from?', 'where is the referral sources of visitors to the club site repo coming from?'],
      ['which websites send people there', 'which websites referral sources of visitors there'],
      ['where did the money come from?', 'where did the money come from?'],
    ]);
  });

  it('reads a message only one person may see as ephemeral, as chat platforms call it', () => {
    expectRead([
      ['send Raj a note in #deals that only he can see', 'send Raj a note in #deals (ephemeral)'],
      ['Only Sam should see this note in #general', ' (ephemeral) this note in #general'],
      ['tell ravi in #ops that lag is high, but only he should see it, not the channel', 'tell ravi in #ops that lag is high (ephemeral), not the channel'],
      ['reply with a message only the person who triggered it can see', 'reply with a message  (ephemeral)'],
      // Many people, or the one asking among others, are no one person.
      ['hide the repo so only we can see it', 'hide the repo so only we can see it'],
      ['only admins can post in #announcements', 'only admins can post in #announcements'],
    ]);
  });

  it('reads people who are not members of a place as outside collaborators, and a page where people serve themselves as a portal', () => {
    expectRead([
      ['who are the non-members with repo access?', 'who are the outside collaborators with repo access?'],
      ["list people who aren't org members but have access", 'list people who outside collaborators but have access'],
      ['who can get in without actually being an org member?', 'who can get in outside collaborators?'],
      ['which members are admins?', 'which members are admins?'],
      ['get me a self-service billing page link', 'get me a self-service billing portal link'],
      ['send a self-serve link', 'send a self-service portal'],
    ]);
  });

  it('reads following a tracked thing, not a person, as watching it', () => {
    expectRead([
      ["who's following ACCT-60?", "who's watching ACCT-60?"],
      ['follow the ticket for me', 'watch the ticket for me'],
      ['I followed issue 12 last week', 'I watched issue 12 last week'],
      ['who follows octocat?', 'who follows octocat?'],
      ['follow the instructions in the README', 'follow the instructions in the README'],
    ]);
  });

  it('reads billing, payments or donations that recur as a subscription', () => {
    expectRead([
      ['Stop their recurring billing right away.', 'Stop their recurring billing subscription right away.'],
      ['set up a $25 recurring donation', 'set up a $25 recurring donation subscription'],
      ['list recurring events on my calendar', 'list recurring events on my calendar'],
    ]);
  });

  it('reads a person asked to be around, active or on a chat product as online, not one asked to be available', () => {
    expectRead([
      ['Is Deepak around right now?', 'Is Deepak online right now?'],
      ['is she still active?', 'is she online?'],
      ['Is Dr. Osei around?', 'Is Dr. Osei online?'],
      ['Is Marco on Slack right now?', 'Is Marco online right now?'],
      ['is Priya available Thursday at 3?', 'is Priya available Thursday at 3?'],
      ['is the webhook active?', 'is the webhook active?'],
    ]);
  });

  it('answers updates no longer wanted by removing the one asking as a watcher, and no more comments by the lock', () => {
    const ranker = new Ranker([
      op('j.removeWatcher', 'DELETE', '/issue/{issueIdOrKey}/watchers', 'Delete watcher'),
      op('j.deleteIssue', 'DELETE', '/issue/{issueIdOrKey}', 'Delete issue'),
      op('j.getIssue', 'GET', '/issue/{issueIdOrKey}', 'Get issue'),
      op('g.issues/lock', 'PUT', '/repos/{owner}/{repo}/issues/{issue_number}/lock', 'Lock an issue', { description: "Users with push access can lock an issue or pull request's conversation." }),
      op('g.issues/create-comment', 'POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'Create an issue comment'),
      op('g.issues/list-comments', 'GET', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'List issue comments', { returnsList: true }),
    ]);
    expect(ranker.search("I don't need updates on PA-12 anymore, take me off it.", 3)[0]!.id).toBe('j.removeWatcher');
    expect(ranker.search('The thread on issue #45 is getting heated, stop any more comments on it.', 3)[0]!.id).toBe('g.issues/lock');
  });

  it('answers which sites send visitors to a repository with its referral sources, not its views', () => {
    const ranker = new Ranker([
      op('g.repos/get-top-referrers', 'GET', '/repos/{owner}/{repo}/traffic/popular/referrers', 'Get top referral sources'),
      op('g.repos/get-views', 'GET', '/repos/{owner}/{repo}/traffic/views', 'Get page views'),
      op('g.users/list-followers', 'GET', '/users/{username}/followers', 'List followers of a user', { returnsList: true }),
    ]);
    expect(ranker.search('which websites are sending visitors to our docs repo?', 3)[0]!.id).toBe('g.repos/get-top-referrers');
  });
});
