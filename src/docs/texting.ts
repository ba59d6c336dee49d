// The short forms people type on a phone ("pls mute notifs for the mtg tmrw"), read as the words
// they stand for, and the shell's commands typed as verbs ("ls", "rm"). General English of texting
// and the shell, nothing of any API: src/docs/spelling.ts reads them outside quotes, and leaves a
// form the catalogue itself writes (Slack's `info`) as written.

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
  'to-do': 'todo',
  'to-dos': 'todos',
  // The shell's commands, typed as the verbs they stand for ("ls src/ in acme/tool", "grep slack for …").
  ls: 'list',
  rm: 'remove',
  mv: 'move',
  cp: 'copy',
  grep: 'search',
  whoami: 'who am I',
  // "+1 SUP-99": agreeing by a vote; not a phone number's country code ("+1 415 555 0100"), nor the `:+1:` emoji's name.
  '+1': 'upvote',
};

/** A short form standing alone (`W/o` at a sentence's start too); not part of a path, a name, an identifier or a shortcode (`:+1:`). */
export const SHORT_FORM = new RegExp(
  String.raw`(?<![\w'’@/.#:-])(?:${Object.keys(SHORT_FORMS)
    .sort((a, b) => b.length - a.length)
    .map((form) => form.replace('/', '\\/').replace('+', '\\+'))
    .join('|')})(?![\w'’@/#-]|\.\w|\s*\(?\d|\s+emoji\b)`,
  'gi',
);

/** Short forms written in capitals as often as not ("start a DM with Ana", "check your DMs"), and read in full even where a catalogue writes them too: they stand for nothing else. */
const WRITTEN_IN_CAPITALS = new Set(['dm', 'dms']);

/** Whether a short form is read in full though the catalogue writes it as well. */
export const readInFullAlways = (form: string): boolean => WRITTEN_IN_CAPITALS.has(form.toLowerCase());

/** What a short form matched by SHORT_FORM at `at` stands for; none when it is capitalised after a sentence's first word (a name or an initialism: "U", "PR"), unless it is written so. */
export function fullForm(form: string, at: number): string | undefined {
  const lower = form.toLowerCase();
  if (WRITTEN_IN_CAPITALS.has(lower) && form.replace(/s$/, '') === form.replace(/s$/, '').toUpperCase()) return SHORT_FORMS[lower]!;
  if (form !== lower && !(at === 0 && form.slice(1) === lower.slice(1))) return undefined;
  const full = SHORT_FORMS[lower]!;
  return form === lower ? full : full[0]!.toUpperCase() + full.slice(1);
}
