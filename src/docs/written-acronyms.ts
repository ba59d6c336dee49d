// Acronyms a catalogue names operations by and writes out in their text ("dnd.info": "Retrieves a
// user's current Do Not Disturb status"): a query that writes the phrase ("is Tom on
// do-not-disturb?") is read with the catalogue's acronym in its place, so it meets the operations
// named by it. The reverse of reading "PR" as "pull request" (./rank.ts).
import type { RankedOperation } from './analysis.ts';

/** Words of an operation's ID and path of acronym length. */
const ACRONYM_LENGTH = { least: 3, most: 5 };

/** Acronyms the catalogue spells out: each with the pattern of its phrase as a query writes it (spaces or hyphens). */
export type WrittenAcronyms = readonly { acronym: string; phrase: RegExp }[];

/**
 * Each short word of an operation's ID or path that no summary writes as a word and its own text
 * never writes alone, but that its text writes out as as many capitalised words starting with its
 * letters ("Do Not Disturb": dnd). A short word the text writes itself ("set", "get") is a word,
 * not an acronym. Only the few short words no summary writes have their descriptions read.
 */
export function writtenAcronyms(operations: readonly RankedOperation[]): WrittenAcronyms {
  const summaryWords = new Set(operations.flatMap((op) => (op.summary ?? '').toLowerCase().split(/[^a-z]+/)));
  const candidates = new Map<string, RankedOperation[]>();
  for (const op of operations) {
    const named = `${op.operationId.slice(op.operationId.indexOf('.') + 1)} ${op.path ?? ''}`.replace(/([a-z])([A-Z])/g, '$1 $2');
    for (const word of new Set(named.toLowerCase().split(/[^a-z]+/))) {
      if (word.length < ACRONYM_LENGTH.least || word.length > ACRONYM_LENGTH.most || summaryWords.has(word)) continue;
      candidates.set(word, [...(candidates.get(word) ?? []), op]);
    }
  }
  const found: { acronym: string; phrase: RegExp }[] = [];
  for (const [acronym, ops] of candidates) {
    const alone = new RegExp(`\\b${acronym}\\b`, 'i');
    const spelled = new RegExp(`\\b${[...acronym].map((letter) => `${letter.toUpperCase()}[a-z]+`).join('[^A-Za-z]+')}\\b`);
    for (const op of ops) {
      const text = `${op.summary ?? ''} ${op.description ?? ''}`.replace(/<[^>]*>/g, ' ');
      const phrase = !alone.test(text) && spelled.exec(text);
      if (phrase) {
        found.push({ acronym, phrase: new RegExp(`\\b${phrase[0].toLowerCase().split(/[^a-z]+/).join('[\\s-]+')}\\b`, 'gi') });
        break;
      }
    }
  }
  return found;
}

/** The query with each phrase the catalogue has an acronym for read as the acronym. */
export function withWrittenAcronyms(query: string, acronyms: WrittenAcronyms): string {
  return acronyms.reduce((read, { acronym, phrase }) => read.replace(phrase, acronym), query);
}
