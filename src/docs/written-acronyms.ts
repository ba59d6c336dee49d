// Acronyms a catalogue names operations by and writes out in their text ("dnd.info": "Retrieves a
// user's current Do Not Disturb status"): a query that writes the phrase ("is Tom on
// do-not-disturb?") is read with the catalogue's acronym in its place, so it meets the operations
// named by it. The reverse of reading "PR" as "pull request" (./rank.ts).
import type { RankedOperation } from './analysis.ts';

/** Words of an operation's ID and path of acronym length. */
const ACRONYM_LENGTH = { least: 3, most: 5 };

/** Acronyms the catalogue spells out, by their phrase's words (lower-case, space-joined). */
export type WrittenAcronyms = ReadonlyMap<string, string>;

/**
 * Each short word of an operation's ID or path that its summary or description never writes
 * alone, but writes out as as many capitalised words starting with its letters ("Do Not Disturb":
 * dnd). A short word the text writes itself ("set", "get") is a word, not an acronym.
 */
export function writtenAcronyms(operations: readonly RankedOperation[]): WrittenAcronyms {
  const found = new Map<string, string>();
  for (const op of operations) {
    const named = `${op.operationId.slice(op.operationId.indexOf('.') + 1)} ${op.path ?? ''}`.replace(/([a-z])([A-Z])/g, '$1 $2');
    const short = new Set(named.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= ACRONYM_LENGTH.least && w.length <= ACRONYM_LENGTH.most));
    if (!short.size) continue;
    const text = `${op.summary ?? ''} ${op.description ?? ''}`.replace(/<[^>]*>/g, ' ');
    const textWords = text.split(/[^A-Za-z]+/).filter(Boolean);
    const lower = new Set(textWords.map((w) => w.toLowerCase()));
    for (const acronym of short) {
      if (lower.has(acronym)) continue;
      for (let i = 0; i + acronym.length <= textWords.length; i++) {
        const phrase = textWords.slice(i, i + acronym.length);
        if (phrase.every((w, j) => /^[A-Z][a-z]/.test(w) && w[0]!.toLowerCase() === acronym[j])) {
          found.set(phrase.join(' ').toLowerCase(), acronym);
          break;
        }
      }
    }
  }
  return found;
}

/** The query with each phrase the catalogue has an acronym for, written with spaces or hyphens, read as the acronym. */
export function withWrittenAcronyms(query: string, acronyms: WrittenAcronyms): string {
  let read = query;
  for (const [phrase, acronym] of acronyms) {
    const written = new RegExp(`\\b${phrase.split(' ').join('[\\s-]+')}\\b`, 'gi');
    read = read.replace(written, acronym);
  }
  return read;
}
