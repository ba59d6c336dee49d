// Collection discovery bounds, each at and just past its limit: 8 collections, 256 traversal nodes,
// 8 levels, 32 children per node, 512 inspected rows, 32 field names of at most 128 UTF-8 bytes.
import { describe, expect, it } from 'vitest';
import { discoverCollections, DISCOVERY_LIMITS } from '../../src/retention/index.ts';

const obj = (entries: [string, unknown][]) => Object.fromEntries(entries);
const named = (n: number, make: (i: number) => unknown) => obj(Array.from({ length: n }, (_, i) => [`k${i}`, make(i)]));

/** `{ a: { a: … { list: [1] } } }` with the array `levels` pointer tokens deep. */
function nested(levels: number): unknown {
  let v: unknown = [1];
  for (let i = 1; i < levels; i++) v = { a: v };
  return { a: v };
}

describe('discoverCollections', () => {
  it('finds a root array at path ""', () => {
    expect(discoverCollections([{ id: 1, name: 'x' }, { id: 2, extra: true }, 3])).toEqual({
      collections: [{ path: '', count: 3, fields: ['id', 'name', 'extra'], fields_complete: true }],
      collections_complete: true,
    });
    expect(discoverCollections([])).toEqual({ collections: [{ path: '', count: 0, fields: [], fields_complete: true }], collections_complete: true });
  });

  it('finds nothing in scalars and empty objects', () => {
    for (const v of ['text', 1, null, true, {}, { a: 1, b: {} }]) expect(discoverCollections(v)).toEqual({ collections: [], collections_complete: true });
  });

  it('escapes paths as RFC 6901 pointers and walks breadth-first', () => {
    const d = discoverCollections({ deep: { 'a/b': { '~t': [1] } }, top: [1, 2] });
    expect(d.collections.map((c) => c.path)).toEqual(['/top', '/deep/a~1b/~0t']);
  });

  it('reports arrays inside rows as fields, not as separate collections', () => {
    const d = discoverCollections({ data: [{ id: 1, labels: ['a'] }, { id: 2, labels: [] }] });
    expect(d).toEqual({ collections: [{ path: '/data', count: 2, fields: ['id', 'labels'], fields_complete: true }], collections_complete: true });
  });

  it('8 collections complete, 9 incomplete', () => {
    const eight = discoverCollections(named(8, () => [1]));
    expect(eight.collections).toHaveLength(8);
    expect(eight.collections_complete).toBe(true);
    const nine = discoverCollections(named(9, () => [1]));
    expect(nine.collections.map((c) => c.path)).toEqual(Array.from({ length: 8 }, (_, i) => `/k${i}`));
    expect(nine.collections_complete).toBe(false);
  });

  it('256 traversal nodes complete, 257 incomplete', () => {
    // root + 8 objects × 31 children = 257 nodes; the last node visited is the only array.
    const tree = (lastGroupSize: number) =>
      named(8, (g) => named(g === 7 ? lastGroupSize : 31, (i) => (g === 7 && i === lastGroupSize - 1 ? [1] : { x: 1 })));
    const at = discoverCollections(tree(30)); // 1 + 7×31 + 30 = 248 + 8 = 256
    expect(at).toEqual({ collections: [{ path: '/k7/k29', count: 1, fields: [], fields_complete: true }], collections_complete: true });
    const past = discoverCollections(tree(31)); // 257: the array would be the 257th node
    expect(past).toEqual({ collections: [], collections_complete: false });
    expect(DISCOVERY_LIMITS.nodes).toBe(256);
  });

  it('depth 8 complete, depth 9 incomplete', () => {
    expect(discoverCollections(nested(8))).toEqual({ collections: [{ path: '/a/a/a/a/a/a/a/a', count: 1, fields: [], fields_complete: true }], collections_complete: true });
    expect(discoverCollections(nested(9))).toEqual({ collections: [], collections_complete: false });
    // An empty object or a scalar at depth 9 cannot hold a collection, so nothing was missed.
    const deep = nested(8) as any;
    let n = deep;
    for (let i = 0; i < 7; i++) n = n.a;
    n.c = { empty: {}, scalar: 1 }; // /a/…/c is at depth 8, its members at depth 9
    expect(discoverCollections(deep).collections_complete).toBe(true);
    n.c.list = [1];
    expect(discoverCollections(deep).collections_complete).toBe(false);
  });

  it('32 children per node complete, 33 incomplete (scalar children are not nodes)', () => {
    const at = discoverCollections({ wrap: named(32, (i) => (i === 31 ? [1] : { x: 1 })) });
    expect(at.collections.map((c) => c.path)).toEqual(['/wrap/k31']);
    expect(at.collections_complete).toBe(true);
    const past = discoverCollections({ wrap: named(33, (i) => (i === 32 ? [1] : { x: 1 })) });
    expect(past).toEqual({ collections: [], collections_complete: false });
    const scalars = discoverCollections({ wrap: obj([...Array.from({ length: 100 }, (_, i): [string, unknown] => [`s${i}`, i]), ['list', [1]]]) });
    expect(scalars.collections.map((c) => c.path)).toEqual(['/wrap/list']);
    expect(scalars.collections_complete).toBe(true);
  });

  it('512 inspected rows complete, 513 incomplete (fields beyond row 512 are not seen)', () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => (i === n - 1 ? { id: i, late: true } : { id: i }));
    expect(discoverCollections(rows(512)).collections[0]).toEqual({ path: '', count: 512, fields: ['id', 'late'], fields_complete: true });
    expect(discoverCollections(rows(513)).collections[0]).toEqual({ path: '', count: 513, fields: ['id'], fields_complete: false });
  });

  it('32 field names complete, 33 incomplete', () => {
    expect(discoverCollections([named(32, () => 1)]).collections[0]).toMatchObject({ fields: Array.from({ length: 32 }, (_, i) => `k${i}`), fields_complete: true });
    const past = discoverCollections([named(16, () => 1), named(33, () => 1)]).collections[0]!;
    expect(past.fields).toEqual(Array.from({ length: 32 }, (_, i) => `k${i}`));
    expect(past.fields_complete).toBe(false);
  });

  it('a 128-byte field name is listed, a 129-byte one is omitted (UTF-8 bytes, not characters)', () => {
    const name128 = 'é'.repeat(64); // 64 chars, 128 bytes
    const name129 = 'é'.repeat(64) + 'x';
    expect(Buffer.byteLength(name128)).toBe(128);
    expect(discoverCollections([{ [name128]: 1 }]).collections[0]).toMatchObject({ fields: [name128], fields_complete: true });
    expect(discoverCollections([{ id: 1, [name129]: 1 }]).collections[0]).toMatchObject({ fields: ['id'], fields_complete: false });
    expect(discoverCollections([{ ['😀'.repeat(32)]: 1, ['😀'.repeat(32) + 'x']: 2 }]).collections[0]).toMatchObject({ fields: ['😀'.repeat(32)], fields_complete: false });
  });
});
