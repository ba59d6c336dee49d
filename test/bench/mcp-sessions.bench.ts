// MCP sessions under load (issue 30 §9): 200 official SDK clients (Client +
// StreamableHTTPClientTransport, each with its open GET stream) run one-call executes
// (`return await call("demo-crm.contacts/get", …)`, the fake provider a real node:http server in its
// own process) back to back for 60 s against an Engine in its own process. Side by side in one run,
// each on a fresh Engine:
//   1. shared: all 200 sessions on one MCP token, at the default SVC_MCP_SESSIONS_PER_TOKEN (256), as
//      a team or a fleet sharing one server URL would (this once had 96 % errors: the old cap of 16
//      closed the oldest live session at each initialize, and the sessions thrashed);
//   2. baseline: one token per session, the same 200 clients;
//   3. the old cap: one token with SVC_MCP_SESSIONS_PER_TOKEN=16, shorter: no session in use is
//      closed, so 16 clients work and the others wait as their 429's Retry-After says.
// Figures: executes/s, latency p50/p99 of each execute (SDK callTool, end to end), errors (a failed
// callTool, an isError answer, a transport error such as a closed session's stream), initializes
// refused with 429, executes refused with MCP_BUSY (a token runs SVC_EXECUTE_CONCURRENCY_PER_TOKEN
// at once; the client sends it again after retry_after_ms, as its recovery contract says), and
// VmRSS of the Engine with its sandbox workers at start and end.
//
// Knobs: BENCH_SESSIONS (200), BENCH_SESSIONS_SECONDS (60), BENCH_SESSIONS_CAP_SECONDS (20).
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startChild, type ChildHandle } from './lib/child.ts';
import { startExecEngine, treeRssOf, type ExecEngine } from './lib/exec-engine.ts';
import { int, percentiles, ratio, table } from './lib/stats.ts';
import { verdictOf } from './lib/summary.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';
import { CONTACT_BODY } from './servers/contact.ts';

export const name = 'mcp-sessions';
export const title = 'MCP sessions under load: 200 SDK clients on one token for 60 s';

