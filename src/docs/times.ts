// A time said relative to now ("next Tuesday", "last week", "for the next hour") is a value, as a
// day is (src/docs/query.ts weighs a day word 0.1): "next" and "week" say when, not what, so they
// must not match a page cursor (`nextPageToken`) or a weekly report. A span alone ("start the week
// on Sunday") is a word like any other.
import type { ParsedQuery } from './query.ts';
import { DAY_WORDS } from './values.ts';

/** Days and spans of time that a word relative to now places. */
const SPANS = [...DAY_WORDS, 'hour', 'day', 'week', 'month', 'year', 'quarter', 'minute'];
/** A time relative to now: "next tuesday", "last week", "this month", "the past hour". */
const RELATIVE_TIME = new RegExp(`\\b(next|last|this|coming|past|previous) (${SPANS.join('|')})\\b`, 'gi');
/** How much a word of such a time counts: as a day word does. */
const WEIGHT = 0.1;

/** The query as read, with the words of each time relative to now ("next tuesday", "last week") weighed as a day is, and not widened. */
export function quietRelativeTimes(query: string, parsed: ParsedQuery): ParsedQuery {
  const words = new Set([...query.matchAll(RELATIVE_TIME)].flatMap((m) => [m[1]!.toLowerCase(), m[2]!.toLowerCase()]));
  if (!words.size) return parsed;
  return { ...parsed, terms: parsed.terms.map((t) => (t.at >= 0 && words.has(t.word) ? { ...t, weight: Math.min(t.weight, WEIGHT), name: true } : t)) };
}
