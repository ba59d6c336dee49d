// Requests in another form than a command (src/docs/request-forms.ts): a question of ability, a
// noun for the act, a control named by its label, a state to be, a request relayed.
import { describe, expect, it } from 'vitest';
import { isActionWord } from '../../src/docs/lexicon.ts';
import { Ranker } from '../../src/docs/rank.ts';
import { asCommands, verbOfForm, verbOfNoun } from '../../src/docs/request-forms.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

const read = (query: string) => asCommands(query, isActionWord);

describe('requests in another form than a command', () => {
  it('reads a question of ability as the request it makes', () => {
    expect(read('Can the bot leave a comment on commit a1b2c3?')).toBe('leave a comment on commit a1b2c3?');
    expect(read('Could our nightly job delete stale branches?')).toBe('delete stale branches?');
    expect(read('We rotate keys monthly, so can the app revoke token 7?')).toBe('We rotate keys monthly, so revoke token 7?');
    expect(read('Is it possible for the app to update my status?')).toBe('update my status?');
    expect(read('Is there any way for me to cancel run 5?')).toBe('cancel run 5?');
    expect(read('Can the team members see it?')).toBe('see it?');
    expect(read('can someone delete the gist?')).toBe('delete the gist?');
    // Asked of no one named (the service's name read apart: "can GitHub draft …").
    expect(read('can draft the release notes for me between v1 and v2?')).toBe('draft the release notes for me between v1 and v2?');
    expect(read('can I delete the gist?')).toBe('can I delete the gist?');
    expect(read('is there any way I can close issue 5')).toBe('close issue 5');
    // Someone shown how to do a thing: the thing is what to do.
    expect(read('how I close the issue number 12?')).toBe('how do I close the issue number 12?');
    expect(read('how I did it')).toBe('how I did it');
    expect(read('show readers how to publish v1.0.0 as a release')).toBe('publish v1.0.0 as a release');
    expect(read('teach me how to archive a channel')).toBe('archive a channel');
    // A product asked to do a thing for the one asking, named or already read off the query.
    expect(read('Can Slack nudge me tomorrow at 9?')).toBe('nudge me tomorrow at 9?');
    expect(read('can nudge me at 9')).toBe('nudge me at 9');
    expect(read('Can Alice see the repo?')).toBe('Can Alice see the repo?');
  });

  it('leaves a question alone where no verb follows its subject', () => {
    expect(read('Can the bot tell which status moves are possible?')).toBe('Can the bot tell which status moves are possible?');
    expect(read('Can the bot be added to #ops?')).toBe('Can the bot be added to #ops?');
    expect(read('Is it possible for the app to be faster?')).toBe('Is it possible for the app to be faster?');
  });

  it('reads a noun for an act as its verb, where the verb is one', () => {
    expect(verbOfNoun('deletion', isActionWord)).toBe('delete');
    expect(verbOfNoun('removal', isActionWord)).toBe('remove');
    expect(verbOfNoun('addition', isActionWord)).toBe('add');
    expect(verbOfNoun('creation', isActionWord)).toBe('create');
    expect(verbOfNoun('publication', isActionWord)).toBe('publish');
    expect(verbOfNoun('retrieval', isActionWord)).toBe('retrieve');
    expect(verbOfNoun('location', isActionWord)).toBeUndefined();
    expect(read('Deletion of the branch old-login now that it is merged.')).toBe('delete the branch old-login now that it is merged.');
    expect(read('Ahead of the handover: the removal of all events from the primary calendar.')).toBe('Ahead of the handover: remove all events from the primary calendar.');
    expect(read('Summary of open issues')).toBe('Summary of open issues');
    // "… is required" after the act's noun asks for the act; after a noun of no verb, it is left.
    expect(verbOfNoun('inclusion', isActionWord)).toBe('include');
    expect(read("Inclusion of bob@x.com in the 'qa-team' group is required")).toBe("include bob@x.com in the 'qa-team' group");
    expect(read('Summary of open issues is required.')).toBe('Summary of open issues is required.');
  });

  it("reads a control's quoted label as words, and other quoted text as a value", () => {
    expect(read("The notifications page needs a 'Mark all as read' action.")).toBe('The notifications page needs a Mark all as read action.');
    expect(read("There's a 'Move to' option in the event menu.")).toBe("There's a Move to option in the event menu.");
    expect(read("create an issue titled 'Delete old files'")).toBe("create an issue titled 'Delete old files'");
    expect(read("the 'Release notes' button")).toBe("the 'Release notes' button");
    expect(asCommands("Do what the 'Re-run failed jobs' button does on run 88", (w) => w === 'rerun')).toBe('Do what the Re-run failed jobs button does on run 88');
    // A label pressed says what to do, written as a command on the thing at hand even where the verb is unknown.
    expect(read("click 'Archive this repository' for old-site")).toBe('Archive this repository for old-site');
    expect(read("pick 'Delete branch' on PR 5")).toBe('Delete branch on PR 5');
    expect(read("click 'Q3 roadmap' in the sidebar")).toBe("click 'Q3 roadmap' in the sidebar");
  });

  it('reads a control pressed by what it says, unquoted, as that command', () => {
    expect(asCommands('Click the blue Merge button on MR 17', (w) => w === 'merge')).toBe('Merge on MR 17');
    expect(asCommands('hover the message and click the pin icon', (w) => w === 'pin')).toBe('hover the message and pin');
    expect(read('click the Settings button')).toBe('click the Settings button');
    // Named with no verb, capitalised as the control shows it, or clicked by its label alone.
    expect(asCommands("the Follow button on torvalds' profile", (w) => w === 'follow')).toBe("follow on torvalds' profile");
    expect(asCommands('Click Watch on kubernetes/kubernetes', (w) => w === 'watch')).toBe('watch on kubernetes/kubernetes');
    expect(asCommands('Make a link I can send people', (w) => w === 'make')).toBe('Make a link I can send people');
    expect(asCommands('the share link for the doc', (w) => w === 'share')).toBe('the share link for the doc');
  });

  it('reads time blocked as an event scheduled to hold it, and blocking anything else as blocking', () => {
    expect(read('block 2-4am tonight on the on-call calendar')).toBe('schedule 2-4am tonight on the on-call calendar');
    expect(read("Block Saturday 8am-8pm as 'Full training run'")).toBe("schedule Saturday 8am-8pm as 'Full training run'");
    expect(read('Block 30 minutes tomorrow at 7am on my calendar')).toBe('schedule 30 minutes tomorrow at 7am on my calendar');
    expect(read('Block the user griefer99 from our org')).toBe('Block the user griefer99 from our org');
    expect(read('Block 203.0.113.44 on our Radar list')).toBe('Block 203.0.113.44 on our Radar list');
  });

  it('reads a share taken off a price as a discount, and an amount taken off as written', () => {
    expect(asCommands('set up 20% off for early-bird weekend passes', () => false)).toBe('set up 20% discount for early-bird weekend passes');
    expect(asCommands('I want a 15 percent off deal for regulars', () => false)).toBe('I want a 15 percent discount deal for regulars');
    expect(asCommands('knock $30 off invoice in_555', () => false)).toBe('knock $30 off invoice in_555');
  });

  it("reads a thing shown where one's own are as added to one's list, not read", () => {
    expect(asCommands("Show the shared 'Company Holidays' calendar in my sidebar", (w) => w === 'add')).toBe("add the shared 'Company Holidays' calendar to my list");
    expect(asCommands("Show the rail club's public calendar alongside mine", (w) => w === 'add')).toBe("add the rail club's public calendar to my list");
    expect(asCommands('show every calendar I have got in my sidebar list', (w) => w === 'add')).toBe('show every calendar I have got in my sidebar list');
    expect(asCommands('Show me the calendars in my sidebar', (w) => w === 'add')).toBe('Show me the calendars in my sidebar');
  });

  it('reads the act asked for as a state to be as the command for it', () => {
    expect(verbOfForm('deleted', isActionWord)).toBe('delete');
    expect(verbOfForm('cancelled', isActionWord)).toBe('cancel');
    expect(verbOfForm('closing', isActionWord)).toBe('close');
    expect(verbOfForm('reopened', isActionWord)).toBe('reopen');
    expect(verbOfForm('blessed', isActionWord)).toBeUndefined();
    expect(read('the feature/old-login branch should be deleted')).toBe('delete the feature/old-login branch');
    expect(read('workflow run 8812 needs to be cancelled')).toBe('cancel workflow run 8812');
    expect(read("I'd like issue 9 reopened")).toBe('reopen issue 9');
    expect(read('we need bob removed from acme/api')).toBe('remove bob from acme/api');
    expect(read('would you mind deleting the gist')).toBe('delete the gist');
    expect(read('the old gist needs deleting')).toBe('delete the old gist');
    // A long subject, "is to be", and a phrasal verb's participle with its particle.
    expect(read('The colour of the Soccer calendar in my list should be changed to green')).toBe('change The colour of the Soccer calendar in my list to green');
    expect(read("A new user group named 'contractors' is to be created")).toBe("create A new user group named 'contractors'");
    expect(read('User U0456 should be taken out of #finance')).toBe('take User U0456 out of #finance');
    expect(read('every device for U024 should be logged out')).toBe('log every device for U024 out');
    expect(read('the draft should be held for now')).toBe('the draft should be held for now');
    expect(read('The protection rules on main must be lifted for the migration')).toBe('lift The protection rules on main for the migration');
    expect(read('The @oncall group needs to be changed to Raj and Mei')).toBe('change The @oncall group to Raj and Mei');
    expect(read('Alert #57 (the lodash one) needs to be closed')).toBe('close Alert #57 (the lodash one)');
    // A noun that records something new, used as a verb: "filed".
    expect(read('I want a Bug filed in project SUP')).toBe('file a Bug in project SUP');
    // A thing someone else, or "we", want is to be made; a read wanted, or what "I" want, is left.
    expect(read("My manager wants a company goal: 'Reduce churn'")).toBe("create a company goal: 'Reduce churn'");
    expect(read('We need a new ticket kind called Incident')).toBe('create a new ticket kind called Incident');
    expect(read('we need a list of open issues')).toBe('we need a list of open issues');
    expect(read('I want a fresh repository called sandbox')).toBe('I want a fresh repository called sandbox');
    // A passive inside a clause of time or condition is not what is asked.
    expect(read('require two reviews before anything can be merged')).toBe('require two reviews before anything can be merged');
    // A question or a command before the participle is no thing to act on.
    expect(read('who can be assigned issues in acme/api')).toBe('who can be assigned issues in acme/api');
    expect(read('I want what changed between v1.2 and v1.3')).toBe('I want what changed between v1.2 and v1.3');
  });

  it('reads what a thing should be called, read, start at or be as a change to it, and what should not exist or show up as a removal', () => {
    expect(read('#general-old should be called #announcements.')).toBe('rename #general-old to #announcements.');
    expect(read("I want that branch called 'main' instead")).toBe("rename that branch to 'main' instead");
    expect(read('I want a repo called notes')).toBe('I want a repo called notes');
    expect(read('The due date on MKT-33 should read 30 June 2025.')).toBe('change The due date on MKT-33 to 30 June 2025.');
    expect(read("Thursday's design review should start at 4pm instead of 3pm.")).toBe("change Thursday's design review start at 4pm instead of 3pm.");
    expect(read('#hr-private ought to be a private channel, not a public one.')).toBe('change #hr-private to a private channel, not a public one.');
    expect(read("The 'needs-triage' label shouldn't exist in acme/cli any more.")).toBe("remove The 'needs-triage' label  in acme/cli any more.");
    expect(read("The 'Team Birthdays' calendar shouldn't show up in my list any more.")).toBe("remove The 'Team Birthdays' calendar  in my list any more.");
    expect(read("Issue 233 belongs in the 'support' project, not 'core'.")).toBe("move Issue 233 to the 'support' project, not 'core'.");
    expect(read("He shouldn't be part of our 'brightwave' org any more.")).toBe("remove He from our 'brightwave' org any more.");
    expect(read("I'd like the 'Soccer' calendar to show in green.")).toBe("change the 'Soccer' calendar in green.");
    expect(read('I want alice and bob asked to look over PR #77')).toBe('I want alice and bob asked to look over PR #77');
    // Not a thing's state: a question, an ability, people, a new activity.
    expect(read('who should be the owner?')).toBe('who should be the owner?');
    expect(read('everyone in QA should be able to see my filter')).toBe('everyone in QA should be able to see my filter');
    expect(read('cus_88 should start paying monthly')).toBe('cus_88 should start paying monthly');
  });

  it('reads moving a thing to a time as rescheduling it, and moving it to a place as moving it', () => {
    expect(read('push the client design review to Thursday at 3pm')).toBe('reschedule the client design review to Thursday at 3pm');
    expect(read('Move my 1:1 with Leo from Thursday to Friday at 2pm')).toBe('reschedule my 1:1 with Leo to Friday at 2pm');
    expect(read('move the card to the Done column')).toBe('move the card to the Done column');
  });

  it('reads a thing wanted gone or out of a place as removing it, and "I just want" as "I want"', () => {
    expect(read('I want task 99 gone')).toBe('remove task 99');
    expect(read('I want the old-site repo gone from acme for good')).toBe('remove the old-site repo from acme for good');
    // A thing switched off is disabled, not taken out of a place.
    expect(read('I want GitHub Actions switched off for every repo')).not.toContain('remove');
    expect(read('I want dave out of #leadership')).toBe('remove dave from #leadership');
    expect(read('I want jsmith no longer in jira-developers')).toBe('remove jsmith from jira-developers');
    expect(read("it's late and I just want the branch old-login deleted")).toBe("it's late and delete the branch old-login");
    expect(read('who do I want out of the team?')).toBe('who do I want out of the team?');
    expect(read('i want to make a new branch off main')).toBe('i want to make a new branch off main');
    // Not one asked to do a thing ("I need him to sign off").
    expect(read('I need him to sign off before 5')).toBe('I need him to sign off before 5');
  });

  it('reads what a framed request asks once its frame is off (src/docs/frames.ts)', () => {
    expect(read('Acceptance: version 3.0 is published on the releases page')).toBe('publish version 3.0 on the releases page');
    expect(read('I want the thread on issue 88 frozen')).toBe('I want the thread on issue 88 frozen'); // "freeze": no verb of the lexicon
    expect(asCommands('I want issue 88 frozen', (w) => w === 'freeze')).toBe('freeze issue 88');
    expect(read('Given sprint planning is done, a release called 2.0 should exist in project WEB')).toBe('create a release called 2.0 in project WEB');
    expect(read('Given tag v3.1.0, then a published entry with notes should appear on the releases page')).toBe('create a published entry with notes on the releases page');
    expect(read('a 25%-off discount should exist')).toBe('create a 25%-off discount');
    // What something should appear as is a change to it, and "it" names no new thing.
    expect(read("The Pro product should appear as 'Pro (Annual)' on receipts")).not.toMatch(/^create/);
    expect(read('Given the reminder text, then it should appear in #eng-standup')).not.toMatch(/create/);
  });

  it("reads a request relayed from someone else as the request", () => {
    expect(read('The customer wants us to refund charge ch_123.')).toBe('refund charge ch_123.');
    expect(read('a client asked me to delete their saved card')).toBe('delete their saved card');
    expect(read('customer is asking if we can cancel their subscription sub_9')).toBe('cancel their subscription sub_9');
    expect(read('the client would like their invoice in_88 cancelled')).toBe('cancel their invoice in_88');
    expect(read('our on-call says the webhook should be deleted')).toBe('our on-call says delete the webhook');
    // What someone wants to know is a question, asked.
    expect(read('the customer wants to know when the charge was made')).toBe('when the charge was made');
  });

  it('reads a question after which operation does a thing as the thing to do', () => {
    expect(read('what API call closes an issue')).toBe('what API call close an issue');
    expect(read('which endpoint deletes a gist?')).toBe('which endpoint delete a gist?');
    expect(read('how would I go about deleting a release')).toBe('how would I go about delete a release');
    expect(read('is there an endpoint for locking an issue')).toBe('is there an endpoint for locking an issue'); // "lock": no verb of the lexicon
    expect(asCommands('is there an endpoint for locking an issue', (w) => w === 'lock')).toBe('is there an endpoint for lock an issue');
    expect(read('which endpoint status is green')).toBe('which endpoint status is green');
  });

  it('ranks what each form asks for', () => {
    const ranker = new Ranker([
      op('gh.createCommitComment', 'POST', '/repos/{owner}/{repo}/commits/{commit_sha}/comments', 'Create a commit comment'),
      op('gh.getCommitComment', 'GET', '/repos/{owner}/{repo}/comments/{comment_id}', 'Get a commit comment'),
      op('gh.listCommitComments', 'GET', '/repos/{owner}/{repo}/commits/{commit_sha}/comments', 'List commit comments', { returnsList: true }),
      op('gh.createLabels', 'POST', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 'Add labels to an issue'),
      op('gh.listLabels', 'GET', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 'List labels for an issue', { returnsList: true }),
      op('gh.markRead', 'PUT', '/notifications', 'Mark notifications as read'),
      op('gh.listNotifications', 'GET', '/notifications', 'List notifications for the authenticated user', { returnsList: true }),
      op('gh.deleteGist', 'DELETE', '/gists/{gist_id}', 'Delete a gist'),
      op('gh.getGist', 'GET', '/gists/{gist_id}', 'Get a gist'),
      op('gh.listGists', 'GET', '/gists', 'List gists for the authenticated user', { returnsList: true }),
    ]);
    expect(ranker.search('Can the bot leave a comment on commit a1b2c3?', 3)[0]!.id).toBe('gh.createCommitComment');
    expect(ranker.search("Addition of the 'bug' and 'p1' labels to issue #1024.", 3)[0]!.id).toBe('gh.createLabels');
    expect(ranker.search("The notifications center in our app needs a 'Mark all as read' action.", 3)[0]!.id).toBe('gh.markRead');
    expect(ranker.search('would you mind deleting the gist with my old notes', 3)[0]!.id).toBe('gh.deleteGist');
    expect(ranker.search('the old notes gist should be deleted', 3)[0]!.id).toBe('gh.deleteGist');
    expect(ranker.search('which endpoint lets me delete a gist', 3)[0]!.id).toBe('gh.deleteGist');
    expect(ranker.search('what API call deletes a gist', 3)[0]!.id).toBe('gh.deleteGist');
    expect(ranker.search('As a maintainer I want the gist with my old notes deleted so the list stays short', 3)[0]!.id).toBe('gh.deleteGist');
    expect(ranker.search('um, show me, uh, the gist 7 ... no wait, delete gist 7', 3)[0]!.id).toBe('gh.deleteGist');
  });

  it('reads a thing that "should get" done as one that should be ("the old branch should get deleted")', () => {
    expect(read('the old branch should get deleted')).toBe('delete the old branch');
  });
});