const envInt = (key: string, fallback: number) => {
  const v = Number(process.env[key]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const MiB = 1024 * 1024;
const mib = (b: number) => (b / MiB).toFixed(1);
const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : 'n/a');
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
const script = (file: string) => fileURLToPath(new URL(`./servers/${file}`, import.meta.url));

const CODE = 'return await call("demo-crm.contacts/get", { contact_id: "con_1" })';
const CONTACT_ID = (JSON.parse(CONTACT_BODY) as { id: string }).id;

type ExecuteAnswer = { isError?: boolean; structuredContent?: { code?: string; retry_after_ms?: number; recovery?: { provider_execution?: string }; result?: { data?: { id?: string } } } };
const isBusy = (r: ExecuteAnswer) => r.isError === true && r.structuredContent?.code === 'MCP_BUSY' && r.structuredContent.recovery?.provider_execution === 'not_started';

interface Phase {
  label: string;
  sessions: number;
  seconds: number;
  executes: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  firstError: string | undefined;
  /** Clients that had a session at some point in the window. */
  connected: number;
  refused: number;
  /** Executes answered MCP_BUSY and sent again. */
  busy: number;
  rssStart: number;
  rssEnd: number;
}

/** `sessions` SDK clients on `tokens[i % tokens.length]`, each running executes until the window ends. */
async function soak(ctx: BenchContext, label: string, engine: ExecEngine, tokens: string[], sessions: number, seconds: number): Promise<Phase> {
  const latencies: number[] = [];
  const errors: string[] = [];
  let refused = 0;
  let busy = 0;
  let connected = 0;
  const rssStart = treeRssOf(engine.pid);
  const start = performance.now();
  const end = start + seconds * 1000;
  const client = async (n: number) => {
    const token = tokens[n % tokens.length]!;
    let retryAfterS = 0;
    const fetchKeepingRetryAfter = async (input: string | URL, init?: RequestInit) => {
      const res = await fetch(input, init);
      if (res.status === 429) {
        refused++;
        retryAfterS = Number(res.headers.get('retry-after'));
      }
      return res;
    };
    let sdk: Client | undefined;
    let transport: StreamableHTTPClientTransport | undefined;
    while (!sdk && performance.now() < end) {
      retryAfterS = 0;
      transport = new StreamableHTTPClientTransport(new URL(engine.ready.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: fetchKeepingRetryAfter });
      const c = new Client({ name: `soak-${n}`, version: '1.0.0' });
      try {
        await c.connect(transport);
        sdk = c;
      } catch (err) {
        if (!(retryAfterS >= 1)) {
          errors.push(`initialize: ${(err as Error).message.slice(0, 300)}`);
          return;
        }
        await sleep(Math.min(retryAfterS * 1000, Math.max(0, end - performance.now())));
      }
    }
    if (!sdk || !transport) return;
    connected++;
    transport.onerror = (err) => errors.push(`transport: ${err.message.slice(0, 300)}`);
    while (performance.now() < end) {
      const t = performance.now();
      try {
        let result: ExecuteAnswer;
        // MCP_BUSY: nothing ran, send it again after the delay (its recovery contract).
        while (isBusy((result = (await sdk.callTool({ name: 'execute', arguments: { code: CODE } })) as ExecuteAnswer)) && performance.now() < end) {
          busy++;
          await sleep(Number(result.structuredContent?.retry_after_ms ?? 1000));
        }
        const done = performance.now();
        if (done > end) break;
        if (result.isError || result.structuredContent?.result?.data?.id !== CONTACT_ID) errors.push(`execute: ${JSON.stringify(result).slice(0, 300)}`);
        else latencies.push(done - t);
      } catch (err) {
        errors.push(`execute: ${(err as Error).message.slice(0, 300)}`);
      }
    }
    transport.onerror = undefined;
    await transport.terminateSession().catch(() => undefined);
    await sdk.close().catch(() => undefined);
  };
  const progress = setInterval(() => ctx.log(`${label}: ${int(latencies.length)} executes, ${errors.length} errors, ${refused} refused, ${busy} busy, ${connected} connected`), 10_000);
  try {
    await Promise.all(Array.from({ length: sessions }, (_, n) => client(n)));
  } finally {
    clearInterval(progress);
  }
  const rssEnd = treeRssOf(engine.pid);
  const [p50, p99] = percentiles(Float64Array.from(latencies), latencies.length, [50, 99]) as [number, number];
  return { label, sessions, seconds, executes: latencies.length, perSecond: latencies.length / seconds, p50, p99, errors: errors.length, firstError: errors[0], connected, refused, busy, rssStart, rssEnd };
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const sessions = envInt('BENCH_SESSIONS', 200);
  const seconds = envInt('BENCH_SESSIONS_SECONDS', 60);
  const capSeconds = envInt('BENCH_SESSIONS_CAP_SECONDS', 20);
  const key = `sk_bench_${randomBytes(12).toString('hex')}`;
  const provider: ChildHandle<{ url: string }> = await startChild('provider', script('provider.ts'), { env: { BENCH_PROVIDER_KEY: key } });
  const phases: Phase[] = [];
  try {
    const phase = async (label: string, options: { settings?: Record<string, string>; perSession?: boolean }, secs: number) => {
      const engine = await startExecEngine({ upstream: provider.ready.url, key, settings: options.settings, mcpTokens: options.perSession ? sessions : 0, readyTimeoutMs: 120_000 });
      try {
        ctx.log(`${label}: ${sessions} SDK clients for ${secs} s on ${engine.ready.url}`);
        phases.push(await soak(ctx, label, engine, options.perSession ? engine.ready.mcpTokens : [engine.ready.mcpToken], sessions, secs));
      } finally {
        await engine.stop();
      }
    };
    await phase('one token, default cap (256)', {}, seconds);
    await phase('one token per session (baseline)', { perSession: true }, seconds);
    await phase('one token, SVC_MCP_SESSIONS_PER_TOKEN=16', { settings: { SVC_MCP_SESSIONS_PER_TOKEN: '16' } }, capSeconds);
  } finally {
    await provider.stop();
  }
  return report(phases, sessions, seconds);
}

function report(phases: Phase[], sessions: number, seconds: number): BenchResult {
  const [shared, baseline, capped] = phases as [Phase, Phase, Phase];
  const goals = [shared.errors === 0, shared.connected === sessions];
  const rows = phases.map((p) => [
    p.label,
    `${p.seconds} s`,
    `${int(p.connected)} of ${int(p.sessions)}`,
    int(p.executes),
    p.perSecond.toFixed(1),
    ms(p.p50),
    ms(p.p99),
    int(p.errors),
    int(p.refused),
    int(p.busy),
    `${mib(p.rssStart)} → ${mib(p.rssEnd)}`,
  ]);
  const body = [
    `${sessions} official MCP SDK clients (\`Client\` + \`StreamableHTTPClientTransport\`, each with its GET stream open) in the benchmark process run one-call executes back to back (\`${CODE}\`) against an Engine in its own process (\`test/bench/lib/exec-engine.ts\`), the fake provider a node:http server in a third. Each phase starts a fresh Engine. A client whose initialize is refused with 429 waits as its \`Retry-After\` says and initializes again, and one whose execute is answered \`MCP_BUSY\` (its token already runs \`SVC_EXECUTE_CONCURRENCY_PER_TOKEN\`, default 2, and the wait for a place passed \`SVC_EXECUTE_QUEUE_WAIT_MS\`; nothing ran) sends it again after \`retry_after_ms\`: neither is an error, both are counted, and an execute's latency runs from its first attempt. Errors are failed \`callTool\`s, \`isError\` answers and transport errors (a closed session's stream). Latency is each \`callTool\` end to end; RSS is VmRSS of the Engine with its sandbox workers, at the start and the end of the window. All on the same 2 cores.`,
    '',
    table(['phase', 'window', 'sessions that ran', 'executes', 'executes/s', 'p50 ms', 'p99 ms', 'errors', '429 waits', 'MCP_BUSY retries', 'RSS MiB start → end'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']),
    '',
    `One token against one token per session: ${ratio(shared.perSecond / baseline.perSecond)} the executes/s, p99 ${ratio(shared.p99 / baseline.p99)}.`,
    `With the cap at 16 (the old hard-coded value) no session in use is closed: ${int(capped.connected)} clients ran, the others waited (${int(capped.refused)} initializes answered 429), with ${int(capped.errors)} errors; before, each initialize past 16 closed the oldest live session and the sessions thrashed.`,
    ...(phases.some((p) => p.firstError) ? ['', 'First error of each phase:', '', ...phases.filter((p) => p.firstError).map((p) => `- ${p.label}: \`${p.firstError!.replace(/`/g, "'")}\``)] : []),
    '',
    'Reproduce: `npm run bench -- mcp-sessions` (knobs: BENCH_SESSIONS, BENCH_SESSIONS_SECONDS, BENCH_SESSIONS_CAP_SECONDS).',
  ].join('\n');
  return {
    report: body,
    summary: {
      goal: `${sessions} sessions on one token for ${seconds} s: 0 errors, all ran`,
      measured: `${int(shared.errors)} errors, ${int(shared.connected)} ran (${int(shared.busy)} MCP_BUSY retried); ${shared.perSecond.toFixed(0)}/s (${ratio(shared.perSecond / baseline.perSecond)} token-per-session), p50/p99 ${ms(shared.p50)}/${ms(shared.p99)} ms; RSS ${mib(shared.rssStart)} → ${mib(shared.rssEnd)} MiB`,
      verdict: verdictOf(goals),
    },
  };
}
