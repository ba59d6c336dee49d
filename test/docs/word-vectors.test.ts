// spec/search/word-vectors.bin and its loader: the header agrees with the body, every word
// round-trips, rows are unit length, and nearest() ranks only the candidates it is given.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WORD_VECTORS_PATH, parseWordVectors, wordVectorModels, wordVectors } from '../../src/docs/word-vectors.ts';

const bytes = readFileSync(WORD_VECTORS_PATH);
const dim = bytes.readUInt16LE(6);
const count = bytes.readUInt32LE(8);

describe('word vectors artefact', () => {
  it('has the SVCWV1 header and a body of count words and count*dim int8 values', () => {
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('SVCWV1');
    expect(dim).toBe(64);
    expect(count).toBeGreaterThan(10_000);
    expect(count).toBeLessThanOrEqual(40_000);
    expect(bytes.length).toBe(16 + bytes.readUInt32LE(12) + count * dim);
    expect(bytes.length).toBeLessThan(3.2e6);
    const v = wordVectors();
    expect(v.dim).toBe(dim);
    expect(wordVectors()).toBe(v);
  });

  it('round-trips every word through indexOf and word', () => {
    const v = wordVectors();
    for (let row = 0; row < count; row++) {
      const word = v.word(row);
      if (!/^[a-z][a-z0-9]*$/.test(word)) expect.fail(`row ${row}: ${JSON.stringify(word)} is not a lower-case word`);
      if (v.indexOf(word) !== row) expect.fail(`${word}: indexOf ${v.indexOf(word)} ≠ ${row}`);
    }
    expect(v.indexOf('')).toBe(-1);
    expect(v.indexOf('Issue')).toBe(-1);
    expect(v.indexOf('zzzznotaword')).toBe(-1);
    expect(() => v.word(count)).toThrow(RangeError);
  });

  it('has unit-length rows: similarity(x, x) ≈ 1, and cosines lie in [-1, 1]', () => {
    const v = wordVectors();
    for (let row = 0; row < count; row++) {
      const self = v.similarity(row, row);
      if (Math.abs(self - 1) > 0.02) expect.fail(`${v.word(row)}: similarity with itself ${self}`);
    }
    for (let row = 1; row < count; row += 97) {
      const s = v.similarity(row - 1, row);
      expect(s).toBeGreaterThanOrEqual(-1.02);
      expect(s).toBeLessThanOrEqual(1.02);
      expect(s).toBeCloseTo(v.similarity(row, row - 1), 10);
    }
  });

  it('nearest() returns only the given candidates, best first, at most k, above minCosine', () => {
    const v = wordVectors();
    const from = v.indexOf('delete');
    expect(from).toBeGreaterThanOrEqual(0);
    const candidates = ['remove', 'create', 'issue', 'invoice', 'delete', 'weather', 'user', 'list', 'the'].map((w) => v.indexOf(w)).filter((r) => r >= 0);
    const all = v.nearest('delete', candidates, 100, -1);
    expect(all.length).toBe(candidates.length - 1); // every candidate but 'delete' itself
    for (const hit of all) {
      expect(candidates).toContain(hit.row);
      expect(hit.row).not.toBe(from);
      expect(hit.word).toBe(v.word(hit.row));
      expect(hit.cosine).toBeCloseTo(v.similarity(from, hit.row), 10);
    }
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.cosine).toBeGreaterThanOrEqual(all[i]!.cosine);

    expect(v.nearest('delete', candidates, 3, -1)).toEqual(all.slice(0, 3));
    const threshold = all[2]!.cosine;
    expect(v.nearest('delete', candidates, 100, threshold).every((h) => h.cosine >= threshold)).toBe(true);
    expect(v.nearest('delete', new Set(candidates), 100, -1)).toEqual(all); // any iterable
    expect(v.nearest('delete', [...candidates, ...candidates, -1, count, 0.5], 100, -1)).toEqual(all); // repeats and bad rows skipped
    expect(v.nearest('delete', candidates, 0, -1)).toEqual([]);
    expect(v.nearest('zzzznotaword', candidates, 5, -1)).toEqual([]);
  });

  it('rejects malformed files', () => {
    expect(() => parseWordVectors(Buffer.from('NOTWV1xxxxxxxxxxxxxxxx'))).toThrow(/SVCWV1/);
    expect(() => parseWordVectors(bytes.subarray(0, bytes.length - 1))).toThrow(/malformed/);
    const lying = Buffer.from(bytes);
    lying.writeUInt32LE(count + 1, 8);
    expect(() => parseWordVectors(lying)).toThrow();
  });
});

describe('general word vectors artefact', () => {
  it('loads beside the API-corpus vectors in the same format, with words of plain English', () => {
    const [api, general] = wordVectorModels();
    expect(api).toBe(wordVectors());
    expect(general!.dim).toBe(100);
    for (const word of ['meeting', 'delete', 'comment', 'invoice', 'snippet']) expect(general!.indexOf(word)).toBeGreaterThanOrEqual(0);
    const meeting = general!.indexOf('meeting');
    expect(general!.similarity(meeting, meeting)).toBeCloseTo(1, 1);
  });
});
