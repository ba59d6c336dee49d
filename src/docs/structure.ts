// What an operation does, read from its method, path, ID and summary: its action (list, get,
// create, update, delete, cancel, or its own verb), the resource it acts on, the resources above
// that in the path (its scope), and whether it addresses the signed-in user. Works on any
// catalogue: bundled or imported at run time.
import { CANONICAL, READS } from './agreement.ts';
import { actionOfStem, ASKED_ONLY_VERBS, isActionWord, SELF_SEGMENTS, STOP_WORDS, VERB_SYNONYMS, type Action } from './lexicon.ts';
import { stems, words } from './text.ts';

export interface OperationText {
  operationId: string;
  service: string;
  method?: string | undefined;
  path?: string | undefined;
  summary: string;
  description: string;
  /** Whether its answer is a list: it pages, or its success response is an array. */
  returnsList: boolean;
}

export interface Structure {
  /** A canonical action, or the stem of the operation's own verb ("merg", "star"). */
  action: Action | string;
  /** Stems of the resource acted on (`/repos/{o}/{r}/issues/{n}/comments` → comment). */
  resource: string[];
  /**
   * The resource's head: its last stem, or for a method-named path (`/chat.delete`, whose words
   * name a namespace and a verb) the first thing its summary says it acts on ("Deletes a message").
   */
  head: string | undefined;
  /** Stems of what its summary says it acts on: the words after the leading verb ("Deletes a message" → messag). */
  object: string[];
  /** Stems of the resources above it in the path (issue, repo). */
  scope: string[];
  /** Addresses the signed-in user (`/user/…`, `/users/me/…`, "for the authenticated user"). */
  self: boolean;
  /** `self` only because a bare `/user` segment is in its path: the signed-in user where the catalogue addresses others as `/users/{id}`. */
  selfByUserSegment?: true;
  /** A second action its summary names ("Create or update a secret": update). */
  alsoAction?: Action | undefined;
  /** A second verb of its own its description gives ("Parses and validates JQL queries": valid). */
  alsoVerb?: string;
  /** For an operation named after its own verb, the action its method makes: a `GET` reads, a `POST` creates ("Merge a pull request": create). */
  methodAction?: Action | undefined;
}

/** Path segments that only version or prefix an API (`/v1`, `/rest/api/3`). */
const PREFIX_SEGMENT = /^(v\d+(\.\d+)*|api|rest|\d+(\.\d+)*|latest|beta|alpha|public|private)$/i;

/** A path segment that only says "the signed-in user", no noun (`me`, `my`, `myself`). */
const SELF_PRONOUN = /^(?:@?me|my|myself|self|current|current_?user|currentuser|whoami)$/i;

const isParam = (segment: string) => segment.startsWith('{') && segment.endsWith('}');

/** Words that end the noun phrase a summary's verb acts on ("a message *to* a channel"). */
const PHRASE_ENDS = new Set(['to', 'from', 'in', 'into', 'for', 'of', 'on', 'onto', 'with', 'by', 'about', 'as', 'at', 'via', 'within', 'across', 'that', 'which', 'who', 'whose', 'when', 'where', 'if', 'using', 'under', 'over', 'through', 'without', 'between', 'per', 'after', 'before', 'since', 'until', 'so', 'because', 'while', 'and', 'this', 'these', 'those']);
/** A second one inside the phrase starts another ("conversations the calling user may access"). */
const ARTICLES = new Set(['a', 'an', 'the']);
/** Nouns that only hold what follows them ("a list of permissions", "information about a call"). */
const CONTAINERS = new Set(['list', 'information', 'info', 'details', 'detail', 'data']);

/**
 * The stems of the noun phrase a summary's verb acts on, past a second verb ("Opens or resumes a
 * direct message", "Creates and returns a channel") and a container ("Returns list of scopes"), up to the word that ends it;
 * adverbs ("immediately") left out. Its last stem is the phrase's head.
 */
