// English past participles, as a request states the act it asks for as a thing's state ("the branch
// should be deleted", "I want the thread frozen"): the regular ones end in -ed, the rest are listed,
// with the past tenses that differ from them ("took"), which src/docs/lexicon.ts reads phrasal verbs in.

/** English verbs whose past participle does not end in -ed, by participle; not those written as their own base form and read as it more often (read, run). */
export const IRREGULAR_PARTICIPLES: Record<string, string> = {
  frozen: 'freeze', taken: 'take', brought: 'bring', made: 'make', put: 'put', set: 'set', shut: 'shut',
  hidden: 'hide', written: 'write', sent: 'send', built: 'build', given: 'give', shown: 'show',
  thrown: 'throw', kept: 'keep', split: 'split', undone: 'undo', drawn: 'draw', chosen: 'choose',
  held: 'hold', begun: 'begin', done: 'do', cut: 'cut',
  bound: 'bind', spun: 'spin', stuck: 'stick', torn: 'tear', withdrawn: 'withdraw', rewritten: 'rewrite',
  forgotten: 'forget', won: 'win', lost: 'lose', paid: 'pay', told: 'tell', sold: 'sell', found: 'find',
  shaken: 'shake', broken: 'break', woken: 'wake', blown: 'blow', upheld: 'uphold',
};
/** English verbs whose simple past differs from their participle and does not end in -ed ("took", "threw"), by form. */
export const IRREGULAR_PAST_TENSES: Record<string, string> = { took: 'take', threw: 'throw', tore: 'tear', froze: 'freeze', brought: 'bring', hid: 'hide', wrote: 'write', gave: 'give', drew: 'draw', chose: 'choose', began: 'begin', did: 'do', forgot: 'forget', shook: 'shake', broke: 'break', woke: 'wake', blew: 'blow', withdrew: 'withdraw' };
/** A past participle, captured: regular (-ed) or irregular. */
export const PARTICIPLE = String.raw`([a-z]+ed|${Object.keys(IRREGULAR_PARTICIPLES).join('|')})`;
