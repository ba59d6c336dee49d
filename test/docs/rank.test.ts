// Intent ranking (src/docs/rank.ts) over a small hand-written catalogue, without an Engine: the
// action, resource and self cue a query asks for, what coverage says, acronyms read from the
// catalogue's own phrases, the bonus and cost of Unified and deprecated operations, ties, limit and keep.
import { describe, expect, it } from 'vitest';
import { analyseOperation } from '../../src/docs/analysis.ts';
import { parseQuery } from '../../src/docs/query.ts';
import { Ranker, type RankedOperation } from '../../src/docs/rank.ts';
import { rankedOperation } from '../fixtures/ranked-operation.ts';
import { stemOf } from '../../src/docs/text.ts';

const op = rankedOperation;

const GITHUB = [
  op('gh.issues/list', 'GET', '/repos/{owner}/{repo}/issues', 'List repository issues', { returnsList: true }),
  op('gh.issues/create', 'POST', '/repos/{owner}/{repo}/issues', 'Create an issue'),
  op('gh.issues/get', 'GET', '/repos/{owner}/{repo}/issues/{issue_number}', 'Get an issue'),
  op('gh.issues/delete-label', 'DELETE', '/repos/{owner}/{repo}/labels/{name}', 'Delete a label'),
  op('gh.pulls/list', 'GET', '/repos/{owner}/{repo}/pulls', 'List pull requests', { returnsList: true }),
  op('gh.pulls/create', 'POST', '/repos/{owner}/{repo}/pulls', 'Create a pull request'),
  op('gh.pulls/merge', 'PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'Merge a pull request'),
  op('gh.repos/get', 'GET', '/repos/{owner}/{repo}', 'Get a repository'),
  op('gh.repos/delete', 'DELETE', '/repos/{owner}/{repo}', 'Delete a repository'),
  op('gh.users/get-authenticated', 'GET', '/user', 'Get the authenticated user'),
];
const ranker = new Ranker(GITHUB);
const ids = (query: string, limit = 10) => ranker.search(query, limit).map((h) => h.id);
/** The first operation a ranker finds for a query. */
const best = (ranker: Ranker, query: string) => ranker.search(query, 3)[0]!.id;

describe('Ranker.search', () => {
  it.each([
    ['create an issue', 'gh.issues/create'],
    ['list issues', 'gh.issues/list'],
    ['remove a repo', 'gh.repos/delete'],
    ['merge a pull request', 'gh.pulls/merge'],
    ['who am I', 'gh.users/get-authenticated'],
  ])('ranks the operation whose action and resource %j asks for first', (query, best) => {
    expect(ids(query)[0]).toBe(best);
  });

  it('puts every operation on the asked resource above those on another one', () => {
    const ranked = ids('create an issue');
    const lastIssue = Math.max(...['gh.issues/create', 'gh.issues/get', 'gh.issues/list'].map((id) => ranked.indexOf(id)));
    expect(lastIssue).toBe(2);
  });

  it('says an operation that explains every query word by its resource covers the query, and one that explains none does not', () => {
    const hits = new Map(ranker.search('issues', 10).map((h) => [h.id, h.coverage]));
    expect(hits.get('gh.issues/create')).toBeCloseTo(1);
    expect(hits.get('gh.issues/list')).toBeCloseTo(1);
    expect(hits.get('gh.pulls/list') ?? 0).toBe(0);
  });

  it('reads a word the catalogue never does the asked act to as its synonym that it does it to: "delete a branch" deletes a ref', () => {
    const git = new Ranker([
      op('gh.repos/get-branch', 'GET', '/repos/{owner}/{repo}/branches/{branch}', 'Get a branch'),
      op('gh.repos/rename-branch', 'POST', '/repos/{owner}/{repo}/branches/{branch}/rename', 'Rename a branch'),
      op('gh.repos/delete-branch-protection', 'DELETE', '/repos/{owner}/{repo}/branches/{branch}/protection', 'Delete branch protection'),
      op('gh.git/delete-ref', 'DELETE', '/repos/{owner}/{repo}/git/refs/{ref}', 'Delete a reference'),
      op('gh.git/create-ref', 'POST', '/repos/{owner}/{repo}/git/refs', 'Create a reference'),
    ]);
    expect(best(git, 'delete the feature/old-login branch')).toBe('gh.git/delete-ref');
    // A branch the catalogue gets by its own name is got so.
    expect(best(git, 'get the main branch')).toBe('gh.repos/get-branch');
  });

  it('reads many at once ("in one go", "at once") as the bulk operation, and a generic thing acted on ("an item") as any', () => {
    const jira = new Ranker([
      op('j.createIssue', 'POST', '/rest/api/3/issue', 'Create issue'),
      op('j.createIssues', 'POST', '/rest/api/3/issue/bulk', 'Bulk create issue'),
      op('j.getIssue', 'GET', '/rest/api/3/issue/{issueIdOrKey}', 'Get issue'),
    ]);
    expect(best(jira, 'create 20 issues at once')).toBe('j.createIssues');
    expect(best(jira, 'create an issue')).toBe('j.createIssue');
    // Alike but for what they pin: the item may be the message asked for, the bookmark is not.
    const slack = new Ranker([
      op('sl.a', 'POST', '/bookmarks.add', 'Pins a bookmark.'),
      op('sl.b', 'POST', '/items.add', 'Pins an item.'),
      op('sl.c', 'GET', '/bookmarks.list', 'Lists bookmarks.', { returnsList: true }),
      op('sl.d', 'GET', '/items.list', 'Lists items.', { returnsList: true }),
    ]);
    expect(best(slack, 'pin the onboarding message in #new-hires')).toBe('sl.b');
  });

  it('prefers an operation whose summary names the file the query names', () => {
    const gitlab = new Ranker([
      op('gl.postV3CiLint', 'POST', '/v3/ci/lint', 'Validation of .gitlab-ci.yml content'),
      op('gl.getV3InternalCheck', 'GET', '/v3/internal/check', 'Check the internal API'),
      op('gl.getFiles', 'GET', '/v3/projects/{id}/repository/files', 'Get a file from the repository'),
      op('gl.getCommit', 'GET', '/v3/projects/{id}/repository/commits/{sha}', 'Get a specific commit of a project'),
    ]);
    expect(best(gitlab, 'check my .gitlab-ci.yml is valid before I push')).toBe('gl.postV3CiLint');
  });

  it('reads no time to act at, nor a numbered thing, inside quoted text or what a message says', () => {
    const slack = new Ranker([
      op('sl.post', 'POST', '/chat.postMessage', 'Sends a message to a channel.', { fieldNames: ['channel', 'text'] }),
      op('sl.schedule', 'POST', '/chat.scheduleMessage', 'Schedules a message to be sent to a channel.', { fieldNames: ['channel', 'text', 'post_at'] }),
    ]);
    expect(best(slack, "post 'Game day tomorrow!!' in #team-chat")).toBe('sl.post');
    expect(best(slack, 'post in #icu-staffing that we need two float nurses for tonight')).toBe('sl.post');
    expect(best(slack, 'post the game day reminder in #team-chat tomorrow at 9am')).toBe('sl.schedule');
  });

  it('reads a verb the catalogue lacks that says what to do ("nuke", "trash") as its action written the catalogue\'s way, not widened by meaning', () => {
    const repos = new Ranker([
      op('gh.repos/delete', 'DELETE', '/repos/{owner}/{repo}', 'Delete a repository'),
      op('gh.actions/remove-selected-repo-from-org-secret', 'DELETE', '/orgs/{org}/actions/secrets/{secret_name}/repositories/{repository_id}', 'Remove selected repository from an organization secret'),
      op('gh.apps/remove-repo-from-installation', 'DELETE', '/user/installations/{installation_id}/repositories/{repository_id}', 'Remove a repository from an app installation'),
      op('gh.activity/unstar-repo', 'DELETE', '/user/starred/{owner}/{repo}', 'Unstar a repository for the authenticated user'),
      op('gh.gists/delete', 'DELETE', '/gists/{gist_id}', 'Delete a gist'),
    ]);
    for (const query of ['nuke the old-prototype repo', 'trash the old-prototype repo', 'nuke the old-prototype repo, we don\'t need it anymore']) {
      expect(best(repos, query), query).toBe('gh.repos/delete');
    }
  });

  it("reads a bare /user segment as the signed-in user only where the catalogue addresses others as /users/{id}", () => {
    const jira = new Ranker([
      op('ji.getCurrentUser', 'GET', '/rest/api/3/myself', 'Get current user'),
      op('ji.findAssignableUsers', 'GET', '/rest/api/3/user/assignable/search', 'Find users assignable to issues', { returnsList: true }),
      op('ji.getUserGroups', 'GET', '/rest/api/3/user/groups', 'Get user groups', { returnsList: true }),
    ]);
    const selfOf = (ranker: Ranker, query: string, id: string) => {
      const explain = new Map<string, Record<string, unknown>>();
      ranker.search(query, 10, () => true, parseQuery(query), explain);
      return explain.get(id)?.self;
    };
    expect(selfOf(jira, 'show me the users assignable to my issues', 'ji.findAssignableUsers')).toBe(-0.3);
    expect(selfOf(jira, 'who am I', 'ji.getCurrentUser')).toBe(1);
    const github = new Ranker([
      op('gh.users/get-authenticated', 'GET', '/user', 'Get the authenticated user'),
      op('gh.users/get-by-username', 'GET', '/users/{username}', 'Get a user'),
      op('gh.repos/list-for-user', 'GET', '/users/{username}/repos', 'List repositories for a user', { returnsList: true }),
      op('gh.repos/list-for-authenticated-user', 'GET', '/user/repos', 'List repositories', { returnsList: true }),
    ]);
    expect(best(github, 'list my repositories')).toBe('gh.repos/list-for-authenticated-user');
    expect(selfOf(github, 'list my repositories', 'gh.repos/list-for-authenticated-user')).toBe(1);
  });

  it('reads a bare object that is no resource of the catalogue as a person: "take alex off the team" removes a member, not the team', () => {
    const teams = new Ranker([
      op('gh.teams/delete-in-org', 'DELETE', '/orgs/{org}/teams/{team_slug}', 'Delete a team'),
      op('gh.teams/remove-membership-for-user-in-org', 'DELETE', '/orgs/{org}/teams/{team_slug}/memberships/{username}', 'Remove team membership for a user'),
      op('gh.teams/remove-repo-in-org', 'DELETE', '/orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}', 'Remove a repository from a team'),
      op('gh.teams/add-or-update-membership-for-user-in-org', 'PUT', '/orgs/{org}/teams/{team_slug}/memberships/{username}', 'Add or update team membership for a user'),
      op('gh.teams/add-or-update-repo-permissions-in-org', 'PUT', '/orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}', 'Add or update team repository permissions'),
    ]);
    expect(best(teams, 'take alex off the frontend team')).toBe('gh.teams/remove-membership-for-user-in-org');
    expect(best(teams, 'add carol to the platform team')).toBe('gh.teams/add-or-update-membership-for-user-in-org');
    // A resource the catalogue has stays a thing: the repository is what leaves the team.
    expect(best(teams, 'remove repository from the platform team')).toBe('gh.teams/remove-repo-in-org');
  });

  it('costs a question a write that disagrees with it more than a command: "who is assigned to issue 3" lists assignees, not adds them', () => {
    const issues = new Ranker([
      op('gh.issues/add-assignees', 'POST', '/repos/{owner}/{repo}/issues/{issue_number}/assignees', 'Add assignees to an issue', { fieldNames: ['assignees'] }),
      op('gh.issues/remove-assignees', 'DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/assignees', 'Remove assignees from an issue', { fieldNames: ['assignees'] }),
      op('gh.issues/list-assignees', 'GET', '/repos/{owner}/{repo}/assignees', 'List assignees', { returnsList: true }),
      op('gh.issues/get', 'GET', '/repos/{owner}/{repo}/issues/{issue_number}', 'Get an issue'),
    ]);
    expect(best(issues, 'who is assigned to issue 3')).toBe('gh.issues/list-assignees');
  });

  it('prefers a write that takes people where a person is put in a place: "add maria and tom to #design" invites, not stars', () => {
    const slack = new Ranker([
      op('s.conversations_invite', 'POST', '/conversations.invite', 'Invites users to a channel.', { fieldNames: ['channel', 'users'] }),
      op('s.stars_add', 'POST', '/stars.add', 'Adds a star to an item.', { fieldNames: ['channel', 'file', 'timestamp'] }),
      op('s.reactions_add', 'POST', '/reactions.add', 'Adds a reaction to an item.', { fieldNames: ['channel', 'name', 'timestamp'] }),
      op('s.conversations_members', 'GET', '/conversations.members', 'Retrieve members of a conversation.', { fieldNames: ['channel', 'cursor'] }),
    ]);
    for (const query of ['add maria and tom to #design-review', 'add Priya and Tom to #design']) expect(best(slack, query), query).toBe('s.conversations_invite');
  });

  it('still widens a bare object the catalogue lacks by meaning: "move meeting to friday" moves an event', () => {
    const calendar = new Ranker([
      op('cal.events.update', 'PUT', '/calendars/{calendarId}/events/{eventId}', 'Updates an event'),
      op('cal.calendarList.patch', 'PATCH', '/users/me/calendarList/{calendarId}', "Updates an existing calendar on the user's calendar list"),
      op('cal.acl.update', 'PUT', '/calendars/{calendarId}/acl/{ruleId}', 'Updates an access control rule'),
    ]);
    expect(best(calendar, 'move meeting to friday')).toBe('cal.events.update');
  });

  it('reads a command that starts with one of the catalogue\'s resources before its object as making one ("tag v1.8.0 on master")', () => {
    const tags = new Ranker([
      op('gl.tags/list', 'GET', '/projects/{id}/repository/tags', 'Get a project repository tags', { returnsList: true }),
      op('gl.tags/get', 'GET', '/projects/{id}/repository/tags/{tag_name}', 'Get a single repository tag'),
      op('gl.tags/create', 'POST', '/projects/{id}/repository/tags', 'Create a new repository tag'),
      op('gl.tags/delete', 'DELETE', '/projects/{id}/repository/tags/{tag_name}', 'Delete a repository tag'),
      op('gl.branches/protect', 'PUT', '/projects/{id}/repository/branches/{branch}/protect', 'Protect a single branch'),
    ]);
    expect(best(tags, 'tag v1.8.0 on master')).toBe('gl.tags/create');
    // Before its number or name alone the word names one: "tag v1.8.0" is that tag.
    expect(best(tags, 'tag v1.8.0')).toBe('gl.tags/get');
  });

  it('reads "stop sharing" as removing what sharing made when the catalogue has no "unshare", and "stop following" as its own "unfollow"', () => {
    const calendar = new Ranker([
      op('cal.acl.delete', 'DELETE', '/calendars/{calendarId}/acl/{ruleId}', 'Deletes an access control rule'),
      op('cal.acl.insert', 'POST', '/calendars/{calendarId}/acl', 'Creates an access control rule'),
      op('cal.channels.stop', 'POST', '/channels/stop', 'Stop watching resources through this channel'),
      op('cal.calendars.get', 'GET', '/calendars/{calendarId}', 'Returns metadata for a calendar'),
    ]);
    expect(best(calendar, 'stop sharing the family calendar with mike')).not.toBe('cal.channels.stop');
    const users = new Ranker([
      op('gh.users/unfollow', 'DELETE', '/user/following/{username}', 'Unfollow a user'),
      op('gh.users/follow', 'PUT', '/user/following/{username}', 'Follow a user'),
      op('gh.users/delete-email', 'DELETE', '/user/emails', 'Delete an email address for the authenticated user'),
    ]);
    expect(best(users, 'stop following octocat')).toBe('gh.users/unfollow');
  });

  it('prefers an operation with a time field when the query names a day or an hour', () => {
    const calendar = new Ranker([
      op('cal.calendarList.insert', 'POST', '/users/me/calendarList', 'Adds an existing calendar to the calendar list', { fieldNames: ['id', 'colorId', 'hidden'] }),
      op('cal.events.insert', 'POST', '/calendars/{calendarId}/events', 'Creates an event', { fieldNames: ['calendarId', 'summary', 'start', 'end', 'attendees'] }),
      op('cal.calendars.insert', 'POST', '/calendars', 'Creates a secondary calendar', { fieldNames: ['summary', 'timeZone'] }),
    ]);
    expect(best(calendar, 'book a 1:1 with maria on Thursday at 3pm')).toBe('cal.events.insert');
  });

  it('reads an email address as implying the word for it: "which user is jane@acme.com" asks for the lookup by email', () => {
    const slack = new Ranker([
      op('sl.users_info', 'GET', '/users.info', 'Gets information about a user.', { fieldNames: ['user', 'include_locale'] }),
      op('sl.users_lookupByEmail', 'GET', '/users.lookupByEmail', 'Find a user with an email address.', { fieldNames: ['email'] }),
      op('sl.users_list', 'GET', '/users.list', 'Lists all users in a Slack team.', { returnsList: true, fieldNames: ['cursor', 'limit'] }),
      op('sl.users_profile_set', 'POST', '/users.profile.set', "Set a user's profile information.", { fieldNames: ['user', 'profile', 'name', 'value'] }),
    ]);
    expect(best(slack, 'which user is jane@acme.com')).toBe('sl.users_lookupByEmail');
  });

  it('prefers an operation that takes an email address when the query writes one', () => {
    const slack = new Ranker([
      op('sl.users_info', 'GET', '/users.info', 'Get a user', { fieldNames: ['user'] }),
      op('sl.users_lookup', 'GET', '/users.lookup', 'Get a user record', { fieldNames: ['email'] }),
    ]);
    expect(best(slack, 'show the user U0123')).toBe('sl.users_info');
    expect(best(slack, 'show the user jane@acme.com')).toBe('sl.users_lookup');
  });

  it('reads a tracker key (PROJ-12) as naming the resource the catalogue addresses by key', () => {
    const jira = new Ranker([
      op('j.editIssue', 'PUT', '/rest/api/3/issue/{issueIdOrKey}', 'Edit issue', { fieldNames: ['issueIdOrKey', 'fields'] }),
      op('j.deleteIssue', 'DELETE', '/rest/api/3/issue/{issueIdOrKey}', 'Delete issue', { fieldNames: ['issueIdOrKey'] }),
      op('j.deleteComponent', 'DELETE', '/rest/api/3/component/{id}', 'Delete component', { fieldNames: ['id'] }),
      op('j.deleteVersion', 'DELETE', '/rest/api/3/version/{id}', 'Delete version', { fieldNames: ['id'] }),
    ]);
    expect(best(jira, 'get rid of TEST-1, it was created by mistake')).toBe('j.deleteIssue');
  });

  it('puts an operation that takes the tracker key the query writes above one about another word of the query that cannot', () => {
    const jira = new Ranker([
      op('j.editIssue', 'PUT', '/rest/api/3/issue/{issueIdOrKey}', 'Edit issue', { fieldNames: ['issueIdOrKey', 'fields', 'update'] }),
      op('j.updatePriority', 'PUT', '/rest/api/3/priority/{id}', 'Update priority', { fieldNames: ['id', 'name', 'description'] }),
      op('j.getPriority', 'GET', '/rest/api/3/priority/{id}', 'Get priority', { fieldNames: ['id'] }),
      op('j.getIssue', 'GET', '/rest/api/3/issue/{issueIdOrKey}', 'Get issue', { fieldNames: ['issueIdOrKey'] }),
    ]);
    expect(best(jira, 'bump PROJ-31 to highest priority')).toBe('j.editIssue');
  });

  it('reads a number after # as one an operation takes in its path', () => {
    const github = new Ranker([
      op('gh.issues/add-labels', 'POST', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 'Add labels to an issue', { fieldNames: ['labels'] }),
      op('gh.issues/create-label', 'POST', '/repos/{owner}/{repo}/labels', 'Create a label', { fieldNames: ['name', 'color'] }),
      op('gh.issues/get-label', 'GET', '/repos/{owner}/{repo}/labels/{name}', 'Get a label', { fieldNames: ['name'] }),
    ]);
    expect(best(github, 'put the needs-triage label on acme/web#45')).toBe('gh.issues/add-labels');
  });

  it('reads a day as naming a thing of a resource whose operations take times, whichever operation on it is asked for', () => {
    const calendar = new Ranker([
      op('cal.events.insert', 'POST', '/calendars/{calendarId}/events', 'Creates an event', { fieldNames: ['calendarId', 'summary', 'start', 'end'] }),
      op('cal.events.delete', 'DELETE', '/calendars/{calendarId}/events/{eventId}', 'Deletes an event', { fieldNames: ['calendarId', 'eventId', 'sendUpdates'] }),
      op('cal.calendars.delete', 'DELETE', '/calendars/{calendarId}', 'Deletes a secondary calendar', { fieldNames: ['calendarId'] }),
      op('cal.acl.delete', 'DELETE', '/calendars/{calendarId}/acl/{ruleId}', 'Deletes an access control rule', { fieldNames: ['calendarId', 'ruleId'] }),
    ]);
    expect(best(calendar, 'scrap my dentist appointment on monday')).toBe('cal.events.delete');
  });

  it('reads sharing and levels of access as naming an operation on what holds a permission or role', () => {
    const calendar = new Ranker([
      op('cal.acl.insert', 'POST', '/calendars/{calendarId}/acl', 'Creates an access control rule', { fieldNames: ['calendarId', 'role', 'scope'] }),
      op('cal.acl.delete', 'DELETE', '/calendars/{calendarId}/acl/{ruleId}', 'Deletes an access control rule', { fieldNames: ['calendarId', 'ruleId'] }),
      op('cal.acl.list', 'GET', '/calendars/{calendarId}/acl', 'Returns the rules in the access control list for the calendar', { returnsList: true, fieldNames: ['calendarId'] }),
      op('cal.calendars.delete', 'DELETE', '/calendars/{calendarId}', 'Deletes a secondary calendar', { fieldNames: ['calendarId'] }),
      op('cal.calendars.update', 'PUT', '/calendars/{calendarId}', 'Updates metadata for a calendar', { fieldNames: ['calendarId', 'summary'] }),
    ]);
    expect(best(calendar, 'stop sharing the family calendar with mike')).toBe('cal.acl.delete');
    expect(best(calendar, 'share my work calendar with jane so she can edit it')).toBe('cal.acl.insert');
  });

  it('reads two versions as the ends of a range, taken by an operation with fields for both', () => {
    const gitlab = new Ranker([
      op('gl.mrChanges', 'GET', '/projects/{id}/merge_requests/{merge_request_id}/changes', 'Show the merge request changes', { fieldNames: ['id', 'merge_request_id'] }),
      op('gl.compare', 'GET', '/projects/{id}/repository/compare', 'Compare two branches, tags, or commits', { fieldNames: ['id', 'from', 'to'] }),
      op('gl.tags', 'GET', '/projects/{id}/repository/tags', 'Get a project repository tags', { returnsList: true, fieldNames: ['id'] }),
    ]);
    expect(best(gitlab, 'what changed between v1.2 and v1.3?')).toBe('gl.compare');
  });

  it('reads a time to come as asking to schedule what is to be done then', () => {
    const slack = new Ranker([
      op('sl.chat_postMessage', 'POST', '/chat.postMessage', 'Posts a message to a channel.', { fieldNames: ['channel', 'text'] }),
      op('sl.chat_scheduleMessage', 'POST', '/chat.scheduleMessage', 'Schedules a message to be posted to a channel.', { fieldNames: ['channel', 'text', 'post_at'] }),
      op('sl.chat_update', 'POST', '/chat.update', 'Updates a message.', { fieldNames: ['channel', 'text', 'ts'] }),
    ]);
    expect(best(slack, 'post a message to #eng')).toBe('sl.chat_postMessage');
    expect(best(slack, 'post a message to #eng tomorrow')).toBe('sl.chat_scheduleMessage');
  });

  it('reads a line of a file as where a comment goes, on an operation with a field for it', () => {
    const github = new Ranker([
      op('gh.pulls/create-review', 'POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 'Create a review for a pull request', { fieldNames: ['body', 'event', 'comments'] }),
      op('gh.pulls/create-review-comment', 'POST', '/repos/{owner}/{repo}/pulls/{pull_number}/comments', 'Create a review comment for a pull request', { fieldNames: ['body', 'path', 'line'] }),
      op('gh.repos/generate-release-notes', 'POST', '/repos/{owner}/{repo}/releases/generate-notes', 'Generate release notes content for a release', { fieldNames: ['tag_name'] }),
    ]);
    expect(best(github, 'leave a note on line 40 of src/app.ts in PR 12')).toBe('gh.pulls/create-review-comment');
  });

  it('prefers an operation that takes a span of time when the query writes one', () => {
    const jira = new Ranker([
      op('j.addWorklog', 'POST', '/rest/api/3/issue/{issueIdOrKey}/worklog', 'Add worklog', { fieldNames: ['issueIdOrKey', 'timeSpent', 'started'] }),
      op('j.getChangeLogs', 'GET', '/rest/api/3/issue/{issueIdOrKey}/changelog', 'Get changelogs', { returnsList: true, fieldNames: ['issueIdOrKey'] }),
      op('j.addComment', 'POST', '/rest/api/3/issue/{issueIdOrKey}/comment', 'Add comment', { fieldNames: ['issueIdOrKey', 'body'] }),
    ]);
    expect(best(jira, 'log 3 hours on PROJ-7')).toBe('j.addWorklog');
  });

  it('reads a verb no action word says as setting the field or value it names, on a write', () => {
    const github = new Ranker([
      op('gh.pulls/get', 'GET', '/repos/{owner}/{repo}/pulls/{pull_number}', 'Get a pull request', { fieldNames: ['pull_number'] }),
      op('gh.pulls/update', 'PATCH', '/repos/{owner}/{repo}/pulls/{pull_number}', 'Update a pull request', { fieldNames: ['title', 'body', 'state', 'open', 'closed'] }),
      op('gh.pulls/create-review', 'POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 'Create a review for a pull request', { fieldNames: ['body', 'event', 'APPROVE', 'REQUEST_CHANGES', 'COMMENT'] }),
      op('gh.repos/update', 'PATCH', '/repos/{owner}/{repo}', 'Update a repository', { fieldNames: ['name', 'private', 'archived'] }),
      op('gh.repos/get', 'GET', '/repos/{owner}/{repo}', 'Get a repository'),
    ]);
    expect(best(github, 'approve pull request 58')).toBe('gh.pulls/create-review');
    expect(best(github, 'archive acme/old-site, nobody uses it')).toBe('gh.repos/update');
  });

  it('takes a page cursor (starting_after, ending_before) for no time field', () => {
    const list = (id: string, fieldNames: string[]) => op(id, 'GET', '/v1/refunds', 'List all refunds', { returnsList: true, fieldNames });
    const ranker = new Ranker([list('st.refunds.paged', ['limit', 'starting_after', 'ending_before']), list('st.refunds.timed', ['limit', 'created_at']), list('st.refunds.plain', ['limit'])]);
    const score = (id: string) => ranker.search('list refunds from yesterday', 3).find((h) => h.id === id)!.score;
    // Within what the field names' own words move (the time bonus is 0.2).
    expect(score('st.refunds.paged')).toBeCloseTo(score('st.refunds.plain'), 1);
    expect(score('st.refunds.timed')).toBeGreaterThan(score('st.refunds.plain'));
  });

  const ACCOUNTS = new Ranker([
    op('gh.repos/create-for-authenticated-user', 'POST', '/user/repos', 'Create a repository for the authenticated user'),
    op('gh.repos/get', 'GET', '/repos/{owner}/{repo}', 'Get a repository'),
    op('gh.repos/delete', 'DELETE', '/repos/{owner}/{repo}', 'Delete a repository'),
    op('gh.repos/list-for-org', 'GET', '/orgs/{org}/repos', 'List organization repositories', { returnsList: true }),
    op('gh.users/add-social-account', 'POST', '/user/social_accounts', 'Add social accounts for the authenticated user'),
    op('gh.users/list-social-accounts', 'GET', '/user/social_accounts', 'List social accounts for the authenticated user', { returnsList: true }),
  ]);

  it('puts the operation on the resource asked for above one on the resource named only as its scope, however rare its word', () => {
    expect(ACCOUNTS.search('a brand new repository under my account', 1)[0]!.id).toBe('gh.repos/create-for-authenticated-user');
  });

  it('reads a word the catalogue lacks, right before one it has, as a name, not a word to widen', () => {
    const read = (query: string) => {
      const explain = new Map<string, Record<string, unknown>>();
      ACCOUNTS.search(query, 1, () => true, undefined, explain);
      return (explain.get('(query)')!.terms as string[]).find((t) => t.startsWith('payments:'))!;
    };
    // Alone it is widened by meaning (neighbours after its own stem); naming a repository it is not.
    expect(read('create an issue about payments')).toMatch(/\[payment,/);
    expect(read('create an issue in the payments repository')).toMatch(/\[payment\]$/);
  });

  it('keeps coverage a share of the query when it has nothing but implied words ("who am I?")', () => {
    const people = new Ranker([...GITHUB, op('gh.users/list-followers', 'GET', '/user/followers', 'List followers of the authenticated user', { returnsList: true })]);
    const hits = people.search('who am I logged in as', 10);
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) expect(h.coverage).toBeLessThanOrEqual(1);
  });

  it('reads "for the authenticated user" as whose the thing is, not what it is about', () => {
    const mine = analyseOperation(op('gh.repos/list-for-authenticated-user', 'GET', '/user/repos', 'List repositories for the authenticated user', { returnsList: true }));
    expect(mine.structure.self).toBe(true);
    expect(mine.about).not.toContain('authent');
    expect(mine.gist).not.toContain('authenticated');
    const user = analyseOperation(op('gh.users/get-authenticated', 'GET', '/user', 'Get the authenticated user'));
    expect(user.about).toContain('authent');
    expect(user.gist).toContain('authenticated');
  });

  it('answers a question after people with a read, not a write on the same resource', () => {
    const reviews = new Ranker([
      op('gh.pulls/create-review', 'POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 'Create a review for a pull request'),
      op('gh.pulls/list-reviews', 'GET', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 'List reviews for a pull request', { returnsList: true }),
      op('gh.pulls/list', 'GET', '/repos/{owner}/{repo}/pulls', 'List pull requests', { returnsList: true }),
    ]);
    expect(reviews.search('who reviewed pull request 20?', 1)[0]!.id).toBe('gh.pulls/list-reviews');
  });

  it('reads a two-part slug (acme/api) as the resource two path parameters address', () => {
    const events = new Ranker([
      op('gh.activity/list-repo-events', 'GET', '/repos/{owner}/{repo}/events', 'List repository events', { returnsList: true }),
      op('gh.activity/list-public-events', 'GET', '/events', 'List public events', { returnsList: true }),
      op('gh.activity/list-events-for-user', 'GET', '/users/{username}/events', 'List events for the authenticated user', { returnsList: true }),
      op('gh.repos/get', 'GET', '/repos/{owner}/{repo}', 'Get a repository'),
    ]);
    expect(parseQuery('show me the events for acme/api').slug).toBe(true);
    expect(parseQuery('read config/settings.yaml').slug).toBeUndefined();
    expect(events.search('show me the events for acme/api', 1)[0]!.id).toBe('gh.activity/list-repo-events');
  });

  it('returns at most limit hits, best first, and only those keep admits', () => {
    const all = ranker.search('issues', 10);
    expect(all.map((h) => h.score)).toEqual([...all.map((h) => h.score)].sort((a, b) => b - a));
    expect(ranker.search('issues', 2).map((h) => h.id)).toEqual(all.slice(0, 2).map((h) => h.id));
    const kept = ranker.search('issues', 10, (id) => id !== 'gh.issues/list').map((h) => h.id);
    expect(kept).not.toContain('gh.issues/list');
    expect(kept).toContain('gh.issues/create');
  });
});

describe('acronyms of the catalogue’s phrases', () => {
  const PULLS = [
    op('gh.pulls/create', 'POST', '/repos/{owner}/{repo}/pulls', 'Create a pull request'),
    op('gh.pulls/merge', 'PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'Merge a pull request'),
    op('gh.pulls/update', 'PATCH', '/repos/{owner}/{repo}/pulls/{pull_number}', 'Update a pull request'),
    op('gh.issues/list', 'GET', '/repos/{owner}/{repo}/issues', 'List repository issues'),
  ];

  it('reads "PR" as "pull request" when three summaries write the phrase: a match by its own words', () => {
    const hits = new Ranker(PULLS).search('PR', 10);
    expect(hits.slice(0, 3).map((h) => h.id).sort()).toEqual(['gh.pulls/create', 'gh.pulls/merge', 'gh.pulls/update']);
    for (const hit of hits.slice(0, 3)) expect(hit.coverage).toBeGreaterThan(0.5);
  });

  it('reads an acronym\'s meaning from the phrase it stands for, so a long name that writes the letters does not win on them', () => {
    const settings = op(
      'gh.actions/set-private-repo-fork-pr-workflows-settings-repository',
      'PUT',
      '/repos/{owner}/{repo}/actions/permissions/fork-pr-workflows-private-repos',
      'Set private repo fork PR workflow settings for a repository',
    );
    const ranked = new Ranker([...PULLS, settings]).search('open a PR from feature/login', 3).map((h) => h.id);
    expect(ranked[0]).toBe('gh.pulls/create');
  });

  it('counts an operation\'s own verb only where the query uses it as its verb, not as a noun ("the PRs": request)', () => {
    const ops = [
      ...PULLS,
      op('gh.pulls/list', 'GET', '/repos/{owner}/{repo}/pulls', 'List pull requests', { returnsList: true }),
      op('gh.pulls/request-reviewers', 'POST', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 'Request reviewers for a pull request'),
    ];
    const ranker = new Ranker(ops);
    expect(best(ranker, 'show me the PRs in acme/api')).toBe('gh.pulls/list');
    expect(best(ranker, 'request reviewers for PR 5')).toBe('gh.pulls/request-reviewers');
  });

  it('never reads the phrase an acronym stands for as the verb asked for ("PRs in acme/api", "which PRs are waiting on me?": no request)', () => {
    const ranker = new Ranker([
      ...PULLS,
      op('gh.pulls/list', 'GET', '/repos/{owner}/{repo}/pulls', 'List pull requests', { returnsList: true }),
      op('gh.pulls/request-reviewers', 'POST', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 'Request reviewers for a pull request'),
    ]);
    expect(best(ranker, 'PRs in acme/api')).toBe('gh.pulls/list');
    expect(best(ranker, 'which PRs are waiting on me?')).toBe('gh.pulls/list');
  });

  it('counts an operation\'s own verb where any clause of a command starts with it, as where the first does ("green build, merge PR 12")', () => {
    const ranker = new Ranker([...PULLS, op('gh.repos/request-pages-build', 'POST', '/repos/{owner}/{repo}/pages/builds', 'Request a GitHub Pages build')]);
    const merge = (query: string) => ranker.search(query, 3).find((h) => h.id === 'gh.pulls/merge')!.score;
    expect(merge('green build, merge PR 12')).toBeCloseTo(merge('merge PR 12, green build'), 6);
  });

  it('with two, "PR" is no acronym of the catalogue: any match is a guess by meaning, with no coverage', () => {
    for (const hit of new Ranker(PULLS.slice(1)).search('PR', 10)) expect(hit.coverage).toBe(0);
  });
});

describe('operations alike but for their kind or deprecation', () => {
  const twin = (id: string, extra: Partial<RankedOperation> = {}) => op(id, 'POST', '/tickets', 'Create a ticket', extra);
  const search = (ops: RankedOperation[]) => new Ranker([...ops, ...GITHUB]).search('create a ticket', 2);

  it('breaks a tie by operation ID', () => {
    const [first, second] = search([twin('b.tickets/create'), twin('a.tickets/create')]);
    expect(first!.score).toBe(second!.score);
    expect([first!.id, second!.id]).toEqual(['a.tickets/create', 'b.tickets/create']);
  });

  it('ranks a deprecated operation 0.1 below its twin', () => {
    const [first, second] = search([twin('a.tickets/create', { deprecated: true }), twin('b.tickets/create')]);
    expect(first!.id).toBe('b.tickets/create');
    expect(first!.score - second!.score).toBeCloseTo(0.1, 6);
  });

  it('prefers a Unified operation (the whole outcome across providers) to a physical twin, by 0.25', () => {
    const [first, second] = search([twin('a.tickets/create'), twin('b.tickets/create', { kind: 'unified' })]);
    expect(first!.id).toBe('b.tickets/create');
    expect(first!.score - second!.score).toBeCloseTo(0.25, 6);
  });
});

describe('what an operation answers', () => {
  const presence = (responseNames: string[]) => [
    op('s.users_presence', 'GET', '/users.presence', 'Gets user presence information.', { responseNames }),
    op('s.users_info', 'GET', '/users.info', 'Gets information about a user.', { responseNames: ['user'] }),
    op('s.users_list', 'GET', '/users.list', 'Lists all users in a workspace.', { returnsList: true, responseNames: ['members'] }),
  ];
  const coverage = (ops: RankedOperation[]) => new Ranker(ops).search('is Maria online or idle?', 3).find((h) => h.id === 's.users_presence')!.coverage;

  it("explains a question by the answer's field names", () => {
    expect(coverage(presence(['online', 'presence', 'idle']))).toBeGreaterThan(coverage(presence([])));
  });

  it('reads "Create or update" as both actions', () => {
    const secrets = [
      op('gh.b/create-or-update-org-secret', 'PUT', '/orgs/{org}/secrets/{secret_name}', 'Create or update an organization secret'),
      op('gh.a/create-org-secret', 'PUT', '/orgs/{org}/secrets/{secret_name}', 'Create an organization secret'),
    ];
    expect(new Ranker(secrets).search('change the org secret', 1)[0]!.id).toBe('gh.b/create-or-update-org-secret');
  });
});

describe("an identifier's prefix", () => {
  const STRIPE = [
    op('st.GetChargesCharge', 'GET', '/v1/charges/{charge}', 'Retrieve a charge'),
    op('st.GetCustomersCustomer', 'GET', '/v1/customers/{customer}', 'Retrieve a customer'),
    op('st.GetPaymentIntentsIntent', 'GET', '/v1/payment_intents/{intent}', 'Retrieve a PaymentIntent'),
    op('st.GetPaymentLinksLink', 'GET', '/v1/payment_links/{link}', 'Retrieve a payment link'),
    op('st.GetDisputesDispute', 'GET', '/v1/disputes/{dispute}', 'Retrieve a dispute'),
  ];
  const top = (query: string) => new Ranker(STRIPE).search(query, 1)[0]!.id;

  it('names the resource it begins or abbreviates in order', () => {
    expect(top('did ch_3MqPe go through?')).toBe('st.GetChargesCharge');
    expect(top('look at cus_K8s2Lm')).toBe('st.GetCustomersCustomer');
    expect(top('what happened with dp_1NxQ2')).toBe('st.GetDisputesDispute');
  });

  it('prefers an operation whose path takes the thing it names to one on a word the query also writes ("payment ch_…": the charge)', () => {
    const ranker = new Ranker([
      ...STRIPE,
      op('st.GetInvoicesInvoice', 'GET', '/v1/invoices/{invoice}', 'Retrieve an invoice'),
      op('st.PostInvoicesInvoiceSend', 'POST', '/v1/invoices/{invoice}/send', 'Send an invoice for manual payment'),
      op('st.PostInvoices', 'POST', '/v1/invoices', 'Create an invoice'),
    ]);
    expect(ranker.search('did the payment ch_77Ab succeed', 1)[0]!.id).toBe('st.GetChargesCharge');
    expect(ranker.search('email in_5Tq to the client', 1)[0]!.id).toBe('st.PostInvoicesInvoiceSend');
  });

  it('asked for a list, prefers one that filters by the thing it names ("which invoices has cus_LAB01 received?")', () => {
    const ranker = new Ranker([
      ...STRIPE,
      op('st.GetInvoices', 'GET', '/v1/invoices', 'List all invoices', { returnsList: true, fieldNames: ['customer', 'status', 'limit'] }),
      op('st.GetCustomers', 'GET', '/v1/customers', 'List all customers', { returnsList: true, fieldNames: ['email', 'limit'] }),
    ]);
    expect(ranker.search('which invoices has customer cus_LAB01 received?', 1)[0]!.id).toBe('st.GetInvoices');
    expect(ranker.search('look at customer cus_LAB01', 1)[0]!.id).toBe('st.GetCustomersCustomer');
  });

  it("ranks by the words when an identifier's prefix names none of the catalogue's resources (tmr_ for terminal readers), every score a number", () => {
    const terminal = new Ranker([
      op('stripe.DeleteAccountsAccount', 'DELETE', '/v1/accounts/{account}', 'Delete an account'),
      op('stripe.GetTerminalReadersReader', 'GET', '/v1/terminal/readers/{reader}', 'Retrieve a Reader'),
      op('stripe.GetCustomersCustomer', 'GET', '/v1/customers/{customer}', 'Retrieve a customer'),
    ]);
    const hits = terminal.search('show the card reader tmr_55Hq', 3);
    expect(hits[0]!.id).toBe('stripe.GetTerminalReadersReader');
    for (const hit of hits) expect(Number.isFinite(hit.score)).toBe(true);
  });
});

describe('Ranker.search, who-questions', () => {
  const PEOPLE = [
    op('gh.activity/list-starred', 'GET', '/user/starred', 'List repositories starred by the authenticated user', { returnsList: true }),
    op('gh.activity/list-starred-by-user', 'GET', '/users/{username}/starred', 'List repositories starred by a user', { returnsList: true }),
    op('gh.activity/list-stargazers', 'GET', '/repos/{owner}/{repo}/stargazers', 'List stargazers', { returnsList: true }),
    op('gh.users/list-followers', 'GET', '/users/{username}/followers', 'List followers of a user', { returnsList: true }),
    op('gh.users/list-following', 'GET', '/users/{username}/following', 'List the people a user follows', { returnsList: true }),
    op('gh.orgs/list-members', 'GET', '/orgs/{org}/members', 'List organization members', { returnsList: true }),
    op('gh.orgs/remove-member', 'DELETE', '/orgs/{org}/members/{username}', 'Remove an organization member'),
  ];
  const top = (query: string) => new Ranker(PEOPLE).search(query, 1)[0]!.id;

  it('answers "who <verb>" with the people named after the verb (stargazers, followers)', () => {
    expect(top('who starred acme/api')).toBe('gh.activity/list-stargazers');
    expect(top('who follows octocat')).toBe('gh.users/list-followers');
  });

  it('does not take a noun for people in the query as the verb ("who are the members")', () => {
    expect(top('who are the members of the acme org')).toBe('gh.orgs/list-members');
  });

  it('prefers an answer about people for "who is in …": of two operations with one summary, the one on members, by a clear margin', () => {
    const teams = [
      op('gh.teams/list-members', 'GET', '/orgs/{org}/teams/{team_slug}/members', 'List team members', { returnsList: true }),
      op('gh.teams/list-member-settings', 'GET', '/orgs/{org}/teams/{team_slug}/member-settings', 'List team members', { returnsList: true }),
    ];
    const [first, second] = new Ranker(teams).search('who is in the platform team?', 2);
    expect(first!.id).toBe('gh.teams/list-members');
    expect(first!.score - second!.score).toBeGreaterThan(0.05);
  });

  it('reads a bare subject as a name, not as the operation it happens to name ("which gists does octocat have")', () => {
    const withOctocat = [
      ...PEOPLE,
      op('gh.meta/get-octocat', 'GET', '/octocat', 'Get Octocat'),
      op('gh.gists/list-for-user', 'GET', '/users/{username}/gists', 'List gists for a user', { returnsList: true }),
    ];
    const octocat = new Ranker(withOctocat);
    expect(best(octocat, 'which gists does octocat have')).toBe('gh.gists/list-for-user');
    expect(best(octocat, 'who does octocat follow')).toBe('gh.users/list-following');
  });
});

describe('Ranker.search, words the catalogue writes as one', () => {
  const JIRA = [
    op('jr.getChangeLogs', 'GET', '/issue/{issueIdOrKey}/changelog', 'Get changelogs', { returnsList: true }),
    op('jr.getIssueWorklog', 'GET', '/issue/{issueIdOrKey}/worklog', 'Get issue worklogs', { returnsList: true }),
    op('jr.addWorklog', 'POST', '/issue/{issueIdOrKey}/worklog', 'Add worklog'),
    op('jr.getIssue', 'GET', '/issue/{issueIdOrKey}', 'Get issue'),
    op('jr.getAttachment', 'GET', '/attachment/{id}', 'Get attachment metadata'),
  ];
  const top = (query: string) => new Ranker(JIRA).search(query, 1)[0]!.id;

  it('matches two query words the catalogue joins into one ("log … work": worklog)', () => {
    expect(top('show the work logged against ABC-12')).toBe('jr.getIssueWorklog');
    expect(top('log 2 hours of work on ABC-12')).toBe('jr.addWorklog');
  });

  it('joins only words a few apart, so a long query costs a few pairs per word', () => {
    const explain = new Map<string, Record<string, unknown>>();
    const query = 'show the work and then the many other things we logged';
    new Ranker(JIRA).search(query, 1, () => true, parseQuery(query), explain);
    expect(JSON.stringify(explain.get('(query)'))).not.toContain('worklog');
  });
});

describe('Ranker.search, implied words', () => {
  const REPOS = [
    op('gh.repos/create-for-authenticated-user', 'POST', '/user/repos', 'Create a repository for the authenticated user'),
    op('gh.issues/list-for-authenticated-user', 'GET', '/user/issues', 'List issues across the repositories of your account', { returnsList: true }),
    op('gh.repos/get', 'GET', '/repos/{owner}/{repo}', 'Get a repository'),
    op('gh.repos/delete', 'DELETE', '/repos/{owner}/{repo}', 'Delete a repository'),
    op('gh.repos/update', 'PATCH', '/repos/{owner}/{repo}', 'Update a repository'),
    op('gh.repos/list-for-org', 'GET', '/orgs/{org}/repos', 'List organization repositories', { returnsList: true }),
    op('gh.repos/list-forks', 'GET', '/repos/{owner}/{repo}/forks', 'List forks', { returnsList: true }),
    ...['topics', 'languages', 'tags', 'teams', 'contributors', 'branches', 'webhooks', 'deployments'].map((part) =>
      op(`gh.repos/list-${part}`, 'GET', `/repos/{owner}/{repo}/${part}`, `List repository ${part}`, { returnsList: true }),
    ),
  ];

  it('counts an implied word ("under my account") no more than the rarest word written', () => {
    expect(new Ranker(REPOS).search('a brand new repository under my account', 1)[0]!.id).toBe('gh.repos/create-for-authenticated-user');
  });
});

describe('Ranker.search, qualified variants', () => {
  const SLACK = [
    op('s.conversations_create', 'POST', '/conversations.create', '', { description: 'Initiates a public or private channel-based conversation' }),
    op('s.admin_conversations_create', 'POST', '/admin.conversations.create', '', { description: 'Create a public or private channel-based conversation.' }),
    op('s.conversations_archive', 'POST', '/conversations.archive', '', { description: 'Archives a conversation.' }),
    op('s.chat_postMessage', 'POST', '/chat.postMessage', '', { description: 'Sends a message to a channel.' }),
  ];
  const top = (query: string) => new Ranker(SLACK).search(query, 1)[0]!.id;

  it('ranks an operation with qualifiers the query did not ask for ("admin") below its plain form', () => {
    expect(top('create a channel called launch')).toBe('s.conversations_create');
  });

  it("prefers of two variants the one whose own words are the catalogue's commoner ones (Actions' secrets, not Codespaces')", () => {
    const secret = (family: string, summary: string) => op(`gh.${family}/delete-repo-secret`, 'DELETE', `/repos/{owner}/{repo}/${family}/secrets/{secret_name}`, summary);
    const actions = ['runs', 'jobs', 'artifacts', 'caches', 'workflows'].map((part) => op(`gh.actions/list-${part}`, 'GET', `/repos/{owner}/{repo}/actions/${part}`, `List ${part}`, { returnsList: true }));
    // The summaries differ as catalogues' do: the Codespaces one alone says "delete".
    const ranker = new Ranker([secret('codespaces', 'Delete a secret'), secret('actions', 'Remove a secret'), ...actions]);
    expect(ranker.search('delete the secret NPM_TOKEN from the repo', 1)[0]!.id).toBe('gh.actions/delete-repo-secret');
    expect(ranker.search('delete the codespaces secret NPM_TOKEN', 1)[0]!.id).toBe('gh.codespaces/delete-repo-secret');
  });

  it('keeps the qualified variant first when the query asks for its qualifier', () => {
    expect(top('as an admin, create a channel called launch')).toBe('s.admin_conversations_create');
  });

  it("keeps the signed-in user's own variant first when the query asks for one's own ('my secret')", () => {
    const ranker = new Ranker([
      op('gh.codespaces/get-secret-for-authenticated-user', 'GET', '/user/codespaces/secrets/{secret_name}', 'Get a secret for the authenticated user'),
      op('gh.actions/get-repo-secret', 'GET', '/repos/{owner}/{repo}/actions/secrets/{secret_name}', 'Get a secret'),
      ...['runs', 'jobs', 'artifacts', 'caches', 'workflows'].map((part) => op(`gh.actions/list-${part}`, 'GET', `/repos/{owner}/{repo}/actions/${part}`, `List ${part}`, { returnsList: true })),
    ]);
    expect(ranker.search('get my secret NPM_TOKEN', 1)[0]!.id).toBe('gh.codespaces/get-secret-for-authenticated-user');
  });

  it('takes no deprecated operation for the default form of its replacement (/teams/{team_id} beside /orgs/{org}/teams/{team_slug})', () => {
    const ranker = new Ranker([
      op('gh.teams/get-legacy', 'GET', '/teams/{team_id}', 'Get a legacy team', { deprecated: true }),
      op('gh.teams/get-by-name', 'GET', '/orgs/{org}/teams/{team_slug}', 'Get a team'),
      op('gh.orgs/get', 'GET', '/orgs/{org}', 'Get an organization'),
      op('gh.orgs/list-members', 'GET', '/orgs/{org}/members', 'List organization members', { returnsList: true }),
      op('gh.orgs/list-hooks', 'GET', '/orgs/{org}/hooks', 'List organization webhooks', { returnsList: true }),
    ]);
    expect(ranker.search('get the platform team', 1)[0]!.id).toBe('gh.teams/get-by-name');
  });
});

describe("Ranker.search, the catalogue's own verbs", () => {
  it('reads "tick off", "check off" a task as marking it done, an update', () => {
    const tasks = new Ranker([
      op('as.getTask', 'GET', '/tasks/{task_gid}', 'Get a task'),
      op('as.updateTask', 'PUT', '/tasks/{task_gid}', 'Update a task', { fieldNames: ['completed', 'name', 'notes'] }),
      op('as.deleteTask', 'DELETE', '/tasks/{task_gid}', 'Delete a task'),
      op('as.addDependenciesForTask', 'POST', '/tasks/{task_gid}/addDependencies', 'Set dependencies for a task'),
    ]);
    expect(best(tasks, "tick off the 'Pay rent' task")).toBe('as.updateTask');
    expect(best(tasks, 'check off the groceries task')).toBe('as.updateTask');
  });

  it('reads "hand … over" as changing who has it, an update', () => {
    const tasks = new Ranker([
      op('as.getTask', 'GET', '/tasks/{task_gid}', 'Get a task'),
      op('as.updateTask', 'PUT', '/tasks/{task_gid}', 'Update a task', { fieldNames: ['assignee', 'name', 'notes'] }),
      op('as.createTask', 'POST', '/tasks', 'Create a task', { fieldNames: ['assignee', 'name', 'notes'] }),
      op('as.deleteTask', 'DELETE', '/tasks/{task_gid}', 'Delete a task'),
      op('as.addFollowersForTask', 'POST', '/tasks/{task_gid}/addFollowers', 'Add followers to a task'),
    ]);
    expect(best(tasks, 'hand the budget task over to priya')).toBe('as.updateTask');
  });

  it('reads no list from a plural inside a name: "pause the stale-issues workflow" asks for no list of workflows', () => {
    const workflows = new Ranker([
      op('gh.actions/list-repo-workflows', 'GET', '/repos/{owner}/{repo}/actions/workflows', 'List repository workflows', { returnsList: true }),
      op('gh.actions/get-workflow', 'GET', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}', 'Get a workflow'),
      op('gh.actions/disable-workflow', 'PUT', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/disable', 'Disable a workflow'),
      op('gh.actions/enable-workflow', 'PUT', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/enable', 'Enable a workflow'),
    ]);
    expect(workflows.search('pause the stale-issues workflow', 2).map((h) => h.id)).not.toContain('gh.actions/list-repo-workflows');
  });

  it('reads a word the catalogue lacks, alone after a preposition at the end ("under acme"), as a name, not widened by meaning (acme: DNS)', () => {
    const org = new Ranker([
      op('gh.repos/create-in-org', 'POST', '/orgs/{org}/repos', 'Create an organization repository'),
      op('gh.repos/create-for-user', 'POST', '/user/repos', 'Create a repository for the authenticated user'),
      op('gh.pages/create-dns', 'POST', '/repos/{owner}/{repo}/pages/dns', 'Create a DNS health check for a repository'),
    ]);
    expect(org.search('create a repo under acme', 2).map((h) => h.id).sort()).toEqual(['gh.repos/create-for-user', 'gh.repos/create-in-org']);
  });

  it('reads a day ("today") as a value, not a word to widen: operations named for a day ("one-day report") gain nothing from it', () => {
    const org = new Ranker([
      op('gh.orgs/remove-member', 'DELETE', '/orgs/{org}/members/{username}', 'Remove an organization member'),
      op('gh.orgs/list-members', 'GET', '/orgs/{org}/members', 'List organization members', { returnsList: true }),
      op('gh.copilot/org-one-day-report', 'GET', '/orgs/{org}/copilot/metrics/reports/organization-1-day', 'Get Copilot organization usage metrics for a specific day'),
      op('gh.copilot/org-report', 'GET', '/orgs/{org}/copilot/metrics/reports/organization-28-day/latest', 'Get Copilot organization usage metrics'),
    ]);
    expect(org.search('members of the acme org today', 2).map((h) => h.id)).toEqual(['gh.orgs/list-members', 'gh.orgs/remove-member']);
  });

  it('reads "kill" as stopping what runs where the catalogue can cancel it, and as deleting where it cannot', () => {
    const runs = new Ranker([
      op('gh.actions/delete-workflow-run', 'DELETE', '/repos/{owner}/{repo}/actions/runs/{run_id}', 'Delete a workflow run'),
      op('gh.actions/cancel-workflow-run', 'POST', '/repos/{owner}/{repo}/actions/runs/{run_id}/cancel', 'Cancel a workflow run'),
      op('gh.actions/get-workflow-run', 'GET', '/repos/{owner}/{repo}/actions/runs/{run_id}', 'Get a workflow run'),
      op('gh.gists/delete', 'DELETE', '/gists/{gist_id}', 'Delete a gist'),
      op('gh.gists/get', 'GET', '/gists/{gist_id}', 'Get a gist'),
    ]);
    expect(best(runs, 'kill the stuck workflow run 88123')).toBe('gh.actions/cancel-workflow-run');
    expect(best(runs, 'kill gist 55')).toBe('gh.gists/delete');
  });

  it('reads a command that starts with a verb the catalogue names operations after as that write, not a read ("archive legacy-api")', () => {
    const ranker = new Ranker([
      op('gl.postProjectsIdArchive', 'POST', '/projects/{id}/archive', 'Archive a project'),
      op('gl.getProjectsIdRepositoryArchive', 'GET', '/projects/{id}/repository/archive', 'Get an archive of the repository'),
      op('gl.getProjectsId', 'GET', '/projects/{id}', 'Get a project'),
      op('gl.deleteProjectsId', 'DELETE', '/projects/{id}', 'Delete a project'),
    ]);
    expect(ranker.search('archive legacy-api', 1)[0]!.id).toBe('gl.postProjectsIdArchive');
    // A read asked for still reads.
    expect(ranker.search('download the archive of the repository', 1)[0]!.id).toBe('gl.getProjectsIdRepositoryArchive');
  });

  it('answers a yes-or-no question with an operation that checks', () => {
    const ranker = new Ranker([
      op('gh.users/check-following-for-user', 'GET', '/users/{username}/following/{target_user}', 'Check if a user follows another user'),
      op('gh.users/list-following-for-user', 'GET', '/users/{username}/following', 'List the people a user follows', { returnsList: true }),
      op('gh.users/get-by-username', 'GET', '/users/{username}', 'Get a user'),
    ]);
    expect(ranker.search('does the octocat account follow torvalds?', 1)[0]!.id).toBe('gh.users/check-following-for-user');
    expect(ranker.search('who does octocat follow?', 1)[0]!.id).toBe('gh.users/list-following-for-user');
  });

  it('reads a command that starts with a verb neither the lexicon nor the catalogue knows, before its object, as a write ("stick the screenshot onto QA-55")', () => {
    const ranker = new Ranker([
      op('jira.addAttachment', 'POST', '/issue/{issueIdOrKey}/attachments', 'Add attachment'),
      op('jira.getAttachment', 'GET', '/attachment/{id}', 'Get attachment metadata'),
      op('jira.getAttachmentMeta', 'GET', '/attachment/meta', 'Get Jira attachment settings'),
    ]);
    expect(ranker.search('stick the screenshot attachment onto ticket QA-55', 1)[0]!.id).toBe('jira.addAttachment');
    // The read costs what a write asked for makes it cost, against the same words with no verb.
    const readScore = (q: string) => ranker.search(q, 3).find((h) => h.id === 'jira.getAttachment')!.score;
    expect(readScore('the screenshot attachment 10042') - readScore('stick the screenshot attachment 10042')).toBeGreaterThan(0.3);
    expect(ranker.search('show the screenshot attachment 10042', 1)[0]!.id).toBe('jira.getAttachment');
  });

  it('reads a verb the catalogue lacks as a synonym of general English that it names operations after ("copy the project": Duplicate a project), not widened by meaning', () => {
    const projects = new Ranker([
      op('as.duplicateProject', 'POST', '/projects/{project_gid}/duplicate', 'Duplicate a project'),
      op('as.createProject', 'POST', '/projects', 'Create a project'),
      op('as.getProject', 'GET', '/projects/{project_gid}', 'Get a project'),
      op('as.projectSaveAsTemplate', 'POST', '/projects/{project_gid}/saveAsTemplate', 'Create a project template from a project'),
      op('as.addMembersForProject', 'POST', '/projects/{project_gid}/addMembers', 'Add users to a project'),
      op('as.duplicateTask', 'POST', '/tasks/{task_gid}/duplicate', 'Duplicate a task'),
      op('as.saveTaskAsTemplate', 'POST', '/tasks/{task_gid}/saveAsTemplate', 'Save a task as a template'),
      op('as.insertItem', 'POST', '/tasks/{task_gid}/items', 'Insert an item into a task'),
      op('as.getTask', 'GET', '/tasks/{task_gid}', 'Get a task'),
    ]);
    expect(best(projects, 'copy the website project')).toBe('as.duplicateProject');
    expect(best(projects, 'clone the onboarding project')).toBe('as.duplicateProject');
    // And by no neighbours in meaning, which the synonym is surer than (copy: save, insert).
    expect(best(projects, 'copy the onboarding task')).toBe('as.duplicateTask');
    // A noun as well: a tracker's tickets are its issues.
    expect(ids('which tickets mention the login page', 1)).toEqual(['gh.issues/list']);
    // A bug is one too, where the catalogue does not name operations after bugs.
    expect(ids('which open bugs mention the login page', 1)).toEqual(['gh.issues/list']);
    // A label is a tag where the catalogue has tags, not a custom field near it in meaning.
    const tags = new Ranker([
      op('as.addTagForTask', 'POST', '/tasks/{task_gid}/addTag', 'Add a tag to a task'),
      op('as.addCustomFieldSettingForTask', 'POST', '/tasks/{task_gid}/addCustomField', 'Add a custom field to a task'),
      op('as.updateCustomField', 'PUT', '/custom_fields/{custom_field_gid}', 'Update a custom field'),
      op('as.updateTask', 'PUT', '/tasks/{task_gid}', 'Update a task'),
    ]);
    expect(best(tags, 'put a label on the onboarding task')).toBe('as.addTagForTask');
  });

  it('reads an idiom as what it asks for: "keep me posted on …" adds a watcher or follower, not an update and not the signed-in user', () => {
    const watched = new Ranker([
      op('ji.addWatcher', 'POST', '/rest/api/3/issue/{issueIdOrKey}/watchers', 'Add watcher to issue'),
      op('ji.editIssue', 'PUT', '/rest/api/3/issue/{issueIdOrKey}', 'Edit issue'),
      op('ji.addComment', 'POST', '/rest/api/3/issue/{issueIdOrKey}/comment', 'Add comment'),
      op('ji.getCurrentUser', 'GET', '/rest/api/3/myself', 'Get current user'),
      op('as.addFollowersForTask', 'POST', '/tasks/{task_gid}/addFollowers', 'Add followers to a task'),
      op('as.updateTask', 'PUT', '/tasks/{task_gid}', 'Update a task'),
    ]);
    expect(best(watched, 'keep me posted on issue OPS-17')).toBe('ji.addWatcher');
    expect(best(watched, 'keep me in the loop on the hiring task')).toBe('as.addFollowersForTask');
  });

  it('reads "thumbs up" as a reaction to what follows it, not as words of a name', () => {
    const comments = new Ranker([
      op('gh.reactions/create-for-issue-comment', 'POST', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', 'Create reaction for an issue comment'),
      op('gh.issues/create-comment', 'POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'Create an issue comment'),
      op('gh.issues/get-comment', 'GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 'Get an issue comment'),
      op('gh.issues/list-comments', 'GET', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'List issue comments', { returnsList: true }),
    ]);
    expect(best(comments, 'thumbs down that comment from bob')).toBe('gh.reactions/create-for-issue-comment');
    expect(best(comments, 'thumbs-up the last comment')).toBe('gh.reactions/create-for-issue-comment');
  });

  it('reads a thing moved or marked into a state ("to done", "as resolved") as a change of its status: a transition, a state or a completed field', () => {
    const work = new Ranker([
      op('ji.editIssue', 'PUT', '/rest/api/3/issue/{issueIdOrKey}', 'Edit issue'),
      op('ji.doTransition', 'POST', '/rest/api/3/issue/{issueIdOrKey}/transitions', 'Transition issue'),
      op('ji.getTransitions', 'GET', '/rest/api/3/issue/{issueIdOrKey}/transitions', 'Get transitions'),
      op('ji.assignIssue', 'PUT', '/rest/api/3/issue/{issueIdOrKey}/assignee', 'Assign issue'),
      op('as.updateTask', 'PUT', '/tasks/{task_gid}', 'Update a task', { fieldNames: ['completed', 'name', 'notes'] }),
      op('as.addDependentsForTask', 'POST', '/tasks/{task_gid}/addDependents', 'Set dependents for a task'),
      op('as.addDependenciesForTask', 'POST', '/tasks/{task_gid}/addDependencies', 'Set dependencies for a task'),
    ]);
    expect(best(work, 'move OPS-7 to resolved')).toBe('ji.doTransition');
    expect(best(work, 'mark the budget task as completed')).toBe('as.updateTask');
  });

  it('reads a who-question as asking for people not yet known: a list of them before one taken by ID, unless the question names the one', () => {
    const teams = new Ranker([
      op('gh.teams/get-member', 'GET', '/teams/{team_id}/members/{username}', 'Get team member'),
      op('gh.teams/list-members', 'GET', '/orgs/{org}/teams/{team_slug}/members', 'List team members', { returnsList: true }),
    ]);
    expect(best(teams, 'who is in the platform team?')).toBe('gh.teams/list-members');
    expect(parseQuery('who is in the platform team?').asksWho).toBe(true);
    expect(parseQuery('who is Dana?').asksWho).toBeUndefined();
    expect(parseQuery('who am I').asksWho).toBeUndefined();
  });

  it('reads a search of a resource the catalogue has no list of as its list ("Search for issues using JQL"), but not where it lists it too', () => {
    const jira = [
      op('ji.searchForIssues', 'GET', '/rest/api/3/search', 'Search for issues'),
      op('ji.getIssue', 'GET', '/rest/api/3/issue/{issueIdOrKey}', 'Get issue'),
      op('ji.getProjects', 'GET', '/rest/api/3/project', 'Get all projects', { returnsList: true }),
      op('ji.getComments', 'GET', '/rest/api/3/issue/{issueIdOrKey}/comment', 'Get comments', { returnsList: true }),
    ];
    expect(best(new Ranker(jira), 'show me my open issues')).toBe('ji.searchForIssues');
    const listed = new Ranker([...jira, op('ji.listIssues', 'GET', '/rest/api/3/issue', 'List issues', { returnsList: true })]);
    expect(listed.search('show me my open issues', 3).map((h) => h.id)).toEqual(['ji.listIssues', 'ji.getIssue', 'ji.searchForIssues']);
  });

  it('keeps "set up" from meeting a catalogue\'s settings: a plural in -ings is a noun of its own', () => {
    const calendar = new Ranker([
      op('gc.settings.watch', 'POST', '/users/me/settings/watch', 'Watch for changes to Settings resources'),
      op('gc.calendars.insert', 'POST', '/calendars', 'Creates a secondary calendar'),
      op('gc.settings.list', 'GET', '/users/me/settings', 'Returns all user settings for the authenticated user', { returnsList: true }),
    ]);
    expect(best(calendar, 'set up a brand-new calendar called Payments for the finance team to track due dates')).toBe('gc.calendars.insert');
    expect(best(calendar, 'show my settings')).toBe('gc.settings.list');
    expect([stemOf('settings'), stemOf('set'), stemOf('mappings')]).toEqual(['setting', 'set', 'mapping']);
  });

  it('prefers the operation that does a thing to the one that undoes it (block, not unblock), which meaning puts near it, unless the query says to undo', () => {
    const users = new Ranker([
      op('gl.users/unblock', 'PUT', '/users/{id}/unblock', 'Unblock a user. Available only for admins.'),
      op('gl.users/block', 'PUT', '/users/{id}/block', 'Block a user. Available only for admins.'),
      op('gl.users/get', 'GET', '/users/{id}', 'Get a single user'),
    ]);
    expect(best(users, 'lock out user 450 until security has reviewed it')).toBe('gl.users/block');
    expect(best(users, 'unblock user 450, the review is done')).toBe('gl.users/unblock');
  });

  it('reads "get sam to review PR 7", "have bob review …" as a request to them: the operation that requests the verb\'s doers', () => {
    const pulls = new Ranker([
      op('gh.pulls/create-review', 'POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 'Create a review for a pull request'),
      op('gh.pulls/get-review', 'GET', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}', 'Get a review for a pull request'),
      op('gh.pulls/request-reviewers', 'POST', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 'Request reviewers for a pull request'),
    ]);
    for (const query of ['get sam and priya to review pr 77', 'have bob review PR 12', 'ask alice and bob to review pull request 12', 'get priya-s and tom-h to review PR 318', 'get @lena and @raj to look over PR 512', 'ask @jlee and @mpatel to look over PR 57', 'get marta and the dev-leads team to look at PR 412', 'Get alice-w and the qa-leads team to look at PR 2211 before the freeze']) {
      expect(best(pulls, query), query).toBe('gh.pulls/request-reviewers');
    }
    expect(parseQuery('review pr 77').caused).toBeUndefined();
    expect(parseQuery('get rid of the old gist').caused).toBeUndefined();
    expect(parseQuery('get acme/api to pass CI').caused).toBeUndefined();
    // What they are asked to do is theirs: the query's own act is none of create, get or update.
    expect(parseQuery('get @lena to look over PR 512').action).toBeUndefined();
    expect(parseQuery('look over PR 512').action).toBeDefined();
  });

  it('reads a verb the catalogue lacks as its synonym the catalogue has ("relocate": move, "shelve": archive, "retry": rerun), not as any verb of the act', () => {
    const issues = new Ranker([
      op('gl.updateIssue', 'PUT', '/projects/{id}/issues/{issue_id}', 'Update an existing issue'),
      op('gl.moveIssue', 'POST', '/projects/{id}/issues/{issue_id}/move', 'Move an existing issue'),
      op('gl.getIssue', 'GET', '/projects/{id}/issues/{issue_id}', 'Get a single project issue'),
    ]);
    expect(best(issues, 'relocate issue 9 from project 42 to project 77')).toBe('gl.moveIssue');
    expect(best(issues, 'update issue 9 in project 42')).toBe('gl.updateIssue');
    const channels = new Ranker([
      op('sl.conversations_archive', 'POST', '/conversations.archive', 'Archives a conversation.'),
      op('sl.conversations_rename', 'POST', '/conversations.rename', 'Renames a conversation.'),
      op('sl.conversations_info', 'GET', '/conversations.info', 'Retrieve information about a conversation.'),
    ]);
    expect(best(channels, 'shelve the #old-project channel')).toBe('sl.conversations_archive');
  });

  it('reads a noun used as the verb ("file a report") as its act, not as the noun ("file")', () => {
    const repo = new Ranker([
      op('gh.issues/create', 'POST', '/repos/{owner}/{repo}/issues', 'Create an issue'),
      op('gh.repos/create-or-update-file-contents', 'PUT', '/repos/{owner}/{repo}/contents/{path}', 'Create or update file contents'),
      op('gh.repos/upload-file', 'POST', '/repos/{owner}/{repo}/files', 'Upload a file'),
      op('gh.repos/get-content', 'GET', '/repos/{owner}/{repo}/contents/{path}', 'Get repository content'),
    ]);
    expect(best(repo, 'file a report in acme/api: login fails')).toBe('gh.issues/create');
  });

  it("reads such a verb's meaning as its synonym's, not as the act's: \"ban spammer123 from the org\" blocks them, and does not undo a block", () => {
    const events = new Ranker([
      op('cal.events.patch', 'PATCH', '/calendars/{calendarId}/events/{eventId}', 'Updates an event. This method supports patch semantics.'),
      op('cal.events.move', 'POST', '/calendars/{calendarId}/events/{eventId}/move', 'Moves an event to another calendar, i.e. changes an event\'s organizer.'),
      op('cal.events.get', 'GET', '/calendars/{calendarId}/events/{eventId}', 'Returns an event.'),
    ]);
    expect(best(events, 'shift the offsite event off my personal calendar onto the team calendar')).toBe('cal.events.move');
    const org = new Ranker([
      op('gh.orgs/delete', 'DELETE', '/orgs/{org}', 'Delete an organization'),
      op('gh.orgs/remove-member', 'DELETE', '/orgs/{org}/members/{username}', 'Remove an organization member'),
      op('gh.orgs/block-user', 'PUT', '/orgs/{org}/blocks/{username}', 'Block a user from an organization'),
      op('gh.orgs/unblock-user', 'DELETE', '/orgs/{org}/blocks/{username}', 'Unblock a user from an organization'),
      op('gh.orgs/get', 'GET', '/orgs/{org}', 'Get an organization'),
    ]);
    // "Ban" is a word for removing, but it means block, not undoing a block.
    for (const query of ['ban spammer123 from the open-mic-devs organization', 'Ban spammer-bot-3000 from the whole organization.']) expect(best(org, query), query).toBe('gh.orgs/block-user');
  });

  it('reads a word the catalogue has as its synonyms too, less surely ("branch": a git ref)', () => {
    const git = new Ranker([
      op('gh.git/delete-ref', 'DELETE', '/repos/{owner}/{repo}/git/refs/{ref}', 'Delete a reference'),
      op('gh.repos/get-branch', 'GET', '/repos/{owner}/{repo}/branches/{branch}', 'Get a branch'),
      op('gh.repos/delete-branch-protection', 'DELETE', '/repos/{owner}/{repo}/branches/{branch}/protection', 'Delete branch protection'),
      op('gh.repos/rename-branch', 'POST', '/repos/{owner}/{repo}/branches/{branch}/rename', 'Rename a branch'),
    ]);
    expect(git.search('delete the feature/old branch', 3).map((h) => h.id)).toContain('gh.git/delete-ref');
    expect(best(git, 'rename the master branch to main')).toBe('gh.repos/rename-branch');
  });

  it('reads what an idiom says in the query\'s meaning too ("stick the message to the top": pin)', () => {
    const slack = new Ranker([
      op('slack.pins_add', 'POST', '/pins.add', 'Pins an item to a channel.', { fieldNames: ['channel', 'timestamp'] }),
      op('slack.chat_postMessage', 'POST', '/chat.postMessage', 'Sends a message to a channel.', { fieldNames: ['channel', 'text'] }),
      op('slack.chat_scheduleMessage', 'POST', '/chat.scheduleMessage', 'Schedules a message to be sent to a channel.', { fieldNames: ['channel', 'text', 'post_at'] }),
      op('slack.chat_update', 'POST', '/chat.update', 'Updates a message.', { fieldNames: ['channel', 'ts', 'text'] }),
    ]);
    expect(best(slack, 'stick the payment-terms message to the top of #billing')).toBe('slack.pins_add');
    expect(best(slack, 'send a message to #billing')).toBe('slack.chat_postMessage');
  });

  it('reads a word the catalogue lacks in the meaning of its synonym there ("snippet": gist)', () => {
    const gists = new Ranker([
      op('gh.gists/create', 'POST', '/gists', 'Create a gist'),
      op('gh.repos/create-or-update-file-contents', 'PUT', '/repos/{owner}/{repo}/contents/{path}', 'Create or update file contents'),
    ]);
    const similar = (query: string) => {
      const explain = new Map<string, Record<string, unknown>>();
      gists.search(query, 2, () => true, parseQuery(query), explain);
      return explain.get('gh.gists/create')!.similar as number;
    };
    expect(similar('save my snippet')).toBeCloseTo(similar('save my gist'), 6);
  });

  it("reads a word as the end of the catalogue's compound of two of its words, less surely (\"log\": worklog)", () => {
    const jira = new Ranker([
      op('jira.deleteWorklog', 'DELETE', '/rest/api/3/issue/{issueIdOrKey}/worklog/{id}', 'Delete worklog'),
      op('jira.getIssueWorklog', 'GET', '/rest/api/3/issue/{issueIdOrKey}/worklog', 'Get issue worklogs', { returnsList: true }),
      op('jira.deleteIssue', 'DELETE', '/rest/api/3/issue/{issueIdOrKey}', 'Delete issue'),
      op('jira.deleteComment', 'DELETE', '/rest/api/3/issue/{issueIdOrKey}/comment/{id}', 'Delete comment'),
      op('jira.getAuditLog', 'GET', '/rest/api/3/auditing/log', 'Get audit log'),
      op('jira.getWorkTypes', 'GET', '/rest/api/3/worktype', 'Get work types', { returnsList: true }),
    ]);
    expect(best(jira, 'delete the log entry on SUP-40')).toBe('jira.deleteWorklog');
    expect(best(jira, 'delete issue SUP-40')).toBe('jira.deleteIssue');
  });

  it("reads a thing put or found under one of its kind as the catalogue's sub-thing", () => {
    const tasks = new Ranker([
      op('asana.createTask', 'POST', '/tasks', 'Create a task'),
      op('asana.createSubtaskForTask', 'POST', '/tasks/{task_gid}/subtasks', 'Create a subtask'),
      op('asana.getSubtasksForTask', 'GET', '/tasks/{task_gid}/subtasks', 'Get subtasks from a task', { returnsList: true }),
      op('asana.getTask', 'GET', '/tasks/{task_gid}', 'Get a task'),
      op('asana.addTagForTask', 'POST', '/tasks/{task_gid}/addTag', 'Add a tag to a task'),
    ]);
    expect(best(tasks, "put a child item 'buy balloons' under the party planning task")).toBe('asana.createSubtaskForTask');
    expect(best(tasks, 'list the child tasks of task 8080')).toBe('asana.getSubtasksForTask');
    expect(best(tasks, "put a task 'buy balloons' in my list")).toBe('asana.createTask');
    // Written as two words (`add-sub-issue`), and nesting as the verb.
    const issues = new Ranker([
      op('gh.issues/get', 'GET', '/repos/{owner}/{repo}/issues/{issue_number}', 'Get an issue'),
      op('gh.issues/update', 'PATCH', '/repos/{owner}/{repo}/issues/{issue_number}', 'Update an issue'),
      op('gh.issues/add-sub-issue', 'POST', '/repos/{owner}/{repo}/issues/{issue_number}/sub_issues', 'Add sub-issue'),
      op('gh.issues/list-sub-issues', 'GET', '/repos/{owner}/{repo}/issues/{issue_number}/sub_issues', 'List sub-issues', { returnsList: true }),
    ]);
    expect(best(issues, 'Nest issue 301 under the epic in issue 290.')).toBe('gh.issues/add-sub-issue');
  });

  it("reads an operation's own \"my\" as what a query about the one asking asks, not as more than it asks", () => {
    const permissions = new Ranker([
      op('jira.getMyPermissions', 'GET', '/rest/api/3/mypermissions', 'Get my permissions'),
      op('jira.getPermissionSchemeGrant', 'GET', '/rest/api/3/permissionscheme/{schemeId}/permission/{permissionId}', 'Get permission scheme grant'),
      op('jira.getPermissionSchemeGrants', 'GET', '/rest/api/3/permissionscheme/{schemeId}/permission', 'Get permission scheme grants'),
    ]);
    expect(best(permissions, 'What am I allowed to do in the INFRA project?')).toBe('jira.getMyPermissions');
  });

  it('reads a thing asked for as new as no operation on an existing one', () => {
    const calendars = new Ranker([
      op('cal.calendarList.insert', 'POST', '/users/me/calendarList', "Inserts an existing calendar into the user's calendar list."),
      op('cal.calendars.insert', 'POST', '/calendars', 'Creates a secondary calendar.'),
      op('cal.calendarList.list', 'GET', '/users/me/calendarList', "Returns the calendars on the user's calendar list.", { returnsList: true }),
    ]);
    expect(best(calendars, 'I want a brand new calendar just for our TikTok posting schedule')).toBe('cal.calendars.insert');
    expect(best(calendars, 'make me a new calendar called Client launches')).toBe('cal.calendars.insert');
  });

  it('reads a thing switched on as made as much as changed: the catalogue\'s create answers "turn on Pages"', () => {
    const pages = new Ranker([
      op('gh.repos/create-pages-site', 'POST', '/repos/{owner}/{repo}/pages', 'Create a GitHub Pages site'),
      op('gh.repos/update-information-about-pages-site', 'PUT', '/repos/{owner}/{repo}/pages', 'Update information about a GitHub Pages site'),
      op('gh.repos/get-pages', 'GET', '/repos/{owner}/{repo}/pages', 'Get a GitHub Pages site'),
    ]);
    expect(best(pages, 'turn on GitHub Pages for snow-report, publishing from the gh-pages branch')).toBe('gh.repos/create-pages-site');
    expect(best(pages, 'change the custom domain of the GitHub Pages site of snow-report')).toBe('gh.repos/update-information-about-pages-site');
  });

  it('reads every one of a thing changed at once as the operation on all of them, and one as the operation on one', () => {
    const todos = new Ranker([
      op('gitlab.deleteV3TodosId', 'DELETE', '/v3/todos/{id}', 'Mark a todo as done'),
      op('gitlab.deleteV3Todos', 'DELETE', '/v3/todos', 'Mark all todos as done'),
      op('gitlab.getV3Todos', 'GET', '/v3/todos', 'Get a todo list', { returnsList: true }),
    ]);
    expect(best(todos, 'clear out my whole to-do list')).toBe('gitlab.deleteV3Todos');
    expect(best(todos, "I'm all caught up, mark everything on my todo list done")).toBe('gitlab.deleteV3Todos');
    expect(best(todos, 'mark todo 42 as done')).toBe('gitlab.deleteV3TodosId');
  });
});

describe('Ranker on messy paths', () => {
  // Path parameters are read with patterns that stop at the next brace: an imported description's
  // path of unbalanced braces is read in one pass, not once per brace (which took minutes here).
  it('indexes and searches an operation whose path is 100,000 unbalanced braces', () => {
    const messy = new Ranker([...GITHUB, op('x.broken', 'GET', `/${'{'.repeat(50_000)}user_id/${'{a'.repeat(25_000)}`, 'Get a broken thing')]);
    expect(messy.search('who is in issue 17 of acme/api with PROJ-4', 3).length).toBeGreaterThan(0);
    expect(messy.search('get the broken thing', 1)[0]!.id).toBe('x.broken');
  });

  it("reads capitalised words that are all the catalogue's own names (\"Actions\") as no person, so no words for people are implied", () => {
    const actions = new Ranker([
      op('gh.actions/create-or-update-repo-secret', 'PUT', '/repos/{owner}/{repo}/actions/secrets/{secret_name}', 'Create or update a repository secret'),
      op('gh.actions/list-repo-secrets', 'GET', '/repos/{owner}/{repo}/actions/secrets', 'List repository secrets', { returnsList: true }),
      op('gh.actions/list-workflow-runs', 'GET', '/repos/{owner}/{repo}/actions/runs', 'List workflow runs for a repository', { returnsList: true }),
      op('gh.repos/add-collaborator', 'PUT', '/repos/{owner}/{repo}/collaborators/{username}', 'Add a repository collaborator'),
    ]);
    const implied = (query: string) => {
      const explain = new Map<string, Record<string, unknown>>();
      actions.search(query, 3, () => true, undefined, explain);
      return (explain.get('(query)')!.parsed as { terms: { word: string; at: number; alternatives?: string[] }[] }).terms.filter((t) => t.at < 0).flatMap((t) => [t.word, ...(t.alternatives ?? [])]);
    };
    expect(implied('Store TWILIO_SID as an encrypted Actions secret on bakery/orders')).not.toContain('person');
    expect(implied('Store the key as a secret for Dana')).toContain('person');
  });
});
