// A tracker key (`PROJ-12`) names a thing of the resource the catalogue addresses by key (Jira's
// issues: `/issue/{issueIdOrKey}`, read in src/docs/values.ts). An operation whose key parameter
// follows another resource (`/statuscategory/{idOrKey}`, `/project/{projectIdOrKey}`) takes some
// other key, so "what's the status of SUP-441?" is no status category's.
import { stems } from './text.ts';

/** A path parameter that takes a key, and the path segment right before it. */
const KEYED = /\/([A-Za-z_-]+)\/\{(?:[^}]*[a-z])?(?:key|Key)\}/;

/** Whether an operation's key parameter addresses the resource a tracker key names (`keyStem`); any key does where none is known. */
export function takesTrackerKey(path: string | undefined, keyStem: string | undefined): boolean {
  const m = KEYED.exec(path ?? '');
  if (!m || keyStem === undefined) return m !== null;
  return stems(m[1]!.toLowerCase().replace(/[_-]+/g, ''))[0] === keyStem;
}
