// A thing someone may no longer do ("bob shouldn't see my calendar anymore", "alice can't push to
// acme/api any more", "jo no longer needs access", "cut her off" where access is said): a grant of access taken back, so what is asked
// is a removal (src/docs/rank.ts), and an operation on access answers it (src/docs/values.ts).
// A thing someone is to be let do ("let the recruiter see it", "let Sue, our office manager, see it",
// "the QA group should be able to add and edit things") is a grant made: what is asked is a creation.

/** A negated "can", "should" or "must", and "anymore"; or "no longer". */
const NO_LONGER = /\b(?:can't|cannot|can not|shouldn't|should not|mustn't|must not|won't)\b.*\b(?:anymore|any more|any longer)\b|\bno longer\b/i;
/** Seeing, changing or reaching a thing, as access says it. */
const ACCESS_VERB = /\b(?:see|view|edit|read|write|push|change|access)\b/i;

/** Someone cut off ("cut her off", "cut off his access"): what they could do, taken back where access is said. */
const CUT_OFF = /\bcut\s+(?:(?:him|her|them|[\w'@.-]+)\s+)?off\b/i;

/** Whether the query takes back what someone may do with a thing. */
export const revokesAccess = (query: string): boolean => (NO_LONGER.test(query) && ACCESS_VERB.test(query)) || (CUT_OFF.test(query) && /\baccess\b/i.test(query));

/** Letting someone do a thing, or their being able to as they should. */
const TO_BE_ALLOWED = /\blet\s+(?:[\w'@.,-]+\s+){1,5}?(?:see|view|edit|read|write|push|change|access|modify|manage|make\s+changes)\b|\b(?:should|must|needs?\s+to|has\s+to|have\s+to)\s+be\s+able\s+to\s+(?:\w+\s+(?:and|or)\s+)?(?:see|view|edit|read|write|push|change|access)\b/i;

/** Whether the query grants someone what they may do with a thing. */
export const grantsAccess = (query: string): boolean => TO_BE_ALLOWED.test(query) && !NO_LONGER.test(query);
