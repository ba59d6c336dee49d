// Scale-out (issue 9, "Performance"). Measured side by side in one run:
//   1. REST execution throughput on PostgreSQL with 1 Engine replica against 2 replicas: two real
//      `svc-engine serve` processes (test/fixtures/replicas.ts) share one PostgreSQL database and
//      one Redis prefix; the same closed-loop load goes either all to replica A, or spread
//      round-robin over A and B by the load generator (per connection, like a load balancer);
//   2. session.page latency with the snapshot in Redis against in memory: the retention stores
//      called directly (src/retention), a 1 MiB snapshot paged from start to end at a 16 KiB budget
//      (getSnapshot + pageOf + serialising the page, what `session.page` does per call); Redis read
//      by the replica that stored it (its parsed copy cached) and by another replica (a second store
//      on the same Redis and prefix, cold: its first page fetches and parses the whole snapshot).
//
// Knobs: BENCH_ROUNDS (6), BENCH_WINDOW_MS (2500), BENCH_WARMUP_MS (2000), BENCH_CONCURRENCY (32),
// BENCH_PAGE_ROUNDS (8).
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MemorySessionStateStore, pageOf, type SessionStateStore } from '../../src/retention/index.ts';
import { RedisSessionStateStore } from '../../src/retention/redis.ts';
import { startReplicas, TEST_REDIS_URL, type ReplicaSet } from '../fixtures/replicas.ts';
import { startChild, type ChildHandle } from './lib/child.ts';
import { cpuOf } from './lib/engine-proc.ts';
import { LoadGenerator, windowCells, type LoadTarget, type WindowResult } from './lib/load.ts';
import { machineCpu } from './lib/sysload.ts';
import { int, median, ms, percentiles, ratio, table } from './lib/stats.ts';
import { verdictOf } from './lib/summary.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';
import { CONTACT_BODY, isContactEnvelope } from './servers/contact.ts';

export const name = 'replicas';
export const title = 'Scale-out: REST throughput with 1 vs 2 replicas on PostgreSQL; session.page with Redis vs memory';

const envInt = (key: string, fallback: number) => {
  const v = Number(process.env[key]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

type TargetId = 'one' | 'two';
const LABEL: Record<TargetId, string> = { one: '1 replica (all load on A)', two: '2 replicas (load spread over A and B)' };

interface Measured {
  window: WindowResult;
  /** CPU of the Engine processes (A + B) per completed request, µs. */
  engineCpuUsPerReq: number;
  /** CPU during the window, in cores: each replica, PostgreSQL (every postgres process), Redis, the load generator and provider, and the rest of the machine. */
  coresA: number;
  coresB: number;
  coresPg: number;
  coresRedis: number;
  coresEdge: number;
  foreignCores: number;
  /** CPU the hypervisor took from this VM during the window, cores. */
  stealCores: number;
}

/** Summed user+system CPU of every process whose command name is one of `names`, µs (Linux /proc). */
function cpuOfCommands(names: Set<string>): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!names.has(comm)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100;
    } catch {
      /* the process ended meanwhile */
    }
  }
  return total;
}
const POSTGRES = new Set(['postgres']);
const REDIS = new Set(['redis-server']);

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const rest = await restThroughput(ctx);
  const paging = await snapshotPaging(ctx);
  return {
    report: `${rest.text}\n\n${paging.text}`,
    summary: {
      goal: 'none (information)',
      measured: `2 replicas / 1: ${ratio(rest.twoOverOne)} req/s; Redis page p50 ${ratio(paging.redisOverMemory)} memory's`,
      verdict: verdictOf([]),
    },
  };
}

