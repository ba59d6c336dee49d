// Small readings of a request that ranking (src/docs/rank.ts) applies, each in its own file:
// times relative to now, light verbs, idioms in the catalogue's words (free, stop watching, lock),
// the opening verb, access taken back, and requests written in another form than a command (a
// question of ability, a noun for the act, a state to be).
export { quietRelativeTimes } from './times.ts';
export { plainVerbs } from './light-verbs.ts';
export { withIdiomsRead } from './idioms.ts';
export { openingVerb } from './opening-verb.ts';
export { grantsAccess, revokesAccess } from './revoking.ts';
export { asCommands } from './request-forms.ts';
