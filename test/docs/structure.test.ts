// What an operation does, read from its method, path, ID and summary (src/docs/structure.ts).
import { describe, expect, it } from 'vitest';
import { analyse, type OperationText } from '../../src/docs/structure.ts';

const op = (operationId: string, method: string, path: string, summary = '', description = '', returnsList = false): OperationText => ({
  operationId,
  service: operationId.slice(0, operationId.indexOf('.')),
  method,
  path,
  summary,
  description,
  returnsList,
});

describe('analyse', () => {
  it('reads a description that starts with two acts ("Parses and validates …") as giving a second verb of its own, not a canonical one', () => {
    expect(analyse(op('j.parseJqlQueries', 'POST', '/rest/api/3/jql/parse', 'Parse JQL query', 'Parses and validates JQL queries.'))).toMatchObject({ action: 'pars', alsoVerb: 'valid' });
    expect(analyse(op('x.upsert', 'PUT', '/things/{id}', 'Upsert a thing', 'Creates and updates things.')).alsoVerb).toBeUndefined();
    expect(analyse(op('j.getIssue', 'GET', '/issue/{id}', 'Get issue', 'Returns the details for an issue.')).alsoVerb).toBeUndefined();
  });

  it('reads marking a thing as a state a verb makes as doing that verb too, never a read', () => {
    expect(analyse(op('s.PostInvoicesInvoiceVoid', 'POST', '/v1/invoices/{invoice}/void', '<p>Mark a finalized invoice as void. This cannot be undone.</p>'))).toMatchObject({ action: 'update', alsoAction: 'cancel' });
    expect(analyse(op('g.mark-read', 'PUT', '/notifications', 'Mark notifications as read')).alsoAction).toBeUndefined();
  });

  it('reads a nested collection: action from the method and shape, resource from the last noun, scope above it', () => {
    expect(analyse(op('x.list-comments', 'GET', '/repos/{owner}/{repo}/issues/{n}/comments', 'List issue comments', '', true))).toMatchObject({
      action: 'list',
      resource: ['comment'],
      scope: ['repo', 'issu'],
      self: false,
    });
  });

  it('reads what the method of an operation named after its own verb makes: a GET reads, a POST creates', () => {
    expect(analyse(op('g.repos/merge', 'POST', '/repos/{owner}/{repo}/merges', 'Merge a branch'))).toMatchObject({ action: 'merg', methodAction: 'create' });
    expect(analyse(op('g.repos/compare', 'GET', '/repos/{owner}/{repo}/compare/{basehead}', 'Compare two commits'))).toMatchObject({ action: 'compar', methodAction: 'get' });
    expect(analyse(op('g.issues/lock', 'PUT', '/repos/{owner}/{repo}/issues/{n}/lock', 'Lock an issue')).methodAction).toBe('update');
    expect(analyse(op('g.issues/get', 'GET', '/repos/{owner}/{repo}/issues/{n}', 'Get an issue')).methodAction).toBeUndefined();
  });

  it('reads what a summary acts on past the participles that only qualify it', () => {
    expect(analyse(op('s.admin_users_setOwner', 'POST', '/admin.users.setOwner', '', 'Set an existing guest, regular user, or admin user to be a workspace owner.')).head).toBe('guest');
    expect(analyse(op('s.chat_deleteScheduledMessage', 'POST', '/chat.deleteScheduledMessage', '', 'Deletes a pending scheduled message from the queue.')).head).toBe('messag');
  });

  it('reads a verb written with a hyphenated prefix as one verb ("Un-pins": unpin, not pin)', () => {
    expect(analyse(op('s.pins_remove', 'POST', '/pins.remove', '', 'Un-pins an item from a channel.')).action).toBe('unpin');
  });

  it("reads a method-named path's head from what its summary acts on, and its own verb as no resource", () => {
    expect(analyse(op('s.chat_delete', 'POST', '/chat.delete', '', 'Deletes a message.'))).toMatchObject({ action: 'delete', resource: ['chat'], head: 'messag' });
    expect(analyse(op('s.conversations_archive', 'POST', '/conversations.archive', '', 'Archives a conversation.'))).toMatchObject({ action: 'archiv', resource: ['convers'], head: 'convers' });
    expect(analyse(op('x.list-comments', 'GET', '/repos/{owner}/{repo}/issues/{n}/comments', 'List issue comments', '', true)).head).toBe('comment');
  });

  it("reads a method-named path's head from the whole phrase its summary acts on: past adjectives, a second verb, a list of and a history of", () => {
    const head = (path: string, description: string) => analyse(op('s.x', 'POST', path, '', description)).head;
    expect(head('/conversations.create', 'Initiates a public or private channel-based conversation')).toBe('convers');
    expect(head('/apps.permissions.scopes.list', 'Returns list of scopes this app has on a team.')).toBe('scope');
    expect(head('/conversations.history', "Fetches a conversation's history of messages and events.")).toBe('messag');
    expect(head('/calls.add', 'Registers a new Call.')).toBe('call');
    expect(head('/conversations.open', 'Opens or resumes a direct message or multi-person direct message.')).toBe('messag');
    expect(head('/channels.create', 'Creates and returns a channel.')).toBe('channel');
    expect(head('/dnd.endDnd', "Ends the current user's Do Not Disturb session immediately.")).toBe('session');
    expect(head('/users.conversations', 'List conversations the calling user may access.')).toBe('convers');
    expect(head('/chat.deleteScheduledMessage', 'Deletes a pending scheduled message from the queue.')).toBe('messag');
    // Of the phrase's words, the last one the path names: a user's profile information is a profile.
    expect(head('/users.profile.get', "Retrieves a user's profile information.")).toBe('profil');
    // Every word of that phrase is part of what it acts on: a channel-based conversation is a channel.
    expect(analyse(op('s.x', 'POST', '/conversations.create', '', 'Initiates a public or private channel-based conversation')).object).toContain('channel');
  });

  it('takes a verb segment as the action and the segment before it as the resource', () => {
    const s = analyse(op('x.cancel-run', 'POST', '/repos/{o}/{r}/actions/runs/{id}/cancel', 'Cancel a workflow run'));
    expect(s.action).toBe('cancel');
    expect(s.resource).toEqual(['run']);
  });

  it('takes a segment that writes the verb another way ("Find users" at `/user/search`) as the action, and the segment before it as the resource', () => {
    expect(analyse(op('j.findUsers', 'GET', '/rest/api/3/user/search', 'Find users', '', true))).toMatchObject({ resource: ['user'], head: 'user' });
    expect(analyse(op('j.findAssignableUsers', 'GET', '/rest/api/3/user/assignable/search', 'Find users assignable to issues', '', true)).head).toBe('assign');
  });

  it('keeps a noun segment whose stem an action word shares ("invitations" is not "invite")', () => {
    expect(analyse(op('x.list-invitations', 'GET', '/orgs/{org}/teams/{team}/invitations', 'List pending team invitations', '', true)).resource).toEqual(['invit']);
  });

  it('reads a path whose last word is its own verb by what its summary acts on ("Star a repository", not the user)', () => {
    const s = analyse(op('x.star-repo', 'PUT', '/user/starred/{owner}/{repo}', 'Star a repository for the authenticated user'));
    expect(s).toMatchObject({ action: 'star', resource: ['repositori'], head: 'repositori' });
  });

  it("keeps an operation's own verb when it is not one of the canonical actions", () => {
    expect(analyse(op('x.merge', 'PUT', '/repos/{o}/{r}/pulls/{n}/merge', 'Merge a pull request')).action).toBe('merg');
  });

  it("reads a description's first word as a verb only where it is one: a lexicon verb, the third person, an imperative before its object, or the path's verb", () => {
    const action = (id: string, method: string, path: string, description: string) => analyse(op(id, method, path, '', description)).action;
    expect(action('s.PostInvoicesInvoiceSend', 'POST', '/v1/invoices/{invoice}/send', 'Stripe will automatically send invoices to customers according to your settings.')).toBe('create');
    expect(action('s.PostPayoutsPayoutCancel', 'POST', '/v1/payouts/{payout}/cancel', 'A previously created payout can be canceled if it has not yet been paid out.')).toBe('cancel');
    expect(action('s.PostInvoicesInvoiceFinalize', 'POST', '/v1/invoices/{invoice}/finalize', 'Stripe automatically finalizes drafts before sending.')).toBe('final');
    expect(action('s.PostWebhookEndpoints', 'POST', '/v1/webhook_endpoints', 'A webhook endpoint must have a url and a list of events.')).toBe('create');
    expect(action('s.DeleteCustomersCustomer', 'DELETE', '/v1/customers/{customer}', 'Permanently deletes a customer. It cannot be undone.')).toBe('delete');
    expect(action('s.PostPayoutsPayoutReverse', 'POST', '/v1/payouts/{payout}/reverse', 'Reverses a payout by debiting the destination bank account.')).toBe('revers');
    expect(action('s.PostCreditNotes', 'POST', '/v1/credit_notes', 'Issue a credit note to adjust the amount of a finalized invoice.')).toBe('issu');
    expect(action('sl.users_setActive', 'POST', '/users.setActive', 'Marked a user as active.')).toBe('update');
    // "Leave" makes something only as a person asks it ("leave a comment"); an API that leaves a conversation exits it.
    expect(action('sl.conversations_leave', 'POST', '/conversations.leave', 'Leaves a conversation.')).toBe('leav');
    // A condition told first ("When you get a dispute, …") reads no read for a write; a write there agrees with the method and stays.
    expect(action('s.PostDisputesDispute', 'POST', '/v1/disputes/{dispute}', 'When you get a dispute, contacting your customer is always the best first step.')).toBe('create');
    expect(action('s.PostCustomersCustomerCards', 'POST', '/v1/customers/{customer}/cards', 'When you create a new credit card, you must specify a customer.')).toBe('create');
  });

  it('reads the verb after a word for many at once ("Bulk create issue"), and keeps such a word as a verb of its own elsewhere', () => {
    expect(analyse(op('j.createIssues', 'POST', '/rest/api/3/issue/bulk', 'Bulk create issue')).action).toBe('create');
    expect(analyse(op('j.deleteIssueProperties', 'DELETE', '/rest/api/3/issue/properties/{key}', 'Bulk delete issue property')).action).toBe('delete');
  });

  it('reads RPC-style paths and descriptions when there is no summary', () => {
    const s = analyse(op('slack.chat_postMessage', 'POST', '/chat.postMessage', '', 'Sends a message to a channel.'));
    expect(s.action).toBe('create');
    expect(s.resource).toContain('messag');
  });

  it('tells a list from a get by the answer, and strips version prefixes', () => {
    expect(analyse(op('s.GetCustomers', 'GET', '/v1/customers', '', '<p>Returns a list of your customers.</p>', true))).toMatchObject({ action: 'list', resource: ['custom'], scope: [] });
    expect(analyse(op('s.GetCustomer', 'GET', '/v1/customers/{customer}', '', '<p>Retrieves a Customer object.</p>')).action).toBe('get');
  });

  it('falls back to the method when the summary has no verb', () => {
    expect(analyse(op('x.a', 'DELETE', '/things/{id}', 'Thing')).action).toBe('delete');
    expect(analyse(op('x.b', 'PATCH', '/things/{id}', 'Thing')).action).toBe('update');
  });

  it('sees the signed-in user in the path or the summary, not in a named user', () => {
    expect(analyse(op('x.mine', 'GET', '/user/repos', 'List repositories', '', true)).self).toBe(true);
    expect(analyse(op('x.me', 'GET', '/users/me/calendarList', 'List', '', true)).self).toBe(true);
    expect(analyse(op('x.theirs', 'GET', '/users/{username}/repos', 'List repositories for a user', '', true)).self).toBe(false);
    expect(analyse(op('x.auth', 'GET', '/teams', 'List teams for the authenticated user', '', true)).self).toBe(true);
    // A summary that speaks as the caller, and a segment joining "my" to what it names.
    expect(analyse(op('j.getMyPermissions', 'GET', '/rest/api/3/mypermissions', 'Get my permissions'))).toMatchObject({ self: true, resource: ['permiss'] });
    expect(analyse(op('x.mysql', 'GET', '/mysql/instances', 'List instances', '', true)).self).toBe(false);
  });

  it('reads a path segment as a verb when it starts with one (addDependencies), not when a noun ends in one (calendarList)', () => {
    expect(analyse(op('c.calendarList.list', 'GET', '/users/me/calendarList', 'Returns the calendars on the user\'s calendar list.', '', true)).head).toBe('calendar');
    expect(analyse(op('a.addDependenciesForTask', 'POST', '/tasks/{task_gid}/addDependencies', 'Set dependencies for a task')).resource).toContain('task');
  });

  it("reads a verb segment's noun as the thing acted on, the resource before it still part (addTask on a section: a task)", () => {
    expect(analyse(op('a.addTaskForSection', 'POST', '/sections/{section_gid}/addTask', 'Add task to section'))).toMatchObject({ head: 'task', resource: ['section', 'task'] });
    expect(analyse(op('a.removeTagForTask', 'POST', '/tasks/{task_gid}/removeTag', 'Remove a tag from a task'))).toMatchObject({ head: 'tag', action: 'delete' });
    // A method-named path (`/chat.postMessage`) and a path ending in its parameter are read as before.
    expect(analyse(op('s.chat_postMessage', 'POST', '/chat.postMessage', 'Sends a message to a channel.')).head).toBe('messag');
  });

  it('reads a last segment that only says "the signed-in user" (/myself, /filter/my) as no resource: the user alone, else the segment before', () => {
    expect(analyse(op('j.getCurrentUser', 'GET', '/rest/api/3/myself', 'Get current user'))).toMatchObject({ head: 'user', self: true });
    expect(analyse(op('j.getMyFilters', 'GET', '/rest/api/3/filter/my', 'Get my filters', '', true))).toMatchObject({ head: 'filter', self: true });
  });
});
