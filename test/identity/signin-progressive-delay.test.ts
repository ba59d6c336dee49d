// The sign-in guard's schedule (src/identity/signin-guard.ts), driven on the real LocalCoordinator
// with a clock the test moves: a client's failures are free up to SIGNIN_FAILURES, then each
// further one must wait twice as long as the one before; answers that were no guess never count;
// other clients, and IPv6 addresses of another /64, are counted apart.
import { describe, expect, it } from 'vitest';
import { LocalCoordinator } from '../../src/coordination/index.ts';
import { SIGNIN_ACCOUNT_CLIENTS, SIGNIN_FAILURES, SIGNIN_FIRST_DELAY_MS, SIGNIN_WINDOW_MS, SigninGuard, clientKey } from '../../src/identity/index.ts';

function guardWithClock() {
  let now = 1_000_000;
  const coordinator = new LocalCoordinator({ now: () => now });
  const guard = new SigninGuard(coordinator, (err) => {
    throw err;
  });
  return { guard, advance: (ms: number) => (now += ms) };
}

/** One wrong guess; the refusal when it was refused unchecked. */
async function wrongGuess(guard: SigninGuard, client: string, device?: string) {
  const admitted = await guard.begin('owner', client, device);
  if ('refused' in admitted) return admitted.refused;
  await admitted.ticket.failed();
  return undefined;
}

describe('the sign-in guard', () => {
  it('lets a client fail SIGNIN_FAILURES times, then makes it wait 30 s, 60 s, 120 s … between further failures', async () => {
    const { guard, advance } = guardWithClock();
    for (let i = 0; i < SIGNIN_FAILURES; i++) expect(await wrongGuess(guard, '203.0.113.7')).toBeUndefined();
    const waits: number[] = [];
    for (let step = 0; step < 4; step++) {
      const refused = await wrongGuess(guard, '203.0.113.7');
      expect(refused?.reason).toBe('client');
      waits.push(refused!.waitMs);
      expect(await wrongGuess(guard, '203.0.113.7')).toMatchObject({ reason: 'client' }); // refused again, unchecked and uncounted
      advance(refused!.waitMs);
      expect(await wrongGuess(guard, '203.0.113.7')).toBeUndefined();
    }
    expect(waits).toEqual([1, 2, 4, 8].map((n) => n * SIGNIN_FIRST_DELAY_MS));
    // Another address is not held back by any of it.
    expect(await wrongGuess(guard, '203.0.113.8')).toBeUndefined();
  });

  it('counts a waiting client again from nothing once its window ends', async () => {
    const { guard, advance } = guardWithClock();
    for (let i = 0; i < SIGNIN_FAILURES; i++) await wrongGuess(guard, '203.0.113.7');
    const refused = await wrongGuess(guard, '203.0.113.7');
    expect(refused?.waitMs).toBeLessThanOrEqual(SIGNIN_WINDOW_MS);
    advance(SIGNIN_WINDOW_MS);
    for (let i = 0; i < SIGNIN_FAILURES; i++) expect(await wrongGuess(guard, '203.0.113.7')).toBeUndefined();
  });

  it('never counts an attempt that was no guess (an unknown code, the right secret)', async () => {
    const { guard } = guardWithClock();
    for (let i = 0; i < 3 * SIGNIN_FAILURES; i++) {
      const admitted = await guard.begin('owner', '203.0.113.7', undefined);
      expect('ticket' in admitted).toBe(true);
      if ('ticket' in admitted) await admitted.ticket.notAGuess();
    }
  });

  it('counts an IPv6 client by its /64', async () => {
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:db8:1:2:ffff:ffff:ffff:fffe'));
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:0:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');

    const { guard } = guardWithClock();
    for (let i = 0; i < SIGNIN_FAILURES; i++) await wrongGuess(guard, `2001:db8:1:2::${i + 1}`);
    expect(await wrongGuess(guard, '2001:db8:1:2::ffff')).toMatchObject({ reason: 'client' });
    expect(await wrongGuess(guard, '2001:db8:1:3::1')).toBeUndefined();
  });

  it(`closes the account to unknown clients after failures from ${SIGNIN_ACCOUNT_CLIENTS} distinct addresses, never to a known browser`, async () => {
    const { guard } = guardWithClock();
    // One address failing as often as it may adds one to the account's count, not ten.
    for (let i = 0; i < SIGNIN_FAILURES; i++) await wrongGuess(guard, '198.51.100.1');
    for (let n = 2; n < SIGNIN_ACCOUNT_CLIENTS; n++) expect(await wrongGuess(guard, `198.51.100.${n}`)).toBeUndefined();
    expect(await wrongGuess(guard, '203.0.113.1')).toBeUndefined(); // the 100th distinct address is still checked
    expect(await wrongGuess(guard, '203.0.113.2')).toMatchObject({ reason: 'account' });
    // A browser that signed in before (its device cookie's ID) is counted on its own.
    expect(await wrongGuess(guard, '203.0.113.2', 'device-nonce')).toBeUndefined();
  });
});
