// General English for search: the everyday words people use for the five actions every API has
// (and cancelling), the words that say "the signed-in user", and the function words a query can
// drop. Nothing here names an API, a resource or an operation: it is a verb lexicon, applied to
// the catalogue's own words and to the query alike.
import { stemmer } from 'stemmer';
import { IRREGULAR_PARTICIPLES, IRREGULAR_PAST_TENSES } from './participles.ts';

export type Action = 'list' | 'get' | 'create' | 'update' | 'delete' | 'cancel';

/** Single words, by the action they ask for. A word may stand for one action only. */
const ACTION_WORDS: Record<Action, string[]> = {
  list: ['list', 'lists', 'listing', 'enumerate', 'browse', 'all', 'every', 'which'],
  get: ['get', 'gets', 'fetch', 'grab', 'retrieve', 'retrieves', 'read', 'show', 'view', 'see', 'display', 'look', 'lookup', 'return', 'returns', 'describe', 'inspect', 'detail', 'details', 'info', 'check'],
  create: ['create', 'creates', 'establish', 'record', 'nest', 'instantiate', 'initiate', 'initiates', 'launch', 'trigger', 'fresh', 'add', 'adds', 'new', 'make', 'post', 'submit', 'publish', 'generate', 'register', 'upload', 'insert', 'write', 'raise', 'book', 'schedule', 'start', 'send', 'sends', 'invite', 'put', 'leave', 'compose', 'draft', 'attach', 'grant', 'give', 'reply', 'respond', 'store', 'ship', 'share', 'shares', 'subscribe', 'subscribes', 'include'],
  update: ['update', 'updates', 'edit', 'change', 'modify', 'rename', 'set', 'move', 'mark', 'toggle', 'adjust', 'configure', 'patch', 'replace', 'transition', 'reassign', 'assign', 'close', 'reopen', 'resolve', 'reschedule', 'bump', 'tweak', 'fix', 'correct', 'amend', 'switch', 'enable', 'disable', 'rotate', 'relocate', 'shift', 'swap', 'require', 'postpone'],
  delete: ['delete', 'deletes', 'remove', 'removes', 'drop', 'destroy', 'erase', 'purge', 'trash', 'nuke', 'wipe', 'discard', 'clear', 'unset', 'uninstall', 'revoke', 'scrap', 'ditch', 'zap', 'expunge', 'eliminate', 'unlink', 'detach', 'kick', 'evict', 'ban', 'withdraw', 'lift', 'strip'],
  cancel: ['cancel', 'cancels', 'stop', 'abort', 'halt', 'terminate', 'interrupt', 'void', 'kill'],
};

/** Words catalogues write for being told of a thing's changes: watching, following, subscribing to it. */
export const WATCHING = ['watch', 'follow', 'subscribe', 'subscription'];
/** Words catalogues write for being told of each change as it happens: a webhook, a hook, a watch on it. */
export const TOLD_OF_CHANGES = [...WATCHING, 'webhook', 'hook'];
/** How many words at `i` open a clause of what happens each time ("whenever", "every time"), 0 for none: "notify our endpoint whenever anything changes". */
export const opensEachTime = (words: readonly string[], i: number): number => (words[i] === 'whenever' || words[i] === 'anytime' ? 1 : (words[i] === 'every' || words[i] === 'each' || words[i] === 'any') && words[i + 1] === 'time' ? 2 : 0);
/** Words catalogues write for having a thing as it was before: restoring, undoing a removal. */
const RESTORING = ['restore', 'unarchive', 'undelete'];

/** Words catalogues write for saying something where others read it: a comment, a note, a message, a reply. */
const SAYING = ['comment', 'note', 'message', 'reply'];

/**
 * Phrasal verbs, which may take their object inside ("take Alex off the team"), by action. Some
 * mean one thing joined and another split before a place: "kick off the build" and "kick it off"
 * start it, "kick Carol off the repo" removes her; some only around an object ("get it back", not
 * "get back to me"), and some only around one before an -ing form ("stop bob from pushing"). Some also imply the words catalogues write for what they mean ("bring it
 * back": restore).
 */
