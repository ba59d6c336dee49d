// A light verb and a noun that names the act ("make a copy of the project", "take a look at PR 5"):
// they say what the noun's verb says: the command is to copy or to look,
// not to make or take something. The query is read with that verb in their place.

/** Verbs that carry little meaning of their own before a noun for an act; not a phrasal verb's particle after a pronoun ("take her out of the org"). */
const LIGHT_VERB = /\b(?:make|take|do|have) (?:an?|our|my|your|their|his|her)(?: own)? (?!(?:out|off|away|back|down|over|along|aside)\b)([a-z]{3,}) (?:of|at)\b/gi;

/** The query with each light verb and its noun ("make a copy of") read as the noun's verb ("copy"). */
export function plainVerbs(query: string): string {
  return query.replace(LIGHT_VERB, (_, noun: string) => noun);
}
