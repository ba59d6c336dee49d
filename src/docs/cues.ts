// Small readings of a request that ranking (src/docs/rank.ts) applies, each in its own file:
// times relative to now, light verbs, the opening verb, access taken back, requests asked as
// questions of ability or written as nouns for their acts.
export { quietRelativeTimes } from './times.ts';
export { plainVerbs } from './light-verbs.ts';
export { openingVerb } from './opening-verb.ts';
export { revokesAccess } from './revoking.ts';
export { asCommands } from './request-forms.ts';