const PHRASAL_VERBS: [string, string, Action, ('joined' | 'split' | 'around' | 'doing')?, string[]?][] = [
  ['take', 'off', 'delete'],
  ['take', 'away', 'delete'],
  ['take', 'out', 'delete'],
  // "Get that key off my account", "get the old calendar out of my list": taken away.
  // "Sign the Smiths up for the monthly plan": subscribed to it.
  ['sign', 'up', 'create', 'split', ['subscribe', 'subscription']],
  ['get', 'off', 'delete'],
  ['get', 'out', 'delete'],
  ['pull', 'out', 'delete', 'split'],
  // "Pull up the file": shown.
  ['pull', 'up', 'get', 'joined'],
  ['wipe', 'out', 'delete'],
  ['strip', 'off', 'delete'],
  ['strip', 'out', 'delete'],
  ['shut', 'down', 'cancel'],
  ['switch', 'on', 'update', undefined, ['enable']],
  ['throw', 'out', 'delete', undefined, ['discard', 'dismiss']],
  ['throw', 'away', 'delete', undefined, ['discard', 'dismiss']],
  ['clean', 'up', 'delete'],
  ['kick', 'out', 'delete'],
  ['call', 'off', 'cancel'],
  ['turn', 'off', 'update', undefined, ['disable']],
  ['hand', 'over', 'update', undefined, ['transfer']],
  // A thing ticked off a list is done: completed.
  ['tick', 'off', 'update', undefined, ['complete', 'done']],
  ['check', 'off', 'update', undefined, ['complete', 'done']],
  ['cross', 'off', 'update', undefined, ['complete', 'done']],
  ['turn', 'on', 'update', undefined, ['enable']],
  ['switch', 'off', 'update', undefined, ['disable']],
  ['kick', 'off', 'create', 'joined', ['trigger', 'start']],
  ['fire', 'off', 'create', undefined, ['trigger', 'start', 'dispatch']],
  // "Push the test clock forward a month": moved on in time, advanced.
  ...['push', 'jump', 'move', 'roll', 'wind', 'step', 'skip'].map((verb): [string, string, Action, undefined, string[]] => [verb, 'forward', 'update', undefined, ['advance']]),
  ['kick', 'off', 'delete', 'split'],
  ['spin', 'up', 'create'],
  // "Block out 9 to 6 next Thursday", "block off Dec 3 from 2 to 3pm": time kept for a thing, made; not a person blocked.
  ['block', 'out', 'create', 'joined'],
  ['block', 'off', 'create', 'joined'],
  ['hook', 'up', 'create', undefined, ['webhook', 'hook']],
  ['set', 'up', 'create'],
  ['tear', 'down', 'delete'],
  ['take', 'down', 'delete'],
  ['sign', 'out', 'delete', undefined, ['session']],
  ['log', 'out', 'delete', undefined, ['session']],
  ['back', 'up', 'create'],
  ['roll', 'back', 'update', undefined, ['revert']],
  ['close', 'out', 'update'],
  ['push', 'back', 'update'],
  ['write', 'down', 'create'],
  ['jot', 'down', 'create'],
  ['clear', 'out', 'delete'],
  // Phrasal verbs that say one verb of a catalogue's ("look over PR 7": review; "give back $40": refund).
  // "Let everyone in #listings know it sold": told, a message; not let in.
  ['let', 'know', 'create', 'split', SAYING],
  // "Karl asked to join — let him in": what he asked, approved.
  ['let', 'in', 'update', 'around', ['approve', 'admit']],
  ['look', 'over', 'create', undefined, ['review']],
  ['sign', 'off', 'create', undefined, ['approve', 'approval']],
  ['lock', 'down', 'update', undefined, ['protect', 'protection']],
  // Locking someone out keeps them from signing in: blocked ("lock spammer42 out of our instance").
  ['lock', 'out', 'update', undefined, ['block']],
  // Putting a thing away keeps it but out of use ("put #season-2 away but keep the history"): archived.
  ['put', 'away', 'update', undefined, ['archive']],
  ['tuck', 'away', 'update', undefined, ['archive']],
  ['close', 'down', 'update', undefined, ['archive']],
  ['lock', 'in', 'update', undefined, ['finalize']],
  ['wrap', 'up', 'update', undefined, ['complete', 'close']],
  ['pull', 'back', 'update', undefined, ['reverse', 'reversal']],
  // Money clawed back is taken back from where it went: reversed ("claw back the $45 we sent on tr_3N").
  ['claw', 'back', 'update', undefined, ['reverse', 'reversal']],
  ['give', 'back', 'create', undefined, ['refund']],
  ['bring', 'in', 'create', undefined, ['import']],
  ['hang', 'up', 'cancel', undefined, ['end']],
  ['shut', 'off', 'update', undefined, ['disable']],
  ['hand', 'off', 'update', undefined, ['assign']],
  // "Who can I hand PAY tickets to?": given to someone to do, assigned.
  ['hand', 'to', 'update', 'split', ['assign']],
  ['take', 'back', 'delete', undefined, ['revoke', 'withdraw']],
  ['turn', 'into', 'update', 'split', ['convert']],
  ['opt', 'out', 'delete', undefined, ['unsubscribe']],
  ['pay', 'back', 'create', undefined, ['refund']],
  ['cancel', 'out', 'update', undefined, ['void']],
  // A message that goes out is sent ("have a note go out in #crew at 6am"); one queued up is scheduled.
  ['go', 'out', 'create', 'joined', ['send']],
  ['queue', 'up', 'create', undefined, ['schedule']],
  // An amount knocked or shaved off a bill is taken back from it: credited, a discount ("knock $40 off invoice in_1").
  ['knock', 'off', 'update', 'split', ['credit', 'discount']],
  ['shave', 'off', 'update', 'split', ['credit', 'discount']],
  // What holds a thing up blocks it: a dependency ("what's holding up #12", "#44 is holding it up").
  ['hold', 'up', 'update', undefined, ['block', 'blocker', 'depend', 'dependency']],
  // Bringing someone into a loop has them follow the thing ("loop Jenna in on the task").
  ['loop', 'in', 'create', undefined, WATCHING],
  // Keeping someone from doing a thing is blocking them ("stop spammer42 from commenting").
  ['stop', 'from', 'update', 'doing', ['block', 'restrict']],
  ['keep', 'from', 'update', 'doing', ['block', 'restrict']],
  ['prevent', 'from', 'update', 'doing', ['block', 'restrict']],
  // Limiting what may be done to some people restricts everyone else ("limit comments to prior contributors").
  ['limit', 'to', 'update', 'split', ['restrict', 'restriction']],
  ['restrict', 'to', 'update', 'split', ['restrict', 'restriction']],
  // Putting a thing in a place adds it there ("get Priya into the group", "drop a note in #deals", "pop issue 8 onto the board").
  ['get', 'into', 'create', 'split'],
  // Brought into a place, a thing may be imported there ("bring the exported event into our calendar").
  ['bring', 'into', 'create', 'split', ['import']],
  ['bring', 'onto', 'create', 'split', ['import']],
  ['pull', 'into', 'create', 'split'],
  ['get', 'onto', 'create', 'split'],
  ['drop', 'into', 'create', 'split'],
  ['drop', 'in', 'create', 'split'],
  ['drop', 'onto', 'create', 'split'],
  ['pop', 'into', 'create', 'split'],
  ['pop', 'onto', 'create', 'split'],
  // Cutting a branch or a release off another makes one ("cut a hotfix branch off main").
  ['cut', 'off', 'create', 'split'],
  ['stick', 'on', 'create', 'split'],
  ['stick', 'onto', 'create', 'split'],
  // Having a thing as it was before ("bring the project back", "get it back", "put it back in there").
  ['bring', 'back', 'update', undefined, RESTORING],
  ['get', 'back', 'update', 'around', RESTORING],
  ['put', 'back', 'create', undefined, RESTORING],
];

