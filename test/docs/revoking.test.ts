// Access taken back or granted (src/docs/revoking.ts): what someone may no longer do is a removal of
// access; what they are to be let do, a grant.
import { describe, expect, it } from 'vitest';
import { Ranker } from '../../src/docs/rank.ts';
import { grantsAccess, revokesAccess } from '../../src/docs/revoking.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

describe('access taken back', () => {
  it('reads a negated can, should or must with "anymore", or "no longer", about seeing or changing a thing, and someone cut off from access', () => {
    expect(revokesAccess("bob shouldn't see my calendar anymore")).toBe(true);
    expect(revokesAccess('alice can no longer push to acme/api')).toBe(true);
    expect(revokesAccess("I can't see the repo")).toBe(false);
    expect(revokesAccess("nuke the old repo, we don't need it anymore")).toBe(false);
    // Someone cut off where access is said.
    expect(revokesAccess('My old assistant still has access to my calendar. Cut her off.')).toBe(true);
    expect(revokesAccess('cut off his access to the website repository')).toBe(true);
    expect(revokesAccess('cut off the call in #standup')).toBe(false);
  });

  it('answers with the removal of an access rule', () => {
    const ranker = new Ranker([
      op('cal.calendarList.get', 'GET', '/users/me/calendarList/{calendarId}', 'Returns a calendar from the user\'s calendar list.'),
      op('cal.acl.insert', 'POST', '/calendars/{calendarId}/acl', 'Creates an access control rule.', { fieldNames: ['role', 'scope'] }),
      op('cal.acl.delete', 'DELETE', '/calendars/{calendarId}/acl/{ruleId}', 'Deletes an access control rule.'),
      op('cal.acl.list', 'GET', '/calendars/{calendarId}/acl', 'Returns the rules in the access control list for the calendar.', { returnsList: true }),
    ]);
    expect(ranker.search("bob shouldn't see my calendar anymore", 3)[0]!.id).toBe('cal.acl.delete');
  });

  it('reads letting someone do a thing, or their being able to as they should, as a grant of access', () => {
    expect(grantsAccess("Let the new recruiter see the 'Interviews' calendar, read-only.")).toBe(true);
    expect(grantsAccess('everyone in the QA group needs to be able to see my filter')).toBe(true);
    expect(grantsAccess('Let my assistant jen@corner-shop.com make changes on the Shop Holidays calendar.')).toBe(true);
    // The one let named with commas around ("let Sue, our office manager, see it"), and two acts allowed.
    expect(grantsAccess("Let Sue, our office manager, see my 'Site Visits' calendar.")).toBe(true);
    expect(grantsAccess('Mrs. Dunn should be able to add and change things on the events calendar')).toBe(true);
    expect(grantsAccess('who can see my calendar?')).toBe(false);
    expect(grantsAccess("bob shouldn't be able to see my calendar anymore")).toBe(false);
    const ranker = new Ranker([
      op('cal.acl.get', 'GET', '/calendars/{calendarId}/acl/{ruleId}', 'Returns an access control rule.', { fieldNames: ['role', 'scope'] }),
      op('cal.acl.insert', 'POST', '/calendars/{calendarId}/acl', 'Creates an access control rule.', { fieldNames: ['role', 'scope'] }),
      op('cal.acl.list', 'GET', '/calendars/{calendarId}/acl', 'Returns the rules in the access control list for the calendar.', { returnsList: true }),
      op('cal.calendars.get', 'GET', '/calendars/{calendarId}', 'Returns metadata for a calendar.'),
    ]);
    expect(ranker.search("Let the new recruiter see the 'Interviews' calendar, read-only.", 3)[0]!.id).toBe('cal.acl.insert');
  });
});
