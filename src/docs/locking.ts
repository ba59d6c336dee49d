// Further comments stopped on a thing ("stop any more comments on it", "can we stop new comments
// there?", "stop people from adding more comments to issue 404") lock its conversation: the query is
// read with "lock the conversation" in their place, which the catalogue's lock answers.

/** Asking that no more comments or replies come in on a thing. */
const NO_MORE_COMMENTS = /\bstop\s+(?:(?:people|anyone|everyone|others)\s+from\s+(?:adding|posting|leaving)\s+)?(?:getting\s+)?(?:any\s*more|new|further|more)\s+(?:comments|replies)\b/gi;

/** The query with further comments stopped read as locking the conversation. */
export function noMoreCommentsAsLocking(query: string): string {
  return query.replace(NO_MORE_COMMENTS, 'lock the conversation');
}
