// Tracing overhead: REST executions (`demo-crm.contacts/get`, the rest-execution bench's request)
// through five Engines side by side in one run: tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT);
// tracing on, every trace exported over OTLP/HTTP to a collector on loopback (./servers/otlp-sink.ts),
// once as protobuf (OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf, the default) and once as JSON
// (http/json); tracing on with 1 trace in 10 sampled (OTEL_TRACES_SAMPLER=parentbased_traceidratio,
// 0.1; protobuf); and tracing on with no trace sampled (always_off): the fixed cost every request
// pays once tracing is on.
// Closed loop at concurrency 32, rotated rounds; throughput ratio and p50/p99 are paired per round,
// then the median is taken. After the rounds the traced Engine stops (flushing its last batch) and
// the collector's span count says how many spans were exported per request. First, in the bench's
// own process, the same 2 spans made and serialized by each serializer without network
// (./tracing-in-process.ts): the SDK's protobuf serializer against the Engine's, side by side.
// Last, each traced Engine is paired with the untraced one in simultaneous windows on the same core
// (each under half the load, as `npm run bench:ab` pairs two revisions): sequential windows on this
// VM swing by 15–30 %, while the two sides of a simultaneous pair move together, so the CPU each
// request adds shows even where the throughput ratios of the rotated rounds cannot resolve it.
//
// Knobs (environment): BENCH_ROUNDS (8; also the paired rounds), BENCH_WINDOW_MS (2500), BENCH_WARMUP_MS (2000),
// BENCH_CONCURRENCY (32), BENCH_PLACEMENT (pinned | shared; pinned when taskset works), BENCH_CPU_PROF=<dir>
// (profiles the Engines with tracing off, with every trace exported in each protocol, with 1 in 10 and with none sampled during the rounds),
// BENCH_PERF=<dir> (the same Engines recorded by Linux perf instead, which leaves V8's compiled code
// as it runs; ./lib/perf-summary.ts reads each recording per request).
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, twoCorePlacement, type ChildHandle } from './lib/child.ts';
import { perfNodeArgs, recordWithPerf } from './lib/perf-record.ts';
import { loadKnobs } from './lib/knobs.ts';
import { LoadGenerator, windowCells, type WindowResult } from './lib/load.ts';
import { int, median, ms, ratio, signedMs, table } from './lib/stats.ts';
import { verdictOf } from './lib/summary.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';
import { contactExecution } from './servers/contact.ts';
import { measureInProcess } from './tracing-in-process.ts';
import type { EngineReady } from './servers/engine.ts';

export const name = 'tracing';
export const title = 'Tracing overhead on REST executions';

/** Issue 31 §4: tracing on costs at most 10 % of REST throughput. */
const GOAL_THROUGHPUT_RATIO = 0.9;
/** Spans of one REST execution: the request (which carries the call's attributes), the provider attempt. */
const SPANS_PER_REQUEST = 2;


type TargetId = 'off' | 'on' | 'json' | 'sampled' | 'none';
const LABEL: Record<TargetId, string> = {
  off: 'Engine, tracing off',
  on: 'Engine, tracing on, every trace exported (protobuf)',
  json: 'Engine, tracing on, every trace exported (JSON)',
  sampled: 'Engine, tracing on, 1 trace in 10 sampled',
  none: 'Engine, tracing on, no trace sampled',
};
/** What each Engine gets on top of the provider's settings. */
const ENV: Record<TargetId, (collector: string) => Record<string, string>> = {
  off: () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }),
  on: (collector) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `${collector}/on`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_TRACES_SAMPLER: 'parentbased_always_on' }),
  json: (collector) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `${collector}/json`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_TRACES_SAMPLER: 'parentbased_always_on' }),
  sampled: (collector) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `${collector}/sampled`, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }),
  none: (collector) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `${collector}/none`, OTEL_TRACES_SAMPLER: 'always_off' }),
};

/** The Engines paired with the untraced one in simultaneous windows. */
const TRACED = ['on', 'json', 'sampled', 'none'] as const;
type Traced = (typeof TRACED)[number];

/** The Engines profiled with BENCH_CPU_PROF. */
const PROFILED = ['off', 'on', 'json', 'sampled', 'none'] as const;

