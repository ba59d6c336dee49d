// Variants of one operation (the same action on the same thing, at paths that differ in a few
// words): which one a query that names none of those words means. Used by ./rank.ts on its best hits.
import type { AnalysedOperation } from './analysis.ts';

/** How many of the best hits are checked for a more default variant of each. */
export const VARIANT_WINDOW = 10;
/** How far below a variant its default one may score and still go above it. */
const VARIANT_MARGIN = 0.2;

/** A hit with its operation and the stems the query matched in it. */
export interface Scored {
  hit: { score: number };
  doc: AnalysedOperation;
  matched: ReadonlySet<string>;
}

const pathWords = (doc: AnalysedOperation) => new Set([...doc.structure.resource, ...doc.structure.scope]);

/**
 * Of two operations doing the same action on the same thing whose paths differ in words the query
 * did not ask for, the one whose own words are the catalogue's commoner ones is the default: it
 * ranks first when the other scores close. A qualified variant (`/admin.conversations.create`
 * beside `/conversations.create`) has words the other lacks and none of its own; secrets of
 * Codespaces beside those of Actions, an enterprise's teams beside an organization's, have rarer
 * ones. `self`: the query asks for the signed-in user's own; `isSelf`: whether an operation addresses them.
 */
export function preferDefaultVariants(top: readonly Scored[], idf: (stem: string) => number, self: boolean, isSelf: (doc: Scored['doc']) => boolean = (doc) => doc.structure.self): void {
  const rarity = (list: readonly string[]) => list.reduce((sum, w) => sum + idf(w), 0);
  const wordsOf = new Map(top.map((entry) => [entry, pathWords(entry.doc)]));
  for (const special of top) {
    for (const plain of top) {
      if (plain === special || plain.hit.score >= special.hit.score || plain.hit.score < special.hit.score - VARIANT_MARGIN) continue;
      const p = plain.doc;
      const s = special.doc;
      // A deprecated operation is no default form of its replacement (GitHub's /teams/{team_id} beside /orgs/{org}/teams/{team_slug}).
      if (p.deprecated || p.structure.action !== s.structure.action || p.structure.head !== s.structure.head) continue;
      const plainWords = wordsOf.get(plain)!;
      const specialWords = wordsOf.get(special)!;
      const ownSpecial = [...specialWords].filter((w) => !plainWords.has(w));
      const ownPlain = [...plainWords].filter((w) => !specialWords.has(w));
      // Variants share the words of their path but a few (a chat's update is no variant of a conversation's close).
      if (ownSpecial.length === specialWords.size || ownPlain.length === plainWords.size) continue;
      if (!ownSpecial.length || ownSpecial.some((w) => special.matched.has(w)) || ownPlain.some((w) => plain.matched.has(w))) continue;
      // "My codespaces": the signed-in user's own is asked for, however rare its words.
      if (self && isSelf(s) && !isSelf(p)) continue;
      if (rarity(ownSpecial) > rarity(ownPlain)) special.hit.score = plain.hit.score - 1e-9;
    }
  }
}
