// The sandbox worker process pool at its failure edges (src/sandbox/workers.ts, worker.ts): hung
// workers, stats, recycling under load, close during start-up, a tenant that keeps running workers
// out of memory, the recovery contract of such a run, orphans when the Engine dies. Real parts only.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SandboxWorkers } from '../../src/sandbox/workers.ts';
import { compileScript, type SandboxHost } from '../../src/sandbox/index.ts';
import { startTestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json } from '../fixtures/fake-provider.ts';

let sandbox: SandboxWorkers | undefined;
/** Worker processes a test stopped (SIGSTOP) or left behind: resumed and ended after it. */
const leftovers = new Set<number>();

afterEach(async () => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  leftovers.clear();
  await sandbox?.close();
  sandbox = undefined;
});

const host = (overrides: Partial<SandboxHost> = {}): SandboxHost => ({
  call: async () => ({ value: 1 }),
  sessionGet: async () => ({ value: null }),
  sessionSet: async () => ({ value: null }),
  sessionPage: async () => ({ value: { items: [] } }),
  ...overrides,
});

const run = async (code: string, budgetMs = 10_000, tenant = 'tok_a') =>
  sandbox!.run({ code: await compileScript(code), tenant, host: host(), budgetMs, signal: new AbortController().signal });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Alive and not a zombie. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const MAP_BOMB = 'const m = new Map(); for (let i = 0; ; i++) m.set(i, { i })';

