// The kinds of value a query writes and the operations that take them (src/docs/values.ts), and the
// resource a slug or a tracker key names in a catalogue.
import { describe, expect, it } from 'vitest';
import { fileNamesIn, keyResource, numberNamers, slugResource, takenByResource, VALUE_KINDS, withoutQuoted } from '../../src/docs/values.ts';
import { parseQuery } from '../../src/docs/query.ts';
import { Ranker } from '../../src/docs/rank.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

const kind = (name: string) => VALUE_KINDS.find((k) => k.name === name)!;
/** Whether each query writes a value of the kind, as expected. */
const expectWritten = (name: string, cases: [string, boolean][]) => {
  for (const [query, written] of cases) expect(kind(name).written(query, parseQuery('')), query).toBe(written);
};

describe('value kinds', () => {
  it.each([
    ['time', 'book it for tomorrow at 9am', true],
    ['time', 'list my calendars', false],
    ['time', 'Cancel the alto sectional on March 12.', true],
    ['time', 'cancel the sectional on the 14th', true],
    ['time', 'may I delete the 3 tags?', false],
    ['email', 'which user is jane@acme.com?', true],
    ['email', 'email the assignee', false],
    ['email', 'ping @jane in #ops', false],
    ['duration', 'log 3 hours on PROJ-7', true],
    ['duration', 'log 2h on PROJ-45', true],
    ['duration', 'show me the last 20 messages', false],
    ['number', 'close #312 in acme/web', true],
    ['number', 'label acme/web#45', true],
    ['number', 'post in #ops', false],
    ['number', 'issue 312', false],
    ['email', 'pin actions/checkout@v4.1.0 in the workflow', false],
    ['email', 'which repos depend on lodash@4.17.21', false],
    ['email', 'invite ops@acme.co.uk', true],
    ['key', 'move PROJ-12 to done', true],
    ['key', 'is SUP-441 fixed?', true],
    ['key', 'deploy v1-2 to staging', false],
    ['key', 'move the project-12 card', false],
    ['key', 'save the file as UTF-8', false],
    ['key', 'the SHA-256 of the release asset', false],
    ['key', 'due dates in ISO-8601', false],
    ['key', 'COVID-19 leave requests', false],
    ['key', 'dependabot alerts for CVE-2021-44228', false],
    ['key', 'ask GPT-4 to triage PROJ-7', true],
    ['access', 'give jdoe write access to acme/web', true],
    ['access', 'does alice have write or only read access on the repo?', true],
    ['access', 'share my work calendar with jane@acme.com', true],
    ['access', 'who can see my calendar', true],
    ['access', 'which repos do I have access to?', false],
    ['access', 'write a comment on issue 4', false],
    ['access', 'share the report in #finance', false],
    ['access', 'add Dana so she can edit the wiki', true],
    // Pushing barred from a branch is a rule on it, not anyone's access.
    ['access', 'make sure nobody can push straight to main without a review', false],
    ['access', 'students should not be able to push to main', false],
    ['access', 'store NPM_TOKEN so the CI pipeline can read it', false],
    ['access', 'store SENTRY_DSN as a value the jobs in acme/web can read', false],
    ['access', 'Put the snack rota in a quick shareable snippet on GitHub so other parents can see it', false],
    ['access', 'Save my lyrics as a private snippet I can share with parents by link', false],
    ['narrowed', 'show me every open ticket labelled board-prep', true],
    ['narrowed', 'list all open bugs with highest priority', true],
    ['narrowed', 'list everything still open and due this week', true],
    ['narrowed', 'list the repo topics it is tagged with', false],
    ['narrowed', 'open a ticket labelled board-prep', false],
    ['range', 'what changed between v1.2.0 and v1.3.0?', true],
    ['range', 'diff v1.2.0 against v1.3.0 in acme/cli', true],
    ['range', 'compare 9f3e2c1...a1b2c3d', true],
    ['range', 'move the meeting between 2 and 3', false],
    ['range', 'bump lodash to 4.17.21', false],
    ['future', "send 'standup in 5' to #eng tomorrow at 9:55am", true],
    ['future', 'remind me in 2 hours', true],
    ['future', 'what did I miss yesterday', false],
    ['file', 'fetch config/settings.yml from the develop branch', true],
    ['file', "upload 'error.png' to the ticket", true],
    ['file', 'star vercel/next.js for me', false],
    ['file', 'bump the version to 1.2', false],
    ['file', 'check my .gitlab-ci.yml is valid', false],
    ['line', 'leave a note on line 40 of src/app.ts', true],
    ['line', 'draw a line under PR 40', false],
    ['assigned', 'the overdue bugs assigned to me', true],
    ['assigned', 'am I assigned to anything in the design project?', true],
    ['assigned', "what's on my plate for tomorrow", true],
    ['assigned', 'list my assignments', true],
    ['money', 'refund $12.50 of that order', true],
    ['money', 'pay the contractor 300 euros', true],
    ['money', 'list the 20 largest customers', false],
    ['channel', 'invite sam to #launch-team', true],
    ['channel', 'make a new channel called #offsite-2025', false],
    ['channel', 'spin up a private channel named #exec', false],
    ['channel', 'invite dana to the #ops channel', true],
    ['channel', 'set up a #night-desk channel for the overnight crew', false],
    ['channel', 'start a new #night-desk channel for the overnight crew', false],
    ['channel', 'spin up #inc-2231 for the outage', false],
    ['channel made', 'spin up #inc-2231 for the outage', true],
    ['channel made', 'post the outage summary in #inc-2231', false],
    ['channel made', 'start a private room called #pay-review for the panel', true],
    ['channel made', 'open the channel #pay-review and post the agenda', false],
    ['channel', 'what did bob say in #ops?', true],
    ['channel', 'close #4417 on the tracker', false],
    ['channel', 'the C# client library', false],
    ['assigned', 'assign PROJ-4 to me', false],
    ['assigned', 'who is assigned to the login bug', false],
    ['numbered', 'reply on issue 17 to say it is fixed', true],
    ['numbered', 'redo check run 8812', true],
    ['numbered', 'close #312 in acme/web', false],
    ['numbered', 'show the last 5 runs', false],
    ['numbered', 'a milestone due September 30', false],
    ['numbered', 'log 3 hours on it', false],
    ['numbered', 'move it to friday 9:30', false],
    // An amount only compared against sets nothing.
    ['money', 'Find all charges over $500 where the billing email ends in .edu', false],
    ['money', 'invoices of more than €1,000 from last month', false],
    ['money', 'refund $500 of charge ch_1 for orders over $100', true],
    ['slug', 'stop watching acme/noisy-repo', true],
    ['slug', 'read config/settings.yaml from the infra repo', false],
    ['slug', 'list my repositories', false],
  ])('%s is written in %j: %s', (name, query, written) => {
    expect(kind(name).written(query, parseQuery(query))).toBe(written);
  });

  it('finds the files a text names, dot-files too, and takes quoted text out', () => {
    expect(fileNamesIn('Validation of .gitlab-ci.yml content')).toEqual(['.gitlab-ci.yml']);
    expect(fileNamesIn("fetch config/Settings.yml and 'error.png'.")).toEqual(['config/settings.yml', 'error.png']);
    expect(fileNamesIn('star vercel/next.js')).toEqual([]);
    expect(withoutQuoted("post 'Game day tomorrow!!' in #team-chat")).not.toContain('tomorrow');
  });

  it('reads an email field by any spelling, a number or a key parameter in the path only', () => {
    expect(kind('email').takes!(op('u.lookup', 'GET', '/users.lookupByEmail', 'Find a user', { fieldNames: ['email'] }))).toBe(true);
    expect(kind('email').takes!(op('c.update', 'POST', '/customers/{id}', 'Update a customer', { fieldNames: ['name', 'phone'] }))).toBe(false);
    expect(kind('email').takes!(op('c.update', 'POST', '/customers/{id}', 'Update a customer', { fieldNames: ['customerEmail'] }))).toBe(true);
    expect(kind('duration').takes!(op('j.worklog', 'POST', '/rest/api/3/issue/{issueIdOrKey}/worklog', 'Add worklog', { fieldNames: ['timeSpentSeconds'] }))).toBe(true);
    expect(kind('duration').takes!(op('j.comment', 'POST', '/rest/api/3/issue/{issueIdOrKey}/comment', 'Add comment', { fieldNames: ['body'] }))).toBe(false);
    // A field counted in minutes or hours ("mute my notifications for 2 hours": Slack's num_minutes).
    expect(kind('duration').takes!(op('s.snooze', 'POST', '/dnd.setSnooze', 'Turns on Do Not Disturb mode for the current user, or changes its duration.', { fieldNames: ['num_minutes'] }))).toBe(true);
    expect(kind('duration').takes!(op('s.endSnooze', 'POST', '/dnd.endSnooze', "Ends the current user's snooze mode immediately.", { fieldNames: [] }))).toBe(false);
    expect(kind('number').takes!(op('g.issue', 'PATCH', '/repos/{owner}/{repo}/issues/{issue_number}', 'Update an issue'))).toBe(true);
    expect(kind('number').takes!(op('g.repo', 'PATCH', '/repos/{owner}/{repo}', 'Update a repository'))).toBe(false);
    expect(kind('numbered').takes!(op('g.rerequest', 'POST', '/repos/{owner}/{repo}/check-runs/{check_run_id}/rerequest', 'Rerequest a check run'))).toBe(true);
    expect(kind('numbered').takes!(op('g.labels', 'POST', '/repos/{owner}/{repo}/labels', 'Create a label'))).toBe(false);
    expect(kind('key').takes!(op('j.edit', 'PUT', '/rest/api/3/issue/{issueIdOrKey}', 'Edit issue'))).toBe(true);
    expect(kind('key').takes!(op('g.key', 'GET', '/user/keys/{key_id}', 'Get a public SSH key'))).toBe(false);
    expect(kind('key').takes!(op('j.search', 'GET', '/rest/api/3/search', 'Search issues', { fieldNames: ['key'] }))).toBe(false);
    expect(kind('file').takes!(op('g.content', 'GET', '/repos/{owner}/{repo}/contents/{path}', 'Get repository content'))).toBe(true);
    expect(kind('file').takes!(op('sl.upload', 'POST', '/files.upload', 'Uploads or creates a file', { fieldNames: ['channels', 'file', 'filename'] }))).toBe(true);
    expect(kind('file').takes!(op('g.dispatch', 'POST', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', 'Create a workflow dispatch event', { fieldTexts: ['The ID of the workflow. You can also pass the workflow file name as a string.'] }))).toBe(true);
    expect(kind('file').takes!(op('g.repo', 'PATCH', '/repos/{owner}/{repo}', 'Update a repository', { fieldNames: ['name'] }))).toBe(false);
    expect(kind('line').takes!(op('g.review', 'POST', '/repos/{owner}/{repo}/pulls/{pull_number}/comments', 'Create a review comment for a pull request', { fieldNames: ['body', 'path', 'start_line', 'line'] }))).toBe(true);
    expect(kind('line').takes!(op('g.comment', 'POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'Create an issue comment', { fieldNames: ['body'] }))).toBe(false);
    expect(kind('range').takes!(op('g.compare', 'GET', '/repos/{owner}/{repo}/compare/{basehead}', 'Compare two commits', { fieldNames: ['owner', 'repo', 'basehead'] }))).toBe(true);
    expect(kind('range').takes!(op('gl.compare', 'GET', '/projects/{id}/repository/compare', 'Compare two branches, tags, or commits', { fieldNames: ['id', 'from', 'to'] }))).toBe(true);
    expect(kind('range').takes!(op('j.notify', 'POST', '/issue/{issueIdOrKey}/notify', 'Send notification for issue', { fieldNames: ['issueIdOrKey', 'subject', 'to'] }))).toBe(false);
    expect(kind('range').takes!(op('g.notes', 'POST', '/repos/{owner}/{repo}/releases/generate-notes', 'Generate release notes content for a release', { fieldNames: ['tag_name', 'previous_tag_name'] }))).toBe(true);
    expect(kind('version').takes!(op('g.release', 'POST', '/repos/{owner}/{repo}/releases', 'Create a release', { fieldNames: ['tag_name', 'name', 'body'] }))).toBe(true);
    expect(kind('percent').takes!(op('s.coupons', 'POST', '/v1/coupons', 'Create a coupon', { fieldNames: ['percent_off', 'duration'] }))).toBe(true);
    expect(kind('text').takes!(op('c.quickAdd', 'POST', '/calendars/{calendarId}/events/quickAdd', 'Creates an event based on a simple text string.', { fieldNames: ['calendarId', 'text'] }))).toBe(true);
    expect(kind('text').takes!(op('c.insert', 'POST', '/calendars/{calendarId}/events', 'Creates an event.', { fieldNames: ['calendarId', 'summary', 'start'] }))).toBe(false);
    expect(kind('narrowed').takes!(op('j.search', 'GET', '/rest/api/3/search', 'Search for issues using JQL (GET)', { fieldNames: ['jql', 'maxResults'] }))).toBe(true);
    expect(kind('narrowed').takes!(op('g.issues', 'GET', '/repos/{owner}/{repo}/issues', 'List repository issues', { returnsList: true, fieldNames: ['labels', 'state', 'since'] }))).toBe(true);
    expect(kind('narrowed').takes!(op('j.priority', 'GET', '/rest/api/3/priority/{id}', 'Get priority', { fieldNames: ['id'] }))).toBe(false);
    expect(kind('percent').takes!(op('s.codes', 'POST', '/v1/promotion_codes', 'Create a promotion code', { fieldNames: ['coupon', 'code'] }))).toBe(false);
    expect(kind('due').takes!(op('g.milestone', 'POST', '/repos/{owner}/{repo}/milestones', 'Create a milestone', { fieldNames: ['title', 'due_on'] }))).toBe(true);
    expect(kind('due').takes!(op('a.search', 'GET', '/workspaces/{workspace_gid}/tasks/search', 'Search tasks', { fieldNames: ['due_on', 'text'] }))).toBe(false);
    expect(kind('version').takes!(op('g.deleteRelease', 'DELETE', '/repos/{owner}/{repo}/releases/{release_id}', 'Delete a release'))).toBe(false);
    expect(kind('access').takes!(op('g.collab', 'PUT', '/repos/{owner}/{repo}/collaborators/{username}', 'Add a repository collaborator', { fieldNames: ['username', 'permission'] }))).toBe(true);
    expect(kind('access').takes!(op('c.acl', 'POST', '/calendars/{calendarId}/acl', 'Creates an access control rule', { fieldNames: ['role', 'scope'] }))).toBe(true);
    expect(kind('access').takes!(op('g.level', 'GET', '/repos/{owner}/{repo}/collaborators/{username}/permission', 'Get repository permissions for a user'))).toBe(true);
    expect(kind('access').takes!(op('gl.share', 'POST', '/projects/{id}/share', 'Share the project with a group', { fieldNames: ['group_id', 'group_access', 'expires_at'] }))).toBe(true);
    expect(kind('assigned').takes!(op('a.tasks', 'GET', '/tasks', 'Get multiple tasks', { fieldNames: ['assignee', 'workspace', 'project'] }))).toBe(true);
    expect(kind('assigned').takes!(op('g.issues', 'GET', '/issues', 'List issues assigned to the authenticated user', { fieldNames: ['filter', 'state'] }))).toBe(true);
    expect(kind('assigned').takes!(op('j.scheme', 'GET', '/rest/api/3/project/{projectKeyOrId}/permissionscheme', 'Get assigned permission scheme'))).toBe(false);
    expect(kind('assigned').takes!(op('a.update', 'PUT', '/tasks/{task_gid}', 'Update a task', { fieldNames: ['assignee', 'name'] }))).toBe(false);
    expect(kind('money').takes!(op('s.transfer', 'POST', '/v1/transfers', 'Create a transfer', { fieldNames: ['amount', 'currency', 'destination'] }))).toBe(true);
    expect(kind('money').takes!(op('s.capture', 'POST', '/v1/payment_intents/{intent}/capture', 'Capture a PaymentIntent', { fieldNames: ['amount_to_capture'] }))).toBe(true);
    expect(kind('money').takes!(op('s.account', 'POST', '/v1/accounts/{account}', 'Update an account', { fieldNames: ['email', 'metadata'] }))).toBe(false);
    expect(kind('channel').takes!(op('s.invite', 'POST', '/conversations.invite', 'Invites users to a channel.', { fieldNames: ['channel', 'users'] }))).toBe(true);
    expect(kind('channel').takes!(op('s.upload', 'POST', '/files.upload', 'Uploads or creates a file.', { fieldNames: ['channels', 'file'] }))).toBe(true);
    expect(kind('channel').takes!(op('s.adminInvite', 'POST', '/admin.conversations.invite', 'Invite a user to a public or private channel.', { fieldNames: ['channel_id', 'user_ids'] }))).toBe(false);
    expect(kind('slug').takes!(op('g.count', 'GET', '/repos/{owner}/{repo}/stargazers/count', 'Get stargazer count'))).toBe(true);
    expect(kind('slug').takes!(op('g.starred', 'GET', '/users/{username}/starred', 'List repositories starred by a user'))).toBe(false);
    expect(kind('person').takes!(op('s.invite', 'POST', '/conversations.invite', 'Invites users to a channel.', { fieldNames: ['channel', 'users'] }))).toBe(true);
    expect(kind('person').takes!(op('g.request', 'POST', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 'Request reviewers for a pull request', { fieldNames: ['reviewers', 'team_reviewers'] }))).toBe(true);
    expect(kind('person').takes!(op('a.members', 'GET', '/projects/{project_gid}/project_memberships', 'Get memberships from a project', { fieldNames: ['project_gid', 'user'] }))).toBe(false);
    expect(kind('access').takes!(op('g.token', 'POST', '/app/installations/{id}/access_tokens', 'Create an installation access token', { fieldNames: ['repositories', 'permissions'] }))).toBe(false);
  });
});

describe('resources named by a value', () => {
  it('a tracker key names the resource most often addressed by key, once two operations are', () => {
    const jira = [
      op('j.edit', 'PUT', '/rest/api/3/issue/{issueIdOrKey}', 'Edit issue'),
      op('j.assign', 'PUT', '/rest/api/3/issue/{issueIdOrKey}/assignee', 'Assign issue'),
      op('j.project', 'GET', '/rest/api/3/project/{projectIdOrKey}', 'Get project'),
    ];
    expect(keyResource(jira)).toBe('issu');
    expect(keyResource(jira.slice(1))).toBeUndefined();
  });

  it('a slug names the resource a fifth of the paths address by two parameters', () => {
    const github = [op('g.repo', 'GET', '/repos/{owner}/{repo}', 'Get a repository'), op('g.user', 'GET', '/user', 'Get the authenticated user')];
    expect(slugResource(github)).toBe('repo');
    expect(slugResource([github[1]!])).toBeUndefined();
  });
});

describe('takenByResource', () => {
  it('marks every operation on a resource one of whose operations takes the value, and no other', () => {
    const takes = [true, false, false, false];
    takenByResource(takes, ['event', 'event', 'calendar', undefined]);
    expect(takes).toEqual([true, true, false, false]);
  });

  it('marks a resource only once the share asked of its operations takes the value', () => {
    const heads = ['acl', 'acl', 'acl', 'repo', 'repo', 'repo', 'repo'];
    const takes = [true, false, false, true, false, false, false];
    takenByResource(takes, heads, 0.3);
    expect(takes).toEqual([true, true, true, true, false, false, false]);
  });
});

describe('work assigned to the one asking', () => {
  it("is filtered by an assignee parameter, or by a query in the catalogue's own query language (Jira's jql)", () => {
    const takes = (fieldNames: string[], method = 'GET') => kind('assigned').takes!(op('x', method, '/x', 'An operation', { fieldNames }), {});
    expect(takes(['assignee'])).toBe(true);
    expect(takes(['jql', 'maxResults'])).toBe(true);
    expect(takes(['query'])).toBe(false);
    expect(takes(['jql'], 'PUT')).toBe(false);
  });
});

describe('tracker keys', () => {
  const takesKey = (path: string, keyStem: string | undefined) => kind('key').takes!(op('x', 'GET', path, 'An operation'), { keyStem });

  it("are taken by the key parameter of the resource they name, not by another resource's", () => {
    expect(takesKey('/rest/api/3/issue/{issueIdOrKey}/comment', 'issu')).toBe(true);
    expect(takesKey('/rest/api/3/statuscategory/{idOrKey}', 'issu')).toBe(false);
    expect(takesKey('/rest/api/3/statuscategory/{idOrKey}', undefined)).toBe(true);
    expect(takesKey('/rest/api/3/status', 'issu')).toBe(false);
  });

  it('answer "what\'s the status of SUP-441?" with the issue, not a status category taken by key', () => {
    const ranker = new Ranker([
      op('jira.getIssue', 'GET', '/rest/api/3/issue/{issueIdOrKey}', 'Get issue'),
      op('jira.editIssue', 'PUT', '/rest/api/3/issue/{issueIdOrKey}', 'Edit issue'),
      op('jira.getStatusCategory', 'GET', '/rest/api/3/statuscategory/{idOrKey}', 'Get status category'),
    ]);
    expect(ranker.search("what's the status of SUP-441?", 3)[0]!.id).toBe('jira.getIssue');
  });

  it('reads a version published, shipped, cut or named as what is made, not one said to exist', () => {
    expectWritten('version', [
      ['Publish v2.3.0 of our booking widget', true],
      ['cut v2.3 off main', true],
      ['mark the current main as v2.0', true],
      ['get rid of release v3.1.0', false],
      ['a zip of the repo at tag v2.1', false],
      ['block 203.0.113.7', false],
    ]);
  });

  it('reads values by their own forms: a date a thing is due by (not a question of when), a share off, a line that says when, access someone else is given (not the asker), a handle and the group one that is stands for, conditions in a query language, a setting\'s name in capitals', () => {
    expectWritten('due', [
      ["set up a 'Q3 backlog' target with a due date of September 30", true],
      ["add a 'Winter Showcase' deadline to the project", true],
      ["add an 'EHR go-live' target date of 2025-11-03", true],
      ['a task due next Thursday', true],
      ['what milestones does project 42 have and when are they due?', false],
    ]);
    expect(kind('percent').written('Set up 15% off for our loyalty regulars', parseQuery(''))).toBe(true);
    expectWritten('access', [
      ['share the calendar so she can edit it', true],
      ['who can see the roadmap calendar?', true],
      ['Give Priya developer access on the accessible-forms project', true],
      ['add my nephew as a developer on the bakery-site project', true],
      ['list the developers on the project', false],
      ['add the holidays calendar to my list so I can see it', false],
      ['pull the audit trail so we can see who did it', false],
    ]);
    expectWritten('handle', [
      ['Make an @oncall-backend handle that pings Sara and Chen', true],
      ['add @sam to #design', false],
    ]);
    expect(kind('handle').takes!(op('sl.usergroups_create', 'POST', '/usergroups.create', 'Create a User Group', { fieldNames: ['name', 'handle', 'description'] }))).toBe(true);
    // One named as the handle that already is stands for its group, which an operation takes by ID.
    expectWritten('group by handle', [
      ["who's actually in the @qa-leads handle?", true],
      ['swap Dana and Lee into our @oncall-mobile group', true],
      ['Make an @oncall-backend handle that pings Sara and Chen', false],
    ]);
    expect(kind('group by handle').takes!(op('sl.usergroups_users_update', 'POST', '/usergroups.users.update', 'Update the list of users for a User Group', { fieldNames: ['usergroup', 'users'] }))).toBe(true);
    expect(kind('group by handle').takes!(op('sl.usergroups_create', 'POST', '/usergroups.create', 'Create a User Group', { fieldNames: ['name', 'handle'] }))).toBe(false);
    expectWritten('conditions', [
      ['Run this query: project = FIRE AND labels = hydrant AND status != Done', true],
      ['pull everything she resolved: assignee = ana AND resolved >= startOfQuarter()', true],
      ['set ROBOT_ID=7 and restart', false],
    ]);
    expect(kind('conditions').takes!(op('j.search', 'GET', '/rest/api/3/search', 'Search for issues using JQL', { fieldNames: ['jql', 'maxResults'] }))).toBe(true);
    expectWritten('setting', [
      ['Add WAREHOUSE_DSN as a CI setting on the ingest project', true],
      ['set DEFAULT_REGION=us-east-1 for the org', true],
      ['Ask the HR team about ACME-12', false],
      ['close issue 12 in acme/web_app', false],
    ]);
    expectWritten('text', [
      ["just throw 'Staff meeting Friday 8am' on my calendar", true],
      ['lunch with Sam Friday 1pm on my calendar', false],
      ["add 'Order robes' to the project", false],
    ]);
  });

  it('reads a setting whose name says it holds a credential as a secret, where the catalogue keeps secrets apart from variables', () => {
    expectWritten('credential setting', [
      ['store our ADP_API_KEY for the Actions pipelines', true],
      ['store TWILIO_AUTH_TOKEN so the job can send texts', true],
      ['Add WAREHOUSE_DSN as a CI setting on the ingest project', false],
    ]);
    expectWritten('setting', [['store our ADP_API_KEY for the Actions pipelines', false]]);
    const secret = op('gh.create-secret', 'PUT', '/repos/{owner}/{repo}/actions/secrets/{secret_name}', 'Create or update a repository secret');
    const variable = op('gh.create-variable', 'POST', '/repos/{owner}/{repo}/actions/variables', 'Create a repository variable');
    expect(new Ranker([variable, secret]).search('store our ADP_API_KEY for the Actions pipelines in acme/pay', 2)[0]!.id).toBe('gh.create-secret');
    // A catalogue without secrets keeps such a name as a variable.
    const gitlab = op('gl.create-variable', 'POST', '/projects/{id}/variables', 'Create a new variable in a project');
    const hook = op('gl.create-hook', 'POST', '/projects/{id}/hooks', 'Add a hook to a project');
    expect(new Ranker([hook, gitlab]).search('Store VET_API_KEY for the scheduling project', 2)[0]!.id).toBe('gl.create-variable');
  });

  it('read one said to block, duplicate or relate to another, or two said to be linked, as a link between the two, taken in the body', () => {
    expect(kind('related').written('mark GAME-5 as blocking GAME-9', parseQuery(''))).toBe(true);
    expect(kind('related').written('PROJ-44 should be recorded as blocking PROJ-51', parseQuery(''))).toBe(true);
    expect(kind('related').written('move PROJ-1 and PROJ-2 to done', parseQuery(''))).toBe(false);
    // Work that can't go ahead until other work is done waits on it: the same link.
    expect(kind('related').written("CONF-95 can't start until CONF-93 is done", parseQuery(''))).toBe(true);
    expect(kind('related').written('#58 is waiting on #61', parseQuery(''))).toBe(true);
    expect(kind('related').written('GS-88 is holding up GS-90, connect them', parseQuery(''))).toBe(true);
    expect(kind('related').written('keep PROJ-1 open until Friday', parseQuery(''))).toBe(false);
    // Two said to be linked, whatever the link is.
    expect(kind('related').written('link PROC-12 to PROC-19', parseQuery(''))).toBe(true);
    expect(kind('related').written('SHOP-17 and SHOP-22 are the same problem, connect them', parseQuery(''))).toBe(true);
    expect(kind('related').written('add a web link to PROC-12', parseQuery(''))).toBe(false);
    expect(kind('related').written('link PROC-12 to PROC-12 again', parseQuery(''))).toBe(false);
    const ranker = new Ranker([
      op('jira.linkIssues', 'POST', '/rest/api/3/issueLink', 'Create issue link', { description: 'Creates a link between two issues, to indicate a relationship between them.' }),
      op('jira.getRemoteIssueLinks', 'GET', '/rest/api/3/issue/{issueIdOrKey}/remotelink', 'Get remote issue links', { returnsList: true, description: 'Returns the remote issue links for an issue.' }),
      op('jira.editIssue', 'PUT', '/rest/api/3/issue/{issueIdOrKey}', 'Edit issue'),
      op('jira.getIssue', 'GET', '/rest/api/3/issue/{issueIdOrKey}', 'Get issue'),
    ]);
    expect(ranker.search('record that BACK-5 blocks FRONT-9', 3)[0]!.id).toBe('jira.linkIssues');
    expect(ranker.search("HACK-9 can't start until HACK-4 is finished, connect them", 3)[0]!.id).toBe('jira.linkIssues');
    expect(ranker.search('mark GAME-5 as done', 3)[0]!.id).toBe('jira.editIssue');
  });

  it('reads the word that names a thing by its number, the word before "number" or "id", and any ID after "id" alone', () => {
    expect(numberNamers('set up a webhook on project 1199')).toEqual(['project']);
    expect(numberNamers('delete comment number 1833094')).toEqual(['comment']);
    expect(numberNamers('the spam (id 1650432)')).toEqual(['id']);
    expect(numberNamers('in the last 5 days')).toEqual([]);
  });
});

