// Ranking for intent search. Each operation is read into weighted fields (its resource, summary,
// ID words, scope, tags, parameters, description) and its structure (src/docs/structure.ts); a
// query into an action, a self cue and terms (src/docs/query.ts). A term scores the best field it
// matches, once, times its IDF: so a rare word in a long ID cannot outweigh the resource, and
// repeating a word gains nothing. Agreement of action, resource and scope then adds or takes away.
// Terms the catalogue lacks are widened through the catalogue's own abbreviations ("repo" in paths,
// "repository" in summaries), acronyms of its phrases ("PR": pull request) and word vectors
// learned from public API descriptions (src/docs/word-vectors.ts).
import { createHash } from 'node:crypto';
import { actionOfStem, GOING_BACK_WORDS, isActionForm, isActionWord, isWeakCue, PERSON_WORDS, SELF_WORDS, synonymsOf, VERB_SYNONYMS, type Action } from './lexicon.ts';
import { beforeMessage, parseQuery, type ParsedQuery, type QueryTerm } from './query.ts';
import type { AnalysisFiles } from './analysis-files.ts';
import { actionAgreement, CANONICAL, ownVerbAgreement, questionAgreement, READS } from './agreement.ts';
import { fileNamesIn, keyResource, numberNamers, slugResource, takenByResource, VALUE_KINDS, withoutQuoted } from './values.ts';
import { analysed, analysisKey, type AnalysedOperation, keepAnalysis, type RankedOperation, W } from './analysis.ts';
import { stemOf, stems, textStems, words } from './text.ts';
import { asCommands, grantsAccess, openingVerb, plainVerbs, quietRelativeTimes, revokesAccess, withIdiomsRead } from './cues.ts';
import { preferDefaultVariants, VARIANT_WINDOW, type Scored } from './variants.ts';
import { wordVectorModels, wordVectors } from './word-vectors.ts';
import { commonDirection, unitLength, withoutCommon } from './meaning.ts';
import { RANK_WEIGHTS as B, SCORE_PARTS, SCORE_WEIGHTS } from './weights.ts';
import { RERANK_DEPTH, reorder } from './rerank.ts';
import { withWrittenAcronyms, writtenAcronyms, type WrittenAcronyms } from './written-acronyms.ts';
import { operationTokens, pairParts, pairsKnow, requestTokens, wordPairs } from './word-pairs.ts';

export type { RankedOperation } from './analysis.ts';

export interface Hit {
  id: string;
  score: number;
  /** How much of the query the operation explains by its own words (not by neighbours in meaning), 0–1: low means a weak guess. */
  coverage: number;
}

const TOP = W.head;

/** The verb for asking someone to do a thing, stemmed: what a causative frame ("get sam to review …") does. */
const REQUESTING = 'request';

/** A path that ends in one person taken by ID (`/teams/{team_id}/members/{username}`, `/members/{user_id}`): it answers about someone already known. */
const ONE_PERSON = /\/\{[^{}]*(?:user|member|person|login|collaborator|assignee|account)[^{}]*\}$/i;

type Doc = AnalysedOperation;

/** Stems of the words catalogues use for people. */
const PEOPLE_STEMS = new Set(PERSON_WORDS.flatMap((w) => stems(w)));
/** A capitalised word used by this many of a catalogue's operations is one of its names, not a person's. */
const CATALOGUE_NAME_USES = 3;

/** A scope this share of a catalogue's operations are under is its common container, left unsaid. */
const COMMON_SCOPE_SHARE = 0.4;

/** How many words apart two query words may be and still be read as one catalogue word. */
const COMPOUND_SPAN = 5;

/** A thing under one of its kind, or one broken into smaller ones ("break the task into smaller pieces"). */
const NESTING = /\b(?:child|children|nest|nested|nesting|underneath|beneath)\b|\bsmaller\s+(?:pieces|parts|steps?|chunks|bits|items?|ones|to-?dos?|tasks?)\b|\b(?:break|breaking|split|splitting|divide|dividing)\s+(?:\S+\s+){1,6}?into\s+(?:\S+\s+)?(?:smaller|pieces|parts|steps|chunks)\b/i;

/** A thing asked for as new ('a brand new calendar', 'a separate calendar just for …'), not a new value of one ('needs a new value'). */
const NEW_THING = /\b(?:a|an)\s+(?:brand[\s-]new|new|fresh|separate)\b(?!\s+(?:value|name|title|description|password|colou?r|topic|purpose|date|time|owner|deadline)\b)/i;

/** A thing switched on ("turn on Pages", "switch the website hosting on", "enable …"). */
const SWITCHED_ON = /\b(?:turn|switch|flip)\s+on\b|\b(?:turn|switch|flip)\s+(?:\S+\s+){1,3}?on\b(?!\s+(?:the|a|an|my|our)\b)|\b(?:enable|activate)\b/i;

/** Every one of a kind acted on ("clear my whole to-do list", "mark everything as read", "delete all of them"); not "at all". */
const EVERY_ONE_ACTED_ON = /\b(?:(?<!\bat\s)all|every|everything|whole|entire)\b/i;

/** 1 where a condition holds: a score part that is there or not. */
const on = (holds: unknown): number => (holds ? 1 : 0);
/** Where the parts computed for the second stage's window only are. */
const ALIGN_GIST = SCORE_PARTS.indexOf('alignGist');
const ALIGN_TOLD = SCORE_PARTS.indexOf('alignTold');
const HEAD_BELIEF = SCORE_PARTS.indexOf('headBelief');
const PAIR_BEST = SCORE_PARTS.indexOf('pairBest');
const PAIR_MEAN = SCORE_PARTS.indexOf('pairMean');
const GROUP_BELIEF = SCORE_PARTS.indexOf('groupBelief');
/** The first stage's scores differ by tenths: its belief in a candidate is a softmax of them at this temperature (the one test/search-eval/train-reranker.ts divides scores by). */
const BELIEF_TEMPERATURE = 0.1;
/** An operation's group: its first tag, or its path's first word that is neither a version nor a parameter. */
const groupOf = (op: RankedOperation): string => op.tags[0] ?? (op.path ?? '').split('/').find((s) => s && !s.startsWith('{') && !/^v\d/.test(s)) ?? '';

/** Verbs a summary opens with that answer yes or no ("Check if …", "Validate project key", "Verify …"). */
const CHECKING_STEMS: ReadonlySet<string> = new Set(['check', 'valid', 'verifi', 'test']);

/** Nouns for who does something: follower, contributor, assignee, registrar. */
const AGENT_NOUN = /[a-z]{3}(?:er|or|ee|ar)s?$/;

/** Rankers kept by the texts of their operations, in order; the least recently used go first. */
const RANKERS_KEPT = 16;
const rankers = new Map<string, Ranker>();

/** Forgets every ranker kept (benchmarks measure a build as a new process makes it). */
export function forgetRankers(): void {
  rankers.clear();
}

/** Stems of the everyday verbs for finding that catalogues write as another (find, locate: search). */
const FINDING_STEMS: ReadonlySet<string> = new Set([...VERB_SYNONYMS.keys()].map(stemOf));
/** Heads that name no kind of thing ("Pins an item to a channel"): a query's resource may be one. */
const GENERIC_HEADS: ReadonlySet<string> = new Set(['item', 'object', 'entiti', 'thing', 'record', 'entri']);

export class Ranker {
  /**
   * The ranker of these operations: built once per distinct set of operation texts, so MCP
   * versions over the same catalogue version share one, and a version rebuilt after a restart of
   * its index in the same process costs no analysis.
   */
  static for(operations: readonly RankedOperation[], files?: AnalysisFiles): Ranker {
    const hash = createHash('sha256');
    for (const op of operations) hash.update(analysisKey(op));
    const key = hash.digest('base64');
    let ranker = rankers.get(key);
    if (ranker) rankers.delete(key);
    else {
      // Analyses a previous process kept on disk for these very operations are used as they are.
      const kept = files?.load(key);
      const usable = kept?.length === operations.length && kept.every((a, i) => a.id === operations[i]!.operationId);
      if (usable) operations.forEach((op, i) => keepAnalysis(op, kept[i]!));
      ranker = new Ranker(operations);
      const docs = ranker.docs;
      // Written after this answer, not before it.
      if (!usable && files) setImmediate(() => files.save(key, docs));
      if (rankers.size >= RANKERS_KEPT) rankers.delete(rankers.keys().next().value!);
    }
    rankers.set(key, ranker);
    return ranker;
  }

