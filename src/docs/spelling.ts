// How people type, read as written English and the catalogue write it: a contraction without its
// apostrophe ("dont", "whats"); a British spelling where the catalogue writes American English
// ("organisation", "colour"), read as the catalogue's when it writes that and not the word; and a
// mistyped word ("dleete", "isues"): a lower-case word of five letters or more that neither the
// catalogue nor either word-vector model knows, and that is no known word with a prefix or an ending
// or two joined, is read as the catalogue's word one edit away (a letter left out, added, changed,
// or two swapped), its commonest first. Capitalised words, words joined to digits or capitals
// (`parseConfig`, `cus_K8s2`) and words in quotes are names and values: never changed; nor is a
// user name of an initial and a name read as the name alone (`bwells`, not "wells"). Texting
// short forms ("pls", "mtg") are read first (./texting.ts), and an emoji written as a thing by
// its name (./emoji.ts).
import { EMOJI_AS_THING, emojiName, SHORTCODE, shortcodeWords } from './emoji.ts';
import { digitsFor } from './spoken-numbers.ts';
import { fullForm, readInFullAlways, SHORT_FORM } from './texting.ts';
import { isInitialAndName, stemOf } from './text.ts';
import { wordVectorModels } from './word-vectors.ts';

export interface Correction {
  from: string;
  to: string;
}

export interface Spelled {
  query: string;
  corrections: Correction[];
}

/** What a correction is read against: how many operations use a stem, and where general English ranks a word. */
export interface SpellingLexicon {
  /** Operations whose text has the stem (0: none). */
  uses(stem: string): number;
  /** The word's rank among the word-vector models' words (lower is commoner), or -1 when neither knows it. */
  englishRank(word: string): number;
}

const MIN_LENGTH = 5;
/** Longer words are no everyday word mistyped, and each costs ~54 lookups per letter. */
const MAX_LENGTH = 20;
/** Corrections per query at most: the answer lists them, and a query of 500 characters stays cheap. */
const MAX_CORRECTIONS = 10;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** A lower-case word standing alone: not part of a name in code, an identifier or a path. */
const WORD = /(?<![\w'’@/.-])[a-z]{5,20}(?![\w'’@/-]|\.\w)/g;
/** Text in quotes, a title or a message: left as written. */
const QUOTED = /"[^"]*"|“[^”]*”|'[^']*'(?!\w)/g;

/** Every string one edit from `word`: a letter deleted, two adjacent swapped, one changed, one inserted. */
export function oneEditAway(word: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const c of LETTERS) {
      if (tail) out.add(head + c + tail.slice(1));
      out.add(head + c + tail);
    }
  }
  out.delete(word);
  return out;
}

/** Prefixes that make a new word of a known one ("unsend", "upvote", "offsite"), which is no typo. */
const PREFIXES = ['un', 'up', 're', 'de', 'co', 'dis', 'mis', 'non', 'pre', 'sub', 'off', 'out', 'over', 'under'];
/** Endings that make a new word of a known one ("spammer", "timeboxed"), the known word's last consonant doubled or not. */
const SUFFIXES = ['er', 'ers', 'ed', 'ing', 'able', 'less', 'ness'];

/** Whether `word` is a known word with a prefix or an ending, or two known words joined ("standup"). */
function isDerived(word: string, known: (w: string) => boolean): boolean {
  if (PREFIXES.some((p) => word.startsWith(p) && word.length - p.length >= 4 && known(word.slice(p.length)))) return true;
  for (const suffix of SUFFIXES) {
    if (!word.endsWith(suffix)) continue;
    const base = word.slice(0, -suffix.length);
    if (known(base) || known(`${base}e`) || (base.length > 2 && base.at(-1) === base.at(-2) && known(base.slice(0, -1)))) return true;
  }
  for (let i = 4; i <= word.length - 4; i++) if (known(word.slice(0, i)) && known(word.slice(i))) return true;
  return false;
}

/**
 * The catalogue's word `word` was most likely meant to be, or undefined when `word` is known, is a
 * known word derived or joined, or no word of the catalogue is one edit away. Only the catalogue's
 * words are offered: general English knows too few names ("priya" is one edit from "prima").
 */
export function correctionOf(word: string, lexicon: SpellingLexicon): string | undefined {
  const known = (w: string) => w.length >= 2 && (lexicon.englishRank(w) >= 0 || lexicon.uses(stemOf(w)) > 0);
  if (word.length < MIN_LENGTH || word.length > MAX_LENGTH || known(word) || isDerived(word, known)) return undefined;
  let best: string | undefined;
  let bestUses = 0;
  // An initial before a name ("take bwells off the repo") is a user name, not a letter typed too many ("wells").
  const initialled = isInitialAndName(word) ? word.slice(1) : undefined;
  for (const candidate of oneEditAway(word)) {
    if (candidate === initialled) continue;
    // The catalogue's commonest first.
    const uses = lexicon.uses(stemOf(candidate));
    if (uses > bestUses) {
      best = candidate;
      bestUses = uses;
    }
  }
  return best;
}

/**
 * British spellings of the endings American English writes otherwise: -ise/-isation (-ize), -yse
 * (-yze), -our (-or), -tre (-ter), -ence (licence: -ense), -logue (-log), -amme (-am); a doubled l
 * ("cancelled") needs no rule, as stems already match. A rule applies only where the catalogue writes the result and not the
 * word ("organisation", "colour", "licence"), so it never changes a word the catalogue has.
 */
