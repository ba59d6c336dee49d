// Typed packages over gRPC:
// (1) publish plus download of an SDK with 50 GitHub operations — POST /v1/sdks/publish, then GET
//     of the npm tarball, the wheel, the sdist and the README (the first download of a version
//     builds them all); a fresh SDK app every round.
// (2) gRPC call latency against REST for the same operation (demo-crm.contacts/get through the
//     same Engine and provider), side by side: closed loop at concurrency 1 and 32, targets
//     alternating in rotated rounds; figures are medians across rounds.
//
// Knobs (environment): BENCH_PUBLISH_ROUNDS (7), BENCH_ROUNDS (6), BENCH_WINDOW_MS (2000),
// BENCH_WARMUP_MS (1500), BENCH_CONCURRENCY (32), BENCH_PLACEMENT (pinned | shared).
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { credentials, Metadata } from '@grpc/grpc-js';
import { EngineClient, type ExecuteRequest } from '../../generated/grpc/engine.ts';
import { canPin, startChild, twoCorePlacement, type ChildHandle } from './lib/child.ts';
import { LoadGenerator, type WindowResult } from './lib/load.ts';
import { int, median, ms, percentiles, ratio, signedMs, table } from './lib/stats.ts';
import { verdictOf } from './lib/summary.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';
import { CONTACT_BODY } from './servers/contact.ts';
import type { GrpcEngineReady } from './servers/grpc-engine.ts';

export const name = 'grpc';
export const title = 'Typed packages over gRPC: publish + download, and gRPC against REST';

const GOAL_PUBLISH_DOWNLOAD_MS = 2_000;
const KINDS = ['typescript', 'python-wheel', 'python-sdist', 'readme'] as const;