  private readonly docs: Doc[] = [];
  /** Each operation's group (its first tag, or its path's first word), for the second stage. */
  private readonly groups: string[] = [];
  private readonly postings = new Map<string, number[]>();
  /** The weight of each stem in each operation of its postings, in the same order. */
  private readonly postingWeights = new Map<string, number[]>();
  /** Operations each stem is found in, outside descriptions. */
  private readonly df = new Map<string, number>();
  /** A word the catalogue writes for each stem (for word vectors), and abbreviation pairs. */
  private readonly surface = new Map<string, string>();
  private readonly aliases = new Map<string, Set<string>>();
  /** Initials of the catalogue's two-word phrases ("pr" → pull request), most frequent first. */
  private readonly acronyms = new Map<string, { stems: string[]; count: number }>();
  /** Per vector model, the rows of the catalogue's words. */
  private vectorRows: number[][] | undefined;
  /** Each operation's meaning: the IDF-weighted mean of its words' vectors, unit length (built on first use). */
  private meanings: (Float32Array | undefined)[] | undefined;
  /** The direction all the operations' meanings share (./meaning.ts), once they are built. */
  private common: Float32Array | undefined;
  /** Vector rows of each operation's gist (key 2i) and told words (2i + 1), for the second stage's alignment. */
  private readonly rowsByDoc = new Map<number, number[]>();
  /** Each operation's words for the learned word pairs (./word-pairs.ts), found once. */
  private readonly pairTokensByDoc = new Map<number, string[]>();
  /** Each operation's service: the word pairs rank only the services they were learned on. */
  private readonly services: string[] = [];
  /** The resource a two-part slug names in this catalogue (`/repos/{owner}/{repo}`: repo), if one. */
  private readonly slugStem: string | undefined;
  /** The resource a tracker key names in this catalogue (`/issue/{issueIdOrKey}`: issue), if one. */
  private readonly keyStem: string | undefined;
  /** Stems of five letters or more by their first five. */
  private readonly byPrefix = new Map<string, string[]>();

  /** Acronyms the catalogue writes out, by phrase (./written-acronyms.ts). */
  private readonly acronymPhrases: WrittenAcronyms;

  constructor(operations: readonly RankedOperation[]) {
    this.acronymPhrases = writtenAcronyms(operations);
    this.slugStem = slugResource(operations);
    this.userSegmentIsSelf = operations.some((op) => /\/users\/\{/.test(op.path ?? ''));
    this.keyStem = keyResource(operations);
    const prefixPairs = new Map<string, number>();
    const phrases = new Map<string, number>();
    for (const op of operations) {
      const doc = analysed(op);
      VALUE_KINDS.forEach((kind, k) => (this.takes[k]![this.docs.length] = kind.takes?.(op, { keyStem: this.keyStem }) ?? false));
      const index = this.docs.length;
      this.onePerson.push(ONE_PERSON.test(op.path ?? ''));
      this.groups.push(groupOf(op));
      this.services.push(op.service);
      this.bareIds.push(/\{(?:id|iid)\}/i.test(op.path ?? ''));
      // Another thing's ID after the bare one (`/projects/{id}/merge_requests/{merge_request_id}/comments`): its path's own words say which things it is under.
      const underOthers = /\{(?!(?:id|iid)\})[^{}]*\}/i.test(op.path ?? '') ? new Set(textStems((op.path ?? '').replace(/\{[^{}]*\}/g, ' '))) : undefined;
      this.underOthers.push(underOthers);
      for (const stem of underOthers ?? []) this.underOthersWords.add(stem);
      for (const name of fileNamesIn(op.summary)) this.fileNames.set(name, [...(this.fileNames.get(name) ?? []), index]);
      this.docs.push(doc);
      for (const [stem, weight] of doc.fields) {
        let list = this.postings.get(stem);
        let weights = this.postingWeights.get(stem);
        if (!list || !weights) {
          this.postings.set(stem, (list = []));
          this.postingWeights.set(stem, (weights = []));
        }
        list.push(index);
        weights.push(weight);
        if (weight > W.description) this.df.set(stem, (this.df.get(stem) ?? 0) + 1);
      }
      for (const [s, w] of doc.surface) if (!this.surface.has(s)) this.surface.set(s, w);
      for (const pair of doc.prefixPairs) prefixPairs.set(pair, (prefixPairs.get(pair) ?? 0) + 1);
      for (const phrase of doc.phrases) phrases.set(phrase, (phrases.get(phrase) ?? 0) + 1);
    }
    for (const stem of this.postings.keys()) {
      if (stem.length < 5) continue;
      const list = this.byPrefix.get(stem.slice(0, 5));
      if (list) list.push(stem);
      else this.byPrefix.set(stem.slice(0, 5), [stem]);
    }
    VALUE_KINDS.forEach((kind, k) => kind.byResource !== undefined && takenByResource(this.takes[k]!, this.docs.map((d) => d.structure.head), kind.byResource));
    for (const [pair, count] of prefixPairs) {
      const [short, long] = pair.split(' ') as [string, string];
      // Written together often, and on a good share of the operations that use the short form.
      if (count < 2 || count < 0.2 * (this.df.get(short) ?? 0)) continue;
      for (const [a, b] of [[short, long], [long, short]] as const) {
        let set = this.aliases.get(a);
        if (!set) this.aliases.set(a, (set = new Set()));
        set.add(b);
      }
    }
    for (const [phrase, count] of phrases) {
      if (count < 2) continue;
      const parts = phrase.split(' ');
      const initials = parts.map((p) => p[0]).join('');
      const known = this.acronyms.get(initials);
      if (!known || known.count < count) this.acronyms.set(initials, { stems: parts.flatMap(stems), count });
    }
  }

  private get maxIdf(): number {
    return Math.log(1 + this.docs.length);
  }

  /** Each operation's about-stems' IDF over the largest IDF, in the order of its `about` (found on first use). */
  private readonly aboutSharesByDoc: Float64Array[] = [];
  private aboutShares(i: number): Float64Array {
    let shares = this.aboutSharesByDoc[i];
    if (!shares) this.aboutSharesByDoc[i] = shares = Float64Array.from(this.docs[i]!.about, (s) => this.idf(s) / this.maxIdf);
    return shares;
  }

  private idf(stem: string): number {
    return Math.log(1 + this.docs.length / ((this.df.get(stem) ?? 0) + 1));
  }

  /** By value kind (VALUE_KINDS), by operation: whether it takes such a value. */
  private readonly takes: boolean[][] = VALUE_KINDS.map(() => []);
  /** By operation: whether its path takes a bare `{id}`, which says nothing of whose. */
  private readonly bareIds: boolean[] = [];
  /** Per operation with another thing's ID after its bare one, the stems of its path's own words. */
  private readonly underOthers: (Set<string> | undefined)[] = [];
  /** Every stem of those paths' own words. */
  private readonly underOthersWords = new Set<string>();
  /** By operation: whether its path ends in one person taken by ID. */
  private readonly onePerson: boolean[] = [];
  /** Operations by the file names their summary writes (`.gitlab-ci.yml`), lower-case. */
  private readonly fileNames = new Map<string, number[]>();
  /** Whether a bare `/user` segment is the signed-in user here: the catalogue addresses others as `/users/{id}` (GitHub, GitLab), not as `/user?accountId=…` (Jira). */
  private readonly userSegmentIsSelf: boolean;
  private isSelf(doc: Doc): boolean {
    return doc.structure.self && (this.userSegmentIsSelf || !doc.structure.selfByUserSegment);
  }
  private resourceStems: Set<string> | undefined;
  /** Whether the catalogue has the stem as a resource (a noun of its paths or what a summary acts on). */
  private isResource(stem: string): boolean {
    this.resourceStems ??= new Set(this.docs.flatMap((d) => [...d.structure.resource, ...d.structure.object, ...d.structure.scope]));
    return this.resourceStems.has(stem);
  }

  /** Resource words of the catalogue (the last noun of paths), as written, with their stems. */
  private resourceWords: Map<string, string> | undefined;

  /**
   * The resources an identifier's prefix may abbreviate: the initials of a catalogue phrase
   * ("pi": payment intent), else resource words it begins ("cus": customer), else resource words
   * with the same first letter holding its letters in order ("dp": dispute).
   */
  private expandPrefix(prefix: string): Map<string, number> {
    const out = new Map<string, number>();
    const acronym = this.acronyms.get(prefix);
    if (acronym && acronym.count >= 2) {
      for (const s of acronym.stems) out.set(s, 1);
      return out;
    }
    this.resourceWords ??= new Map(
      this.docs.flatMap((d) => d.structure.resource.map((stem) => [this.surface.get(stem) ?? stem, stem] as [string, string])).filter(([word]) => word.length > 2),
    );
    const inOrder = (word: string) => {
      let at = 0;
      for (const ch of word) if (ch === prefix[at]) at++;
      return at === prefix.length;
    };
    const starts = [...this.resourceWords].filter(([word]) => word.startsWith(prefix));
    const found = starts.length ? starts : [...this.resourceWords].filter(([word]) => word[0] === prefix[0] && inOrder(word));
    // Several readings share the weight: a short prefix says little.
    for (const [, stem] of found) out.set(stem, Math.max(out.get(stem) ?? 0, 1 / Math.sqrt(found.length)));
    return out;
  }

