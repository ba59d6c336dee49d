// The sandbox worker pool: scripts run in worker processes (real isolated-vm isolates), host bridges
// answered in the Engine, cancellation, a worker that dies mid-run (killed, or taken down by a
// script that runs V8 out of memory), spreading over processes, no Engine environment inside.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { compileScript, SandboxWorkers, type SandboxHost } from '../../src/sandbox/index.ts';

let sandbox: SandboxWorkers | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const host = (overrides: Partial<SandboxHost> = {}): SandboxHost & { calls: unknown[][] } => {
  const calls: unknown[][] = [];
  return {
    calls,
    call: async (...args) => {
      calls.push(args);
      return { value: { ok: true, status: 200, data: { echo: args[1] }, error: null } };
    },
    sessionGet: async ([key]) => ({ value: `value of ${String(key)}` }),
    sessionSet: async () => ({ value: null }),
    sessionPage: async () => ({ value: { items: [] } }),
    ...overrides,
  };
};

async function until(check: () => Promise<boolean>, timeoutMs = 5_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const run = async (code: string, h: SandboxHost = host(), signal = new AbortController().signal, budgetMs = 10_000, tenant = 'tok_a') =>
  sandbox!.run({ code: await compileScript(code), tenant, host: h, budgetMs, signal });

describe('SandboxWorkers', () => {
  it('starts no thread until the first run, then runs scripts there with host bridges answered here', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    expect(sandbox.processes).toBe(0);
    const h = host();
    const outcome = await run('const r = await call("demo-crm.contacts/get", { contact_id: "c1" }); const v = await session.get("k"); return { r, v }', h);
    expect(sandbox.processes).toBe(1);
    expect(outcome).toEqual({ kind: 'returned', json: JSON.stringify({ r: { ok: true, status: 200, data: { echo: { contact_id: 'c1' } }, error: null }, v: 'value of k' }) });
    expect(h.calls).toEqual([['demo-crm.contacts/get', { contact_id: 'c1' }, undefined]]);
  });

  it('turns a failing host bridge into an error the script sees', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    const h = host({ call: async () => Promise.reject(new Error('host refused')) });
    const outcome = await run('await call("a.b", {});\nreturn 1', h);
    expect(outcome.kind).toBe('threw');
    expect(outcome.kind === 'threw' && outcome.error.message).toContain('host refused');
  });

  it('fails a bridge call whose result cannot cross to the sandbox process, at once', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    const h = host({ call: async () => ({ value: { ok: true, status: 200, data: { f: () => 1 }, error: null } }) });
    const started = performance.now();
    const outcome = await run('try { await call("a.b", {}); return "answered" } catch (e) { return String(e.message) }', h, new AbortController().signal, 20_000);
    expect(outcome.kind).toBe('returned');
    expect(outcome.kind === 'returned' ? JSON.parse(outcome.json ?? 'null') : null).toBe('the Engine could not hand the result to the script (a value that cannot be copied)');
    expect(performance.now() - started).toBeLessThan(10_000); // not after the run's 20 s budget
    expect(await run('return 2')).toEqual({ kind: 'returned', json: '2' }); // the thread goes on serving
  });

  it('cancels a run through its signal', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    const abort = new AbortController();
    const pending = run('await sleep(5000); return 1', host(), abort.signal);
    setTimeout(() => abort.abort(), 100);
    expect(await pending).toEqual({ kind: 'cancelled' });
    expect(await run('return 2')).toEqual({ kind: 'returned', json: '2' });
  });

  it('reports a worker that dies mid-run as crashed once the script reached the host, and the next run gets a new worker', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    let calls = 0;
    let reached!: () => void;
    const called = new Promise<void>((r) => (reached = r));
    const h = host({
      call: async () => {
        reached();
        return { value: ++calls };
      },
    });
    const pending = run('await call("a.b", {}); await sleep(5000); return 1', h);
    await called;
    const [pid] = sandbox.pids;
    process.kill(pid!, 'SIGKILL');
    // Its call may have acted: running it again could repeat that, so it is not.
    expect(await pending).toMatchObject({ kind: 'crashed', lost: true });
    expect(calls).toBe(1);
    expect(await run('return "again"')).toEqual({ kind: 'returned', json: '"again"' });
    expect(sandbox.processes).toBe(1);
    expect(sandbox.pids).not.toContain(pid);
  });

  it('runs again, on a new worker and within its budget, a run whose worker died before the script reached the host', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    const started = performance.now();
    expect(await run('return 0')).toEqual({ kind: 'returned', json: '0' }); // booted: the run below starts at once
    const pending = run('await sleep(300); return "ran again"', host(), new AbortController().signal, 5_000);
    await new Promise((r) => setTimeout(r, 100));
    const [pid] = sandbox.pids;
    process.kill(pid!, 'SIGKILL');
    expect(await pending).toEqual({ kind: 'returned', json: '"ran again"' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(sandbox.pids).not.toContain(pid);
  });

  it('runs a lost run again once more when the worker its first rerun went to was stopping too (workers killed together)', async () => {
    // When the first worker's exit is handled, the other is killed as well: its exit is not handled
    // yet when the rerun picks a worker, so the rerun can go to it and be lost in turn.
    let other: number | undefined;
    sandbox = new SandboxWorkers({
      workers: 2,
      onWorkerExit: () => {
        if (other === undefined) return;
        process.kill(other, 'SIGKILL');
        other = undefined;
      },
    });
    // Both workers up, the second busy with another tenant's short run so the first takes ours.
    expect(await Promise.all([run('return 0'), run('return 0', host(), new AbortController().signal, 10_000, 'tok_b')])).toHaveLength(2);
    expect(sandbox.pids).toHaveLength(2);
    const pending = run('await sleep(300); return "ran again"', host(), new AbortController().signal, 8_000);
    // The run is on whichever worker is busy (waited for, not assumed after a fixed delay: a loaded
    // machine may not have sent it yet); the other is killed from the exit callback.
    const busy = await (async () => {
      for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
        const held = sandbox!.pids.filter((pid) => sandbox!.busyPids.includes(pid));
        if (held.length === 1) return held[0]!;
      }
      throw new Error('no worker holds the run');
    })();
    other = sandbox.pids.find((pid) => pid !== busy);
    process.kill(busy, 'SIGKILL');
    expect(await pending).toEqual({ kind: 'returned', json: '"ran again"' });
    expect(other).toBeUndefined(); // the second kill happened
  });

  it('does not run a lost run again when too little of its budget is left', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    const pending = run('await sleep(5000); return 1', host(), new AbortController().signal, 400);
    await new Promise((r) => setTimeout(r, 250));
    process.kill(sandbox.pids[0]!, 'SIGKILL');
    expect(await pending).toMatchObject({ kind: 'crashed', lost: true });
  });

  it('survives a script that runs V8 out of memory: only its worker process ends, told as unasked', async () => {
    // A Map whose next growth overshoots the isolate's limit aborts the process V8 runs in
    // (isolated-vm cannot catch it); in a worker thread that was the whole Engine.
    const exits: { signal: string | null; expected: boolean }[] = [];
    sandbox = new SandboxWorkers({ workers: 1, onWorkerExit: (exit) => exits.push(exit) });
    const bomb = await run('const m = new Map(); for (let i = 0; ; i++) m.set(i, { i })');
    expect(bomb).toMatchObject({ kind: 'crashed' });
    expect(exits).toEqual([expect.objectContaining({ expected: false })]);
    expect(await run('return "still here"')).toEqual({ kind: 'returned', json: '"still here"' });
  });

  it('replaces a worker process after its runs, once idle, so what isolates leave behind in it stays bounded', async () => {
    const exits: { expected: boolean }[] = [];
    sandbox = new SandboxWorkers({ workers: 1, runsPerWorker: 3, onWorkerExit: (exit) => exits.push(exit) });
    for (let i = 0; i < 3; i++) expect(await run(`return ${i}`)).toEqual({ kind: 'returned', json: String(i) });
    const [first] = sandbox.pids;
    expect(await run('return "fourth"')).toEqual({ kind: 'returned', json: '"fourth"' });
    await sandbox.retired();
    expect(sandbox.pids).toHaveLength(1);
    expect(sandbox.pids).not.toContain(first);
    expect(exits).toEqual([expect.objectContaining({ expected: true })]); // asked to stop: not a crash
    expect(() => process.kill(first!, 0)).toThrow(); // the old process is gone
  });

  it('keeps running through a Ctrl-C meant for the Engine (the terminal signals the whole process group)', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    expect(await run('return 0')).toEqual({ kind: 'returned', json: '0' }); // booted: its handlers are in place
    const pending = run('await sleep(600); return "finished"');
    await new Promise((r) => setTimeout(r, 200));
    const [pid] = sandbox.pids;
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.kill(pid!, signal);
    expect(await pending).toEqual({ kind: 'returned', json: '"finished"' });
    expect(sandbox.pids).toEqual([pid]);
  });

  it('runs scripts in a process that holds none of the Engine environment', async () => {
    process.env.SVC_TEST_CANARY_ENV = 'sandbox-env-canary';
    try {
      sandbox = new SandboxWorkers({ workers: 1 });
      expect(await run('return 1')).toEqual({ kind: 'returned', json: '1' });
      const [pid] = sandbox.pids;
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      expect(environ).not.toContain('sandbox-env-canary');
      expect(readFileSync(`/proc/${pid}/comm`, 'utf8').trim()).toBe('svc-sandbox');
    } finally {
      delete process.env.SVC_TEST_CANARY_ENV;
    }
  });

  it('spreads concurrent runs over its processes, never more than asked', async () => {
    sandbox = new SandboxWorkers({ workers: 2 });
    const outcomes = await Promise.all(Array.from({ length: 6 }, (_, i) => run(`await sleep(50); return ${i}`)));
    expect(outcomes.map((o) => (o.kind === 'returned' ? o.json : o.kind))).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(sandbox.processes).toBe(2);
  });

  it('closes while its workers are still making isolates, every time', async () => {
    for (let i = 0; i < 5; i++) {
      sandbox = new SandboxWorkers({ workers: 2, warmIsolates: 4 });
      expect(await run('return 1')).toEqual({ kind: 'returned', json: '1' }); // the workers now refill
      const started = Date.now();
      await sandbox.close();
      expect(Date.now() - started).toBeLessThan(4_000); // stopped by themselves, not terminated after 5 s
      expect(sandbox.processes).toBe(0);
    }
    sandbox = undefined;
  });

  it('gives a tenant\'s next run a fresh context in the isolate its last run used: nothing a run left behind is visible', async () => {
    sandbox = new SandboxWorkers({ workers: 1, warmIsolates: 0 });
    const polluter = `
      globalThis.leaked = 'secret-of-run-1';
      Array.prototype.evil = () => 'polluted';
      Object.prototype.toJSON = () => 'hijacked';
      JSON.stringify = () => 'hijacked';
      return 1`;
    expect(await run(polluter)).toEqual({ kind: 'returned', json: '1' });
    // The isolate's next context is made after the answer goes out: wait until it is ready, then run.
    await until(async () => (await sandbox!.stats()).reusable === 1);
    const probe = 'return { leaked: typeof globalThis.leaked, evil: typeof [].evil, toJSON: typeof ({}).toJSON, list: [1, 2] }';
    expect(await run(probe)).toEqual({ kind: 'returned', json: JSON.stringify({ leaked: 'undefined', evil: 'undefined', toJSON: 'undefined', list: [1, 2] }) });
    expect(await sandbox.stats()).toMatchObject({ isolatesCreated: 1, contextsReused: 1 });
  });

  it('never lets two tenants share an isolate, and replaces the isolate of a run that timed out or was cancelled', async () => {
    sandbox = new SandboxWorkers({ workers: 1, warmIsolates: 0 });
    // Waits until the isolates of finished runs have their next context (or were disposed).
    const settle = (reusable: number) => until(async () => (await sandbox!.stats()).reusable === reusable);
    expect(await run('return "a1"', host(), undefined, 10_000, 'tok_a')).toEqual({ kind: 'returned', json: '"a1"' });
    await settle(1);
    expect(await run('return "b1"', host(), undefined, 10_000, 'tok_b')).toEqual({ kind: 'returned', json: '"b1"' });
    await settle(2);
    expect(await sandbox.stats()).toMatchObject({ isolatesCreated: 2, contextsReused: 0 });
    expect(await run('return "b2"', host(), undefined, 10_000, 'tok_b')).toEqual({ kind: 'returned', json: '"b2"' });
    await settle(2);
    expect(await sandbox.stats()).toMatchObject({ isolatesCreated: 2, contextsReused: 1 });

    expect(await run('while (true) {}', host(), undefined, 300, 'tok_a')).toEqual({ kind: 'timeout' }); // reuses a's isolate, which is then disposed
    await settle(1);
    expect(await run('return "a2"', host(), undefined, 10_000, 'tok_a')).toEqual({ kind: 'returned', json: '"a2"' });
    expect(await sandbox.stats()).toMatchObject({ isolatesCreated: 3, contextsReused: 2 });

    const abort = new AbortController();
    const cancelled = run('await sleep(5000); return 1', host(), abort.signal, 10_000, 'tok_b');
    setTimeout(() => abort.abort(), 50);
    expect(await cancelled).toEqual({ kind: 'cancelled' });
    await settle(1);
    expect(await run('return "b3"', host(), undefined, 10_000, 'tok_b')).toEqual({ kind: 'returned', json: '"b3"' });
    expect(await sandbox.stats()).toMatchObject({ isolatesCreated: 4, contextsReused: 3 });
  });

  it('replaces a tenant\'s isolate after 25 runs, so what its released contexts left behind stays bounded', async () => {
    sandbox = new SandboxWorkers({ workers: 1, warmIsolates: 0 });
    for (let i = 1; i <= 26; i++) {
      expect(await run(`return ${i}`)).toEqual({ kind: 'returned', json: String(i) });
      if (i < 25) await until(async () => (await sandbox!.stats()).reusable === 1);
    }
    expect(await sandbox.stats()).toMatchObject({ isolatesCreated: 2, contextsReused: 24 });
  });

  it('keeps what a finished run left waiting (timers, sleeps) from ever waking or disturbing the tenant\'s next runs', async () => {
    sandbox = new SandboxWorkers({ workers: 1, warmIsolates: 0 });
    const h = host();
    // Left behind: 1,000 pending timers, and a loop that would call the host after every sleep.
    const leaver = 'for (let i = 0; i < 1000; i++) setTimeout(() => {}, 60_000); (async () => { for (;;) { await sleep(1); await call("leftover.op", {}); } })(); return "left"';
    for (let round = 0; round < 12; round++) {
      expect(await run(leaver, h)).toEqual({ kind: 'returned', json: '"left"' });
      // A host promise the isolate still awaited used to be collected unresolved and surface in the
      // next run as "Promise was abandoned".
      const next = await run('setTimeout(() => {}, -1); return 1', h);
      expect(next.kind === 'threw' && next.error.message).toContain('from 0 to 2147483647');
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(h.calls.filter(([op]) => op === 'leftover.op')).toEqual([]);
    expect((await sandbox.stats()).contextsReused).toBeGreaterThan(0);
  });

  it('never answers a host call that settles after its run ended, so the ended script cannot resume in the tenant\'s isolate', async () => {
    sandbox = new SandboxWorkers({ workers: 1, warmIsolates: 0 });
    const slow = host({ sessionGet: () => new Promise((resolve) => setTimeout(() => resolve({ value: 'late' }), 100)) });
    // Were the late answer delivered, this loop would take the isolate over for good.
    expect(await run('session.get("k").then(() => { for (;;) {} }); return "returned first"', slow)).toEqual({ kind: 'returned', json: '"returned first"' });
    await new Promise((r) => setTimeout(r, 300)); // the host answered meanwhile
    const started = Date.now();
    expect(await run('return "next"', slow, undefined, 2_000)).toEqual({ kind: 'returned', json: '"next"' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await sandbox.stats()).toMatchObject({ isolatesCreated: 1, contextsReused: 1 });
  });

  it('ends a script that returns while a microtask loop spins at its budget, and does not reuse its isolate', async () => {
    sandbox = new SandboxWorkers({ workers: 1, warmIsolates: 0 });
    const spin = 'const loop = () => { Promise.resolve().then(loop); }; loop(); return "spinning"';
    expect(await run(spin, host(), undefined, 500)).toEqual({ kind: 'timeout' });
    expect(await run('return "next"')).toEqual({ kind: 'returned', json: '"next"' });
    expect(await sandbox.stats()).toMatchObject({ isolatesCreated: 2, contextsReused: 0 });
  });

  it('frees the host timer of a cleared timeout, and holds a script to 1,000 pending timers and 1,000 sleeps', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    let during = -1;
    // The host call runs while the script waits on it: the worker's live timers are counted then.
    const h = host({ call: async () => ({ value: (during = (await sandbox!.stats()).hostTimers) }) });
    const cleared = await run('for (let i = 0; i < 3000; i++) clearTimeout(setTimeout(() => {}, 2e9));\nreturn await call("a.b", {})', h);
    expect(cleared).toEqual({ kind: 'returned', json: String(during) });
    expect(during).toBeLessThan(50); // not the 3,000 cleared ones
    const sleeps = await run('for (let i = 0; i < 2000; i++) sleep(1e9);\nreturn 1', h);
    expect(sleeps.kind).toBe('threw');
    expect(sleeps.kind === 'threw' && sleeps.error.message).toContain('sleep: at most 1000 sleeps may be pending');
    const timers = await run('for (let i = 0; i < 1000; i++) setTimeout(() => {}, 2e9);\nsleep(1e9);\nsetTimeout(() => {}, 1);\nreturn 1', h);
    expect(timers.kind === 'threw' && timers.error.message).toContain('setTimeout: at most 1000 timers may be pending');
    await until(async () => (await sandbox!.stats()).hostTimers < 50); // the ended runs' timers are gone
  });

  it('refuses a returned value over the result cap in the worker, so none of it is copied to the Engine', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    const capped = async (code: string, resultCapBytes: number) =>
      sandbox!.run({ code: await compileScript(code), tenant: 'tok_a', host: host(), budgetMs: 10_000, resultCapBytes, signal: new AbortController().signal });
    // JSON of 1,000 bytes is within a 1,000-byte cap; one more byte is not.
    expect(await capped('return "x".repeat(998)', 1000)).toEqual({ kind: 'returned', json: JSON.stringify('x'.repeat(998)) });
    expect(await capped('return "x".repeat(999)', 1000)).toEqual({ kind: 'too-large' });
    // Counted in UTF-8 bytes: 335 characters of JSON, 1,001 bytes.
    expect(await capped('return "€".repeat(333)', 1000)).toEqual({ kind: 'too-large' });
    // The default cap is an execute's 1 MiB: a 24 MB value stays in the sandbox.
    expect(await run('return "y".repeat(24 * 1024 * 1024)')).toEqual({ kind: 'too-large' });
    expect(await run('return [1, "two", { three: 3 }]')).toEqual({ kind: 'returned', json: '[1,"two",{"three":3}]' });
  });

  it('refuses runs after close', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    await sandbox.close();
    expect(await run('return 1')).toMatchObject({ kind: 'crashed', message: 'the Engine is shutting down' });
  });
});
