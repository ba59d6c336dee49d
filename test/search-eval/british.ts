// Requests spelled the British way: the endings British English writes otherwise (-ise, -isation,
// -yse, -elled, -ence for a licence, -our, -tre, -logue) in place of the American ones the
// catalogues use. Used to check src/docs/spelling.ts.
import type { Intent } from './intents.ts';

const BRITISH: readonly [RegExp, string][] = [
  [/\b([a-z]+)iz(e|es|ed|ing|ation|ations|er|ers)\b/g, '$1is$2'],
  [/\b([a-z]+)yz(e|es|ed|ing)\b/g, '$1ys$2'],
  [/\b([a-z]{2,}[^aeiou]e)l(ed|ing)\b/g, '$1ll$2'],
  [/\blicense\b/g, 'licence'],
  [/\bcolor/g, 'colour'],
  [/\bfavorite/g, 'favourite'],
  [/\bcenter/g, 'centre'],
  [/\bcatalog\b/g, 'catalogue'],
];

/** `query` spelled the British way. */
export const british = (query: string): string => BRITISH.reduce((q, [american, spelled]) => q.replace(american, spelled), query);

/** The intents whose query British English spells otherwise, so spelled. */
export const spelledBritish = (intents: readonly Intent[]): Intent[] => intents.filter((i) => british(i.query) !== i.query).map((i) => ({ ...i, query: british(i.query) }));
