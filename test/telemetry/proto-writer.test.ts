import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { describe, expect, it } from 'vitest';
import { ProtoWriter } from '../../src/telemetry/proto-writer.ts';

// @bufbuild/protobuf's writer is the reference: the same calls must give the same bytes.
describe('ProtoWriter', () => {
  it.each([0, 1, 127, 128, 300, 16_383, 16_384, 2 ** 21, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1])('writes the varint %d as protobuf does', (n) => {
    expect(new ProtoWriter(1).varint(n).finish()).toEqual(new BinaryWriter().uint64(n).finish());
  });

  it('writes negative int64, fixed32 and doubles as protobuf does', () => {
    const ours = new ProtoWriter(2).int64(-1n).int64(-(2n ** 63n)).fixed32(0xdeadbeef).double(-1.5e300).double(0.1).finish();
    const theirs = new BinaryWriter().int64(-1n).int64(-(2n ** 63n)).fixed32(0xdeadbeef).double(-1.5e300).double(0.1).finish();
    expect(ours).toEqual(theirs);
  });

  it.each([0, 1, 127, 128, 16_383, 16_384, 70_000])('writes a message of %d bytes with its length, moving it only when the length needs more bytes', (size) => {
    const body = Uint8Array.from({ length: size }, (_, i) => i & 0xff);
    expect(new ProtoWriter(4).byte(0x0a).fork().copy(body).join().byte(0x10).finish()).toEqual(new BinaryWriter().tag(1, 2).fork().raw(body).join().tag(2, 0).finish());
  });

  it.each([0, 1, 127, 128, 16_383, 16_384, 70_000])('writes a span-sized message of %d bytes (forkLong) with the same bytes as any message', (size) => {
    const body = Uint8Array.from({ length: size }, (_, i) => i & 0xff);
    const w = new ProtoWriter(4).byte(0x0a).forkLong();
    const start = w.pos;
    expect(w.copy(body).joinLong(start).byte(0x10).finish()).toEqual(new BinaryWriter().tag(1, 2).fork().raw(body).join().tag(2, 0).finish());
  });

  it('writes strings as UTF-8, of any length, beside nested messages deeper than its first stack', () => {
    const text = 'ünïcødé ✓ 𝄞 '.repeat(40);
    const ours = new ProtoWriter(8);
    const theirs = new BinaryWriter();
    for (let i = 0; i < 40; i++) {
      ours.byte(0x0a).fork();
      theirs.tag(1, 2).fork();
    }
    ours.byte(0x12).string(text).byte(0x12).string('');
    theirs.tag(2, 2).string(text).tag(2, 2).string('');
    for (let i = 0; i < 40; i++) {
      ours.join();
      theirs.join();
    }
    expect(ours.finish()).toEqual(theirs.finish());
  });

  it('is empty again after finish, and keeps writing correctly into its grown buffer', () => {
    const w = new ProtoWriter(1);
    w.byte(0x0a).string('x'.repeat(5000)).finish();
    expect(w.byte(0x08).varint(150).finish()).toEqual(Uint8Array.of(0x08, 0x96, 0x01));
  });
});
