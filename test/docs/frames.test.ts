// A request inside a frame read as the request (src/docs/frames.ts): speech, a question inside
// another, a planning document, a runbook's step, courtesy, a setting, a condition, a reason and a
// relayed request.
import { describe, expect, it } from 'vitest';
import { withoutFrame } from '../../src/docs/frames.ts';

describe('withoutFrame', () => {
  it('reads a request inside the frame of a planning document as the request', () => {
    expect(withoutFrame("As a release manager, I want the notes drafted")).toBe('I want the notes drafted');
    expect(withoutFrame('As an org admin we need a team called ops')).toBe('we need a team called ops');
    expect(withoutFrame('Given PR 5 is approved, when the captain says so, then the PR should be merged')).toBe('the PR should be merged');
    expect(withoutFrame('Given a new quarter starts, a goal should exist in workspace 9')).toBe('a goal should exist in workspace 9');
    expect(withoutFrame('Acceptance criteria: issue 9 is closed')).toBe('issue 9 should be closed');
    expect(withoutFrame('When a new hire joins, they get an invite to the org')).toBe('they get an invite to the org');
    expect(withoutFrame('For the key rotation review, show me the deploy keys')).toBe('show me the deploy keys');
    // A screen of the product is where the request acts: what it shows is kept, without the word for the screen.
    expect(withoutFrame("On the Products page, archive 'Winter Squash Share' so it stops showing up.")).toBe("archive 'Winter Squash Share' in products");
    expect(withoutFrame('In the labels page, rename bug to triage')).toBe('rename bug to triage in labels');
    // A setting that names a value is where the request acts.
    expect(withoutFrame('In acme/api, delete branch x')).toBe('In acme/api, delete branch x');
    // A setting that already holds the request is the request.
    expect(withoutFrame('In my script I want every issue in the ml repo, open and closed')).toBe('In my script I want every issue in the ml repo, open and closed');
    // What acceptance criteria or a scenario's outcome state is the state asked for.
    expect(withoutFrame('Acceptance criteria: the old channel is archived')).toBe('the old channel should be archived');
    expect(withoutFrame('the old channel is archived')).toBe('the old channel is archived');
    // A question keeps its "when"; a resource named before a colon is no label.
    expect(withoutFrame('When was the last release, and who made it?')).toBe('When was the last release, and who made it?');
    expect(withoutFrame('Issue: the login page is broken')).toBe('Issue: the login page is broken');
  });

  it('reads a state to be brought about ("make sure nobody can …") as the request, and a positive one or someone kept informed as a command', () => {
    expect(withoutFrame('Make sure nobody can push straight to main on web')).toBe('nobody can push straight to main on web');
    expect(withoutFrame('Please ensure that sub_1 doesn\'t renew')).toBe("Please sub_1 doesn't renew");
    expect(withoutFrame('Make sure they don\'t expire.')).toBe("they don't expire.");
    expect(withoutFrame('Who is in #ops? I want to make sure the new hires are there.')).toBe('Who is in #ops? the new hires are there.');
    // A positive state made so, and someone kept informed, stay commands.
    expect(withoutFrame('Make sure team@acme.com can see the Launch calendar')).toBe('Make sure team@acme.com can see the Launch calendar');
    expect(withoutFrame('Make sure Linda gets email updates about CLUB-12')).toBe('Make sure Linda gets email updates about CLUB-12');
  });

  it('reads what a request says, not why: the clause with its reason says nothing of what to do', () => {
    expect(withoutFrame('lock the release branch so nobody can delete it')).toBe('lock the release branch');
    expect(withoutFrame('pin the doc link in #new-hires so that it stays visible.')).toBe('pin the doc link in #new-hires.');
    expect(withoutFrame('archive the channel because the incident is over')).toBe('archive the channel');
    // Except one that tells of a person kept informed: being told of changes is what is asked.
    expect(withoutFrame('add Marcus to GRANT-17 so he gets updates whenever it changes')).toBe('add Marcus to GRANT-17 so he gets updates whenever it changes');
    expect(withoutFrame('connect the project to our Slack so we get pinged on pushes')).toBe('connect the project to our Slack');
    // "so" before a verb starts the request: "the branch is merged, so delete it".
    expect(withoutFrame('the branch is merged, so delete it')).toBe('the branch is merged, so delete it');
  });

  it('reads speech: no filler, no word said twice, no one addressed, and what a correction says instead', () => {
    expect(withoutFrame('uh can you, um, kick off the deploy workflow')).toBe('can you kick off the deploy workflow');
    expect(withoutFrame('make a copy of the, the launch project')).toBe('make a copy of the launch project');
    expect(withoutFrame('Hey Priya, could you rerun the failed jobs?')).toBe('could you rerun the failed jobs?');
    expect(withoutFrame('subscribe me to acme/api... no wait, unsubscribe me')).toBe('unsubscribe me');
    expect(withoutFrame('no, not void it - I meant email invoice in_1Abc')).toBe('email invoice in_1Abc');
    expect(withoutFrame("Actually, don't add a new price - just change the name on prod_X")).toBe('just change the name on prod_X');
    expect(withoutFrame('Sorry, not a refund - flag invoice in_77 as uncollectible')).toBe('flag invoice in_77 as uncollectible');
    expect(withoutFrame('close issue 5, not issue 6')).toBe('close issue 5, not issue 6');
    expect(withoutFrame('delete issue 4, I mean close it')).toBe('close it');
  });

  it('reads a courteous request as the request: no hedge, apology, leave asked or condition of courtesy', () => {
    expect(withoutFrame('Would it perhaps be possible to maybe re-run the failed jobs, if it\'s not too much trouble?')).toBe('re-run the failed jobs?');
    expect(withoutFrame('Sorry to ask, but could I perhaps see the open tasks')).toBe('could I see the open tasks');
    expect(withoutFrame('If at all possible, might you nest the task under another?')).toBe('could you nest the task under another?');
    expect(withoutFrame('Could I maybe, if it\'s okay, get a list of the projects')).toBe('Could I get a list of the projects');
    expect(withoutFrame('Might I kindly ask which files changed in PR 301, if that\'s fine?')).toBe('which files changed in PR 301?');
    expect(withoutFrame("I hope it's alright to ask — could you lock issue 230")).toBe('could you lock issue 230');
    // A condition that asks something of the task stays a condition.
    expect(withoutFrame("If it's merged, delete the branch")).toBe('delete the branch');
  });

  it("reads a runbook's step as its request, and what its condition is about as the request's \"it\"", () => {
    expect(withoutFrame('Step 2: Check the Sidekiq queues')).toBe('Check the Sidekiq queues');
    expect(withoutFrame('3) archive the channel')).toBe('archive the channel');
    expect(withoutFrame("Step 2: If payout po_1QabC to the bank hasn't left yet, stop it.")).toBe('stop payout po_1QabC to the bank.');
    expect(withoutFrame('If endpoint we_123 keeps failing, switch it to disabled')).toBe('switch endpoint we_123 to disabled');
    expect(withoutFrame('If push channel ch-123 is no longer needed, stop receiving its notifications')).toBe('stop receiving push channel ch-123 notifications');
    // A subject of up to eight words ("the Draft section in the Features project").
    expect(withoutFrame('If the Draft section in the Features project is empty now, remove it.')).toBe('remove Draft section in the Features project.');
    // What the request replaces, before it: its object is the request's "it", or it is read after the request, as context.
    expect(withoutFrame('Rather than deleting #ops-bridge-old, make it a private channel.')).toBe('make #ops-bridge-old a private channel.');
    expect(withoutFrame("Instead of cutting off Jess's access to my calendar, drop her to view-only.")).toBe("drop her to view-only instead of cutting off Jess's access to my calendar");
    // A condition about someone, or with no pronoun to read, is only dropped.
    expect(withoutFrame('If it fails again, rerun the job')).toBe('rerun the job');
    expect(withoutFrame('If the deploy bot missed the push event, resend delivery 99812')).toBe('resend delivery 99812');
    // A numbered version is no step.
    expect(withoutFrame('1.2 is out, publish the release')).toBe('1.2 is out, publish the release');
  });

  it('reads a quoted request relayed after who sent it as words, and leaves other quoted text a value', () => {
    expect(withoutFrame("Ticket from HR: 'John Park left on 3/31, please take him out of our org.'")).toBe('John Park left on 3/31, please take him out of our org. ');
    expect(withoutFrame("Customer says: 'please cancel my subscription'")).toBe('please cancel my subscription ');
    expect(withoutFrame("post in #general: 'Deploy is done for tonight'")).toBe("post in #general: 'Deploy is done for tonight'");
    // A lead that is a verb and its object makes the thing the quote titles.
    expect(withoutFrame("Open a ticket in GYM: 'Treadmill #4 belt is slipping'")).toBe("Open a ticket in GYM: 'Treadmill #4 belt is slipping'");
  });

  it('reads a question asked inside another as the question', () => {
    expect(withoutFrame('any idea who is assigned to issue 5')).toBe('who is assigned to issue 5');
    expect(withoutFrame('I need to know which repos octocat starred')).toBe('which repos octocat starred');
    expect(withoutFrame('not sure if the gist still exists')).toBe('does the gist still exists');
    // "… if you could delete it" is a request, and stays one.
    expect(withoutFrame('I was wondering if you could delete the gist')).toBe('I was wondering if you could delete the gist');
  });

  it('reads what happens each time, said first, after the request ("Whenever …, POST to …")', () => {
    expect(withoutFrame('Whenever anyone pushes to acme/site, send a POST to our URL.')).toBe('send a POST to our URL whenever anyone pushes to acme/site');
    expect(withoutFrame('When the build fails, open an issue')).toBe('open an issue');
  });

  it('drops a step\'s place in a sequence before the request ("Next, …", "Then, …")', () => {
    expect(withoutFrame('Next, the release should be published')).toBe('the release should be published');
    expect(withoutFrame('Then, close issue 5')).toBe('close issue 5');
  });
});
