// Clauses that tell what happened rather than ask for something ("I put the urgent tag on task 999
// by mistake, take it off"; "task A was marked as waiting on B by mistake"): their verb is context,
// and with a word that says it was a mistake, the request is to undo it (src/docs/query.ts).
import { isBaseActionWord } from './lexicon.ts';
import { IRREGULAR_PARTICIPLES, IRREGULAR_PAST_TENSES } from './participles.ts';

/** Who tells what they, or someone, did. */
const TELLERS = new Set(['i', 'we', 'someone', 'somebody', 'they', 'he', 'she']);
/** Words between the teller and the verb that leave it a telling ("I accidentally deleted", "we just shipped"). */
const IN_BETWEEN = /^(?:[a-z]{3,}ly|just|already|also|then)$/;
/** "Was", "got": what comes after says what was done to the thing. */
const WAS = new Set(['was', 'were', 'got']);
/** Words that start a relative clause, whose "was" tells of a thing asked about. */
const RELATIVE = new Set(['that', 'which', 'who', 'whose', 'where', 'when', 'what', 'how', 'why']);
/** How many words the thing told about may take before its "was". */
const MAX_THING_WORDS = 6;

/** Words that say an act was a mistake, or came too soon. */
export const MISTAKEN = /\b(?:by (?:mistake|accident)|accidentally|mistakenly|in error|wrongly|too (?:early|soon))\b/i;

/** Whether a word is a past tense or a past participle ("deleted", "put", "took"). */
export function isPastForm(word: string): boolean {
  // Not a word that only ends so (need, speed, embed).
  return (/^[a-z]{2,}ed$/.test(word) && !/(?:eed|bed)$/.test(word)) || word in IRREGULAR_PAST_TENSES || word in IRREGULAR_PARTICIPLES;
}

/**
 * Where a clause's words tell what was done, the position of the verb that says it: after a teller
 * ("I locked …", "someone archived …") or after "was" ("it was created …"); -1 otherwise.
 */
export function toldVerbAt(clause: readonly string[]): number {
  if (TELLERS.has(clause[0] ?? '')) {
    let at = 1;
    while (at < clause.length && IN_BETWEEN.test(clause[at]!)) at++;
    return at < clause.length && isPastForm(clause[at]!) ? at : -1;
  }
  // The thing's words, then "was": not a relative clause ("the issues that were closed").
  const was = clause.findIndex((w) => WAS.has(w));
  // Nor the object of a command ("list what was touched").
  if (was < 1 || was > MAX_THING_WORDS || isBaseActionWord(clause[0]!) || clause.slice(0, was).some((w) => RELATIVE.has(w))) return -1;
  return was + 1 < clause.length && isPastForm(clause[was + 1]!) ? was + 1 : -1;
}
