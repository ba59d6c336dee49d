// One piece of work waiting on another, as people say it ("this task can't start until the spec is
// finished", "what is task 1205 waiting on", "blocked by PROJ-3"): the word catalogues write for
// that, a dependency, is implied (src/docs/values.ts reads it as a value kind that implies a word).
/**
 * Waiting on a thing ("until … is finished", "waiting on", "blocked by", "depends on"); not on a
 * person ("the PRs waiting on me": a review asked of them).
 */
const WAITING = /\buntil\b.*\b(?:done|finished|complete|completed|merged|resolved|closed|approved|shipped|ready)\b|\b(?:waiting|waits|wait) (?:on|for)\b(?! (?:me|us|you|him|her|them|my|our|your)\b)|\bblocked (?:by|on)\b|\bdepends? on\b|\bprerequisites?\b/i;

/**
 * Whether the query says work waits on other work, which implies the catalogue's word for that
 * (dependency); not in what follows a colon, the text of a comment or a message ("comment on it: waiting on legal").
 */
export const waitsOnWork = (query: string): boolean => WAITING.test(query.split(/:\s/)[0]!);
