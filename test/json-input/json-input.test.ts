// Callers' JSON text (src/json-input) without an Engine: refusals of text that is not JSON, of
// nesting past MAX_JSON_DEPTH and of numbers a double would change, each naming where, never quoting
// a secret; and the canonical text that compares values whatever their key order.
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../src/envelope/index.ts';
import { canonicalJson, checkJsonInput, MAX_JSON_DEPTH, nestsDeeperThan, parseJsonInput } from '../../src/json-input/index.ts';

/** The EngineError `run` throws. */
function refusal(run: () => unknown): EngineError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe('ENGINE_INVALID_INPUT');
    return err as EngineError;
  }
  throw new Error('expected a refusal');
}

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('parseJsonInput', () => {
  it('parses JSON, numbers a double holds exactly included', () => {
    expect(parseJsonInput('{"a":[1,2.5,"x"],"b":null}', 'body')).toEqual({ a: [1, 2.5, 'x'], b: null });
    expect(parseJsonInput('9007199254740991', 'body')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseJsonInput('10000000000000000', 'body')).toBe(1e16); // past 2^53 but exact
    expect(parseJsonInput('1.5e300', 'body')).toBe(1.5e300);
  });

  it('refuses text that is not JSON without quoting it, naming the position', () => {
    const err = refusal(() => parseJsonInput('{"key": sk_live_canary}', 'body'));
    expect(err.message).toMatch(/^body: not valid JSON \(.* at position 8 \(line 1 column 9\)\)$/);
    expect(err.message).not.toContain('sk_live_canary');
    expect(err.details).toEqual({ field: 'body' });
  });

  it.each([
    ['an integer past 2^53 that would be rounded', '{"id":9007199254740993}', "body property 'id': the integer 9007199254740993 cannot be represented exactly"],
    ['a number past the largest double', '[1e309]', 'body property \'0\': the number 1e309 is out of range'],
    ['a negative one', '{"n":-1e400}', "body property 'n': the number -1e400 is out of range"],
  ])('refuses %s, naming it', (_what, text, message) => {
    expect(refusal(() => parseJsonInput(text, 'body')).message).toContain(message);
  });

  it('never quotes the number or its key in a secret', () => {
    const err = refusal(() => parseJsonInput('{"sk_9007199254740993":12345678901234567890}', 'body', true));
    expect(err.message).toBe('body: the integer cannot be represented exactly (beyond ±2^53); send it as a string');
    expect(err.message).not.toMatch(/1234|sk_/);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more, valid or not`, () => {
    expect(parseJsonInput(nested(MAX_JSON_DEPTH), 'input_json')).toBeDefined();
    const err = refusal(() => parseJsonInput(nested(MAX_JSON_DEPTH + 1), 'input_json'));
    expect(err.message).toBe(`input_json: nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`);
    expect(err.details).toEqual({ field: 'input_json', max_depth: MAX_JSON_DEPTH });
    expect(refusal(() => parseJsonInput(`${nested(MAX_JSON_DEPTH + 1).slice(0, -1)},`, 'input_json')).message).toContain('nested deeper than');
  });
});

describe('checkJsonInput within a value', () => {
  const check = (text: string) => checkJsonInput(text, JSON.parse(text), 'input', false, true);

  it('names the place of a refused number as a schema error would (input.amounts.1)', () => {
    expect(refusal(() => check('{"amounts":[1,9007199254740993]}')).details).toEqual({ field: 'amounts.1' });
    expect(refusal(() => check('9007199254740993')).details).toEqual({ field: 'input' });
  });

  it('names the key under which nesting goes too deep', () => {
    expect(refusal(() => check(`{"a":{"b":${nested(MAX_JSON_DEPTH)}}}`)).details).toEqual({ field: 'a.b', max_depth: MAX_JSON_DEPTH });
  });

  it('names only the field for a secret, whose keys may be the secret', () => {
    const text = '{"sk_live":9007199254740993}';
    expect(refusal(() => checkJsonInput(text, JSON.parse(text), 'value', true, true)).details).toEqual({ field: 'value' });
  });
});

describe('nestsDeeperThan', () => {
  it('counts brackets outside strings only, escaped quotes included', () => {
    expect(nestsDeeperThan(nested(5), 4)).toBe(true);
    expect(nestsDeeperThan(nested(4), 4)).toBe(false);
    expect(nestsDeeperThan(`["${'['.repeat(20)}"]`, 4)).toBe(false);
    expect(nestsDeeperThan(`["\\"${'['.repeat(20)}"]`, 4)).toBe(false);
  });
});

describe('canonicalJson', () => {
  it('gives equal text for equal values whatever their key order, and sorts nested keys', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[2,{"e":0,"f":1}]},"b":1}');
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });

  it('reads undefined as null and escapes keys', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson([undefined, 'a"b'])).toBe('[null,"a\\"b"]');
    expect(canonicalJson({ 'k"': undefined })).toBe('{"k\\"":null}');
  });
});
