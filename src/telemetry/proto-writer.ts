// Protobuf wire format into one growing buffer, for ./otlp-protobuf.ts's spans. @bufbuild/protobuf's
// BinaryWriter checks and reserves room in every call (a tag, a length, each byte copy); a span makes
// ~35 such calls, a large part of its encoding (docs/architecture.md, "Traces").
// Here a tag is a byte the caller already knows, a short copy is a loop, and a message's length is
// written where one byte was left for it, moved only when the message passed 127 bytes.

const textEncoder = new TextEncoder();
const float64 = new Float64Array(1);
const float64Bytes = new Uint8Array(float64.buffer);

export class ProtoWriter {
  buf: Uint8Array;
  pos = 0;
  /** Where each open message's content starts (its length byte is just before). */
  private opened = new Int32Array(16);
  private depth = 0;

  constructor(initialBytes = 1024) {
    this.buf = new Uint8Array(initialBytes);
  }

  /** Room for `n` more bytes. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  /** A tag or any value under 128, which is one byte. */
  byte(value: number): this {
    this.ensure(1);
    this.buf[this.pos++] = value;
    return this;
  }

  /** An unsigned varint of a safe integer (0 … 2⁵³). */
  varint(value: number): this {
    this.ensure(10);
    const buf = this.buf;
    let pos = this.pos;
    while (value > 0x7f) {
      buf[pos++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    buf[pos++] = value;
    this.pos = pos;
    return this;
  }

  /** A signed 64-bit varint (negative values take ten bytes, two's complement). */
  int64(value: bigint): this {
    let v = BigInt.asUintN(64, value);
    this.ensure(10);
    while (v > 0x7fn) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
    return this;
  }

  fixed32(value: number): this {
    this.ensure(4);
    const buf = this.buf;
    const pos = this.pos;
    buf[pos] = value & 0xff;
    buf[pos + 1] = (value >>> 8) & 0xff;
    buf[pos + 2] = (value >>> 16) & 0xff;
    buf[pos + 3] = value >>> 24;
    this.pos = pos + 4;
    return this;
  }

  double(value: number): this {
    float64[0] = value; // the platform's order: little-endian, as protobuf's
    return this.copy(float64Bytes);
  }

  /** Raw bytes: a loop for short ones (most are attributes of a few dozen bytes), `set` past that. */
  copy(bytes: Uint8Array): this {
    const n = bytes.length;
    this.ensure(n);
    if (n > 16) this.buf.set(bytes, this.pos);
    else for (let i = 0, buf = this.buf, pos = this.pos; i < n; i++) buf[pos + i] = bytes[i]!;
    this.pos += n;
    return this;
  }

  /** Length-delimited bytes. */
  bytes(bytes: Uint8Array): this {
    return this.varint(bytes.length).copy(bytes);
  }

  /** A length-delimited UTF-8 string. */
  string(text: string): this {
    this.ensure(text.length * 3 + 5);
    const open = this.open();
    this.pos += textEncoder.encodeInto(text, this.buf.subarray(this.pos)).written;
    return this.close(open);
  }

  /** Starts a length-delimited message (its tag already written); `join` ends it. */
  fork(): this {
    const at = this.open();
    if (this.depth === this.opened.length) {
      const more = new Int32Array(this.depth * 2);
      more.set(this.opened);
      this.opened = more;
    }
    this.opened[this.depth++] = at;
    return this;
  }

  join(): this {
    return this.close(this.opened[--this.depth]!);
  }

  /**
   * A message whose length is most likely 128 … 16,383 bytes (a span): two bytes are left for it, so
   * `joinLong` writes the length in place instead of moving the message (copyWithin is a call into C++).
   */
  forkLong(): this {
    this.ensure(2);
    this.pos += 2;
    return this;
  }

  /** Ends the message `forkLong` started at `start` (its position after the two bytes). */
  joinLong(start: number): this {
    const len = this.pos - start;
    if (len >= 0x80 && len < 0x4000) {
      this.buf[start - 2] = (len & 0x7f) | 0x80;
      this.buf[start - 1] = len >>> 7;
      return this;
    }
    // Shorter or longer: one byte back, then as join does.
    this.buf.copyWithin(start - 1, start, this.pos);
    this.pos--;
    return this.close(start - 1);
  }

  /** The bytes written, and this writer empty again (its buffer kept for the next). */
  finish(): Uint8Array {
    const out = this.buf.slice(0, this.pos);
    this.reset();
    return out;
  }

  /** The bytes written so far, not copied: valid until the next write or reset. */
  written(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  reset(): void {
    this.pos = 0;
    this.depth = 0;
  }

  /** Leaves one byte for a length and says where the content starts. */
  private open(): number {
    this.ensure(1);
    this.pos++;
    return this.pos;
  }

  /** Writes the length of the content since `start` in the byte before it, moving the content when the length needs more. */
  private close(start: number): this {
    const len = this.pos - start;
    if (len < 0x80) {
      this.buf[start - 1] = len;
      return this;
    }
    let extra = 1;
    while (len >= 2 ** (7 * (extra + 1))) extra++;
    this.ensure(extra);
    this.buf.copyWithin(start + extra, start, this.pos);
    this.pos = start - 1;
    this.varint(len);
    this.pos += len;
    return this;
  }
}
