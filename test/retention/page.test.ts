// session.page and the MCP_RESULT_STORED envelope against random JSON: byte-exact packing, no lost or
// repeated rows when following next_request, no data scalars in the envelope, envelope within budget.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MemorySessionStateStore, RetentionError, pageOf, sessionGet, storedEnvelope, type Page } from '../../src/retention/index.ts';

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');
const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every data string carries this marker, so the envelope can be searched for leaked values. */
const MARK = '¤';
const SPECIALS = ['"', '\\', '\n', '\t', '\u0000', '\u001f', '\u007f', '\u2028', '\u2029', '😀', '𝄞', '\ud800', '\udfff', 'é', '中', '/', '~', '<', '\u00a0'];
const unit = fc.oneof(fc.constantFrom(...SPECIALS), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => !c.includes(MARK)));
const dataString = fc.string({ unit, maxLength: 60, size: 'medium' }).map((s) => `${MARK}${s}`);
/** Distinguishable numbers: never a small integer that could pass for an array length or byte count. */
const dataNumber = fc.double({ min: 1e9, max: 1e12, noNaN: true }).map((n) => n + 0.25);
const key = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'id', '_', '.', '/', '~', ' ', '"', 'é', '😀', '\\'), minLength: 1, maxLength: 4 });
const scalar = fc.oneof(dataString, dataNumber, fc.boolean(), fc.constant(null));

const { json } = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: 'small', maxDepth: 3, withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('json'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('json'), { maxKeys: 5 }),
}));

/** Rows: mostly objects over a shared key pool (so fields recur sparsely), some primitive or array rows. */
const row = fc.oneof({ weight: 6, arbitrary: fc.dictionary(fc.constantFrom('id', 'name', 'a.b', 'x/y', 'body', 'tags', '~0', 'é'), json, { maxKeys: 6 }) }, { weight: 1, arbitrary: scalar }, { weight: 1, arbitrary: fc.array(json, { maxLength: 3 }) });
const rows = fc.array(row, { maxLength: 300, size: 'max' });
/** Budgets 1024–65536, biased to the low end so most collections span several pages. */
const budget = fc.oneof(fc.integer({ min: 1024, max: 4096 }), fc.integer({ min: 1024, max: 65536 }));

