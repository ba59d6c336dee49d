// A bridge call (session.set, call()) a script starts and does not await before it finishes reaches
// the host before the run's outcome is handed back. The Engine waits for the session.set writes it
// knows of when the outcome arrives (src/mcp/execute.ts): one that reached the host after the
// outcome was dropped, never stored. isolated-vm hands the host the result through a task queued
// when the script first awaited, so a host thread busy until the script has finished ran that task
// before the bridge calls the script made meanwhile, queued behind it.
import { afterAll, describe, expect, it } from 'vitest';
import { compileScript } from '../../src/sandbox/index.ts';
import { IsolatePool, runScript, type SandboxHost } from '../../src/sandbox/run.ts';

const pool = new IsolatePool(1);
afterAll(() => pool.close());

/** Keeps this thread (the host's) busy for `ms`, as a loaded machine may; the isolate's thread runs on. */
function holdHostThread(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/**
 * What reaches the host, in order, from a script that awaits a call() (answered at once, while the
 * script spins 300 ms), calls session.set without awaiting it, and ends with `ending`. The host
 * thread is held for a second from just after answering, so the script resumes, calls session.set
 * and finishes meanwhile: its result and its session.set then wait on this thread, in that order.
 */
async function reachingHost(ending: string): Promise<string[]> {
  const events: string[] = [];
  const host: SandboxHost = {
    call: () =>
      new Promise((resolve) =>
        setTimeout(() => {
          resolve({ value: null });
          setImmediate(() => holdHostThread(1_000));
        }),
      ),
    sessionGet: async () => ({ value: null }),
    sessionSet: async (args) => {
      events.push(`session.set ${JSON.stringify(args)}`);
      return { value: null };
    },
    sessionPage: async () => ({ value: null }),
  };
  const code = await compileScript(`
    const answered = call("demo-crm.contacts/get", {});
    const end = Date.now() + 300;
    while (Date.now() < end);
    await answered;
    session.set("left-running", { n: 1 }); // not awaited
    ${ending}`);
  const outcome = await runScript({ code, tenant: 'tok_a', host, budgetMs: 10_000, signal: new AbortController().signal, pool });
  events.push(`outcome ${outcome.kind}`);
  return events;
}

describe('a session.set a script started and did not await', () => {
  it('reaches the host before the outcome of a script that returned, even when the host thread learns of the result late', async () => {
    expect(await reachingHost('return "done";')).toEqual(['session.set ["left-running","{\\"n\\":1}"]', 'outcome returned']);
  });

  it('reaches the host before the outcome of a script that threw', async () => {
    expect(await reachingHost('throw new Error("stop");')).toEqual(['session.set ["left-running","{\\"n\\":1}"]', 'outcome threw']);
  });
});