  /** The stems of the catalogue's frequent phrase whose initials a short word is ("pr", "prs": pull request). */
  private acronymOf(word: string): string[] | undefined {
    const bare = word.replace(/s$/, '');
    const acronym = bare.length >= 2 && bare.length <= 4 ? this.acronyms.get(bare) : undefined;
    return acronym && acronym.count >= 3 ? acronym.stems : undefined;
  }

  private compounds: Map<string, string[]> | undefined;
  /** The catalogue's words made of two of its words ("worklog": work, log), by the stem of the second. */
  private compoundsEndingIn(): Map<string, string[]> {
    if (!this.compounds) {
      this.compounds = new Map();
      for (const [stem, word] of this.surface) {
        if (word.length < 7 || !/^[a-z]+$/.test(word)) continue;
        for (let cut = 3; cut <= word.length - 3; cut++) {
          const head = stems(word.slice(0, cut))[0];
          const tail = stems(word.slice(cut))[0];
          if (!head || !tail || tail === stem || !this.df.has(head) || !this.df.has(tail)) continue;
          const list = this.compounds.get(tail);
          if (list) list.push(stem);
          else this.compounds.set(tail, [stem]);
          break;
        }
      }
    }
    return this.compounds;
  }

  /** Stems a query term stands for in this catalogue, each with how much a match on it counts. */
  private expand(word: string, stem: string, name: boolean, joined = false): { expansions: Map<string, number>; guessed: Set<string> } {
    const out = new Map<string, number>([[stem, 1]]);
    // Stems added only as neighbours by meaning: they rank, but do not make a match confident.
    const guessed = new Set<string>();
    for (const alias of this.aliases.get(stem) ?? []) out.set(alias, 1);
    // The same word stemmed differently ("deploi" and "deploy", "contribut" and "contributor").
    if (stem.length >= 5) {
      for (const other of this.byPrefix.get(stem.slice(0, 5)) ?? []) {
        // One extends the other, or they differ in their last letter only: not "approv" and "approxim".
        const variant = other.startsWith(stem) || stem.startsWith(other) || (other.length === stem.length && other.slice(0, -1) === stem.slice(0, -1));
        if (other !== stem && variant && !out.has(other)) out.set(other, 0.8);
      }
    }
    // A compound ending in one of the catalogue's words ("upvote": vote, "webhooks": hook).
    if (!this.df.has(stem)) {
      for (let cut = 2; cut <= word.length - 4; cut++) {
        const tail = stems(word.slice(cut))[0];
        if (tail && tail.length >= 4 && this.df.has(tail) && !out.has(tail)) {
          out.set(tail, 0.7);
          break;
        }
      }
    }
    // A compound of the catalogue's that ends in the word ("log": worklog, changelog): less surely.
    if (!joined) for (const compound of this.compoundsEndingIn().get(stem) ?? []) if (!out.has(compound)) out.set(compound, 0.5);
    // A word the catalogue lacks stands for its synonyms that it has ("copy": duplicate), and then
    // for no neighbours by meaning, which a synonym is surer than.
    // A word the catalogue has stands for them too, less surely: its own sense there may differ ("tag": label, and git's tags).
    const synonyms = this.catalogueSynonyms(stem);
    for (const s of synonyms) if (!out.has(s)) out.set(s, this.df.has(stem) ? B.knownSynonym : 0.9);
    // A short word may be the initials of one of the catalogue's phrases ("pr": pull request).
    const acronym = this.acronymOf(word);
    if (acronym) for (const s of acronym) out.set(s, 0.9);
    // Unknown here: the nearest words by meaning.
    else if (!this.df.has(stem) && !name && !synonyms.length) {
      const models = wordVectorModels();
      this.vectorRows ??= models.map((vectors) => [...this.surface.values()].map((w) => vectors.indexOf(w)).filter((r) => r >= 0));
      const nears = models.flatMap((vectors, m) => vectors.nearest(word, this.vectorRows![m]!, 3, B.nearCosine[m] ?? 1));
      for (const near of nears) {
        const s = stems(near.word)[0];
        // A neighbour that only carries a question or "me" says nothing of what to act on.
        if (isWeakCue(near.word) || SELF_WORDS.has(near.word)) continue;
        // Meaning puts a verb near its undoing (lock: unblock); the undoing is asked for by its own prefix.
        if (!word.startsWith('un') && this.undoes(stems(near.word)[0] ?? '')) continue;
        // And puts verbs of one act near those of another (make: change, get): an act is widened by the verb lexicon only.
        if (isActionWord(word) && isActionForm(near.word) && actionOfStem(stemOf(near.word)) !== actionOfStem(stemOf(word))) continue;
        if (s && !out.has(s)) {
          out.set(s, near.cosine * 0.8);
          guessed.add(s);
        }
      }
    }
    return { expansions: out, guessed };
  }

  private acted: Map<string, Map<string, number>> | undefined;
  /** By place, by head: how many operations act on that head under the place (`/projects/{id}/sections`: section under project). */
  private actedUnder(): Map<string, Map<string, number>> {
    if (!this.acted) {
      this.acted = new Map();
      for (const { structure: { head, scope } } of this.docs) {
        if (head === undefined) continue;
        for (const p of scope) {
          const counts = this.acted.get(p) ?? this.acted.set(p, new Map()).get(p)!;
          counts.set(head, (counts.get(head) ?? 0) + 1);
        }
      }
    }
    return this.acted;
  }

  private placed: Map<string, Set<string>> | undefined;
  /**
   * What a place holds that is made on its own and put there ("project": task): heads listed under
   * the place (`GET /projects/{id}/tasks`) and created elsewhere, not under it (`POST /tasks`);
   * where none is, the one head listed under it that most of its operations act on ("calendar": event).
   */
  private placedIn(place: string): ReadonlySet<string> {
    if (!this.placed) {
      const listedUnder = new Map<string, Set<string>>();
      const createdUnder = new Map<string, Set<string>>();
      const createdAlone = new Set<string>();
      for (const d of this.docs) {
        const { head, action, scope } = d.structure;
        if (head === undefined) continue;
        if (action === 'list') for (const p of scope) (listedUnder.get(p) ?? listedUnder.set(p, new Set()).get(p)!).add(head);
        if (action === 'create') {
          if (scope.length === 0) createdAlone.add(head);
          for (const p of scope) (createdUnder.get(p) ?? createdUnder.set(p, new Set()).get(p)!).add(head);
        }
      }
      this.placed = new Map();
      for (const [p, heads] of listedUnder) {
        const held = [...heads].filter((h) => createdAlone.has(h) && !createdUnder.get(p)?.has(h));
        if (held.length) this.placed.set(p, new Set(held));
        else {
          // Else what the catalogue does most under the place, when one thing leads ("a calendar": its events).
          const counts = this.actedUnder().get(p)!;
          const most = Math.max(...[...heads].map((h) => counts.get(h) ?? 0));
          const top = [...heads].filter((h) => (counts.get(h) ?? 0) === most);
          if (top.length === 1 && most >= 3) this.placed.set(p, new Set(top));
        }
      }
    }
    return this.placed.get(place) ?? new Set();
  }

  private subs: string[] | undefined;
  /** The catalogue's one-word sub-things of a resource it has (`subtask`). */
  private subThings(): readonly string[] {
    return (this.subs ??= [...this.postings.keys()].filter((stem) => stem.length > 5 && stem.startsWith('sub') && this.isResource(stem.slice(3))));
  }

  private listed: Set<string> | undefined;
  /** Heads of the resources the catalogue lists by a list operation. */
  private listedHeads(): Set<string> {
    return (this.listed ??= new Set(this.docs.filter((d) => d.structure.action === 'list' && d.structure.head !== undefined).map((d) => d.structure.head!)));
  }

  private commonScopes: Set<string> | undefined;
  /** Whether a scope is one a large share of the catalogue's operations are under (GitHub's `repo`, GitLab's `project`). */
  private isCommonScope(stem: string): boolean {
    if (!this.commonScopes) {
      const counts = new Map<string, number>();
      for (const d of this.docs) for (const s of new Set(d.structure.scope)) counts.set(s, (counts.get(s) ?? 0) + 1);
      this.commonScopes = new Set([...counts].filter(([, n]) => n >= COMMON_SCOPE_SHARE * this.docs.length).map(([s]) => s));
    }
    return this.commonScopes.has(stem);
  }

  private headActions: Map<string, Set<string>> | undefined;
  /** The actions the catalogue performs on each head ("branch": get, list, update; "ref": delete, …). */
  private actionsOnHead(head: string): ReadonlySet<string> {
    if (!this.headActions) {
      this.headActions = new Map();
      for (const d of this.docs) {
        const { head: h, action } = d.structure;
        if (h === undefined) continue;
        let actions = this.headActions.get(h);
        if (!actions) this.headActions.set(h, (actions = new Set()));
        actions.add(action);
      }
    }
    return this.headActions.get(head) ?? new Set();
  }