describe('sandbox process pool at its failure edges', () => {
  it('replaces a worker that stopped answering once the guard gave its run up, instead of sending it every next run', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    expect(await run('return 1')).toEqual({ kind: 'returned', json: '1' });
    const [pid] = sandbox.pids;
    leftovers.add(pid!);
    process.kill(pid!, 'SIGSTOP'); // a worker that hangs (isolated-vm can, as worker.ts says)
    expect(await run('return 2', 200)).toMatchObject({ kind: 'crashed', message: 'the sandbox did not answer within the budget', lost: true });
    // The guard knows this worker did not answer, yet it stays in the pool, looks idle and is picked again.
    const started = Date.now();
    const next = await run('return 3', 200);
    expect({ next, ms: Date.now() - started < 3_000 }).toEqual({ next: { kind: 'returned', json: '3' }, ms: true });
  }, 30_000);

  it('settles stats() when a worker does not answer', async () => {
    sandbox = new SandboxWorkers({ workers: 2 });
    await Promise.all([run('return 1'), run('return 2')]);
    const [pid] = sandbox.pids;
    leftovers.add(pid!);
    process.kill(pid!, 'SIGSTOP');
    const settled = await Promise.race([
      sandbox.stats().then(
        () => 'resolved',
        () => 'rejected',
      ),
      sleep(5_000).then(() => 'still pending after 5 s'),
    ]);
    expect(settled).not.toBe('still pending after 5 s');
  }, 30_000);

  it('replaces a worker past its runs even while runs keep arriving (it is never idle under steady load)', async () => {
    sandbox = new SandboxWorkers({ workers: 1, runsPerWorker: 5 });
    expect(await run('return 0')).toEqual({ kind: 'returned', json: '0' });
    const [first] = sandbox.pids;
    const pending: Promise<unknown>[] = [];
    // Overlapping runs: always at least one in flight, 30 runs in all (6x the worker's quota).
    for (let i = 0; i < 30; i++) {
      pending.push(run('await sleep(100); return 1'));
      await sleep(40);
    }
    expect(new Set((await Promise.all(pending)).map((o) => (o as { kind: string }).kind))).toEqual(new Set(['returned']));
    await sandbox.retired();
    expect(sandbox.pids).not.toContain(first);
  }, 30_000);

  it('ends runs in progress as cancelled when closed while its workers are still starting', async () => {
    sandbox = new SandboxWorkers({ workers: 2 });
    const code = await compileScript('await sleep(3000); return 1');
    const a = sandbox.run({ code, tenant: 'tok_a', host: host(), budgetMs: 10_000, signal: new AbortController().signal });
    const b = sandbox.run({ code, tenant: 'tok_b', host: host(), budgetMs: 10_000, signal: new AbortController().signal });
    await sandbox.close();
    // close(): "runs in progress end as cancelled" — not "the sandbox worker stopped during the run".
    expect([await a, await b]).toEqual([{ kind: 'cancelled' }, { kind: 'cancelled' }]);
  });

  it("keeps a tenant whose scripts keep running workers out of memory from killing other tenants' runs", async () => {
    sandbox = new SandboxWorkers({ workers: 2 });
    let stop = false;
    // Told `unchanged` (see the next test), an agent resubmits its bomb as it is, again and again.
    const bomber = async () => {
      while (!stop) await run(MAP_BOMB, 10_000, 'tok_hostile');
    };
    const bombers = [bomber(), bomber()];
    try {
      await sleep(300);
      const innocent: string[] = [];
      for (let i = 0; i < 8; i++) {
        const o = await run('await sleep(300); return "fine"', 10_000, 'tok_innocent');
        innocent.push(o.kind === 'returned' ? o.json! : `${o.kind}: ${o.kind === 'crashed' ? o.message : ''}`);
      }
      // Before: 3 to 5 of 8 ended as "crashed: … the script used more memory than an execute may" (blaming
      // them), for as long as the bombs went on. Now the tenants of a crashed worker are kept apart, and
      // a run lost beside a bomb before it reached the host runs again apart from it: every run finishes.
      expect(innocent).toEqual(Array(8).fill('"fine"'));
    } finally {
      stop = true;
      await Promise.all(bombers);
    }
  }, 60_000);

  it('does not tell the script that ran its sandbox process out of memory to run again unchanged', async () => {
    const provider = await startFakeProvider((_req, res) => json(res, 200, { id: 'con_1' }));
    const t = await startTestEngine({ SVC_EXECUTE_BUDGET_MS: '5000' });
    const client = new Client({ name: 'review', version: '1.0.0' });
    try {
      await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
      const server = (await t.api('POST', '/v1/mcp/publish', { name: 'review', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
      t.canaries.push(server.token);
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
      const bomb = (await client.callTool({ name: 'execute', arguments: { code: MAP_BOMB } })) as { isError?: boolean; structuredContent: any };
      expect(bomb.isError).toBe(true);
      expect(bomb.structuredContent.message).toContain('used more memory than an execute may');
      // The same script fails the same way every time (and takes the runs beside it along): it must
      // change, as when the isolate's own memory limit stops it (correct_arguments), not be replayed.
      expect(bomb.structuredContent.recovery).toEqual({ execute_request: 'correct_arguments', provider_execution: 'not_started', automatic_replay: false });
    } finally {
      await client.close();
      await t.stop();
      await provider.stop();
    }
  }, 60_000);

  it('gives a worker no further runs once a script there hit its memory limit (V8 may still abort that process)', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    const bombing = run('const a = []; for (;;) a.push(new Array(1e6).fill(1))');
    await sleep(100);
    const [bombed] = sandbox.busyPids;
    const outcome = await bombing;
    expect(outcome).toMatchObject({ kind: 'crashed', exhausted: true });
    // Before: the next run went to the same process, and when V8 aborted it a moment later, that run
    // was answered "the script used more memory than an execute may".
    expect(sandbox.pids).not.toContain(bombed);
    const next = await run('return 6 * 7');
    expect(next).toEqual({ kind: 'returned', json: '42' });
    expect(sandbox.pids).not.toContain(bombed);
  }, 60_000);

  it('gives a worker no further runs once a script stopped near its memory limit, and keeps it after a small one', async () => {
    sandbox = new SandboxWorkers({ workers: 1 });
    expect(await run('for (;;) {}', 300)).toEqual({ kind: 'timeout' });
    const [worker] = sandbox.pids;
    expect(await run('for (;;) {}', 300)).toEqual({ kind: 'timeout' });
    expect(sandbox.pids).toEqual([worker]);
    // Stopped while it ran (past its first await, so the budget timer stops it) at ~48 MB of its 64:
    // V8 may be mid-collection, and could abort that process after the answer. Before: the next run
    // went there and was blamed for that abort.
    const filling = 'const rows = []; while (rows.length < 1_000_000) rows.push({ n: rows.length }); await sleep(1); for (;;) {}';
    expect(await run(filling, 3_000)).toEqual({ kind: 'timeout', exhausted: true });
    expect(sandbox.pids).not.toContain(worker);
    expect(await run('return 6 * 7')).toEqual({ kind: 'returned', json: '42' });
  }, 60_000);

  it('leaves no svc-sandbox process behind when the Engine process dies while a script spins after an await', async () => {
    const workers = resolve(import.meta.dirname, '../../src/sandbox/workers.ts');
    const index = resolve(import.meta.dirname, '../../src/sandbox/index.ts');
    // The Engine's side of the sandbox, in a process of its own that this test then kills.
    const engineSide = `
      import { SandboxWorkers } from ${JSON.stringify(workers)};
      import { compileScript } from ${JSON.stringify(index)};
      const sandbox = new SandboxWorkers({ workers: 1 });
      const host = { call: async () => ({ value: 1 }), sessionGet: async () => ({ value: null }), sessionSet: async () => ({ value: null }), sessionPage: async () => ({ value: null }) };
      void sandbox.run({ code: await compileScript('await sleep(1); for (;;) {}'), tenant: 'a', host, budgetMs: 1000, signal: new AbortController().signal });
      setTimeout(() => console.log(JSON.stringify(sandbox.pids)), 300);
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--no-node-snapshot', '--input-type=module', '-e', engineSide], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const pids = await new Promise<number[]>((ok, fail) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) ok(JSON.parse(out.trim()));
      });
      child.once('exit', () => fail(new Error(`the Engine side ended early: ${out}`)));
    });
    for (const pid of pids) leftovers.add(pid);
    expect(pids).toHaveLength(1);
    child.kill('SIGKILL'); // the Engine crashes (or is killed) before it could close its workers
    await sleep(1_000 + 4_000); // past the script's 1 s budget, and then some
    // Before: the worker, reparented to init, spun at 100% CPU for good (its main thread is stuck in
    // process.exit while the isolate it never disposed keeps running).
    expect(pids.filter(running)).toEqual([]);
  }, 30_000);
});
