// Requests written in another form than a command, read as the command they ask for:
//   - a question of ability ("Can the bot leave a comment on commit a1b2c3?", "Is it possible for
//     the app to flip me to away?"): asking whether something can be done asks to do it, so the
//     verb says what to do, as "could you …" does (src/docs/lexicon.ts), and the question reads
//     nothing;
//   - a noun for the act ("Deletion of the branch …", "Removal of all events from …"): the formal
//     register names the act, and the noun's verb says what to do;
//   - a control of the product's screens named by its label ("the 'Mark all as read' button",
//     "the 'Duplicate project' item"): the label says what it does, so its words are read, where
//     other quoted text is a value (a title, a message) and is not;
//   - the act asked for as a thing's state to be ("the old branch should be deleted", "I'd like
//     issue 9 reopened", "issue 45 needs locking", "would you mind closing it"): the participle or
//     the -ing form says what to do to the thing before it;
//   - a question after which operation does a thing ("what API call closes an issue", "how would
//     I go about deleting a release"): the verb after it says what to do, in whatever form;
//   - a request relayed ("the customer wants us to refund …"), and what "should exist", which is to
//     be created;
//   - what a thing should be called, read, start at or be ("#old should be called #new", "the due
//     date should read 30 June", "#hr ought to be a private channel"): a change to it; and what
//     should not exist or show up any more: its removal; what belongs in a place: a move there;
//     someone who should not be part of a group any more: taken out of it; and a thing one would
//     like to show or be so ("I'd like the calendar to show in green"): a change to it.
// The frame around a request (speech, a planning document, a reason) is taken off first
// (src/docs/frames.ts).
// A rewrite happens only where the verb is one: `isVerb` says so (the action lexicon, or a verb
// the catalogue names operations after), so "Location of the file" stays as written when neither
// knows "locate".

import { withoutFrame } from './frames.ts';
import { isPhrasalVerb, NOUN_VERBS } from './lexicon.ts';
import { IRREGULAR_PARTICIPLES, PARTICIPLE } from './participles.ts';

/** Verbs that report what someone said: what follows is what they said ("our on-call says the hook should be disabled"). */
const REPORTING = String.raw`(?:says?|said|thinks?|thought|mentioned|reports?|reported|confirmed|agreed|told\s+(?:me|us))`;
/** A clause's start: the query's, or after a sentence's end, a colon, "so", or a verb that reports speech. */
const CLAUSE = String.raw`(^|[.!?;:]\s+|,?\s\bso\s+|\s${REPORTING}(?:\s+that)?\s+)`;
/** A word of the thing a clause is about: not a verb that reports speech, which starts another clause. */
const THING_WORD = String.raw`(?!${REPORTING}\b)[\w'./#%$@()-]+\s+`;
const DETERMINER = String.raw`(?:the|our|my|your|this|that|a|an|their|its)`;
/** A short noun phrase that is asked about: "the bot", "our integration", "my nightly script". */
const SUBJECT = String.raw`${DETERMINER}\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?`;