const AMERICAN: readonly [RegExp, string][] = [
  [/is(e|es|ed|ing|ation|ations|er|ers|able)$/, 'iz$1'],
  [/ys(e|es|ed|ing|er|ers)$/, 'yz$1'],
  [/our(s|ed|ing|ite|ites|able|er|ers)?$/, 'or$1'],
  [/tre(s)?$/, 'ter$1'],
  [/ence(s)?$/, 'ense$1'],
  [/logue(s)?$/, 'log$1'],
  [/amme(s)?$/, 'am$1'],
];

/** The catalogue's spelling of a word written the British way, or undefined when the catalogue has the word or no such spelling. */
export function americanOf(word: string, lexicon: SpellingLexicon): string | undefined {
  if (word.length < MIN_LENGTH || lexicon.uses(stemOf(word)) > 0) return undefined;
  for (const [ending, american] of AMERICAN) {
    if (!ending.test(word)) continue;
    const spelled = word.replace(ending, american);
    if (lexicon.uses(stemOf(spelled)) > 0) return spelled;
  }
  return undefined;
}

/**
 * Contractions typed without their apostrophe ("dont delete it", "whats open"), as general English
 * writes them, so a negation or a question reads as one. Only forms that are no word of their own
 * ("wont", "ill", "its", "lets", "were", "id" are).
 */
const CONTRACTIONS: Readonly<Record<string, string>> = Object.fromEntries(
  ['dont', 'doesnt', 'didnt', 'cant', 'couldnt', 'shouldnt', 'wouldnt', 'mustnt', 'isnt', 'arent', 'wasnt', 'werent', 'havent', 'hasnt', 'hadnt', 'aint']
    .map((w) => [w, `${w.slice(0, -1)}'t`])
    .concat(
      ['whats', 'whos', 'wheres', 'whens', 'hows', 'thats', 'theres', 'heres', 'shes', 'itll', 'thatll'].map((w) => [w, w.endsWith('ll') ? `${w.slice(0, -2)}'ll` : `${w.slice(0, -1)}'s`]),
      [['im', "i'm"], ['ive', "i've"], ['youre', "you're"], ['youve', "you've"], ['theyre', "they're"], ['theyve', "they've"], ['weve', "we've"], ['wouldve', "would've"], ['shouldve', "should've"]],
    ),
);
const BARE_CONTRACTION = new RegExp(`(?<![\\w'’])(?:${Object.keys(CONTRACTIONS).join('|')})(?![\\w'’])`, 'gi');

/** Where `text` quotes something, as [start, end) offsets. */
const quotedSpans = (text: string): [number, number][] => [...text.matchAll(QUOTED)].map((m) => [m.index, m.index + m[0].length]);

/** `text` with `replace` applied to each match of `pattern` outside quotes (a title or a message stays as written). */
function outsideQuotes(text: string, pattern: RegExp, replace: (match: string, at: number) => string | undefined, corrections: Correction[]): string {
  const quoted = quotedSpans(text);
  return text.replace(pattern, (match: string, ...rest: unknown[]) => {
    const at = rest.find((r): r is number => typeof r === 'number')!;
    if (corrections.length >= MAX_CORRECTIONS || quoted.some(([from, to]) => at >= from && at < to)) return match;
    const to = replace(match, at);
    if (to === undefined) return match;
    corrections.push({ from: match, to });
    return to;
  });
}

/** `query` with contractions, mistyped words and British spellings read as written English and the catalogue write them, and the corrections made. */
export function correctSpelling(query: string, lexicon: SpellingLexicon): Spelled {
  const corrections: Correction[] = [];
  const restored = outsideQuotes(query, BARE_CONTRACTION, (word) => {
    const to = CONTRACTIONS[word.toLowerCase()]!;
    return word[0] === word[0]!.toUpperCase() ? to[0]!.toUpperCase() + to.slice(1) : to;
  }, corrections);
  // Texting short forms ("pls", "mtg", "w/") as the words they stand for (./texting.ts).
  // A form the catalogue writes itself (Slack's `info`) is the catalogue's word.
  const unshortened = outsideQuotes(restored, SHORT_FORM, (form, at) => (lexicon.uses(stemOf(form.toLowerCase())) > 0 && !readInFullAlways(form) ? undefined : fullForm(form, at)), corrections);
  // An emoji written as a thing by its name, alone where the catalogue writes each of its words ("a ⭐": star) and else with
  // "emoji" ("a 🎉": party popper emoji); a shortcode (":tada:") as its words and "emoji" (./emoji.ts).
  const emojiAsThing = (emoji: string) => {
    const name = emojiName(emoji);
    return name === undefined || name.split(' ').every((word) => lexicon.uses(stemOf(word)) > 0) ? name : `${name} emoji`;
  };
  const named = outsideQuotes(outsideQuotes(unshortened, EMOJI_AS_THING, emojiAsThing, corrections), SHORTCODE, shortcodeWords, corrections);
  const spelled = outsideQuotes(named, WORD, (word) => americanOf(word, lexicon) ?? correctionOf(word, lexicon), corrections);
  // Numbers said in words ("issue forty two") as digits (./spoken-numbers.ts).
  const quoted = quotedSpans(spelled);
  const numbered = digitsFor(spelled, (from, to) => corrections.push({ from, to }), (at) => quoted.some(([from, to]) => at >= from && at < to));
  return { query: numbered, corrections };
}

/** A lexicon over a catalogue's stems (how many operations use each) and both word-vector models. */
export function spellingLexicon(uses: (stem: string) => number): SpellingLexicon {
  const models = wordVectorModels();
  return {
    uses,
    englishRank: (word) => {
      let rank = -1;
      for (const model of models) {
        const row = model.indexOf(word);
        if (row >= 0 && (rank < 0 || row < rank)) rank = row;
      }
      return rank;
    },
  };
}