/** What the collector received from one Engine, and the REST requests that Engine answered. */
interface Tally {
  spans: number;
  exports: number;
  bytes: number;
}
type Exported = Record<'on' | 'json' | 'sampled', Tally & { served: number }>;

interface Measured {
  window: WindowResult;
  /** The Engine's user+system CPU per completed request, µs. */
  cpuUsPerReq: number;
}

const script = (file: string) => fileURLToPath(new URL(`./servers/${file}`, import.meta.url));

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const { concurrency, rounds, windowMs, warmupMs, pinned } = loadKnobs();
  ctx.log('in process: 2 spans per REST execution, per serializer');
  const inProcess = await measureInProcess({ rounds, requests: 20_000, log: ctx.log });
  const key = `sk_bench_${randomBytes(12).toString('hex')}`;
  const children: ChildHandle<unknown>[] = [];
  const generators: LoadGenerator[] = [];
  // Placement (2 cores): CPU 0 = load generator, provider and collector; CPU 1 = the Engine under
  // load (only one of the Engines is loaded at a time).
  const { edgeCpus, hopCpus, restore } = twoCorePlacement(pinned);
  try {
    const provider = await startChild<{ url: string }>('provider', script('provider.ts'), { cpus: edgeCpus, env: { BENCH_PROVIDER_KEY: key } });
    children.push(provider);
    const sink = await startChild<{ url: string }>('collector', script('otlp-sink.ts'), { cpus: edgeCpus });
    children.push(sink);
    const upstreamEnv = { BENCH_UPSTREAM_URL: provider.ready.url, BENCH_PROVIDER_KEY: key };
    const ids: TargetId[] = ['off', 'on', 'json', 'sampled', 'none'];
    const engines = {} as Record<TargetId, ChildHandle<EngineReady>>;
    const perfDir = process.env.BENCH_PERF;
    if (perfDir) mkdirSync(perfDir, { recursive: true });
    for (const id of ids) {
      engines[id] = await startChild<EngineReady>(`engine (${id})`, script('engine.ts'), { cpus: hopCpus, env: { ...upstreamEnv, ...ENV[id](sink.ready.url) }, execArgv: perfDir ? perfNodeArgs(perfDir, `engine-${id}`) : [], readyTimeoutMs: 60_000 });
      children.push(engines[id]);
    }
    ctx.log(`provider ${provider.ready.url}, collector ${sink.ready.url}, Engines ${ids.map((id) => `${engines[id].ready.url} (${id})`).join(', ')} (${pinned ? 'pinned: load, provider and collector on CPU 0, Engines on CPU 1' : 'unpinned'})`);

    const gen = {} as Record<TargetId, LoadGenerator>;
    for (const id of ids) generators.push((gen[id] = new LoadGenerator(contactExecution(id, engines[id].ready.url, engines[id].ready), concurrency)));
    for (const id of ids) {
      const one = await gen[id].run(1, 1000);
      if (one.non2xx + one.badBody + one.errors > 0 || one.ok === 0) throw new Error(`${LABEL[id]} does not answer as expected: ${one.firstFailure ?? 'no response within 1000 ms'}`);
    }
    const measure = async (id: TargetId, duration: number): Promise<Measured> => {
      const cpu0 = await engines[id].cpu();
      const window = await gen[id].run(concurrency, duration);
      const cpu1 = await engines[id].cpu();
      return { window, cpuUsPerReq: (cpu1 - cpu0) / Math.max(window.ok, 1) };
    };
    const pause = () => new Promise((r) => setTimeout(r, 150));

    ctx.log(`warm-up ${warmupMs} ms per Engine at concurrency ${concurrency}`);
    for (const id of ids) {
      await gen[id].run(concurrency, warmupMs);
      await pause();
    }
    const profileDir = process.env.BENCH_CPU_PROF;
    if (profileDir) {
      mkdirSync(profileDir, { recursive: true });
      await Promise.all(PROFILED.map((id) => engines[id].profileStart()));
    }
    const recordings = perfDir ? PROFILED.map((id) => recordWithPerf(engines[id].pid, join(perfDir, `engine-${id}.data`))) : [];
    const perRound: Record<TargetId, Measured>[] = [];
    for (let r = 0; r < rounds; r++) {
      const order = ids.map((_, i) => ids[(i + r) % ids.length]!);
      const row = {} as Record<TargetId, Measured>;
      for (const id of order) {
        row[id] = await measure(id, windowMs);
        await pause();
      }
      perRound.push(row);
      ctx.log(`round ${r + 1}/${rounds} [${order.join(' → ')}]  ` + ids.map((id) => `${id} p50 ${ms(row[id].window.p50)} p99 ${ms(row[id].window.p99)} ms ${int(row[id].window.rps)}/s ${int(row[id].cpuUsPerReq)} µs/req`).join(' | '));
    }

    if (perfDir) {
      await Promise.all(recordings.map((r) => r.stop()));
      for (const id of PROFILED) ctx.log(`perf: node test/bench/lib/perf-summary.ts ${join(perfDir, `engine-${id}.data`)} --requests ${perRound.reduce((sum, row) => sum + row[id].window.ok, 0)}`);
    }
    if (profileDir) {
      await Promise.all(PROFILED.map((id) => engines[id].profileStop(join(profileDir, `engine-${id}.cpuprofile`))));
      ctx.log(`profiles of the measured rounds written to ${profileDir}/engine-{${PROFILED.join(',')}}.cpuprofile`);
    }
    // Each traced Engine beside the untraced one, in simultaneous windows on the same core.
    const pairedCpu = Object.fromEntries(TRACED.map((id) => [id, [] as { off: number; on: number }[]])) as Record<Traced, { off: number; on: number }[]>;
    const half = Math.max(1, Math.floor(concurrency / 2));
    for (let r = 0; r < rounds; r++) {
      for (const id of TRACED) {
        const cpu0 = await Promise.all([engines.off.cpu(), engines[id].cpu()]);
        const [offWindow, onWindow] = await Promise.all([gen.off.run(half, windowMs), gen[id].run(half, windowMs)]);
        const cpu1 = await Promise.all([engines.off.cpu(), engines[id].cpu()]);
        pairedCpu[id].push({ off: (cpu1[0] - cpu0[0]) / Math.max(offWindow.ok, 1), on: (cpu1[1] - cpu0[1]) / Math.max(onWindow.ok, 1) });
        await pause();
      }
      ctx.log(`paired round ${r + 1}/${rounds}  ` + TRACED.map((id) => `${id} +${(pairedCpu[id][r]!.on - pairedCpu[id][r]!.off).toFixed(1)} µs/req`).join(' | '));
    }
    // Each traced Engine stops, flushing its last batch, before the collector's counts are read.
    const traced = ['on', 'json', 'sampled'] as const;
    const served = Object.fromEntries(await Promise.all(traced.map(async (id) => [id, await answeredCount(engines[id].ready.url)] as const))) as Record<(typeof traced)[number], number>;
    await Promise.all([...traced, 'none' as const].map((id) => engines[id].stop()));
    const counts = (await (await fetch(`${sink.ready.url}/count`)).json()) as Record<string, Tally | undefined>;
    const none: Tally = { spans: 0, exports: 0, bytes: 0 };
    const exported = Object.fromEntries(traced.map((id) => [id, { ...(counts[`/${id}`] ?? none), served: served[id] }])) as Exported;
    return report({ ids, perRound, pairedCpu, concurrency, rounds, windowMs, warmupMs, pinned, exported, inProcess });
  } finally {
    await Promise.allSettled(generators.map((g) => g.close()));
    await Promise.allSettled(children.reverse().map((c) => c.stop()));
    restore();
  }
}

