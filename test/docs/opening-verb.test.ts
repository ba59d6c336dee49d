// The verb a request opens with (src/docs/opening-verb.ts) agrees with an operation named after it.
import { describe, expect, it } from 'vitest';
import { openingVerb } from '../../src/docs/opening-verb.ts';
import { Ranker } from '../../src/docs/rank.ts';
import { rankedOperation as op } from '../fixtures/ranked-operation.ts';

describe('the opening verb', () => {
  it('is the stem of the first word', () => {
    expect(openingVerb('open a direct message with priya')).toBe('open');
    expect(openingVerb('#old-project is dead')).toBeUndefined();
  });

  it('asks for the operation named after it, though a phrase reads it as a canonical action ("open a": create)', () => {
    const ranker = new Ranker([
      op('sl.conversations_open', 'POST', '/conversations.open', 'Opens or resumes a direct message or multi-person direct message.', { fieldNames: ['users', 'channel', 'return_im', 'prevent_creation'] }),
      op('sl.conversations_close', 'POST', '/conversations.close', 'Closes a direct message or multi-person direct message.', { fieldNames: ['channel'] }),
      op('sl.chat_postMessage', 'POST', '/chat.postMessage', 'Sends a message to a channel.', { fieldNames: ['channel', 'text'] }),
    ]);
    expect(ranker.search('open a direct message with priya', 3)[0]!.id).toBe('sl.conversations_open');
  });
});
