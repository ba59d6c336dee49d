// A search query read into the parts an operation is ranked on: the action it asks for (from
// everyday verbs and phrases), whether it speaks of the signed-in user, and its content terms.
import {
  actionOfStem,
  actionPhrases,
  ADDRESSING_VERBS,
  ASSIGNING,
  AT_ONCE,
  BATCHING,
  CURRENCY_PAIR,
  EXCHANGING,
  HANDING_VERBS,
  isActionForm,
  isActionWord,
  isBaseActionWord,
  inLeadInPhrase,
  isLeadIn,
  causedVerbAt,
  haveDoneAt,
  isWeakCue,
  JOINED_PREFIX,
  NOUN_VERBS,
  NAME_BEFORE,
  NAMING_WORDS,
  opensEachTime,
  QUESTION_OPENERS,
  PERSON_PRONOUNS,
  PERSON_QUESTION,
  PERSON_WORDS,
  SCOPE_PREPOSITIONS,
  SELF_PHRASES,
  SELF_WORDS,
  STATE_CHANGE,
  STATE_WORDS,
  STOP_WORDS,
  TOLD_OF_CHANGES,
  WATCHING,
  UNDOING_VERBS,
  VALUE_WORD,
  VERB_SYNONYMS,
  WORD_PREFIXES,
  type Action,
} from './lexicon.ts';
import { isInitialAndName, stemOf, stems, words } from './text.ts';
import { READS } from './agreement.ts';
import { MISTAKEN, toldVerbAt } from './narrative.ts';
import { verbOfForm } from './request-forms.ts';
import { DAY_WORDS } from './values.ts';

export interface QueryTerm {
  /** The word as written (lower-case). */
  word: string;
  stem: string;
  /** How much the term counts: an action word counts less than what it acts on. */
  weight: number;
  /** Position among the query's words (-1: implied by the query, not written). */
  at: number;
  /** Implied: counts when matched, costs nothing when not. */
  optional?: boolean;
  /** Capitalised inside the sentence ("Dana", "Acme"): likely a name, not a word to widen. */
  name: boolean;
  /** The prefix of an identifier (`cus` of cus_K8s2): an abbreviation of the resource it names. */
  idPrefix?: boolean;
  /** Says where, not what: written after a preposition that follows the resource ("labels to an issue", "a repository under my account"). */
  scope?: boolean;
  /**
   * A bare singular word right after a command's verb and before where it goes ("kick dave off the
   * repo", "add sam as a developer"): a person, unless the catalogue has it as a resource.
   */
  bareObject?: boolean;
  /** Read as someone only by its form (an agent noun: "the florist", "the caterer"): a person where the catalogue has no such word at all. */
  personByForm?: true;
  /** In what a message, a comment or a new thing's title says ("Open a ticket in FAC: projector keeps flickering"): it names no resource asked for. */
  said?: true;
  /** The last word of its clause, right after a preposition ("under acme", "over to maria"): a name, where the catalogue lacks the word. */
  placeName?: boolean;
  /** The verb undone, implied by "stop following": where a catalogue has no such verb (unshare), it removes. */
  undoes?: boolean;
  /** The verb that says what to do, read as this action ("nuke": delete). */
  action?: Action;
  /** The verb a catalogue writes for the act asked ("find": search), implied: it says what to do, not what it is done to. */
  actVerb?: true;
  /** That verb is a noun used as one ("file a bug", "log 2 hours"): its noun is not asked for. */
  nounVerb?: true;
  /** Other words for the same thing, any of which answers as this one does: the catalogue's words for people (user, member, person). */
  alternatives?: string[];
}

export interface ParsedQuery {
  action: Action | undefined;
  /** A question answered yes or no ("does alice follow bob?", "is PR 9 merged?"). */
  yesNo?: true;
  /** A question after people ("who reviewed PR 20?"): one or many, but a read, never a write. */
  reads?: boolean;
  /** The query says "my", "I", "me": the signed-in user. */
  self: boolean;
  /** "Who" asks who does something ("who follows me?"): the answer is people, often named after what they do (followers). */
  who?: boolean;
  /** Where a verb asked of someone else is ("get sam to review …": review): its doer nouns (reviewer) answer it. */
  caused?: number[];
  /** A question after who someone is ("who is in the platform team?", "who's watching PROJ-4?"), not who the signed-in user is: the people are not yet known. */
  asksWho?: true;
  /** It names something by a two-part slug (`acme/api`): in many catalogues, a path's `{owner}/{repo}`. */
  slug?: boolean;
  /**
   * The stem of a verb that starts a command before its object ("archive legacy-api", "pin the
   * message"), when no action word says what to do: perhaps one the catalogue names operations after.
   */
  command?: string;
  /**
   * The command's word is surely a verb: an article follows it ("protect the main branch") or a
   * place follows its object ("tag v1.8.0 on master"); a noun before its number ("issue 42") is not.
   */
  commandVerb?: true;
  /** Where each clause's verb would stand: its first word after any lead-in ("please", "can you"); none in a question. */
  verbsAt?: number[];
  /** Stems of verbs told as done by mistake ("I locked it too early"): their undoing is asked for. */
  undone?: string[];
  /** What is acted on is a value put in a place, named by no word of its own ("add 'Buy robes' to the Concert project"): no resource is asked for. */
  unnamed?: true;
  /** Stems of the state a thing is to be made ("make acme/api private": privat): a field a write sets. */
  states?: string[];
  /** A rule is asked for that keeps a place from changes made without a thing first ("nobody can push to main without review"): pushing there is no one's access. */
  protects?: true;
  /** Someone, named or by a pronoun, is among the things a command puts in a place or takes out of it ("add Tom and the new drafter to #proj"). */
  placesPerson?: true;
  /** The capitalised words, when nothing else said a person is meant ("ask Dana", not "who", "@dana" or an email address): they may be the catalogue's own names ("Actions"). */
  personNames?: string[];
  terms: QueryTerm[];
}

/**
 * A term quoted as one the writer is unsure of ("open a 'PR' from my branch", "add an 'ssh key' to my
 * account"): after an article, in lower case or a short acronym, where no noun follows it. It names
 * the kind of thing, so its words are read; a title names one ("a 'Wash bins' task", "the 'done' label").
 */
