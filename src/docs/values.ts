// What the values a query writes say about the operation that takes them: a day or an hour wants
// an operation with a time field (an event, a due date, a scheduled message), an email address one
// with a field for it (look a user up by email, change a customer's email), a number after `#`
// one whose path takes a number (`/issues/{issue_number}`), a word naming a thing by its number
// ("check run 8812") one whose path takes an ID or a number, a tracker key (`PROJ-12`) one whose
// path addresses its resource by key (`/issue/{issueIdOrKey}/…`), a level of access ("write
// access", "share it with jo") one that sets or reads a `permission` or `role`, two versions
// ("between v1.2 and v1.3") one that takes both ends of a range (`base` and `head`, `from` and `to`);
// a line of a file ("line 40") one with a field for it; a time to come ("tomorrow") implies it is scheduled;
// work assigned to the one asking ("what's on my plate") a read by assignee; a channel (`#design`) one that takes it;
// an amount of money (`$500`) one that takes an amount; a person put in a place a write that takes people; a slug (`acme/api`) one whose path takes it;
// a setting's name in capitals (`NPM_TOKEN`) a secret or a variable.
import type { RankedOperation } from './analysis.ts';
import { stems } from './text.ts';
import { grantsAccess, revokesAccess } from './revoking.ts';
import { waitsOnWork } from './waiting.ts';

/** What a whole catalogue says that one operation cannot: the resource its keys address (`keyResource`). */
export interface CatalogueReading {
  keyStem?: string | undefined;
}

export interface ValueKind {
  name: string;
  /** Added to the score of an operation that takes such a value, when the query writes one. */
  weight: number;
  /** Whether the query writes such a value; `read` is what reading found: a slug or a rule protecting a place (./query.ts), a person put in a place (./rank.ts). */
  written(query: string, read: { slug?: boolean; person?: boolean; action?: string | undefined; protects?: true }): boolean;
  /**
   * Every operation on a resource whose operations take one takes it too, once this share of them
   * does (0: any one).
   */
  byResource?: number;
  /** Whether the operation takes one, read in its catalogue; without it, the value only implies its word. */
  takes?(op: RankedOperation, catalogue?: CatalogueReading): boolean;
  /** The words the value is written for, implied by it ("jane@acme.com": email); several, separated by spaces, are alternatives, none implied where the query writes one; "a|b" is the first of the two the catalogue writes. */
  implies?: string;
  /** Not read inside quoted text: a title's or a message's "tomorrow" or "2025" says nothing of the act. */
  notQuoted?: true;
}

/** Words that name a day or a time of day: values, weighed little as words (the query reader). */
export const DAY_WORDS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'today', 'tomorrow', 'tonight', 'yesterday', 'noon', 'midnight', 'morning', 'afternoon', 'evening', 'weekend']);

/** Words for a day or an hour: the day words, an hour (`9am`, `3:30 pm`), a week or month to come, and a date (`March 12`, `the 14th`, `2024-06-30`). */
const MONTH = String.raw`(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?|january|february|march|april|may|june|july|august|september|october|november|december`;
const TIMED_QUERY = new RegExp(`\\b(\\d{1,2}(:\\d{2})? ?(am|pm)|${[...DAY_WORDS].join('|')}|next week|this week|next month|(?:${MONTH}) \\d{1,2}(?:st|nd|rd|th)?|\\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:${MONTH})|the \\d{1,2}(?:st|nd|rd|th)|\\d{4}-\\d{2}-\\d{2})\\b`, 'i');
/** Parameter and body field names that hold a time (`start`, `due_on`, `post_at`, `dateTime`, `endDate`); page cursors (`starting_after`) do not. */
const TIME_FIELD = /(^|[_.-])(date|time|start|end|due|until|since|deadline)s?($|[_.-])|dateTime|[a-z](Date|Time|At|On)$|_(at|on)$|^(start|end|due)(?=[A-Z]|$)/;

/** An address: its domain ends in a name of letters, so a version after a package (`lodash@4.17.21`, `actions/checkout@v4.1.0`) is none. */
const EMAIL = /[^\s@]@(?:[a-z0-9-]+\.)+[a-z]{2,}\b/i;
const EMAIL_FIELD = /e-?mail/i;