/** Whether a verb and a particle make one of the phrasal verbs ("take … out"). */
export const isPhrasalVerb = (verb: string, particle: string): boolean => PHRASAL_VERBS.some(([v, p]) => v === verb && p === particle);

/** Each phrasal verb's forms ("taking", "kicked", "shuts"), by the verb. */
const PHRASAL_FORMS = new Map<string, string>();
for (const [verb] of PHRASAL_VERBS) {
  const stem = verb.endsWith('e') ? verb.slice(0, -1) : verb;
  const doubled = /[^aeiou][aeiou][bdgkmnprt]$/.test(verb) ? verb + verb.at(-1) : verb;
  for (const form of [verb, `${verb}s`, `${stem}ed`, `${stem}ing`, `${doubled}ed`, `${doubled}ing`]) if (!PHRASAL_FORMS.has(form)) PHRASAL_FORMS.set(form, verb);
}
// Past forms that add no -ed ("took", "taken", "shut").
for (const [form, verb] of Object.entries({ ...IRREGULAR_PARTICIPLES, ...IRREGULAR_PAST_TENSES })) if (PHRASAL_VERBS.some(([phrasal]) => phrasal === verb)) PHRASAL_FORMS.set(form, verb);

/** How far a phrasal verb's particle may stand from its verb: an object of up to six words ("hand ownership of the licensing-tools repo over"). */
const PHRASAL_SPAN = 7;

/** Words for when, which end a clause rather than name a place ("kick it off now"). */
const WHEN_WORDS = new Set(['now', 'today', 'tonight', 'tomorrow', 'again', 'soon', 'asap', 'please', 'later', 'first']);

/** Where a value was in a query (./query.ts): it holds its place in the sentence, so the word after it is no sentence start. */
export const VALUE_WORD = 'zzvalue';

/** Multi-word phrases, matched on the query's lower-case words before single words. */
const ACTION_PHRASES: [string[], Action][] = [
  [['get', 'rid', 'of'], 'delete'],
  [['get', 'a', 'list'], 'list'],
  [['give', 'me', 'a', 'list'], 'list'],
  [['a', 'list', 'of'], 'list'],
  [['open', 'a'], 'create'],
  [['set', 'a'], 'create'],
  [['set', 'an'], 'create'],
  [['open', 'an'], 'create'],
  [['open', 'new'], 'create'],
  [['sign', 'up'], 'create'],
  [['brand', 'new'], 'create'],
  [['show', 'me'], 'list'],
  [['what', 'are'], 'list'],
  [['which', 'are'], 'list'],
  [['how', 'many'], 'list'],
  [['who', 'are'], 'list'],
  [['look', 'up'], 'get'],
  [['give', 'me'], 'get'],
  [['what', 'is'], 'get'],
  [['fill', 'in'], 'update'],
  // "Make it read-only", "make acme/api private", "make my calendar show up green": making a thing
  // that exists into something changes it; "make a …" makes one.
  ...['it', 'them', 'this', 'that', 'the', 'my', 'our', 'your', 'their', 'its', VALUE_WORD].map((object): [string[], Action] => [['make', object], 'update']),
];

/** Words catalogues write for being told of a thing at a time: a reminder. */
const REMINDING = ['remind', 'reminder'];
/** Words catalogues write for a quick response to a post or a comment: a reaction, an emoji. */
const REACTING = ['reaction', 'react', 'emoji'];

/**
 * Idioms, by the action they ask for and the words catalogues write for what they mean, implied
 * (those the catalogue has count): "keep me posted on PROJ-4" watches it, "ping me at 3pm" reminds, "thumbs up that comment" reacts to it.
 */
const IDIOMS: [string[], Action, string[]][] = [
  // "Only let existing contributors comment": everyone else restricted.
  [['only', 'let'], 'update', ['restrict', 'restriction']],
  [['keep', 'me', 'posted'], 'create', WATCHING],
  [['keep', 'me', 'updated'], 'create', WATCHING],
  [['keep', 'me', 'in', 'the', 'loop'], 'create', WATCHING],
  [['keep', 'an', 'eye', 'on'], 'create', WATCHING],
  [['keeping', 'an', 'eye', 'on'], 'create', WATCHING],
  [['get', 'notified'], 'create', WATCHING],
  // "I want updates on the outage ticket": told of its changes, a watch.
  ...['want', 'get', 'receive'].flatMap((verb): [string[], Action, string[]][] => [[verb, 'updates', 'on'], [verb, 'updates', 'about']].map((phrase) => [phrase, 'create', WATCHING])),
  [['get', 'pinged'], 'create', WATCHING],
  [['be', 'notified'], 'create', WATCHING],
  [['notify', 'me'], 'create', WATCHING],
  [['ping', 'me'], 'create', REMINDING],
  [['nudge', 'me'], 'create', REMINDING],
  [['poke', 'me'], 'create', REMINDING],
  // "Say 'thanks' under issue 14", "tell them it's fixed", "let everyone know": a comment or a message.
  [['say', VALUE_WORD], 'create', SAYING],
  // "Write on issue 14 that it still fails", "reply on ticket 57": words written there, a comment.
  [['write', 'on'], 'create', SAYING],
  [['reply', 'on'], 'create', SAYING],
  // "Everything that's been said in #design", "what people have said about churn": the messages or comments written.
  ...['been', 'was', 'were', 'have', 'has', 'people', 'everyone'].map((before): [string[], Action, string[]] => [[before, 'said'], 'list', SAYING]),
  // "Drop a note on issue 33", "drop a quick comment on the task": one written, not anything dropped.
  ...['a', 'an', 'my', 'our'].flatMap((det) => ['note', 'comment', 'message', 'reply', 'line', 'quick'].map((what): [string[], Action, string[]] => [['drop', det, what], 'create', SAYING])),
  ...['them', 'him', 'her', 'everyone', 'everybody', 'people', 'folks', 'the', 'our', 'my', VALUE_WORD].flatMap((who): [string[], Action, string[]][] => [
    [['tell', who], 'create', SAYING],
    [['let', who, 'know'], 'create', SAYING],
  ]),
  // "Put sub_456 on hold", "fast-forward the test clock": the verb a catalogue writes for it.
  [['on', 'hold'], 'update', ['pause', 'suspend']],
  [['fast', 'forward'], 'update', ['advance']],
  // "Stick the message to the top of #new-hires": pinned there.
  [['to', 'the', 'top'], 'create', ['pin']],
  [['at', 'the', 'top', 'of'], 'create', ['pin']],
  // "How many people looked at our repo page?": it was viewed; its views.
  [['looked', 'at'], 'get', ['view', 'views']],
  // "Put a notice across the top of every page", "a site-wide notice": what sites call a banner.
  [['across', 'the', 'top'], 'create', ['banner']],
  [['site', 'wide', 'notice'], 'create', ['banner']],
  [['site', 'wide', 'announcement'], 'create', ['banner']],
  [['thumbs', 'up'], 'create', REACTING],
  // "The console output of job 9912": what a CI job wrote, its log or trace.
  [['console', 'output'], 'get', ['log', 'trace']],
  // "What's inside package.json", "what is in it": its contents.
  [['what', 'inside'], 'get', ['content']],
  [['what', 'is', 'inside'], 'get', ['content']],
  [['what', 'is', 'in', 'it'], 'get', ['content']],
  // "Make #old read-only", "so it goes read-only": what products call archiving it.
  [['read', 'only'], 'update', ['archive', 'archived']],
  [['thumbs', 'down'], 'create', REACTING],
  // "Put a :tada: on the announcement" (./spelling.ts reads a shortcode as its words and "emoji"): an emoji put on a thing reacts to it.
  [['emoji', 'on'], 'create', REACTING],
];

