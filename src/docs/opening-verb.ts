// The verb a request opens with, as written ("open a direct message with priya": open). A phrase
// may read it as a canonical action ("open a" creates), but where the catalogue names operations
// after that very verb (Slack's "Opens or resumes a direct message"), it is that verb's operation
// the request asks for (src/docs/rank.ts agrees it as the operation's own verb).
import { stems } from './text.ts';

/** The stem of the query's first word, when it is a word of letters. */
export function openingVerb(query: string): string | undefined {
  const first = /^\s*([a-z]{3,})\b/i.exec(query)?.[1];
  return first === undefined ? undefined : stems(first.toLowerCase())[0];
}