/** A number after `#` (`#312`, `acme/web#45`): how trackers write an issue's or a pull request's number. */
const NUMBER_REF = /(^|[\s\w/(])#\d+\b/;
/** Words before a number that count, date or place it ("last 5", "September 30", "in 2 hours"), not a thing it names. */
const NOT_NAMING = new Set([
  'last', 'first', 'top', 'next', 'past', 'over', 'in', 'the', 'about', 'than', 'of', 'at', 'to', 'by', 'for', 'on', 'within', 'under', 'after', 'before', 'every',
  'and', 'or', 'from', 'with', 'only', 'least', 'most', 'is', 'are', 'be', 'all', 'log', 'spent', 'logged', ...DAY_WORDS,
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);
/** A word and a number that is no amount, hour or span ("issue 17", "PR 61", "check run 8812"; not "2.5", "9:30", "3 hours"). */
const WORD_NUMBER = /\b([a-z]{2,}) (\d+)\b(?![.:%]\d| ?(?:h|hrs?|hours?|m|mins?|minutes?|days?|weeks?|am|pm)\b)/g;
/** A thing named by its number: a word before it that names, not one that counts, dates or places. */
const NAMED_BY_NUMBER = (q: string) => numberNamers(q).length > 0;
/** The words that name a thing by its number ("project" of "project 1199"). */
export const numberNamers = (q: string): string[] =>
  [...q.toLowerCase().matchAll(WORDS_NUMBER)].flatMap((m) => {
    const [, before, word] = m as unknown as [string, string | undefined, string];
    if (NOT_NAMING.has(word)) return [];
    // "comment number 1833094": the word before "number" names it.
    // After "id" or "number" alone, the number may be any thing's ID.
    return NUMBER_WORDS.has(word) ? (before !== undefined && !NOT_NAMING.has(before) ? [before] : ['id']) : [word];
  });
/** A number after a word, and the word before that ("comment number 5"), as WORD_NUMBER reads it. */
const WORDS_NUMBER = new RegExp(String.raw`\b(?:([a-z]{2,}) )?` + WORD_NUMBER.source.slice(2), 'g');
/** Words that only say a number follows ("comment number 5", "ticket no 7"). */
const NUMBER_WORDS = new Set(['number', 'no', 'num', 'nr', 'id']);
/** A path parameter that takes an ID or a number (`{check_run_id}`, `{issue_number}`, `{merge_request_iid}`). */
const ID_PARAMETER = /\{[^{}]*(?:number|iid|id)\}/i;
/** A path parameter that takes such a number (`{issue_number}`, `{pull_number}`, `{merge_request_iid}`). */
const NUMBER_PARAMETER = /\{[^{}]*(?:number|iid)\}/i;

/** A channel as chat writes it (`#design`, `#old-project`): a name after `#`, not a number (`#312`). */
const CHANNEL = /(^|[\s(])#[a-z][\w-]*/i;
/** A channel named as the one to be made: "a new channel called #offsite-2025", "a private channel #exec", "a #downtown-shop channel", "spin up #inc-0412". */
const CHANNEL_MADE = /\b(?:new|private|public|fresh)\s+(?:[a-z]+\s+)?channel\s+(?:(?:called|named)\s+)?#[a-z]|\b(?:an?|new)\s+#[a-z][\w-]*\s+channel\b|\b(?:create|spin\s+up|set\s+up)\s+#[a-z]|\b(?:create|spin\s+up|set\s+up|start|open|make)\s+(?:an?\s+(?:(?:new|private|public|fresh)\s+)*|(?:(?:new|private|public|fresh)\s+)+)(?:channel|room)\s+(?:(?:called|named)\s+)?#[a-z]/i;
/** Fields that take one or several (`channel`, `channels`); not an administrator's `channel_ids`, which many operations take. */
const CHANNEL_FIELD = /^channels?$/i;

/** An amount of money (`$500`, `€20`, `49 usd`, `15 dollars`). */
const MONEY = /[$€£]\s?\d|\b\d+(?:\.\d+)? ?(?:usd|eur|gbp|dollars?|euros?|pounds?)\b/i;
/** An amount compared against ("charges over $500", "payments of more than €1,000"): a condition on the things found, no amount set. */
const MONEY_COMPARED = /\b(?:over|above|under|below|exceeding|(?:more|less|greater|fewer|bigger|larger|smaller)\s+than|at\s+least|at\s+most|>=?|<=?)\s*(?:[$€£]\s?\d[\d,.]*|\d+(?:\.\d+)? ?(?:usd|eur|gbp|dollars?|euros?|pounds?)\b)/gi;
/** Fields that take one (`amount`, `unit_amount`, `amount_to_capture`). */
const AMOUNT_FIELD = /amount/i;

/** A span of time (`3 hours`, `2h`, `45 min`): work logged or a length asked for. */
const DURATION = /\b\d+(?:\.\d+)?\s?(?:h|hrs?|hours?|m|mins?|minutes?)\b/i;
/** Fields that take one (`timeSpent`, `duration`, `timeSpentSeconds`, `time_estimate`, `num_minutes`). */
const DURATION_FIELD = /spent|duration|estimate|(?:^|_)(?:minutes|hours)$/i;

/** A key's own shape: a project's letters, a dash, a number. */
const KEY = String.raw`[A-Z][A-Z0-9]{1,9}-\d+`;
/**
 * A tracker's key: a project's capitals, a dash, a number (`PROJ-12`, `SUP-441`); not the names of
 * standards and the like written the same way (`UTF-8`, `SHA-256`, `ISO-8601`, `COVID-19`, `GPT-4`),
 * nor an identifier of more numbers (`CVE-2021-44228`).
 */
const TRACKER_KEY = new RegExp(String.raw`(^|[^\w-])(?!(?:UTF|UCS|SHA|ISO|COVID|CVE|RFC|HTTP|TLS|AES|RSA|PEP|UTC|GMT|GPT)-)${KEY}\b(?!-\d)`);
/** One tracked thing said to stand in a relation to another, a few words apart at most ("BACK-5 blocks FRONT-9", "DEV-1 should be recorded as blocking DEV-2", "#12 duplicates #9", "WEB-10 can't start until API-7"). */
const RELATED_KEYS = new RegExp(String.raw`(?:\b${KEY}|#\d+)\s+(?:(?!and\b|or\b)[a-z']+\s+){0,4}?(?:blocks|blocking|blocked\s+by|duplicates|duplicating|duplicate\s+of|relates\s+to|related\s+to|depends\s+on|dependent\s+on|clones|causes|caused\s+by|split\s+from|until|waiting\s+on|waits\s+on|waiting\s+for|waits\s+for|holding\s+up|holds\s+up)\s+(?:${KEY}|#\d+)\b`);
/** Two tracked things and a word that joins them ("link PROC-12 to PROC-19", "SHOP-17 and SHOP-22 are the same, link them"). */
const KEYS = new RegExp(String.raw`\b${KEY}\b`, 'g');
const KEYS_JOINED = (q: string): boolean => new Set(q.match(KEYS)).size >= 2 && /\b(?:link|links|linked|linking|connect|connected|relate|related|tie|tied)\b/i.test(q);
/** A summary of an operation that relates one thing to another: a link, a relation, a dependency. */
const RELATING = /\b(?:link|links|relation|relationship|dependency|dependencies)\b/i;
/** A path parameter that takes a key (`{issueIdOrKey}`, `{key}`), not a key's ID (`{key_id}`). */
const KEY_PARAMETER = /\{(?:[^{}]*[a-z])?(?:key|Key)\}/;
/** A level of access ("write access", "read-only permission", "admin rights", "developer access", "as a reporter"): what a grant of access names. */
const ACCESS_LEVEL = /\b(?:read|write|push|pull|admin|edit|view|maintain|triage|owner|full|read-only|readonly|developer|reporter|maintainer|guest|viewer|editor|commenter)(?: or (?:only )?(?:read|write|push|pull|admin|edit|view))? (?:access|permissions?|rights|privileges|role)\b|\b(?:level|kind|type) of (?:access|permissions?|rights|privileges)\b|\b(?:access|permission) level\b|\bas\s+(?:an?\s+)?(?:developer|reporter|maintainer|guest|viewer|editor|commenter)s?\b/i;
/** Sharing a thing with someone ("share my calendar with jo", "stop sharing it with mike"), or what someone else can do with it ("so she can edit it", "who can see"; not "so I can see it", nor what software reads: "so the CI can read it"): access granted or asked about. */
const ACCESS_GRANT = /\b(?:share|sharing|shared)\b.*\bwith\b|(?<!\b(?:i|we|ci|pipelines?|workflows?|jobs?|builds?|actions|runners?|scripts?|apps?|bots?)\s(?:(?:in|on|of|for)\s[\w/.-]+\s)?)\b(?:can|could|be able to) (?:see|view|edit|read|write|push|change|access)\b/i;
/** A thing anyone with its link may see ("a shareable snippet", "send them a link to it"): no one is granted access. */
const SHARED_BY_LINK = /\b(?:shareable|sharable)\b|\b(?:a|the|quick|public)\s+link\b|\blink\s+to\s+(?:it|them)\b|\bby\s+link\b/i;
/** Fields that take a level of access (`permission`, `role`, `access_level`, a group's `group_access`), or a path's last segment that names one (`…/collaborators/{username}/permission`); not `permissions`, an app's many. */
const ACCESS_FIELD = /^(?:permission|role|access_?level|group_access)$/i;

/** A version or a commit (`v1.2.0`, `1.3`, `9f3e2c1`): one end of a range. */
const REF = String.raw`(?:v?\d+(?:\.\d+)+[\w.-]*|[0-9a-f]{7,40})`;
/** Where a value ends: a space, the text's end or punctuation ("… v1.3?"). */
const END = String.raw`(?=$|[\s,;:!?)])`;
/** Two of them as the ends of one range: "between v1.2 and v1.3", "v1.2.0 against v1.3.0", `v1.2...v1.3`. */
const RANGE = new RegExp(String.raw`\bbetween ${REF} and ${REF}${END}|(?<!\S)${REF}(?: (?:against|vs\.?|versus|and) |\.\.\.?)${REF}${END}`, 'i');
/** Fields for a range's two ends (`base` and `head`, `from` and `to`, `tag_name` and `previous_tag_name`), or one for both (`basehead`). */
const takesRange = (names: readonly string[]) => names.includes('basehead') || (names.includes('base') && names.includes('head')) || (names.includes('from') && names.includes('to')) || names.some((n) => names.includes(`previous_${n}`));
/** A version made: published, shipped, cut or tagged ("publish v2.3.0", "cut v1.4 off main", "mark main as v2.0"); not one said to exist ("the v1.2 release", "at tag v2.1"). */
const VERSION_MADE = /\b(?:publish|publishing|ship|shipping|cut|cutting)\s+(?:version\s+)?v?\d+(?:\.\d+)+\b|\bas\s+v\d+(?:\.\d+)+/i;
/** A share written as a percentage (`15% off`, `20 %`). */
const PERCENT = /\d(?:\.\d+)?\s?%/;
/** A name in capitals joined by underscores (`NPM_TOKEN`, `DB_PASSWORD`, `DEFAULT_REGION=us-east-1`): how settings, secrets and environment variables are named. */
const SETTING_NAME = /(?<![\w-])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w-])/g;
const settingNames = (query: string): string[] => query.match(SETTING_NAME) ?? [];
/** A setting's name that says it holds a credential: a key, a token, a password. */
const CREDENTIAL_NAME = /(?:^|_)(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|PASS|PASSPHRASE|CREDENTIALS?|AUTH|PAT|PRIVATE)(?:_|$)/;
/** Fields that take a percentage (`percent_off`, `percentage`). */
const PERCENT_FIELD = /percent/i;
/** A date something is due by ("due March 28", "a target date of Jan 15", "the deadline"); not a question of when ("when are they due?"). */
const DUE = /\bdue\s+(?:date|on|by|in|at|\d|next|this|tomorrow|today|tonight|end|(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(?:target|end)\s+date\b|\bdeadline\b/i;
/** Fields that take the date a thing is due (`due_on`, `due_date`, `duedate`, `due_at`). */
const DUE_FIELD = /^due(?:_?(?:on|date|at))?$/i;
/** Fields that take a version's name (`tag_name`, `tag`, `version`). */
const VERSION_FIELD = /^(?:tag_?name|tag|version)$/i;

/** A time to come ("tomorrow at 9am", "next monday", "in 2 hours"): what is asked is to be done then. */
const FUTURE = /\b(?:tomorrow|tonight|next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|in \d+ (?:minutes?|hours?|days?))\b/i;

/** A line of a file ("line 40", "lines 10-12"): where a comment on code goes. */
const LINE = /\blines? \d+\b/i;
/** Fields that take one (`line`, `start_line`, `lineNumber`). */
const LINE_FIELD = /^(?:start_?|end_?)?line(?:_?number)?$/i;

/** The one asking as who the work is assigned to ("assigned to me", "what am I assigned to", "what's on my plate"). */
const ASSIGNED_TO_SELF = /\bassigned to (?:me|myself)\b|\bam i assigned\b|\bon my plate\b|\bmy assignments\b/i;
/** A read that filters by who a thing is assigned to (`assignee`, `assignee.any`, `assignee_id`), or that says it reads what is assigned to someone ("List issues assigned to the authenticated user", not "Get assigned permission scheme"). */
/** Whether an operation writes: any method but GET. */
const writes = (op: RankedOperation): boolean => (op.method ?? 'GET').toUpperCase() !== 'GET';
const filtersByAssignee = (op: RankedOperation) => !writes(op) && (op.fieldNames.some((n) => /^assignee(?:$|[._]|Id)/.test(n) || QUERY_LANGUAGE.test(n)) || /\bassigned to\b/i.test(op.summary));
/** A parameter that takes a query in the catalogue's own query language (Jira's `jql`): it filters by anything, an assignee too. */
const QUERY_LANGUAGE = /^(?:jql|[a-z]*ql)$/i;

/** Conditions written in a query language (`project = FIRE AND labels = hydrant`, `assignee = ana AND resolved >= startOfQuarter()`): two field conditions joined. */
/**
 * Many things narrowed by what they are ("every open bug labelled drug-shortage with priority High",
 * "still open and due this week", "created since March 1"): a list or search that takes such
 * filters, not an operation on the label, the priority or the status itself.
 */
const NARROWED = /\b(?:label(?:l)?ed|tagged)\s+(?!(?:with|it|them|this|that|the)\b)['"\w]|\b(?:still\s+open|unresolved|unassigned|not\s+(?:yet\s+)?(?:done|finished|closed|resolved)|isn't\s+(?:done|finished|closed|resolved)(?:\s+yet)?)\b|\bdue\s+(?:this|next|before|by|today|tomorrow)\b|\bcreated\s+(?:since|after|before|in\s+the\s+last|this|last|between)\b|\b(?:highest|high|low|lowest|critical|urgent)[\s-]+priority\b|\bpriority\s*(?:=|of|is)?\s*(?:highest|high|low|lowest|critical|urgent)\b/i;
/** Parameters a list or a search is narrowed by: a query in the catalogue's language, labels, a state, a time. */
const FILTER_FIELD = /^(?:[a-z]*ql|q|query|labels?|tags?|state|status|priority|assignee|due_(?:on|date|before|after)|completed_since|since|created_(?:after|before|since))$/i;
const CONDITIONS = /\b[a-z][\w.]*\s*(?:!=|>=|<=|=|~)\s*\S+\s+(?:and|or)\s+[a-z][\w.]*\s*(?:!=|>=|<=|=|~|in\b|is\b|not\b)/i;

/** A handle to be mentioned by, named as one ("an @oncall-backend handle", "the @qa-leads group"). */
const HANDLE = /(?:^|[\s(,])@[a-z][\w-]*\s+(?:handle|group|alias)\b/i;
/** One named as the handle that is ('the @qa-leads handle', 'into our @oncall group'): the group it stands for. */
const HANDLE_THAT_IS = /\b(?:the|our|your|their|my)\s+@[a-z][\w-]*\s+(?:handle|group|alias)\b/i;

/** Fields that take a person or several (`users`, `user_id`, `username`, `member_ids`, `invitees`, `assignee`, `accountId`). */
const PERSON_FIELD = /^(?:users?|user_?ids?|usernames?|members?|member_?ids?|invitees?|collaborators?|assignees?|reviewers?|account_?ids?|emails?)$/i;

/** A file named by its name or its path (`config/settings.yml`, `error.png`, `docs/quickstart.md`, `.gitlab-ci.yml`). */
const FILE_NAMES = /(?:^|[\s'"(`])((?:[\w.-]+\/)*\.?[\w-]+(?:\.[\w-]+)*\.(?:md|markdown|txt|ya?ml|json|csv|tsv|png|jpe?g|gif|svg|pdf|zip|gz|tgz|log|xml|html?|css|py|rb|go|java|toml|ini|cfg|conf|sh|lock|gradle|properties|docx?|xlsx?|pptx?|mp3|mp4|mov))(?=$|[\s,;:!?)'"`]|\.(?:\s|$))/gi;
/** The files a text names, lower-case: a query's, or an operation's summary ("Validation of .gitlab-ci.yml content"). */
export const fileNamesIn = (text: string): string[] => [...text.matchAll(FILE_NAMES)].map((m) => m[1]!.toLowerCase());

/** A query without its quoted text (titles, messages), for the kinds that are `notQuoted`. */
export const withoutQuoted = (query: string): string => query.replace(/(^|\s)(["“‘]).*?["”’](?=$|[\s,.;:!?)])|(^|\s)'[^']*'(?=$|[\s,.;:!?)])/g, '$1$3 ');
/** The quoted parts of a query, with the same quotes `withoutQuoted` takes out. */
const quotedParts = (query: string): string[] => [...query.matchAll(/(?:^|\s)(?:["“‘](.*?)["”’]|'([^']*)')(?=$|[\s,.;:!?)])/g)].map((m) => m[1] ?? m[2] ?? '');
/** A line that says when in its own words ("'Lunch with Sam Friday 1pm'"): text for the catalogue to read, not a title. */
const saysWhen = (query: string): boolean => quotedParts(query).some((part) => TIMED_QUERY.test(part));
/** A parameter's description that says it takes a file's name ("You can also pass the workflow file name as a string"). */
const FILE_TEXT = /\bfile ?names?\b|\bfile paths?\b|\bpath (?:to|of) the file\b/i;
/** Fields and path parameters that take a file or its path (`path`, `file_path`, `filename`, `file`). */
const FILE_FIELD = /^(?:path|file_?path|file_?name|filename|files?)$/i;

/** Two path parameters in a row (`/{owner}/{repo}`): what a two-part slug fills. */
const SLUG_PARAMETERS = /\{[^{}]+\}\/\{[^{}]+\}/;

export const VALUE_KINDS: readonly ValueKind[] = [
  // A time or an email address may also be a detail of what is asked for ("notes from Tuesday").
  { name: 'time', weight: 0.2, byResource: 0, written: (q) => TIMED_QUERY.test(q), takes: (op) => op.fieldNames.some((n) => TIME_FIELD.test(n)) },
  { name: 'email', weight: 0.2, written: (q) => EMAIL.test(q), takes: (op) => op.fieldNames.some((n) => EMAIL_FIELD.test(n)), implies: 'email' },
  // Who may do what: a grant of access sets a level, and an operation on what holds one (an ACL's
  // rules) answers about it; 0.5 and 0.8 were lower on dev. By resource only where a third of its
  // operations take one: of GitHub's hundred on repositories one does.
  { name: 'access', weight: 1, byResource: 0.3, written: (q, read) => ACCESS_LEVEL.test(q) || (ACCESS_GRANT.test(q) && !SHARED_BY_LINK.test(q) && !read.protects) || revokesAccess(q) || grantsAccess(q), takes: (op) => op.fieldNames.some((n) => ACCESS_FIELD.test(n)) || ACCESS_FIELD.test((op.path ?? '').split('/').pop() ?? '') },
  // Two versions or commits are what is compared (0.5: dev R@1 one task lower; 0.8 and 1.5 as 1).
  { name: 'range', weight: 1, written: (q) => RANGE.test(q), takes: (op) => takesRange(op.fieldNames) },
  // A quoted line that says when ("just type 'Lunch with Sam Friday 1pm'") is text a write that takes text reads: a quick add.
  { name: 'text', weight: 0.5, written: saysWhen, takes: (op) => writes(op) && op.fieldNames.includes('text') },
  { name: 'narrowed', weight: 0.5, written: (q, read) => read.action === 'list' && NARROWED.test(q), takes: (op) => !writes(op) && (op.returnsList || /^search\b/i.test(op.summary)) && op.fieldNames.some((n) => FILTER_FIELD.test(n)) },
  // Conditions in a query language are run by an operation that takes a query in the catalogue's own language (Jira's jql).
  { name: 'conditions', weight: 0.5, written: (q) => CONDITIONS.test(q), takes: (op) => op.fieldNames.some((n) => QUERY_LANGUAGE.test(n)) },
  // A handle named as one ("make an @oncall handle") is what an operation that takes a handle names (a user group).
  { name: 'handle', weight: 0.7, written: (q) => HANDLE.test(q), takes: (op) => op.fieldNames.includes('handle') },
  // One that already is ('who is in the @qa-leads handle?') is the group, as an operation that takes one by ID names it (`usergroup`).
  { name: 'group by handle', weight: 0.7, written: (q) => HANDLE_THAT_IS.test(q), takes: (op) => op.fieldNames.includes('usergroup') },
  // A share off ("15% off") is what an operation that takes a percentage takes (a coupon's percent_off).
  { name: 'percent', weight: 0.3, written: (q) => PERCENT.test(q), takes: (op) => op.fieldNames.some((n) => PERCENT_FIELD.test(n)), notQuoted: true },
  // A date a thing is due by is set by a write that takes one (a milestone's due_on, a task's due_date).
  { name: 'due', weight: 0.4, written: (q) => DUE.test(q), takes: (op) => writes(op) && op.fieldNames.some((n) => DUE_FIELD.test(n)), notQuoted: true },
  // A version made is what an operation that takes a version's name makes (a release, a tag).
  // The words catalogues write for a version made: a tag or a release.
  { name: 'version', weight: 0.4, written: (q) => VERSION_MADE.test(q), takes: (op) => op.fieldNames.some((n) => VERSION_FIELD.test(n)), implies: 'tag release', notQuoted: true },
  // A setting's name in capitals (`NPM_TOKEN`) is a secret's or a variable's: the words catalogues write for them, implied.
  { name: 'setting', weight: 0, written: (q) => settingNames(q).some((name) => !CREDENTIAL_NAME.test(name)), implies: 'secret variable' },
  // One whose own words name a credential (`ADP_API_KEY`, `TWILIO_AUTH_TOKEN`, `DB_PASSWORD`) is a secret's, where the catalogue keeps secrets apart.
  { name: 'credential setting', weight: 0, written: (q) => settingNames(q).some((name) => CREDENTIAL_NAME.test(name)), implies: 'secret|variable' },
  // Something to be done at a time to come is scheduled ("send it tomorrow at 9": schedule a message).
  { name: 'future', weight: 0, written: (q) => FUTURE.test(q), implies: 'schedule', notQuoted: true },
  // A line says where a comment goes, on a diff or a commit (1 moved no more).
  { name: 'line', weight: 0.5, written: (q) => LINE.test(q), takes: (op) => op.fieldNames.some((n) => LINE_FIELD.test(n)) },
  // Work assigned to the one asking is read by who it is assigned to (0.5: one dev task less).
  { name: 'assigned', weight: 1, written: (q) => ASSIGNED_TO_SELF.test(q), takes: filtersByAssignee },
  // A channel is where the thing is done: posting, inviting or removing there (0.7 lower on dev, 1.3 as 1);
  // implying the word alone had cost plain a task.
  // Not a channel named as the one made ("a new channel called #offsite"): that is its name, not where it is done.
  { name: 'channel', weight: 1, written: (q) => CHANNEL.test(q) && !CHANNEL_MADE.test(q), takes: (op) => op.fieldNames.some((n) => CHANNEL_FIELD.test(n)) },
  // One named as made ("spin up #inc-0412") is a channel, though the query may not say so.
  { name: 'channel made', weight: 0, written: (q) => CHANNEL_MADE.test(q), implies: 'channel' },
  // An amount of money is paid, moved or taken back: an operation that takes an amount (0.3, 0.5 lower on dev; 0.8 to 1.5 alike).
  // Not an amount only compared against ("charges over $500"): nothing is set to it.
  { name: 'money', weight: 0.8, written: (q) => MONEY.test(q.replace(MONEY_COMPARED, ' ')), takes: (op) => op.fieldNames.some((n) => AMOUNT_FIELD.test(n)) },
  // A file named is what is read, written, uploaded or attached: an operation that takes one; a
  // dot-file (`.gitlab-ci.yml`) is a configuration, which an operation's summary names (./rank.ts)
  // (0.3 and 0.45 alike on dev; 1 took a workflow's file, "kick off deploy.yml", for one to write).
  { name: 'file', weight: 0.4, written: (q) => fileNamesIn(q).some((name) => !/(?:^|\/)\./.test(name)), takes: (op) => op.fieldNames.some((n) => FILE_FIELD.test(n)) || /\{(?:path|file_?path)\}/i.test(op.path ?? '') || (op.fieldTexts ?? []).some((t) => FILE_TEXT.test(t)) },
  { name: 'duration', weight: 0.5, written: (q) => DURATION.test(q), takes: (op) => op.fieldNames.some((n) => DURATION_FIELD.test(n)) },
  // A number after # names the thing acted on or where it is (the issue a label goes on).
  { name: 'number', weight: 0.5, written: (q) => NUMBER_REF.test(q), takes: (op) => NUMBER_PARAMETER.test(op.path ?? '') },
  // A thing named by its number ("issue 17", "check run 8812") exists: an operation on it takes its ID, one making a new one does not
  // (0.2, 0.3 lower on plain; 0.5, 0.6 as 0.4; as the `#` kind with its number parameters, `#57` then went lower).
  { name: 'numbered', weight: 0.4, written: (q) => !NUMBER_REF.test(q) && NAMED_BY_NUMBER(q), takes: (op) => ID_PARAMETER.test(op.path ?? ''), notQuoted: true },
  // A slug (`acme/api`) names a thing that exists: an operation whose path takes it acts on it, not on
  // another's list of such things ("stop watching acme/noisy-repo"; 0.4, 0.5 higher on plain R@1, lower on dev).
  { name: 'slug', weight: 0.3, written: (_, read) => read.slug === true, takes: (op) => SLUG_PARAMETERS.test(op.path ?? '') },
  // A person put in a place or taken out of it ("add maria and tom to #design", "kick dave off acme/site"):
  // a write that takes people, not one that stars or reacts in that place (0.5 lower on dev, 1 and 1.5 as 0.7).
  { name: 'person', weight: 0.7, written: (_, read) => read.person === true, takes: (op) => writes(op) && op.fieldNames.some((n) => PERSON_FIELD.test(n)) },
  // A key names the thing acted on: an operation that cannot take it cannot do what is asked of it.
  // It is a thing of the resource the catalogue addresses by key (Jira's issues: `/issue/{issueIdOrKey}`):
  // a key parameter after another resource (`/statuscategory/{idOrKey}`) takes some other key, so
  // "what's the status of SUP-441?" is no status category's. Where no such resource is known, any key parameter.
  { name: 'key', weight: 1, written: (q) => TRACKER_KEY.test(q), takes: (op, catalogue) => takesKeyOf(keySegment(op.path), catalogue?.keyStem) },
  { name: 'waiting', weight: 0, written: waitsOnWork, implies: 'dependency' },
  // One tracked thing said to block, duplicate or relate to another, or two said to be linked: a link between the two.
  // Such an operation takes both in its body, not one by key in its path, as the key's kind above rewards: it weighs as much.
  { name: 'related', weight: 1, written: (q) => RELATED_KEYS.test(q) || KEYS_JOINED(q), takes: (op) => RELATING.test(op.summary ?? '') && !KEY_PARAMETER.test(op.path ?? ''), implies: 'link' },
];

/** The stem of the path segment right before `parameters` in a path (`/issue/{issueIdOrKey}`: issu), if any. */
function segmentBefore(parameters: RegExp): (path: string | undefined) => string | undefined {
  const before = new RegExp(`\\/([A-Za-z_-]+)\\/${parameters.source}`);
  return (path) => {
    const m = before.exec(path ?? '');
    return m ? stems(m[1]!.toLowerCase().replace(/[_-]+/g, ''))[0] : undefined;
  };
}
const keySegment = segmentBefore(KEY_PARAMETER);
/** A key parameter after a segment (`keySegment`) takes the catalogue's keys when it follows their resource, or when none is known. */
const takesKeyOf = (segment: string | undefined, keyStem: string | undefined): boolean => segment !== undefined && (keyStem === undefined || segment === keyStem);

/** The stem of the path segment most often right before `parameters`, when at least `least` operations have it. */
function resourceBefore(operations: readonly RankedOperation[], parameters: RegExp, least: number): string | undefined {
  const before = segmentBefore(parameters);
  const counts = new Map<string, number>();
  for (const op of operations) {
    const stem = before(op.path);
    if (stem) counts.set(stem, (counts.get(stem) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] >= least ? best[0] : undefined;
}

/** What a two-part slug in a query names (`/repos/{owner}/{repo}`: repo), when a fifth of the operations have it. */
export const slugResource = (operations: readonly RankedOperation[]): string | undefined => resourceBefore(operations, SLUG_PARAMETERS, operations.length / 5);

/** What a tracker key in a query names (`/issue/{issueIdOrKey}`: issue), when two operations have it. */
export const keyResource = (operations: readonly RankedOperation[]): string | undefined => resourceBefore(operations, KEY_PARAMETER, 2);

/**
 * Marks every operation on a resource (by its head) of which some operation takes the value as
 * taking it too: a day names a thing of a resource that has times ("tomorrow's lunch": an event),
 * whichever operation on it is asked for (deleting one takes no time).
 */
export function takenByResource(takes: boolean[], heads: readonly (string | undefined)[], share = 0): void {
  const counts = new Map<string, { all: number; taking: number }>();
  heads.forEach((head, i) => {
    if (head === undefined) return;
    const count = counts.get(head) ?? { all: 0, taking: 0 };
    count.all++;
    if (takes[i]) count.taking++;
    counts.set(head, count);
  });
  const taking = new Set([...counts].filter(([, c]) => c.taking > 0 && c.taking >= share * c.all).map(([head]) => head));
  heads.forEach((head, i) => {
    if (head !== undefined && taking.has(head)) takes[i] = true;
  });
}
