// A search query read into the parts an operation is ranked on: the action it asks for (from
// everyday verbs and phrases), whether it speaks of the signed-in user, and its content terms.
import { actionOfStem, actionPhrases, isWeakCue, PERSON_PRONOUNS, PERSON_QUESTION, PERSON_WORDS, SELF_WORDS, STOP_WORDS, type Action } from './lexicon.ts';
import { stemOf, stems, words } from './text.ts';

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
}

export interface ParsedQuery {
  action: Action | undefined;
  /** The query says "my", "I", "me": the signed-in user. */
  self: boolean;
  terms: QueryTerm[];
}

/**
 * The query without the values it quotes or names: quoted titles ('Send invoices'), and tokens
 * written like identifiers (acme/api, #ops, cus_K8s2, v1.2, 3pm, jo@example.com). They say which
 * thing, not what to do with it.
 */
function withoutValues(query: string): string {
  return query
    .replace(/(^|\s)(["'“‘])[^"'”’]*["'”’]/g, ' ')
    .split(/\s+/)
    .filter((token) => !/[/@#_\d]|\w\.\w|\w:\w/.test(token))
    .join(' ');
}

/** Words capitalised after the first word: names ("Dana", "Acme"), unless written all in capitals (PR, CI). */
function namesIn(query: string): Set<string> {
  const names = new Set<string>();
  query
    .split(/\s+/)
    .slice(1)
    .forEach((token) => {
      const word = token.replace(/^[^A-Za-z]+|[^A-Za-z']+$/g, '');
      if (/^[A-Z][a-z]/.test(word)) names.add(word.toLowerCase().replace(/'s$/, ''));
    });
  return names;
}

export function parseQuery(query: string): ParsedQuery {
  const plain = withoutValues(query);
  const names = namesIn(plain);
  // Lower-case hyphenated tokens are mostly names (old-prototype, checkout-service): their words count little.
  const hyphenated = new Set(plain.split(/\s+/).filter((t) => /^[a-z]+(-[a-z]+)+$/.test(t.replace(/[^a-z-]+$/g, ''))).flatMap((t) => words(t)));
  // A person asked about or acted on: "who", a name, a pronoun, an email address.
  const person = /\S@\S+\.\w/.test(query) || names.size > 0;
  const raw = words(plain.trim() ? plain : query);
  const phrases = actionPhrases(raw);
  const covered = new Set(phrases.flatMap((p) => p.at));
  // The earliest action word or phrase says what to do ("delete the comment I added": delete).
  const cues: { at: number; action: Action }[] = phrases.map((p) => ({ at: p.at[0]!, action: p.action }));
  const self = raw.some((w, i) => SELF_WORDS.has(w) && !covered.has(i));
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  raw.forEach((word, i) => {
    if (covered.has(i) || SELF_WORDS.has(word)) return;
    const cue = actionOfStem(stemOf(word));
    const stem = stems(word)[0];
    if (cue) cues.push({ at: i, action: cue });
    if (stem === undefined || STOP_WORDS.has(word) || isWeakCue(word) || seen.has(stem) || /^\d+$/.test(word)) return;
    seen.add(stem);
    const named = hyphenated.has(word);
    terms.push({ word, stem, weight: named ? 0.3 : cue ? 0.5 : 1, name: named || names.has(word), at: i });
  });
  // No action word but a plural noun ("my PRs", "open tickets in acme/api"): a list.
  const action = cues.sort((a, b) => a.at - b.at)[0]?.action ?? (terms.some((t) => /[^su]s$/.test(t.word)) ? 'list' : undefined);
  // "Who …?", a name or "him" is about people: the catalogue's words for people count a little.
  if (person || raw.some((w) => PERSON_QUESTION.has(w) || PERSON_PRONOUNS.has(w))) {
    for (const word of PERSON_WORDS) if (!seen.has(stemOf(word))) terms.push({ word, stem: stemOf(word), weight: 0.3, name: false, at: -1, optional: true });
  }
  // An action word after the one that says what to do is context ("the message I posted"): it counts less.
  const chosen = cues[0]?.at;
  for (const t of terms) if (t.weight < 1 && chosen !== undefined && t.at !== chosen) t.weight = 0.25;
  return { action, self, terms };
}