/** Where a piece of work stands in its workflow, as people say it ("move PROJ-12 to done", "mark it as in progress"). */
const WORK_STATES = ['done', 'closed', 'resolved', 'complete', 'completed', 'finished', 'todo', 'in progress', 'in review', 'to do'];
/** A thing moved or marked into a state ("to done", "as resolved"), by the words catalogues write for a change of state. */
export const STATE_CHANGE = new RegExp(`\\b(?:to|as|into) (?:${WORK_STATES.join('|')})\\b`, 'i');
/** The words catalogues write for a change of state: a status or state field, a transition, a completed flag. */
export const STATE_WORDS = ['status', 'state', 'transition', 'complete'];

/** Doing many things in one act ("in one go", "at once", "in a single request"), and the words catalogues write for that. */
export const AT_ONCE = /\b(?:at once|in one (?:go|shot|time|request|call|batch)|in a single (?:go|request|call|batch)|in bulk)\b/;
export const BATCHING = ['bulk', 'batch'];

/** One currency against another ("eur to usd", "USD/JPY"): a rate of exchange. */
const CURRENCY = '(?:usd|eur|gbp|jpy|cad|aud|nzd|chf|cny|hkd|sgd|inr|sek|nok|dkk|pln|czk|huf|mxn|brl|zar|krw|ils|aed|thb|myr|idr)';
export const CURRENCY_PAIR = new RegExp(`\\b${CURRENCY}\\s*(?:to|into|vs\\.?|/|and|in)\\s*${CURRENCY}\\b`, 'i');
export const EXCHANGING = ['exchange', 'currency'];

/**
 * Nouns that, starting a command before its object, are verbs that record something new: "file an
 * issue", "log 2 hours". Not "email it": sending what exists is not creating.
 */
export const NOUN_VERBS = new Map<string, Action>([
  ['file', 'create'],
  ['log', 'create'],
  // "End subscription sub_1Qa right now": cancelled; not "the end date".
  ['end', 'cancel'],
]);

/** Verbs that hand a thing to someone ("give PROJ-88 to maria", "hand it over to dana"), and the words catalogues write for that: assigning it. */
export const HANDING_VERBS = new Set(['give', 'hand', 'pass']);
export const ASSIGNING = ['assign', 'assignee'];

const STEM_ACTION = new Map<string, Action>();
for (const [action, words] of Object.entries(ACTION_WORDS) as [Action, string[]][]) {
  for (const w of words) if (!STEM_ACTION.has(stemmer(w))) STEM_ACTION.set(stemmer(w), action);
}

const ACTION_WORD = new Set(Object.values(ACTION_WORDS).flat());
/** Whether a lower-case word, as written, is one of the action words ("invite" is, "invitations" is not). */
export const isActionWord = (word: string) => ACTION_WORD.has(word) || reversedCreate(stemmer(word)) !== undefined;

/**
 * Whether a query word is an action word in its base form ("delete", "list"), as a command is
 * written; "lists", "posted", "looks" describe rather than ask.
 */
export const isBaseActionWord = (word: string) => isActionWord(word) && !(word.endsWith('s') && ACTION_WORD.has(word.slice(0, -1)));

/** Words that lead into a request without saying what to do ("please", "can you", "I need to"). */
export const LEAD_INS = new Set(['please', 'kindly', 'you', 'i', "i'd", "i'll", 'we', "we'd", "we'll", 'need', 'want', 'like', 'to', 'help', 'me', 'let', "let's", 'lets', 'just', 'now', 'then', 'also', 'so', 'and', 'ok', 'okay', 'hey', 'go', 'ahead', 'quickly', 'try', 'first']);

/** An adverb of manner before the verb ("manually trigger …", "permanently delete …"). */
const MANNER_ADVERB = /^[a-z]{3,}ly$/;
/** Words in -ly that are no adverb of manner: how often ("nightly build", "weekly report"), or no adverb at all (only, early, apply, reply, supply, family, assembly). */
const NOT_MANNER = /(?:dai|week|month|year|hour|night|quarter|fortnight|on|ear|app|supp|rep|fami|assemb)ly$/;