const SCARE_QUOTED = /\b(a|an|the|my|our|this|that|some)\s+(["'“‘])([a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}|[A-Z]{2,4}s?)["'”’](?=\s*(?:[?!.,;:]|$)|\s+(?:to|from|in|into|on|onto|for|of|with|at|by|so|and|that|which)\b)/g;

/**
 * The query without the values it quotes or names: quoted titles ('Send invoices'), and tokens
 * written like identifiers (acme/api, #ops, cus_K8s2, v1.2, 3pm, jo@example.com). They say which
 * thing, not what to do with it.
 */
function withoutValues(query: string): string {
  return query
    .replace(SCARE_QUOTED, '$1 $3')
    .replace(/(^|\s)(["'“‘])[^"'”’]*["'”’]/g, ` ${VALUE} `)
    // "Open" before a count of things opens new ones ("open 30 tickets"), not the open ones.
    .replace(/\b(open)\s+\d+\s+(?=[a-z]+[^s\s]s\b)/gi, '$1 new ')
    // A count before what it counts ("make 12 tickets") says how many, not which one: no value; a span of time ("log 3 hours") stays one.
    .replace(/(^|\s)\d+\s+(?!(?:seconds|secs|minutes|mins|hours|hrs|days|weeks|months|years)\b)(?=[a-z]+[^s\s]s\b)/gi, '$1')
    .split(/\s+/)
    // Words joined by underscores and nothing else (rate_limit) are words as an API names them.
    .map((token) => (SNAKE_WORDS.test(token) ? token.replace(/_/g, ' ') : token))
    .map((token) => (/[/@#_\d]|\w\.\w|\w:\w/.test(token) || CODE_NAME.test(token) ? `${VALUE}${/[,;:!?]$/.test(token) || /\w\.$/.test(token) ? token.slice(-1) : ''}` : token))
    .join(' ');
}

/** Verbs that say something to someone: what their "that" clause holds is the message. */
const SAYING_VERBS = new Set(['comment', 'reply', 'tell', 'say', 'post', 'message', 'note', 'notify', 'email', 'ping', 'remind', 'announce', 'let', 'inform', 'warn', 'respond', 'write']);
/** Verbs that tell someone something: "that" after their recipient opens what is told. */
const TELLING_VERBS = new Set(['tell', 'inform', 'warn', 'remind', 'notify', 'ping', 'message', 'email', 'text']);
/** Words that lead what a message says ("… saying the partition is reloaded"). */
const SAID_LEADS = new Set(['saying', 'stating']);
/** Words that open a clause after "that" ("that the …", "that we …"), not a thing ("that PR"). */
const CLAUSE_OPENERS = new Set(['the', 'a', 'an', 'we', 'i', 'it', 'they', 'he', 'she', 'you', 'our', 'my', 'their', 'his', 'her', 'its', 'this', 'everything', 'everyone', 'nothing', 'there']);

/** The query up to what a message it asks to send says (see SAYING_VERBS): values in the message ("… that we need two nurses tonight") are not the request's. */
export function beforeMessage(query: string): string {
  const said = new RegExp(String.raw`\b(?:${[...SAID_LEADS].join('|')})\b|\b(?:${[...SAYING_VERBS].join('|')})\b.*?\bthat (?=(?:${[...CLAUSE_OPENERS].join('|')})\b)`, 'i').exec(query);
  return said ? query.slice(0, said.index + said[0].length) : query;
}

/** Pronouns that start a clause of their own, and words that join another. */
const SUBJECT_PRONOUNS = new Set(['i', 'we', 'you', 'they', 'he', 'she']);
/** Words that open a noun phrase for others after "me and" ("me and the Globex AE"). */
const THE_OTHERS = new Set(['the', 'my', 'our', 'his', 'her', 'their', 'a']);
const CLAUSE_JOINS = new Set(['and', 'but', 'then', 'so']);
/** Nouns for groups of people, which a who-question asks into ("who's on the platform team?"). */
const GROUP_NOUNS = new Set(['team', 'group', 'squad', 'crew', 'channel', 'project', 'org', 'organization', 'role', 'handle', 'usergroup']);
/** How many people a command may name before where they go ("add priya, tom and wei to #retro"). */
const MAX_NAMED_OBJECTS = 5;
/** The details of a person that their profile holds ("my status", "her job title"). */
const PROFILE_DETAILS = new Set(['status', 'title', 'bio', 'pronouns', 'avatar', 'photo', 'picture', 'nickname', 'name']);
const DETAIL_KINDS = new Set(['job', 'display', 'full', 'profile', 'status', 'real']);

/**
 * Nouns of a form that names someone by what they do ("florist", "interviewers", "trustee"): read so
 * as the head of what is put somewhere ("add the florist to …", not "the header line in …"); in -er
 * and -or only plural ("the tenors"), as the singular names as many things ("header", "master").
 */
const AGENT_FORM = /^[a-z]{3,}(?:ists?|ians?|ees?|ers|ors)$/;
/** Nouns that name someone by their role or relation ("the new hire", "our intern", "the night shift lead"). */
const ROLE_NOUNS = new Set(['hire', 'contractor', 'employee', 'intern', 'lead', 'manager', 'colleague', 'teammate', 'coworker', 'staffer', 'volunteer', 'freelancer', 'consultant', 'nurse', 'teacher', 'student', 'parent', 'engineer', 'developer', 'designer', 'analyst', 'recruit', 'newcomer', 'starter', 'joiner', 'leaver', 'trainee', 'apprentice', 'assistant', 'coordinator', 'guy', 'gal', 'person']);

/** A thing made into a state: "make acme/api private", "make the label pink instead of grey"; not one it is to be again, which undoes what was done ("make it active again"). */
const MADE_STATE = /\bmake\s+(?:it|them|this|that|(?:the|my|our|your|its|their)\s+[\w'./-]+(?:\s+[\w'./-]+){0,3}?|\S*[/#_\d]\S*)\s+([a-z]{3,})(?=\s*(?:[.,;!?]|$)|\s+(?:instead|now|please|too|for|on|in|so)\b)/gi;

/** A thing marked as in a state ("mark 'Icon set v2' as complete", "mark the thread as read"): the state a field sets. */
const MARKED_STATE = /\bmark(?:s|ed|ing)?\s+(?:'[^']{1,80}'|"[^"]{1,80}"|[\w'./#-]+(?:\s+[\w'./#-]+){0,5}?)\s+as\s+([a-z]{3,})\b/gi;

/** A change from one state to another ("switch #acme from public to private"): the state it is to be in. */
const FROM_STATE_TO = /\bfrom\s+(?:private|public|internal|draft|hidden|archived|locked|read-only|open|closed|active|inactive|enabled|disabled)\s+to\s+([a-z][a-z-]{2,})\b/gi;

/** A new thing made in a state ("a new private repo", "a brand new public channel"): adjectives of state a field sets. */
const NEW_IN_STATE = /\b(?:new|an?)\s+(private|public|internal|draft|hidden|archived|protected|locked|empty|blank|read-only|recurring|shared)\s+(?!cop(?:y|ies)\b)(?=[a-z])/gi;

/** Asking what someone may do: "allowed to", "permitted to", "have the right to", "am I able to" (not "I need to be able to", a request). */
const MAY_DO = /\b(?:allowed|permitted|authori[sz]ed)\s+to\b|\bhave\s+(?:the\s+)?rights?\s+to\b|\b(?:am\s+i|are\s+(?:we|you|they)|is\s+\w+|who(?:'s|\s+is|\s+are)?)\s+able\s+to\b/i;

/** Plural words for people that "how many" counts ("how many people follow octocat"). */
const COUNTED_PEOPLE = new Set(['people', 'users', 'members', 'persons', 'folks', 'accounts']);

/** Verbs that, right after "who", make it the subject ("who is assigned", "who has starred"). */
const SUBJECT_AUXILIARIES = new Set(['is', 'was', 'has', 'have', 'had', 'can', 'could', 'will', 'would', 'should', 'may', 'might']);

/** Auxiliaries that, right after "who", make it the object ("who does octocat follow"). */
const OBJECT_AUXILIARIES = new Set(['does', 'did']);

/** A two-part slug (`acme/api`, `octo-org/hello_world`), not a path of more parts. */
const SLUG = /^[A-Za-z0-9][\w.-]*\/[\w.-]*[A-Za-z0-9]$/;

/** A file name or path by its extension: the common kinds of text, code, configuration and media files. */
const FILE_NAME = /^[\w./-]*\w\.(md|markdown|txt|rst|json|ya?ml|toml|ini|cfg|conf|env|xml|html?|css|scss|csv|tsv|js|mjs|cjs|jsx|ts|tsx|py|rb|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|sql|lock|gradle|tf|proto|graphql|png|jpe?g|gif|svg|pdf|zip|tar|gz|log)$/i;

/** The states a thing can move to: "which statuses can DEV-300 move to", "what workflow steps can VET-5 move to". */
const STATES_REACHABLE = /\b(?:status(?:es)?|states?|steps?|stages?|columns?)\b[^.?!]*\b(?:move|go|change|transition|switch|be\s+moved)\s+(?:\S+\s+)?(?:to|into)\b|\bwhat\s+(?:can|could)\s+(?:(?:i|we)\s+(?:move|drag|push|transition)\s+\S+|\S+\s+(?:move|go|transition))\s+(?:to|into)\b|\b(?:what|which)\b[^.?!]*\bfrom\s+where\s+(?:it|they)\s+(?:is|are)\b|\b(?:status|state)\s+changes?\b[^.?!]*\b(?:available|possible|allowed|can\s+i|could\s+i)\b/i;
/** Words after which "update" is a noun: an article, a kind of update, a quoted state ("an 'on track' update"). */
const UPDATE_NOUN_BEFORE = new Set(['a', 'an', 'the', 'this', 'that', 'latest', 'last', 'weekly', 'daily', 'monthly', 'quick', 'status', 'progress', 'health', 'project', VALUE_WORD]);
/** Words that start what "pull" fetches: "pull the …", "pull every …". */
const FETCHED_OBJECT = new Set(['the', 'every', 'all', 'my', 'our', 'last', 'latest', 'recent', 'any', 'each']);
/** Words that say every one of a kind: "all", "everyone", "the whole …". */
const EVERY_ONE = new Set(['all', 'every', 'everyone', 'everything', 'everybody', 'each']);
/** Prepositions that say a thing is on or in a place: "what's on my calendar". */
const CONTAINING = new Set(['on', 'in', 'inside']);
/** A search kept to run again: "save this search", "save the JQL as …", "a saved search". */
const SAVED_SEARCH = /\bsaved\s+(?:search|query|view)|\bsave\b[^.?!;]*\b(?:search|query|jql)\b|\b(?:search|query|jql)\b[^.?!;]*\bsave\b/i;
/** Two things set against each other: "main vs develop", "v1.2...v1.3". */
const SET_AGAINST = /\S\s+(?:vs\.?|versus)\s+\S|\w\.\.\.?\w/i;
/** What changed or differs between two things ("what changed between release-1.4 and main"): the two compared. */
const CHANGED_BETWEEN = /\b(?:changed|changes|different|differences?|differs?|diverged?|drift(?:ed)?)\b[^.?!]*\bbetween\s+\S+(?:\s+\S+){0,3}?\s+and\s+\S/i;
/** Asked what a thing changed ("what exactly changed in commit a1b2c3d?", "what did MR 14 change?"): its changes, a thing read, not a change made. */
const WHAT_CHANGED = /\bwhat\s+(?:(?:exactly|actually|else)\s+)?(?:has\s+|have\s+)?changed\b|\bwhat\s+(?:did|does|do|has|have)\b[^.?!]*\bchange\b/i;
/** Pushing barred ("nobody should be able to push straight to main", "don't let anyone force push to production"): the branch protected. */
const PUSH_BARRED = /\b(?:nobody|no\s+one|no-one)\b[^.?!]{0,30}?\b(?:force[\s-]?)?push\w*\b|\b(?:don't|do\s+not|never)\s+let\s+(?:anyone|anybody|people|them)\s+(?:force[\s-]?)?push\b|\b(?:shouldn't|should\s+not|can't|cannot|mustn't|must\s+not)\s+(?:be\s+able\s+to\s+)?(?:force[\s-]?)?push\b|\brefuses?\s+force[\s-]?push/i;
/** Nothing let in without a thing first ("nothing should land on main without two approving reviews", "nobody can push to main without review"): a rule that protects the place. */
const ONLY_WITH = /\b(?:nothing|nobody|no\s+one|no-one|cannot|can't)\b[^.?!]*\b(?:lands?|merges?|merged|push|pushes|pushed|(?:gets?|goes|go)\s+(?:in|into|onto)|deploys?|ships?)\b[^.?!]*\bwithout\b/i;
/** Things required before anything merges ("require 2 approvals and passing checks before anything merges into main", "merging should be blocked until …"): a rule that protects the place. */
const REQUIRED_BEFORE_MERGE = /\b(?:requir\w*|needs?|must\s+(?:have|need|pass|get))\b[^.?!]{0,60}?\b(?:approv\w*|reviews?|checks?|ci|tests?|builds?)\b[^.?!]{0,40}?\bbefore\b[^.?!]{0,30}?\b(?:merg\w*|lands?|landing|(?:gets?|goes|go)\s+in)\b|\bmerg\w*\s+(?:should\s+be\s+|is\s+|must\s+be\s+)?blocked\s+until\b/i;
/** Words that say a thing is old or out of use ("stale", "leftover"): they qualify it, naming no kind of thing. */
const AGED = new Set(['stale', 'old', 'obsolete', 'outdated', 'unused', 'leftover', 'abandoned', 'dead', 'defunct', 'ancient', 'retired', 'dormant', 'disused']);
/** A thing moved from one place to another of the same kind ("from my personal calendar over to the Team calendar", "off my calendar and onto the Imports one"). */
const MOVED_BETWEEN_PLACES = /\b(?:from|off)\s+(?:\S+\s+){0,3}?([a-z]{3,})\s+(?:(?:over|across|and)\s+)?(?:to|onto|into)\s+(?:\S+\s+){0,4}?(?:\1|one)\b/i;
/** A thing kept but out of use ("make it read-only", "put it in cold storage", "not deleted", "so it stops cluttering the list"): archived, the act. */
const KEPT_OUT_OF_USE = /\bread[\s-]only\b|\bcold\s+storage\b|\b(?:in|into)\s+storage\b|\btuck\s+(?:it|them|\S+)\s+away\b|\b(?:not|never)\s+(?:be\s+)?deleted\b|\b(?:without|rather\s+than|instead\s+of)\s+delet|\bdon'?t\s+(?:want\s+(?:it|them)\s+)?(?:delete|lose)|\bout\s+of\s+(?:the\s+)?active\b|\bout\s+of\s+every(?:one|body)'?s?\s+(?:\S+\s+)?list\b|\bstops?\s+(?:cluttering|showing\s+up)\b|\bretire\s+(?:\S+\s+){0,3}?from\s+active\b/i;
/** Things of no name picked out by their state ("everything in LIB that isn't finished yet", "what's still open and on my name"): found by a search. */
const PICKED_BY_STATE = /\b(?:everything|anything|what'?s|whatever)\b[^.?!]{0,50}?\b(?:still\s+open|unresolved|(?:is|are)n'?t\s+(?:yet\s+)?(?:done|finished|closed|resolved))\b/i;
/** Taking part narrowed to those who already have, for a while ("only let existing contributors comment or open issues for the next 24 hours", "stop people who've never contributed from commenting"): as ONLY_ALLOWED, a restriction, and no lock. */
const TO_PAST_CONTRIBUTORS = /\b(?:only|just)\s+(?:let\s+)?(?:\S+\s+){0,3}?(?:contributors|collaborators|(?:people|those|folks|users)\s+who(?:'ve|\s+have)?\s+(?:already\s+)?(?:contributed|collaborated))\b(?=[^.?!]{0,40}?\b(?:comment|post|open|interact|reply|participat))|\b(?:contributors|collaborators)\s+only\b|\bnever\s+contributed\b|\brestrict\s+(?:\S+\s+){0,4}?to\s+(?:\S+\s+){0,2}?(?:contributors|collaborators)\b/i;
/** A conversation closed to more comments ("so nobody else can comment", "only maintainers can still post", "shut the conversation down", "freeze the thread"): locked, the act. */
const CLOSED_TO_COMMENTS = /\b(?:no\s*(?:one|body)|nobody|none|people|anyone|everyone)\s+(?:else\s+)?(?:can|could|is\s+able\s+to|will\s+be\s+able\s+to)\s+(?:\S+\s+){0,2}?(?:comment|reply|post|respond|chime)|\bonly\s+(?:\S+\s+){0,3}?(?:can|could|may)\s+(?:still\s+|keep\s+|continue\s+(?:to\s+)?)?(?:comment|reply|post)|\bshut\s+(?:(?:the|this|that|it|its)\s+)?(?:(?:conversation|discussion|thread|comments?)\s+)?down\b|\bshut\s+down\s+(?:further|more|the|any)\s+(?:comments|discussion|conversation|replies)\b|\bfreeze\s+(?:the\s+|this\s+|that\s+)?(?:conversation|discussion|thread|comments)\b|\bclosed?\s+(?:it\s+|the\s+\w+\s+)?to\s+(?:further|more|new)\s+(?:comments|replies|discussion)\b|\bstop\s+(?:people|everyone|anyone)\s+(?:from\s+)?(?:commenting|replying|posting|piling\s+on)\b/i;
/** Someone banned or kept out of a place ("ban xXgrieferXx from our org", "keep him out of the whole organization"): blocked, the act, not the blocks as a thing. */
const KEPT_OUT = /\bban(?:ned|ning|s)?\s+(?!from\b)\S+|\bkeep\s+(?:him|her|them|\S+)\s+out\s+of\b/i;
/** Who may do a thing narrowed ("only people who've contributed should be able to comment", "limit who can comment to past contributors"): a restriction. */
const ONLY_ALLOWED = /\bonly\s+(?:\S+\s+){0,3}?(?:people|contributors|collaborators|members|maintainers|staff|admins|users|folks|we|us)\b(?:\s+\S+){0,4}?\s+(?:should\s+be\s+able\s+to|can|may|are\s+allowed\s+to)\s+(?:comment|post|reply|open|push|edit|interact)\b|\b(?:limit|restrict)(?:s|ed|ing)?\s+(?:who\s+can|commenting|comments|posting|replies|interactions)\b/i;
/** What is on one thing and not on another ("commits on release/17.x that aren't on main"): the two compared. */
const SET_APART = /\b(?:that|which)\s+(?:aren't|are\s+not|isn't|is\s+not|haven't\s+been|have\s+not\s+been)\s+(?:on|in|merged\s+into)\b/i;
/** How much of a thing something takes up ("how much cache storage is the repo eating?"): its usage. */
const HOW_MUCH_USED = /\bhow\s+much\b.*\b(?:using|used|uses|use|eating|eats|consuming|consumes|consumed|taking\s+up|takes\s+up|occupying|occupies)\b/i;
/** Lower-case words joined by underscores, no digits: `rate_limit`, `billable_info`. */
const SNAKE_WORDS = /^[a-z]{2,}(?:_[a-z]{2,})+[,;:!?)]?$/;
/** A name in code: camelCase (`parseConfig`, not `iPhone` or `macOS`) or called (`parse()`). */
const CODE_NAME = /^(?:[a-z]{2,}[A-Z][a-z]\w*|[A-Za-z_]\w*\(\))[,;:!?)]?$/;

/** Nouns for a way of sending that, starting a command, send ("email it to them", "text the team"). */
const SENDING_NOUNS = new Set(['email', 'mail', 'text', 'message', 'dm', 'fax']);
/** Nouns a sending noun makes a compound with ("email addresses", "message ts"): a thing named, nothing sent. */
const SENT_COMPOUNDS = /^(?:address(?:es)?|settings?|notifications?|threads?|templates?|history|ts|ids?|files?|preferences|domains?|lists?)$/;

/** A name after "called" is at most this many words long. */
const MAX_NAME_WORDS = 4;
/** Words that end a name after "called": what follows says where or what else. */
const NAME_ENDS = new Set([...SCOPE_PREPOSITIONS, 'and', 'or', 'with', 'as', 'that', 'which', 'but', 'so', 'of', 'by', 'then', 'if']);

const VALUE = VALUE_WORD;
/** Verbs of wanting a thing, and adverbs between "I" and them ("I really need …"). */
const DESIRE_VERBS = new Set(['want', 'need', 'wish', 'require']);
const DESIRE_ADVERBS = new Set(['really', 'just', 'also', 'still', 'only', 'urgently']);
/** Words that start a noun phrase or stand for one: a word after them is no bare name. */
const DETERMINERS = new Set(['a', 'an', 'the', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'his', 'her', 'their', 'its', 'any', 'some', 'every', 'all', 'each', 'no', 'it', 'i', 'you', 'we', 'they', 'he', 'she', 'there', 'anyone', 'someone', 'me', 'them', 'him', 'us']);
/** Someone kept told of a thing's news ("so she gets email updates", "keep me in the loop on INC-4", "loop Dana in", "sign me up for updates"): a watch or a follow. */
const KEPT_INFORMED = /\b(?:gets?|getting|got|be|being|is|stays?|kept|keep|keeps|want|wants|receive|receives)\s+(?:(?:me|us|them|him|her)\s+(?=(?:notified|pinged|alerted|informed|posted|updated)\b))?(?:notified|pinged|alerted|informed|posted|updated|(?:(?!(?:my|our|your|their|his|her|the|its)\s)[a-z]+\s+)?(?:updates|emails?|notifications)(?!\s+address))\b|\bin\s+the\s+loop\b|\bloop\s+(?:\S+\s+){1,2}in\b|\bsign\s+(?:\S+\s+){1,2}up\s+for\s+(?:\S+\s+)?updates\b|\bhear(?:s|ing)?\s+about\s+(?:every|each|any|all)\s+(?:changes?|updates?)\b/i;
/** A person mentioned by handle ("@ana-k"), not an email address, a version after a package, nor "@mention" or "@here". */
const MENTION = /(?:^|[\s(,])@(?!(?:mention\w*|here|channel|everyone)\b)[a-z0-9][\w-]*(?![\w@.\/-])/i;
/** Someone given access ("give ana-k push access", "grant tom write permission"): the one given it is a person. */
const GIVEN_ACCESS = /\b(?:give|grant|let)\s+@?[a-z0-9][\w.-]*\s+(?:(?:read|write|push|pull|admin|maintain|triage|edit|view|owner|developer|reporter|guest|full|read-only)\s+)*(?:access|rights|permissions?)\b/i;
/** A thing wished for by its kind ("I need a link customers can pay through"), up to the clause's end: made, unless it is a reading ("a list of", "a quick look"). */
/** Nouns of a reading, not a thing made ("a list of", "a quick look"), after "I need a" or "get me a". */
const READINGS = 'list|count|copy|summary|breakdown|rundown|report|overview|export|dump|tally|number|few|couple|lot|bit|quick|look|peek|glance|sense|feel|heads';
/** The rest of the clause: up to punctuation, a dot inside a word (".zip") kept. */
const TO_CLAUSE_END = String.raw`(?:[^,;:?!.]|\.(?=\S))*`;
const WISHED = new RegExp(String.raw`\b(?:i|we)(?:'d|\s+would|\s+really)?\s+(?:want|need|like|love)\s+(?:a|an)\s+(?!(?:${READINGS}|way|reminder\s+of)\b)${TO_CLAUSE_END}`, 'i');
/** A causative verb before an @handle ("get @lena and @raj to look over …"). */
const ASKS_HANDLES = /\b(?:get|have|ask)\s+@[a-z]/i;
/** A thing asked to be given, of no name yet ("get me a token", "give me a link I can share"): as WISHED, made, unless it is a reading. */
const OBTAINED = new RegExp(String.raw`(?:^|[,;.!?\u2013\u2014]\s|\s-\s)\s*(?:(?:can|could)\s+you\s+)?(?:please\s+)?(?:get|give|grab|fetch)\s+(?:me|us)\s+(?:a|an|one)\s+(?!(?:${READINGS})\b)${TO_CLAUSE_END}`, 'i');
/** An address (a URL, an endpoint) and the events or notifications it is sent, in either order. */
const EVENTS_TO_ADDRESS = /(?:https?:\/\/\S+|\burls?\b|\bendpoints?\b)[^.?!]*\b(?:events?|notifications?|payloads?)\b|\b(?:events?|notifications?|payloads?)\b[^.?!]*(?:https?:\/\/\S+|\burls?\b|\bendpoints?\b)/i;
/** Words for the one signed in, asked after by "which … am I". */
const ACCOUNT_WORDS = new Set(['account', 'user', 'login', 'identity', 'profile']);
/** Someone asking to be let into a place ("Karl asked to join the procurement group", "she has requested to join"). */
const ASKED_TO_JOIN = /\b(?:asked|asks|asking|requested|requests|applied|wants|wanted)\s+(?:to\s+)?(?:join|access|be\s+added\s+to|get\s+into)\b/i;
/** A time asked about: a day word (values.ts), a week, a span or an hour ("Thursday afternoon", "between 2 and 4", "at 3pm"). */
const AT_A_TIME = String.raw`(?:${[...DAY_WORDS].join('|')}|next\s+week|this\s+week|between|from\s+\d|at\s+\d|\d\s*(?:am|pm))`;
/** Words that say someone or something is open or booked ("free", "booked", "clear"). */
const OPEN_OR_BOOKED = String.raw`(?:open|free|available|busy|booked|clear)`;
/** A character of one sentence, the period of a title ("Ms.", "Dr.") included. */
const IN_SENTENCE = String.raw`(?:[^.?!]|\b(?:mr|ms|mrs|dr)\.)`;
/** A time asked about, or a day said only as one ("either day", "that day"). */
const AT_A_DAY = String.raw`(?:${AT_A_TIME}|either\s+day|that\s+day)`;
/** People or places asked whether they are open or booked at a time ("when are Sam and Priya both free Thursday?", "is anyone booked between 2 and 4?", "is courtroom 4B open Thursday between 1 and 5?"). */
const FREE_OR_BOOKED = new RegExp(
  String.raw`\b(?:both|everyone|anyone|everybody|anybody|all\s+(?:of\s+)?(?:us|them|three|four|five))\b[^.?!]{0,50}?\b(?:open|free|available|busy|booked)\b[^.?!]{0,40}?\b${AT_A_TIME}\b` +
    String.raw`|\b(?:are|is)\s+[^.?!]{1,40}?\band\s+[^.?!]{1,30}?\s(?:both\s+|all\s+)?${OPEN_OR_BOOKED}\b[^.?!]{0,40}?\b${AT_A_TIME}\b` +
    // One asked after too ("is Ms. Patel free next Tuesday between 1 and 3?", "am I booked either day?"), or the openings someone has ("any open time Tuesday afternoon").
    String.raw`|^(?:[^.?!]*[.!?]\s+)?(?:is|are|am)\s+(?!there\b)${IN_SENTENCE}{1,40}?\s${OPEN_OR_BOOKED}\b[^.?!]{0,40}?\b${AT_A_DAY}\b` +
    String.raw`|\b(?:if|whether)\s+${IN_SENTENCE}{1,50}?\s(?:is|are|am)\s+(?:both\s+|all\s+)?${OPEN_OR_BOOKED}\b[^.?!]{0,40}?\b${AT_A_DAY}\b` +
    String.raw`|\b(?:any|some)\s+(?:open\s+time|openings?|free\s+time|availability)\b[^.?!]{0,40}?\b${AT_A_TIME}\b`,
  'i',
);
/** A time said as a day, an hour or a span ("Thursday", "4:30", "3pm", "an hour"). */
const TIME_SAID = String.raw`(?:${[...DAY_WORDS].join('|')}|next\s+week|\d{1,2}(?::\d{2})?\s*(?:am|pm)?\b|an?\s+hour|\d+\s*(?:hours?|hrs?|minutes?|mins?)\b|half\s+an\s+hour)`;
/** A thing moved in time ("push the design review to Thursday at 3pm", "push it back an hour", "should start at 4pm instead", "needs to slide to 4pm"): a thing with a time, an event. */
const MOVED_IN_TIME = new RegExp(
  String.raw`\b(?:move|moved|moving|push|pushed|pushing|shift|shifted|shifting|bump|bumped|bumping|slide|sliding|postpone|postponed|delay|delayed|reschedule|rescheduled)\b[^.?!;]{0,60}?\b(?:to|until|till|back|forward|later|earlier|by)\s+(?:\S+\s+){0,2}?${TIME_SAID}` +
    String.raw`|\b(?:should|needs?\s+to|has\s+to|will)\s+(?:now\s+)?(?:start|begin|end|finish)\s+at\s+${TIME_SAID}|\bneeds?\s+to\s+(?:go|move|slide|shift)\s+(?:from\s+\S+\s+)?to\s+${TIME_SAID}`,
  'i',
);
/** Things named by what is said of them, and the words catalogues write for them. */
const THINGS_BY_WHAT_IS_SAID: readonly { said: RegExp; words: string[] }[] = [
  // What is sold ("add a '10-Class Pass' to what we sell", "merch we have for sale", "an item we can sell", "something we can charge people for", "a new item in our shop catalog"): a product.
  { said: /\b(?:we|i|you|they)\s+(?:can\s+|could\s+)?sell\b|\bfor\s+sale\b|\b(?:can|could)\s+(?:buy|charge\s+(?:\S+\s+){0,2}?for)\b|\b(?:to|in|into)\s+(?:our|the|my)\s+(?:\S+\s+)?(?:catalog|catalogue|shop|store)(?![\w-])/i, words: ['product'] },
  // What happened ("what happened on the account in the last 24 hours", "everything that's happened since Monday"): events.
  { said: /\b(?:what|everything|anything|all)\s+(?:that\s+)?(?:has\s+|'s\s+|had\s+)?happened\b/i, words: ['event'] },
  // Money moved to one's own bank ("deposited to our bank", "transfers to our checking account", "the bank transfers Stripe sent us", "money hitting my bank", "paid out to the club's bank account"): a payout.
  { said: /\b(?:deposit\w*|transfers?|money|funds|cash|disbursements?|went out|go out|gone out|sent|paid\s+out)\b[^.?!]*?\b(?:to|into|in|hit|hits|hitting|land|lands|landing|reach\w*|arriv\w*)\s+(?:(?:the|our|my|their|your|its|\S+'s?)\s+){1,2}(?:\w+\s+)?(?:bank|checking|savings)\b|\bbank\s+transfers?\b[^.?!]*?\b(?:sent|paid)\s+(?:us|me)\b/i, words: ['payout'] },
  // The dates a repeating thing falls on ("every date the weekly standup happens", "upcoming sessions of our weekly class"): a recurring event's instances.
  { said: /\b(?:every|each|all(?:\s+the)?|upcoming|next\s+few|individual|separate)\s+(?:\w+\s+)?(?:dates?|occurrences?|sessions?|instances?|times)\b.*\b(?:weekly|daily|monthly|biweekly|fortnightly|recurring|repeating|series|every[\s-]+other[\s-]+week)\b/i, words: ['recurring', 'instance'] },
  // Requests throttled, or how many are left ("how many API calls do I have left", "before it gets throttled"): the rate limit.
  { said: /\bthrottl(?:e|es|ed|ing)\b|\b(?:calls|requests)\s+(?:(?:do|does|did)\s+(?:\S+\s+){1,3}?have\s+)?left\b/i, words: ['rate', 'limit'] },
  // A value kept from view ("an encrypted value", "without it being in the code", "without exposing it"): a secret.
  { said: /\bencrypted\b|\bwithout\s+(?:it\s+|them\s+)?(?:being\s+|sitting\s+|showing\s+(?:up\s+)?|ending\s+up\s+)?(?:visible|exposed|in\s+(?:the\s+|our\s+)?(?:code|repo|yaml|source|config)|in\s+plain\s*text)\b|\bwithout\s+exposing\b/i, words: ['secret'] },
  // Asked who a thing may be handed or assigned to ("who can I hand OPS tickets to?", "who can be assigned issues in PAY?"): the people it is assignable to.
  { said: /\bwho\s+(?:(?:else\s+)?(?:can|could|may)\s+(?:i|we)|am\s+i\s+allowed\s+to|are\s+the\s+people\s+i\s+can)\s+(?:assign|reassign|give|hand|pass)\b|\bwho\s+(?:can|could|may)\s+be\s+assigned\b|\b(?:people|users|staff|guys|folks)\s+(?:i|we)\s+can\s+(?:assign|give|hand|pass)\b/i, words: ['assignable'] },
  // Asked what is on one's schedule at a time ("what do I have tomorrow?", "what have I got on Thursday?", "my agenda for next week"): the events then.
  { said: /\bwhat\s+(?:do|have|did|will)\s+(?:i|we)\s+(?:have|got|get)\s+(?:on\s+)?(?:\S+\s+){0,3}?(?:today|tomorrow|tonight|next|this|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\bmy\s+agenda\b/i, words: ['event'] },
  // A thing made to be used again ("a reusable blueprint", "something we can reuse for every new hire"): a template.
  { said: /\breusable\b|\bre-?use\b[^.?!]{0,40}?\b(?:every|each|future|next|again|other)\b|\bstamp\s+out\b/i, words: ['template'] },
  // A measure reached ("we're at 62% now", "update its progress number"): the number a metric holds.
  { said: /\b(?:we're|we\s+are|it's|it\s+is|is\s+now|are\s+now|(?:has|have)\s+reached)\s+(?:now\s+)?(?:at\s+)?[$£€]?\d[\d,.]*\s*(?:%|k|m|ms|members|stars|users)?|\bprogress\s+(?:number|figure|value)\b|\bprogress\s+to\s+[$£€]?\d/i, words: ['metric'] },
  // Which fields a thing needs ("what fields are required when I create a bug", "which fields do I have to fill in"): what describes it, its metadata.
  { said: /\b(?:what|which)\s+(?:\S+\s+){0,2}?fields?\b[^.?!]{0,40}?\b(?:required|mandatory|needed|need|have\s+to|must)\b/i, words: ['metadata', 'meta'] },
  // A credential asked whether it works ("is my bot token still good?", "confirm the token still works", "is it valid"): a check of authentication.
  { said: /\b(?:tokens?|keys?|credentials?|auth)\b[^.?!]{0,40}?\b(?:(?:is|are|still|even|actually)\s+(?:(?:it|they)\s+)?(?:still\s+|even\s+|actually\s+)?(?:valid|good|alive|live|working|ok|okay|active|any\s+good)|(?:still\s+|actually\s+)?works?)\b|\b(?:is|are)\s+(?:it|they)\s+(?:still\s+)?(?:valid|good|alive|working)\b[^.?!]{0,30}?\b(?:tokens?|keys?)\b/i, words: ['authentication', 'check'] },
  // What admins did or changed, kept as a log or a trail ("the admin activity log", "what admins changed in the config"): the audit records.
  { said: /\badmin(?:istrator)?s?\b[^.?!]{0,30}?\b(?:activity|activities|changes?|actions?)\s+(?:log|trail|history|records?)\b|\b(?:log|trail|history|records?)\s+of\s+(?:the\s+)?admin(?:istrator)?s?\b|\bwhat\s+(?:the\s+)?admin(?:istrator)?s?\s+(?:have\s+)?(?:changed|did|done|touched)\b|\bactivity\s+trail\b/i, words: ['audit'] },
  // Who signed or logged in, and from where ("the workspace login history", "who signed in from which IPs"): the access logs.
  { said: /\b(?:log[\s-]?ins?|sign[\s-]?ins?)\s+(?:history|records?|logs?)\b|\b(?:signed|logged|signing|logging)\s+(?:in|into|on)\b[^.?!]{0,50}?\b(?:ips?|ip\s+address(?:es)?|devices?|user\s+agents?|locations?)\b/i, words: ['access', 'log'] },
  // A place shut or put away with its history kept ("shut down #old-promo but keep the history"): archived.
  { said: /\b(?:keep|keeping|keeps|preserve|preserving|save|saving)\s+(?:its|the|their|all\s+(?:the|its)|it)\s+(?:history|messages|record|readable|read-only|around\s+for\s+reference)\b|\bkeep\s+it\s+(?:readable|read-only|around\s+for\s+(?:the\s+)?(?:history|reference|records))\b/i, words: ['archive'] },
  // An amount knocked or taken off a thing ("knock $15 off invoice in_1Op", "take 10% off their bill"; not "take it off my list", a removal): its amount reduced, adjusted.
  { said: /\b(?:knock|knocks|knocking|knocked|shave|shaving|dock|docking)\s+(?:[$£€]\s?\d[\d,.]*|\d[\d,.]*\s?(?:dollars|euros|pounds|%)|it|that|this|them|the\s+(?:fee|charge|cost|amount|difference))\s+off\b|\b(?:take|taking)\s+(?:[$£€]\s?\d[\d,.]*|\d[\d,.]*\s?(?:dollars|euros|pounds|%))\s+off\b/i, words: ['reduce', 'adjust', 'amount'] },
  // A page or a board of charts or gadgets ("an overview page with charts", "a board of gadgets"): a dashboard.
  { said: /\b(?:page|board|screen|view)s?\s+(?:of|with|full\s+of)\s+(?:\S+\s+){0,2}?(?:charts?|gadgets?|graphs?|widgets?)\b|\b(?:charts?|gadgets?|graphs?|widgets?)\s+(?:page|board)\b/i, words: ['dashboard'] },
  // A task broken into smaller pieces, or a step added under one ("break it into smaller bits", "add a sub-step under the launch task"): its subtasks.
  { said: /\b(?:break|breaking|split|splitting)\s+(?:\S+\s+){0,8}?(?:into|up\s+into|down\s+into)\s+(?:\S+\s+){0,2}?(?:pieces|bits|parts|steps|chunks|tasks)\b|\bsub-?(?:steps?|items?)\b|\bunder(?:neath)?\s+(?:the\s+)?(?:['"‘“][^'"’”]+['"’”]\s+)?(?:task|to-?do|job)\b|\bunder(?:neath)?\s+(?:the\s+)?['"‘“][^'"’”]+['"’”]\s*(?:task)?\s*,?\s+add\b/i, words: ['subtask'] },
  // People one pays for ("which members are we actually paying for?", "how many people are we paying for on our plan"): the billable ones.
  { said: /\b(?:people|users|members|seats|accounts|folks|who)\b[^.?!]{0,40}?\b(?:paying|paid|pay|billed|charged)\s+for\b/i, words: ['billable'] },
  // Whether people or places are open or booked at a time ("when are Sam and Priya both free Thursday?", "is anyone booked between 2 and 4?"): their free and busy times.
  { said: FREE_OR_BOOKED, words: ['free', 'busy'] },
  // Whether someone is online or away now ("Is Tom online right now?", "is Marco on Slack right now", "whether she's showing as active"): their presence.
  { said: /\b(?:is|are|she's|he's|they're|whether|if)\s+(?:(?!going\b|moving\b|being\b)\S+\s+){0,2}?(?:currently\s+|still\s+|showing\s+(?:as\s+)?)?(?:online|offline|active|away|idle)\b(?!\s+(?:\w+\s+)?(?:users?|members?|accounts?|subscriptions?|sessions?|projects?|repos?|repositories|alerts?|runners?|ones?))/i, words: ['presence'] },
  { said: /\b(?:[Ii]s|[Aa]re)\s+[A-Z][\w-]*\s+on\s+(?:[A-Z][\w-]*\s+)?(?:right\s+)?now\b/, words: ['presence'] },
  // A workflow or job started by hand, or now on a branch ("manually fire the deploy workflow", "kick off deploy.yml on the release branch"): dispatched.
  { said: /\b(?:manually|by\s+hand)\b[^.?!]{0,60}?\b(?:workflows?|jobs?|pipelines?|[\w-]+\.ya?ml)\b|\b(?:workflows?|jobs?|pipelines?|[\w-]+\.ya?ml)\b[^.?!]{0,60}?\b(?:manually|by\s+hand)\b|\b(?:trigger|kick\s+off|fire|fire\s+off|run|start|launch)\s+(?:the\s+|our\s+)?[\w.-]+(?:\.ya?ml|\s+(?:workflow|job|pipeline))\b[^.?!]{0,40}?\bon\s+(?:the\s+)?(?:main|master|develop|[\w/.-]+\s+branch|branch\s+[\w/.-]+|[\w-]+\/[\w/.-]+)\b/i, words: ['dispatch'] },
  // An account locked or kept from signing in, not deleted ("lock his account until he's back", "stop them signing in", "unable to log in but keep the account"): the user blocked.
  { said: /\b(?:lock|locks|locked|locking|disable|disabled|disabling|suspend|suspended|freeze|frozen)\s+(?:down\s+)?(?:(?:his|her|their|the|that|this|its|my|our|[\w.-]+'s?)\s+)?(?:\w+\s+)?(?:account|login|log-?in|sign-?in)\b|\b(?:can't|cannot|can\s+not|couldn't|unable\s+to|(?:not|shouldn't|should\s+not)\s+be\s+able\s+to|stop\s+(?:\w+\s+){1,2}?from|stop\s+(?:them|him|her|\w+)\s+(?:from\s+)?)\s*(?:sign(?:ing)?|log(?:ging)?)\s*(?:in|on)\b/i, words: ['block'] },
  // Many things done in one request ("open them all as tickets in one go", "in a single call", "all at once"): in bulk.
  { said: /\bin\s+(?:one|a\s+single)\s+(?:go|shot|call|request|batch|pass)\b|\ball\s+at\s+once\b/i, words: ['bulk'] },
  // What someone will be charged next ("what will cus_Q1 be charged on their next billing cycle?", "preview their next bill"): the upcoming invoice.
  { said: /\b(?:will|going\s+to|gonna)\s+(?:\S+\s+){0,2}?(?:be\s+)?(?:charged|billed|owe)\b|\b(?:preview|look\s+like|what\s+(?:will|would))\b[^.?!]{0,40}?\bnext\s+(?:bill|invoice|billing\s+cycle|renewal|charge)\b|\bnext\s+(?:bill|invoice|renewal)\s+(?:will|would)\s+(?:look|be|come)\b/i, words: ['upcoming', 'invoice'] },
  // Words a repository is tagged with so people find it ("tag the docs repo with markdown and api", "the discovery tags on acme/kit", "set our tokens repo's tags to figma and ios"): its topics; not a version's tag, an issue's label, nor the tags one reads.
  { said: /\b(?:discovery|subject|search|topic)\s+(?:tags|keywords)\b|\btag(?:s|ged|ging)?\b[^.?!]{0,80}?\bso\s+(?:that\s+)?(?:people|others|folks|users|students|customers|devs|developers|it|they)\b[^.?!]{0,30}?\b(?:find|discover|browse|search)|^(?!\s*(?:list|show|what|which|get|fetch|pull|are|is|how|do|does)\b)(?![^.?!]*(?:#\d|\b(?:v\d|\d+\.\d+|releases?|commits?|sha|semver|issues?|prs?|pull|tickets?|labels?)\b))[^.?!]*\b(?:tag|tags|tagged|keywords)\b(?=[^.?!]*\b(?:repo|repository)\b)/i, words: ['topic'] },
  // A message only one person in a place sees ("tell Ana privately, inside #bookings", "only visible to them", "nobody else in the channel should see it"): an ephemeral one.
  { said: /\bonly[\s-]+visible[\s-]+to\b|\bvisible\s+only\s+to\b|\bonly\s+(?:\S+\s+){0,3}?(?:can|could|should|will|would|gets?\s+to)\s+see\b|\b(?:nobody|no\s*one|none\s+of\s+the\s+others)\s+else\b[^.?!]{0,40}?\bsee\b|\bnot\s+the\s+(?:whole|entire)\s+(?:channel|room|group)\b|\bthe\s+rest\s+of\s+the\s+(?:channel|room|group)\s+(?:must|should|can|will)\s*(?:not|n't)\b|\bprivately,?\s+(?:inside|in|within)\s+(?:#|the\s+)/i, words: ['ephemeral'] },
  // An emoji put on a message ("put a ✅ on Sandra's message", "react with :tada: to that post"): a reaction.
  { said: /\bemoji\s+(?:on|to|under)\s+(?:\S+\s+){0,5}?(?:message|messages|msg|post|posts|announcement|question|report|reply|comment|thread|update|note)\b|\breact(?:ed|ing|s)?\s+(?:with|to|on)\b/i, words: ['reaction'] },
  // A group of people in an organization ("set up a 'Volunteers' group in our GitHub org", "a group in the school's org for the club kids"): its team.
  { said: /\bgroups?\b[^.?!]{0,60}?\b(?:in|inside|within|for)\s+(?:\S+\s+){0,3}?(?:org|orgs|organi[sz]ations?)\b|\b(?:org|organi[sz]ation)(?:'s)?\s+(?:\S+\s+){0,2}?groups?\b/i, words: ['team'] },
  // Software others publish, looked for ("open-source Swift projects about VoiceOver", "are there any public projects out there for …", "look around GitHub for …"): repositories searched.
  { said: /\b(?:open[\s-]?source|public|popular|well[\s-]starred|existing)\s+(?:\S+\s+){0,2}?(?:projects?|libraries|library|tools|apps|systems|repos|repositories)\b[^.?!]{0,60}?\b(?:about|for|on|out\s+there|written|with|that)\b|\b(?:any|some)\s+(?:\S+\s+){0,3}?projects?\s+(?:out\s+there|on\s+github)\b|\b(?:look|search|dig)\s+(?:around|across)\s+github\b|\blook\s+on\s+github\s+for\b/i, words: ['repository', 'search'] },
  // Dependencies with known security holes ("vulnerable packages in our repo", "Dependabot warnings", "known vulns"): the alerts a dependency scanner raises.
  { said: /\bvulnerab\w*\s+(?:\S+\s+)?(?:dependenc\w*|packages?|librar\w+|deps|versions?)\b|\b(?:dependenc\w*|packages?|librar\w+|deps|versions?)\b[^.?!]{0,40}?\b(?:flagged\s+as\s+vulnerable|known\s+(?:security\s+)?(?:holes|vulns?|vulnerabilit\w+))|\bdependabot\b|\bknown\s+vulns?\b/i, words: ['dependabot', 'alert'] },
  // Licences held by people ("who in our org has a Copilot license", "how many licences have we handed out"): seats.
  { said: /\blicen[cs]es?\b[^.?!]{0,40}?\b(?:handed\s+out|assigned|held|paying\s+for|in\s+use)\b|\b(?:holds?|holding|has|have|had)\s+(?:an?\s+|each\s+|one\s+)?(?:\S+\s+)?licen[cs]es?\b|\bpaying\s+(?:for\s+)?(?:\S+\s+){0,3}?licen[cs]es?\b/i, words: ['seat'] },
  // A token a machine registers itself with ("a token to register a new self-hosted runner", "a token so it can register as a runner"): a registration token.
  { said: /\btokens?\b[^.?!]{0,40}?\b(?:to|so\b[^.?!]{0,30}?\b(?:can|could))\s+register\b/i, words: ['registration'] },
  // Code found by what it says ("every file in the org that still imports 'moment'", "where do we throw QuotaExceededException in our code", "grep every repo"): a code search.
  { said: /\b(?:files?|places?|code|codebase|source)\b[^.?!]{0,40}?\b(?:calls?|calling|imports?|importing|mentions?|mentioning|hard-?codes?|contains?|throws?|references?|uses?|using)\b|\bgrep\b|\b(?:across|in|through|search)\s+(?:our|the|all\s+the|public|all\s+our)\s+(?:code|codebase|source)\b/i, words: ['code', 'search'] },
  // A person let in to work on a repository ("let my client sarah-acme into the repo", "let Mara push changes to studio-site"), not a team: a collaborator.
  { said: /^(?![^.?!]*\b(?:team|teams|squad|group)\b)[^.?!]*?\b(?:let|allow)\s+(?:\S+\s+){1,6}?(?:push|commit|edit|contribute|help\s+out|into|in\s+on)\b[^.?!]{0,40}?\b(?:repo|repos|repository|[\w.-]+\/[\w.-]+)\b/i, words: ['collaborator'] },
  // A thing to go by another name ("change the name of master to main", "can 'summer-camp-2023' just be called 'summer-camp' now?", "to be known as 'main' henceforth"): renamed.
  { said: /\bchange\s+(?:the\s+)?name\s+of\b|\bchange\s+\S+'s\s+name\b|\b(?:be\s+)?(?:called|named|known\s+as)\s+\S+\s+(?:instead|now|henceforth|from\s+now\s+on|going\s+forward)\b|(?:^|\b(?:we|you|just|please)\s+)call\s+(?:\S+\s+){1,4}?\S+\s+instead\b/i, words: ['rename'] },
  // A person's access to a repository taken away ("remove their access to the private repo 'billing-service'", "take kmorgan's access to tax-calc away", "take him off the fuel-card-reports repo"): a collaborator removed.
  { said: /\b(?:remove|revoke|take\s+away|cut\s+off)\s+(?:(?:their|his|her|\S+'s)\s+)?access\s+to\s+(?:(?:the|our|my)\s+)?(?:\S+\s+){0,3}?(?:repo|repository)\b|\btake\s+(?:\S+'s|their|his|her)\s+access\s+to\s+\S+\s+(?:(?:repo|repository)\s+)?away\b|\b(?:take|pull|kick)\s+(?:him|her|them|[a-z][\w-]*)\s+off\s+(?:the\s+|our\s+)?\S+\s+(?:repo|repository)\b/i, words: ['collaborator'] },
  // Someone put where one bills people ("add her to our billing records", "set him up in our payment system so we can bill him", "as a payer"): a customer.
  { said: /\b(?:to|in|into)\s+(?:our|the|my)\s+(?:\S+\s+)?(?:billing|payment|payments|member|donor|client)\s+(?:records?|system|profiles?|list)\b|\b(?:in|into)\s+(?:our\s+|the\s+)?billing\b(?!\s+(?:portal|page|settings?|address|cycle|email|details))|\bso\s+(?:that\s+)?(?:we|i)\s+can\s+(?:bill|charge|invoice)\s+(?:her|him|them)\b|\bas\s+an?\s+(?:new\s+)?payer\b|\bnew\s+billing\s+profile\b/i, words: ['customer'] },
  // Someone who pays found by their email ("find the donor whose email is …", "do we have a billing record for jo@x.io?", "look her up by janet@x.org"): a customer.
  { said: /\b(?:find|look\s+up|pull\s+up|search\s+for|locate|lookup)\b[^.?!]{0,50}?\b(?:whose\s+email|with\s+(?:the\s+)?email|by\s+(?:their\s+|her\s+|his\s+)?email|email\s+is)\b|\b(?:her|his|their)\s+email\s+is\b|\b(?:record|profile|on\s+file)\s+(?:with|for)\s+(?:the\s+email\s+)?\S+@|\blook\s+(?:her|him|them)\s+up\s+by\s+\S+@/i, words: ['customer'] },
  // Words put on a payment terminal's screen ("show 'Tap to pay' on the card reader tmr_55Hq", "put the cart total up on the reader screen"): its display.
  { said: /\b(?:show|put|display|have)\b[^.?!]{0,100}?\b(?:on|up\s+on)\s+(?:the\s+)?(?:\S+\s+){0,3}?(?:card\s+)?(?:reader|terminal|card\s+machine)\b|\b(?:reader|terminal|card\s+machine)\s+(?:\S+\s+){0,2}?(?:to\s+)?show\b|\bscreen\s+of\s+(?:the\s+)?(?:card\s+)?(?:reader|terminal)\b/i, words: ['display'] },
  // Money in and out of a balance ("every movement that hit our balance in Q1", "all the fees and ins and outs that hit my balance", "every money movement"): its transactions.
  { said: /\b(?:movements?|transactions?|ins\s+and\s+outs|entries|fees?)\b[^.?!]{0,50}?\b(?:hit|moved|affected|in|on|of|to)\s+(?:our|my|the)\s+(?:\S+\s+)?balance\b|\bbalance\s+(?:movements?|changes)\b|\bmoney\s+movements?\b/i, words: ['balance', 'transaction'] },
  // A lasting link to a message or post ("a direct link to the message where Karen approved it", "a shareable URL for that message"): its permalink.
  { said: /\b(?:links?|urls?)\s+(?:to|for|of)\s+(?:\S+\s+){0,4}?(?:message|post|reply|thread)\b|\b(?:shareable|sharable|direct|permanent|stable)\s+(?:links?|urls?)\b[^.?!]{0,40}?\b(?:message|post|reply|thread)\b/i, words: ['permalink'] },
  // The people on a ticket told something ("email the assignee and watchers of LOC-310 that …", "let everyone watching RADIO-150 know"): a notification sent.
  { said: /\b(?:email|e-mail|ping|notify|tell|message|alert)\s+(?:\S+\s+){0,3}?(?:assignees?|watchers?|reporters?|followers?|stakeholders?|everyone\s+(?:on|watching|following)|people\s+(?:on|watching|following))\b[^.?!]{0,60}?\b(?:that|about|to\s+(?:let\s+them\s+know|say|tell))\b|\blet\s+(?:everyone|everybody|the\s+(?:watchers|assignee|reporter)|people)\s+(?:watching|following|on)\s+(?:\S+\s+){0,4}?know\b/i, words: ['notification'] },
  // A copy brought level with where it came from ("my fork is 40 commits behind the original", "catch my copy up with the original repo's main"): synced with its upstream.
  { said: /\bcommits?\s+behind\b|\b(?:behind|up\s+to\s+date\s+with|catch\w*\s+(?:\S+\s+){0,4}?up\s+(?:with|to)|level\s+with|in\s+sync\s+with|pull\s+in\s+their)\b[^.?!]{0,40}?\b(?:original|upstream|theirs|their\s+(?:main|latest)|parent\s+repo)\b/i, words: ['upstream', 'sync'] },
  // A thing brought over from another system, or keeping the ID it had there ("bring the seminar from the .ics file into our calendar", "keeping its original iCal UID"): imported.
  { said: /\b(?:bring|brings|brought|bringing|load|copy|carry|migrate)\b[^.?!]{0,60}?\b(?:from|out\s+of)\s+(?:\S+\s+){0,4}?(?:old|previous|legacy|\.ics|ics|export|system|tool)\b|\bkeep\w*\s+(?:its|their|the)\s+(?:original\s+|existing\s+|own\s+)?(?:ical\s*uids?|uids?|ids?|event\s+ids?)\b|\.ics\b/i, words: ['import'] },
  // The rate one currency is worth in another ("what FX rate is Stripe using for CAD", "one euro in dollars at today's rate"): the exchange rate.
  { said: /\b(?:fx|forex|conversion|currency)\s+rates?\b|\brates?\b[^.?!]{0,30}?\b(?:usd|eur|gbp|cad|jpy|aud|chf|euros?|dollars?|pounds?|yen)\b|\b(?:usd|eur|gbp|cad|jpy|aud)\s*(?:→|->|to|\/)\s*(?:usd|eur|gbp|cad|jpy|aud)\b|\bworth\s+in\s+(?:dollars|euros|pounds|yen)\b/i, words: ['exchange', 'rate'] },
  // A credential asked whose it is ("which user and workspace does this token belong to?", "what does it resolve to"): a check of authentication, which answers who it is.
  { said: /\b(?:tokens?|keys?|credentials?)\b[^.?!]{0,40}?\b(?:belongs?\s+to|resolves?\s+to|maps?\s+to|authenticates?\s+as|signed\s+in\s+as)\b|\bwhose\s+(?:\S+\s+)?(?:token|key|credential)\b|\b(?:token|key|credential)\b[^.?!]{0,20}?\bwhose\b|\b(?:tokens?|keys?|credentials?)\s+(?:still\s+)?(?:valid|good|working)\b/i, words: ['authentication', 'check'] },
  // A run held until someone signs off an environment ("run 7788 is waiting on the prod environment gate", "waiting for someone to OK the production environment"): its pending deployments.
  { said: /\bwaiting\s+(?:on|for|at)\b[^.?!]{0,50}?\benvironments?\b|\b(?:sitting|stuck|held|waiting)\s+at\s+(?:the\s+)?[\w-]+\s+environment\b/i, words: ['pending', 'deployment'] },
  // A token another system uses to start pipelines ("a token our test harness can use to fire pipelines"): a trigger.
  { said: /\btokens?\b[^.?!]{0,40}?\b(?:start|trigger|fire|kick\s+off|run|launch)(?:s|ed|ing)?\s+(?:\S+\s+){0,2}?(?:pipelines?|builds?|jobs?)\b/i, words: ['trigger'] },
  // Who has been given access to a place ("who has access to our case-tracker repository?", "everyone who's been given access"): its collaborators.
  { said: /\b(?:who(?:'s|\s+has|\s+have|\s+all|\s+currently\s+has|\s+can\s+get\s+into|'s\s+got)|everyone|everybody|anyone|people|users)\b[^.?!]{0,30}?\b(?:access\s+to|get\s+into|been\s+(?:given|granted)\s+access|been\s+added\s+to)\b/i, words: ['collaborator'] },
  // Quoted names stuck or slapped on an issue, or an issue tagged with one ("stick 'bug' and 'urgent' on issue 77", "tag issue 58 with 'good first issue'"): its labels.
  { said: /\b(?:stick|slap|put|add|tag|apply)\s+['"‘“][^'"’”]+['"’”](?:\s*(?:,|and|\+|&)\s*['"‘“][^'"’”]+['"’”])*\s+(?:on|to|onto)\s+(?:the\s+)?(?:\S+\s+)?(?:issues?|tickets?|prs?|pull\s+requests?|#\d+)\b|\b(?:tag|flag)\s+(?:\S+\s+){0,4}?(?:issues?|tickets?|prs?|pull\s+requests?|#\d+)\b[^.?!]{0,40}?\b(?:with|as)\s+['"‘“]/i, words: ['label'] },
  // A thing emailed to someone ("email the finalized invoice to the client", "email the Nguyen couple their invoice"): sent.
  { said: /(?:^|[.;:!?]\s+|\b(?:please|pls|you|and|then|now)\s+)e-?mail\s+(?!address(?:es)?\b|notifications?\b)(?:\S+\s+){0,8}?(?:to|their|his|her|them)\b/i, words: ['send'] },
  // A payment page someone else hosts ("a hosted payment page for 3 VIP tables", "send users to a hosted checkout"): a checkout.
  { said: /\bhosted\s+(?:\S+\s+){0,2}?(?:payment|checkout|pay)\s*(?:page|form|screen)?\b/i, words: ['checkout'] },
  // The line shown at the top of a channel ("change the line at the top of #oncall", "the #docs header"): its topic.
  { said: /\b(?:header|heading|line|text|banner|what(?:'s|\s+it)\s+(?:says|shown|displayed))\s+(?:\S+\s+){0,2}?(?:at\s+the\s+top\s+of|of|in|on)\s+#[\w-]+|#[\w-]+\s+(?:header|heading|banner)\b/i, words: ['topic'] },
  // The version or build a site or server runs ("which Jira version and build is this site running?"): the instance's information.
  { said: /\b(?:version|build)\b[^.?!]{0,40}?\b(?:site|instance|server|we|this|our)\b[^.?!]{0,20}?\b(?:running|run|on)\b|\b(?:instance|site|server)(?:'s)?\s+(?:\S+\s+){0,2}?(?:version|build)\b/i, words: ['instance', 'server', 'info'] },
  // A place emptied of everything in it ("wipe every event off my main calendar", "empty out my primary calendar"): cleared.
  { said: /\b(?:wipe|wiped|wiping|empty|emptied|emptying|purge|purged|rm\s+-rf)\s+(?:out\s+)?(?:every|all|everything|the\s+whole|each)\b|\b(?:every|all)\s+(?:single\s+)?\w+\s+(?:\S+\s+){0,5}?(?:wiped|wipe|emptied)\b|\bempty\s+out\b/i, words: ['clear'] },
  // A thing kept from expiring or being cleaned up ("don't let build 88213's artifacts expire", "make sure they stick around", "… so they don't expire"): kept.
  { said: /\b(?:don't|do\s+not|never)\s+let\s+(?:\S+\s+){1,5}?(?:expire|lapse|get\s+(?:deleted|cleaned\s+up|removed)|be\s+(?:deleted|cleaned\s+up|removed))\b|\bstick\s+around\b|\b(?:don't|doesn't|do\s+not|does\s+not|won't|will\s+not|never)\s+(?:get\s+|be\s+)?(?:expire|expired|lapse|deleted|cleaned\s+up)\b|\b(?:will|'ll)\s+be\s+cleaned\s+up\b/i, words: ['keep'] },
  // What an organization spent on a service ("what the org spent on Actions minutes and storage", "how much is the org spending"): its billing usage.
  { said: /\b(?:spent|spending)\s+(?:\S+\s+){0,3}?on\b|\bhow\s+much\s+(?:did|does|do|is|has|have)\s+(?:\S+\s+){1,4}?(?:spend|spent|spending)\b/i, words: ['billing', 'usage'] },
  // A domain asked whether it is set up right ("is the DNS for our custom domain set up right?", "isn't resolving after the domain change"): a health check.
  { said: /\b(?:dns|domain)\b[^.?!]{0,40}?\b(?:set\s+up\s+(?:right|correctly|properly)|(?:isn't|is\s+not|not)\s+resolving|configured\s+(?:right|correctly|properly)|settings\s+(?:\S+\s+){0,3}?(?:are\s+)?correct)\b|\bdns\s+check\b/i, words: ['health', 'check'] },
  // A file or config checked for errors, or asked whether it is valid ("check this CI config for syntax errors before I push it"): validated, linted.
  { said: /\bcheck\w*\s+(?:\S+\s+){0,5}?for\s+(?:syntax\s+|any\s+)?(?:errors|mistakes|typos)\b|\b(?:config|configuration|yaml|yml|file)\s+(?:\S+\s+){0,2}?(?:valid|invalid)\b|\bis\s+(?:this|my|the|our)\s+(?:\S+\s+){0,3}?(?:config|configuration|yaml|yml|file)\s+(?:\S+\s+){0,2}?valid\b/i, words: ['validate', 'validation', 'lint'] },
  // A system to be called back when things happen ("have our app get called back whenever …", "subscribe our app to issue_created events"): a webhook.
  { said: /\bcalled\s+back\b|\bcallback\s+(?:url|endpoint|address)\b|\b(?:get|gets|be|getting)\s+called\s+(?:when|whenever|every|each|if)\b|\bsubscribe\s+(?:our|my|the)\s+(?:app|service|server|bot|endpoint)\s+to\b/i, words: ['webhook'] },
  // A group given access to a project ("give the art group access to our project", "let the QA group into project 412"): the project shared with it.
  { said: /\b(?:give|grant|let)\s+(?:the\s+|our\s+)?(?:\S+\s+){0,2}?group\s+(?:\d+\s+)?(?:\S+\s+){0,3}?(?:access|into)\b|\bgroup\s+\d+\s+(?:\S+\s+){0,3}?access\b/i, words: ['share'] },
  // A paused thing started again ("the paused plan isn't billing anymore, get it running again", "unpause it"): resumed.
  { said: /\bpaused\b[^.?!]{0,80}?\b(?:again|back\s+on|running|restart\w*|resum\w*)\b|\bunpause\w*\b/i, words: ['resume'] },
  // Things found by what a field of theirs holds ("every payment whose metadata sailing_id is …", "using a query like amount>10000"): a search.
  { said: /\b(?:whose|where\s+(?:the|its|their)?)\s*(?:\S+\s+){0,2}?(?:metadata|billing\s+email|email|amount)\b|\busing\s+a\s+(?:search\s+)?query\b|\bquery\s+like\b/i, words: ['search'] },
  // A code people type to get a discount ("guests type GALA20 at checkout and get 20% off"): a promotion code.
  { said: /\b(?:type|enter|use|redeem|apply)\s+(?:\S+\s+){0,3}?(?:at|during|on)\s+(?:the\s+)?(?:checkout|signup|sign-up|registration)\b|\b(?:discount|promo)\s+codes?\b|\bcodes?\b[^.?!]{0,40}?\b(?:\d+\s?%\s*off|discount)\b/i, words: ['promotion', 'code'] },
  // A card machine or terminal at a shop ("pair the new card machine at the Camden shop"): a terminal's reader.
  { said: /\bcard\s+(?:machines?|terminals?)\b|\b(?:countertop|pos)\s+(?:\S+\s+)?(?:machines?|terminals?|readers?)\b/i, words: ['terminal', 'reader'] },
  // Money credited back against an invoice ("issue a partial credit against that invoice", "a $25 adjustment against invoice in_1R9"), or taken off one already issued
  // ("knock $80 off invoice in_1Q2", "reduce what they owe on it", "adjust the finalized invoice down by $40"): a credit note.
  { said: /\b(?:credit|adjustment)\s+(?:against|on)\s+(?:\S+\s+){0,4}?invoices?\b|\bpartial\s+credit\b|\bissu\w*\s+(?:\S+\s+){0,3}?credit\s+(?:for|against|on)\b|\b(?:knock|take|shave|knocking|taking)\s+(?:\S+\s+){0,4}?off\s+(?:\S+\s+){0,4}?invoices?\b|\b(?:reduce|reducing|lower|adjust)\s+(?:\S+\s+){0,4}?(?:invoices?\b|what\s+(?:they|he|she|it|the\s+\w+)\s+owes?\b)|\bfinali[sz]ed\s+invoice\b[^.?!]{0,60}?\b(?:down\s+by|knock|take\s+\S+\s+off|reduce)\b/i, words: ['credit', 'note'] },
  // A part of a project that work is sorted under ("add a 'Netcode' area to the GAME project", "a category so tickets can be grouped under it"): a component.
  { said: /\b(?:area|category|module|subsystem)\s+(?:\S+\s+){0,2}?(?:in|inside|to|within|for)\s+(?:the\s+)?(?:\S+\s+)?project\b|\b(?:area|category)\b[^.?!]{0,60}?\bso\s+(?:\S+\s+){0,3}?(?:tickets|issues|bugs|work)\s+(?:can\s+be\s+|get\s+)?(?:sort|group|file|rout)\w*/i, words: ['component'] },
  // Someone taken or kicked out of a place, or offboarded ("take dr-kowalski-it out of the pawsome-vets organization", "offboard alex-temp from the acme org"): one of its members.
  { said: /\b(?:take|taking|kick|kicking|boot|booting|throw|get)\s+(?!it\b|this\b|that\b|the\b)\S+\s+out\s+of\b|\boffboard\w*\b/i, words: ['member'] },
  // A repository served or published as a website ("get it published as a website", "turn on free static hosting"): its pages site.
  { said: /\b(?:served|serve|publish\w*|show(?:ing)?\s+up|put\s+\S+\s+online)\s+(?:\S+\s+){0,4}?(?:as\s+)?(?:a\s+)?(?:real\s+|public\s+|static\s+)?(?:web\s?site|web\s+page|microsite)\b|\b(?:website|static|free\s+static)\s+hosting\b|\bgh-pages\b/i, words: ['pages', 'site'] },
  // A field of one's own kind, or one to be used across a workspace ("a Priority dropdown field with High, Medium and Low", "a 'Client ID' field across the whole workspace"): a custom field.
  { said: /\b(?:dropdown|drop-down|numeric|single-select|multi-select|picklist|select)\s+(?:field|column)\b|\b(?:a|an)\s+(?:\S+\s+){0,3}?(?:number|text|date)\s+field\b|\bfields?\b[^.?!]{0,60}?\b(?:across|on\s+(?:every|any|all))\s+(?:\S+\s+){0,2}?(?:projects?|tasks?|workspace|issues?)\b/i, words: ['custom', 'field'] },
  // A list of things refused or let through ("put that address on our blocked emails list", "our Radar blocklist"): a list of values.
  { said: /\b(?:block|blocked|deny|denied|allow|allowed|safe)[\s-]?(?:\S+\s+)?lists?\b|\b(?:blocklist|allowlist|denylist|blacklist|whitelist)s?\b/i, words: ['value', 'list'] },
  // A project hooked up to another service ("hook project 42 up to our Slack so pushes get posted"): an integration with that service.
  { said: /\bhook\s+(?:\S+\s+){0,4}?up\s+(?:to|with)\b/i, words: ['service', 'integration'] },
  // A program told of every change ("our bot needs to hear about every change in project 4412", "get our pipeline notified every time …"): a webhook.
  { said: /\b(?:bot|service|server|pipeline|app|integration|system|script|ci)\b[^.?!]{0,40}?\b(?:hear\s+about|(?:get|be|gets)\s+notified|get\s+a\s+callback|know\s+about)\b|\bpush\s+(?:\S+\s+){0,3}?changes\b[^.?!]{0,40}?\bhttps?:\/\//i, words: ['webhook'] },
  // Words to be said or written on a ticket ("On BOOK-42 say it happened again", "on TRUCK-9 write that the inspector is coming"): a comment.
  { said: /\b(?:on|in|under)\s+(?:[a-z][a-z0-9]*-\d+|#\d+|(?:issue|ticket|pr|task)\s+#?\d+)\s*[,:]?\s+(?:just\s+)?(?:say|write|note|mention|add\s+that|let\s+them\s+know)\b/i, words: ['comment'] },
  // A language named as the one to use ("switch my Jira to French", "show everything in German"): the locale.
  { said: /\b(?:switch|set|change|put|show|display|make|use|see)\b[^.?!'"‘“]{0,30}?\b(?:to|in|into)\s+(?:english|french|german|spanish|italian|portuguese|japanese|chinese|korean|dutch|polish|russian|swedish|norwegian|danish|finnish|turkish|arabic|hindi|hebrew|czech|ukrainian)\b/i, words: ['locale', 'language'] },
  // Tokens, keys or passwords revoked or invalidated ("invalidate these personal access tokens now", "the keys must be revoked"): credentials.
  { said: /\b(?:revok\w*|invalidat\w*|kill|killed)\b[^.?!]{0,60}?\b(?:tokens?|keys?|passwords?)\b|\b(?:tokens?|keys?|passwords?)\b[^.?!]{0,80}?\b(?:revok\w*|invalidat\w*|killed)\b/i, words: ['credential'] },
  // What a change request changes ("what's the diff on MR 42", "what files does merge request 17 touch?"): its changes.
  { said: /\bdiffs?\s+(?:on|for|of|in)\s+(?:the\s+)?(?:mr|merge\s+request|pr|pull\s+request|!)|\bwhat\s+files\s+(?:does|did|do|will)\b[^.?!]{0,40}?\b(?:touch|change|modify)\b/i, words: ['changes'] },
  // Someone's access or sharing taken away ("take away his access to the schedule calendar", "revoke the consultant's sharing"): a rule of access control.
  { said: /\b(?:take\s+away|remove|revoke|cut\s+off|end)\s+(?:\S+\s+){0,3}?(?:access|sharing)\b|\b(?:access|sharing)\s+(?:\S+\s+){0,3}?(?:to\s+go|taken\s+away|removed|revoked)\b/i, words: ['access', 'control'] },
  // A page where customers manage their own billing ("a self-service billing page link", "our 'Manage billing' button"): the customer portal.
  // So do a link where someone sorts out their own card or plan ("a link where they can update their card and cancel", "update their card themselves").
  { said: /\bself[\s-]?serv(?:e|ice)\b[^.?!]{0,30}?\b(?:billing|portal|page|link)\b|\bmanage\s+(?:their|my|your)?\s*(?:own\s+)?billing\b|\b(?:links?|page|url)\b[^.?!]{0,40}?\b(?:where|so|that)\b[^.?!]{0,40}?\b(?:update|change|swap|fix|manage|sort\s+out)\s+(?:their|his|her|my|your)\s+(?:own\s+)?(?:card|cards|payment|billing|plan|subscription)\b|\b(?:update|change|swap|fix|manage|sort\s+out)\s+(?:their|his|her|my|your)\s+(?:own\s+)?(?:card|payment\s+(?:details|method)|billing|plan|subscription)\b[^.?!]{0,40}?\b(?:themselves|himself|herself|myself|on\s+(?:their|his|her|my)\s+own)\b/i, words: ['portal'] },
  // A thing that exists made another's child ("make task 3321 a subtask of 3300", "nest 'Invoice' under the order task", "should sit under 'Prep'"): its parent is set.
  { said: /\b(?:a|an)\s+(?:sub-?task|child|sub-?item)\s+of\b|\bas\s+(?:its|their|a)\s+(?:child|sub-?task)\b|\bnest(?:s|ed|ing)?\b[^.?!]{0,60}?\b(?:under|underneath|beneath|inside|within)\b|\b(?:sit|sits|live|lives|belong|belongs)\s+(?:under|underneath|beneath)\b/i, words: ['parent'] },
  // Someone signed up for or put on a plan, a tier or a price that recurs ("sign cus_P3 up for the $5/month tier", "put member cus_Q8 on the $89/month price"): a subscription.
  { said: /\b(?:sign|signs|signed|signing|put|puts|putting|enrol+|enrol+s|enrol+ed|enrol+ing)\s+(?:\S+\s+){1,5}?(?:up\s+(?:for|to|on)|on|in(?:to)?)\s+(?:the|a|an|our|their)\s+(?:[^.?!]{0,40}?)(?:\/\s?(?:mo|month|wk|week|yr|year)\b|monthly|weekly|yearly|annual|per\s+(?:month|week|year)|a\s+(?:month|week|year)\b)/i, words: ['subscription'] },
  // A copy of a thing made into one's own account or organization ("copy torvalds/linux into my account", "my own copy of it under our org"): a fork.
  { said: /\bcop(?:y|ied|ying)\b[^.?!]{0,80}?\b(?:under|into|in|to|for)\s+(?:my|our)\s+(?:own\s+)?(?:[\w'-]+\s+){0,2}?(?:account|org|organi[sz]ation|namespace|profile|user)\b|\bown\s+cop(?:y|ies)\b/i, words: ['fork'] },
  // Text asked whether it is well written ("is this JQL even valid?", "syntactically OK", "written correctly", "valid syntax"): it is parsed and validated.
  { said: /\bsyntactically\b|\bvalid\s+syntax\b|\bwritten\s+(?:correctly|right|properly)\b|\b(?:query|queries|jql|sql|expression|syntax|yaml|json|template)\b[^.?!]{0,30}?\b(?:valid|invalid)\b/i, words: ['parse', 'validate'] },
  // Credentials leaked, exposed or committed ("did anyone commit an API key?", "what leaked credentials has GitHub flagged"): what secret scanning alerts on.
  { said: /\b(?:leak(?:ed|s|ing)?|exposed|committed|commit|pushed)\b[^.?!]{0,40}?\b(?:api\s+keys?|access\s+keys?|keys?|tokens?|credentials?|passwords?|secrets?)\b|\b(?:keys?|tokens?|credentials?|passwords?|secrets?)\b[^.?!]{0,30}?\b(?:leak(?:ed|s)?|exposed|got\s+committed|committed|pushed)\b/i, words: ['secret', 'scanning', 'alert'] },
  // An account or access set to stop working at a date ("should stop working on June 30", "lose access automatically on Dec 31"): its expiration.
  { said: /\b(?:stop\s+working|expire|expires|lapse|lapses|lose\s+(?:its\s+|their\s+|his\s+|her\s+)?access(?:\s+automatically)?)\s+(?:on|after|at|from|by)\b/i, words: ['expiration'] },
  // A thing put into storage or out of active use ("put the project into cold storage", "out of the active project list"): archived.
  { said: /\b(?:cold|read-only|long-term|deep)\s+storage\b|\binto\s+storage\b|\bout\s+of\s+(?:the\s+)?active\b/i, words: ['archive'] },
  // An amount added onto someone's next bill ("tack a $25 setup fee onto cus_N's next bill", "so it shows up on their next invoice"): an item of that invoice.
  { said: /\b(?:tack|tacks|tacked|add|adds|added|put|stick)\b[^.?!]{0,60}?\b(?:onto|on|to)\s+(?:\S+\s+){0,3}?(?:next|upcoming|coming)\s+(?:invoice|bill)\b|\b(?:shows?\s+up|lands?|appears?)\s+on\s+(?:their|his|her|the|my|our)\s+(?:next|upcoming)\s+(?:invoice|bill)\b/i, words: ['invoiceitem', 'item'] },
  // A token or a code to register with ("a token to register a runner", "the token so it can register"): a registration token, as catalogues name it.
  { said: /\b(?:tokens?|codes?|keys?)\s+(?:so\s+(?:\S+\s+){1,3}?can\s+|to\s+|for\s+)(?:\S+\s+){0,1}?register(?:ing)?\b/i, words: ['registration'] },
  // Unread things cleared or marked seen ("hundreds of unread pings, clear them all", "flag everything as seen"): marked as read.
  { said: /\bunread\b[^.?!]*?\b(?:clear|mark|flag|dismiss|get\s+rid)\w*\b|\b(?:clear|mark|flag|dismiss)\w*\b[^.?!]*?\bunread\b|\b(?:mark|marked|flag|flagged)\s+(?:\S+\s+){0,3}?as\s+seen\b/i, words: ['mark', 'read'] },
  // Asked who did a thing and when ("who bumped the priority on SUP-9, and when?", "I want to know who and when"): the record of its changes; not when someone did another ("who holds a seat and when they last used it").
  { said: /\bwho\b[^?.!]*?(?:,\s*|\s)(?:and|&)\s+when\b(?!\s+(?:they|he|she|each|we|you|i)\b)/i, words: ['changelog', 'history'] },
];
/** Words that say what a thing looked for says ("messages mentioning the invoice"). */
const MENTIONING = new Set(['mention', 'mentions', 'mentioning', 'mentioned']);
/** Things found by what was said in them ("where someone talked about the rate lock", "said something about the brick sample", "look through messages for …"). */
const TALKED_ABOUT = /\b(?:talked|talking|spoke|speaking|said\s+(?:something|anything)|discussed|discussing|brought\s+up|chatted|chatting|asked)\s+about\b|\blook\s+through\b|\bdig\s+(?:it\s+|them\s+)?(?:up|out)\b/i;
/** What one is told of a thing by ("updates about PAY-9"): not things looked for by what they are about. */
const TOLD_OF = new Set(['updates', 'notifications', 'emails', 'alerts', 'reminders', 'pings', 'news']);
/** Verbs that take a thing out of a place ("remove … from", "take … off"). */
const TAKING_VERBS = new Set(['remove', 'delete', 'take', 'drop', 'clear', 'pull', 'erase', 'wipe', 'scrap']);
/** Verbs that put a thing in a place ("add … to", "put … on", "move … into"). */
const PUTTING_VERBS = new Set(['add', 'put', 'stick', 'drop', 'append', 'insert', 'place', 'include', 'pop', 'throw', 'move', 'drag', 'slide']);
/** Words for a value itself, not for a thing it names ("the email jo@x.io", "that address"). */
const VALUE_NOUNS = new Set(['email', 'address', 'value', 'entry', 'text', 'string', 'number', 'ip', 'domain', 'card', 'fingerprint', 'item', 'line', 'row']);
/** Words that say whose: "to my editor Sam" names a person by role and name. */
const POSSESSIVES = new Set(['my', 'our', 'your', 'his', 'her', 'their']);

/** A number or a value standing alone: which one. */
const ONE_VALUE = new RegExp(`^(?:\\d+|${VALUE})$`);

/** A plural noun ("alerts"), not a word that merely ends in s ("status", "class"). */
const isPlural = (word: string) => /[^su]s$/.test(word);

/** Words before a verb that is not to be done ("without merging"). */
const NEGATING = new Set(['without', 'not', "don't", 'dont', 'never']);
/** Words of wishing or needing between a negation and its verb ("don't want to", "not need to", "never meant to"). */
const NEGATED_WISHES = new Set(['want', 'wanna', 'need', 'mean', 'meant', 'plan', 'intend', 'have']);

/** Words after a command's object that say where it goes or comes from ("kick dave off", "add sam as"). */
/** Prepositions a verb takes before what it acts on ("comment on SUP-9", "reply to the thread"); a plural noun before one is no verb ("issues on my board"). */
const VERB_PREPOSITIONS = new Set(['on', 'to', 'under']);
/** A clause with one of these has its verb there: the word before the preposition is its subject ("member on sub_1 is moving away"). */
const COPULAS = new Set(['is', 'are', 'was', 'were', 'has', 'have', 'had']);
const PLACE_PARTICLES = new Set(['off', 'from', 'out', 'to', 'as', 'into', 'onto', 'on']);
/** Where people are put or taken from: not "as" or "on" ("store the Square key as a secret", "kick off the Android build on main"). */
const PEOPLE_PLACED = new Set(['off', 'from', 'out', 'to', 'into', 'onto']);
/** Who a thing asked for is for, in "where they can …", "so she can …". */
const PURPOSE_SUBJECTS = new Set(['they', 'he', 'she', 'we', 'i', 'you', 'people', 'customers', 'users', 'everyone', 'anyone']);
/** Words that open a clause saying when or why, not what is asked for. */
const CIRCUMSTANCE_OPENERS = new Set(['after', 'before', 'once', 'because', 'since', 'until', 'unless', 'while']);
/** Particles between a thing moved and where it goes ("over to the Done column", "back into Inbox"). */
const MOVING_PARTICLES = new Set(['over', 'across', 'back', 'down', 'up']);
/** The speaker as a command's object, and the particles that take them out of a place. */
const SPEAKER_OBJECTS = new Set(['me', 'myself', 'us', 'ourselves']);
const LEAVING_PARTICLES = new Set(['off', 'from', 'out']);

/** A past participle ("starred", "written"): a verb form, never a name. */
const isParticiple = (word: string) => /(?:ed|en)$/.test(word);
/** How an object starts: a determiner, a pronoun, a number or a value. */
/** Determiners before a thing's name, not a person's. */
const THING_DETERMINERS = new Set(['a', 'an', 'the', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'his', 'her', 'their', 'its']);
const startsObject = (word: string) => DETERMINERS.has(word) || ONE_VALUE.test(word);

/**
 * Whether a read asks for many or for one, by the head of the noun phrase after its verb (the
 * phrase's last word before a gap): a plural lists, a singular followed by a number or value gets.
 */
/** Nouns for a run of things of the kind before them ("event feed", "audit trail"). */
const COLLECTIONS = new Set(['feed', 'trail', 'history', 'log', 'stream', 'timeline', 'list', 'series', 'backlog']);

/** Words before an object that make it many. */
const MANY_QUANTIFIERS = new Set(['all', 'every', 'each']);

function oneOrMany(terms: readonly QueryTerm[], raw: readonly string[], verbAt: number): 'list' | 'get' | undefined {
  const phrase = terms.filter((t) => t.at > verbAt && !t.scope && !t.optional && !t.idPrefix && !isActionForm(t.word));
  if (!phrase.length) return undefined;
  // "Pull every open alert", "retrieve all leaked-credential alerts": a quantifier over its object asks for many.
  if (MANY_QUANTIFIERS.has(raw[verbAt + 1] ?? '') && phrase[0]!.at <= verbAt + 4) return 'list';
  let end = 0;
  while (end + 1 < phrase.length && phrase[end + 1]!.at === phrase[end]!.at + 1) end++;
  const head = phrase[end]!;
  // "The raw event feed", "the audit trail", "login history": a collection of what comes before it.
  if (isPlural(head.word) || (COLLECTIONS.has(head.word) && end > 0)) return 'list';
  return ONE_VALUE.test(raw[head.at + 1] ?? '') ? 'get' : undefined;
}


/**
 * A bare singular word as the subject of a question or a clause, with no determiner before it
 * ("which gists does octocat have", "repos octocat has starred"): a name, not a thing to match.
 */
function bareSubject(raw: readonly string[], i: number): boolean {
  const word = raw[i]!;
  if (DETERMINERS.has(word) || isPlural(word) || word === VALUE) return false;
  const before = raw[i - 1] ?? '';
  const after = raw[i + 1] ?? '';
  // "did workflow run 9001 fail": a word with its number after it is a noun, so this one qualifies it.
  if (isActionForm(word) || isParticiple(word) || word.endsWith('ing') || ONE_VALUE.test(after) || ONE_VALUE.test(raw[i + 2] ?? '')) return false;
  const asks = i >= 2 && (QUESTION_OPENERS.has(raw[i - 2]!) || /s$/.test(raw[i - 2]!) || PERSON_QUESTION.has(raw[i - 2]!));
  // "does octocat follow", "is octocat a member", "has octocat starred": what follows shows the auxiliary is one.
  if (asks && ['does', 'do', 'did', 'can'].includes(before) && after !== '') return true;
  if (asks && ['is', 'was'].includes(before) && (DETERMINERS.has(after) || isParticiple(after))) return true;
  if (asks && ['has', 'have'].includes(before) && isParticiple(after)) return true;
  return ['has', 'have', 'is'].includes(after) && isParticiple(raw[i + 2] ?? '') && !DETERMINERS.has(before) && before !== '';
}

/**
 * Words capitalised after the first word: names ("Dana", "Acme"), unless written all in capitals (PR,
 * CI). A sentence's first word is capitalised anyway: there, a word of the language (a verb, a
 * participle, a stop word: "Billed in error.") is no name.
 */
function namesIn(query: string): Set<string> {
  const names = new Set<string>();
  const tokens = query.split(/\s+/);
  tokens.forEach((token, i) => {
    if (i === 0) return;
    const word = token.replace(/^[^A-Za-z]+|[^A-Za-z']+$/g, '');
    if (!/^[A-Z][a-z]/.test(word)) return;
    const lower = word.toLowerCase().replace(/'s$/, '');
    if (/[.!?]["')]*$/.test(tokens[i - 1]!) && (STOP_WORDS.has(lower) || isActionWord(lower) || /^[a-z]{3,}(?:ed|ing|ly)$/.test(lower))) return;
    names.add(lower);
  });
  return names;
}

/** The months, written capitalised as names are. */
const MONTHS = new Set(['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']);
/** Subjects a statement starts with, before its verb. */
const STATING_SUBJECTS = new Set(['i', 'we', 'they']);
/** Words that open a question answered yes or no. */
const YES_NO_OPENERS = new Set(['is', 'are', 'am', 'was', 'were', 'does', 'do', 'did', 'has', 'have', 'had', 'can', 'could']);

export function parseQuery(query: string): ParsedQuery {
  // "re-run", "un-archive": the verb as one word too (a catalogue writes `rerun` in paths), and its stem.
  const plain = withoutValues(query).replace(JOINED_PREFIX, '$1$2 $2');
  const names = namesIn(plain);
  // Lower-case hyphenated tokens are mostly names (old-prototype, checkout-service): their words
  // count little; not words made with an English prefix (re-run, un-archive, self-hosted).
  const hyphenTokens = plain
    .split(/\s+/)
    .map((t) => t.replace(/[^a-z-]+$/g, ''))
    .filter((t) => /^[a-z]+(-[a-z]+)+$/.test(t) && !WORD_PREFIXES.has(t.slice(0, t.indexOf('-'))))
    .map((t) => words(t))
    // Not one read as a word of its own ("a to-do": todo).
    .filter((w) => w.length > 1);
  // Clauses ("#old-project is dead, shelve the channel"): a command starts one.
  const raw: string[] = [];
  const clauseStarts: number[] = [];
  const source = plain.replace(new RegExp(VALUE, 'g'), '').trim() ? plain : query;
  for (const clause of source.split(/[,;:!?]|\.(?:\s|$)|\s[—–-]\s|—/)) {
    clauseStarts.push(raw.length);
    raw.push(...words(clause));
  }
  // Where those words stand: "event-bug" names, a "bug" of its own elsewhere does not.
  const hyphenatedAt = new Set<number>();
  for (const token of hyphenTokens) {
    raw.forEach((_, i) => {
      if (token.every((w, j) => raw[i + j] === w)) token.forEach((_, j) => hyphenatedAt.add(i + j));
    });
  }
  // "Create these five tickets in one go: setup DNS, provision DB": after a colon that follows a command, what the thing is to hold, not the request.
  const colon = source.indexOf(':');
  const beforeColon = colon > 0 ? words(source.slice(0, colon)) : [];
  // So is what a message says: after "saying", or after a saying verb's "that" that opens a clause ("comment on DOC-55 that the API reference has been updated").
  // After a verb that tells someone ("tell #crew that Saturday pickup moves"), "that" always opens what is told.
  const said = raw.findIndex((w, i) => SAID_LEADS.has(w) || (w === 'that' && (CLAUSE_OPENERS.has(raw[i + 1] ?? '') ? raw.slice(0, i).some((v) => SAYING_VERBS.has(v)) : raw.slice(Math.max(0, i - 4), i - 1).some((v) => TELLING_VERBS.has(v)))));
  // "A calendar called Side projects": a name runs from "called" to the end of its clause, or to a
  // word that leads on (a preposition, "and"), and names nobody.
  const namedAt = new Set<number>();
  raw.forEach((w, i) => {
    if (!NAMING_WORDS.has(w)) return;
    const end = clauseStarts.find((start) => start > i) ?? raw.length;
    for (let j = i + 1; j < end && j <= i + MAX_NAME_WORDS && !(j > i + 1 && NAME_ENDS.has(raw[j]!)); j++) namedAt.add(j);
  });
  // "Who's on the platform team?", "who is in the night shift group": the words before the group's noun name which one.
  raw.forEach((w, i) => {
    if (!PERSON_QUESTION.has(w)) return;
    let j = i + 1;
    if (raw[j] === 'is' || raw[j] === 'are') j++;
    if (raw[j] !== 'on' && raw[j] !== 'in') return;
    j++;
    if (THING_DETERMINERS.has(raw[j] ?? '')) j++;
    const head = raw.findIndex((v, k) => k > j && k <= j + MAX_NAME_WORDS && GROUP_NOUNS.has(v));
    if (head > j) for (let k = j; k < head; k++) namedAt.add(k);
  });
  // A person asked about or acted on: "who", a name, a pronoun, an email address.
  // A capitalised word after an article or a possessive names a thing ("the Blocked column", "our Radar
  // blocklist"), not a person.
  // So does each word of a name of several ("our Spring Concert project").
  const nameStart = (i: number): number => (i > 0 && names.has(raw[i - 1]!) ? nameStart(i - 1) : i);
  // Nor is a day or a month ("move the review to Thursday", "cancel it on March 12").
  const personNames = raw.filter((w, i) => names.has(w) && !namedAt.has(i) && !DAY_WORDS.has(w) && !MONTHS.has(w) && !THING_DETERMINERS.has(raw[nameStart(i) - 1] ?? ''));
  const personSaid = /\S@\S+\.\w/.test(query) || MENTION.test(query) || GIVEN_ACCESS.test(query);
  const person = personSaid || personNames.length > 0;
  const phrases = actionPhrases(raw, (w) => w === VALUE);
  // A command before the colon: its verb, a phrase that says one ("open a ticket in SHOP: …"), or a noun used as one ("log a task: …").
  const commandBeforeColon = beforeColon.length >= 3 && (beforeColon.some((w) => isBaseActionWord(w)) || (phrases.some((p) => p.at[0]! < beforeColon.length) && !isBaseActionWord(raw[beforeColon.length] ?? '')) || NOUN_VERBS.has(beforeColon[0]!));
  const contentFrom = commandBeforeColon ? beforeColon.length : said > 0 ? said + 1 : undefined;
  const covered = new Set(phrases.flatMap((p) => p.at));
  // "Close PR 5 without merging it", "instead of waiting": what is not to be done names no operation.
  const negated = new Set<number>();
  raw.forEach((w, i) => {
    // Past a wish or a need in between ("I don't want to delete it, just freeze it").
    const wish = NEGATING.has(w) && NEGATED_WISHES.has(raw[i + 1] ?? '') ? (raw[i + 2] === 'to' ? 2 : 1) : 0;
    const next = NEGATING.has(w) ? i + 1 + wish : (w === 'instead' || w === 'rather') && (raw[i + 1] === 'of' || raw[i + 1] === 'than') ? i + 2 : -1;
    const verb = raw[next];
    if (verb !== undefined && (isActionForm(verb) || /^[a-z]{3,}ing$/.test(verb))) negated.add(next);
  });
  // "Notify our endpoint whenever anything changes in project 55": what happens each time is no act
  // asked for; its verbs are context, and being told of it each time is a hook or a watch.
  let eachTimeAt = -1;
  raw.forEach((_, i) => {
    const opens = opensEachTime(raw, i);
    // Not in what a message or a title says ("Open a ticket in VET: it freezes whenever we export").
    if (!opens || i === 0 || eachTimeAt >= 0 || (contentFrom !== undefined && i >= contentFrom)) return;
    const end = clauseStarts.find((start) => start > i) ?? raw.length;
    // A clause has a verb after its subject ("every time entry on it" has none: a noun).
    if (!raw.slice(i + opens + 1, end).some((w) => isActionForm(w) || /^[a-z]{3,}(?:s|ed)$/.test(w))) return;
    eachTimeAt = i;
    for (let j = i + opens; j < end; j++) if (isActionForm(raw[j]!)) negated.add(j);
  });
  const selfAt = new Set<number>();
  raw.forEach((_, i) => SELF_PHRASES.some((phrase) => phrase.every((w, j) => raw[i + j] === w)) && [i, i + 1].forEach((j) => selfAt.add(j)));
  // A phrasal verb's verb stays a word to match, as an action word does ("kick … out": kick).
  const phrasalVerbs = new Set(phrases.filter((p) => p.phrasal).map((p) => p.at[0]!));
  // What to do is said by the verb that starts a clause, after any lead-in ("please", "I need
  // to"); else a question asks to read; else the earliest action word or phrase written as a
  // command ("delete the comment I added": delete).
  const cues: { at: number; action: Action }[] = phrases.filter((p) => !negated.has(p.at[0]!)).map((p) => ({ at: p.at[0]!, action: p.action }));
  // The words that only lead into a clause's verb ("I'd love to", "which endpoint lets me") ask for nothing themselves.
  const ledIn = new Set<number>();
  const causedAt: number[] = [];
  // Of those, the verbs asked of people ("get sam to review"), not of a thing ("have the repo send …").
  const askedOfPeopleAt: number[] = [];
  const asksHandles = ASKS_HANDLES.test(query);
  const heads = clauseStarts.map((start, c) => {
    const end = clauseStarts[c + 1] ?? raw.length;
    let at = start;
    while (at < end && isLeadIn(raw, at)) ledIn.add(at++);
    // "Get sam to review PR 7": the verb asked of them says what to do, a request to them.
    const caused = at < end ? causedVerbAt(raw, at, asksHandles) : -1;
    if (caused > 0 && caused < end) {
      causedAt.push(caused);
      if (raw[at] !== 'have' || haveDoneAt(raw, at) < 0) askedOfPeopleAt.push(caused);
      while (at < caused) ledIn.add(at++);
    }
    return at < end ? at : -1;
  });
  // A noun used as a verb, as a command starts ("file an issue", "log 2 hours"): a verb there only.
  // So is one before a thing named by its value ("end subscription sub_1MzHq right now").
  const namedByValueAt = (at: number) => /^[a-z]{3,}$/.test(raw[at] ?? '') && !STOP_WORDS.has(raw[at]!) && !isActionForm(raw[at]!) && ONE_VALUE.test(raw[at + 1] ?? '');
  const nounVerbs = new Map(heads.filter((at) => at >= 0 && NOUN_VERBS.has(raw[at]!) && (startsObject(raw[at + 1] ?? '') || namedByValueAt(at + 1))).map((at) => [at, NOUN_VERBS.get(raw[at]!)!]));
  // "Pull the last 100 messages from #deploys", "pull every payout": fetching, where "pull" starts a
  // command before its object; not "pull request", nor pulling someone into a place.
  for (const at of heads) {
    const end = clauseStarts.find((start) => start > at) ?? raw.length;
    if (at >= 0 && raw[at] === 'pull' && FETCHED_OBJECT.has(raw[at + 1] ?? '') && !raw.slice(at + 1, end).some((w) => w === 'into' || w === 'in' || w === 'onto')) nounVerbs.set(at, 'get');
    // "Export all balance transactions", "dump all fields": every one of them, a list; not "export the repository".
    if (at >= 0 && (raw[at] === 'export' || raw[at] === 'dump') && EVERY_ONE.has(raw[at + 1] ?? '')) nounVerbs.set(at, 'list');
  }
  const headCue = heads
    .filter((at) => at >= 0)
    .map((at) => phrases.find((p) => p.at[0] === at) ?? (isBaseActionWord(raw[at]!) ? { at: [at], action: actionOfStem(stemOf(raw[at]!))! } : nounVerbs.has(at) ? { at: [at], action: nounVerbs.get(at)! } : undefined))
    .find((hit) => hit !== undefined);
  const opener = heads[0] !== undefined && heads[0] >= 0 ? raw[heads[0]]! : undefined;
  // A question puts its verb first: after its subject ("I have to …", "we can …") the word is no question's.
  const afterSubject = heads[0] !== undefined && heads[0] > 0 && STATING_SUBJECTS.has(raw[heads[0] - 1]!);
  const question = !headCue && opener !== undefined && !afterSubject && (QUESTION_OPENERS.has(opener) || PERSON_QUESTION.has(opener));
  // A word of no action that starts the query before an object ("the", a value, a name) is its verb;
  // before another noun it is a noun ("review status of PR 5", "default payment method of …").
  const afterOpener = heads[0] !== undefined && heads[0] >= 0 ? raw[heads[0] + 1] : undefined;
  const command =
    !headCue && !question && opener !== undefined && afterOpener !== undefined && !isActionForm(opener) && !STOP_WORDS.has(opener) && (startsObject(afterOpener) || names.has(afterOpener) || hyphenatedAt.has(heads[0]! + 1) || (VERB_PREPOSITIONS.has(afterOpener) && /^[a-z]+$/.test(opener) && !/[^s]s$/.test(opener) && !raw.slice(heads[0]! + 2, clauseStarts.find((start) => start > heads[0]!) ?? raw.length).some((w, i, rest) => COPULAS.has(w) && !rest.slice(0, i).includes('that'))))
      ? stemOf(opener)
      : undefined;
  const commandVerb = command !== undefined && (DETERMINERS.has(afterOpener!) || VERB_PREPOSITIONS.has(afterOpener!) || raw.slice(heads[0]! + 2, clauseStarts[1] ?? raw.length).some((w) => PLACE_PARTICLES.has(w)));
  // "Tell me", "help me", "let me know": the one asking is addressed, not the signed-in user's things.
  // The one asking as one of several people ("Dana, Lee and I", "me and the Globex AE"): not the signed-in user's things.
  const amongOthers = (i: number) => (raw[i] === 'i' || raw[i] === 'me') && (raw[i - 1] === 'and' || (raw[i + 1] === 'and' && /^[a-z]/.test(raw[i + 2] ?? '') && (!STOP_WORDS.has(raw[i + 2]!) || THE_OTHERS.has(raw[i + 2]!))));
  // "I want every issue in …", "I need the release notes": the one asking wants a thing, which says nothing of whose it is ("I want to leave the org" does).
  const wantsThing = (i: number) => {
    if (raw[i] !== 'i') return false;
    const at = DESIRE_ADVERBS.has(raw[i + 1] ?? '') ? i + 2 : i + 1;
    const object = raw[at] === 'would' && raw[at + 1] === 'like' ? at + 2 : DESIRE_VERBS.has(raw[at] ?? '') ? at + 1 : -1;
    return object > 0 && raw[object] !== undefined && raw[object] !== 'to' && !SELF_WORDS.has(raw[object]!);
  };
  const self = selfAt.size > 0 || raw.some((w, i) => SELF_WORDS.has(w) && !covered.has(i) && !inLeadInPhrase(raw, i) && !(w === 'me' && ADDRESSING_VERBS.has(raw[i - 1] ?? '')) && !amongOthers(i) && !wantsThing(i));
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  const savesSearch = SAVED_SEARCH.test(query);
  let updateNouns = false;
  raw.forEach((word, i) => {
    // Words that only lead in ("is there a way to …", "I'd love to …") ask for nothing.
    if ((covered.has(i) && !phrasalVerbs.has(i)) || selfAt.has(i) || SELF_WORDS.has(word) || word === VALUE || negated.has(i) || inLeadInPhrase(raw, i) || ledIn.has(i)) return;
    // "A channel called launch": a name, even when it is a verb.
    const introduced = namedAt.has(i);
    // "Post an 'on track' update", "the latest status update": a noun, not the act.
    const updateNoun = (word === 'update' || word === 'updates') && i > 0 && UPDATE_NOUN_BEFORE.has(raw[i - 1]!);
    if (updateNoun) updateNouns = true;
    const cue = introduced || updateNoun ? undefined : phrasalVerbs.has(i) ? 'phrasal' : isActionForm(word) ? actionOfStem(stemOf(word)) : nounVerbs.get(i);
    const stem = stems(word)[0];
    // Not the "every" that opens what happens each time ("… every time someone pushes"): no list asked for.
    if (cue && cue !== 'phrasal' && isBaseActionWord(word) && i !== eachTimeAt) cues.push({ at: i, action: cue });
    // "Any more", "any longer": no longer, said in two words; neither word names a thing.
    const noLonger = (word === 'more' || word === 'longer') && (raw[i - 1] === 'any' || raw[i - 1] === 'no');
    if (stem === undefined || STOP_WORDS.has(word) || NAMING_WORDS.has(word) || isWeakCue(word) || seen.has(stem) || /^\d+$/.test(word) || noLonger) return;
    seen.add(stem);
    // A name: hyphenated (old-prototype), or after "called"/"named" or a word for a person ("user octocat").
    const named = introduced || (contentFrom !== undefined && i >= contentFrom) || hyphenatedAt.has(i) || (i > 0 && NAME_BEFORE.has(raw[i - 1]!) && !actionOfStem(stem)) || bareSubject(raw, i);
    // A day ("today", "friday") is a value, as a number is: it says when, not what ("today": daily reports).
    const day = DAY_WORDS.has(word);
    // "The stale branch", "that old gist", "the unused webhook": why it is to go, not which kind of thing it is.
    const aged = AGED.has(word) && /^[a-z]{3,}$/.test(raw[i + 1] ?? '') && !STOP_WORDS.has(raw[i + 1]!);
    terms.push({ word, stem, weight: named ? 0.3 : day ? 0.1 : aged ? 0.25 : cue ? 0.5 : 1, name: named || names.has(word), at: i, ...(contentFrom !== undefined && i >= contentFrom ? { said: true as const } : {}) });
  });
  // The scope: terms after a preposition that follows the first term naming the resource, in the same clause.
  for (let c = 0; c < clauseStarts.length; c++) {
    const start = clauseStarts[c]!;
    const end = clauseStarts[c + 1] ?? raw.length;
    const inClause = terms.filter((t) => t.at >= start && t.at < end && !t.optional);
    const first = inClause.find((t) => t.weight === 1 && !isActionForm(t.word));
    if (!first) continue;
    const prep = raw.findIndex((w, i) => i > first.at && i < end && SCOPE_PREPOSITIONS.has(w) && !(w === 'to' && isActionWord(raw[i + 1] ?? '')));
    if (prep < 0) continue;
    for (const t of inClause) {
      if (t.at <= prep) continue;
      t.scope = true;
      if (t.at === prep + 1 && t.at === end - 1) t.placeName = true;
      // "under my account", "in my profile": the signed-in user again, said by "my"; it counts when matched, costs nothing when not.
      if (raw[t.at - 1] === 'my') {
        t.optional = true;
        t.weight = 0.5;
      }
    }
  }
  // "Add 'Order robes' to the Spring Concert project", "put scam@fraud.biz on our blocklist": a value
  // put in a place, named by no word of its own; the place is where it goes, not what is made.
  let unnamed = false;
  raw.forEach((w, i) => {
    const c = clauseStarts.findLastIndex((start) => start <= i);
    const head = heads[c] ?? -1;
    // "Remove it from the calendar": a thing said before, taken out of a place, as a value put in one.
    const taken = (w === 'it' || w === 'this') && i === head + 1 && TAKING_VERBS.has(raw[head] ?? '') && (raw[i + 1] === 'from' || raw[i + 1] === 'off');
    // "Move 'Order brisket' over to the Done column": the particle before where it goes.
    const to = MOVING_PARTICLES.has(raw[i + 1] ?? '') ? raw[i + 2] : raw[i + 1];
    if ((w !== VALUE && !taken) || head < 0 || head >= i || (!taken && (!PUTTING_VERBS.has(raw[head]!) || !SCOPE_PREPOSITIONS.has(to ?? '')))) return;
    if (!raw.slice(head + 1, i).every((between) => DETERMINERS.has(between) || VALUE_NOUNS.has(between))) return;
    const end = clauseStarts[c + 1] ?? raw.length;
    for (const t of terms) if (t.at > i + 1 && t.at < end && !t.optional) t.scope = true;
    unnamed = true;
  });
  // "Shift the sprint review from my personal calendar over to the Team calendar": a thing moved between two places of one kind is what they hold, named by no word of its own.
  if (MOVED_BETWEEN_PLACES.test(query)) unnamed = true;
  // "What's on my calendar tomorrow?", "what's in the Discovery column?": the things on or in a
  // place, so the place is where they are, not what is asked for, and they are many.
  // A question that starts a clause, or what one is shown ("show me what's in …"); not "who did what in our workspace".
  const whatOnAt = raw.findIndex((w, i) => w === 'what' && (clauseStarts.includes(i) || raw[i - 1] === 'me' || raw[i - 1] === 'see') && CONTAINING.has(raw[raw[i + 1] === 'is' ? i + 2 : i + 1] ?? ''));
  if (whatOnAt >= 0) {
    const end = clauseStarts.find((start) => start > whatOnAt) ?? raw.length;
    for (const t of terms) if (t.at > whatOnAt && t.at < end && !t.optional) t.scope = true;
    // It names no resource: an operation on what is there is not missing one.
    unnamed = true;
  }
  // Identifiers often begin with an abbreviation of what they name (cus_K8s2, pi_3Kx, in_77H): the
  // prefix is a weak word for a resource, read against the catalogue's own resource words.
  const tokens = query.split(/\s+/);
  // The same tokens without the punctuation that ends a clause ("README.md," "acme/api?").
  const bare = tokens.map((token) => token.replace(/[,;:!?)'"]+$/, ''));
  for (const token of tokens) {
    const prefix = /^[^A-Za-z]*([a-z]{2,5})_[A-Za-z0-9_]*\d[A-Za-z0-9_]*/.exec(token)?.[1] ?? /^[^A-Za-z]*([a-z]{2,5})_[A-Z][A-Za-z0-9]+/.exec(token)?.[1];
    if (prefix && !seen.has(`_${prefix}`)) {
      seen.add(`_${prefix}`);
      terms.push({ word: prefix, stem: prefix, weight: 0.5, name: false, at: -1, idPrefix: true });
    }
  }
  // "Find" asks to search: the verb a catalogue writes for it, implied.
  for (const t of [...terms]) {
    const synonym = VERB_SYNONYMS.get(t.word);
    if (synonym && !seen.has(stemOf(synonym))) {
      seen.add(stemOf(synonym));
      terms.push({ word: synonym, stem: stemOf(synonym), weight: 0.5, name: false, at: -1, optional: true, actVerb: true });
    }
  }
  // Words catalogues write for what the query means, implied and not widened: an idiom's ("keep me
  // posted": watch, follow), a change of state's ("move PROJ-12 to done": status, transition).
  // By default they count when matched and cost nothing when not, and are not widened.
  const imply = (list: readonly string[], weight: number, how: Pick<QueryTerm, 'name' | 'optional' | 'actVerb'> = { name: true, optional: true }) => {
    for (const word of list) {
      const stem = stemOf(word);
      if (seen.has(stem)) continue;
      seen.add(stem);
      terms.push({ word, stem, weight, at: -1, ...how });
    }
  };
  imply(phrases.flatMap((p) => p.means ?? []), 1);
  // By half a word: by a whole one, a read of the transitions went before making one.
  if (STATE_CHANGE.test(query) || STATES_REACHABLE.test(query)) imply(STATE_WORDS, 0.5);
  // An update posted on a thing ("post an 'on track' update on the project") says how it stands: its status.
  if (updateNouns) imply(['status'], 1);
  // A person's own details ("my status", "her job title", "my display name") are their profile's.
  if (raw.some((w, i) => POSSESSIVES.has(w) && (PROFILE_DETAILS.has(raw[i + 1] ?? '') || (DETAIL_KINDS.has(raw[i + 1] ?? '') && PROFILE_DETAILS.has(raw[i + 2] ?? ''))))) imply(['profile'], 0.5);
  // "Give PROJ-88 to maria", "hand issue 77 over to dana": a thing handed to a person is assigned to them (0.5: plain R@1 −1 task).
  // The person ends the verb's clause, named or by role ("… to Kenji, he's covering", "… to my editor Sam").
  const handed = heads.some((at, c) => {
    if (at < 0 || !HANDING_VERBS.has(raw[at]!)) return false;
    const end = clauseStarts[c + 1] ?? raw.length;
    const receiver = raw[end - 1] ?? '';
    const to = [end - 2, end - 3, end - 4].find((k) => raw[k] === 'to' && (k === end - 2 || POSSESSIVES.has(raw[k + 1]!)));
    return to !== undefined && to >= at + 2 && /^[a-z]{3,}$/.test(receiver) && receiver !== VALUE && !DETERMINERS.has(receiver);
  });
  if (handed) imply(ASSIGNING, 1);
  if (eachTimeAt >= 0 && !question) {
    imply(TOLD_OF_CHANGES, 1);
    if (!cues.some((c) => c.at < eachTimeAt)) cues.push({ at: eachTimeAt, action: 'create' });
  }
  // "Sam asked to join the group": what he asked for is access, a request of his.
  if (ASKED_TO_JOIN.test(query)) imply(['request', 'access'], 1);
  if (eachTimeAt < 0 && KEPT_INFORMED.test(query)) imply(WATCHING, 1);
  // Events or notifications sent to an address ("POST to https://… on every push event", "which URLs get our events"): a webhook.
  if (eachTimeAt < 0 && EVENTS_TO_ADDRESS.test(query)) imply(['webhook', 'hook'], 1);
  // "Make 20 tickets at once", "in one go": the catalogue's bulk or batch operation.
  if (AT_ONCE.test(query.toLowerCase())) imply(BATCHING, 1);
  // "EUR to USD": a rate of exchange between currencies.
  const currencyPair = CURRENCY_PAIR.test(query);
  if (currencyPair) imply(EXCHANGING, 1);
  // "Save this JQL as 'Sprint blockers'", "a saved search": what trackers and mail call a filter.
  if (savesSearch) imply(['filter'], 1);
  // "main vs develop", "master...develop": two things set against each other, compared.
  if ((SET_AGAINST.test(query) || CHANGED_BETWEEN.test(query)) && !currencyPair) imply(['compare'], 0.5);
  if (WHAT_CHANGED.test(query)) {
    for (const t of terms) {
      if (t.stem !== stemOf('change') || t.at < 0) continue;
      t.weight = 1;
      delete t.scope;
      delete t.action;
    }
    imply(['diff'], 0.5);
  }
  if (SET_APART.test(query)) imply(['compare'], 0.5);
  if (HOW_MUCH_USED.test(query)) imply(['usage'], 1);
  // A rule set on who may do a thing (read once: it also makes the request a change, below).
  const toPastContributors = TO_PAST_CONTRIBUTORS.test(query);
  const restricts = toPastContributors || ONLY_ALLOWED.test(query);
  const protects = ONLY_WITH.test(query) || PUSH_BARRED.test(query) || REQUIRED_BEFORE_MERGE.test(query);
  if (restricts) imply(['restriction', 'restrict', 'interaction'], 1);
  // What is pushed to or merged into is a branch.
  if (protects) imply(['protection', 'branch'], 1);
  // "Draft the changelog": what software calls a release's notes.
  if (raw.some((w) => w === 'changelog' || w === 'changelogs')) imply(['release', 'notes'], 1);
  if (KEPT_OUT.test(query)) imply(['block'], 0.5, { name: false, optional: true, actVerb: true });
  if (!toPastContributors && CLOSED_TO_COMMENTS.test(query)) imply(['lock'], 1, { name: false, optional: true, actVerb: true });
  if (PICKED_BY_STATE.test(query)) imply(['search'], 0.5, { name: false, optional: true, actVerb: true });
  if (KEPT_OUT_OF_USE.test(query)) imply(['archive'], 1, { name: false, optional: true, actVerb: true });
  for (const { said, words } of THINGS_BY_WHAT_IS_SAID) if (said.test(query)) imply(words, 1);
  // Not a date a thing has ("push the due date on the task to June 3").
  if (MOVED_IN_TIME.test(query) && !/\b(?:due|deadlines?|dates?)\b/i.test(query)) imply(['event'], 0.5, { name: false, optional: true });
  // Things found by what someone talked about or mentioned in them.
  const saidInThem = TALKED_ABOUT.test(query) || raw.some((word) => MENTIONING.has(word));
  // "Where in acme/api …", "where in our codebase …": asks to find a thing inside a place, a search.
  if (raw.some((word, i) => word === 'where' && SCOPE_PREPOSITIONS.has(raw[i + 1] ?? ''))) imply(['search'], 0.5, { name: false, optional: true, actVerb: true });
  // "Repos about rust web frameworks", "messages mentioning 'invoice 4471'": things found by what they are about or say, a search.
  else if (saidInThem || raw.some((word, i) => word === 'about' && /[a-z]{3}s$/.test(raw[i - 1] ?? '') && !TOLD_OF.has(raw[i - 1]!) && cues[0]?.action !== 'create')) {
    imply(['search'], 0.5, { name: false, optional: true, actVerb: true });
    // What was said is in messages.
    if (saidInThem) imply(['message'], 0.5, { name: false, optional: true });
  }
  // "How many …" asks for a number: the word catalogues write for one (count), implied.
  const howMany = headCue !== undefined && raw[headCue.at[0]!] === 'how' && raw[headCue.at[0]! + 1] === 'many';
  if (howMany) imply(['count'], 0.5);
  // "Am I allowed to delete issues?", "who is permitted to …", "do I have the right to …": what one may do is a permission.
  if (MAY_DO.test(query)) imply(['permission'], 1);
  // "Tag issue 52 as good first issue", "tag #45 with needs-triage": tagging a thing named by its number labels it; "tag v1.8.0" makes a tag.
  const tagging = heads.find((at) => at >= 0 && raw[at] === 'tag' && (ONE_VALUE.test(raw[at + 1] ?? '') || ONE_VALUE.test(raw[at + 2] ?? '')) && raw.slice(at + 1, at + 5).some((w) => w === 'as' || w === 'with'));
  if (tagging !== undefined) {
    imply(['label'], 1, { name: false, optional: true });
    cues.push({ at: tagging, action: 'create' });
  }
  // "Email invoice in_789 to the customer", "email them the report": a thing sent, as catalogues write it.
  const sending = heads.find((at) => at >= 0 && SENDING_NOUNS.has(raw[at]!) && raw[at + 1] !== undefined && !SENT_COMPOUNDS.test(raw[at + 1]!) && (/^(?:it|them|him|her|me|us|everyone|the|this|that|these|those|our|my|their|his|its)$/.test(raw[at + 1]!) || !STOP_WORDS.has(raw[at + 1]!)));
  if (sending !== undefined) {
    imply(['send'], 0.5, { name: false, optional: true });
    // Sent, not read: the noun is the command's verb.
    if (!cues.some((c) => c.at === sending)) cues.push({ at: sending, action: 'create' });
  }
  // "Stop following", "quit watching": the verb undone, as catalogues name it (unfollow, unwatch); implied.
  raw.forEach((word, i) => {
    const next = raw[i + 1];
    if (!UNDOING_VERBS.has(word) || next === undefined || !/^[a-z]{3,}ing$/.test(next)) return;
    const undo = `un${stemOf(next)}`;
    if (seen.has(undo)) return;
    seen.add(undo);
    terms.push({ word: undo, stem: undo, weight: 1, name: false, at: -1, optional: true, undoes: true });
  });
  // The speaker taken out of a place ("remove me from #random", "take me off the list", "get us out of it"): leaving it.
  if (cues.some((c) => c.action === 'delete' && SPEAKER_OBJECTS.has(raw[c.at + 1] ?? '') && LEAVING_PARTICLES.has(raw[c.at + 2] ?? ''))) imply(['leave'], 0.5, { name: false, optional: true, actVerb: true });
  // Someone asked to do a thing: a request of them ("request reviewers").
  if (causedAt.length) imply(['request'], 0.5);
  // A path or file name (README.md, src/app.ts, config/settings.yaml) says the thing is a file.
  if (bare.some((token) => FILE_NAME.test(token))) imply(['file'], 0.5, { name: false });
  // A name in code (parseConfig, parse()) says the thing is code.
  if (tokens.some((token) => CODE_NAME.test(token))) imply(['code'], 0.5, { name: false });
  // No action word but a plural noun ("my PRs", "open tickets in acme/api"): a list.
  cues.sort((a, b) => a.at - b.at);
  if (headCue) cues.unshift({ at: headCue.at[0]!, action: headCue.action });
  // A clause that tells what was done ("I put the tag on task 9 by mistake, take it off") asks for
  // nothing: its verb is context where another clause asks (./narrative.ts). Told as a mistake with
  // nothing else asked, the request is to undo it: what was made, removed; a verb of the catalogue's
  // own (lock), its undoing (unlock).
  const toldAt = clauseStarts.map((start, c) => {
    const at = toldVerbAt(raw.slice(start, clauseStarts[c + 1] ?? raw.length));
    return at < 0 ? -1 : start + at;
  });
  const told = (at: number) => toldAt[clauseStarts.findLastIndex((start) => start <= at)]! >= 0;
  const mistaken = MISTAKEN.test(query);
  if (cues.some((c) => !told(c.at))) cues.splice(0, cues.length, ...cues.filter((c) => !told(c.at)));
  else if (mistaken) {
    const made = toldAt.find((at) => at >= 0 && actionOfStem(stemOf(verbOfForm(raw[at]!, isActionWord) ?? raw[at]!)) === 'create');
    if (made !== undefined) cues.splice(0, cues.length, { at: made, action: 'delete' });
  }
  const undone = mistaken ? toldAt.filter((at) => at >= 0).map((at) => stemOf(raw[at]!)) : [];
  // A question reads: a list when it asks after things in the plural ("what channels exist?"); who
  // asks after people, one or many.
  // A name's plural ("the stale-issues workflow", "the Projects calendar") says nothing of how many.
  // Not a plural in a clause that only says when or why ("what will her next bill look like after switching plans?").
  const circumstanceAt = raw.findIndex((w, i) => i > 0 && CIRCUMSTANCE_OPENERS.has(w));
  const plural = terms.some((t) => isPlural(t.word) && !actionOfStem(t.stem) && !t.name && (circumstanceAt < 0 || t.at < circumstanceAt) && (eachTimeAt < 0 || t.at < eachTimeAt));
  // "How many …" reads, a list or a count alike.
  // A verb no lexicon knows heading the query before its object ("hide the calendar from my list
  // view", "stick the screenshot onto QA-55") says what to do: action words after it are context,
  // and a plural is its object, not a list asked for.
  const unknownVerbLeads = commandVerb && !headCue;
  // "I need a shareable link for …", "we'd like a Priority field": a thing wished for, with no verb, is one to make; not "a list of …".
  const wished = WISHED.exec(query)?.[0];
  // A link or a copy of a thing that exists ("a link to that message", "a link to Priya's message", "a .zip of my repo") is read, not made.
  const wishesFor = wished !== undefined && !/\bof\b|\bto\s+(?:the|that|this|those|these|my|our|its|their|his|her|[a-z][\w-]*'s)\b/i.test(wished);
  // "Get me a token so I can register …", "give me a link I can drop in Discord": a new one, made; not "a link to message 17", one of a thing that exists.
  const obtained = OBTAINED.exec(query)?.[0];
  const obtainsNew = obtained !== undefined && cues[0]?.action === 'get' && !/\b(?:of|to|for)\b/i.test(obtained);
  // A link to a thing that exists, wished for with no verb of its own ("I need a link to Priya's message signing off on …"): read, whatever verbs describe the thing.
  const wishesExisting = wished !== undefined && !wishesFor && !headCue && !question && /^[^,;]*?\ban?\s+(?:(?!public|shareable|new|external|fresh)\S+\s+)?(?:link|url|permalink)\s+(?:straight\s+|directly\s+)?to\b/i.test(wished);
  let action = howMany ? undefined : question ? (PERSON_QUESTION.has(opener!) ? undefined : plural ? 'list' : 'get') : unknownVerbLeads ? undefined : obtainsNew ? 'create' : wishesExisting ? 'get' : (cues[0]?.action ?? (wishesFor ? 'create' : plural ? 'list' : undefined));
  // "Get sam to review PR 7": what they are asked to do is theirs; the asker requests it.
  if (cues[0] && askedOfPeopleAt.includes(cues[0].at) && !question) action = undefined;
  // The things on or in a place are many.
  if (whatOnAt >= 0 && action === 'get') action = 'list';
  // Told each time a thing happens, by a verb of no lexicon ("notify our endpoint whenever …"): a hook or a watch made.
  if (eachTimeAt >= 0 && !question && action === undefined) action = 'create';
  // Keeping a search to run again makes one (a filter).
  if (action === undefined && !question && savesSearch) action = 'create';
  // Nothing to be let in without a thing first sets a rule (a protection), and who may do a thing narrowed a restriction: a change.
  if ((action === undefined || action === 'list') && !question && (protects || restricts)) action = 'update';
  // A read says one or many by what it reads: "show dependabot alerts" lists, "show me pull request 77" gets one.
  // Its object follows a phrasal verb's particle ("pull up every open issue").
  if (!question && (action === 'get' || action === 'list') && cues[0]) action = oneOrMany(terms, raw, phrases.find((p) => p.at[0] === cues[0]!.at && p.phrasal)?.at.at(-1) ?? cues[0].at) ?? action;
  // "Who …?", a name or "him" is about people: the catalogue's words for people count a little.
  // How many words at `i` ask after a person: "who", or "which account" (before "am I", which one is me).
  const asksPerson = (i: number): number => (PERSON_QUESTION.has(raw[i]!) ? 1 : (raw[i] === 'which' || raw[i] === 'what') && ACCOUNT_WORDS.has(raw[i + 1] ?? '') ? 2 : 0);
  // "Which account is this token logged in as?": what the caller's credentials are signed in as.
  const signedInAs = /\b(?:logged|signed)\s+in\s+as\s*\??\s*$|\bauthenticated\s+as\s*\??\s*$/i.test(query);
  const personAsked = raw.some((w, i) => PERSON_QUESTION.has(w) || PERSON_PRONOUNS.has(w) || (asksPerson(i) === 2 && (raw[i + 2] === 'am' || signedInAs)));
  if (person || personAsked) {
    // "Who am I (logged in as)?" asks who the signed-in user is: a user, not the members of a group; "who am I following" asks after others.
    // So does "which account am I signed in as": which one of the people words is me.
    // And "which account is this token logged in as?".
    const whoAmI = raw.some((_, i) => {
      const n = asksPerson(i);
      return n > 0 && ((raw[i + n] === 'am' && raw[i + n + 1] === 'i' && !/^[a-z]{3,}ing$/.test(raw[i + n + 2] ?? '')) || (n === 2 && signedInAs));
    });
    // The account word asked after names the signed-in user: a user.
    if (whoAmI) for (const t of terms) if (t.at >= 0 && ACCOUNT_WORDS.has(t.word) && asksPerson(t.at - 1) === 2) Object.assign(t, { word: 'user', stem: stemOf('user') });
    // One thing said many ways: an operation on people counts once, whichever word it writes.
    const [word, ...alternatives] = (whoAmI ? ['user'] : PERSON_WORDS).filter((w) => !seen.has(stemOf(w)));
    if (word) terms.push({ word, stem: stemOf(word), weight: 0.5, name: true, at: -1, optional: true, ...(alternatives.length ? { alternatives } : {}) });
  }
  // What a thing asked for lets someone do ("a link where they can update their card", "so the customer can cancel"): what it is for, context that counts less.
  const purposeAt = question ? -1 : raw.findIndex((w, i) => i > 0 && (w === 'where' || w === 'so') && PURPOSE_SUBJECTS.has(raw[i + 1] ?? '') && ['can', 'could', 'will', 'may'].includes(raw[i + 2] ?? ''));
  if (purposeAt > 0) {
    const end = clauseStarts.find((start) => start > purposeAt) ?? raw.length;
    for (const t of terms) if (t.at > purposeAt + 1 && t.at < end && !t.optional) t.weight = Math.min(t.weight, 0.25);
  }
  // An action word after the one that says what to do is context ("the message I posted"): it counts less.
  const chosen = question ? undefined : cues[0]?.at;
  for (const t of terms) if (t.weight < 1 && !t.idPrefix && !t.optional && chosen !== undefined && t.at !== chosen) t.weight = Math.min(t.weight, 0.25);
  const actionTerm = chosen === undefined || !action ? undefined : terms.find((t) => t.at === chosen && t.weight === 0.5 && !t.name);
  if (actionTerm) {
    actionTerm.action = action;
    if (nounVerbs.has(chosen!)) actionTerm.nounVerb = true;
  }
  // A command's bare object before where it goes ("kick dave off the repo", "add Priya to #design"):
  // ranking reads it as a person when the catalogue has no such resource. Several listed, the last
  // joined by "and", are read as one is ("add maria and tom to #design", "add priya, tom and wei to
  // #retro": commas are gone from the words).
  const particleAt = chosen === undefined ? -1 : raw.findIndex((w, i) => i > chosen + 1 && i <= chosen + 1 + MAX_NAMED_OBJECTS + 1 && PLACE_PARTICLES.has(w));
  const listed = particleAt < 0 ? [] : raw.slice(chosen! + 1, particleAt);
  // A user name of several words joined by hyphens ("take mikeb-dev off the repo") is one.
  const hyphenName = listed.length >= 2 && hyphenTokens.some((h) => h.length === listed.length && h.every((w, k) => w === listed[k]));
  const named = hyphenName || listed.length === 1 || (listed.length >= 3 && listed.at(-2) === 'and' && listed.filter((w) => w === 'and').length === 1) ? listed.map((w, i) => (w === 'and' ? -1 : chosen! + 1 + i)).filter((at) => at >= 0) : [];
  if (chosen !== undefined && action !== undefined && !READS.has(action) && named.length > 0) {
    // Not a plural ("add labels to it"), unless a name that ends in s ("add Luis to #ops", "take bwells off the repo").
    const objectAt = (at: number) => terms.find((t) => t.at === at && (hyphenName ? t.name : t.weight === 1) && !t.scope && (!isPlural(t.word) || names.has(t.word) || isInitialAndName(t.word)) && !isActionForm(t.word));
    const objects = named.map(objectAt);
    if (objects.every((o) => o !== undefined)) {
      for (const o of objects) o!.bareObject = true;
      // What follows the particle is where it goes or comes from ("off the frontend team").
      const end = clauseStarts.find((start) => start > chosen) ?? raw.length;
      for (const t of terms) if (t.at > particleAt && t.at < end && !t.optional) t.scope = true;
    }
  }
  // So is an object that names someone by their role ("add the new night shift lead to #night-ops", "remove the ex-contractor from #eng").
  if (chosen !== undefined && action !== undefined && !READS.has(action) && !terms.some((t) => t.bareObject)) {
    const end = clauseStarts.find((start) => start > chosen) ?? raw.length;
    const particle = raw.findIndex((w, i) => i > chosen + 1 && i <= chosen + 8 && i < end && PLACE_PARTICLES.has(w));
    // Not one inside a clause of its own ("the invite we sent the contractor to …", "my lead told me to …").
    const role = particle > 0 ? terms.find((t) => t.at > chosen && t.at < particle && (ROLE_NOUNS.has(t.word) || (AGENT_FORM.test(t.word) && (PLACE_PARTICLES.has(raw[t.at + 1] ?? '') || raw[t.at + 1] === 'and'))) && !t.scope && !raw.slice(chosen + 1, t.at).some((w) => SUBJECT_PRONOUNS.has(w) || CLAUSE_JOINS.has(w)) && !isActionForm(raw[t.at + 1] ?? '') && !/^[a-z]{3,}ed$/.test(raw[t.at + 1] ?? '')) : undefined;
    if (role) {
      role.bareObject = true;
      if (!ROLE_NOUNS.has(role.word)) role.personByForm = true;
      for (const t of terms) if (t.at > particle && t.at < end && !t.optional) t.scope = true;
    }
  }
  // So is one of several things put in a place when one of them is someone, by a name or a pronoun ("add Tom, Aisha and the new drafter
  // to #proj", "bring him into #oncall", "remove her from the ticket's notification list").
  let placesPerson = false;
  if (chosen !== undefined && (action === 'create' || action === 'delete') && !terms.some((t) => t.bareObject)) {
    // Not the verb's own particle ("log him out": signed out).
    const own = phrases.find((p) => p.at[0] === chosen)?.at.at(-1);
    const particle = raw.findIndex((w, i) => i > chosen + 1 && i <= chosen + 1 + MAX_NAMED_OBJECTS * 2 && i !== own && PEOPLE_PLACED.has(w));
    const end = clauseStarts.find((start) => start > particle) ?? raw.length;
    // A pronoun right before the place ("add him to", not "remove her saved card from"); a name that ends where a thing's name would go on to its noun ("Tom and …", not "the Q4 Infrastructure project").
    const pronounBefore = raw[particle - 1] === 'him' || raw[particle - 1] === 'her';
    const someone = (i: number) =>
      (pronounBefore && i === particle - 1) ||
      (personNames.includes(raw[i]!) &&
        (i + 1 === particle || raw[i + 1] === 'and' || raw[i + 1] === VALUE || names.has(raw[i + 1]!)) &&
        raw.slice(chosen + 1, i).every((w) => names.has(w) || w === 'and' || w === VALUE || w === 'our' || w === 'new' || ROLE_NOUNS.has(w) || AGENT_FORM.test(w)));
    // Not someone added to a thing named by a pronoun ("add her to it": a follower of it).
    if (particle > 0 && !['it', 'this', 'that'].includes(raw[particle + 1] ?? '') && raw.slice(chosen + 1, particle).some((_, k) => someone(chosen + 1 + k))) {
      // A pronoun is someone; a capitalised word is, unless the catalogue writes it (ranking reads `personByForm`: "Android").
      placesPerson = pronounBefore;
      for (const t of terms) {
        if (t.at > chosen && t.at < particle && someone(t.at)) Object.assign(t, { bareObject: true, personByForm: true });
        if (t.at > particle && t.at < end && !t.optional) t.scope = true;
      }
    }
  }
  const slug = bare.some((token) => SLUG.test(token) && !FILE_NAME.test(token));
  // "Who" as the subject ("who follows me", "who is assigned"), not the object ("who am I following").
  // "How many people follow …" asks who as well: people counted by what they do.
  const who =
    raw.some((w, i) => PERSON_QUESTION.has(w) && (SUBJECT_AUXILIARIES.has(raw[i + 1] ?? '') || (/^[a-z]{3,}(?:s|ed)$/.test(raw[i + 1] ?? '') && !OBJECT_AUXILIARIES.has(raw[i + 1]!)))) ||
    raw.some((w, i) => w === 'how' && raw[i + 1] === 'many' && COUNTED_PEOPLE.has(raw[i + 2] ?? '') && /^[a-z]{3,}$/.test(raw[i + 3] ?? '') && !OBJECT_AUXILIARIES.has(raw[i + 3]!)) ||
    // So do people picked out by what they did ("all the people that starred our repo", "everyone who has forked it").
    raw.some((w, i) => (COUNTED_PEOPLE.has(w) || w === 'everyone' || w === 'everybody') && (raw[i + 1] === 'that' || raw[i + 1] === 'who') && (/^[a-z]{3,}(?:s|ed)$/.test(raw[i + 2] ?? '') || ['has', 'have', 'had'].includes(raw[i + 2] ?? '')) && !OBJECT_AUXILIARIES.has(raw[i + 2]!));
  const verbsAt = question ? undefined : heads.filter((at) => at >= 0);
  // "Who is in the platform team?" asks for people not yet known; "who am I", "who is Dana" name the one asked about.
  const afterWho = raw.slice(heads[0]! + 1);
  const asksWho = question && PERSON_QUESTION.has(opener!) && afterWho[0] !== 'am' && !(['is', 'was'].includes(afterWho[0] ?? '') && (afterWho.length === 2 || names.has(afterWho[1] ?? '')));
  const yesNo = question && YES_NO_OPENERS.has(opener!);
  const states = [...[...query.matchAll(MADE_STATE)].map((m) => m[1]!), ...[...query.matchAll(NEW_IN_STATE)].map((m) => m[1]!), ...[...query.matchAll(FROM_STATE_TO)].map((m) => m[1]!), ...[...query.matchAll(MARKED_STATE)].map((m) => m[1]!)].flatMap((w) => stems(w.toLowerCase()));
  return { action, ...(unnamed ? { unnamed } : {}), ...(states.length ? { states } : {}), ...(yesNo ? { yesNo } : {}), ...(verbsAt ? { verbsAt } : {}), ...((question || howMany) && action === undefined ? { reads: true } : {}), ...(who ? { who } : {}), ...(causedAt.length ? { caused: causedAt } : {}), ...(asksWho ? { asksWho } : {}), ...(protects ? { protects } : {}), self, ...(slug ? { slug } : {}), ...(command ? { command } : {}), ...(commandVerb ? { commandVerb } : {}), ...(undone.length ? { undone } : {}), ...(placesPerson ? { placesPerson } : {}), ...(!personSaid && !personAsked && personNames.length ? { personNames } : {}), terms };
}
