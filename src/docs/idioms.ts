// Idioms that say in other words what catalogues write (src/docs/rank.ts reads them first): the
// query is read with the catalogue's words in their place.
//   - People said to be "open" at a time ("when are Sam and I both open Thursday afternoon?") are
//     free then ("free/busy"), not opening anything; "open" before a thing ("all open issues") stays.
//   - Updates no longer wanted ("I don't need updates on PA-12 anymore", "stop sending me
//     notifications about that issue") ask to stop watching the thing: the catalogue's unwatch,
//     unsubscribe or remove-watcher.
//   - Further comments stopped on a thing ("stop any more comments on it", "stop people from adding
//     more comments to issue 404", "stop anyone else from commenting", "stop people commenting", "freeze that thread") lock its conversation.
//   - Places that send visitors, traffic or people to a thing, or that its visitors come from, are its referral sources.
//   - People who are not members of a place but work in it are outside collaborators; a page where people serve
//     themselves is a portal.
//   - Following a tracked thing (an issue, a ticket, a task), not a person, is watching it.
//   - Billing, payments or donations that recur are a subscription.
//   - A person asked to be around, active or on a chat product is asked to be online.
//   - A message that only one person may see ("a note only she can see") is what chat platforms call ephemeral.

/** Each idiom and what it is read as (`$1` keeps what the pattern's first group matched). */
const IDIOMS_READ: readonly { idiom: RegExp; as: string }[] = [
  // "Open" after the people it describes ("both", "all", "we are", "I'm") and before a time, or ending the clause.
  { idiom: /\b((?:(?:both|all|everyone|everybody)(?:\s+are)?|(?:we|they|you)\s+(?:are|'re)(?:\s+(?:both|all))?|i\s+am|i'm)\s+)open(?=\s+(?:on|at|between|from|during|for|in|this|next|tomorrow|today|tonight|any|(?:mon|tues|wednes|thurs|fri|satur|sun)day|morning|afternoon|evening)\b|\s*(?:[?.!,;]|$))/gi, as: '$1free' },
  // Not wanting, or asking to stop, updates, notifications or emails about a thing.
  { idiom: /\b(?:(?:don'?t|do not|no longer)\s+(?:want|need)(?:\s+to\s+(?:get|receive))?(?:\s+any\s*more|\s+any)?|stop\s+(?:sending\s+me|getting|receiving)(?:\s+any)?|stop\s+the)\s+(?:updates|notifications|emails|alerts)\b/gi, as: 'stop watching' },
  // Asking that no more comments or replies come in on a thing.
  { idiom: /\bstop\s+(?:(?:people|anyone|everyone|others)\s+from\s+(?:adding|posting|leaving)\s+)?(?:getting\s+)?(?:any\s*more|(?:any\s+)?(?:new|further|more))\s+(?:comments|replies)\b/gi, as: 'lock the conversation' },
  // So does stopping people commenting on it, or freezing its thread ("stop anyone else from commenting on it", "freeze that thread").
  { idiom: /\b(?:stop|keep|prevent)\s+(?:people|anyone|anybody|everyone|everybody|others|folks)(?:\s+else|\s+outside\s+(?:the|our)\s+team)?(?:\s+from)?\s+(?:commenting|posting|replying)\b|\bfreeze\s+(?:the|that|this|its)\s+(?:thread|conversation|discussion|comments)\b/gi, as: 'lock the conversation' },
  // Places that send visitors to a thing ("which sites are sending people to our repo") are its referral sources.
  { idiom: /\b(?:send|sends|sending|sent|drive|drives|driving|drove|bring|brings|bringing|brought)\s+(?:(?:the\s+)?most\s+|more\s+|any\s+|us\s+)?(?:visitors|visits|traffic|people|readers|clicks)(?=\s+(?:to|into|towards|there|here)\b)/gi, as: 'referral sources of visitors' },
  // So are those visitors or traffic come from ("where is the traffic to our repo coming from?").
  { idiom: /\b(?:visitors|visits|traffic|readers|clicks)(?=\s+(?:(?:to|on|for)\s+(?:[\w'/-]+\s+){1,5})?(?:(?:is|are|was|were)\s+)?(?:coming|come|comes|came)\s+from\b)/gi, as: 'referral sources of visitors' },
  // People who are not members of a place ("non-members", "who aren't org members") but work in it are outsiders who collaborate there.
  { idiom: /\bnon-?(?:members?|employees?|staff)\b|\b(?:(?:are|is)\s*n[o']t|not)\s+(?:an?\s+)?(?:actual(?:ly)?\s+|full\s+|real\s+)?(?:org\s+|organi[sz]ation\s+)?members?\b|\bwithout\s+(?:actually\s+)?being\s+(?:an?\s+)?(?:org\s+|organi[sz]ation\s+)?members?\b/gi, as: 'outside collaborators' },
  // A page or a link where people serve themselves is a portal ("a self-service billing page").
  { idiom: /\bself[- ]serv(?:e|ice)\s+((?:[a-z]+\s+)?)(?:page|site|link|area|screen|dashboard)\b/gi, as: 'self-service $1portal' },
  // Following a tracked thing, not a person, is watching it ("who's following ACCT-60?", "follow the ticket").
  { idiom: /\bfollow(s|ing|ed)?(?=\s+(?:[A-Z][A-Z0-9]*-\d+\b|#\d+\b|(?:the|this|that|my|our|an?)\s+(?:issue|ticket|bug|task|story|card|epic)s?\b|(?:issue|ticket|bug|task)s?\s+#?\d+\b))/gi, as: 'watch$1' },
  // Billing or paying that recurs is a subscription ("stop their recurring billing", "a $25 recurring donation").
  { idiom: /\brecurring\s+(billing|payments?|charges?|donations?|dues|fees?)\b/gi, as: 'recurring $1 subscription' },
  // A message that one person only may see is what chat platforms call ephemeral ("send Raj a note that only he can see", "only Sam should see this note").
  { idiom: /(?:,?\s*(?:but|so(?:\s+that)?|that|which)\s+)?\b[Oo]nly\s+(?:he|she|they|him|her|them|I|me|one\s+(?:person|user)|(?:the\s+)?(?:user|person|requester|recipient|new\s+hire)(?:\s+(?:who|that)\s+[^,.;:!?]{1,40}?|\s+[A-Z][\w.-]*)?|@?[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)?(?:\s+\(@?[\w.-]+\))?|U[A-Z0-9]{5,})\s+(?:can|could|will|should|would|gets?\s+to)\s+(?:see|view|read)\b(?:\s+(?:it|this|that)(?=\s*(?:[,.;:!?—–-]|$)))?/g, as: ' (ephemeral)' },
  // A person asked to be around, active or on a chat product now ("is Deepak around?", "is Marco on Slack right now?") is asked to be online: their presence.
  // Not "available" or "away", which as often ask whether they are free at a time.
  { idiom: /\b([Ii]s|[Aa]re)\s+((?:[A-Z][a-z]+\.?\s+)?[A-Z][a-z]+|he|she|they|anyone|anybody|someone|somebody)\s+(?:still\s+)?(?:around|active|reachable|at\s+(?:his|her|their)\s+desks?|on\s+[A-Z][a-z]+)\b/g, as: '$1 $2 online' },
];

/** The query with each idiom read as the words catalogues write for it. */
export function withIdiomsRead(query: string): string {
  return IDIOMS_READ.reduce((read, { idiom, as }) => read.replace(idiom, as), query);
}
