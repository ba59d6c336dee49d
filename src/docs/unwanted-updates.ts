// Updates no longer wanted ("I don't need updates on PA-12 anymore", "stop sending me notifications
// about that issue") ask to stop watching the thing: the query is read with "stop watching" in
// their place, which the catalogue's unwatch, unsubscribe or remove-watcher answers.

/** Not wanting, or asking to stop, updates, notifications or emails about a thing. */
const UNWANTED_UPDATES = /\b(?:(?:don'?t|do not|no longer)\s+(?:want|need)(?:\s+to\s+(?:get|receive))?(?:\s+any\s*more|\s+any)?|stop\s+(?:sending\s+me|getting|receiving)(?:\s+any)?|stop\s+the)\s+(?:updates|notifications|emails|alerts)\b/gi;

/** The query with updates no longer wanted read as "stop watching". */
export function unwantedUpdatesAsUnwatching(query: string): string {
  return query.replace(UNWANTED_UPDATES, 'stop watching');
}