const envInt = (key: string, fallback: number) => {
  const v = Number(process.env[key]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const script = (file: string) => fileURLToPath(new URL(`./servers/${file}`, import.meta.url));

/** Closed-loop load on the Engine's gRPC Execute over one HTTP/2 channel, measured like LoadGenerator. */
class GrpcLoad {
  private readonly client: EngineClient;
  private readonly request: ExecuteRequest;
  private readonly metadata = new Metadata();
  private readonly expected: string;
  private latencies = new Float64Array(1 << 18);

  constructor(grpcUrl: string, token: string, request: ExecuteRequest, expectedDataJson: string) {
    // The channel options of the typed package's runtime (templates/sdk/typescript/runtime.js).
    this.client = new EngineClient(grpcUrl, credentials.createInsecure(), { 'grpc.max_receive_message_length': -1, 'grpc.enable_channelz': 0 });
    this.metadata.set('authorization', `Bearer ${token}`);
    this.request = request;
    this.expected = expectedDataJson;
  }

  private once(): Promise<{ ok: boolean; failure?: string }> {
    return new Promise((resolve) => {
      this.client.execute(this.request, this.metadata, (err, reply) => {
        if (err) resolve({ ok: false, failure: `gRPC ${err.code}: ${err.details}` });
        else if (!reply.ok || reply.status !== 200 || reply.dataJson !== this.expected) resolve({ ok: false, failure: `unexpected envelope: ${JSON.stringify(reply).slice(0, 300)}` });
        else resolve({ ok: true });
      });
    });
  }

  async run(concurrency: number, durationMs: number): Promise<WindowResult> {
    let n = 0;
    let badBody = 0;
    let firstFailure: string | undefined;
    const start = performance.now();
    const end = start + durationMs;
    const worker = async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const r = await this.once();
        const t1 = performance.now();
        if (t1 > end) break;
        if (!r.ok) {
          badBody++;
          firstFailure ??= r.failure;
          continue;
        }
        if (n === this.latencies.length) {
          const grown = new Float64Array(n * 2);
          grown.set(this.latencies);
          this.latencies = grown;
        }
        this.latencies[n++] = t1 - t0;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const elapsedMs = performance.now() - start;
    const [p50, p90, p99, max] = percentiles(this.latencies, n, [50, 90, 99, 100]);
    return { target: 'grpc', concurrency, elapsedMs, ok: n, non2xx: 0, badBody, errors: 0, firstFailure, rps: (n / elapsedMs) * 1000, p50: p50!, p90: p90!, p99: p99!, max: max! };
  }

  close() {
    this.client.close();
  }
}

type Measured = WindowResult & { engineCpuUs: number };
type Round = { c1: Record<'rest' | 'grpc', Measured>; cN: Record<'rest' | 'grpc', Measured> };

interface PublishRound {
  publishMs: number;
  downloadMs: number;
  totalMs: number;
  bytes: Record<(typeof KINDS)[number], number>;
}

async function publishAndDownload(engine: GrpcEngineReady, sdkName: string, operations: string[]): Promise<PublishRound> {
  const headers = { authorization: `Bearer ${engine.cliToken}`, 'content-type': 'application/json' };
  const t0 = performance.now();
  const res = await fetch(`${engine.url}/v1/sdks/publish`, { method: 'POST', headers, body: JSON.stringify({ name: sdkName, services: ['github=v1'], operations }) });
  const published = (await res.json()) as { version: string };
  if (res.status !== 200) throw new Error(`publish answered ${res.status}: ${JSON.stringify(published)}`);
  const t1 = performance.now();
  const files = await Promise.all(
    KINDS.map(async (kind) => {
      const r = await fetch(`${engine.url}/v1/sdks/${sdkName}/versions/${published.version}/packages/${kind}`, { headers });
      const bytes = Buffer.from(await r.arrayBuffer());
      if (r.status !== 200 || !bytes.length) throw new Error(`download ${kind} answered ${r.status}`);
      return [kind, bytes.length] as const;
    }),
  );
  const t2 = performance.now();
  return { publishMs: t1 - t0, downloadMs: t2 - t1, totalMs: t2 - t0, bytes: Object.fromEntries(files) as PublishRound['bytes'] };
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const publishRounds = envInt('BENCH_PUBLISH_ROUNDS', 7);
  const rounds = envInt('BENCH_ROUNDS', 6);
  const windowMs = envInt('BENCH_WINDOW_MS', 2_000);
  const warmupMs = envInt('BENCH_WARMUP_MS', 1_500);
  const concurrency = envInt('BENCH_CONCURRENCY', 32);
  const pinned = (process.env.BENCH_PLACEMENT ?? 'pinned') === 'pinned' && canPin();
  const key = `sk_bench_${randomBytes(12).toString('hex')}`;
  const children: ChildHandle<unknown>[] = [];
  const closers: (() => unknown)[] = [];
  const { edgeCpus, hopCpus, restore } = twoCorePlacement(pinned);
  try {
    const provider = await startChild<{ url: string }>('provider', script('provider.ts'), { cpus: edgeCpus, env: { BENCH_PROVIDER_KEY: key } });
    children.push(provider);
    const engineChild = await startChild<GrpcEngineReady>('engine', script('grpc-engine.ts'), {
      cpus: hopCpus,
      env: { BENCH_UPSTREAM_URL: provider.ready.url, BENCH_PROVIDER_KEY: key },
      readyTimeoutMs: 60_000,
    });
    children.push(engineChild);
    const engine = engineChild.ready;
    ctx.log(`Engine ${engine.url}, gRPC ${engine.grpcUrl} (${pinned ? 'pinned: load + provider on CPU 0, Engine on CPU 1' : 'unpinned'})`);

    // (1) publish + download, 50 GitHub operations.
    const { default: index } = await import('../../generated/catalog/github@v1.json', { with: { type: 'json' } });
    const operations = (index as { operations: { id: string; group: string[] }[] }).operations
      .filter((o) => o.group[0] === 'issues')
      .map((o) => o.id)
      .sort()
      .slice(0, 50)
      .map((id) => id.replace(/^github\./, 'github='));
    if (operations.length !== 50) throw new Error(`expected 50 GitHub issues operations, found ${operations.length}`);
    const cold = await publishAndDownload(engine, 'bench-gh-cold', operations);
    ctx.log(`publish + download (cold, first build in this Engine process): ${ms(cold.totalMs, 0)} ms`);
    const warm: PublishRound[] = [];
    for (let i = 0; i < publishRounds; i++) {
      const r = await publishAndDownload(engine, `bench-gh-${i}`, operations);
      warm.push(r);
      ctx.log(`publish + download round ${i + 1}/${publishRounds}: publish ${ms(r.publishMs, 0)} ms, download ${ms(r.downloadMs, 0)} ms, total ${ms(r.totalMs, 0)} ms`);
    }

    // (2) gRPC against REST, same operation.
    const expectedData = JSON.stringify(JSON.parse(CONTACT_BODY));
    const input = { contact_id: 'con_0001' };
    const rest = new LoadGenerator(
      {
        name: 'rest',
        origin: engine.url,
        method: 'POST',
        path: `/v1/apps/${engine.versionId}/executions`,
        headers: { authorization: `Bearer ${engine.token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ operation: 'demo-crm.contacts/get', input }),
        check: (_s, text) => text.startsWith('{"ok":true,"status":200,') && text.includes(expectedData),
      },
      concurrency,
    );
    closers.push(() => rest.close());
    const grpc = new GrpcLoad(engine.grpcUrl, engine.token, { versionId: engine.versionId, operation: 'demo-crm.contacts/get', inputJson: JSON.stringify(input) }, expectedData);
    closers.push(() => grpc.close());
    const gen = { rest, grpc };
    const ids = ['rest', 'grpc'] as const;
    for (const id of ids) {
      const one = await gen[id].run(1, 300);
      if (one.ok === 0 || one.badBody + one.non2xx + one.errors > 0) throw new Error(`${id} does not answer as expected: ${one.firstFailure ?? 'no response'}`);
    }
    const pause = () => new Promise((r) => setTimeout(r, 150));
    ctx.log(`warm-up ${warmupMs} ms per target`);
    for (const id of ids) {
      await gen[id].run(concurrency, warmupMs);
      await pause();
    }
    /** A window plus the Engine's CPU time per completed call (µs). */
    const measure = async (id: (typeof ids)[number], c: number, duration: number): Promise<Measured> => {
      const cpu0 = await engineChild.cpu();
      const window = await gen[id].run(c, duration);
      const cpu1 = await engineChild.cpu();
      return { ...window, engineCpuUs: (cpu1 - cpu0) / Math.max(window.ok, 1) };
    };
    const perRound: Round[] = [];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? (['grpc', 'rest'] as const) : (['rest', 'grpc'] as const);
      const c1 = {} as Record<(typeof ids)[number], Measured>;
      const cN = {} as Record<(typeof ids)[number], Measured>;
      for (const id of order) {
        c1[id] = await measure(id, 1, Math.round(windowMs / 2));
        await pause();
        cN[id] = await measure(id, concurrency, windowMs);
        await pause();
      }
      perRound.push({ c1, cN });
      ctx.log(
        `round ${r + 1}/${rounds} [${order.join(' → ')}] c=1: ${ids.map((id) => `${id} p50 ${ms(c1[id].p50, 3)} ms`).join(', ')} | c=${concurrency}: ${ids.map((id) => `${id} ${int(cN[id].rps)}/s p50 ${ms(cN[id].p50)} p99 ${ms(cN[id].p99)}`).join(', ')}`,
      );
    }
    return report({ cold, warm, perRound, concurrency, rounds, windowMs, publishRounds, pinned });
  } finally {
    for (const close of closers) await Promise.resolve(close()).catch(() => {});
    await Promise.allSettled(children.reverse().map((c) => c.stop()));
    restore();
  }
}

const spread = (values: number[]) => [median(values), Math.min(...values), Math.max(...values)].map((v) => ms(v, 0));

function report(o: {
  cold: PublishRound;
  warm: PublishRound[];
  perRound: Round[];
  concurrency: number;
  rounds: number;
  windowMs: number;
  publishRounds: number;
  pinned: boolean;
}): BenchResult {
  const out: string[] = [];
  const med = (f: (r: PublishRound) => number) => median(o.warm.map(f));
  const worst = Math.max(...o.warm.map((r) => r.totalMs));
  const met = { median: med((r) => r.totalMs) <= GOAL_PUBLISH_DOWNLOAD_MS, worst: worst <= GOAL_PUBLISH_DOWNLOAD_MS };
  const verdict = (met: boolean) => (met ? 'met' : '**missed**');
  out.push(
    'Publish plus download of an SDK with **50 GitHub operations** (the first 50 of `github=issues/*`, with their provider schemas: 74 component types), ' +
      'what `svc-cli sdk apply --download` does: `POST /v1/sdks/publish`, then the four files from `GET /v1/sdks/{name}/versions/{version}/packages/{kind}` in parallel. ' +
      'The first download of a version builds all four (TypeScript package with types by json-schema-to-typescript, Python wheel and sdist with TypedDicts, README) ' +
      'and the others share that build. Every round publishes a new SDK app, so every round builds from scratch; the first build of the Engine process ' +
      '(loading json-schema-to-typescript, JIT) is shown apart.',
  );
  out.push('');
  out.push(
    table(
      ['metric', 'measured', 'goal', 'verdict'],
      [
        [`publish + download, median of ${o.publishRounds} rounds`, `${ms(med((r) => r.totalMs), 0)} ms`, `≤ ${GOAL_PUBLISH_DOWNLOAD_MS} ms`, verdict(met.median)],
        ['publish + download, slowest round', `${ms(worst, 0)} ms`, `≤ ${GOAL_PUBLISH_DOWNLOAD_MS} ms`, verdict(met.worst)],
        ['publish + download, first build of the process (cold)', `${ms(o.cold.totalMs, 0)} ms`, '–', '–'],
      ],
      ['l', 'r', 'r', 'l'],
    ),
  );
  out.push('');
  out.push(
    table(
      ['part', 'median ms', 'min ms', 'max ms'],
      [
        ['publish', ...spread(o.warm.map((r) => r.publishMs))],
        ['download of the 4 files (includes the build)', ...spread(o.warm.map((r) => r.downloadMs))],
      ],
    ),
  );
  out.push('');
  out.push(`Sizes: ${KINDS.map((k) => `${k} ${int(o.warm[0]!.bytes[k] / 1024)} KiB`).join(', ')}.`);
  out.push('');

  const pairedDiff = (sel: 'c1' | 'cN', f: (w: WindowResult) => number) => median(o.perRound.map((r) => f(r[sel].grpc) - f(r[sel].rest)));
  const pairedRatio = (sel: 'c1' | 'cN') => median(o.perRound.map((r) => r[sel].grpc.rps / r[sel].rest.rps));
  const m = (sel: 'c1' | 'cN', id: 'rest' | 'grpc', f: (w: Measured) => number) => median(o.perRound.map((r) => f(r[sel][id])));
  out.push(
    `gRPC against REST for the same operation (\`demo-crm.contacts/get\`: token check, validation, secret injection, provider call, envelope, receipt), ` +
      `through the same Engine and fake provider (\`test/bench/servers/provider.ts\`, ${CONTACT_BODY.length}-byte JSON). ` +
      `REST: \`POST /v1/apps/{versionId}/executions\` on an undici Pool (one keep-alive connection per worker). gRPC: \`svc.engine.v1.Engine/Execute\` with the ts-proto stub the typed package uses, ` +
      `one HTTP/2 channel, input and data as JSON text. Latency is call start → full reply at the load generator; every reply is checked. ` +
      `${o.rounds} rounds, order alternating; each round: concurrency 1 for ${Math.round(o.windowMs / 2)} ms, then concurrency ${o.concurrency} for ${o.windowMs} ms, per target. Medians across rounds; differences paired within a round.`,
  );
  out.push('');
  out.push(
    o.pinned
      ? 'Placement (`taskset`): CPU 0 runs the load generator and the provider, CPU 1 the Engine.'
      : 'Placement: unpinned (BENCH_PLACEMENT=shared or no taskset).',
  );
  out.push('');
  const rows = (sel: 'c1' | 'cN') =>
    (['rest', 'grpc'] as const).map((id) => [
      id === 'rest' ? 'REST' : 'gRPC',
      sel === 'c1' ? '1' : String(o.concurrency),
      int(m(sel, id, (w) => w.rps)),
      ms(m(sel, id, (w) => w.p50), 3),
      ms(m(sel, id, (w) => w.p90), 3),
      ms(m(sel, id, (w) => w.p99), 3),
      int(m(sel, id, (w) => w.engineCpuUs)),
    ]);
  out.push(table(['surface', 'concurrency', 'calls/s', 'p50 ms', 'p90 ms', 'p99 ms', 'Engine CPU µs/call'], [...rows('c1'), ...rows('cN')]));
  out.push('');
  out.push(
    table(
      ['comparison', 'p50 difference ms', 'p99 difference ms', 'throughput ratio'],
      [
        ['gRPC − REST, concurrency 1', signedMs(pairedDiff('c1', (w) => w.p50), 3), signedMs(pairedDiff('c1', (w) => w.p99), 3), ratio(pairedRatio('c1'))],
        [`gRPC − REST, concurrency ${o.concurrency}`, signedMs(pairedDiff('cN', (w) => w.p50)), signedMs(pairedDiff('cN', (w) => w.p99)), ratio(pairedRatio('cN'))],
      ],
    ),
  );
  out.push('');
  out.push(
    '"Engine CPU µs/call" is the Engine process\'s user+system CPU time over the window divided by the calls it completed. The gRPC path runs the same ' +
      'execution as REST; the difference is the transport: @grpc/grpc-js on node:http2 (HPACK, per-call stream objects, trailers, protobuf framing) costs the ' +
      'Engine more per call than the keep-alive HTTP/1.1 fast path REST uses, and the gRPC client costs the load generator more too (it shares CPU 0 with the provider). ' +
      'What the typed package buys is types and one envelope for every outcome, not speed.',
  );
  const failures = o.perRound.flatMap((r) => [r.c1.rest, r.c1.grpc, r.cN.rest, r.cN.grpc]).filter((w) => w.badBody + w.non2xx + w.errors > 0);
  out.push('');
  out.push(failures.length ? `**${failures.length} window(s) had failed calls**: ${failures[0]!.firstFailure}` : 'Every call in every window returned the expected envelope.');
  out.push('');
  out.push('Reproduce: `npm run bench -- grpc` (knobs: BENCH_PUBLISH_ROUNDS, BENCH_ROUNDS, BENCH_WINDOW_MS, BENCH_WARMUP_MS, BENCH_CONCURRENCY, BENCH_PLACEMENT).');
  return {
    report: out.join('\n'),
    summary: {
      goal: `publish + download ≤ ${int(GOAL_PUBLISH_DOWNLOAD_MS)} ms (median, slowest)`,
      measured: `${ms(med((r) => r.totalMs), 0)}, ${ms(worst, 0)} ms; gRPC ${ratio(pairedRatio('cN'))} REST's calls/s at c=${o.concurrency}`,
      verdict: verdictOf(Object.values(met)),
    },
  };
}
