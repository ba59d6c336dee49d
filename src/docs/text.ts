// Words and stems, the same for the catalogue and for queries: lower-case words split at
// punctuation, camelCase humps and digits; stems by the Porter stemmer, so "repositories",
// "repository" and "deployments"/"deploy" meet.
import { stemmer } from 'stemmer';
import { JOINED_PREFIX, STOP_WORDS } from './lexicon.ts';
import { IRREGULAR_PARTICIPLES, IRREGULAR_PAST_TENSES } from './participles.ts';

/** Irregular past forms read as words of their own. */
const OWN_WORDS = new Set(['done', 'found', 'lost', 'bound', 'did']);

const MARKUP = /<[^>]*>|&[a-z]+;|https?:\/\/\S+/g;
const HUMP = /([a-z0-9])([A-Z])|([A-Z]+)([A-Z][a-z])/g;

/** Lower-case words of `text`, in order, stop words kept. */
export function words(text: string): string[] {
  return text
    .replace(MARKUP, ' ')
    // "Un-pins", "re-run": one word, as a catalogue also writes it (unpin, rerun).
    .replace(JOINED_PREFIX, '$1$2')
    // "A to-do": one word, as "todo".
    .replace(/\bto-do(s?)\b/gi, 'todo$1')
    .replace(/([A-Z]{2,})s\b/g, (_, acronym: string) => `${acronym.toLowerCase()}s`)
    .replace(HUMP, (_, a, b, c, d) => (a ? `${a} ${b}` : `${c} ${d}`))
    .toLowerCase()
    .split(/[^a-z0-9@']+|'(?![a-z])/)
    .map((w) => (w.includes("'") ? w.replace(/^'+|'+$/g, '').replace(/'s$/, '') : w))
    .filter(Boolean);
}

/** Two consonants an English word can begin with; a word that starts with any other pair (`jgreen`, `bwells`) is an initial before a name. */
const ONSET = /^(?:[aeiouy]|[bcdfghjklmnpqrstvwxz](?:[aeiouy]|$)|bl|br|ch|cl|cr|dr|dw|fl|fr|gh|gl|gn|gr|kn|kr|ph|pl|pn|pr|ps|qu|rh|sc|sh|sk|sl|sm|sn|sp|sq|st|sv|sw|th|tr|ts|tw|wh|wr)/;

/** Whether a lower-case word is a user name made of an initial and a name ("jgreen", "bwells"): no English word starts so. */
export function isInitialAndName(word: string): boolean {
  return word.length >= 4 && /^[a-z]+$/.test(word) && !ONSET.test(word) && word[0] !== word[1];
}

const stemCache = new Map<string, string>();
/** The stem of a lower-case word ([] for a stop word). */
export function stems(word: string): string[] {
  if (STOP_WORDS.has(word)) return [];
  let stem = stemCache.get(word);
  if (stem === undefined) {
    stem = stemOf(word);
    if (stemCache.size < 100_000) stemCache.set(word, stem);
  }
  return [stem];
}

/**
 * The stem of any lower-case word, stop words included. A plural in -ings is a noun of its own
 * ("settings", "listings", "mappings"), not the verb it comes from: it keeps its -ing, so "set up"
 * meets no settings.
 */
export const stemOf = (word: string): string => {
  const verb = IRREGULAR_FORMS.get(word);
  if (verb !== undefined) return stemmer(verb);
  return word.length > 6 && word.endsWith('ings') ? word.slice(0, -1) : word.length > 2 ? stemmer(word) : word;
};

/**
 * Irregular past forms by their verb ("sent": send, "paid": pay, "wrote": write), so "Schedules a
 * message to be sent" meets "send"; not those read more often as words of their own ("done" as a
 * state, "found", "lost", "bound").
 */
const IRREGULAR_FORMS = new Map(Object.entries({ ...IRREGULAR_PARTICIPLES, ...IRREGULAR_PAST_TENSES }).filter(([form]) => !OWN_WORDS.has(form)));

/** The stems of a text's words, stop words left out. */
export const textStems = (text: string): string[] => words(text).flatMap(stems);