/** The REST requests an Engine answered, warm-up included: `svc_requests_total{surface="rest"}` of its /metrics. */
async function answeredCount(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('svc_requests_total{') && line.includes('surface="rest"'))
    .reduce((sum, line) => sum + (Number(line.slice(line.lastIndexOf(' ') + 1)) || 0), 0);
}

function report(o: {
  ids: TargetId[];
  perRound: Record<TargetId, Measured>[];
  /** Per paired round, each side's CPU per request (µs): the untraced Engine and the traced one, simultaneously. */
  pairedCpu: Record<Traced, { off: number; on: number }[]>;
  concurrency: number;
  rounds: number;
  windowMs: number;
  warmupMs: number;
  pinned: boolean;
  exported: Exported;
  /** ./tracing-in-process.ts's tables. */
  inProcess: string;
}): BenchResult {
  const { ids, perRound, exported } = o;
  const med = (id: TargetId, f: (m: Measured) => number) => median(perRound.map((r) => f(r[id])));
  const paired = (id: TargetId) => ({
    tput: median(perRound.map((r) => r[id].window.rps / r.off.window.rps)),
    p50: median(perRound.map((r) => r[id].window.p50 - r.off.window.p50)),
    p99: median(perRound.map((r) => r[id].window.p99 - r.off.window.p99)),
    cpu: median(perRound.map((r) => r[id].cpuUsPerReq - r.off.cpuUsPerReq)),
  });
  const vs = { on: paired('on'), json: paired('json'), sampled: paired('sampled'), none: paired('none') };
  const met = vs.on.tput >= GOAL_THROUGHPUT_RATIO;
  const pairedShare = (id: Traced) => ratio(median(o.pairedCpu[id].map((p) => p.off / p.on)));
  const out: string[] = [];
  out.push(`### Goal: tracing on costs at most 10 % of REST throughput (concurrency ${o.concurrency}, medians of ${o.rounds} rounds of ${o.windowMs} ms)`, '');
  const row = (label: string, p: ReturnType<typeof paired>) => [label, ratio(p.tput), `${signedMs(p.p50)} ms`, `${signedMs(p.p99)} ms`, `${p.cpu.toFixed(1)} µs`, p.tput >= GOAL_THROUGHPUT_RATIO ? 'met' : '**missed**'];
  out.push(
    table(
      ['against tracing off', 'throughput ratio', 'p50 added', 'p99 added', 'Engine CPU added per request', 'goal (≥ 0.9×)'],
      [
        row('every trace exported, protobuf (the default)', vs.on),
        row('every trace exported, JSON', vs.json),
        row('1 trace in 10 sampled (protobuf)', vs.sampled),
        row('no trace sampled (the fixed cost)', vs.none),
      ],
      ['l', 'r', 'r', 'r', 'r', 'l'],
    ),
  );
  out.push('');
  const pairedRow = (label: string, id: Traced) => {
    const pairs = o.pairedCpu[id];
    const added = pairs.map((p) => p.on - p.off);
    const sorted = [...added].sort((a, b) => a - b);
    const share = median(pairs.map((p) => p.off / p.on));
    return [label, `${median(pairs.map((p) => p.off)).toFixed(1)} µs`, `${median(pairs.map((p) => p.on)).toFixed(1)} µs`, `${median(added) >= 0 ? '+' : ''}${median(added).toFixed(1)} µs`, `${sorted[0]!.toFixed(1)} … ${sorted.at(-1)!.toFixed(1)}`, ratio(share)];
  };
  out.push(
    `Paired on one core (each traced Engine beside the untraced one in the same ${o.windowMs} ms windows, half the load each, ${o.rounds} rounds; information: the goal's verdict stays with the throughput ratio above). ` +
      'CPU per request is what bounds this Engine\'s throughput on a core, so "untraced / traced CPU" is the throughput ratio the cost alone would give:',
    '',
  );
  out.push(
    table(
      ['against tracing off, simultaneously', 'untraced CPU per request', 'traced CPU per request', 'added (median of pairs)', 'range of pairs', 'untraced / traced CPU'],
      [pairedRow('every trace exported, protobuf', 'on'), pairedRow('every trace exported, JSON', 'json'), pairedRow('1 trace in 10 sampled', 'sampled'), pairedRow('no trace sampled', 'none')],
      ['l', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  out.push('');
  out.push(
    table(
      ['Engine', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'Engine CPU µs/req'],
      ids.map((id) => [LABEL[id], ...windowCells((f) => med(id, (m) => f(m.window))), int(med(id, (m) => m.cpuUsPerReq))]),
    ),
  );
  out.push('');
  const perRequest = (t: Exported[keyof Exported]) => (t.served > 0 ? (t.spans / t.served).toFixed(2) : 'n/a');
  const perSpan = (t: Exported[keyof Exported]) => (t.spans > 0 ? int(t.bytes / t.spans) : 'n/a');
  out.push(
    table(
      ['exported by', 'REST requests answered (warm-up included)', 'spans received', 'spans per request', 'export requests', 'bytes per span'],
      (['on', 'json', 'sampled'] as const).map((id) => [LABEL[id], int(exported[id].served), int(exported[id].spans), perRequest(exported[id]), int(exported[id].exports), perSpan(exported[id])]),
      ['l', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  out.push('');
  out.push(
    `Each REST request makes ${SPANS_PER_REQUEST} spans (the request, which is the call's span too, and the provider attempt), counted from the Engine's /metrics; ` +
      'fewer received per request means the batch queue (OTEL_BSP_MAX_QUEUE_SIZE, 2,048 by default) was full and spans were dropped. The collector counts spans in protobuf and JSON alike (test/fixtures/otlp-decode.ts).',
  );
  out.push('');
  out.push(
    `Where the cost is: tracing off, a REST execution takes ${int(med('off', (m) => m.cpuUsPerReq))} µs of the Engine's CPU, so 10 % is about ${(med('off', (m) => m.cpuUsPerReq) / 10).toFixed(0)} µs for its ${SPANS_PER_REQUEST} spans. ` +
      "With every trace exported, the Engine's tracer (src/telemetry/tracer.ts) builds each span, one object read as the SDK's ReadableSpan; as protobuf (the default) the Engine writes it the moment it ends and batches the bytes (src/telemetry/encoding-processor.ts), as JSON the SDK's batch processor keeps the spans and its serializer writes each batch, both on the event loop; " +
      'with 1 in 10 sampled, only a tenth is exported, but every request still gets its span context (random trace and span IDs, the sampler, the context switch, the traceparent sent to the provider). ' +
      'A profile (`BENCH_CPU_PROF=<dir> npm run bench -- tracing`) shows where the added CPU goes: serialising the batches, then creating and ending spans (IDs, clock reads, attribute checks) and the context switch each span makes active; the in-process tables below part the two. ' +
      'The Engine keeps every span out of the answer path (the batch is exported in the background, and a full queue drops spans rather than wait), so the cost shows as CPU per request and throughput, and in p99 when the exporter\'s turn on the event loop lands among answers.',
  );
  out.push('');
  out.push(o.inProcess, '');
  out.push('<details><summary>Per round (p50 / p99 ms, req/s)</summary>', '');
  const others = ids.filter((id) => id !== 'off');
  out.push(
    table(
      ['round', ...ids.map((id) => LABEL[id]), ...others.map((id) => `${id} / off req/s`)],
      perRound.map((r, i) => [String(i + 1), ...ids.map((id) => `${ms(r[id].window.p50)} / ${ms(r[id].window.p99)}, ${int(r[id].window.rps)}`), ...others.map((id) => ratio(r[id].window.rps / r.off.window.rps))]),
      ['r', ...ids.map(() => 'r' as const), ...others.map(() => 'r' as const)],
    ),
  );
  out.push('', '</details>', '');
  out.push(
    `Placement: ${o.pinned ? 'load generator, provider and collector pinned to CPU 0, the Engines to CPU 1 (one loaded at a time)' : 'unpinned'}; warm-up ${o.warmupMs} ms per Engine. ` +
      'Reproduce: `npm run bench -- tracing` (knobs: BENCH_ROUNDS, BENCH_WINDOW_MS, BENCH_WARMUP_MS, BENCH_CONCURRENCY, BENCH_PLACEMENT=pinned|shared).',
  );
  const failures = ids.map((id) => perRound.reduce((n, r) => n + r[id].window.non2xx + r[id].window.badBody + r[id].window.errors, 0));
  out.push('', `Requests failed or with a wrong body in the measured windows: ${ids.map((id, i) => `${id} ${failures[i]}`).join(', ')}.`);
  return {
    report: out.join('\n'),
    summary: {
      goal: `tracing on (every trace) ≥ ${GOAL_THROUGHPUT_RATIO}× req/s of off`,
      measured:
        `protobuf ${ratio(vs.on.tput)} (+${vs.on.cpu.toFixed(1)} µs/req), JSON ${ratio(vs.json.tput)} (+${vs.json.cpu.toFixed(1)} µs/req), p99 ${signedMs(vs.on.p99)} ms (1 in 10 sampled: ${ratio(vs.sampled.tput)}; none sampled: ${ratio(vs.none.tput)}); ` +
        `paired CPU: every trace ${pairedShare('on')}, 1 in 10 ${pairedShare('sampled')}, none ${pairedShare('none')}`,
      verdict: verdictOf([met]),
    },
  };
}
