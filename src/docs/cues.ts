// Small readings of a request that ranking (src/docs/rank.ts) applies, each in its own file:
// times relative to now, light verbs, tracker keys by resource, the opening verb, access taken back.
export { quietRelativeTimes } from './times.ts';
export { plainVerbs } from './light-verbs.ts';
export { takesTrackerKey } from './keys.ts';
export { openingVerb } from './opening-verb.ts';
export { revokesAccess } from './revoking.ts';