/** "Could you …", "can I …", "would we …": a polite request, whose verb says what to do, not a question. */
const MODALS = new Set(['can', 'could', 'would', 'will']);
const REQUESTERS = new Set(['you', 'i', 'we']);
/** "You should …", "you may …": a suggestion to the one addressed, which asks them to do it. */
const SUGGESTING_MODALS = new Set(['should', 'may', 'must']);

/** Phrases that only lead into a request: "is there a way to list …" asks to list. */
const LEAD_IN_PHRASES = [
  ['is', 'there', 'a', 'way', 'to'],
  ['is', 'there', 'any', 'way', 'to'],
  ['is', 'it', 'possible', 'to'],
  ['how', 'to'],
  ['how', 'would', 'i'],
  ['what', 'do', 'i', 'call', 'to'],
  ['go', 'ahead', 'and'],
  ['was', 'hoping', 'to'],
  ['any', 'chance'],
  ['do', 'me', 'a', 'favor', 'and'],
  ['do', 'me', 'a', 'favour', 'and'],
  ["i'd", 'love', 'to'],
  ['i', 'wonder', 'if'],
  ['gotta'],
  ['trying', 'to', 'figure', 'out', 'how', 'to'],
  ['figure', 'out', 'how', 'to'],
  ['how', 'would', 'i', 'go', 'about'],
  ["what's", 'the', 'best', 'way', 'to'],
  ['whats', 'the', 'best', 'way', 'to'],
  ['what', 'is', 'the', 'best', 'way', 'to'],
  // Asking which of the API's operations does a thing ("which endpoint lets me …", "is there an API to …").
  ...['endpoint', 'api', 'call'].flatMap((thing) => [
    ['which', thing, 'lets', 'me'],
    ['which', thing, 'lets', 'you'],
    ['what', thing, 'lets', 'me'],
    ['what', thing, 'do', 'i', 'use', 'to'],
    ['which', thing, 'do', 'i', 'use', 'to'],
    ['is', 'there', 'an', thing, 'to'],
    ['is', 'there', 'an', thing, 'for'],
    ['is', 'there', 'a', thing, 'to'],
    ['is', 'there', 'a', thing, 'for'],
  ]),
  ['what', 'api', 'call'],
  ['which', 'api', 'call'],
];

/** Whether the word at `at` is inside a lead-in phrase ("is there a way to"). */
export const inLeadInPhrase = (raw: readonly string[], at: number): boolean =>
  LEAD_IN_PHRASES.some((phrase) => phrase.some((_, offset) => at - offset >= 0 && phrase.every((w, j) => raw[at - offset + j] === w)));

/** Whether the word at `at` only leads into a request: "please", "I need to", "could you", "how do I". */
export function isLeadIn(raw: readonly string[], at: number): boolean {
  const word = raw[at]!;
  return (
    LEAD_INS.has(word) ||
    inLeadInPhrase(raw, at) ||
    (MANNER_ADVERB.test(word) && !NOT_MANNER.test(word) && raw[at + 1] !== undefined && isActionWord(raw[at + 1]!)) ||
    (MODALS.has(word) && REQUESTERS.has(raw[at + 1] ?? '')) ||
    (REQUESTERS.has(word) && MODALS.has(raw[at - 1] ?? '')) ||
    // "You can delete it", "you should cancel the run": what the one addressed may do, asked of them.
    (raw[at - 1] === 'you' && (MODALS.has(word) || SUGGESTING_MODALS.has(word))) ||
    (word === 'how' && ['do', 'can', 'should'].includes(raw[at + 1] ?? '')) ||
    (word === 'do' && raw[at - 1] === 'how')
  );
}

/** Verbs that have someone else do a thing ("get sam to review PR 7", "have bob look at it", "ask ana to approve"). */
const CAUSATIVES = new Set(['get', 'have', 'ask']);
/** Words that are no one's name: articles, pronouns, possessives. */
const NO_NAMES = new Set(['a', 'an', 'the', 'this', 'that', 'these', 'those', 'it', 'them', 'me', 'us', 'my', 'our', 'your', 'their', 'its', 'his', 'her', 'rid', 'back', 'started', 'done', 'ready']);

/**
 * Where a causative frame at `at` puts the verb the others are asked to do: "get sam and priya to
 * review …", "have bob review …" (the index of "review"), or -1. The people are one or two words
 * joined by "and", or before "to" a few words of names ("priya-s and tom-h"); "to" is needed but after "have".
 * With `handles`, the query asks @handles ("get @lena and @raj to …"), so a value there is a person.
 */
/** How many words the people asked to do a thing may take before "to". */
const CAUSED_NAMES_SPAN = 8;

/** Words that start a group named after a person ("marta and the dev-leads team"). */
const GROUP_DETERMINERS = new Set(['the', 'our', 'my', 'their']);

