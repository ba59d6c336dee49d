// A time relative to now (src/docs/times.ts) says when, not what.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/docs/query.ts';
import { Ranker } from '../../src/docs/rank.ts';
import { quietRelativeTimes } from '../../src/docs/times.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

const weights = (query: string) => Object.fromEntries(quietRelativeTimes(query, parseQuery(query)).terms.map((t) => [t.word, t.weight]));

describe('times relative to now', () => {
  it('weighs "next tuesday", "last week" as a day word, and leaves a span alone', () => {
    expect(weights('cancel my lunch next tuesday').next).toBe(0.1);
    expect(weights('what did alice commit last week').week).toBe(0.1);
    expect(weights('does my calendar start the week on sunday').week).toBe(1);
  });

  it('does not let "next" match an operation named for the next one', () => {
    const ranker = new Ranker([
      op('cal.events.list', 'GET', '/calendars/{calendarId}/events', 'List events', { returnsList: true }),
      op('cal.events.next', 'GET', '/calendars/{calendarId}/next', 'Get the next event'),
    ]);
    expect(ranker.search('show my events next week', 2)[0]!.id).toBe('cal.events.list');
  });
});
