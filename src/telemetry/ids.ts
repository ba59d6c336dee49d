// Trace and span IDs for the Engine's tracer (./tracer.ts): hex of random bytes drawn from a pool that
// crypto fills 256 span IDs at a time, so an ID costs one slice of the pool as hex. The SDK's own
// generator draws each 4 bytes from Math.random and writes them to a buffer first (two to four
// calls per ID, on every request, sampled or not).
import { randomFillSync } from 'node:crypto';
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';

const POOL_BYTES = 4096;

export class PooledIdGenerator implements IdGenerator {
  private readonly pool = Buffer.allocUnsafe(POOL_BYTES);
  private offset = POOL_BYTES;
  private readonly fill: (pool: Buffer) => void;

  /** `fill` writes random bytes over the pool (crypto's; a test passes its own). */
  constructor(fill: (pool: Buffer) => void = randomFillSync) {
    this.fill = fill;
  }

  generateTraceId(): string {
    return this.next(16);
  }

  generateSpanId(): string {
    return this.next(8);
  }

  /** `bytes` random bytes as lowercase hex; never all zeros (an invalid ID in W3C trace context). */
  private next(bytes: number): string {
    if (this.offset + bytes > POOL_BYTES) {
      this.fill(this.pool);
      this.offset = 0;
    }
    const start = this.offset;
    this.offset = start + bytes;
    const pool = this.pool;
    let i = start;
    while (i < start + bytes && pool[i] === 0) i++;
    if (i === start + bytes) pool[i - 1] = 1;
    return pool.toString('hex', start, start + bytes);
  }
}
