// RFC 6901 pointers (src/json-pointer), without an Engine: parsing and its escapes, the URI fragment
// form, formatting, reading (with the pagination policies' `-1`) and writing a copy.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPointer, getAt, parseFragmentPointer, parsePointer, PointerError, setAt } from '../../src/json-pointer/index.ts';

describe('parsePointer', () => {
  it('reads the empty pointer as the whole document and "/" as the empty key', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/')).toEqual(['']);
    expect(parsePointer('//')).toEqual(['', '']);
  });

  it('unescapes ~1 to "/" and ~0 to "~", ~1 before ~0 (so "~01" is "~1", not "/")', () => {
    expect(parsePointer('/a~1b/m~0n')).toEqual(['a/b', 'm~n']);
    expect(parsePointer('/~01')).toEqual(['~1']);
    expect(parsePointer('/~10')).toEqual(['/0']);
  });

  it.each(['a', 'a/b', '#/a'])('refuses %j, which does not start with "/"', (pointer) => {
    expect(() => parsePointer(pointer)).toThrow(PointerError);
    expect(() => parsePointer(pointer)).toThrow(`'${pointer}' is not a JSON Pointer`);
  });

  it.each(['/~', '/a~2', '/~a/b'])('refuses %j, a "~" not followed by 0 or 1', (pointer) => {
    expect(() => parsePointer(pointer)).toThrow(`'${pointer}' has an invalid escape`);
  });
});

describe('parseFragmentPointer', () => {
  it('percent-decodes each token, then unescapes it', () => {
    expect(parseFragmentPointer('/components/schemas/a%20b')).toEqual(['components', 'schemas', 'a b']);
    expect(parseFragmentPointer('/%7E1x')).toEqual(['/x']);
    expect(parseFragmentPointer('')).toEqual([]);
  });

  it('keeps an encoded "/" (%2F) inside its token', () => {
    expect(parseFragmentPointer('/a%2Fb/c')).toEqual(['a/b', 'c']);
  });

  it('refuses a malformed percent-encoding, a fragment without "/", and a bad escape, naming the fragment', () => {
    expect(() => parseFragmentPointer('/a%zz')).toThrow("'#/a%zz' has a malformed percent-encoding");
    expect(() => parseFragmentPointer('a')).toThrow("'#a' is not a JSON Pointer fragment");
    expect(() => parseFragmentPointer('/%7E2')).toThrow("'#/%7E2' has an invalid escape");
  });
});

describe('formatPointer', () => {
  it('escapes "~" before "/" and writes numbers as their digits', () => {
    expect(formatPointer(['a/b', 'm~n', 0])).toBe('/a~1b/m~0n/0');
    expect(formatPointer(['~1'])).toBe('/~01');
    expect(formatPointer([])).toBe('');
  });

  it('is undone by parsePointer for any tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' })), (tokens) => {
        expect(parsePointer(formatPointer(tokens))).toEqual(tokens);
      }),
    );
  });
});

describe('getAt', () => {
  const doc = { data: [{ id: 'a' }, { id: 'b' }], 'a/b': 1, '': { x: 2 }, n: null, empty: [] };

  it('reads objects and arrays, by string or by tokens', () => {
    expect(getAt(doc, '/data/1/id')).toBe('b');
    expect(getAt(doc, ['data', '0', 'id'])).toBe('a');
    expect(getAt(doc, '/a~1b')).toBe(1);
    expect(getAt(doc, '//x')).toBe(2);
    expect(getAt(doc, '')).toBe(doc);
    expect(getAt(doc, '/n')).toBeNull();
  });

  it('answers undefined for a missing step, a non-index token on an array, and an index past the end', () => {
    expect(getAt(doc, '/nope')).toBeUndefined();
    expect(getAt(doc, '/data/x')).toBeUndefined();
    expect(getAt(doc, '/data/01')).toBeUndefined();
    expect(getAt(doc, '/data/2')).toBeUndefined();
    expect(getAt(doc, '/n/x')).toBeUndefined();
    expect(getAt('text', '/length')).toBeUndefined();
  });

  it('reads only own properties, never the prototype chain', () => {
    expect(getAt({}, '/toString')).toBeUndefined();
    expect(getAt({}, '/__proto__')).toBeUndefined();
    expect(getAt([], '/length')).toBeUndefined();
  });

  it('reads -1 as the last item, unless strict; an empty array has none', () => {
    expect(getAt(doc, '/data/-1/id')).toBe('b');
    expect(getAt(doc, '/data/-1/id', true)).toBeUndefined();
    expect(getAt(doc, '/empty/-1')).toBeUndefined();
  });
});

describe('setAt', () => {
  it('places the value in a copy, leaving the document as it was', () => {
    const doc = { query: { page: 1, keep: true }, other: { same: 1 } };
    const out = setAt(doc, '/query/page', 2) as typeof doc;
    expect(out).toEqual({ query: { page: 2, keep: true }, other: { same: 1 } });
    expect(doc.query.page).toBe(1);
    expect(out.query).not.toBe(doc.query);
  });

  it('creates the objects on the way, replaces the root for "", and writes -1 as the last item', () => {
    expect(setAt({}, '/a/b', 1)).toEqual({ a: { b: 1 } });
    expect(setAt({ a: 1 }, '', 'root')).toBe('root');
    expect(setAt([1, 2, 3], '/-1', 9)).toEqual([1, 2, 9]);
  });

  it.each(['/__proto__/x', '/a/constructor', '/prototype'])('refuses %j, a reserved key', (pointer) => {
    expect(() => setAt({}, pointer, 1)).toThrow(`'${pointer}' names a reserved key`);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
