// Closeness in meaning without what every operation means (src/docs/meaning.ts).
import { describe, expect, it } from 'vitest';
import { commonDirection, withoutCommon } from '../../src/docs/meaning.ts';

const v = (...xs: number[]) => Float32Array.from(xs);
const cos = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, d) => sum + x * b[d]!, 0);

describe('commonDirection', () => {
  it('points where the meanings point together, at unit length, skipping those unknown', () => {
    const c = commonDirection([v(1, 0), undefined, v(0, 1)])!;
    expect(c[0]).toBeCloseTo(Math.SQRT1_2);
    expect(c[1]).toBeCloseTo(Math.SQRT1_2);
  });

  it('has no direction for no meanings, or for meanings that cancel out', () => {
    expect(commonDirection([])).toBeUndefined();
    expect(commonDirection([v(1, 0), v(-1, 0)])).toBeUndefined();
  });
});

describe('withoutCommon', () => {
  it('tells apart two meanings that mostly share the common direction', () => {
    const common = v(1, 0, 0);
    const a = v(0.95, 0.31, 0);
    const b = v(0.95, 0, 0.31);
    const before = cos(a, b);
    const after = cos(withoutCommon(a, common, 0.6)!, withoutCommon(b, common, 0.6)!);
    expect(after).toBeLessThan(before);
    expect(Math.hypot(...withoutCommon(a, common, 0.6)!)).toBeCloseTo(1);
  });

  it('leaves a meaning across the common direction as it is, and has none left when all of it is taken out', () => {
    expect([...withoutCommon(v(0, 1), v(1, 0), 0.6)!]).toEqual([0, 1]);
    expect(withoutCommon(v(1, 0), v(1, 0), 1)).toBeUndefined();
  });
});
