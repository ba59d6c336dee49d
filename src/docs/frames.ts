// A request inside a frame, read as the request: the frame says who asks, when and why, and is
// not matched against operations (src/docs/request-forms.ts reads what is left).
//   - speech: fillers ("uh", "um"), a word said twice and a name addressed ("Hey Priya, …") say
//     nothing, and what follows a correction ("no wait", "I mean") replaces what came before;
//   - a question asked inside another ("any idea who is assigned …") is the question asked;
//   - a planning document: a user story's role ("As a maintainer, I want …"), a scenario's
//     conditions ("Given …, when …, then …"), a label ("Acceptance criteria:"); what its criteria
//     or outcome say holds ("the channel is archived") is the state asked for;
//   - a condition or a setting that names no value before the request ("When a new hire joins, …",
//     "For the key rotation review, …"), and the reason after it ("… so nobody can delete it"); what
//     the condition is about is what the request's "it" stands for ("If payout po_1 hasn't left, stop it");
//     a screen of the product as the setting ("On the Products page, …") says where, and is kept so;
//   - courtesy: hedges ("perhaps", "maybe"), apologies ("Sorry to ask, but …"), asking leave ("would
//     it be possible to …", "might I ask …") and conditions of courtesy ("if that's okay", "if you have
//     a moment") say nothing of what to do;
//   - a state to be brought about ("Make sure nobody can push to main"): the state is the request;
//   - a runbook's step number ("Step 3:", "2.");
//   - who relayed a quoted request ("Ticket from HR: '…'"): the quote is read as words, not a title.
import { PARTICIPLE } from './participles.ts';