async function restThroughput(ctx: BenchContext): Promise<{ text: string; twoOverOne: number }> {
  const concurrency = envInt('BENCH_CONCURRENCY', 32);
  const rounds = envInt('BENCH_ROUNDS', 6);
  const windowMs = envInt('BENCH_WINDOW_MS', 2_500);
  const warmupMs = envInt('BENCH_WARMUP_MS', 2_000);
  const key = `sk_bench_${randomBytes(12).toString('hex')}`;
  let provider: ChildHandle<{ url: string }> | undefined;
  let set: ReplicaSet | undefined;
  const generators: LoadGenerator[] = [];
  try {
    provider = await startChild<{ url: string }>('provider', fileURLToPath(new URL('./servers/provider.ts', import.meta.url)), { env: { BENCH_PROVIDER_KEY: key } });
    set = await startReplicas({ replicas: 2 });
    set.canaries.push(key);
    const [a, b] = set.replicas as [NonNullable<ReplicaSet['replicas'][0]>, NonNullable<ReplicaSet['replicas'][0]>];
    const setup = async (res: Promise<{ status: number; body: any }>, expect: number) => {
      const r = await res;
      if (r.status !== expect) throw new Error(`setup answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body;
    };
    await setup(set.api(a, 'PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.ready.url }), 200);
    await setup(set.api(b, 'PUT', '/v1/buckets/default/secrets/demo-crm', { value: key }), 204);
    const published = await setup(set.api(a, 'POST', '/v1/sdks/publish', { name: 'bench', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] }), 200);
    set.canaries.push(published.token);
    ctx.log(`provider ${provider.ready.url}; replicas ${a.url} and ${b.url} on one PostgreSQL database and one Redis prefix`);

    const base: Omit<LoadTarget, 'name' | 'origin'> = {
      method: 'POST',
      path: `/v1/apps/${published.versionId}/executions`,
      headers: { authorization: `Bearer ${published.token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0001' } }),
      check: (_status, text) => isContactEnvelope(text),
    };
    const gen: Record<TargetId, LoadGenerator> = {
      one: new LoadGenerator({ ...base, name: 'one', origin: a.url }, concurrency),
      two: new LoadGenerator({ ...base, name: 'two', origin: a.url, origins: [a.url, b.url] }, concurrency),
    };
    generators.push(gen.one, gen.two);
    const ids: TargetId[] = ['one', 'two'];
    for (const id of ids) {
      const one = await gen[id].run(2, 500);
      if (one.non2xx + one.badBody + one.errors > 0 || one.ok === 0) throw new Error(`${LABEL[id]} does not answer as expected: ${one.firstFailure ?? 'no response'}`);
    }

    const measure = async (id: TargetId): Promise<Measured> => {
      const snap = async () => {
        const self = process.cpuUsage();
        return { a: cpuOf(a.pid), b: cpuOf(b.pid), pg: cpuOfCommands(POSTGRES), redis: cpuOfCommands(REDIS), edge: self.user + self.system + (await provider!.cpu()), machine: machineCpu().busyUs, steal: machineCpu().stealUs };
      };
      const s0 = await snap();
      const window = await gen[id].run(concurrency, windowMs);
      const s1 = await snap();
      const d = (k: keyof typeof s0) => s1[k] - s0[k];
      const cores = (us: number) => us / 1000 / window.elapsedMs;
      return {
        window,
        engineCpuUsPerReq: (d('a') + d('b')) / Math.max(window.ok, 1),
        coresA: cores(d('a')),
        coresB: cores(d('b')),
        coresPg: cores(d('pg')),
        coresRedis: cores(d('redis')),
        coresEdge: cores(d('edge')),
        foreignCores: Math.max(0, cores(d('machine') - d('a') - d('b') - d('pg') - d('redis') - d('edge'))),
        stealCores: cores(d('steal')),
      };
    };
    const pause = () => new Promise((r) => setTimeout(r, 150));

    ctx.log(`warm-up ${warmupMs} ms per target at concurrency ${concurrency}`);
    for (const id of ids) {
      await gen[id].run(concurrency, warmupMs);
      await pause();
    }
    const perRound: Record<TargetId, Measured>[] = [];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? (['two', 'one'] as const) : (['one', 'two'] as const);
      const row = {} as Record<TargetId, Measured>;
      for (const id of order) {
        row[id] = await measure(id);
        await pause();
      }
      perRound.push(row);
      ctx.log(
        `round ${r + 1}/${rounds} [${order.join(' → ')}]  ` +
          ids.map((id) => `${id}: ${int(row[id].window.rps)}/s p50 ${ms(row[id].window.p50)} p99 ${ms(row[id].window.p99)} ms, A ${row[id].coresA.toFixed(2)} B ${row[id].coresB.toFixed(2)} pg ${row[id].coresPg.toFixed(2)} foreign ${row[id].foreignCores.toFixed(2)} steal ${row[id].stealCores.toFixed(2)} cores`).join(' | '),
      );
    }
    return restReport({ ids, perRound, concurrency, rounds, windowMs, warmupMs });
  } finally {
    await Promise.allSettled(generators.map((g) => g.close()));
    await set?.stop();
    await provider?.stop();
  }
}

function restReport(o: { ids: TargetId[]; perRound: Record<TargetId, Measured>[]; concurrency: number; rounds: number; windowMs: number; warmupMs: number }): { text: string; twoOverOne: number } {
  const { ids, perRound } = o;
  const med = (id: TargetId, f: (m: Measured) => number) => median(perRound.map((r) => f(r[id])));
  const paired = median(perRound.map((r) => r.two.window.rps / r.one.window.rps));
  const sum = (id: TargetId, f: (w: WindowResult) => number) => perRound.reduce((s, r) => s + f(r[id].window), 0);
  const failed = ids.some((id) => sum(id, (w) => w.non2xx + w.badBody + w.errors) > 0);
  const out: string[] = [];
  out.push('### REST execution throughput: 1 replica vs 2 replicas on PostgreSQL', '');
  out.push(
    'Two `svc-engine serve` processes (`DATABASE_URL` one PostgreSQL database, `REDIS_URL` one Redis prefix, one `SVC_MASTER_KEY`; ' +
      '`test/fixtures/replicas.ts`) serve `POST /v1/apps/{versionId}/executions` for `demo-crm.contacts/get` against a node:http provider ' +
      `returning a fixed ${CONTACT_BODY.length}-byte body (\`test/bench/servers/provider.ts\`). Every call checks the token in PostgreSQL, ` +
      'reads the secret, calls the provider and writes a receipt (batched). ' +
      `Closed loop at **concurrency ${o.concurrency}**: "1 replica" sends everything to replica A (B idle); "2 replicas" spreads the same ` +
      `${o.concurrency} keep-alive connections round-robin over A and B. ${o.warmupMs} ms warm-up each, then ${o.rounds} rounds × ${o.windowMs} ms ` +
      'per target in alternating order; medians across rounds; the ratio is paired within each round. Every response body is checked.',
  );
  out.push('');
  out.push(
    table(
      ['target', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'Engine CPU µs/req (A+B)', 'cores: A / B', 'PostgreSQL', 'Redis', 'load gen + provider', 'other processes', 'hypervisor steal'],
      ids.map((id) => [
        LABEL[id],
        ...windowCells((f) => med(id, (m) => f(m.window))),
        int(med(id, (m) => m.engineCpuUsPerReq)),
        `${med(id, (m) => m.coresA).toFixed(2)} / ${med(id, (m) => m.coresB).toFixed(2)}`,
        med(id, (m) => m.coresPg).toFixed(2),
        med(id, (m) => m.coresRedis).toFixed(2),
        med(id, (m) => m.coresEdge).toFixed(2),
        med(id, (m) => m.foreignCores).toFixed(2),
        med(id, (m) => m.stealCores).toFixed(2),
      ]),
    ),
  );
  out.push('');
  out.push(`**Throughput 2 replicas / 1 replica: ${ratio(paired)}** (median of per-round ratios).`);
  out.push('');
  const busy = (id: TargetId) => med(id, (m) => m.coresA + m.coresB + m.coresPg + m.coresRedis + m.coresEdge + m.foreignCores);
  out.push(
    `Reading it: the machine has ${availableParallelism()} cores, shared by the replicas, PostgreSQL, Redis, the load generator and the provider. With one replica ` +
      `they already keep ${busy('one').toFixed(2)} of them busy (${busy('two').toFixed(2)} with two), so a second replica on the *same* cores cannot ` +
      'add throughput: the figure shows what spreading costs or gains here (a second event loop, a second PostgreSQL pool), not the scaling ' +
      'across machines, where each replica brings its own cores and PostgreSQL is the shared part. REST executions do not touch Redis (MCP ' +
      'sessions and OAuth refresh locks do). "other processes" is CPU used by anything ' +
      'else on the machine during the window, "hypervisor steal" CPU this VM wanted but did not get (both noise).',
  );
  if (failed) out.push('', '**Some requests failed; the figures are not trustworthy.**');
  out.push('');
  out.push('<details><summary>Per round (req/s; p50 / p99 ms)</summary>', '');
  out.push(
    table(
      ['round', ...ids.map((id) => LABEL[id]), '2 / 1 req/s', 'steal, cores (1; 2)'],
      perRound.map((r, i) => [
        String(i + 1),
        ...ids.map((id) => `${int(r[id].window.rps)}; ${ms(r[id].window.p50)} / ${ms(r[id].window.p99)}`),
        ratio(r.two.window.rps / r.one.window.rps),
        `${r.one.stealCores.toFixed(2)}; ${r.two.stealCores.toFixed(2)}`,
      ]),
      ['r', 'r', 'r', 'r', 'r'],
    ),
  );
  out.push('', '</details>', '');
  out.push(
    table(
      ['target', 'ok', 'non-2xx', 'bad body', 'transport errors'],
      ids.map((id) => [LABEL[id], int(sum(id, (w) => w.ok)), int(sum(id, (w) => w.non2xx)), int(sum(id, (w) => w.badBody)), int(sum(id, (w) => w.errors))]),
    ),
  );
  return { text: out.join('\n'), twoOverOne: paired };
}

// ---- session.page: Redis vs memory ----------------------------------------------------------

const BUDGET = 16 * 1024;
const SNAPSHOT_BYTES = 1024 * 1024;

/** A ~1 MiB array of contact rows (seeded), as the result of a list call an agent would page through. */
function snapshotJson(): string {
  let seed = 0x2545f491;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
  const words = ['renewal', 'pricing', 'meeting', 'follow up', 'contract', 'invoice', 'support', 'upgrade', 'trial', 'feedback'];
  const rows: unknown[] = [];
  let size = 2;
  for (let i = 0; ; i++) {
    const row = {
      id: `con_${String(i).padStart(6, '0')}`,
      name: `Contact ${i}`,
      email: `contact${i}@example.com`,
      company: { id: `org_${Math.floor(rnd() * 500)}`, name: `Company ${Math.floor(rnd() * 50)}` },
      tags: ['customer', rnd() < 0.5 ? 'emea' : 'amer'],
      score: Math.floor(rnd() * 100),
      notes: Array.from({ length: 8 + Math.floor(rnd() * 10) }, () => words[Math.floor(rnd() * words.length)]).join(' '),
      created_at: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
    };
    const bytes = Buffer.byteLength(JSON.stringify(row)) + (rows.length ? 1 : 0);
    if (size + bytes > SNAPSHOT_BYTES) break;
    rows.push(row);
    size += bytes;
  }
  return JSON.stringify({ data: rows });
}

type StoreId = 'memory' | 'redisSame' | 'redisOther';
const STORE_LABEL: Record<StoreId, string> = {
  memory: 'memory (MemorySessionStateStore)',
  redisSame: 'Redis, read by the replica that stored it',
  redisOther: 'Redis, read by another replica (cold)',
};

interface PassResult {
  /** Every page's latency, ms. */
  pages: number[];
  pageCount: number;
}

/** Pages through the whole collection as `session.page` calls would: getSnapshot, pageOf, serialise. */
async function pass(store: SessionStateStore, sessionId: string, ref: string): Promise<PassResult> {
  const pages: number[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const t0 = performance.now();
    const value = await store.getSnapshot(sessionId, ref);
    const page = pageOf(value, { path: '/data', offset }, BUDGET);
    JSON.stringify(page);
    pages.push(performance.now() - t0);
    offset = page.nextOffset;
  }
  return { pages, pageCount: pages.length };
}

async function snapshotPaging(ctx: BenchContext): Promise<{ text: string; redisOverMemory: number }> {
  const rounds = envInt('BENCH_PAGE_ROUNDS', 8);
  const prefix = `svc-bench:replicas:${randomUUID()}:`;
  const json = snapshotJson();
  const sessionId = randomUUID();
  const record = { versionId: 'ver_bench', tokenId: 'tok_bench', protocolVersion: '2025-06-18', ready: true, elicitation: false };
  const memory = new MemorySessionStateStore();
  const redisA = new RedisSessionStateStore({ url: TEST_REDIS_URL, keyPrefix: prefix });
  const opened: SessionStateStore[] = [memory, redisA];
  try {
    await memory.openSession(sessionId, record);
    await redisA.openSession(sessionId, record);
    const inMemory = await memory.putSnapshot(sessionId, json);
    const inRedis = await redisA.putSnapshot(sessionId, json);
    ctx.log(`snapshot ${int(Buffer.byteLength(json))} bytes; paging at a ${BUDGET}-byte budget; ${rounds} rounds`);
    await pass(memory, sessionId, inMemory.ref); // warm-up
    await pass(redisA, sessionId, inRedis.ref);

    const all: Record<StoreId, number[]> = { memory: [], redisSame: [], redisOther: [] };
    const first: Record<StoreId, number[]> = { memory: [], redisSame: [], redisOther: [] };
    let pageCount = 0;
    for (let r = 0; r < rounds; r++) {
      const order: StoreId[] = r % 2 ? ['redisOther', 'redisSame', 'memory'] : ['memory', 'redisSame', 'redisOther'];
      for (const id of order) {
        let result: PassResult;
        if (id === 'memory') result = await pass(memory, sessionId, inMemory.ref);
        else if (id === 'redisSame') result = await pass(redisA, sessionId, inRedis.ref);
        else {
          // Another replica: its own connection and an empty cache of parsed snapshots.
          const redisB = new RedisSessionStateStore({ url: TEST_REDIS_URL, keyPrefix: prefix });
          try {
            await redisB.hasSession(sessionId); // connected before timing
            result = await pass(redisB, sessionId, inRedis.ref);
          } finally {
            await redisB.close();
          }
        }
        all[id].push(...result.pages);
        first[id].push(result.pages[0]!);
        pageCount = result.pageCount;
      }
      ctx.log(`round ${r + 1}/${rounds}: ` + (Object.keys(all) as StoreId[]).map((id) => `${id} p50 ${ms(median(all[id]), 3)} ms`).join(', '));
    }
    const p = (xs: number[], q: number) => percentiles(Float64Array.from(xs), xs.length, [q])[0]!;
    const ids: StoreId[] = ['memory', 'redisSame', 'redisOther'];
    const out: string[] = [];
    out.push('### session.page latency: snapshot in Redis vs in memory', '');
    out.push(
      `A ${int(Buffer.byteLength(json))}-byte snapshot (an array of contact objects under \`/data\`) is paged from offset 0 to the end at a ` +
        `${BUDGET}-byte output budget: ${pageCount} pages per pass, each page = \`getSnapshot\` + \`pageOf\` + serialising the page, as one ` +
        '`session.page` call does inside `execute` (the isolate hop and the MCP transport are left out: they are the same for both stores). ' +
        `The stores are called directly (\`src/retention\`), Redis at ${TEST_REDIS_URL.replace(/\/\/[^@]*@/, '//')} on this machine. ` +
        `"Another replica" is a second \`RedisSessionStateStore\` on the same Redis and prefix with an empty cache, new for every pass. ` +
        `${rounds} passes per store in alternating order; percentiles over every page of every pass.`,
    );
    out.push('');
    out.push(
      table(
        ['store', 'p50 ms/page', 'p99 ms/page', 'first page of a pass, median ms', 'p50 vs memory'],
        ids.map((id) => [STORE_LABEL[id], ms(p(all[id], 50), 3), ms(p(all[id], 99), 3), ms(median(first[id]), 3), id === 'memory' ? '–' : ratio(p(all[id], 50) / p(all.memory, 50))]),
      ),
    );
    out.push('');
    out.push(
      'Each Redis page costs one round trip (a Lua script that checks the snapshot is still alive, so an expired, evicted or released ' +
        'snapshot is never served from a replica\'s cache); the replica that stored a snapshot, or has read it once, keeps it parsed. ' +
        'The first page on another replica fetches and parses the whole snapshot.',
    );
    return { text: out.join('\n'), redisOverMemory: p(all.redisSame, 50) / p(all.memory, 50) };
  } finally {
    await Promise.allSettled(opened.map((s) => s.closeSession(sessionId)));
    await Promise.allSettled(opened.map((s) => s.close()));
  }
}