/** "Can the bot <verb>", "could our nightly job <verb>": the modal, its subject of one or two words, then the verb. */
const ABILITY = new RegExp(`${CLAUSE}(?:can|could|would|will)\\s+${DETERMINER}\\s+[a-z][\\w-]*\\s+([a-z]+)\\b(?:(\\s+)([a-z]+)\\b)?`, 'gi');
/** "Can Slack nudge me …", "could GitHub email us …": a product asked to do a thing for the one asking (its name may have been read off the query already: "can nudge me"). */
const NAMED_DOES_FOR_ME = new RegExp(`${CLAUSE}(?:[Cc]an|[Cc]ould|[Ww]ould|[Ww]ill)\\s+(?:[A-Z][\\w-]*\\s+)?([a-z]+)(?=\\s+(?:me|us)\\b)`, 'g');
/** "Can someone delete …", "could anybody close …": anyone at all asked to do it. */
const ANYONE_ABLE = new RegExp(`${CLAUSE}(?:can|could|would|will)\\s+(?:someone|somebody|anyone|anybody)\\s+(?:please\\s+)?([a-z]+)\\b`, 'gi');
/** An ability asked of no one named: "can draft the release notes for me" (a service's name before the verb read apart: "can GitHub draft …"). */
const SUBJECTLESS_ABILITY = new RegExp(`${CLAUSE}(?:can|could|would|will)\\s+([a-z]+)(?=\\s+(?:the|a|an|my|our|this|that|these|those|me|us)\\b)`, 'gi');
/** Words the action lexicon reads as cues that are no verb ("all", "which", "new"). */
const NO_VERBS = new Set(['all', 'every', 'which', 'new', 'fresh', 'info', 'detail', 'details']);
/** "Is it possible for the app to <verb>", "is there a way for our bot to <verb>". */
const POSSIBILITY = new RegExp(`${CLAUSE}is\\s+(?:it\\s+possible|there\\s+(?:a|any)\\s+way)\\s+for\\s+(?:${SUBJECT}|me|us|them|him|her)\\s+to\\s+([a-z]+)\\b`, 'gi');
/** "Is there a way I can …", "is there any way we could …". */
const WAY_TO = new RegExp(`${CLAUSE}is\\s+there\\s+(?:a|any|some)\\s+way\\s+(?:that\\s+)?(?:i|we|you)\\s+(?:can|could|might)\\s+([a-z]+)\\b`, 'gi');
/** "How I close issue 12?": a question of how to do a thing, its "do" left out. */
const HOW_I = /\bhow\s+(i|we)\s+(?!(?:do|does|did|can|could|should|would|will|am|are|was|were|have|has|had|might|may|must)\b)(?=[a-z])/gi;
/** "Show readers how to publish …", "teach me how to archive …": what to do is the verb after "how to". */
const SHOW_HOW = new RegExp(`${CLAUSE}(?:show|tell|teach|explain)(?:\\s+[a-z]+){0,2}?\\s+how\\s+(?:to|do\\s+(?:i|we|you)|can\\s+(?:i|we|you))\\s+`, 'gi');
/** "Deletion of", "the removal of": a noun for an act, then what it acts on. */
const NOMINAL = new RegExp(`${CLAUSE}(?:the\\s+)?([a-z]{5,})\\s+of\\s+`, 'gi');
/** "… is required", "… is needed" closing a clause that names an act by its noun: it says the act is asked for, and nothing more. */
const NOMINAL_NEEDED = new RegExp(`${CLAUSE}((?:the\\s+)?[a-z]{5,}\\s+of\\s+(?:[^.!?;:]|[.:](?=\\S))+?)\\s+(?:is|are)\\s+(?:required|needed|necessary|requested)(?=\\s*(?:[.!?;:]|$))`, 'gi');