/** A stored value: a root array, or the rows placed under a key next to other random data. */
const stored = fc.oneof(
  rows.map((r) => ({ value: r as unknown, path: '', rows: r })),
  fc.tuple(rows, key, fc.dictionary(key, json, { maxKeys: 3 })).map(([r, k, extra]) => {
    const value: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(extra)) if (name !== k && !Array.isArray(v)) Object.defineProperty(value, name, { value: v, enumerable: true });
    Object.defineProperty(value, k, { value: r, enumerable: true });
    return { value: value as unknown, path: '/' + k.replace(/~/g, '~0').replace(/\//g, '~1'), rows: r };
  }),
);

function project(r: unknown, fields: string[] | undefined): unknown {
  if (!fields) return r;
  if (!isObj(r)) return {};
  return Object.fromEntries(fields.filter((f) => Object.hasOwn(r, f)).map((f) => [f, r[f]]));
}

/** Checks (a) the page fits and (b) one more row would not, by serializing whole pages. */
function checkPacking(page: Page, all: unknown[], fields: string[] | undefined, limit: number) {
  expect(bytes({ result: page })).toBeLessThanOrEqual(limit);
  expect(page.returned).toBe(page.items.length);
  expect(page.total).toBe(all.length);
  expect(page.items).toEqual(all.slice(page.offset, page.offset + page.returned).map((r) => project(r, fields)));
  if (page.nextOffset === null) {
    expect(page.complete).toBe(true);
    expect(page.offset + page.returned).toBe(all.length);
    return;
  }
  expect(page.complete).toBe(false);
  expect(page.nextOffset).toBe(page.offset + page.returned);
  const end = page.nextOffset + 1;
  const bigger = { items: [...page.items, project(all[page.nextOffset], fields)], offset: page.offset, total: page.total, returned: page.returned + 1, nextOffset: end < all.length ? end : null, complete: end >= all.length };
  expect(bytes({ result: bigger })).toBeGreaterThan(limit);
}

/** Runs next_request's code the way the execute tool would: `session` bound to this MCP session. */
async function runNextRequest(store: MemorySessionStateStore, sessionId: string, request: any) {
  expect(request.tool).toBe('execute');
  expect(Object.keys(request.arguments).sort()).toEqual(['code', 'outputBudgetBytes']);
  const limit = request.arguments.outputBudgetBytes;
  const calls: { ref: string; options: any }[] = [];
  const session = {
    page: async (ref: string, options: any) => {
      calls.push({ ref, options });
      return pageOf(await store.getSnapshot(sessionId, ref), options, limit);
    },
    get: (k: string) => sessionGet(store, sessionId, k),
  };
  const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (s: unknown) => Promise<unknown>;
  const result = await new AsyncFunction('session', request.arguments.code)(session);
  return { result, calls, limit };
}

function scalarsOf(v: unknown, out: { strings: string[]; numbers: number[] }) {
  if (typeof v === 'string') out.strings.push(v);
  else if (typeof v === 'number') out.numbers.push(v);
  else if (Array.isArray(v)) v.forEach((x) => scalarsOf(x, out));
  else if (isObj(v)) Object.values(v).forEach((x) => scalarsOf(x, out));
  return out;
}

describe('session.page properties', () => {
  it('(a)(b) every page fits its budget, one more row would not, rows are exact projections', () => {
    fc.assert(
      fc.property(stored, budget, fc.option(fc.subarray(['id', 'name', 'a.b', 'x/y', 'body', 'tags', '~0', 'é'], { minLength: 1 }), { nil: undefined }), fc.nat(), (s, limit, fields, seed) => {
        const all = s.rows as unknown[];
        const offset = all.length ? seed % (all.length + 1) : 0;
        const present = fields?.filter((f) => all.some((r) => isObj(r) && Object.hasOwn(r, f)));
        const options = { path: s.path, offset, ...(present?.length ? { fields: present } : {}) };
        try {
          checkPacking(pageOf(s.value, options, limit), all, options.fields, limit);
        } catch (err) {
          if (!(err instanceof RetentionError) || err.code !== 'MCP_RESULT_ROW_TOO_LARGE') throw err;
          const r = project(all[offset], options.fields);
          const alone = { items: [r], offset, total: all.length, returned: 1, nextOffset: offset + 1 < all.length ? offset + 1 : null, complete: offset + 1 >= all.length };
          expect(bytes({ result: alone })).toBeGreaterThan(limit);
        }
      }),
      { numRuns: 250 },
    );
  }, 180_000);

  it('(c)(d)(e) next_request then nextOffset visits every row once; the envelope fits and holds no data scalar', async () => {
    await fc.assert(
      fc.asyncProperty(stored, budget, async (s, limit) => {
        const store = new MemorySessionStateStore();
        const text = JSON.stringify(s.value);
        const put = await store.putSnapshot('sess', text);
        const value = await store.getSnapshot('sess', put.ref);
        const envelope = storedEnvelope({ ...put, outputBudgetBytes: limit, value });
        const serialized = JSON.stringify(envelope);
        // (e)
        expect(Buffer.byteLength(serialized)).toBeLessThanOrEqual(limit);
        expect(envelope).toMatchObject({ code: 'MCP_RESULT_STORED', result_ref: put.ref, byte_size: put.bytes, effective_output_budget: limit, expiry: new Date(put.expiresAt).toISOString() });
        expect((envelope.preview as any).complete).toBe(false);
        // (d)
        expect(serialized.includes(MARK)).toBe(false);
        for (const n of scalarsOf(s.value, { strings: [], numbers: [] }).numbers) expect(serialized.includes(JSON.stringify(n))).toBe(false);
        // (c)
        const request = envelope.next_request as any;
        const code: string = request.arguments.code;
        const first = await runNextRequest(store, 'sess', request);
        const collections = envelope.collections as { path: string; count: number }[];
        if (!code.includes('session.page(')) {
          // Only when no non-empty collection has a first row that fits.
          for (const c of collections.filter((c) => c.count > 0)) expect(() => pageOf(value, { path: c.path }, limit)).toThrow(RetentionError);
          expect(bytes({ result: first.result })).toBeLessThanOrEqual(limit);
          return;
        }
        const m = /^return await session\.page\(("res_[A-Za-z0-9_-]+"), (\{.*\})\);$/.exec(code);
        expect(m).not.toBeNull();
        expect(JSON.parse(m![1]!)).toBe(put.ref);
        const { path, offset } = JSON.parse(m![2]!);
        expect(first.calls).toEqual([{ ref: put.ref, options: { path, offset: 0 } }]);
        expect(offset).toBe(0);
        // The chosen collection is the largest one listed whose first page works.
        expect(collections[0]!.path).toBe(path);
        const all = (await sessionGet(store, 'sess', path === '' ? put.ref : `${put.ref}#${path}`)) as unknown[];
        const seen: unknown[] = [];
        let page = first.result as Page;
        for (let guard = 0; ; guard++) {
          expect(guard).toBeLessThanOrEqual(all.length);
          checkPacking(page, all, undefined, limit);
          expect(page.offset).toBe(seen.length);
          seen.push(...page.items);
          if (page.nextOffset === null) break;
          try {
            page = pageOf(await store.getSnapshot('sess', put.ref), { path, offset: page.nextOffset }, limit);
          } catch (err) {
            if (!(err instanceof RetentionError) || err.code !== 'MCP_RESULT_ROW_TOO_LARGE') throw err;
            expect(err.details).toMatchObject({ row: page.nextOffset });
            return; // a row that cannot fit ends the walk; the rows before it were each seen once
          }
        }
        expect(seen).toEqual(all);
      }),
      { numRuns: 200 },
    );
  }, 180_000);
});

describe('session.page byte-exact boundaries', () => {
  /** A page holding exactly the given rows, serialized as the execute tool would. */
  const pageBytes = (items: unknown[], offset: number, total: number) => {
    const end = offset + items.length;
    return bytes({ result: { items, offset, total, returned: items.length, nextOffset: end < total ? end : null, complete: end >= total } });
  };

  for (const [name, filler] of [
    ['ascii', 'a'],
    ['quote (2 bytes escaped)', '"'],
    ['control char (6 bytes escaped)', '\u0001'],
    ['astral emoji (4 bytes)', '😀'],
    ['lone surrogate (6 bytes escaped)', '\ud83d'],
    ['U+2028 (3 bytes, not escaped by JSON.stringify)', '\u2028'],
  ] as const) {
    it(`packs to exactly the budget with ${name}`, () => {
      const limit = 2048;
      const base = [{ s: '' }, { s: '' }, { s: '' }];
      const unitBytes = bytes(filler) - 2;
      // Grow the second row until two rows exactly fill the budget, padding with ASCII for the remainder.
      const room = limit - pageBytes(base.slice(0, 2), 0, 3);
      const n = Math.floor(room / unitBytes);
      const rowsExact = [{ s: '' }, { s: filler.repeat(n) + 'a'.repeat(room - n * unitBytes) }, { s: '' }];
      expect(pageBytes(rowsExact.slice(0, 2), 0, 3)).toBe(limit);
      const exact = pageOf(rowsExact, {}, limit);
      expect(exact.returned).toBe(2);
      expect(bytes({ result: exact })).toBe(limit);
      // One byte more and only the first row fits.
      const over = [{ s: '' }, { s: rowsExact[1]!.s + 'a' }, { s: '' }];
      expect(pageOf(over, {}, limit).returned).toBe(1);
    });
  }

  it('counts the growth of nextOffset/returned digits and the switch to null/true on the last page', () => {
    const data = Array.from({ length: 12 }, () => 'x'.repeat(90));
    for (let limit = 1024; limit <= 1400; limit++) {
      const page = pageOf(data, {}, limit);
      expect(bytes({ result: page })).toBeLessThanOrEqual(limit);
      if (page.nextOffset !== null) expect(pageBytes(data.slice(0, page.returned + 1), 0, 12)).toBeGreaterThan(limit);
    }
  });
});

describe('session.page rules', () => {
  const data = {
    items: [{ id: 1, name: 'a', 'a.b': 'literal' }, { id: 2 }, 'primitive', [1, 2], null, { name: 'only name' }],
    empty: [],
    obj: { a: 1 },
    'sl/ash': [1, 2, 3],
    'til~de': [4],
  };

  it('refuses a null offset or path instead of starting again at row 0 (a finished loop passing nextOffset: null back)', () => {
    const refusal = (options: Record<string, unknown>) => {
      try {
        pageOf(data, options as never, 4096);
      } catch (err) {
        return err as RetentionError;
      }
      throw new Error(`accepted ${JSON.stringify(options)}`);
    };
    const last = pageOf(data, { path: '/items', offset: 5 }, 4096);
    expect(last.nextOffset).toBeNull();
    const again = refusal({ path: '/items', offset: last.nextOffset });
    expect(again).toMatchObject({ code: 'ENGINE_INVALID_INPUT' });
    expect(again.message).toContain('null nextOffset means every row was read');
    expect(refusal({ path: null, offset: 0 }).message).toContain('session.page path must be a string');
  });

  it('returns whole rows (primitive and mixed included) when fields are omitted, and the root array at "" or no path', () => {
    expect(pageOf(data, { path: '/items' }, 4096)).toEqual({ items: data.items, offset: 0, total: 6, returned: 6, nextOffset: null, complete: true });
    const root = [1, 'two', { three: 3 }];
    expect(pageOf(root, {}, 1024).items).toEqual(root);
    expect(pageOf(root, { path: '' }, 1024).items).toEqual(root);
  });

  it('projects literal immediate keys; sparse fields stay absent; non-object rows project to {}', () => {
    const page = pageOf(data, { path: '/items', fields: ['name', 'a.b'] }, 4096);
    expect(page.items).toEqual([{ name: 'a', 'a.b': 'literal' }, {}, {}, {}, {}, { name: 'only name' }]);
    expect(Object.keys(page.items[0] as object)).toEqual(['name', 'a.b']);
  });

  it('keeps a __proto__ key as data, never as a prototype', () => {
    const rowsWithProto = JSON.parse('[{"__proto__":{"polluted":true},"id":1}]');
    const page = pageOf(rowsWithProto, { fields: ['__proto__'] }, 1024);
    expect(JSON.stringify(page.items)).toBe('[{"__proto__":{"polluted":true}}]');
    expect(({} as any).polluted).toBeUndefined();
  });

  it('gives an empty complete page for an empty collection and at offset == total', () => {
    expect(pageOf(data, { path: '/empty' }, 1024)).toEqual({ items: [], offset: 0, total: 0, returned: 0, nextOffset: null, complete: true });
    expect(pageOf(data, { path: '/items', offset: 6 }, 1024)).toEqual({ items: [], offset: 6, total: 6, returned: 0, nextOffset: null, complete: true });
  });

  it('resolves RFC 6901 escapes and rejects the -1 extension', () => {
    expect(pageOf(data, { path: '/sl~1ash' }, 1024).total).toBe(3);
    expect(pageOf(data, { path: '/til~0de' }, 1024).total).toBe(1);
    expect(() => pageOf([[1]], { path: '/-1' }, 1024)).toThrow(/does not exist/);
  });

  const invalid = (options: any, pattern: RegExp, value: unknown = data) => {
    try {
      pageOf(value, options, 2048);
    } catch (err) {
      expect(err).toBeInstanceOf(RetentionError);
      expect((err as RetentionError).code).toBe('ENGINE_INVALID_INPUT');
      expect((err as Error).message).toMatch(pattern);
      return;
    }
    throw new Error('expected ENGINE_INVALID_INPUT');
  };

  it('rejects bad paths, offsets, fields and options with ENGINE_INVALID_INPUT', () => {
    invalid({ path: '/obj' }, /is an object, not an array/);
    invalid({ path: '/obj/a' }, /is a number, not an array/);
    invalid({ path: '/missing' }, /does not exist/);
    invalid({ path: 'items' }, /not a valid JSON Pointer/);
    invalid({ path: '/a~2' }, /not a valid JSON Pointer/);
    invalid({ path: 5 }, /must be a string/);
    invalid({}, /is an object, not an array/);
    for (const offset of [-1, 1.5, 7, '0', Number.NaN, Infinity]) invalid({ path: '/items', offset }, /offset must be an integer from 0 to 6/);
    invalid({ path: '/items', fields: ['nope'] }, /'nope' is absent from every row/);
    invalid({ path: '/items', fields: ['id', 'nope'] }, /'nope' is absent/);
    invalid({ path: '/items', fields: ['obj.a'] }, /'obj.a' is absent/);
    invalid({ path: '/items', fields: ['id', 'id'] }, /listed twice/);
    invalid({ path: '/items', fields: [''] }, /'' is absent from every row/); // a key like any other
    invalid({ path: '/items', fields: [1] }, /must be strings/);
    invalid({ path: '/items', fields: [] }, /non-empty array/);
    invalid({ path: '/items', fields: 'id' }, /non-empty array/);
    invalid({ path: '/items', feilds: ['id'] }, /does not accept option 'feilds'/);
    invalid(null, /does not exist|not an array/, { x: 1 });
    expect(() => pageOf(data, { path: '/items' }, 1023)).toThrow(/outputBudgetBytes/);
    expect(() => pageOf(data, { path: '/items' }, 65537)).toThrow(/outputBudgetBytes/);
  });

  it('fails with MCP_RESULT_ROW_TOO_LARGE rather than cutting a row or returning an empty non-progressing page', () => {
    const big = 'z'.repeat(2000);
    const list = [{ id: 1 }, { id: 2, body: big }, { id: 3 }];
    const page = pageOf(list, {}, 1024);
    expect(page).toMatchObject({ items: [{ id: 1 }], returned: 1, nextOffset: 1, complete: false });
    let caught: unknown;
    try {
      pageOf(list, { offset: 1 }, 1024);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(RetentionError);
    expect((caught as RetentionError).code).toBe('MCP_RESULT_ROW_TOO_LARGE');
    expect((caught as RetentionError).details).toMatchObject({ row: 1, output_budget_bytes: 1024 });
    expect((caught as Error).message).toMatch(/fewer fields or use session\.get/);
    expect((caught as Error).message).not.toContain('zzz');
    // Choosing fewer fields makes the row fit.
    expect(pageOf(list, { offset: 1, fields: ['id'] }, 1024)).toMatchObject({ items: [{ id: 2 }, { id: 3 }], complete: true });
  });
});

describe('session.page performance', () => {
  it('pages a 1 MiB array of objects at a 16 KiB budget quickly (median of 50 pages)', () => {
    const list: unknown[] = [];
    for (let i = 0, size = 2; size < 1024 * 1024; i++) {
      const r = { id: 1_000_000 + i, title: `Issue ${i}: "quoted" \\ ☃ 😀`, state: i % 2 ? 'open' : 'closed', labels: ['bug', 'p1'], user: { login: `user${i}`, id: i } };
      list.push(r);
      size += bytes(r) + 1;
    }
    const value = JSON.parse(JSON.stringify({ data: list }));
    const times: number[] = [];
    let offset: number | null = 0;
    for (let k = 0; k < 50 && offset !== null; k++) {
      const t = performance.now();
      const page: Page = pageOf(value, { path: '/data', offset }, 16_384);
      times.push(performance.now() - t);
      offset = page.nextOffset;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    console.log(`pageOf 1 MiB / 16 KiB: median ${median.toFixed(3)} ms over ${times.length} pages`);
    expect(median).toBeLessThan(5);
  });
});

describe('stored envelope', () => {
  async function stored(value: unknown, limit: number) {
    const store = new MemorySessionStateStore();
    const put = await store.putSnapshot('sess', JSON.stringify(value));
    const envelope = storedEnvelope({ ...put, outputBudgetBytes: limit, value: await store.getSnapshot('sess', put.ref) });
    expect(bytes(envelope)).toBeLessThanOrEqual(limit);
    const run = await runNextRequest(store, 'sess', envelope.next_request);
    expect(bytes({ result: run.result })).toBeLessThanOrEqual(limit);
    return { envelope: envelope as any, put, run, code: (envelope.next_request as any).arguments.code as string };
  }

  it('has the interface fields, a same-session statement and a page request for the largest collection', async () => {
    const value = { small: [1, 2], data: Array.from({ length: 400 }, (_, i) => ({ id: 1e9 + i, title: `¤${i}` })), mid: Array.from({ length: 20 }, () => ({ z: 1 })) };
    const { envelope, put, run } = await stored(value, 4096);
    expect(Object.keys(envelope)).toEqual(['code', 'message', 'result_ref', 'expiry', 'byte_size', 'effective_output_budget', 'same_session_state', 'next_request', 'preview', 'collections', 'collections_complete']);
    expect(envelope).toMatchObject({ code: 'MCP_RESULT_STORED', result_ref: put.ref, byte_size: put.bytes, effective_output_budget: 4096, collections_complete: true });
    expect(envelope.expiry).toBe(new Date(put.expiresAt).toISOString());
    expect(envelope.same_session_state).toMatch(/only .*this same MCP session.*only until expiry/);
    expect(envelope.recovery).toBeUndefined();
    expect(envelope.next_request).toEqual({ tool: 'execute', arguments: { code: `return await session.page("${put.ref}", {"path":"/data","offset":0});`, outputBudgetBytes: 4096 } });
    expect(run.calls).toEqual([{ ref: put.ref, options: { path: '/data', offset: 0 } }]);
    expect(envelope.collections).toEqual([
      { path: '/data', count: 400, fields: ['id', 'title'], fields_complete: true },
      { path: '/mid', count: 20, fields: ['z'], fields_complete: true },
      { path: '/small', count: 2, fields: [], fields_complete: true },
    ]);
    expect(envelope.preview).toEqual({
      complete: false,
      shape: {
        type: 'object',
        key_count: 3,
        keys: {
          small: { type: 'array', length: 2, first_item: 'number' },
          data: { type: 'array', length: 400, first_item: { type: 'object', key_count: 2, keys: { id: 'number', title: 'string' }, keys_complete: true } },
          mid: { type: 'array', length: 20, first_item: { type: 'object', key_count: 1, keys: { z: 'number' }, keys_complete: true } },
        },
        keys_complete: true,
      },
    });
  });

  it('shrinks preview, fields and collections to fit the smallest budget, marking what was cut', async () => {
    const longField = (i: number) => `field_${'f'.repeat(100)}_${i}`;
    // 9 collections (one more than discovery lists), each with 30 long field names spread over small rows.
    const value = Object.fromEntries(Array.from({ length: 9 }, (_, c) => [`collection${c}`, Array.from({ length: 40 + c }, (_, r) => ({ [longField(r % 30)]: 1 }))]));
    const { envelope, run } = await stored(value, 1024);
    expect(envelope.collections_complete).toBe(false);
    expect(envelope.collections.length).toBeLessThan(9);
    expect(envelope.collections[0].path).toBe('/collection7'); // the largest of the 8 discovered, which next_request reads, comes first
    for (const c of envelope.collections) expect(c.fields_complete).toBe(c.fields.length === 30);
    expect(envelope.collections.some((c: { fields: string[] }) => c.fields.length < 30)).toBe(true);
    expect(envelope.preview.complete).toBe(false);
    expect(run.calls[0]!.options).toEqual({ path: '/collection7', offset: 0 });
  });

  it('falls back when the collection path alone cannot fit the budget', async () => {
    const key = 'k'.repeat(1500);
    const { envelope, code, run } = await stored({ [key]: Array.from({ length: 50 }, (_, i) => ({ i })) }, 1024);
    expect(code).not.toContain(key);
    expect(code).toMatch(/^return Object\.keys\(await session\.get\("res_[^"]+"\)\)\.slice\(0, 0\);$/);
    expect(run.result).toEqual([]);
    expect(envelope.collections_complete).toBe(false);
  });

  it('inspects a long string root with a slice that fits, counting escapes and surrogates', async () => {
    const value = '"\\\u0001😀\ud800é'.repeat(2000);
    const { envelope, code, run } = await stored(value, 2048);
    expect(envelope.collections).toEqual([]);
    expect(envelope.preview).toEqual({ complete: false, shape: 'string' });
    const n = Number(/\.slice\(0, (\d+)\);$/.exec(code)![1]);
    expect(run.result).toBe(value.slice(0, n));
    expect(bytes({ result: value.slice(0, n + 1) })).toBeGreaterThan(2048);
  });

  it('lists the keys of an object without collections', async () => {
    const value = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`key_${i}`, `¤value ${i}`]));
    const { envelope, code, run } = await stored(value, 1024);
    expect(envelope.collections).toEqual([]);
    expect(code).toMatch(/^return Object\.keys\(await session\.get\("res_[^"]+"\)\)\.slice\(0, \d+\);$/);
    const keys = run.result as string[];
    expect(keys).toEqual(Object.keys(value).slice(0, keys.length));
    expect(bytes({ result: Object.keys(value).slice(0, keys.length + 1) })).toBeGreaterThan(1024);
    expect(JSON.stringify(envelope)).not.toContain('¤');
  });

  it('does not send next_request to an empty collection', async () => {
    const { code } = await stored({ empty: [], blob: 'x'.repeat(5000) }, 1024);
    expect(code).toMatch(/^return Object\.keys\(await session\.get\("res_[^"]+"\)\);$/);
  });

  it('inspects the first row when no row of the collection fits whole', async () => {
    const value = { data: Array.from({ length: 5 }, (_, i) => ({ id: i, body: 'b'.repeat(3000) })) };
    const { code, run } = await stored(value, 1024);
    expect(code).toMatch(/^return Object\.keys\(await session\.get\("res_[^"]+#\/data\/0"\)\);$/);
    expect(run.result).toEqual(['id', 'body']);
  });

  it('prefers a smaller collection that pages over a larger one whose first row cannot fit', async () => {
    const value = { big: Array.from({ length: 50 }, () => 'b'.repeat(2000)), ok: [1, 2, 3] };
    const { code, envelope } = await stored(value, 1024);
    expect(code).toContain('{"path":"/ok","offset":0}');
    expect(envelope.collections[0].path).toBe('/ok');
  });

  it('writes keys with quotes, slashes, tildes and lone surrogates into runnable code', async () => {
    const key = 'a"/~\ud800\u2028';
    const value = { [key]: Array.from({ length: 200 }, (_, i) => ({ i: 1e9 + i })) };
    const { run } = await stored(value, 1024);
    expect(run.calls[0]!.options.path).toBe('/a"~1~0\ud800\u2028');
    expect((run.result as Page).items[0]).toEqual({ i: 1e9 });
  });

  it('rejects a budget outside 1,024–65,536', () => {
    expect(() => storedEnvelope({ ref: 'res_x', expiresAt: 0, bytes: 1, outputBudgetBytes: 1000, value: [] })).toThrow(RetentionError);
  });
});