/** Sounds that fill a pause in speech, with the commas around them. */
const FILLERS = /(?:,\s*)?\b(?:u+h+|u+m+|h+m+|e+r+m*|a+h+)\b(?:\s*,)?\s*/gi;
/** A word said twice as speech stumbles: "the, the launch checklist". */
const STUTTER = /\b([a-z]+)(?:\s*,\s*|\s+)\1\b/gi;
/** Someone addressed by name before the request: "Hey Priya, could you …". */
const VOCATIVE = /^\s*(?:[Hh]ey|[Hh]i|[Hh]ello|[Oo]k|[Oo]kay)\s+[A-Z][a-z]+\s*,\s*/;
/** A spoken correction: what comes before it in its sentence is taken back. */
const CORRECTION = /(?:^|(?<=[.!?]\s))[^.!?]*?(?:[,.…]+\s*|\s+)(?:no\s+wait|scratch\s+that|or\s+rather|i\s+mean|i\s+meant)\b[,.…]*\s*/gi;
/** What a correction takes back before what is meant: "no, not void it - email it", "Sorry, not a refund — flag it", "Actually, don't add a price; change …". */
const NOT_THAT = /^\s*(?:(?:no|nope|sorry|actually|oops|wait)\b[,.!]*\s*)?(?:not|don't|do\s+not)\b[^-—–;:]*?\s[-—–;:]\s*(?:i\s+meant?\s+)?/i;
/** A user story's role before the one who wants: "As a release manager, I want …". */
const STORY_ROLE = /(?:^|(?<=[.!?]\s))as\s+(?:an?|the|our)\s+(?:[\w'-]+\s+){0,4}?[\w'-]+,?\s+(?=(?:i|we)\b)/gi;
/**
 * A state to be brought about ("Make sure nobody can push to main", "make sure they don't expire",
 * "I want to ensure that sub_1 doesn't renew"): the state is what is asked for. A command's own
 * "make sure" is dropped only before a state that something is kept from (a positive one, "make sure
 * Ana can see it", reads as making it so); never before someone kept informed ("make sure Linda gets
 * updates"), a command to watch.
 */
const ASSURED = /(?:^|(?<=[.!?;:]\s)|(?<=\b(?:please|pls|and|then|just|now)\s))((?:i|we)\s+(?:want|need|would\s+like|'d\s+like)\s+to\s+)?(?:make\s+(?:sure|certain)|ensure|see\s+to\s+it)\s+(?:that\s+)?(?=\S)(?![^.?!;]{0,40}?\b(?:gets?|getting|receives?|hears?|is|are|stays?|kept)\s+(?:\S+\s+)?(?:notified|updates?|emails?|notifications?|pinged|alerted|informed|posted|updated)\b)/gi;
/** A state something is kept from: no one, nothing, or a thing that cannot, does not or no longer does. */
const KEPT_FROM = /^(?:\S+\s+){0,6}?(?:nobody|no\s+one|no-one|nothing|never|no\s+longer|can't|cannot|can\s+not|couldn't|doesn't|don't|won't|isn't|aren't|shouldn't|stops?|loses?)\b/i;
/** A scenario's conditions: "Given …, when …, then <request>"; without "then", the first clause after "given". */
const SCENARIO_THEN = /^\s*(?:given|when)\b.*?[,\s]\s*then\s+/i;
const SCENARIO_GIVEN = /^\s*given\b[^,]*,\s*/i;
/** A condition before the request: "When a new hire joins, …", "once it's merged, …"; not in a question. */
const CONDITION = /^\s*(?:when|whenever|every\s+time|each\s+time|any\s*time|once|if|after|as\s+soon\s+as)\b[^,?]*,\s*(?=[^?]*$)/i;
/** A label that names the part of a planning document the request is ("Acceptance criteria:", "User story:"). */
const DOCUMENT_LABEL = /^\s*(?:acceptance(?:\s+criteria)?|requirements?|(?:user\s+)?story|goal|task|to-?do|request|ask|context|note|update|ac)\s*:\s*/i;

/** A request relayed in quotes after who sent it ("Ticket from HR: '… please take him out of the org.'", "Customer says: '…'"): the quote is what is asked about, its lead the frame. */
const RELAYED = /^\s*((?:[\w#'-]+\s+){0,5}?[\w#'-]+)\s*:\s*(["'“‘])(.{12,}?)(["'”’])(?=\s|$)/;
/** Words that say a lead relays what someone else wrote. */
const RELAY_WORDS = /\b(?:ticket|tickets|from|replied|replies|wrote|writes|says|said|asks|asked|reports|reported|complaint|complains|escalation|request)\b/i;
/** A lead that is itself a command, a verb and its object ("Open a ticket in GYM: '…'"): what it quotes is the thing's text, not a request. */
const COMMAND_LEAD = /^[a-z]+\s+(?:a|an|the|new|this|that|my|our)\b/i;
const relays = (lead: string) => RELAY_WORDS.test(lead) && !COMMAND_LEAD.test(lead);

/** A runbook's or a list's step: "Step 3:", "2)", "4.". */
const STEP = /^\s*(?:step\s*\d{1,2}[a-z]?\s*[:.)-]|\d{1,2}[.)])\s+/i;
/** Words that soften a request and say nothing of it. */
const HEDGES = /(?:,\s*)?\b(?:perhaps|maybe|possibly|kindly|terribly|by\s+any\s+chance)\b(?:\s*,)?\s*/gi;
/** A condition of courtesy: "if that's okay", "if it isn't too much trouble", "if you have a moment", "only if convenient". */
const COURTESY_CONDITION =
  /(?:,\s*|\s+|^)(?:only\s+)?(?:if|when)\s+(?:(?:it|that|this)(?:'s|\s+is)?\s+(?:not\s+|n't\s+|isn't\s+)?(?:an?\s+|no\s+|too\s+much\s+)?(?:ok(?:ay)?|alright|all\s+right|fine|convenient|bother|trouble|imposition|problem)|(?:at\s+all\s+)?(?:possible|convenient)|you\s+(?:have|get)\s+(?:a|the)\s+(?:moment|minute|sec(?:ond)?|chance)|you\s+(?:don't|do\s+not|wouldn't|would\s+not)\s+mind)\b[,.!]?/gi;
/** An apology or a hope before the request: "Sorry to ask, but …", "I hope it's alright to ask —". */
const APOLOGY = /^\s*(?:sorry(?:\s+to\s+(?:ask|bother(?:\s+you)?|trouble\s+you|be\s+a\s+pain))?|i\s+hope\s+(?:it's|it\s+is|this\s+is)\s+(?:ok(?:ay)?|alright|all\s+right|fine)\s+(?:to\s+ask|if\s+i\s+ask))\s*[,—–-]*\s*(?:but\s+)?/i;
/** Asking leave to ask: "would it be possible (for you) to …", "might I ask you to …"; "might you …" asks as "could you" does. */
const LEAVE = /\b(?:(?:would|will|is)\s+it\s+be\s+(?:too\s+much\s+trouble|possible|alright|all\s+right|ok(?:ay)?|fine|inconvenient|a\s+problem)\s+(?:for\s+(?:you|someone|me|us)\s+)?to|(?:might|may|could|can)\s+i\s+ask\s+(?:you\s+)?(?:to\s+)?)\s*/gi;
const MIGHT = /\bmight\s+(you|someone|i|we)\b/gi;

/** The request without the courtesy around it: hedges, conditions of courtesy, an apology, leave asked. */
function withoutCourtesy(query: string): string {
  return query
    .replace(HEDGES, (hedge) => (hedge.startsWith(',') ? ' ' : ''))
    .replace(COURTESY_CONDITION, (found: string, at: number, all: string) => (/[.!]$/.test(found) ? '.' : /^[?.!,;]/.test(all.slice(at + found.length)) ? '' : ' '))
    .replace(APOLOGY, '')
    .replace(LEAVE, '')
    .replace(MIGHT, 'could $1')
    .replace(/^[\s,]+/, '')
    .replace(/\s{2,}/g, ' ');
}

/** The words that end a condition's subject: a verb after it ("If payout po_1 hasn't left", "if the run keeps failing"). */
const AFTER_SUBJECT = /^(?:is|isn't|are|aren't|was|wasn't|were|weren't|has|hasn't|have|haven't|had|does|doesn't|do|don't|did|didn't|can|can't|cannot|could|couldn't|will|won't|would|should|keeps|kept|gets|got|stays|still|ever|never|no|also|already|now)$/;
/** What a condition before the request is about: its subject, up to its verb, of at most eight words ("the manual deploy job 90544 in ml/recsys"). */
function conditionSubject(condition: string): string | undefined {
  const words = condition.replace(/^\s*\S+\s+/, '').replace(/,\s*$/, '').split(/\s+/);
  const end = words.findIndex((w, i) => i > 0 && (AFTER_SUBJECT.test(w.toLowerCase()) || (/^[a-z]{3,}ed$/.test(w) && !/^(?:the|a|an)$/i.test(words[i - 1]!)) || (/^[a-z]{3,}s$/.test(w) && /^(?:the|a|an|its|their|our|my|to|on|in|into|out|up|down|over|off)$/i.test(words[i + 1] ?? ''))));
  if (end < 1 || end > 8) return undefined;
  const subject = words.slice(0, end).join(' ').replace(/^(?:the|a|an)\s+/i, '');
  return /^(?:it|they|this|that|i|we|you|he|she|someone|anyone|nobody)$/i.test(subject) ? undefined : subject;
}

/** The request after a condition, with the "it" that stands for what the condition is about read as it. */
function withoutCondition(query: string): string {
  const condition = CONDITION.exec(query)?.[0];
  if (condition === undefined) return query;
  const request = query.slice(condition.length);
  // "Whenever anyone pushes, POST to our URL" asks for the same as "POST to our URL whenever anyone
  // pushes": what happens each time, read after the request (./query.ts reads it there).
  if (/^\s*(?:whenever|every\s+time|each\s+time|any\s*time)\b/i.test(condition)) {
    const clause = condition.trim().replace(/,$/, '');
    return `${request.replace(/[.!]\s*$/, '')} ${clause[0]!.toLowerCase()}${clause.slice(1)}`;
  }
  const subject = conditionSubject(condition);
  if (subject === undefined) return request;
  for (const [pronoun, read] of [[/\b(?:it|them)\b(?!')/i, subject], [/\bits\b/i, subject], [/\bit's\b/i, `${subject} is`]] as const) {
    if (pronoun.test(request)) return request.replace(pronoun, read);
  }
  return request;
}

/** What is not to be done, before the request: "Instead of deleting the project, …", "Rather than cutting off Jess's access, …"; its object, when named. */
const INSTEAD = /^\s*(?:instead\s+of|rather\s+than)\s+[a-z]+ing\s+(?:(?:off|out|away|down|up)\s+)?([^,?]{1,80}?)\s*,\s*(?=\S)/i;

/** The request after what it replaces: the "it" it acts on read as the thing named there ("Rather than deleting #ops-old, make it private"); otherwise what it replaces, read after the request, where it is context. */
function withoutInstead(query: string): string {
  const m = INSTEAD.exec(query);
  if (!m) return query;
  const request = query.slice(m[0].length);
  const object = m[1]!;
  const pronoun = /\b(?:it|them)\b(?!')/i;
  if (!/^(?:it|them|this|that|those|these)$/i.test(object) && pronoun.test(request)) return request.replace(pronoun, object);
  return `${request.replace(/[.!]\s*$/, '')} ${m[0].trim().replace(/,$/, '').replace(/^\S/, (c) => c.toLowerCase())}`;
}

/** A setting before the request that names no value: "For the key rotation review, …", "On the order summary step, …"; a step's place in a sequence: "Next, …". Not one that already holds the request ("In my script I want every issue in …, open and closed"). */
const SETTING = /^\s*(?:for|during|regarding|re|before|after|since|on|in|under|from|as\s+part\s+of|ahead\s+of)\b(?:(?!\b(?:i|we)\s+(?:(?:really|just|also)\s+)?(?:want|need|would\s+like)\b|\bplease\b|\b(?:can|could|would)\s+you\b)[^,?0-9'"“‘/#@])*,\s*(?=(?:\S+\s+){2,}\S)|^\s*(?:next|then|after\s+that|afterwards|finally|lastly)\s*,\s*/i;
/** A question asked inside another ("any idea who is assigned …", "do you know which repos …", "not sure if the gist still exists"): the question is asked; not "… if you could delete it", a request. */
const EMBEDDED_QUESTION = /^\s*(?:[\w',]+\s+){0,5}?(?:know|knows|wonder|wondering|wondered|idea|curious|sure|find\s+out|figure\s+out|tell\s+me|check|see)\s+(?=(?:who|whom|whose|what|which|when|where|how|whether|if)\b)(?!(?:if|whether)\s+(?:you|we|i|someone)\s+(?:can|could|would|will|might)\b)/i;
/** A setting that is a screen of the product: "on the Products page", "in the repo's security tab"; what it shows is the words before the screen's. */
const SCREEN = /^\s*(?:on|in|under|from)\s+(?:the\s+|my\s+|our\s+|a\s+)?(?:[\w-]+'s?\s+)?((?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:page|screen|tab|view|panel|section|dashboard|area)\s*,/i;
/** An embedded yes-or-no question, asked as one: "whether issue 5 is closed" → "does issue 5 is closed" reads and wants yes or no. */
const EMBEDDED_YES_NO = /^(?:whether|if)\s+/i;
/** A clause that says why, after the request: "…, so the review doesn't stall", "because it's gotten heated". */
/** A purpose that tells of a person kept informed ("so he gets updates whenever it changes", "so I hear about every change"), not a system: what is asked, kept. */
const INFORMED_PURPOSE = /^\s*,?\s*(?:so\s+that|so)\s+(?:i|he|she|they)\s+(?:gets?|receives?|hears?)\s+(?:(?!the\b)\S+\s+)?(?:updates?|emails?|notifications?|notified|pinged|alerted|about)\b/i;

const PURPOSE = /(?<=\S\s+\S+\s+\S+)\s*,?\s+(?:so\s+that|so|because|in\s+order\s+that)\s+(?=(?:i|we|it|they|he|she|you|the|nobody|no\s+one|everyone|anyone|only|people|our|my|their|its|his|her|this|that|these|those)\b)[^.;!?]*/gi;

/** A state said to hold: "is archived", "are now published". */
const STATED = new RegExp(`\\b(?:is|are|gets|get)\\s+(?:now\\s+)?${PARTICIPLE}\\b`, 'gi');

/** The request without the frame of speech, courtesy or a planning document around it, nor the reason it gives. */
export function withoutFrame(query: string): string {
  const said = withoutCourtesy(query).replace(FILLERS, (filler) => (filler.startsWith(',') ? ' ' : '')).replace(STUTTER, '$1').replace(NOT_THAT, '').replace(CORRECTION, '').replace(VOCATIVE, '');
  const asked = said.replace(EMBEDDED_QUESTION, '');
  const spoken = asked === said ? said : asked.replace(EMBEDDED_YES_NO, 'does ');
  const stepped = spoken.replace(STEP, '').replace(RELAYED, (whole, lead: string, _open: string, quoted: string) => (relays(lead) ? `${quoted} ` : whole));
  const unlabelled = stepped.replace(DOCUMENT_LABEL, '');
  const outcome = unlabelled.replace(STORY_ROLE, '').replace(SCENARIO_THEN, '').replace(ASSURED, (found: string, wanted: string | undefined, at: number, all: string) => (wanted || KEPT_FROM.test(all.slice(at + found.length)) ? '' : found));
  // What acceptance criteria or a scenario's outcome state ("the channel is archived") is the state asked for.
  const stated = unlabelled !== stepped || /^\s*(?:given|when)\b/i.test(unlabelled) ? outcome.replace(STATED, 'should be $1') : outcome;
  const request = withoutInstead(withoutCondition(stated.replace(SCENARIO_GIVEN, '')));
  const setting = SETTING.exec(request)?.[0];
  const withoutPurpose = (text: string) => text.replace(PURPOSE, (purpose) => (INFORMED_PURPOSE.test(purpose) ? purpose : ''));
  if (setting === undefined) return withoutPurpose(request);
  // A screen of the product names what it shows ("On the Products page, archive …"): where the request acts, kept after it without the word for the screen.
  const shown = SCREEN.exec(setting)?.[1];
  const within = withoutPurpose(request.slice(setting.length));
  return shown ? `${within.replace(/[.!]\s*$/, '')} in ${shown.toLowerCase()}` : within;
}
