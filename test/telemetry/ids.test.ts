// The trace and span IDs of src/telemetry/ids.ts: W3C trace-context's form (32 and 16 lowercase
// hex digits, never all zeros, even from zeroed random bytes), and no ID repeated across several refills of its random pool.
import { describe, expect, it } from 'vitest';
import { PooledIdGenerator } from '../../src/telemetry/ids.ts';

describe('PooledIdGenerator', () => {
  it('makes valid, distinct trace and span IDs across refills of its pool', () => {
    const ids = new PooledIdGenerator();
    const traces = new Set<string>();
    const spans = new Set<string>();
    // 2,000 of each: 48 KB drawn, the 4 KB pool refilled about 12 times.
    for (let i = 0; i < 2000; i++) {
      const traceId = ids.generateTraceId();
      const spanId = ids.generateSpanId();
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(traceId).not.toBe('0'.repeat(32));
      expect(spanId).not.toBe('0'.repeat(16));
      traces.add(traceId);
      spans.add(spanId);
    }
    expect(traces.size).toBe(2000);
    expect(spans.size).toBe(2000);
  });

  it('never gives an all-zero ID, even when the random bytes are all zeros', () => {
    const ids = new PooledIdGenerator((pool) => pool.fill(0));
    expect(ids.generateTraceId()).toBe(`${'0'.repeat(31)}1`);
    expect(ids.generateSpanId()).toBe(`${'0'.repeat(15)}1`);
  });
});
