// How the action a query asks for agrees with the action an operation performs: the canonical
// actions, reads against writes, and an operation's own verb (merge, star) as neither.
import type { Action } from './lexicon.ts';

export const READS: ReadonlySet<string> = new Set(['list', 'get']);
export const CANONICAL: ReadonlySet<string> = new Set(['list', 'get', 'create', 'update', 'delete', 'cancel']);

/** How well the action an operation performs answers the action asked for. */
export function actionAgreement(asked: Action | 'read' | undefined, has: string): number {
  if (!asked) return 0;
  if (asked === 'read') return READS.has(has) ? 0.4 : CANONICAL.has(has) ? -1 : 0;
  if (asked === has) return 1;
  const askedRead = READS.has(asked);
  const hasRead = READS.has(has);
  if (askedRead && hasRead) return 0.4;
  if (askedRead !== hasRead) return -1;
  // Two different writes: create vs update is close (an "add" may be a PUT), delete vs create is not.
  if ((asked === 'create' && has === 'update') || (asked === 'update' && has === 'create')) return 0;
  // Stopping something may be deleting it ("stop watching": delete the subscription).
  if ((asked === 'cancel' && has === 'delete') || (asked === 'delete' && has === 'cancel')) return 0.3;
  if (!CANONICAL.has(has)) return 0; // the operation's own verb ("merg")
  return -0.6;
}

/** How much a read or write its method makes counts, against the action the operation's own verb would name. */
const OWN_VERB_SHARE = 0.6;

/**
 * How well an operation named after its own verb ("Merge a pull request", "Compare two commits")
 * answers the action asked, by what its method makes (`methodAction`): a `GET` is a read, so it
 * answers a read and not a write; a write answers a write of its kind, counted at a share, and
 * one of another kind as neither, as its own verb may be what "add" or "change" meant.
 */
export function ownVerbAgreement(asked: Action | 'read' | undefined, methodAction: Action): number {
  const agreement = actionAgreement(asked, methodAction);
  if (READS.has(methodAction) || agreement > 0) return OWN_VERB_SHARE * agreement;
  return asked === 'read' || (asked !== undefined && READS.has(asked)) ? -1 : 0;
}

/**
 * A question ("who is assigned to issue 3?", "what release tags do we have?") only reads: a write
 * that disagrees with it answers it worse than it answers a command's mismatch, so its
 * disagreement counts `times` as much (Add assignees below List assignees).
 */
export function questionAgreement(agreement: number, question: boolean, has: string, times: number): number {
  return question && agreement < 0 && CANONICAL.has(has) && !READS.has(has) ? agreement * times : agreement;
}