  private verbsByAction = new Map<string, Map<string, number>>();
  /** The verbs the catalogue's summaries start with for an action ("Delete …", "Remove …"): how it writes the action. */
  private actionVerbs(action: Action): Map<string, number> {
    let found = this.verbsByAction.get(action);
    if (!found) {
      found = new Map();
      for (const d of this.docs) {
        const verb = d.summaryStems[0];
        if (verb !== undefined && d.structure.action === action && actionOfStem(verb) === action) found.set(verb, 1);
      }
      if (!found.size) found.set(stems(action)[0]!, 1);
      this.verbsByAction.set(action, found);
    }
    return found;
  }

  /** The stems of a stem's synonyms of general English that the catalogue has ("copi": duplic). */
  private catalogueSynonyms(stem: string): string[] {
    return synonymsOf(stem).map((synonym) => stems(synonym)[0]!).filter((s) => this.df.has(s));
  }

  /** How the catalogue writes an action a verb it lacks asks for: its verbs for the action, and the verb's synonyms it has ("relocate": move). */
  private verbsFor(action: Action, stem: string): Map<string, number> {
    const synonyms = this.catalogueSynonyms(stem);
    if (!synonyms.length) return this.actionVerbs(action);
    // The synonym is what the verb means; the action's other verbs, only what kind of act it is.
    return new Map([...[...this.actionVerbs(action).keys()].map((s): [string, number] => [s, 0.5]), ...synonyms.map((s): [string, number] => [s, 1])]);
  }

  /** How a query, its acronyms' phrases read already, is read: idioms in the catalogue's words, requests in other forms as commands, light verbs. */
  private read(query: string): ParsedQuery {
    return parseQuery(plainVerbs(asCommands(withIdiomsRead(query), (w) => isActionWord(w) || this.ownVerbs().has(stemOf(w)))));
  }

  private ownVerbSet: Set<string> | undefined;
  /** The catalogue's own verbs: the actions of its operations that are none of the canonical ones (merg, star, follow). */
  private ownVerbs(): ReadonlySet<string> {
    return (this.ownVerbSet ??= new Set(this.docs.map((d) => d.structure.action).filter((a) => !CANONICAL.has(a))));
  }

  /** The action undoes another action of the catalogue's own: `unblock` of `block`, `unprotect` of `protect`. */
  private undoes(action: string): boolean {
    return action.startsWith('un') && this.ownVerbs().has(action.slice(2));
  }

  /** The query asks to undo something: a verb undone by a prefix ("unlock", "unpin"), or a word for going back ("again", "lift", "restore"). */
  private saysUndo(query: string): boolean {
    return words(query).some((w) => {
      if (GOING_BACK_WORDS.has(w)) return true;
      const undone = w.startsWith('un') && w.length >= 5 ? w.slice(2) : undefined;
      return undone !== undefined && (isActionWord(undone) || this.ownVerbs().has(stemOf(undone)) || this.df.has(stemOf(undone)));
    });
  }

  /** The operation writes its head as a noun for who does what a query word says (follower, assignee, stargazer). */
  private agentNoun(doc: Doc, head: string, terms: readonly QueryTerm[]): boolean {
    const word = doc.surface.find(([s]) => s === head)?.[1];
    return word !== undefined && AGENT_NOUN.test(word) && terms.some((t) => !t.optional && !t.name && t.stem.length >= 4 && word.startsWith(t.stem) && !AGENT_NOUN.test(t.word));
  }

  /** The IDF-weighted mean of some words' vectors, unit length; undefined when none is known. */
  private meaning(list: readonly { word: string; weight: number }[]): Float32Array | undefined {
    const vectors = wordVectors();
    const rows = this.rowsOf(list);
    if (!rows.length) return undefined;
    const sum = new Float32Array(vectors.dim);
    for (const { row, weight } of rows) vectors.addTo(row, sum, weight);
    return unitLength(sum);
  }

  /** Rows of some words in the API-corpus vectors, with their weights; unknown words left out. */
  private rowsOf(list: readonly { word: string; weight: number }[]): { row: number; weight: number }[] {
    const vectors = wordVectors();
    return list.map(({ word, weight }) => ({ row: vectors.indexOf(word), weight })).filter((r) => r.row >= 0 && r.weight > 0);
  }

  /** Rows of an operation's gist or told words (analysis.ts), found once per operation. */
  private gistRows(i: number, which: 'gist' | 'told'): number[] {
    const key = which === 'gist' ? 2 * i : 2 * i + 1;
    let rows = this.rowsByDoc.get(key);
    if (!rows) {
      const vectors = wordVectors();
      rows = [...new Set(this.docs[i]![which].map((w) => vectors.indexOf(w.toLowerCase())).filter((r) => r >= 0))];
      this.rowsByDoc.set(key, rows);
    }
    return rows;
  }

  /**
   * Each query word's closest word among `rows` by cosine, weighted by the query word's weight: 0
   * where either has none. `seen` keeps each query word's cosines with the rows met in this search:
   * the window's operations share most of their words.
   */
  private alignment(query: readonly { row: number; weight: number }[], rows: readonly number[], seen: readonly Map<number, number>[]): number {
    if (!query.length || !rows.length) return 0;
    const vectors = wordVectors();
    let sum = 0;
    let weights = 0;
    query.forEach(({ row, weight }, q) => {
      const cosines = seen[q]!;
      let best = -1;
      for (const r of rows) {
        let cosine = cosines.get(r);
        if (cosine === undefined) cosines.set(r, (cosine = r === row ? 1 : vectors.similarity(row, r)));
        if (cosine > best) best = cosine;
      }
      sum += weight * best;
      weights += weight;
    });
    return sum / weights;
  }

  /**
   * The parts only the second stage reads, computed for its window of candidates alone (given best
   * first, each with its first-stage score, operation and parts, written in place): how each query
   * word aligns by meaning with the operation's words, and how much of the first stage's belief (a
   * softmax of its scores) rests on the operation's head and on its group.
   */
  private fillWindowParts(window: readonly { score: number; doc: number; parts: number[] }[], askedWords: readonly { word: string; weight: number }[], requestWords: readonly string[], withPairs: boolean, explain?: Map<string, Record<string, unknown>>): void {
    // Read only where used: the table is large, and most catalogues are not among those it knows.
    const pairs = withPairs ? wordPairs().pairs : {};
    const queryRows = this.rowsOf(askedWords);
    const seen = queryRows.map(() => new Map<number, number>());
    const belief = window.map((c) => Math.exp((c.score - window[0]!.score) / BELIEF_TEMPERATURE));
    const total = belief.reduce((a, b) => a + b, 0);
    const headOf = (c: { doc: number }) => this.docs[c.doc]!.structure.head ?? '';
    const heads = new Map<string, number>();
    const groups = new Map<string, number>();
    window.forEach((c, k) => {
      heads.set(headOf(c), (heads.get(headOf(c)) ?? 0) + belief[k]! / total);
      groups.set(this.groups[c.doc]!, (groups.get(this.groups[c.doc]!) ?? 0) + belief[k]! / total);
    });
    for (const c of window) {
      c.parts[ALIGN_GIST] = this.alignment(queryRows, this.gistRows(c.doc, 'gist'), seen);
      c.parts[ALIGN_TOLD] = this.alignment(queryRows, this.gistRows(c.doc, 'told'), seen);
      c.parts[HEAD_BELIEF] = heads.get(headOf(c))!;
      c.parts[GROUP_BELIEF] = groups.get(this.groups[c.doc]!)!;
      if (!withPairs && !explain) continue;
      let tokens = this.pairTokensByDoc.get(c.doc);
      if (!tokens) this.pairTokensByDoc.set(c.doc, (tokens = operationTokens(this.docs[c.doc]!.gist, this.docs[c.doc]!.structure)));
      if (withPairs) [c.parts[PAIR_BEST], c.parts[PAIR_MEAN]] = pairParts(pairs, requestWords, tokens);
      // The trainer reads each candidate's words to count the pairs (test/search-eval/train-reranker.ts).
      const explained = explain?.get(this.docs[c.doc]!.id);
      if (explained) explained.tokens = tokens;
    }
  }

  private meaningOf(i: number): Float32Array | undefined {
    return this.meaningsOf()[i];
  }

  /** Each operation's meaning, with a share of what all of them mean taken out (./meaning.ts). */
  private meaningsOf(): (Float32Array | undefined)[] {
    if (!this.meanings) {
      const meanings = this.docs.map((d) => this.meaning([...d.gist.map((word) => ({ word, weight: this.idf(stems(word)[0]!) })), ...d.told.map((word) => ({ word, weight: B.told * this.idf(stems(word)[0]!) }))]));
      this.common = commonDirection(meanings);
      this.meanings = meanings.map((m) => m && this.distinct(m));
    }
    return this.meanings;
  }

