// Small readings of a request that ranking (src/docs/rank.ts) applies, each in its own file:
// times relative to now, light verbs, the opening verb, access taken back.
export { quietRelativeTimes } from './times.ts';
export { plainVerbs } from './light-verbs.ts';
export { openingVerb } from './opening-verb.ts';
export { revokesAccess } from './revoking.ts';
