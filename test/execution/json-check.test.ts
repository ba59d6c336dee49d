// The JSON check of provider bodies (src/execution/json-check.ts) against JSON.parse itself: never
// true for a text JSON.parse refuses (the answer splices the body into its envelope), and true for
// the texts providers send (JSON.stringify's, pretty-printed, escapes, non-ASCII).
import { describe, expect, it } from 'vitest';
import { isJsonText } from '../../src/execution/json-check.ts';

const parses = (bytes: Buffer) => {
  try {
    JSON.parse(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
};

/** A small deterministic generator (mulberry32), so a failure repeats. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SAMPLES = [
  '{"id":"con_0001","n":-12.5e-3,"ok":true,"no":false,"none":null,"tags":["a","b"],"nested":{"deep":[[],{}]}}',
  '[0,-0,1E9,2.25,1e+2,3E-2,"\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r"]',
  ' \t\n\r{ "spaced" : [ 1 , 2 ] } \n',
  '"just a string"',
  '42',
  'null',
  '{"émoji":"😀 — ü","line":"\u2028\u2029"}',
];

describe('isJsonText', () => {
  it('accepts what providers send', () => {
    for (const text of SAMPLES) expect(isJsonText(Buffer.from(text)), text).toBe(true);
    const value = { a: [1, 'two', { three: null, four: [true, false] }], big: 12345678901234567890, s: 'q"uote\\back\u0001ctl' };
    expect(isJsonText(Buffer.from(JSON.stringify(value)))).toBe(true);
    expect(isJsonText(Buffer.from(JSON.stringify(value, null, 2)))).toBe(true);
  });

  it('refuses what JSON.parse refuses', () => {
    const refused = ['', ' ', '{', '}', '[1,]', '{"a":1,}', '{"a" 1}', '{a:1}', "'x'", '01', '1.', '.5', '-', '+1', '1e', '1e+', '0x10', 'NaN', 'Infinity', 'tru', 'nul', 'truex',
      '"unterminated', '"bad \\x escape"', '"\\u12g4"', '"tab\there"', '[1 2]', '{"a":1}{"b":2}', '[]]', '\ufeff{}', '"\\'];
    for (const text of refused) {
      expect(parses(Buffer.from(text)), `JSON.parse accepts ${JSON.stringify(text)}`).toBe(false);
      expect(isJsonText(Buffer.from(text)), JSON.stringify(text)).toBe(false);
    }
    // Bytes that are not UTF-8: outside a string refused, inside one decoded to U+FFFD, which JSON.parse takes.
    expect(isJsonText(Buffer.from([0x5b, 0xff, 0x5d]))).toBe(false);
    const inString = Buffer.from([0x22, 0xff, 0xc3, 0x22]);
    expect(parses(inString)).toBe(true);
    expect(isJsonText(inString)).toBe(true);
  });

  it('never accepts a mutated text JSON.parse refuses, and accepts nearly all it takes', () => {
    const next = random(27);
    const pieces = ['{', '}', '[', ']', '"', '\\', ',', ':', ' ', '\n', '0', '1', '-', '+', '.', 'e', 'E', 'u', 'a', 'true', 'false', 'null', '\u0001', 'é', '\t', '/', 'b', 'n'];
    let accepted = 0;
    let parsed = 0;
    for (let round = 0; round < 60_000; round++) {
      let text = SAMPLES[round % SAMPLES.length]!;
      for (let m = 1 + (round % 4); m > 0; m--) {
        const at = Math.floor(next() * (text.length + 1));
        const piece = pieces[Math.floor(next() * pieces.length)]!;
        const op = next();
        text = op < 0.4 ? text.slice(0, at) + piece + text.slice(at) : op < 0.7 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + piece + text.slice(at + 1);
      }
      const bytes = Buffer.from(text);
      const ok = parses(bytes);
      const checked = isJsonText(bytes);
      if (checked && !ok) expect.fail(`accepted ${JSON.stringify(text)}, which JSON.parse refuses`);
      if (ok) parsed++;
      if (checked) accepted++;
    }
    expect(parsed).toBeGreaterThan(1000);
    expect(accepted).toBe(parsed); // nothing in these is nested past the check's depth
  });

  it('leaves a text nested deeper than it tracks to JSON.parse', () => {
    expect(isJsonText(Buffer.from('['.repeat(500) + ']'.repeat(500)))).toBe(true);
    const deep = Buffer.from('['.repeat(600) + ']'.repeat(600));
    expect(parses(deep)).toBe(true);
    expect(isJsonText(deep)).toBe(false);
  });
});
