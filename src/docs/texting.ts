// The short forms people type on a phone ("pls mute notifs for the mtg tmrw"), read as the words
// they stand for. General English of texting, nothing of any API: a form the catalogue itself
// writes as a word (Slack's `info`, a `cal` field) is the catalogue's and stays as written.

/** Texting short forms, by what they stand for. Only forms that are rarely a word or a name of their own (not "hr": the department). */
const SHORT_FORMS: Readonly<Record<string, string>> = {
  pls: 'please',
  plz: 'please',
  u: 'you',
  ur: 'your',
  msg: 'message',
  msgs: 'messages',
  mtg: 'meeting',
  mtgs: 'meetings',
  appt: 'appointment',
  appts: 'appointments',
  acct: 'account',
  accts: 'accounts',
  tmrw: 'tomorrow',
  tmr: 'tomorrow',
  tmw: 'tomorrow',
  '2moro': 'tomorrow',
  yday: 'yesterday',
  thx: 'thanks',
  thnx: 'thanks',
  abt: 'about',
  b4: 'before',
  bc: 'because',
  cuz: 'because',
  notif: 'notification',
  notifs: 'notifications',
  perms: 'permissions',
  convo: 'conversation',
  convos: 'conversations',
  cal: 'calendar',
  cals: 'calendars',
  rn: 'right now',
  smth: 'something',
  sth: 'something',
  ppl: 'people',
  pw: 'password',
  pwd: 'password',
  dm: 'direct message',
  dms: 'direct messages',
  wk: 'week',
  hrs: 'hours',
  txt: 'text',
  pic: 'picture',
  pics: 'pictures',
  mgr: 'manager',
  'w/': 'with',
  'w/o': 'without',
};

/** A short form standing alone in lower case (`W/o` at a sentence's start too); not part of a path, a name or an identifier. */
const SHORT_FORM = new RegExp(
  String.raw`(?<![\w'’@/.#-])(?:${Object.keys(SHORT_FORMS)
    .sort((a, b) => b.length - a.length)
    .map((form) => form.replace('/', '\\/'))
    .join('|')})(?![\w'’@/#-]|\.\w)`,
  'gi',
);

/**
 * `text` with each texting short form read as what it stands for, unless `written(form)` says the
 * catalogue writes the form itself; `replaced` hears of each, and `kept(at)` keeps a match (quoted text).
 */
export function spelledOut(text: string, written: (form: string) => boolean, replaced: (from: string, to: string) => void, kept: (at: number) => boolean = () => false): string {
  return text.replace(SHORT_FORM, (form: string, at: number) => {
    const lower = form.toLowerCase();
    // Capitalised it is a name or an initialism ("U", "PR"), except as a sentence's first word.
    if (form !== lower && !(at === 0 && form.slice(1) === lower.slice(1))) return form;
    if (kept(at) || written(lower)) return form;
    const full = SHORT_FORMS[lower]!;
    const to = form === lower ? full : full[0]!.toUpperCase() + full.slice(1);
    replaced(form, to);
    return to;
  });
}