function objectPhrase(summaryText: string): string[] {
  // A comma ends it too: "Set an existing guest, regular user, or admin user" acts on a guest first.
  const all = words(summaryText.split(/[,;:(]|\.\s/)[0]!);
  let at = all.findIndex((w) => !STOP_WORDS.has(w)) + 1;
  if (at === 0) return [];
  if ((all[at] === 'or' || all[at] === 'and') && all[at + 1] !== undefined && (actionOfStem(stems(all[at + 1]!)[0] ?? '') || /s$/.test(all[at + 1]!))) at += 2;
  let phrase: string[] = [];
  for (; at < all.length; at++) {
    const w = all[at]!;
    if (PHRASE_ENDS.has(w)) {
      // A particle right after the verb ("Turns on Do Not Disturb mode"), or a container's "of": read on;
      // a thing's history of something is that something ("Fetches a conversation's history of messages": messages).
      const last = phrase[phrase.length - 1];
      if (last === undefined || (phrase.length === 1 && CONTAINERS.has(last)) || last === 'history') {
        phrase = [];
        continue;
      }
      break;
    }
    if (ARTICLES.has(w) && phrase.length) break;
    if (!STOP_WORDS.has(w) && !/^[a-z]{4,}ly$/.test(w)) phrase.push(w);
  }
  return phrase.flatMap(stems);
}

/**
 * The first verb of a text (summary, or a description's first sentence), past an adverb
 * ("Permanently deletes …"), as its action. For a description, `described` says which words of no
 * action may be a verb, as its first word is less surely one than a summary's.
 */
function leadingAction(text: string, described?: (word: string) => boolean): Action | string | undefined {
  const every = words(text);
  let at = every.findIndex((w) => !STOP_WORDS.has(w));
  if (/^[a-z]{4,}ly$/.test(every[at] ?? '')) at = every.findIndex((w, i) => i > at && !STOP_WORDS.has(w));
  // "Bulk create issue", "Batch update …": how many at once, before the verb.
  if (AT_ONCE_WORDS.has(every[at] ?? '') && actionOfStem(stems(every[at + 1] ?? '')[0] ?? '') !== undefined) at++;
  const first = every[at];
  if (!first) return undefined;
  const stem = stems(first)[0];
  // A participle ("A previously created payout can be canceled") qualifies the subject: no verb of the sentence.
  if (!stem || (described && /ed$/.test(first))) return undefined;
  // A verb in the imperative is followed by its object's article ("Issue a credit note", "End a call"); a noun is not ("Stripe will …").
  if (ASKED_ONLY_VERBS.has(stem)) return stem;
  return actionOfStem(stem) ?? (ownVerb(first) && (!described || described(first) || OBJECT_STARTS.has(every[at + 1] ?? '')) ? stem : undefined);
}

/** Words that open a clause of condition or time. */
const CONDITION_OPENERS = new Set(['when', 'whenever', 'if', 'once', 'after', 'before', 'while', 'since', 'because', 'unless', 'until']);

/** Words that say a verb acts on many things at once. */
const AT_ONCE_WORDS = new Set(['bulk', 'batch', 'mass']);

/** Words an object starts with: articles and determiners. */
const OBJECT_STARTS = new Set(['a', 'an', 'the', 'this', 'these', 'that', 'those', 'your', 'our', 'their', 'its', 'one', 'all', 'every', 'each', 'any', 'some']);

/** A verb in the third person ("Reverses", "Approves"): how a description starts when it starts with its act; not "access", "status", "analysis". */
const THIRD_PERSON = /^[a-z]{2,}[^su]s$/;

/**
 * A first word that is no action word is taken as the operation's own verb ("Merge …", "Stars …"):
 * a noun that lands here only agrees with a query that names it. Digits and one- or two-letter words are not.
 */
const ownVerb = (word: string) => /^[a-z]+$/.test(word) && word.length > 2;

/** The literal words of a path segment: `pull_requests` → pull requests; `chat.postMessage` → chat post message; not "my", which says whose (`/my_permissions`). */
const segmentWords = (segment: string) => words(segment.replace(/\{[^{}]*\}/g, ' ')).filter((w) => w !== 'my');

/** The write an HTTP method makes: `POST` creates, `PUT` and `PATCH` update, `DELETE` deletes. */
function writeOfMethod(method: string | undefined): Action | undefined {
  return method === 'POST' ? 'create' : method === 'PUT' || method === 'PATCH' ? 'update' : method === 'DELETE' ? 'delete' : undefined;
}

export function analyse(op: OperationText): Structure {
  // A segment that joins "my" to what its summary names (`/mypermissions`, "Get my permissions"): the caller's, and that thing.
  const summaryStems = new Set(words(op.summary || '').flatMap(stems));
  const joinedMy = (s: string) => /^my[a-z]{3,}$/.test(s) && stems(s.slice(2)).some((stem) => summaryStems.has(stem));
  const segments = (op.path ?? '').split('/').filter((s) => s && !PREFIX_SEGMENT.test(s)).map((s) => (joinedMy(s) ? `my_${s.slice(2)}` : s));
  const literal = segments.filter((s) => !isParam(s));
  const endsWithParam = segments.length > 0 && isParam(segments[segments.length - 1]!);
  const summaryText = op.summary || op.description.replace(/<[^>]*>/g, ' ').split(/(?<=[.!?])\s/)[0] || '';
  const named = op.operationId.slice(op.operationId.indexOf('.') + 1);
  // A description's first word is a verb less surely than a summary's ("Stripe will …", "A
  // previously created payout …"): without a summary, a word of no action is the operation's own
  // verb only where its path's last segment says so (`…/{payout}/reverse`: "Reverses a payout").
  const lastLiteral = literal[literal.length - 1] ?? '';
  const verbSegment = !endsWithParam && segments.length > 1 && isParam(segments[segments.length - 2]!) && /^[a-z]+$/.test(lastLiteral) ? lastLiteral : undefined;
  const idWords = words(named);
  // Words of the last path segment past its first (`chat.postMessage`: post, message; not `webhook_endpoints`' webhook).
  const segmentTail = segmentWords(lastLiteral).slice(1);
  const described = op.summary ? leadingAction(summaryText) : leadingAction(summaryText, (w) => THIRD_PERSON.test(w) || w === idWords[idWords.length - 1] || w === verbSegment || segmentTail.includes(w));
  // A description that starts with a condition ("When you get a dispute, …") tells what happens first: a read there is not what a write does.
  const leading = !op.summary && CONDITION_OPENERS.has(words(summaryText)[0] ?? '') && (described === 'get' || described === 'list') && writeOfMethod(op.method?.toUpperCase()) ? undefined : described;
  const segmentAction = !leading && verbSegment && op.method?.toUpperCase() === 'POST' ? leadingAction(verbSegment) : undefined;
  // A method-named path (`/users.setActive`, `/chat.unfurl`) says its verb first in its last part.
  const methodVerb = /\w\.\w/.test(lastLiteral) ? words(lastLiteral.slice(lastLiteral.lastIndexOf('.') + 1))[0] : undefined;
  let action = leading ?? segmentAction ?? (methodVerb ? leadingAction(methodVerb) : undefined) ?? leadingAction(named.replace(/[/._-]/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2'));
  // The resource: the last literal segment that is not a verb; a verb segment (`…/merge`) is the action.
  let resourceAt = literal.length - 1;
  const lastWords = literal.length ? segmentWords(literal[literal.length - 1]!) : [];
  // Its verb as the path writes it where the summary says another for it ("Find users", `/user/search`).
  const isOwnVerb = (w: string) => stems(w)[0] === action || [...VERB_SYNONYMS].some(([said, written]) => stems(said)[0] === action && stems(written)[0] === stems(w)[0]);
  // A verb segment starts with its verb (`addDependencies`, `merge`); a noun ending in one is none
  // (`calendarList`). A method name (`admin.users.list`) may end in it.
  const verbWords = /\./.test(literal[literal.length - 1] ?? '') ? lastWords : lastWords.slice(0, 1);
  if (!endsWithParam && literal.length > 1 && verbWords.some((w) => isActionWord(w) || isOwnVerb(w))) resourceAt--;
  // A last segment that only says "the signed-in user" (`/filter/my`, `/myself`) names no resource:
  // the segment before it does, or alone, the user.
  const selfOnly = !endsWithParam && SELF_PRONOUN.test(literal[literal.length - 1] ?? '');
  if (selfOnly) resourceAt--;
  // The operation's own verb in a method name (`conversations.archive`) is no resource either.
  // A verb segment with its object (`/sections/{gid}/addTask`, `/tasks/{gid}/removeTag`): the thing
  // acted on is its noun (task, tag), the head; the resource before it (a section, a task) stays part.
  const actedOn = !endsWithParam && resourceAt === literal.length - 2 && !/\./.test(lastLiteral) && lastWords.length >= 2 && /^[a-z]+[A-Z]/.test(lastLiteral) ? lastWords.slice(1).flatMap(stems) : [];
  const pathResource = selfOnly && resourceAt < 0 ? ['user'] : resourceAt >= 0 ? segmentWords(literal[resourceAt]!).filter((w) => !isActionWord(w) && !isOwnVerb(w)).flatMap(stems) : [];
  const resourceWords = actedOn.length ? [...pathResource, ...actedOn] : pathResource;
  const summaryWords = words(summaryText).filter((w) => !STOP_WORDS.has(w));
  // What the verb acts on, past the participles that only qualify it ("an existing guest", "a pending scheduled message").
  const objectWords = summaryWords.slice(1);
  while (objectWords.length > 1 && /^[a-z]{3,}(ing|ed)$/.test(objectWords[0]!)) objectWords.shift();
  const object = summaryWords.length > 1 && leadingAction(summaryText) !== undefined ? objectWords.slice(0, 2).flatMap(stems) : [];
  // A path whose last word is the verb itself (`PUT /user/starred/{owner}/{repo}`, "Star a
  // repository"): the resource is what the summary acts on. Without a path (a Unified operation,
  // `unified.tasks.create`), the ID's words that are not its verb.
  const resource = resourceWords.length ? resourceWords : resourceAt >= 0 && object.length ? object.slice(0, 1) : words(named).filter((w) => !isActionWord(w)).flatMap(stems);
  const scope = literal.slice(0, Math.max(0, resourceAt)).flatMap((s) => segmentWords(s).flatMap(stems));
  const selfSegments = segments.filter((s, i) => SELF_SEGMENTS.has(s.toLowerCase()) && !isParam(segments[i + 1] ?? ''));
  // "… for the authenticated user", or the summary speaking as the caller ("Get my permissions").
  const selfSaid = /\b(authenticated|current|calling|requesting) user\b/i.test(summaryText) || /\bmy\b/i.test(op.summary);
  const self = selfSegments.length > 0 || selfSaid || segments.some((s) => s.startsWith('my_'));
  // Only a bare `/user` segment says so: in a catalogue that addresses users as `/user?accountId=…`, that is no one in particular.
  const selfByUserSegment = self && !selfSaid && selfSegments.every((s) => s.toLowerCase() === 'user');
  const method = op.method?.toUpperCase();
  const written = writeOfMethod(method);
  if (action === undefined || action === 'get' || action === 'list') {
    if (method === 'GET' || method === undefined) action = op.returnsList || (action === 'list' && !endsWithParam) ? 'list' : (action ?? 'get');
    else if (action === undefined) action = written ?? 'update';
  }
  const [first, or, second] = words(summaryText);
  // Marking a thing as a state a verb makes ("Mark a finalized invoice as void") does that verb too; not a read's ("as read").
  const markedAs = /^marks?$/.test(first ?? '') ? /\bas\s+([a-z]+)\b/i.exec(summaryText.split(/[.!?](?:\s|$)/)[0] ?? '')?.[1]?.toLowerCase() : undefined;
  const markedAction = markedAs ? actionOfStem(stems(markedAs)[0] ?? '') : undefined;
  const alsoAction = or === 'or' && first && second && actionOfStem(stems(first)[0] ?? '') ? actionOfStem(stems(second)[0] ?? '') : markedAction !== undefined && !READS.has(markedAction) ? markedAction : undefined;
  // An operation that does two acts by its description ("Parses and validates JQL queries"): its second verb is its own too.
  const twoActs = /^\s*[A-Z][a-z]+s\s+and\s+([a-z]{3,}s)\b/.exec(op.description ?? '')?.[1];
  const secondVerb = twoActs ? stems(twoActs)[0] : undefined;
  const alsoVerb = secondVerb !== undefined && secondVerb !== action && actionOfStem(secondVerb) === undefined ? secondVerb : undefined;
  const methodNamed = resourceAt >= 0 && resourceAt === literal.length - 1 && /\w\.\w/.test(literal[resourceAt]!);
  // A method-named path's head: what its summary acts on, or the resource when that phrase names it ("a public or private channel-based conversation").
  const phrase = methodNamed ? objectPhrase(summaryText) : [];
  const inResource = phrase.filter((s) => resource.includes(s));
  const head = inResource.length ? inResource[inResource.length - 1] : phrase.length ? phrase[phrase.length - 1] : resource[resource.length - 1];
  const methodAction = CANONICAL.has(action) ? undefined : method === 'GET' ? (op.returnsList ? 'list' : 'get') : written;
  return { action, resource, head, object: phrase.length ? [...new Set([...object, ...phrase])] : object, scope, self, ...(selfByUserSegment ? { selfByUserSegment } : {}), alsoAction, ...(alsoVerb ? { alsoVerb } : {}), ...(methodAction ? { methodAction } : {}) };
}
