// Admission of sandbox runs (src/sandbox/fair-queue.ts): a cap per tenant and in all, waiting runs
// served round-robin across tenants, a bounded wait that refuses with BusyError, cancellation.
import { describe, expect, it } from 'vitest';
import { AdmissionCancelled, BusyError, FairQueue, type FairQueueLimits, type Release } from '../../src/sandbox/index.ts';

const limits = (overrides: Partial<FairQueueLimits> = {}): FairQueueLimits => ({ perTenant: 2, total: 100, waitingPerTenant: 100, waiting: 1000, waitMs: 10_000, ...overrides });

/** Resolves with the tenant's name once admitted, and records the order of admissions. */
function admitInto(queue: FairQueue, order: string[]) {
  return (tenant: string, signal?: AbortSignal) =>
    queue.acquire(tenant, signal).then((release) => {
      order.push(tenant);
      return release;
    });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairQueue', () => {
  it("runs at most perTenant of one tenant's runs at once while another tenant's run at once", async () => {
    const order: string[] = [];
    const queue = new FairQueue(limits());
    const admit = admitInto(queue, order);
    const a1 = await admit('a');
    await admit('a');
    const third = admit('a');
    await tick();
    expect(order).toEqual(['a', 'a']); // the third waits for one of its own
    await admit('b'); // another tenant is not held up by a's queue
    expect(order).toEqual(['a', 'a', 'b']);
    expect(queue.stats).toEqual({ running: 3, waiting: 1, tenantsWaiting: 1 });
    a1();
    await third;
    expect(order).toEqual(['a', 'a', 'b', 'a']);
  });

  it('serves waiting tenants in turn when the total cap frees up, whatever order their runs came in', async () => {
    const order: string[] = [];
    const releases: Release[] = [];
    const queue = new FairQueue(limits({ perTenant: 10, total: 1 }));
    const admit = (tenant: string) =>
      queue.acquire(tenant).then((release) => {
        order.push(tenant);
        releases.push(release);
      });
    await admit('x');
    order.length = 0;
    // a floods first; b and c come later with one run each.
    const waiting = ['a', 'a', 'a', 'a', 'b', 'c'].map(admit);
    for (let i = 0; i < waiting.length; i++) {
      releases.shift()!(); // each place freed admits exactly one
      await tick();
    }
    await Promise.all(waiting);
    expect(order).toEqual(['a', 'b', 'c', 'a', 'a', 'a']);
  });

  it('refuses a run at once when its tenant has waitingPerTenant runs waiting, or the queue is full', async () => {
    const queue = new FairQueue(limits({ perTenant: 1, waitingPerTenant: 1, waiting: 2 }));
    await queue.acquire('a');
    const waitingA = queue.acquire('a');
    const refused = await queue.acquire('a').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BusyError);
    expect(refused).toMatchObject({ reason: 'queue_full', retryAfterMs: 1000, message: expect.stringContaining('1 more waiting') });
    await queue.acquire('b');
    const waitingB = queue.acquire('b');
    await queue.acquire('c'); // c may run (a place is free) ...
    const overflow = await queue.acquire('c').catch((e: unknown) => e); // ... but not wait: 2 are waiting already
    expect(overflow).toMatchObject({ name: 'BusyError', reason: 'queue_full', message: expect.stringContaining('2 executes waiting') });
    queue.close();
    await expect(waitingA).rejects.toMatchObject({ reason: 'closed' });
    await expect(waitingB).rejects.toMatchObject({ reason: 'closed' });
  });

  it('refuses a run that waited waitMs, and forgets a run whose caller went away', async () => {
    const queue = new FairQueue(limits({ perTenant: 1, waitMs: 50 }));
    const first = await queue.acquire('a');
    await expect(queue.acquire('a')).rejects.toMatchObject({ name: 'BusyError', reason: 'waited' });
    const abort = new AbortController();
    const cancelled = queue.acquire('a', abort.signal);
    abort.abort();
    await expect(cancelled).rejects.toBeInstanceOf(AdmissionCancelled);
    expect(queue.stats).toEqual({ running: 1, waiting: 0, tenantsWaiting: 0 });
    first();
    first(); // a second release changes nothing
    expect(queue.stats.running).toBe(0);
    const next = await queue.acquire('a');
    next();
  });
});
