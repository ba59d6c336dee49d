// People said to be "open" at a time ("when are Sam and I both open Thursday afternoon?") are free
// then, not opening anything: the query is read with "free", the word catalogues write for it
// ("free/busy"), in its place. "Open" before a thing ("all open issues") is left as it is.

/** "Open" after the people it describes ("both", "all", "we are", "I'm") and before a time, or ending the clause. */
const OPEN_AT_A_TIME = /\b((?:(?:both|all|everyone|everybody)(?:\s+are)?|(?:we|they|you)\s+(?:are|'re)(?:\s+(?:both|all))?|i\s+am|i'm)\s+)open(?=\s+(?:on|at|between|from|during|for|in|this|next|tomorrow|today|tonight|any|(?:mon|tues|wednes|thurs|fri|satur|sun)day|morning|afternoon|evening)\b|\s*(?:[?.!,;]|$))/gi;

/** The query with "open" read as "free" where it says people have time, not what state a thing is in. */
export function openAsFree(query: string): string {
  return query.replace(OPEN_AT_A_TIME, (_, before: string) => `${before}free`);
}
