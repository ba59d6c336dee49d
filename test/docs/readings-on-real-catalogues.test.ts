// Readings of a request checked where they matter, on real catalogues imported as users import them
// (test/search-eval/catalogues.ts, GitHub's bundled one included): a small hand-written catalogue weighs words too differently to
// show them. The requests here are written for these tests, not taken from the evaluation.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogues, type LoadedCatalogue } from '../search-eval/catalogues.ts';

let catalogues: LoadedCatalogue[];
beforeAll(async () => {
  catalogues = await loadCatalogues(['github', 'asana', 'google-calendar', 'jira', 'gitlab', 'slack', 'stripe']);
}, 60_000);

/** The first three operations search_docs answers in a catalogue. */
const topN = (limit: number) => (catalogue: string, query: string) =>
  (catalogues.find((c) => c.name === catalogue)!.index.run({ query, limit }, () => true) as { results: { operationId: string }[] }).results.map((r) => r.operationId);
const top3 = topN(3);
const top5 = topN(5);

describe('search_docs readings on real catalogues', () => {
  it('reads what happens each time ("whenever anything changes") as asking to be told of it: a hook or a watch, made', () => {
    expect(top3('asana', 'Tell our billing service whenever anything changes in the Marketing project')).toContain('asana.createWebhook');
    expect(top3('google-calendar', 'our intranet should get a push each time appointments change on the front-desk calendar')).toContain('google-calendar.calendar.events.watch');
  });

  it("reads a credential stored under a setting's name as a secret written, not as the kind of token it is", () => {
    // Third with the linear second stage; the boosted trees (src/docs/rerank.ts) put two token operations above it (docs/search-history.md).
    expect(top5('github', 'Store our Weatherly API token as WEATHERLY_API_TOKEN so the GitHub Actions in forecast-jobs can read it')).toContain('github.actions/create-or-update-repo-secret');
  });

  it('answers a request whose only words are implied ones, or what a message says, with what the implied words match', () => {
    expect(top3('github', 'When did v3.1.4 of octo/desk-app go out?')).toHaveLength(3);
    expect(top3('github', "- reply on #77 in octo/api: 'waiting on legal'")).toContain('github.issues/create-comment');
    // Nor one whose own words are all what a message says.
    expect(top3('github', 'Reply on octo/api #77 that the patch lands Monday')).toContain('github.issues/create-comment');
  });

  it('reads a thing named by its number as taken only by operations whose path names it, beside a bare ID', () => {
    expect(top3('gitlab', 'Comment on issue 14 that the venue form was signed')[0]).toBe('gitlab.postV3ProjectsIdIssuesNoteableIdNotes');
  });

  it('reads a thing broken into smaller ones as its sub-things made', () => {
    expect(top3('asana', "break the 'Plan the open day' task into smaller pieces")).toContain('asana.createSubtaskForTask');
  });

  it('reads a thing marked as standing in a relation to another as a link between them, made', () => {
    expect(top3('jira', 'mark OPS-7 as blocked by OPS-3')[0]).toBe('jira.linkIssues');
  });

  it('reads a smaller to-do under a task as its subtask', () => {
    expect(top3('asana', "Under task 881 add a smaller to-do: 'order the ink'")).toContain('asana.createSubtaskForTask');
  });

  it('widens a verb by neighbours in meaning of its own act only ("make a calendar" is no change)', () => {
    expect(top3('google-calendar', "Make a new calendar called 'Choir Rehearsals'")[0]).toBe('google-calendar.calendar.calendars.insert');
  });

  it('answers a yes-or-no question with an operation that validates or verifies, as with one that checks', () => {
    expect(top3('jira', 'Is the project key QUIZ still free to use?')).toContain('jira.validateProjectKey');
  });

  it('reads someone who asked to join as an access request, and letting them in as approving it', () => {
    expect(top3('gitlab', 'Noor asked to join the design group. Let her in.')[0]).toBe('gitlab.putV3GroupsIdAccessRequestsUserIdApprove');
  });

  it('reads a value put in a place as a thing asked for by no name of its own: the place is where it goes', () => {
    const found = top3('google-calendar', "Just add 'Piano lesson Friday 4pm' to my calendar");
    expect(found.some((id) => id === 'google-calendar.calendar.events.quickAdd' || id === 'google-calendar.calendar.events.insert')).toBe(true);
  });

  it('reads a thing handed to a person named at the end of its clause as assigned to them', () => {
    expect(top3('jira', "give HR-12 to Tomasz, he's back on Monday")[0]).toBe('jira.assignIssue');
  });

  it('reads someone kept told of a thing ("so he gets updates", "keep me in the loop") as watching or following it', () => {
    expect(top3('jira', 'Oskar needs to get updates on BILL-31 from now on')).toContain('jira.addWatcher');
    expect(top3('asana', "make sure Ines is kept in the loop on the 'Venue contract' task")).toContain('asana.addFollowersForTask');
    expect(top3('jira', 'I want to hear about every update on OPS-14, the boiler job')).toContain('jira.addWatcher');
    expect(top3('jira', 'I want to get an email whenever SEC-3 changes')).toContain('jira.addWatcher');
  });

  it('reads asking who did a thing and when as the record of its changes', () => {
    expect(top3('jira', 'Who moved the due date on PAY-31, and when?')[0]).toBe('jira.getChangeLogs');
    expect(top3('jira', 'someone reassigned HR-8 and I need to know who and when')[0]).toBe('jira.getChangeLogs');
  });

  it('reads a named thing moved into a place as put there, not as the place moved', () => {
    expect(top3('asana', "drag 'Call the caterer' into the Waiting column")[0]).toBe('asana.addTaskForSection');
    expect(top3('asana', "move 'Book the bus' over to the Done column")).toContain('asana.addTaskForSection');
  });

  it('reads "open" before a count of things as making them, not the open ones', () => {
    expect(top3('jira', 'open 12 tickets in one go for the laptop refresh')[0]).toBe('jira.createIssues');
  });

  it('reads an emoji shortcode put on a thing as a reaction to it', () => {
    expect(top3('slack', 'stick a :rocket: on the release note message in #general')[0]).toBe('slack.reactions_add');
  });

  it('reads letting people in a place know a thing as telling them there, not letting them in', () => {
    expect(top3('slack', 'Let everyone in #taproom know the Pumpkin Ale keg just kicked')[0]).toBe('slack.chat_postMessage');
  });

  it('reads dropping a note on a thing as writing one there, not deleting anything', () => {
    expect(top3('asana', "Drop a note on the homepage mockup task: 'Client approved v3, go ahead with dev.'")).toContain('asana.createStoryForTask');
  });

  it('reads blocking out time as an event made, not anyone blocked', () => {
    const found = top3('google-calendar', 'Block off Jan 9 from 1 to 2pm for the safety drill');
    expect(found.some((id) => id === 'google-calendar.calendar.events.insert' || id === 'google-calendar.calendar.events.quickAdd')).toBe(true);
  });

  it("reads a channel as the catalogue's conversation where it calls channels so", () => {
    expect(top3('slack', 'spin up a new channel called #fest-jury')).toEqual(expect.arrayContaining([expect.stringMatching(/^slack\.(?:admin_)?conversations_create$/)]));
  });

  it('reads the verb a catalogue writes for the act asked ("find": search) as what to do, not what it is done to', () => {
    expect(top3('jira', 'find every FIN ticket labeled sponsor-payment created this month')[0]).toMatch(/^jira\.searchForIssuesUsingJql(?:Post)?$/);
  });

  it("reads a task made in a tracker's project as its issue", () => {
    expect(top3('jira', "Create a task in the OPS project: 'Rotate the on-call pager'")).toContain('jira.createIssue');
  });

  it('reads a named thing moved into a place as put there: what the place holds', () => {
    expect(top3('asana', "Move 'Order programs' into the Printing section")[0]).toBe('asana.addTaskForSection');
  });

  it('reads a handle named as one as what a user group is mentioned by', () => {
    expect(top3('slack', 'Set up an @night-shift handle that pings the three shift leads')[0]).toBe('slack.usergroups_create');
  });

  it('reads a command to find as reading, though the catalogue names no operation after finding', () => {
    expect(top3('google-calendar', 'find a slot next Wednesday when Ana, Bo and I are all available')[0]).toBe('google-calendar.calendar.freebusy.query');
  });

  it('reads people open at a time as free then: their free/busy times', () => {
    expect(top3('google-calendar', 'When are the CEO, the CFO and I all open on Thursday afternoon?')[0]).toBe('google-calendar.calendar.freebusy.query');
  });

  it('reads "which account am I …" as asking who the signed-in user is', () => {
    expect(top3('jira', 'which account am I signed into the tracker with')).toContain('jira.getCurrentUser');
  });

  it('reads a value put in a place as what the place holds and is made on its own (a project holds tasks, made at /tasks)', () => {
    expect(top3('asana', "Add 'Descale the kettles' to the Kitchen Ops project")).toContain('asana.createTask');
  });

  it('reads a number as naming the thing of the word before it: not the ID of a webhook to change when it says "project 4471"', () => {
    const found = top3('asana', 'set up a webhook on project 4471');
    expect(found).toContain('asana.createWebhook');
    const update = found.indexOf('asana.updateWebhook');
    expect(update === -1 || update > found.indexOf('asana.createWebhook')).toBe(true);
  });

  it('reads a value put in a place whose things are all made under it as the one thing most done there (a Radar value list: its items)', () => {
    expect(top3('stripe', 'add phisher@example.net to our Radar blocklist')).toContain('stripe.PostRadarValueListItems');
  });

  it('reads a thing said before and taken out of a place ("remove it from the calendar") as what the place holds', () => {
    expect(top3('google-calendar', "The Thursday potluck is off. Take it off the calendar.")).toContain('google-calendar.calendar.events.delete');
  });

  it('reads a notice across the top of every page, or a site-wide notice, as a banner', () => {
    expect(top3('jira', 'put a notice across the top of every page: office closed Monday')[0]).toBe('jira.setBanner');
    expect(top3('jira', 'post a site-wide notice that the upgrade starts at 6pm')[0]).toBe('jira.setBanner');
  });

  it('reads "gets email updates about", "sign me up for updates" as watching the thing', () => {
    expect(top3('jira', 'sign me up for updates on PAY-9')).toContain('jira.addWatcher');
    expect(top3('jira', 'Dev should get email updates about PAY-9')).toContain('jira.addWatcher');
  });

  it("reads a thing nested under another the query names by no kind as the catalogue's one-word sub-thing (subtask)", () => {
    expect(top3('asana', "Under 'Prep the hall', add a child item: sweep the stage")).toContain('asana.createSubtaskForTask');
    expect(top3('asana', "Break 'Spring fair' into smaller pieces: tents, tables, signs")).toContain('asana.createSubtaskForTask');
  });

  it('reads a thing put into a place that holds things by a generic name as one of those (a project into a portfolio: its items)', () => {
    expect(top3('asana', 'put the Harbour Walk project into our Waterfront portfolio')[0]).toBe('asana.addItemForPortfolio');
  });

  it('reads a thing that exists made a state as the operation named after making it so, and a new one in that state as made', () => {
    expect(top3('slack', 'make #board-room a private channel')[0]).toBe('slack.admin_conversations_convertToPrivate');
    expect(top3('slack', 'spin up a private channel called night-shift')[0]).not.toBe('slack.admin_conversations_convertToPrivate');
  });

  it("reads a setting's name in capitals as a secret's or a variable's", () => {
    expect(top3('gitlab', 'Add QUEUE_URL as a CI setting on the billing project')[0]).toBe('gitlab.postV3ProjectsIdVariables');
  });

  it('reads a version made as a tag or a release, and a tarball or a zip of the code as its archive', () => {
    expect(top3('gitlab', 'Mark the current main as v3.1.0 for the parade app')).toContain('gitlab.postV3ProjectsIdRepositoryTags');
    expect(top3('gitlab', 'Download a tarball of the parade-app repository')[0]).toBe('gitlab.getV3ProjectsIdRepositoryArchive');
  });

  it("reads a note as a comment or a message, whichever the catalogue writes (GitLab's issue comments are notes)", () => {
    expect(top3('gitlab', 'Drop a note on issue 5 that the float list is final')[0]).toBe('gitlab.postV3ProjectsIdIssuesNoteableIdNotes');
    expect(top3('gitlab', 'comment on issue 5 in the parade app that the float list is final')).toContain('gitlab.postV3ProjectsIdIssuesNoteableIdNotes');
  });

  it('reads a target, a checkpoint or a deadline that work is grouped under as a milestone', () => {
    expect(top3('gitlab', "Add a 'Harvest fair' checkpoint to project 12 so we can hang the issues off it")[0]).toBe('gitlab.postV3ProjectsIdMilestones');
    expect(top3('gitlab', 'Which deadlines does project 12 have?')[0]).toBe('gitlab.getV3ProjectsIdMilestones');
  });

  it("prefers the catalogue's operation that does the act asked to a thing over one named after another verb on it", () => {
    expect(top3('slack', 'Set up a #winter-crew channel for the seasonal hires')).toContain('slack.conversations_create');
    expect(top3('slack', 'Start a new #winter-crew channel for the seasonal hires')[0]).toBe('slack.conversations_create');
  });

  it('reads pausing notifications as snoozing them', () => {
    expect(top3('slack', 'pause my notifications for two hours')).toContain('slack.dnd_setSnooze');
  });

  it('prefers an operation that is under nothing the query leaves unnamed (a list of chargebacks, not one card\'s disputes under issuing)', () => {
    expect(top3('stripe', 'All the chargebacks from last quarter, please.')).toContain('stripe.GetDisputes');
    expect(top3('asana', "Move 'Print flyers' under the Ready column")).toContain('asana.addTaskForSection');
  });

  it('reads a photo, an image or a screenshot put on a thing as its attachment', () => {
    expect(top3('jira', 'Put the photo of the broken gate on PARK-12')[0]).toBe('jira.addAttachment');
  });

  it('reads a client or a patron as a customer, and an urgency as a priority', () => {
    expect(top3('stripe', 'Register Greenleaf Florists as a new client, billing email ap@greenleaf.example')).toContain('stripe.PostCustomers');
    expect(top3('stripe', 'find the patron whose email is ola@example.org')).toContain('stripe.GetCustomersSearch');
    expect(top3('jira', "Create an urgency level named 'Blocker+' for launch week")).toContain('jira.createPriority');
  });

  it('reads a thing ticked, checked or crossed off as completed', () => {
    expect(top3('asana', "Cross off 'Buy stamps for the mailout', it's sorted")).toContain('asana.updateTask');
  });

  it('reads people brought into a place as added there, and a thing brought into one as imported', () => {
    expect(top3('slack', 'Bring Ana and Lee into #woodwinds')[0]).toBe('slack.conversations_invite');
    expect(top3('google-calendar', "Bring the exported 'Harvest fair' event into the club calendar, keeping its iCal UID")).toContain('google-calendar.calendar.events.import');
  });

  it('reads wanting updates on a thing as watching it', () => {
    expect(top3('jira', 'I want updates on the sandbox outage ticket')[0]).toBe('jira.addWatcher');
  });

  it('reads a thing handed to someone as assigned to them, and the responses under a post as its replies', () => {
    expect(top3('jira', 'Who can I hand tickets to in the SHOP project?')).toContain('jira.findAssignableUsers');
    expect(top3('slack', 'Show me the responses under the lunch-order post in #office')).toContain('slack.conversations_replies');
  });

  it('prefers, asked to read about a thing named by its identifier, a read that takes it as a parameter to one on another thing', () => {
    expect(top3('stripe', 'How much will cus_T4ylor pay on the next invoice?')[0]).toBe('stripe.GetInvoicesUpcoming');
  });

  it('reads a command to find as a read: no write answers it', () => {
    expect(top3('stripe', 'Find the volunteer whose email is kim@example.org')).toContain('stripe.GetCustomersSearch');
  });

  it("reads what's on a place as the things there: a calendar's events, not the calendar", () => {
    expect(top3('google-calendar', "What's on the Lab calendar next Friday?")[0]).toBe('google-calendar.calendar.events.list');
  });

  it('reads connecting two tracked things as linking them', () => {
    expect(top3('jira', 'ENG-4 blocks ENG-9, connect them')).toContain('jira.linkIssues');
  });

  it('reads what people have said about a thing as its comments or messages', () => {
    expect(top3('jira', 'what have people said on PAY-310 so far?')).toContain('jira.getComments');
  });

  it('reads people named by what they do, put in a place, as people added there', () => {
    expect(top3('slack', 'add the caterers and the photographer to #garden-party')[0]).toBe('slack.conversations_invite');
  });

  it('answers a question of who did a thing with a read, never with doing it', () => {
    const found = top3('gitlab', 'Who has committed the most to the billing repo?');
    expect(found).toContain('gitlab.getV3ProjectsIdRepositoryContributors');
    expect(found).not.toContain('gitlab.postV3ProjectsIdRepositoryCommits');
  });

  it('reads a message had to go out at a time, or queued up, as one scheduled', () => {
    expect(top3('slack', 'have a reminder go out in #ushers at 8am Sunday: bring your badges')[0]).toBe('slack.chat_scheduleMessage');
    expect(top3('slack', 'queue up a note to #kitchen for Friday 6am about the deep clean')[0]).toBe('slack.chat_scheduleMessage');
  });

  it("reads a person's own details (their status, their job title) as their profile's", () => {
    expect(top3('slack', "set my status to 'Out at the vet, back at 4'")).toContain('slack.users_profile_set');
    expect(top3('slack', "change my job title to 'Head Brewer'")).toContain('slack.users_profile_set');
  });

  it('reads an amount knocked off a bill as credited against it', () => {
    expect(top3('stripe', 'Shave $25 off invoice in_77 that already went out')).toContain('stripe.PostCreditNotes');
    expect(top3('stripe', "knock 40 dollars off the Hendersons' bill")).toContain('stripe.PostCreditNotes');
  });
});
