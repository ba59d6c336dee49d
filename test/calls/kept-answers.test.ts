// What an idempotency key keeps of a call's answer (src/calls/kept-answers.ts), without an Engine.
import { describe, expect, it } from 'vitest';
import { keptAnswer, replayedResult } from '../../src/calls/kept-answers.ts';
import type { CallResult } from '../../src/execution/index.ts';

describe('keptAnswer', () => {
  it('keeps a spliced answer as its JSON text without reading the parsed data', () => {
    let reads = 0;
    const envelope = { ok: true, status: 200, error: null } as CallResult['envelope'];
    Object.defineProperty(envelope, 'data', { enumerable: true, get: () => (reads++, { id: 7 }) });
    const result: CallResult = { envelope, providerAnswered: true, receiptId: 'rcpt_1', providerDurationMs: 3, dataJson: '{"id":7}' };
    const text = keptAnswer(result)!;
    expect(reads).toBe(0);
    const replayed = replayedResult(text);
    expect(replayed.envelope).toMatchObject({ ok: true, status: 200, error: null });
    expect(replayed.dataJson).toBe('{"id":7}');
  });
});
