// Requests as people type them in a hurry: one letter mistyped (left out, added, changed, or two
// swapped, never the first or the last) in a share of the words of five letters or more, drawn
// from a seeded generator so a run is repeatable; and apostrophes left out. Used to check src/docs/spelling.ts.
import type { Intent } from './intents.ts';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A generator of numbers in [0, 1) from `seed` (a linear congruential one: repeatable, not random). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

/** `intents` with one letter mistyped in about `rate` of their lower-case words of five letters or more. */
export function withTypos(intents: readonly Intent[], rate: number, seed: number): Intent[] {
  const next = seeded(seed);
  const typo = (word: string): string => {
    const at = 1 + Math.floor(next() * (word.length - 2));
    const letter = LETTERS[Math.floor(next() * LETTERS.length)]!;
    switch (Math.floor(next() * 4)) {
      case 0:
        return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
      case 1:
        return word.slice(0, at) + word.slice(at + 1);
      case 2:
        return word.slice(0, at) + letter + word.slice(at + 1);
      default:
        return word.slice(0, at) + letter + word.slice(at);
    }
  };
  return intents.map((intent) => ({ ...intent, query: intent.query.replace(/\b[a-z]{5,}\b/g, (word) => (next() < rate ? typo(word) : word)) }));
}

/** The intents whose query has an apostrophe, typed without any ("dont", "whats", "someones"). */
export const withoutApostrophes = (intents: readonly Intent[]): Intent[] => intents.filter((i) => /['’]/.test(i.query)).map((i) => ({ ...i, query: i.query.replace(/['’]/g, '') }));

const SAID = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const SAID_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
/** A number below a thousand as it is said ("forty two", "three hundred twelve"). */
const said = (n: number): string =>
  n < 20 ? SAID[n]! : n < 100 ? SAID_TENS[Math.floor(n / 10)]! + (n % 10 ? ` ${SAID[n % 10]}` : '') : `${SAID[Math.floor(n / 100)]} hundred${n % 100 ? ` ${said(n % 100)}` : ''}`;

/** The intents with a number of one to three digits standing alone, that number said in words, as a dictated request writes it. */
export const withSpokenNumbers = (intents: readonly Intent[]): Intent[] => {
  const spoken = (query: string) => query.replace(/(?<![\w#$.:/-])(\d{1,3})(?![\w.:%/-])/g, (d) => said(Number(d)));
  return intents.filter((i) => spoken(i.query) !== i.query).map((i) => ({ ...i, query: spoken(i.query) }));
};