/** Quoted text of a few words right before or after a word for a control on a screen. */
const CONTROL = String.raw`(?:button|option|item|menu|action|link|tab|toggle|icon|command|entry|dialog|checkbox|shortcut|dropdown)s?`;
/** A label written as a command on the thing at hand: "Archive this repository", "Transfer the project". */
const ACTING_LABEL = /^[A-Z][a-z]{2,}\s+(?:this|the|that|these|all|selected)\s+[a-z]/;
/** Verbs that press or pick a control: the quoted text after them is its label ("click 'Archive this repository'", "pick 'All Activity'"). */
const PRESSING = String.raw`(?:click|clicking|clicked|hit|press|tap|select|choose|pick)`;
/** A label's first word, a prefixed one joined ("Re-run failed jobs": rerun). */
const labelVerb = (label: string) => (/^[A-Za-z]+(?:-[A-Za-z]+)?/.exec(label)?.[0] ?? '').replace('-', '');
/** A control pressed by what it says, unquoted: "click the blue Merge button", "hit the pin icon", "tap the Approve button". */
const PRESSED = new RegExp(String.raw`\b(?:click|clicking|hit|press|tap|push|select|choose|use)\s+(?:on\s+)?(?:the\s+|that\s+|a\s+)?(?:(?:big|little|small|blue|green|red|grey|gray|yellow|orange|white|black|purple)\s+)?([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}?)\s+(?:button|icon|link|option|toggle)\b`, 'gi');
/** A control named by what it says, with no verb, as the request ("the Follow button on torvalds' profile"), or clicked by it alone ("click Watch on kubernetes/kubernetes"): a label written capitalised, as controls show it. */
const NAMED_CONTROL = /^\s*[Tt]he\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2}?)\s+(?:button|icon|link|option|toggle)\b|\b(?:[Cc]lick|[Cc]licking|[Pp]ress|[Tt]ap)\s+(?:on\s+)?([A-Z][a-z]+)\b(?!\s+(?:[a-z]+\s+)?(?:button|icon|link|option|toggle)\b)/g;
/** A label pressed: "click 'Archive this repository'", "pick 'All Activity'". */
const PRESSED_LABEL = new RegExp(String.raw`\b${PRESSING}(?:\s+on)?\s+(['"“‘])([A-Za-z][^'"“”‘’]{0,40}?)[.…]*['"”’]`, 'gi');
const LABEL = new RegExp(String.raw`(['"“‘])([A-Za-z][^'"“”‘’]{0,40}?)[.…]*['"”’](?=\s+(?:\w+\s+)?${CONTROL}\b)|(?<=\b${CONTROL}\s+(?:\w+\s+)?)(['"“‘])([A-Za-z][^'"“”‘’]{0,40}?)[.…]*['"”’]`, 'gi');


