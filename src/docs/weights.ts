// The weights by which ranking (src/docs/rank.ts) moves a score: agreement of action, resource and
// scope, closeness in meaning, words not asked for, and the smaller cues. Each was tuned on the dev
// split of test/search-eval (docs/search-history.md says by how much each moved it).
/** How agreement of action, resource and scope, meaning and unasked words move a score: tuned on the dev split of test/search-eval only. */
export const RANK_WEIGHTS = {
  /** A catalogue this small is ranked whole, so an operation near in meaning only still competes. */
  wholeUpTo: 1000,
  /** Least cosine for a near word to widen a query term, per vector model (API corpus, general English). */
  nearCosine: [0.5, 0.5],
  /** Weight of closeness in meaning, read from the API-corpus vectors (the general English ones only widen words); 1.3 before the common direction was taken out. */
  vector: 0.8,
  /** Share of its weight a word of an operation's description's first sentence has in its meaning, beside its summary and ID (0.08 to 0.2 alike on dev; 0.3 lower). */
  told: 0.12,
  /** Share of the direction every operation's meaning shares taken out of each meaning and the query's (./meaning.ts); 0.5 to 0.7 with weights 0.7 to 0.8 alike on dev. */
  commonMeaning: 0.6,
  /** A catalogue of n operations takes out n / (n + this) of that share: the mean of few meanings is mostly their own (10 to 100 alike on dev). */
  commonMeaningFrom: 30,
  action: 0.2,
  /** How many times a write's disagreement counts when the query is a question, which only reads (3 to 10 alike on dev; 5 one plain task more than 3). */
  questionWrite: 5,
  resource: 0.2,
  self: 0.12,
  /** Cost of each word the operation is about that the query did not ask for (IDF-weighted), and its cap. */
  extra: 0.05,
  extraCap: 3,
  /** A resource the query names only as where the thing asked for is ("a repository under my account": account). */
  scopeHead: 0.2,
  /** A who-question answered by the people named after its verb ("who follows me": followers). */
  agent: 0.6,
  /** A who-question answered by an operation on people (collaborators, members, users). */
  people: 0.1,
  /** Cost, for a who-question, of an operation that takes one person by ID (0.2 moved less; 0.6 and 1 as 0.4). */
  onePerson: 0.4,
  /** A resource the query does not name at all. */
  missingResource: -0.4,
  /** An identifier (`cus_K8s2`) names the thing acted on: an operation whose path takes that thing (`{customer}`); 0.3 and 1 were lower on dev. */
  identifier: 0.5,
  /** A file the query names that an operation's summary names too (`.gitlab-ci.yml`): the literal name says which (0.5 as 1 on dev). */
  fileNamed: 1,
  /** A question answered yes or no ("does octocat follow torvalds?") answered by an operation that checks ("Check if a user follows …"); 0.4 and 0.7 were lower on dev. */
  yesNoCheck: 0.2,
  /** Cost of an operation that undoes another (unblock, unprotect) when the query says to undo nothing: enough to put the operation that does the act first where meaning alone ranked its undoing higher (not scanned; dev +5 tasks, no loss). */
  undoUnasked: 0.15,
  /** How much a synonym counts for a word the catalogue has itself (0.4 and 0.7 alike on dev; a word it lacks counts its synonyms 0.9). */
  knownSynonym: 0.5,
  /** A write that sets a field named by the clause's verb ("approve": event APPROVE; "archive": archived). */
  fieldVerb: 0.3,
  /** An operation on an existing thing, where a new one is asked for. */
  existingWhenNew: 0.3,
  /** A write on all of a thing ("Mark all todos as done") where every one of it is to be changed. */
  everyAtOnce: 0.25,
  /** Share of its agreement an operation named after its own verb keeps ("Leaves a conversation", a POST) when the catalogue does the act asked to the same thing ("create a channel": Initiates a conversation). */
  ownVerbBesideAsked: 0.3,
  /** Cost of an operation under a thing the query neither names nor gives. */
  unnamedScope: 0.15,
  /** Share of an acronym's meaning read from the phrase it stands for ("pr": pull request), the rest from its letters. */
  acronymMeaning: 0.5,
} as const;

const B = RANK_WEIGHTS;
/**
 * The parts of an operation's score (src/docs/rank.ts), in the order ranking computes them, each
 * with its weight: a part's value times its weight, summed, is the score. Those weighed 0 are read
 * by the learned second stage only (src/docs/rerank.ts).
 */
const WEIGHT_OF_PART = {
  unnamedScope: -B.unnamedScope,
  values: 1,
  fieldVerb: B.fieldVerb,
  stateMade: B.fieldVerb,
  coverage: 1,
  action: B.action,
  existingWhenNew: -B.existingWhenNew,
  everyAtOnce: B.everyAtOnce,
  yesNoCheck: B.yesNoCheck,
  undoUnasked: -B.undoUnasked,
  resource: B.resource,
  self: B.self,
  agent: B.agent,
  people: B.people,
  similar: B.vector,
  extra: -B.extra,
  deprecated: -0.1,
  onePerson: -B.onePerson,
  unified: 0.25,
  sureCoverage: 0,
  ownTermsMatched: 0,
  aboutWords: 0,
  pathParameters: 0,
  reads: 0,
  ownCoverage: 0,
  rarestMatched: 0,
  strongCoverage: 0,
  pathWords: 0,
  queryWords: 0,
  asksToRead: 0,
  alignGist: 0,
  alignTold: 0,
  headBelief: 0,
  groupBelief: 0,
  pairBest: 0,
  pairMean: 0,
} as const;

export type ScorePart = keyof typeof WEIGHT_OF_PART;
export const SCORE_PARTS = Object.keys(WEIGHT_OF_PART) as readonly ScorePart[];
export const SCORE_WEIGHTS: readonly number[] = Object.values(WEIGHT_OF_PART);