export function causedVerbAt(raw: readonly string[], at: number, handles = false): number {
  if (!CAUSATIVES.has(raw[at]!)) return -1;
  if (raw[at] === 'have') {
    const done = haveDoneAt(raw, at);
    if (done > 0) return done;
  }
  const person = (w: string | undefined) => w !== undefined && (handles || w !== VALUE_WORD) && /^[a-z][a-z.'-]+$/.test(w) && !NO_NAMES.has(w) && !STOP_WORDS.has(w) && !isActionWord(w);
  let j = at + 1;
  if (!person(raw[j])) return -1;
  j++;
  if (raw[j] === 'and' && person(raw[j + 1])) j += 2;
  // Before "to", names of a few words each ("get priya-s and tom-h to …"), and a group after them ("… and the dev-leads team to …").
  for (let k = j; k < at + 1 + CAUSED_NAMES_SPAN && k < raw.length && (person(raw[k]) || /^[a-z]$/.test(raw[k]!) || raw[k] === 'and' || (GROUP_DETERMINERS.has(raw[k]!) && raw[k - 1] === 'and')); k++) if (raw[k + 1] === 'to') j = k + 1;
  if (raw[j] === 'to') j++;
  else if (raw[at] !== 'have') return -1;
  const verb = raw[j];
  return verb !== undefined && verb !== VALUE_WORD && /^[a-z]{3,}$/.test(verb) && !STOP_WORDS.has(verb) && !NO_NAMES.has(verb) && !/(?:ed|ing)$/.test(verb) ? j : -1;
}

/**
 * "Have GitHub POST to our URL" (the service's name read apart), "have the billing repo send …": what
 * the one had does, a verb in its base form right after "have" or after a few words that start with
 * a determiner; not "have you merged …", a question.
 */
export function haveDoneAt(raw: readonly string[], at: number): number {
  // A verb of its own, or one of a phrasal verb ("have a note go out").
  const base = (k: number) => {
    const w = raw[k];
    return w !== undefined && (isActionWord(w) || isPhrasalVerb(w, raw[k + 1] ?? '')) && /^[a-z]{2,}$/.test(w) && !/(?:ed|ing|s)$/.test(w);
  };
  if (raw[at + 1] !== undefined && /^[a-z]{3,}$/.test(raw[at + 1]!) && base(at + 1)) return at + 1;
  // A word no lexicon knows is a verb in its base form where a thing, a person or a value follows it ("have Asana ping our server", the name read apart; "have acme/api notify us", "have Stripe hit https://…").
  const baseBefore = (k: number) => {
    const w = raw[k];
    return w !== undefined && /^[a-z]{3,}$/.test(w) && !/^[a-z]{3,}(?:ed|ing)$/.test(w) && !STOP_WORDS.has(w) && !QUANTIFIERS.has(w) && (THING_OPENERS.has(raw[k + 1] ?? '') || raw[k + 1] === 'us' || raw[k + 1] === 'me' || raw[k + 1] === VALUE_WORD);
  };
  if (baseBefore(at + 1)) return at + 1;
  if (raw[at + 1] === VALUE_WORD && (base(at + 2) || baseBefore(at + 2))) return at + 2;
  if (!THING_OPENERS.has(raw[at + 1] ?? '')) return -1;
  for (let k = at + 2; k <= at + 5 && k < raw.length; k++) if (base(k)) return k;
  return -1;
}
const THING_OPENERS = new Set(['the', 'a', 'an', 'our', 'my', 'your', 'their', 'this', 'that']);
/** Words of how many, before a thing ("have all the tests passed?"): no verb. */
const QUANTIFIERS = new Set(['all', 'both', 'each', 'every', 'many', 'most', 'few', 'several', 'none']);

/** Words that open a question: a question asks to read, whatever verb it uses later ("does alice have write access?"). */
export const QUESTION_OPENERS = new Set(['any', 'is', 'are', 'was', 'were', 'am', 'does', 'do', 'did', 'has', 'have', 'had', 'can', 'could', 'will', 'would', 'should', 'what', 'whats', "what's", 'when', 'where', 'how', 'why', 'whose']);

/** The action a word (already stemmed) stands for, if any. */
export const actionOfStem = (stem: string): Action | undefined => STEM_ACTION.get(stem) ?? reversedCreate(stem);
/** Verbs whose action holds for what a person asks ("leave a comment") but not for what an API says it does ("Leaves a conversation": exits it): an operation's own verb. */
export const ASKED_ONLY_VERBS: ReadonlySet<string> = new Set([stemmer('leave')]);
/** A creating verb with a prefix that undoes it ("unsubscribe", "unsend", "unpublish") removes what it made; not a word that only starts so ("dispute": dis + put). */
const reversedCreate = (stem: string): Action | undefined => {
  const m = /^(?:un|dis|de)(.{4,})$/.exec(stem);
  return m && STEM_ACTION.get(m[1]!) === 'create' ? 'delete' : undefined;
};

/** Query words that only carry the action or the question: never required to match the catalogue. */
const WEAK_CUES = new Set(['what', 'whats', 'which', 'who', 'how', 'is', 'does', 'did', 'has', 'all', 'every', 'show', 'see', 'look', 'new', 'fresh', 'me', 'many']);
export const isWeakCue = (word: string) => WEAK_CUES.has(word);

export interface PhraseHit {
  action: Action;
  /** Indexes of the words the phrase covers. */
  at: number[];
  /** A phrasal verb ("kick … out"): its verb may also be an operation's own ("kick"). */
  phrasal?: boolean;
  /** An idiom's meaning, as the words catalogues write for it ("keep me posted": watch, follow, subscribe). */
  means?: string[];
}

/**
 * The action phrases among lower-case query words, left to right. Values (`isValue`: a quoted
 * name, an ID) do not lengthen the object between a phrasal verb and its particle ("take the
 * deploy key 'old-ci' (id 9921) off the repo").
 */
export function actionPhrases(words: readonly string[], isValue: (word: string) => boolean = () => false): PhraseHit[] {
  const hits: PhraseHit[] = [];
  for (let i = 0; i < words.length; i++) {
    const idiom = IDIOMS.find(([phrase]) => phrase.every((w, j) => words[i + j] === w));
    if (idiom) {
      hits.push({ action: idiom[1], at: idiom[0].map((_, j) => i + j), means: idiom[2] });
      continue;
    }
    const fixed = ACTION_PHRASES.find(([phrase]) => phrase.every((w, j) => words[i + j] === w));
    if (fixed) {
      hits.push({ action: fixed[1], at: fixed[0].map((_, j) => i + j) });
      continue;
    }
    for (const [verb, particle, action, form, means] of PHRASAL_VERBS) {
      if (PHRASAL_FORMS.get(words[i]!) !== verb) continue;
      let gap = -1;
      for (let j = i + 1, span = 0; j < words.length && span < PHRASAL_SPAN; j++) {
        if (words[j] === particle) {
          gap = j - i - 1;
          break;
        }
        if (!isValue(words[j]!)) span++;
      }
      const place = words[i + 2 + gap];
      const split = gap > 0 && place !== undefined && !WHEN_WORDS.has(place);
      if (gap >= 0 && !(form === 'joined' && split) && !(form === 'split' && !split) && !(form === 'around' && gap === 0) && !(form === 'doing' && !(split && place!.endsWith('ing')))) {
        hits.push({ action, at: [i, i + 1 + gap], phrasal: true, ...(means ? { means } : {}) });
        break;
      }
    }
  }
  return hits;
}

/** Question words that ask for people, and the words a catalogue uses for people. */
export const PERSON_QUESTION = new Set(['who', 'whom', 'whose', "who's"]);
export const PERSON_WORDS = ['user', 'member', 'people', 'person', 'collaborator', 'contributor', 'assignee', 'participant'];
/** Words that stand for a person the query acts on ("remove him from the org"). */
export const PERSON_PRONOUNS = new Set(['him', 'her', 'them', 'someone', 'somebody', 'anyone', 'everyone', 'people', 'person', 'user', 'users', 'teammate', 'colleague']);

/** Words that say "the signed-in user" in a query. */
export const SELF_WORDS = new Set(['my', 'me', 'mine', 'i', 'myself', 'im', "i'm", 'ive', 'am', 'authenticated']);

/** Phrases that say "the signed-in user" ("who am I logged in as"): read as "my", not as words to match (logs). */
export const SELF_PHRASES: string[][] = [
  ['logged', 'in'],
  ['signed', 'in'],
  ['logged', 'on'],
];

/** Path segments that address the signed-in user (`/user/repos`, `/users/me`, `/myself`). */
export const SELF_SEGMENTS = new Set(['user', 'me', '@me', 'myself', 'self', 'current', 'my', 'current_user', 'currentuser', 'whoami']);

/** Function words: dropped from queries and from the catalogue's words. */
export const STOP_WORDS = new Set([
  'a', 'an', 'the', 'of', 'in', 'on', 'to', 'for', 'from', 'with', 'by', 'and', 'or', 'its', 'their', 'this', 'that', 'these', 'those', 'into', 'onto',
  'some', 'using', 'via', 'please', 'can', 'could', 'would', 'should', 'will', 'you', 'your', 'it', 'be', 'been', 'being', 'was', 'were', 'are', 'do', 'there',
  'then', 'so', 'as', 'at', 'any', 'just', 'also', 'need', 'want', 'like', 'about', 'up', 'out', 'over', 'yet', 'still', 'right', 'now', 'currently', 'already',
  'he', 'she', 'they', 'them', 'his', 'her', 'him', 'who', 'whom', 'whose', 'when', 'where', 'why', 'if', 'but', 'not', 'no', "don't", 'dont', 'let', 'lets',
  'have', 'has', 'had', 'having', 'got', 'gotten', 'going', 'does', 'did', 'done', 'doing', 'am', 'is',
  'one', 'single', 'given', 'specific', 'particular', 'certain', 'way', 'thing', 'things', 'stuff', 'etc', 'e', 'g', 'ie', 'eg',
  'we', 'our', 'ours', 'ourselves', 'us', "we're", "we've", "they're", "it's", "that's", "there's", 'yours', 'yourself', 'themselves', 'itself', 'himself', 'herself', 'hers', 'theirs',
  'anything', 'something', 'everything', 'nothing', 'nobody', 'anymore', 'actually', 'really', 'maybe', 'perhaps', 'because', 'while', 'though', 'although', 'than', 'too', 'very',
  'even', 'only', 'such', 'own', 'same', 'either', 'neither', 'whether', 'ever', 'never', 'here', 'whole', 'quite', 'rather', 'instead', 'anyway', 'else', 'might',
  'under', 'within', 'inside', 'across', 'belonging', 'belongs', 'beneath', 'below', 'above', 'around', 'among', 'toward', 'towards', 'upon', 'throughout', 'behind', 'beside', 'besides', 'beyond', 'per', 'through', 'once',
  'must', 'shall', 'say', 'says', 'said', 'tell', 'know', 'think', 'sure', 'okay', 'ok', 'thanks', 'hey', 'hi', 'go', 'goes', 'went', 'going', 'come', 'coming', 'moment',
]);

/** Prepositions that, after the resource is named, lead to where it is ("comments on the issue", "repos in an org"); not "of", whose object is as often the thing itself ("the text of gist 55"). */
export const SCOPE_PREPOSITIONS = new Set(['in', 'under', 'for', 'on', 'from', 'within', 'inside', 'across', 'to', 'into', 'onto', 'at', 'belonging', 'belongs', 'owned']);

/** An action word in any form ("added", "removing", "deletes", "made", "sent"): it says what to do, never the resource. */
export const isActionForm = (word: string) => isActionWord(word) || [/ed$/, /d$/, /ing$/, /s$/, /es$/].some((end) => end.test(word) && isActionWord(word.replace(end, ''))) || isActionWord(IRREGULAR_PAST_TENSES[word] ?? IRREGULAR_PARTICIPLES[word] ?? '');

/** Everyday verbs for a verb catalogues write instead ("find users": search). */
export const VERB_SYNONYMS = new Map([
  ['find', 'search'],
  ['locate', 'search'],
]);

/**
 * Words of general English that mean the same and that catalogues name operations or resources
 * after, each catalogue by one of them: a word a catalogue lacks stands for those of its group it
 * has ("copy the task": Duplicate a task; "tickets": issues).
 */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['copy', 'duplicate', 'clone', 'fork'],
  // Nouns too: what a tracker records.
  ['ticket', 'issue', 'bug'],
  ['comment', 'remark', 'note'],
  ['message', 'note'],
  ['reply', 'response'],
  ['label', 'tag'],
  ['meeting', 'event', 'appointment'],
  // Where people talk: a chat's channels are its conversations, or rooms.
  ['channel', 'conversation', 'room'],
  ['discount', 'coupon'],
  ['quote', 'proposal', 'estimate'],
  ['chargeback', 'dispute'],
  ['snippet', 'gist', 'paste'],
  ['folder', 'directory'],
  ['branch', 'ref'],
  ['company', 'organization'],
  // Who buys from a business.
  ['customer', 'client', 'patron', 'buyer'],
  ['team', 'squad', 'crew'],
  ['history', 'changelog', 'timeline'],
  ['attendee', 'guest', 'invitee'],
  ['goal', 'objective', 'target'],
  // A point a body of work is to reach by a date.
  ['milestone', 'checkpoint', 'deadline', 'target'],
  ['task', 'todo', 'chore'],
  ['priority', 'urgency'],
  // A tracker's issues are the tasks people file.
  ['task', 'issue'],
  ['visitor', 'visit', 'view', 'traffic'],
  ['spending', 'budget'],
  ['topic', 'headline', 'header'],
  ['available', 'free', 'availability'],
  ['presence', 'online', 'offline', 'away'],
  ['link', 'permalink', 'url'],
  // A site on the web is its pages.
  ['website', 'site', 'page'],
  ['refund', 'reimburse', 'reimbursement'],
  ['capture', 'collect'],
  ['invoice', 'bill'],
  ['version', 'release'],
  ['section', 'column', 'heading'],
  ['log', 'trace'],
  ['upcoming', 'next', 'coming'],
  // A whole tree packed in one file.
  ['archive', 'tarball', 'zip', 'zipball'],
  // Verbs of one act: a catalogue writes one of them ("Move an issue", "Archive a conversation").
  ['move', 'relocate', 'shift', 'transfer'],
  ['archive', 'shelve', 'mothball'],
  ['lock', 'freeze'],
  ['block', 'ban', 'suspend'],
  ['reject', 'decline', 'deny', 'refuse'],
  ['void', 'nullify', 'annul', 'invalidate'],
  ['rerun', 'retry', 'redo'],
  ['redeliver', 'resend'],
  ['star', 'favourite', 'favorite', 'bookmark'],
  ['snooze', 'mute', 'silence', 'pause'],
  ['approve', 'greenlight', 'endorse'],
  ['upload', 'attach'],
  ['link', 'connect'],
  ['merge', 'combine', 'fold', 'land'],
  ['schedule', 'queue'],
  ['assign', 'allocate', 'delegate'],
  ['watch', 'monitor'],
  ['revoke', 'rescind'],
  ['suspend', 'pause'],
  ['resume', 'unpause'],
  ['kick', 'boot', 'eject', 'expel'],
  ['dismiss', 'discard'],
  ['clear', 'empty'],
  ['disable', 'deactivate'],
  ['enable', 'activate', 'reactivate'],
  ['validate', 'verify', 'lint'],
  ['compare', 'diff'],
  ['server', 'instance'],
  // What happens again and again, and each time it does.
  ['recur', 'repeat'],
  ['instance', 'occurrence'],
  // What is uploaded and kept with a thing.
  ['attachment', 'photo', 'picture', 'image', 'screenshot'],
  // What proves who one is, kept secret.
  ['secret', 'credential'],
  ['login', 'logins', 'access'],
  ['rename', 'retitle'],
];
/** Each stem's synonyms, from every group it is in ("task": todo, chore, and issue). */
const SYNONYMS = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS) {
  for (const word of group) {
    const others = group.filter((other) => other !== word);
    SYNONYMS.set(stemmer(word), [...new Set([...(SYNONYMS.get(stemmer(word)) ?? []), ...others])]);
  }
}
/** The words of general English that mean what a stem means (copi: duplicate, clone). */
export const synonymsOf = (stem: string): readonly string[] => SYNONYMS.get(stem) ?? [];