/** "<thing> should be <done>", "<thing> needs to be <done>", "<thing> can be <done> now", "PR 5 should get merged". */
const PASSIVE = new RegExp(`${CLAUSE}((?:${THING_WORD}){1,12}?)(?:should|must|can|could|will|needs?\\s+to|has\\s+to|have\\s+to|ought\\s+to|is\\s+to|are\\s+to)\\s+(?:be|get)\\s+${PARTICIPLE}\\b(?=(?:\\s+([a-z]+))?)`, 'gi');
/** Where a clause of wanting starts: where any clause does, or after "and" ("it's 2am and I just want …"). */
const WANT_CLAUSE = String.raw`(^|[.!?;:]\s+|,?\s\bso\s+|\s${REPORTING}(?:\s+that)?\s+|,?\s+and\s+)`;
/** An adverb between the one who wants and the wanting ("I just want", "we really need"). */
const WANT_ADVERB = String.raw`(?:just|really|only|simply|actually|honestly)`;
/** "I'd like <thing> <done>", "we need <thing> <done>", "please get <thing> <done>". */
const WANTED_DONE = new RegExp(`${WANT_CLAUSE}(?:(?:i'd|i\\s+would|we'd|we\\s+would)(?:\\s+${WANT_ADVERB})?\\s+like|(?:i|we)(?:\\s+${WANT_ADVERB})?\\s+(?:want|need)|please\\s+get|get|(?:${DETERMINER}\\s+)?[a-z][\\w-]*(?:\\s+[a-z][\\w-]*)?\\s+(?:would\\s+like|wants|needs))\\s+(?!(?:what|who|which|when|where|how|that|everything|anything|all)\\b)((?:${THING_WORD}){1,6}?)${PARTICIPLE}\\b`, 'gi');
/** The days of the week, as times are said. */
const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
/** Time blocked ("block 2-4am tonight on the on-call calendar", "Block Saturday 8am-8pm as …", "block out next Thursday"): an event scheduled to hold it. */
const BLOCKED_TIME = new RegExp(String.raw`\bblock(?:\s+out|\s+off)?(?=\s+(?:(?:the\s+)?(?:whole\s+|entire\s+)?(?:${WEEKDAYS}|tomorrow|tonight|today|weekend|morning|afternoon|evening)\b|(?:next|this)\s+(?:week|${WEEKDAYS})\b|\d{1,2}(?::\d{2})?\s*(?:am|pm|[-–]\s*\d|to\s+\d)|(?:an?|\d+)\s+(?:hours?|mins?|minutes|days?)\b))`, 'gi');
/** Someone's request reported: "the customer wants us to …", "a client asked me to …", "she is asking if we can …". */
const REPORTED_REQUEST = new RegExp(`${CLAUSE}(?:${DETERMINER}\\s+)?(?:[a-z][\\w'-]*\\s+){0,2}?[a-z][\\w'-]*\\s+(?:(?:wants?|asked|asks|is\\s+asking|would\\s+like|needs?|requested|requests)\\s+(?:us|me|you|someone)\\s+to|(?:is\\s+asking|asked|asks|wants\\s+to\\s+know|wonders|wondered)\\s+(?:if|whether)\\s+(?:we|you|i)\\s+(?:can|could))\\s+`, 'gi');
/** "We need a new ticket kind …", "my manager wants a company goal …": a thing wanted is to be made; not a read wanted ("we need a list of …"). The one asking ("I want a …") keeps the words that say so. */
const WANTED_THING = new RegExp(`${CLAUSE}(?:we\\s+want|we'd\\s+like|we\\s+need|(?:${DETERMINER}\\s+)?[a-z][\\w-]*\\s+(?:wants|needs))\\s+(?=(?:a|an|another|one)\\s+(?!(?:[a-z-]+\\s+)?(?:list|copy|count|summary|look|report|breakdown|overview|rundown|tally|number|way|chance|view|export|idea|sense|quick|better|full|complete|link|url|permalink|record|history|log)\\b)[a-z])`, 'gi');
/** "<thing> should exist", "… should appear on the releases page": a thing wanted to exist is to be created. */
const TO_EXIST = new RegExp(`${CLAUSE}((?:${THING_WORD}){1,6}?)(?:should|must|will|needs?\\s+to|has\\s+to)\\s+(?:exist|appear(?!\\s+as\\b)|show\\s+up(?!\\s+as\\b))\\b`, 'gi');
/** "<thing> belongs in …", "… should live under …": it is to be moved there. */
const BELONGS = new RegExp(`${CLAUSE}((?:${THING_WORD}){1,6}?)(?:belongs|(?:should|must|needs?\\s+to)\\s+(?:be|live|go|sit))\\s+(?:in|into|on|under|inside)\\s+`, 'gi');
/** "He shouldn't be part of our org any more": someone to be taken out of a group. */
/** What someone wants gone or out of a place ("I want task 99 gone", "… gone from acme for good", "I want dave out of #leadership", "… no longer in jira-developers"): to remove it. */
const WANTED_GONE = new RegExp(`${WANT_CLAUSE}(?:(?:i'd|i\\s+would|we'd|we\\s+would)(?:\\s+${WANT_ADVERB})?\\s+like|(?:i|we)(?:\\s+${WANT_ADVERB})?\\s+(?:want|need))\\s+(?!to\\s)((?:(?!to\\s)${THING_WORD}){1,6}?)(?:(gone|removed)(?=\\s*(?:[.,;!?]|$)|\\s+(?:from|for\\s+good|entirely|completely|permanently|forever|altogether)\\b)|(?:out\\s+of|off\\s+of|(?<!\\b(?:switched|turned|shut|cut|signed|logged|paid|called)\\s+)off|no\\s+longer\\s+(?:in|on|attached\\s+to|part\\s+of|a\\s+member\\s+of))\\s+)`, 'gi');
/** A time a thing is moved to: a day, an hour, a date ("Friday at 2pm", "the 30th", "next week", "Aug 9"). */
const WHEN_TO = String.raw`(?:(?:next|this)\s+(?:week|month|${WEEKDAYS})|${WEEKDAYS}|tomorrow|tonight|noon|\d{1,2}(?::\d{2})?\s?(?:am|pm)|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}|\d{4}-\d{2}-\d{2})`;
/** A word of a thing that may be a time ("my 1:1", "the 9:30"). */
const TIMED_THING_WORD = String.raw`(?!${REPORTING}\b)[\w'./#%$@():-]+\s+`;
/** A share taken off a price ("20% off", "15 percent off"): a discount, not a thing taken off something; an amount ("knock $30 off the invoice") stays what it says. */
const SHARE_OFF = /(\d(?:[\d.,]*\d)?\s*(?:%|percent|per\s+cent))\s+off\b/gi;
/** A thing shown where one's own are ("show the Holidays calendar in my sidebar", "show it alongside mine", "get it showing in my list"): added to one's list, not read; not every one already there. */
const SHOWN_AMONG_MINE = /\b(?:show|display|get)\s+(?!me\b|us\b)((?:(?!every\b|all\b|i've\b|i\s+have\b)\S+\s+){1,8}?)(?:showing\s+|show\s+up\s+|to\s+show\s+up\s+|appear(?:ing)?\s+)?(?:in|on|alongside|next\s+to|with)\s+(?:my|our)\s+(?:(?:calendar|own)\s+)?(?:sidebar(?:\s+list)?|list|other\s+\w+|own)\b|\b(?:show|display)\s+(?!me\b|us\b)((?:\S+\s+){1,8}?)(?:show\s+up\s+|showing\s+|appear(?:ing)?\s+)?(?:alongside|next\s+to)\s+(?:mine|ours)\b/gi;
/** Moving a thing to a time ("push the review to Thursday at 3pm", "move my 1:1 from Thursday to Friday"): rescheduling it, not moving it elsewhere. */
const MOVED_TO_TIME = new RegExp(`\\b(?:move|moving|push|pushing|shift|shifting|bump|bumping|postpone|delay)\\s+((?:${TIMED_THING_WORD}){1,8}?)(?:from\\s+(?:${TIMED_THING_WORD}){1,3}?)?(?:to|until|till)\\s+(?=${WHEN_TO}\\b)`, 'gi');
const NOT_PART_OF = new RegExp(`${CLAUSE}((?:${THING_WORD}){1,4}?)(?:shouldn't|should\\s+not|mustn't|must\\s+not)\\s+be\\s+(?:a\\s+)?(?:part|members?)\\s+of\\s+`, 'gi');
/** "I want my status dot showing me as away", "I'd like the calendar to show in green": a thing wanted to be so is to be changed. */
const WANTED_AS = new RegExp(`${CLAUSE}(?:i'd\\s+like|i\\s+would\\s+like|i\\s+want|we\\s+want|we'd\\s+like|i\\s+need|we\\s+need)\\s+((?:${THING_WORD}){1,6}?)(?:to\\s+(?:be(?!\\s+able\\b)|show|read|say|look\\s+like|appear)|showing|reading|looking\\s+like|appearing)\\s+`, 'gi');
/** A question word: what it is in is a question, not a thing ("who can be assigned …"). */
const QUESTION_WORD = /\b(?:who|whom|what|which|when|where|how)\b/i;
/** Words that start a clause of time, condition or reason. */
const SUBORDINATE = /\b(?:before|after|until|unless|once|when|whenever|if|because|since|while|anything|everything|nothing)\b/i;
/** A subject: what it is in is a clause of its own ("the gist I made"), or people, not a thing. */
const SUBJECT_WORD = /\b(?:i|we|you|they|he|she|someone|somebody)\b/i;
/** "I want that branch called 'main' instead", "we want the default branch called main": a thing that exists wanted under another name is to be renamed (not "a repo called notes", a new one). */
const WANTED_CALLED = new RegExp(`${CLAUSE}(?:i'd\\s+like|i\\s+would\\s+like|i\\s+want|we\\s+want|we'd\\s+like|i\\s+need|we\\s+need)\\s+((?:the|that|this|our|my|its|their)\\s+(?:${THING_WORD}){0,8}?)(?:called|named|renamed)\\s+`, 'gi');
/** "<thing> should be called …": it is to be renamed. */
const TO_BE_CALLED = new RegExp(`${CLAUSE}((?:${THING_WORD}){1,6}?)(?:should|must|ought\\s+to|needs?\\s+to|has\\s+to)\\s+(?:be\\s+)?(?:called|named|renamed)\\s+`, 'gi');
/** "<thing> should read …", "… should start at 4pm", "… ought to be a private channel": a thing to be as the rest says is to be changed. */
const TO_BE_AS = new RegExp(`${CLAUSE}((?:${THING_WORD}){1,6}?)(?:should|must|ought\\s+to|needs?\\s+to|has\\s+to)\\s+(?:be(?!\\s+(?:able\\b|${PARTICIPLE.replace('(', '(?:')}\\b))|become|read|say|show(?:\\s+as)?|(start|end)(?!\\s+[a-z]+ing\\b)|look|appear(?:\\s+as)?)\\s+`, 'gi');
/** "<thing> shouldn't exist", "… shouldn't show up in my list any more": it is to go. */
const NOT_TO_BE = new RegExp(`${CLAUSE}((?:${THING_WORD}){1,6}?)(?:shouldn't|should\\s+not|mustn't|must\\s+not|needn't)\\s+(?:exist|show\\s+up|appear|be\\s+(?:there|around|listed|shown|visible))\\b`, 'gi');
/** "<thing> needs <doing>"; "would you mind <doing> …". */
const NEEDS_DOING = new RegExp(`${CLAUSE}((?:${THING_WORD}){1,5}?)needs\\s+([a-z]+ing)\\b`, 'gi');
const MIND_DOING = new RegExp(`${CLAUSE}(?:(?:would|do)\\s+you\\s+)?mind\\s+([a-z]+ing)\\b`, 'gi');

/** "What API call closes …", "which endpoint deletes …": what the operation asked for does, in the third person. */
const META_DOES = new RegExp(`${CLAUSE}((?:what|which)\\s+(?:api\\s+call|endpoint|call|api|operation)\\s+)([a-z]+?(?:es|s))\\b`, 'gi');
/** "How would I go about deleting …", "is there an endpoint for locking …": the act named by its -ing form. */
const GERUND_ACT = /\b(go\s+about|(?:endpoint|api|call|way)\s+(?:for|of))\s+([a-z]+ing)\b/gi;

/** The verb of a past participle or an -ing form ("deleted", "closing", "starred": delete, close, star), when `isVerb` knows it. */
export function verbOfForm(form: string, isVerb: (word: string) => boolean): string | undefined {
  const word = form.toLowerCase();
  const irregular = IRREGULAR_PARTICIPLES[word];
  if (irregular) return isVerb(irregular) ? irregular : undefined;
  const stem = word.replace(/(?:ed|ing)$/, '');
  if (stem === word || stem.length < 2) return undefined;
  const candidates = [stem, `${stem}e`, /([b-df-hj-np-tv-z])\1$/.test(stem) ? stem.slice(0, -1) : '', stem.endsWith('i') ? `${stem.slice(0, -1)}y` : ''];
  return candidates.find((c) => c.length >= 3 && isVerb(c));
}

/** Endings of nouns for an act, and what the verb ends with instead (most likely first). */
const NOUN_ENDINGS: [RegExp, string[]][] = [
  [/ication$/, ['y', 'ish', 'icate']],
  [/ation$/, ['ate', 'e', '']],
  [/ition$/, ['', 'e']],
  [/ution$/, ['ve', 'ute']],
  [/ption$/, ['be']],
  [/ssion$/, ['t', 'ss']],
  [/sion$/, ['d', 'de', 'se', 't']],
  [/tion$/, ['te', 't']],
  [/al$/, ['e', '']],
  [/ment$/, ['']],
  [/[ae]nce$/, ['e', '']],
  [/ure$/, ['e']],
  [/ing$/, ['', 'e']],
  [/ery$/, ['er']],
];

/** The verb a noun for an act comes from ("deletion": delete), when `isVerb` knows it. */
export function verbOfNoun(noun: string, isVerb: (word: string) => boolean): string | undefined {
  const word = noun.toLowerCase();
  for (const [ending, replacements] of NOUN_ENDINGS) {
    if (!ending.test(word)) continue;
    for (const replacement of replacements) {
      const verb = word.replace(ending, replacement);
      if (verb.length >= 3 && verb !== word && isVerb(verb)) return verb;
    }
  }
  return undefined;
}

/** The query with each request written as a question of ability, a noun for its act, a control's label or a state to be, read as a command. */
export function asCommands(query: string, isVerb: (word: string) => boolean): string {
  const verb = (word: string) => !NO_VERBS.has(word.toLowerCase()) && isVerb(word.toLowerCase());
  return withoutFrame(query)
    .replace(SHARE_OFF, '$1 discount')
    .replace(BLOCKED_TIME, (whole) => (verb('schedule') ? 'schedule' : whole))
    .replace(LABEL, (whole, _q1: string, before: string | undefined, _q2: string, after: string | undefined) => {
      const label = before ?? after ?? '';
      const first = labelVerb(label);
      return label.split(/\s+/).length <= 5 && verb(first) ? label : whole;
    })
    // A control's label says what it does ("Archive this repository"), whether or not the verb is one the lexicon knows.
    .replace(PRESSED_LABEL, (whole, _q: string, label: string) => (label.split(/\s+/).length <= 5 && (verb(labelVerb(label)) || ACTING_LABEL.test(label)) ? label : whole))
    .replace(PRESSED, (whole, label: string) => {
      const first = labelVerb(label);
      return verb(first) ? label : whole;
    })
    .replace(NAMED_CONTROL, (whole, named: string | undefined, clicked: string | undefined) => {
      const label = named ?? clicked ?? '';
      return verb(labelVerb(label).toLowerCase()) ? label.toLowerCase() : whole;
    })
    .replace(ABILITY, (whole, start: string, second: string, space = '', third = '') =>
      verb(second) ? `${start}${second}${space}${third}` : third && verb(third) ? `${start}${third}` : whole,
    )
    .replace(POSSIBILITY, (whole, start: string, word: string) => (verb(word) ? `${start}${word}` : whole))
    .replace(SHOW_HOW, (_whole, start: string) => start)
    .replace(HOW_I, 'how do $1 ')
    .replace(ANYONE_ABLE, (whole, start: string, word: string) => (verb(word) ? `${start}${word}` : whole))
    .replace(SUBJECTLESS_ABILITY, (whole, start: string, word: string) => (verb(word) && !SUBJECT_WORD.test(word) ? `${start}${word}` : whole))
    .replace(NAMED_DOES_FOR_ME, (_whole, start: string, word: string) => `${start}${word}`)
    .replace(WAY_TO, (whole, start: string, word: string) => (verb(word) ? `${start}${word}` : whole))
    .replace(NOMINAL_NEEDED, (whole, start: string, act: string) => (verbOfNoun(/[a-z]+/i.exec(act.replace(/^the\s+/i, ''))![0], verb) ? `${start}${act}` : whole))
    .replace(NOMINAL, (whole, start: string, noun: string) => {
      const read = verbOfNoun(noun, verb);
      return read ? `${start}${read} ` : whole;
    })
    .replace(META_DOES, (whole, start: string, asking: string, does: string) => {
      const read = [does.slice(0, -1), does.slice(0, -2)].find((v) => v.length >= 3 && verb(v));
      return read ? `${start}${asking}${read}` : whole;
    })
    .replace(GERUND_ACT, (whole, lead: string, doing: string) => {
      const read = verbOfForm(doing, verb);
      return read ? `${lead} ${read}` : whole;
    })
    .replace(MIND_DOING, (whole, start: string, doing: string) => {
      const read = verbOfForm(doing, verb);
      return read ? `${start}${read}` : whole;
    })
    .replace(REPORTED_REQUEST, (_whole, start: string) => start)
    .replace(PASSIVE, (whole, start: string, thing: string, form: string, particle: string | undefined) =>
      // "… should be taken out of #finance": a phrasal verb's participle and its particle.
      thingThenForm(whole, start, thing, form, particle === undefined ? verb : (word) => verb(word) || isPhrasalVerb(word, particle.toLowerCase())),
    )
    .replace(WANTED_GONE, (whole, start: string, thing: string, gone: string | undefined) => (verb('remove') && !QUESTION_WORD.test(thing) ? `${start}remove ${thing.trimEnd()}${gone ? '' : ' from '}` : whole))
    .replace(WANTED_DONE, (whole, start: string, thing: string, form: string) => thingThenForm(whole, start, thing, form))
    .replace(NEEDS_DOING, (whole, start: string, thing: string, form: string) => thingThenForm(whole, start, thing, form))
    .replace(WANTED_THING, (whole, start: string) => (verb('create') ? `${start}create ` : whole))
    .replace(TO_EXIST, (whole, start: string, thing: string) => (verb('create') && !QUESTION_WORD.test(thing) && !/^(?:it|they|this|that|these|those)\s*$/i.test(thing) ? `${start}create ${thing.trimEnd()}` : whole))
    .replace(NOT_PART_OF, (whole, start: string, who: string) => (verb('remove') && !QUESTION_WORD.test(who) && !/\b(?:it|this|that)\b/i.test(who) ? `${start}remove ${who.trimEnd()} from ` : whole))
    .replace(WANTED_AS, (whole, start: string, thing: string) => (/\b[a-z]+ed\b/i.test(thing) ? whole : thingWithVerb(whole, start, thing, 'change', ' ')))
    .replace(BELONGS, (whole, start: string, thing: string) => thingWithVerb(whole, start, thing, 'move', ' to '))
    .replace(NOT_TO_BE, (whole, start: string, thing: string) => thingWithVerb(whole, start, thing, 'remove'))
    .replace(WANTED_CALLED, (whole, start: string, thing: string) => thingWithVerb(whole, start, thing, 'rename', ' to '))
    .replace(TO_BE_CALLED, (whole, start: string, thing: string) => thingWithVerb(whole, start, thing, 'rename', ' to '))
    .replace(TO_BE_AS, (whole, start: string, thing: string, when: string | undefined) => thingWithVerb(whole, start, thing, 'change', when ? ` ${when} ` : ' to '))
    .replace(MOVED_TO_TIME, (whole, thing: string) => (verb('reschedule') ? `reschedule ${thing}to ` : whole))
    .replace(SHOWN_AMONG_MINE, (whole, thing: string | undefined, other: string | undefined) => (verb('add') ? `add ${(thing ?? other ?? '').trimEnd()} to my list` : whole));

  /** "<thing> should …" read as "<verb> <thing>", where the thing is one. */
  function thingWithVerb(whole: string, start: string, thing: string, read: string, after = ''): string {
    if (!verb(read) || QUESTION_WORD.test(thing) || SUBJECT_WORD.test(thing) || /\b(?:it|nobody|everyone|everybody|anyone|anybody|no\s+one)\b/i.test(thing) || /^(?:there|this|that)\s*$/i.test(thing.trim()) || verb(/^\S+/.exec(thing)?.[0] ?? '')) return whole;
    return `${start}${read} ${thing.trimEnd()}${after || ' '}`;
  }

  /** "<thing> … <done>" read as "<do> <thing>"; a noun that records something new used as a verb is one here ("I want a bug filed"). */
  function thingThenForm(whole: string, start: string, thing: string, form: string, isVerb: (word: string) => boolean = (word) => verb(word) || NOUN_VERBS.has(word)): string {
    // A question ("who can be assigned …") or a command ("show me what …") is no thing.
    if (QUESTION_WORD.test(thing) || verb(/^\S+/.exec(thing)?.[0] ?? '')) return whole;
    // A subject in it makes the participle a relative clause's ("the gist I made", "the message we sent"), or "to" makes it a command's object.
    if (SUBJECT_WORD.test(thing) || /^to\b/i.test(thing)) return whole;
    // A conjunction makes it a clause of condition or time ("… before anything can be merged"), not the thing asked about.
    if (SUBORDINATE.test(thing)) return whole;
    const read = verbOfForm(form, isVerb);
    return read ? `${start}${read} ${thing.trimEnd()}` : whole;
  }
}