  /** A meaning without the share of the catalogue's common direction that every operation has. */
  private distinct(meaning: Float32Array): Float32Array | undefined {
    // The mean of a few operations' meanings is mostly their own: a small catalogue takes out less.
    return this.common ? withoutCommon(meaning, this.common, (B.commonMeaning * this.docs.length) / (this.docs.length + B.commonMeaningFrom)) : meaning;
  }

  /** How many operations use a stem (0: none): what ./spelling.ts reads a mistyped word against. */
  readonly uses = (stem: string): number => this.postings.get(stem)?.length ?? 0;

  /**
   * The best operations for the query `typed`, best first; `keep` filters operation IDs; `read`
   * is the query as read, when already read. `explain`, when given, receives each candidate's
   * score parts by operation ID and the query as read under "(query)": what tuning on the
   * evaluation's dev split reads.
   */
  search(typed: string, limit: number, keep: (id: string) => boolean = () => true, read?: ParsedQuery, explain?: Map<string, Record<string, unknown>>): Hit[] {
    // The catalogue's acronyms for the phrases the query writes ("do not disturb": dnd), read first.
    const query = withWrittenAcronyms(typed, this.acronymPhrases);
    const asRead = quietRelativeTimes(query, read ?? this.read(query));
    // Capitalised words that are all the catalogue's own ("an encrypted Actions secret") name no person: no words for people implied.
    const namesNoPerson = asRead.personNames?.every((w) => (this.df.get(stems(w)[0] ?? '') ?? 0) >= CATALOGUE_NAME_USES) === true;
    const parsed = namesNoPerson ? { ...asRead, terms: asRead.terms.filter((t) => !(t.at < 0 && t.optional && PEOPLE_STEMS.has(t.stem))) } : asRead;
    // A word the catalogue does not have, right before one it has, names which one ("the acme
    // organization", "the frontend team"): a name, not a word to widen.
    const known = (stem: string) => this.postings.has(stem) || this.aliases.has(stem);
    const modifiers = new Set(parsed.terms.filter((t) => !t.name && t.at >= 0 && !known(t.stem) && parsed.terms.some((n) => n.at === t.at + 1 && n.weight === 1 && known(n.stem))).map((t) => t.at));
    // A slug (acme/api) names the catalogue's resource addressed by two path parameters: implied, counted when matched.
    // So does a tracker key (PROJ-12) the resource its key parameter addresses, and an email address the word for it.
    const implied: QueryTerm[] = [];
    // A bare object that is no resource of the catalogue is a person ("kick dave off the repo"), put in a place or taken out unless renamed.
    // One read as someone by its form only is a person where the catalogue has no such word ("add the florist to #wedding", not "the header").
    const personAt = (t: QueryTerm) => t.bareObject === true && !this.isResource(t.stem) && !(t.personByForm && this.df.has(t.stem));
    const person = parsed.terms.some(personAt) || parsed.placesPerson === true;
    // The kinds of value the query writes (./values.ts), read once.
    // Not in what a message says, nor, for some kinds, in quoted text (./values.ts).
    const beforeSaid = beforeMessage(query);
    const unquoted = withoutQuoted(beforeSaid);
    const valueKinds = VALUE_KINDS.filter((kind) => kind.written(kind.notQuoted ? unquoted : beforeSaid, { ...parsed, person: person && parsed.action !== 'update' }));
    // A kind's words are alternatives (a secret or a variable): none is implied when the query writes one.
    const valueWords = valueKinds.flatMap((kind) => {
      // "a|b": the first of the two the catalogue writes.
      const words = (kind.implies ?? '').split(' ').flatMap((word) => (word ? stems(word.includes('|') ? (word.split('|').find((w) => this.df.has(stemOf(w))) ?? '') : word) : []));
      return words.some((stem) => parsed.terms.some((t) => t.stem === stem)) ? [] : words;
    });
    // A credential stored under a setting's name ("store our NOAA token as NOAA_API_TOKEN"): the secret is what is written, as much as any word of the value.
    const storesSetting = (parsed.action === 'create' || parsed.action === 'update') && valueKinds.some((kind) => kind.name === 'credential setting');
    for (const stem of [parsed.slug ? this.slugStem : undefined, valueKinds.some((kind) => kind.name === 'key') ? this.keyStem : undefined, ...valueWords]) {
      if (stem && !parsed.terms.some((t) => t.stem === stem)) implied.push({ word: this.surface.get(stem) ?? stem, stem, weight: storesSetting && valueWords.includes(stem) ? 1 : 0.5, at: -1, name: true, optional: true });
    }
    /** A word of what a place holds, implied unless the query has it already. */
    const implyHeld = (stem: string) => {
      if (!parsed.terms.some((o) => o.stem === stem) && !implied.some((o) => o.stem === stem)) implied.push({ word: this.surface.get(stem) ?? stem, stem, weight: 1, at: -1, name: false, optional: true });
    };
    // A value put in a place ("add 'Order robes' to the Spring Concert project") is what the place holds and is made on its own (a task).
    if (parsed.unnamed) for (const t of parsed.terms) if (t.scope) for (const stem of this.placedIn(t.stem)) implyHeld(stem);
    // A thing of one kind put into a place that holds things by a generic name ("put the Q4 project
    // into the Engineering portfolio": a portfolio's items): those, implied.
    if (!parsed.unnamed && !person && parsed.action === 'create') {
      const objects = parsed.terms.filter((t) => !t.scope && !t.optional && t.weight === 1 && t.at >= 0 && this.isResource(t.stem));
      for (const place of parsed.terms.filter((t) => t.scope && !t.optional)) {
        const held = [...this.placedIn(place.stem)].filter((h) => GENERIC_HEADS.has(h));
        if (!held.length || objects.length === 0 || objects.some((o) => held.includes(o.stem) || this.actedUnder().get(place.stem)?.has(o.stem))) continue;
        for (const stem of held) implyHeld(stem);
      }
    }
    // The catalogue's words for that person count a little.
    if (person) {
      for (const word of PERSON_WORDS) {
        const stem = stems(word)[0]!;
        // Named, so not widened by meaning: "member" is near "team".
        if (!parsed.terms.some((t) => t.stem === stem)) implied.push({ word, stem, weight: 0.3, at: -1, name: true, optional: true });
      }
    }
    // A thing put or found under one of its kind ("a child task", "nest issue 8 under the epic"): the catalogue's sub-thing (subtask, sub-issue), implied.
    if (NESTING.test(query)) {
      for (const t of parsed.terms) {
        const stem = t.optional || t.word.length < 3 ? undefined : stems(`sub${t.word.replace(/s$/, '')}`)[0];
        if (stem && this.df.has(stem) && !parsed.terms.some((o) => o.stem === stem) && !implied.some((o) => o.stem === stem)) {
          implied.push({ word: this.surface.get(stem) ?? stem, stem, weight: t.weight, at: -1, name: false, optional: true });
        }
      }
      // A catalogue that writes the sub-thing as two words (`add-sub-issue`): "sub" itself.
      if (this.df.has('sub') && !implied.some((o) => o.stem.startsWith('sub'))) implied.push({ word: 'sub', stem: 'sub', weight: 0.5, at: -1, name: false, optional: true });
      // One that writes it as one word of a resource it has (`subtask`), when the query names neither ("a child item under 'Prep'").
      if (!implied.some((o) => o.stem.startsWith('sub'))) {
        for (const stem of this.subThings()) implied.push({ word: this.surface.get(stem) ?? stem, stem, weight: 0.5, at: -1, name: false, optional: true });
      }
    }
    // Two query words the catalogue writes as one ("log work": worklog, "change log": changelog): implied, counted when matched.
    // Words a few apart at most ("log 2 hours of work"), so a long query costs a few pairs per word, not all pairs.
    const written = parsed.terms.filter((t) => t.at >= 0 && !t.optional && t.word.length >= 3);
    /** Where the words joined into one of the catalogue's are: their compound is what they mean, not another ending in them. */
    const joinedAt = new Set<number>();
    for (const a of written) {
      for (const b of written) {
        if (a === b || Math.abs(a.at - b.at) > COMPOUND_SPAN) continue;
        // As written ("change log"), or stem to stem ("work … logged").
        const stem = [`${a.word.replace(/s$/, '')}${b.word}`, `${a.stem}${b.stem}`].map((joined) => stems(joined)[0]).find((s) => s !== undefined && this.df.has(s));
        if (stem && !parsed.terms.some((t) => t.stem === stem) && !implied.some((t) => t.stem === stem)) {
          implied.push({ word: this.surface.get(stem) ?? stem, stem, weight: Math.max(a.weight, b.weight), at: -1, name: false, optional: true });
          joinedAt.add(a.at).add(b.at);
        }
      }
    }
    const terms = [...parsed.terms, ...implied].map((t0) => {
      // A verb the catalogue lacks that says what to do ("nuke", "trash") stands for its action as the catalogue writes it.
      const actionStem = t0.action && (!known(t0.stem) || t0.nounVerb) ? stems(t0.action)[0] : undefined;
      // Its meaning is that of its synonym the catalogue has, if any ("shift": move), else of the act.
      const synonym = actionStem ? this.catalogueSynonyms(t0.stem)[0] : undefined;
      const meant = synonym !== undefined ? (this.surface.get(synonym) ?? t0.action!) : t0.action!;
      // A bare object no resource of the catalogue may be a person: it counts less, still widened ("move meeting to friday": event).
      const t = actionStem ? { ...t0, word: meant, stem: actionStem } : personAt(t0) ? { ...t0, weight: 0.3 } : t0;
      const name = t.name || modifiers.has(t.at) || (t.placeName === true && !known(t.stem));
      const { expansions, guessed } = t.idPrefix
        ? { expansions: this.expandPrefix(t.word), guessed: new Set<string>() }
        : actionStem
          ? { expansions: this.verbsFor(t0.action!, t0.stem), guessed: new Set<string>() }
          : this.expand(t.word, t.stem, name, joinedAt.has(t.at));
      // Any of a term's other words answers it as the term itself does.
      for (const word of t.alternatives ?? []) {
        for (const [s, f] of this.expand(word, stemOf(word), name).expansions) if ((expansions.get(s) ?? 0) < f) expansions.set(s, f);
      }
      // "Who starred it?": the people named after the verb (stargazers) are what it asks for.
      if ((parsed.who || parsed.caused?.includes(t.at)) && !name && !t.optional && t.stem.length >= 4 && !AGENT_NOUN.test(t.word)) for (const [s, w] of this.surface) if (w.startsWith(t.stem) && AGENT_NOUN.test(w) && !expansions.has(s)) expansions.set(s, 1);
      // A term's IDF is that of its best-known form, so a widened term is not rarer than its words.
      const idf = Math.min(...[...expansions.keys()].map((s) => this.idf(s)));
      // The phrase an acronym stands for ("PRs": pull requests): what it means, and a noun, never the verb asked for.
      const acronym = this.acronymOf(t.word);
      return { ...t, name, expansions, guessed, idf, ...(acronym ? { acronym } : {}) };
    })
      // An identifier's prefix that names none of the catalogue's resources (`tmr_` where readers are `terminal/readers`) says nothing; kept, its IDF of no word would make every score NaN.
      .filter((t) => t.expansions.size > 0);
    // An implied term counts when matched, but no more than the rarest word written: "under my
    // account" must not outweigh the repository asked for.
    const rarest = Math.max(0, ...terms.filter((t) => !t.optional).map((t) => t.idf));
    if (rarest > 0) for (const t of terms) if (t.optional) t.idf = Math.min(t.idf, rarest);
    // With nothing but implied terms ("who am I?"), coverage is out of those, so it stays a share.
    const possible = terms.reduce((sum, t) => sum + (t.optional ? 0 : t.weight * t.idf * TOP), 0) || terms.reduce((sum, t) => sum + t.weight * t.idf * TOP, 0) || 1;
    // What the query means: its own words, and the words implied by what it says (an idiom's "pin",
    // an email address's "email", "in one go": bulk), not the words for people any name implies.
    const askedWords = terms.filter((t) => (!t.name && !t.optional) || (t.at < 0 && !t.undoes && !t.idPrefix && !PEOPLE_STEMS.has(t.stem) && t.weight >= 0.5)).flatMap((t) => {
      // An acronym's meaning is that of the phrase the catalogue writes out ("pr": pull request).
      // The letters keep a share: a common one ("ci") means something of its own.
      const { acronym } = t;
      const weight = t.weight * t.idf;
      // A word the catalogue lacks means what its synonym there means ("tickets": issues), as a verb's does.
      const synonym = !acronym && t.action === undefined && !this.df.has(t.stem) ? this.catalogueSynonyms(t.stem)[0] : undefined;
      if (synonym !== undefined) return [{ word: this.surface.get(synonym) ?? synonym, weight }];
      if (!acronym) return [{ word: t.word, weight }];
      return [...acronym.map((s) => ({ word: this.surface.get(s) ?? s, weight: (B.acronymMeaning * weight) / acronym.length })), { word: t.word, weight: (1 - B.acronymMeaning) * weight }];
    });
    const said = this.meaning(askedWords);
    // The operations' meanings, built on first use, give the common direction the query's loses.
    if (said) this.meaningsOf();
    const asked = said && this.distinct(said);
    const requestWords = requestTokens(parsed);
    explain?.set('(query)', { parsed, tokens: requestWords, terms: terms.map((t) => `${t.word}:${t.weight.toFixed(2)}*${t.idf.toFixed(2)}[${[...t.expansions].map(([s, f]) => `${s}${f < 1 ? `~${f.toFixed(2)}` : ''}`).join(',')}]`) });
    // A command that starts with one of the catalogue's resources used as a verb ("tag v1.8.0 on master") makes one; "issue 42" names one.
    const commandsResource = parsed.action === undefined && parsed.commandVerb === true && parsed.command !== undefined && !this.ownVerbs().has(parsed.command) && this.isResource(parsed.command);
    // "Stop watching", "stop sharing" where the catalogue names no such undoing (unwatch, unshare): remove what the verb made.
    const undoesUnknown = parsed.terms.some((t) => t.undoes && !known(t.stem)), opening = parsed.verbsAt?.includes(0) ? openingVerb(query) : undefined;
    // One tracked thing marked as standing in a relation to another ("mark BREW-10 as blocked by BREW-9"): a link between them, made.
    const relates = valueKinds.some((kind) => kind.name === 'related') && (parsed.action === 'update' || parsed.action === undefined) && !parsed.reads;
    // A command that reads with a verb the catalogue writes as another ("find": search) asks to read.
    const commandsReading = parsed.command !== undefined && FINDING_STEMS.has(parsed.command);
    const askedAction = undoesUnknown || revokesAccess(query) ? 'delete' : grantsAccess(query) || relates ? 'create' : (parsed.action ?? (parsed.reads || commandsReading ? 'read' : commandsResource ? 'create' : undefined));
    // A word the catalogue has, but never as the thing an act of the kind asked is done to ("delete a
    // branch", where only refs are deleted): its synonyms that are stand in for it fully.
    if (askedAction !== undefined && askedAction !== 'read' && CANONICAL.has(askedAction)) {
      for (const t of terms) {
        if (t.optional || t.name || t.action !== undefined || !this.df.has(t.stem) || this.actionsOnHead(t.stem).has(askedAction)) continue;
        for (const [s, factor] of t.expansions) if (factor === B.knownSynonym && this.actionsOnHead(s).has(askedAction)) t.expansions.set(s, 0.9);
      }
    }
    // An operation that undoes another of the catalogue's (unblock, unprotect) answers a request that says to undo something, not one that does the thing.
    // Verbs told as done by mistake ("I locked it too early"): their undoing (unlock) is asked for, not the verb.
    const undone = new Set(parsed.undone ?? []);
    const asksUndo = askedAction === 'delete' || askedAction === 'cancel' || undone.size > 0 || this.saysUndo(query);
    // The catalogue's own verbs the query's verb means ("ban": block): their undoing (unblock) is not asked for.
    const askedVerbs = new Set(terms.filter((t) => t.action !== undefined).flatMap((t) => [...t.expansions].filter(([, f]) => f >= 0.9).map(([s]) => s)));
    // A command that starts with a verb the catalogue names operations after ("archive legacy-api", "pin the message") asks to do that, not to read.
    // Not a verb people read with that the catalogue writes as another ("find": search): that command reads.
    const commandsOwnVerb = askedAction === undefined && parsed.command !== undefined && this.ownVerbs().has(parsed.command) && !commandsReading;
    // So does one that starts with a verb neither the lexicon nor the catalogue knows before its object ("stick the screenshot onto QA-55"): reads are asked with the words for reading.
    const commandsUnknownVerb = askedAction === undefined && parsed.commandVerb === true && parsed.command !== undefined && !commandsResource && !commandsReading;
    // A day or an hour, an email address, a tracker key: the operation takes such a value.
    const valuesTaken = valueKinds.map((kind) => ({ takes: this.takes[VALUE_KINDS.indexOf(kind)]!, weight: kind.weight }));
    // A thing named by its number is of the word before it ("project 1199"): an operation whose only
    // IDs are another resource's (`/webhooks/{webhook_gid}`) does not take it; a bare `{id}` may.
    const numbered = valueKinds.findIndex((kind) => kind.name === 'numbered');
    if (numbered >= 0) {
      // An acronym names its phrase's words ("PR 1290": pull, request).
      const namers = new Set(numberNamers(withoutQuoted(beforeSaid)).flatMap((w) => [...stems(w), ...(this.acronymOf(w) ?? [])]));
      const takes = valuesTaken[numbered]!.takes;
      // A bare `{id}` with another thing's ID after it takes the numbered thing only where its path names it ("issue 9": `/projects/{id}/issues/{noteable_id}/notes`, not `…/merge_requests/{merge_request_id}/comments`).
      // Where the catalogue's paths never write it ("job 771" where paths say builds), no path says which.
      const pathNamed = [...namers].filter((s) => this.underOthersWords.has(s));
      const bareTakes = (i: number) => this.bareIds[i]! && (this.underOthers[i] === undefined || pathNamed.length === 0 || pathNamed.some((s) => this.underOthers[i]!.has(s)));
      valuesTaken[numbered] = { ...valuesTaken[numbered]!, takes: this.docs.map((d, i) => takes[i]! && (bareTakes(i) || d.pathParameters.some((s) => namers.has(s)))) };
    }
    // So does an identifier whose prefix names a resource: the operations whose path takes one (cus_K8s2: `/customers/{customer}`).
    const idStems = terms.filter((t) => t.idPrefix).flatMap((t) => [...t.expansions.keys()]);
    // Or, asked for a list, one that filters by it: a customer's invoices take `customer` (`GET /v1/invoices?customer=`);
    // asked to read one thing, any read that takes it ("cus_Q1's next invoice": `GET /v1/invoices/upcoming?customer=`).
    const readsBy = (d: Doc) => (askedAction === 'list' && (d.structure.methodAction === 'list' || d.structure.action === 'list')) || (askedAction === 'get' && READS.has(d.structure.methodAction ?? d.structure.action));
    if (idStems.length) valuesTaken.push({ takes: this.docs.map((d) => idStems.some((s) => d.pathParameters.includes(s) || (readsBy(d) && (d.fields.get(s) ?? 0) >= W.fields))), weight: B.identifier });
    // A file the query names that an operation's summary names too ("check this .gitlab-ci.yml": "Validation of .gitlab-ci.yml content").
    const namedFiles = new Set(fileNamesIn(query).flatMap((name) => this.fileNames.get(name) ?? []));
    if (namedFiles.size) valuesTaken.push({ takes: this.docs.map((_, i) => namedFiles.has(i)), weight: B.fileNamed });
    // A clause's verb that no action word reads ("approve", "archive") and that an operation has only as a field or a value of one (event: APPROVE, archived): setting it does the task.
    // So does the state a thing is to be made ("make acme/api private": `private`).
    // Where a value is put ("into the Done column": section, by its synonym), in the catalogue's words.
    const placeStems = new Set(parsed.unnamed ? terms.filter((t) => t.scope).flatMap((t) => [...t.expansions].filter(([, f]) => f >= B.knownSynonym).map(([s]) => s)) : []);
    const fieldVerbs = [...parsed.terms.filter((t) => t.action === undefined && parsed.verbsAt?.includes(t.at)).map((t) => t.stem), ...(parsed.states ?? [])];
    const states = new Set(parsed.states ?? []);
    const changesState = states.size > 0 && parsed.action !== 'create';
    const asksNew = askedAction === 'create' && NEW_THING.test(query);
    // Switching on a thing the catalogue makes ("turn on GitHub Pages for the repo"): making it, as much as changing it.
    const switchesOn = askedAction === 'update' && SWITCHED_ON.test(query);
    const asksEvery = (askedAction === 'delete' || askedAction === 'update') && EVERY_ONE_ACTED_ON.test(query);
    const hits: Hit[] = [];
    /** Each hit's operation and the stems the query matched in it, for the variants' check below. */
    const scored = new Map<Hit, Scored>();
    const partsOf = new Map<Hit, number[]>();
    const docAt = new Map<Hit, number>();
    // What each term matches in each operation, read from the postings of its forms: an operation
    // has few of a query's many forms, so looking each form up in every candidate was most of a search.
    const termMatches = terms.map((t) => {
      const byDoc = new Map<number, { best: number; bestSure: number; stems: string[] }>();
      for (const [s, factor] of t.expansions) {
        const postings = this.postings.get(s) ?? [];
        const weights = this.postingWeights.get(s) ?? [];
        for (let k = 0; k < postings.length; k++) {
          const i = postings[k]!;
          // A state asked for counts in full where the operation has it as a field it sets ("make acme/api private": `private`).
          const field = weights[k]!;
          const w = (states.has(s) && field === W.fields ? W.summary : field) * factor;
          let match = byDoc.get(i);
          if (!match) byDoc.set(i, (match = { best: 0, bestSure: 0, stems: [] }));
          if (w > match.best) match.best = w;
          if (w > match.bestSure && !t.guessed.has(s)) match.bestSure = w;
          if (w > 0) match.stems.push(s);
        }
      }
      return byDoc;
    });
    const ownTerms = terms.filter((t) => !t.optional).length;
    /** The query's own terms' weight, and its rarest own term: what the second stage reads coverage against. */
    const ownWeight = terms.reduce((sum, t) => sum + (t.optional ? 0 : t.weight * t.idf), 0) || 1;
    const rarestOwn = terms.reduce((best, t, ti) => (!t.optional && (best < 0 || t.idf > terms[best]!.idf) ? ti : best), -1);
    // The candidates: the operations the query's own words match.
    const candidates = new Set<number>();
    terms.forEach((t, ti) => {
      if (!t.optional) for (const i of termMatches[ti]!.keys()) candidates.add(i);
    });
    // Only implied words matched ("when did v2.3.0 go out?": send), or only what a message says besides them ("reply on #412 that the fix ships Friday": comment): what they match is a candidate too.
    const saysOnly = terms.every((t) => t.optional || t.said);
    if (!candidates.size || saysOnly) terms.forEach((_, ti) => termMatches[ti]!.forEach((_, i) => candidates.add(i)));
    // Nothing but cues ("who am I?"), or few matches: operations on the signed-in user are candidates by structure alone.
    if (!terms.length || (parsed.self && candidates.size < 50)) this.docs.forEach((d, i) => (this.isSelf(d) || !terms.length) && candidates.add(i));
    // A catalogue small enough is ranked whole, so an operation near in meaning only still competes.
    if (this.docs.length <= B.wholeUpTo) for (let i = 0; i < this.docs.length; i++) candidates.add(i);
    // Whether the query uses a verb as its verb, not in a noun ("star acme/api", not "remove my star"): the same for every candidate of that verb.
    const verbUse = new Map<string, boolean>();
    const usesAsVerb = (verb: string): boolean => {
      let uses = verbUse.get(verb);
      if (uses === undefined) verbUse.set(verb, (uses = terms.some((t) => t.expansions.has(verb) && !(!t.idPrefix && t.acronym?.includes(verb)) && (!parsed.verbsAt || t.at < 0 || parsed.verbsAt.includes(t.at) || t.action !== undefined))));
      return uses;
    };
    for (const i of candidates) {
      const doc = this.docs[i]!;
      if (!keep(doc.id)) continue;
      let matched = 0;
      let sure = 0;
      /** The query's own terms (not implied ones) the operation matches: how many, their weight, and theirs in its name, summary or path. */
      let ownMatched = 0;
      let ownMatchedWeight = 0;
      let strong = 0;
      const hitStems = new Set<string>();
      /** Stems matched by what the query names as its resource, not by where it says it is. */
      const resourceStems = new Set<string>();
      terms.forEach((t, ti) => {
        const match = termMatches[ti]!.get(i);
        if (!match) return;
        for (const s of match.stems) {
          hitStems.add(s);
          if (!t.scope && !t.actVerb && !t.said) resourceStems.add(s);
        }
        matched += t.weight * t.idf * match.best;
        sure += t.weight * t.idf * match.bestSure;
        if (match.best >= W.name) strong += t.weight * t.idf * match.best;
        if (!t.optional) {
          ownMatched++;
          ownMatchedWeight += t.weight * t.idf;
        }
      });
      const coverage = matched / possible;
      const sureCoverage = sure / possible;
      // Closeness in meaning: the cosine of the query's and the operation's mean vectors.
      let similar = 0;
      const meaning = asked && this.meaningOf(i);
      if (asked && meaning) for (let d = 0; d < meaning.length; d++) similar += asked[d]! * meaning[d]!;
      const { structure } = doc;
      // The operation's own verb ("merg", "star") agrees as well as a canonical action when the query
      // uses it as its verb ("star acme/api"), not as a noun ("remove my star", "show me the PRs": request).
      const undoesTold = structure.action.startsWith('un') && undone.has(structure.action.slice(2));
      // Asked who does or may have a thing done ("who can I assign tickets to?", "who starred it?"), the people are asked for: doing it answers nothing.
      const asksWhoDoes = parsed.asksWho === true && !READS.has(structure.methodAction ?? structure.action);
      const ownVerb = !asksWhoDoes && !CANONICAL.has(structure.action) && !undone.has(structure.action) && (undoesTold || structure.action === opening || (parsed.caused !== undefined && structure.action === REQUESTING) || usesAsVerb(structure.action) || (structure.alsoVerb !== undefined && usesAsVerb(structure.alsoVerb)));
      const { head } = structure;
      // A search of a resource the catalogue has no list of is how it lists it (Jira's issues: "Search for issues using JQL").
      const actionHas = structure.action === 'search' && head !== undefined && !this.listedHeads().has(head) ? 'list' : structure.action;
      // Named as the resource asked for beats named only as where it is; the head beats its other words.
      const namesPart = (matched: ReadonlySet<string>) => structure.resource.some((s) => matched.has(s)) || structure.object.some((s) => matched.has(s));
      let resource = 0;
      // A value put in a place asks for no resource: the place neither answers it nor is missing.
      // One that acts on the place itself ("Move or insert sections" for "move 'Order brisket' into the Done column") does not put the value there.
      if (parsed.unnamed && !namesPart(resourceStems)) resource = head !== undefined && placeStems.has(head) ? B.missingResource : 0;
      else if (head !== undefined) {
        if (resourceStems.has(head)) resource = 1;
        else if (namesPart(resourceStems)) resource = 0.4;
        else if (hitStems.has(head)) resource = B.scopeHead;
        else resource = namesPart(hitStems) ? 0.4 : GENERIC_HEADS.has(head) ? 0.4 : B.missingResource;
      }
      // "Who follows me?", "who starred it?": people named after what they do (followers, stargazers).
      const agent = parsed.who && head !== undefined && this.agentNoun(doc, head, terms);
      if (agent) resource = 1;
      // "Who has access?": an answer about people is what a who-question asks for.
      const people = parsed.who && !agent && head !== undefined && PEOPLE_STEMS.has(head);
      const self = parsed.self ? (this.isSelf(doc) ? 1 : -0.3) : this.isSelf(doc) ? -0.3 : 0;
      // What the operation is about that the query did not ask for, rare words weighing most: a
      // rare word in a long name makes it more specific, not a better answer.
      let extra = 0;
      // Its "my" ("Get my permissions") is what a query about the one asking asks, not more.
      const { about } = doc;
      const aboutShares = this.aboutShares(i);
      for (let k = 0; k < about.length; k++) if (!hitStems.has(about[k]!) && !(parsed.self && about[k] === 'my')) extra += aboutShares[k]!;
      extra = Math.min(extra, B.extraCap);
      // An operation named after its own verb ("Leaves a conversation", a POST) keeps less of a write's agreement where the catalogue does the act asked to the same thing ("start a channel").
      const ownVerbShare = askedAction !== undefined && askedAction !== 'read' && head !== undefined && this.actionsOnHead(head).has(askedAction) ? B.ownVerbBesideAsked : 1;
      // Under a thing the query neither names nor gives (`/v1/accounts/{account}/persons` for "add Rosa to our billing records").
      // Not the container most of the catalogue is under (GitHub's repositories, GitLab's projects): what a query leaves unsaid.
      // Nor the signed-in user's, where the query speaks of itself ("my secret": `/user/codespaces/secrets`).
      const unnamedScope = structure.scope.length > 0 && !(parsed.self && structure.self) && !structure.scope.some((s) => hitStems.has(s) || this.isCommonScope(s));
      const values = valuesTaken.reduce((sum, v) => sum + (v.takes[i] ? v.weight : 0), 0);
      const actionAgrees = ownVerb ? 1 : commandsOwnVerb || commandsUnknownVerb ? (READS.has(structure.methodAction ?? structure.action) ? -1 : 0) : questionAgreement(Math.max(structure.methodAction && !CANONICAL.has(actionHas) ? ownVerbAgreement(askedAction, structure.methodAction) * ownVerbShare : actionAgreement(askedAction, actionHas), structure.alsoAction ? actionAgreement(askedAction, structure.alsoAction) : -1, switchesOn && actionHas === 'create' ? 1 : -1), parsed.verbsAt === undefined, actionHas, B.questionWrite);
      // The score's parts, in SCORE_PARTS' order, each weighed by SCORE_WEIGHTS.
      const parts = [
        on(unnamedScope),
        values,
        on(fieldVerbs.some((v) => doc.fields.get(v) === W.fields) && (structure.action === 'update' || structure.action === 'create')),
        // A thing that exists made a state ("make #hr a private channel", "switch it from public to private"): so does an operation named after making it so ("Convert a public channel to a private channel").
        on(changesState && !CANONICAL.has(structure.action) && !READS.has(structure.methodAction ?? 'get') && structure.resource.some((r) => states.has(r))),
        coverage,
        actionAgrees,
        // A new thing asked for is not what an operation on an existing one makes ("a brand new calendar": not "Inserts an existing calendar into the user's calendar list").
        on(asksNew && doc.summaryStems.includes('exist')),
        // Every one of a thing changed at once is what an operation on all of them does ("Mark all todos as done"), not one on a single one.
        on(asksEvery && resource === 1 && !READS.has(structure.methodAction ?? structure.action) && (doc.summaryStems.includes('all') || doc.summaryStems.includes('everi'))),
        // A yes-or-no question is what an operation that checks answers ("Check if a user follows another user").
        on(parsed.yesNo && CHECKING_STEMS.has(doc.summaryStems[0]!)),
        on((!asksUndo || askedVerbs.has(structure.action.slice(2))) && this.undoes(structure.action)),
        resource,
        self,
        on(agent),
        on(people),
        similar,
        extra,
        on(doc.deprecated),
        // "Who is in the platform team?": the people are not known yet, so one taken by ID answers badly.
        on(parsed.asksWho && this.onePerson[i]),
        // A Unified operation covers the whole outcome across providers: preferred over its physical parts.
        on(doc.kind === 'unified'),
        // Read by the learned reranker only (SCORE_WEIGHTS gives them none).
        sureCoverage,
        ownTerms ? ownMatched / ownTerms : 0,
        doc.about.length,
        doc.pathParameters.length,
        on(READS.has(structure.methodAction ?? structure.action)),
        ownMatchedWeight / ownWeight,
        on(rarestOwn >= 0 && termMatches[rarestOwn]!.has(i)),
        strong / possible,
        (structure.scope.length + structure.resource.length) / 4,
        // How many words the query has of its own, and whether it asks to read: the same for every candidate, read by the second stage's trees beside the rest.
        Math.log1p(ownTerms),
        on(parsed.reads),
        // Alignment of words by meaning, and the first stage's belief in its head and group, computed for the second stage's window only (below).
        0,
        0,
        0,
        0,
        // The word pairs' two parts: for the window only, and only where the pairs were learned on its services (below).
        0,
        0,
      ];
      let score = 0;
      for (let k = 0; k < parts.length; k++) score += SCORE_WEIGHTS[k]! * parts[k]!;
      const hit = { id: doc.id, score, coverage: sureCoverage };
      hits.push(hit);
      scored.set(hit, { hit, doc, matched: hitStems });
      docAt.set(hit, i);
      partsOf.set(hit, parts);
      explain?.set(doc.id, { score, coverage, action: structure.action, resource, self, similar, extra, values, unnamedScope, hit: [...hitStems].join(' '), parts });
    }
    const byScore = (a: Hit, b: Hit) => b.score - a.score || (a.id < b.id ? -1 : 1);
    hits.sort(byScore);
    // The second stage orders the first's best (./rerank.ts); the rest stay below them, in order.
    // It learned on full windows of candidates: fewer (a small catalogue, a narrow filter) keep the first stage's order.
    // A Unified operation keeps its place: the second stage learned on physical ones only.
    const best = hits.slice(0, Math.max(limit, RERANK_DEPTH));
    // The model with word pairs ranks only where every candidate is of a service they were learned on.
    const window = best.length >= RERANK_DEPTH ? best.slice(0, RERANK_DEPTH) : [];
    const withPairs = window.length > 0 && pairsKnow(new Set(window.map((h) => this.services[docAt.get(h)!]!)));
    if (window.length) this.fillWindowParts(window.map((h) => ({ score: h.score, doc: docAt.get(h)!, parts: partsOf.get(h)! })), askedWords, requestWords, withPairs, explain);
    reorder(best, (h) => partsOf.get(h)!, (h) => scored.get(h)!.doc.kind !== 'unified', withPairs ? 'pairs' : 'general');
    preferDefaultVariants(best.slice(0, Math.max(limit * 3, VARIANT_WINDOW)).map((h) => scored.get(h)!), (stem) => this.idf(stem), parsed.self, (doc) => this.isSelf(doc));
    best.sort(byScore);
    return best.slice(0, limit);
  }
}