/** Words that say a thing is to go back to how it was: undoing what an operation did ("lift the block", "sign in again"). */
export const GOING_BACK_WORDS: ReadonlySet<string> = new Set(['again', 'back', 'lift', 'undo', 'reverse', 'revert', 'restore', 'anymore', 'longer', 'reopen', 'reactivate', 'reinstate']);

/** Verbs that, before another verb's -ing form, ask to undo it ("stop following": unfollow). */
export const UNDOING_VERBS = new Set(['stop', 'quit', 'cease']);

/** Prefixes that make a word's opposite (unstar, disable, deregister), not a longer form of it (webhook). */
const REVERSING_PREFIX = /^(?:un|dis|de|non)$/;

/** `longer` is `word` with a prefix that undoes it: "unstar" and "star". */
export const reverses = (longer: string, word: string) => longer.length > word.length && longer.endsWith(word) && REVERSING_PREFIX.test(longer.slice(0, -word.length));

/** Verbs whose "me" is the one asking ("tell me about …", "help me create …"). */
export const ADDRESSING_VERBS = new Set(['tell', 'let', 'help', 'give', 'show', 'send', 'find', 'get', 'fetch', 'bring', 'remind', 'teach', 'walk']);

/** Words after which the next one is a name: "a label called bug", "the user octocat". */
export const NAME_BEFORE = new Set(['called', 'named', 'titled', 'user', 'member', 'collaborator', 'contributor', 'person']);
/** Words that only introduce a name ("a channel called launch"): never words to match, and what follows is a name even when it is a verb. */
export const NAMING_WORDS = new Set(['called', 'named', 'titled']);

/** English prefixes written with a hyphen: "re-run", "un-archive", "self-hosted" are words, not names. */
export const WORD_PREFIXES = new Set(['re', 'un', 'pre', 'co', 'de', 'non', 'sub', 'self', 'auto', 'multi', 'cross', 'anti', 'inter', 'over', 'under', 'out', 'up', 'post', 'mid', 'semi', 'bi', 'tri']);

/** Those of them also written joined ("re-run" and `rerun`): the query reads both forms. */
export const JOINED_PREFIX = /\b(re|un|pre|co|de|non)-([a-z]+)/gi;
