// The SVCWV1 word-vector file both vector builders write (src/codegen/word-vectors.ts,
// src/codegen/general-word-vectors.ts) and src/docs/word-vectors.ts reads. Little-endian:
//   offset 0   6 bytes   magic, ASCII 'SVCWV1'
//   offset 6   uint16    dim
//   offset 8   uint32    count (number of words)
//   offset 12  uint32    byte length of the word block
//   offset 16  words     UTF-8, count words separated by '\n', most frequent first
//   then       int8      count*dim values, row i is word i: its L2-normalised vector × 127, rounded

/** Adds one word's vector to a file being built: unit length, quantised. Returns false for a zero vector. */
export class WordVectorFile {
  readonly words: string[] = [];
  private readonly rows: Int8Array[] = [];
  private readonly dim: number;

  constructor(dim: number) {
    this.dim = dim;
  }

  add(word: string, vector: ArrayLike<number>): boolean {
    let norm = 0;
    for (let d = 0; d < this.dim; d++) norm += (vector[d] ?? 0) ** 2;
    norm = Math.sqrt(norm);
    if (!(norm > 0)) return false;
    const row = new Int8Array(this.dim);
    for (let d = 0; d < this.dim; d++) row[d] = Math.max(-127, Math.min(127, Math.round(((vector[d] ?? 0) / norm) * 127)));
    this.words.push(word);
    this.rows.push(row);
    return true;
  }

  bytes(): Buffer {
    const wordBlock = Buffer.from(this.words.join('\n'), 'utf8');
    const header = Buffer.alloc(16);
    header.write('SVCWV1', 0, 'ascii');
    header.writeUInt16LE(this.dim, 6);
    header.writeUInt32LE(this.words.length, 8);
    header.writeUInt32LE(wordBlock.length, 12);
    return Buffer.concat([header, wordBlock, ...this.rows.map((r) => Buffer.from(r.buffer))]);
  }
}
