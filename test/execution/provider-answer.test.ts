// A provider's answer (src/execution/provider-answer.ts) and its success envelope
// (src/execution/outcomes.ts): a body that checks as JSON is parsed only when `data` is read, and the
// envelope still carries `data` wherever it goes (JSON, spreads, structured clones, in its key order).
import { describe, expect, it } from 'vitest';
import type { ServiceIndex } from '../../src/catalog/index.ts';
import { singleOutcome } from '../../src/execution/outcomes.ts';
import { providerAnswer } from '../../src/execution/provider-answer.ts';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
/** A service without a rule for 2xx errors: singleOutcome reads nothing else of it. */
const INDEX = { providerError: undefined } as unknown as ServiceIndex;

describe('providerAnswer', () => {
  it('keeps a JSON body as text and parses it on the first read of data', () => {
    const text = '{"id":"con_1","n":[1,2.5],"big":12345678901234567890}';
    const res = providerAnswer(200, JSON_HEADERS, Buffer.from(text), 1);
    expect(res.json).toBe(text);
    expect(res.data).toEqual(JSON.parse(text));
    expect(res.data).toBe(res.data); // parsed once
  });

  it('answers text for a body that is not JSON, and for a non-JSON type', () => {
    const broken = providerAnswer(200, JSON_HEADERS, Buffer.from('{"a":1,}'), 1);
    expect(broken.json).toBeUndefined();
    expect(broken.data).toBe('{"a":1,}');
    const plain = providerAnswer(200, { 'content-type': 'text/plain' }, Buffer.from('{"a":1}'), 1);
    expect(plain.json).toBeUndefined();
    expect(plain.data).toBe('{"a":1}');
  });

  it('parses a refusal at once, keeping only what names its error', () => {
    const res = providerAnswer(401, JSON_HEADERS, Buffer.from('{"error":"bad key","echo":"sk_live_x"}'), 1);
    expect(res.json).toBeUndefined();
    expect(JSON.stringify(res.data)).not.toContain('sk_live_x');
  });
});

describe('the success envelope of a JSON answer', () => {
  it('carries data through JSON, spreads and structured clones, in the envelope key order', () => {
    const text = '{"items":[{"id":1},{"id":2}],"next":null}';
    const outcome = singleOutcome(INDEX, providerAnswer(200, JSON_HEADERS, Buffer.from(text), 1));
    const { envelope } = outcome;
    expect(outcome.dataJson).toBe(text);
    expect(Object.keys(envelope)).toEqual(['ok', 'status', 'data', 'error']);
    expect(JSON.stringify(envelope)).toBe(`{"ok":true,"status":200,"data":${text},"error":null}`);
    expect({ ...envelope, continuation: 'c' }).toEqual({ ok: true, status: 200, data: JSON.parse(text), error: null, continuation: 'c' });
    expect(structuredClone(envelope)).toEqual({ ok: true, status: 200, data: JSON.parse(text), error: null });
    expect(outcome.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
