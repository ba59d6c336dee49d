// The verb lexicon (src/docs/lexicon.ts): how a query's verb says what to do.
import { describe, expect, it } from 'vitest';
import { synonymsOf } from '../../src/docs/lexicon.ts';
import { parseQuery } from '../../src/docs/query.ts';
import { stemOf } from '../../src/docs/text.ts';

describe('verb lexicon', () => {
  it('reads sharing and subscribing as making a grant or a subscription', () => {
    expect(parseQuery('share my calendar with my assistant').action).toBe('create');
    expect(parseQuery('subscribe me to the team holidays calendar').action).toBe('create');
  });

  it('reads a creating verb with a prefix that undoes it as removing what it made', () => {
    expect(parseQuery('unsubscribe from the holidays calendar').action).toBe('delete');
    expect(parseQuery('unsend that message').action).toBe('delete');
    expect(parseQuery('deregister the runner').action).toBe('delete');
    // A word that only starts like one ("describe", "design") keeps its own reading.
    expect(parseQuery('describe the repo').action).toBe('get');
    expect(parseQuery('any open disputes?').action).toBe('list');
    // "Any …?" asks whether there are some: a question, whatever verb comes later.
    expect(parseQuery('any fraud warnings we should look at?').action).toBe('list');
  });

  it('reads a phrasal verb in any of its forms, joined or around its object', () => {
    expect(parseQuery('tear webhook 4321 down').action).toBe('delete');
    expect(parseQuery('strip every label off issue 88').action).toBe('delete');
    expect(parseQuery('strip every role she has been assigned').action).toBe('delete');
    expect(parseQuery('sign alex out of every session').action).toBe('delete');
    expect(parseQuery('could you try taking bob off the repo').action).toBe('delete');
    expect(parseQuery('we took alex off the team').action).toBe('delete');
    expect(parseQuery('roll back the release').action).toBe('update');
    expect(parseQuery('back up the wiki').action).toBe('create');
    expect(parseQuery('hand ownership of the licensing-tools repo over to acme-legal').action).toBe('update');
    expect(parseQuery('cut a hotfix/login branch off main').action).toBe('create');
    expect(parseQuery('swap the @oncall members to Raj and Mei').action).toBe('update');
    expect(parseQuery('require reviews on the main branch').action).toBe('update');
    expect(parseQuery('pull jdoe out of the legal-reviewers group').action).toBe('delete');
    // "Pull up" shows; what follows its particle says one or many.
    expect(parseQuery('pull up config/tax_rates.yml on main for me').action).toBe('get');
    expect(parseQuery('pull up every open issue in acme/web').action).toBe('list');
    // "tear" alone, or "down" with no verb of its own, is no phrasal verb.
    expect(parseQuery('show the tear in the log').action).not.toBe('delete');
  });

  it('reads putting a thing into a place as adding it there, and "drop" alone as removing', () => {
    expect(parseQuery('get Priya into the developers group').action).toBe('create');
    expect(parseQuery('drop a note in #deals').action).toBe('create');
    // Writing or replying on a thing writes words there: a comment, a note, a message.
    expect(parseQuery('write on PAY-7 that the refund went out').terms.map((t) => t.word)).toContain('comment');
    expect(parseQuery('reply on issue 3 that it is fixed').terms.map((t) => t.word)).toContain('comment');
    expect(parseQuery('pop issue 88 onto the board').action).toBe('create');
    expect(parseQuery('drop the stale webhook').action).toBe('delete');
    expect(parseQuery('get the members of the developers group').action).not.toBe('create');
  });

  it('reads moving a thing elsewhere as changing it, taking a grant back as removing it, and "ping me" as a reminder', () => {
    expect(parseQuery('relocate issue 9 to project 77').action).toBe('update');
    expect(parseQuery('shift issue 31 over to backend').action).toBe('update');
    expect(parseQuery('push the demo back one hour').action).toBe('update');
    expect(parseQuery("withdraw the auditor's sharing rule").action).toBe('delete');
    const ping = parseQuery('ping me tomorrow at 3pm to call the vendor');
    expect(ping.action).toBe('create');
    expect(ping.terms.filter((t) => t.optional).map((t) => t.word)).toContain('remind');
  });

  it('reads having a thing back as it was as restoring it ("bring it back", "put it back in there")', () => {
    for (const query of ['please bring the Q3 project back', 'the field is in the trash, get it back', 'put the task back in the Brand project']) {
      expect(parseQuery(query).terms.filter((t) => t.optional).map((t) => t.word), query).toContain('restore');
    }
    expect(parseQuery('put the task back in the Brand project').action).toBe('create');
    // "get back to me" joined is no restoring.
    expect(parseQuery('get back to me with the list of projects').terms.map((t) => t.word)).not.toContain('restore');
  });

  it('reads making a thing that exists into something as changing it, and making a new one as making', () => {
    expect(parseQuery('make acme/api private').action).toBe('update');
    expect(parseQuery('make my calendar show up in lavender').action).toBe('update');
    expect(parseQuery('make a new repo called notes').action).toBe('create');
    expect(parseQuery('make the needs-design label pink').action).toBe('update');
  });

  it('reads setting a new thing, establishing and recording one as making it, and grabbing as getting', () => {
    expect(parseQuery('set a goal: ship the beta by Q3').action).toBe('create');
    expect(parseQuery('set the due date of task 5 to friday').action).toBe('update');
    expect(parseQuery('establish a webhook on project 12').action).toBe('create');
    expect(parseQuery('record 3 hours of proofreading time against TRANS-12').action).toBe('create');
    expect(parseQuery('grab the last message from #design').action).toBe('get');
    // A count before the plural says how many: many, read as a list.
    expect(parseQuery('grab the last 200 messages from #design').action).toBe('list');
  });

  it('reads past an adverb of manner before the verb, not one that says how often', () => {
    expect(parseQuery('permanently delete the old gist').verbsAt).toEqual([1]);
    expect(parseQuery('manually trigger the deploy workflow').action).toBe('create');
    expect(parseQuery('nightly build failed').verbsAt?.[0]).toBe(0);
  });

  it("reads saying something somewhere as a comment or a message: \"say 'thanks' under issue 14\", \"tell them it's fixed\"", () => {
    const implied = (query: string) => parseQuery(query).terms.filter((t) => t.at < 0).map((t) => t.word);
    expect(parseQuery("I'd like to say 'Thanks, all sorted!' underneath issue 14.").action).toBe('create');
    expect(implied("I'd like to say 'Thanks, all sorted!' underneath issue 14.")).toEqual(expect.arrayContaining(['comment', 'message']));
    expect(implied("reply to issue #8 and tell them it's fixed in 2.1")).toContain('comment');
    expect(implied('tell me what changed in PR 5')).not.toContain('comment');
  });

  it('knows the words of general English that mean one thing, nouns and verbs alike', () => {
    expect(synonymsOf(stemOf('chargebacks'))).toContain('dispute');
    expect(synonymsOf(stemOf('remark'))).toContain('comment');
    expect(synonymsOf(stemOf('squad'))).toContain('team');
    expect(synonymsOf(stemOf('resend'))).toContain('redeliver');
    expect(synonymsOf(stemOf('diff'))).toContain('compare');
    expect(synonymsOf(stemOf('instance'))).toContain('server');
    expect(synonymsOf(stemOf('repeating'))).toContain('recur');
    expect(synonymsOf(stemOf('occurrences'))).toContain('instance');
    expect(synonymsOf(stemOf('login'))).toContain('access');
    expect(synonymsOf(stemOf('heading'))).toContain('section');
    expect(synonymsOf(stemOf('empty'))).toContain('clear');
    expect(synonymsOf(stemOf('clients'))).toContain('customer');
    expect(synonymsOf(stemOf('urgency'))).toContain('priority');
    expect(synonymsOf(stemOf('responses'))).toContain('reply');
    expect(synonymsOf(stemOf('website'))).toContain('page');
    expect(synonymsOf(stemOf('appointment'))).toContain('event');
    expect(synonymsOf(stemOf('channel'))).toContain('conversation');
    expect(synonymsOf(stemOf('room'))).toContain('channel');
    expect(synonymsOf(stemOf('task'))).toContain('issue');
    expect(synonymsOf(stemOf('target'))).toContain('goal');
    expect(synonymsOf(stemOf('suspend'))).toContain('block');
    expect(synonymsOf(stemOf('deactivate'))).toContain('disable');
    expect(synonymsOf(stemOf('relocate'))).toContain('move');
    expect(synonymsOf(stemOf('objective'))).toContain('goal');
    expect(synonymsOf(stemOf('visitors'))).toContain('view');
    expect(synonymsOf(stemOf('header'))).toContain('topic');
    expect(synonymsOf(stemOf('online'))).toContain('presence');
    expect(synonymsOf(stemOf('url'))).toContain('link');
    // "A to-do" is one word, and a task.
    expect(parseQuery("make a to-do 'Call Dunder Mifflin'").terms.map((t) => t.word)).toContain('todo');
    expect(synonymsOf(stemOf('todo'))).toContain('task');
    expect(synonymsOf(stemOf('repository'))).toEqual([]);
  });

  it('reads a phrasal verb that says one verb of a catalogue\'s as implying it: "look over" reviews, "give back" refunds, "lock down" protects', () => {
    const implied = (query: string) => parseQuery(query).terms.filter((t) => t.at < 0).map((t) => t.word);
    expect(implied('get jlee to look over PR #412')).toContain('review');
    expect(implied('give back $40 on charge ch_3Nx')).toContain('refund');
    expect(parseQuery('give back $40 on charge ch_3Nx').action).toBe('create');
    expect(implied('lock down main on acme/payments')).toContain('protect');
    expect(implied('throw out the stale approval on PR 61')).toContain('dismiss');
    expect(implied('pull back payout po_1XYZ')).toContain('reverse');
    expect(implied('claw back the $45 we already sent the tutor on tr_3N')).toContain('reverse');
    expect(implied('look at PR #412')).not.toContain('review');
    expect(implied('fast-forward test clock clock_1Pz by 30 days')).toContain('advance');
    expect(implied('put sub_456 on hold for now')).toContain('pause');
    expect(implied('bring in an event from an .ics invite')).toContain('import');
    expect(implied('turn off the nightly workflow')).toContain('disable');
    expect(implied('for 24 hours only let existing contributors comment on acme/sdk')).toContain('restrict');
    expect(implied('limit comments and new issues on acme/sdk to prior contributors')).toContain('restrict');
    expect(implied('let existing contributors comment on acme/sdk')).not.toContain('restrict');
    expect(implied('put #season-2-planning away but keep the history')).toContain('archive');
    expect(implied('tuck away #spring-launch-2023')).toContain('archive');
    expect(implied('lock spammer42 out of our instance')).toContain('block');
    expect(implied('put the report in the folder')).not.toContain('archive');
    expect(implied('take back the invite we sent')).toContain('revoke');
    expect(implied('manually fire off the deploy.yml workflow')).toContain('trigger');
    expect(implied('how do I get notified whenever events on a calendar change?')).toContain('watch');
    expect(implied('get pinged whenever events on the Filing Deadlines calendar change')).toContain('watch');
    expect(implied('make the 2019 intranet project read-only')).toContain('archive');
    expect(implied("what's inside the docs folder of acme/api")).toContain('content');
    expect(implied('show me the console output of build 9001')).toContain('trace');
    expect(implied("who's keeping an eye on DEAL-301?")).toContain('watch');
    expect(parseQuery('stick the screenshot onto ticket QA-55').action).toBe('create');
    expect(parseQuery('hang up the call').action).toBe('cancel');
  });

  it('reads a thing had to go out as sent, and one queued up as scheduled', () => {
    const implied = (query: string) => parseQuery(query).terms.filter((t) => t.at < 0).map((t) => t.word);
    expect(parseQuery('have a note go out in #crew at 6am').action).toBe('create');
    expect(implied('have a note go out in #crew at 6am')).toContain('send');
    expect(implied('queue up a message for Friday 9am')).toContain('schedule');
    // Had done by a person is asked of them, as before.
    expect(parseQuery('have bob review PR 7').action).not.toBe('get');
  });
});
