// Result retention (issue 6, "Performance"). Measured side by side in one run:
//   1. session.page over a 1 MiB snapshot at a 16 KiB output budget, in process: `pageOf` on the
//      parsed value a MemorySessionStateStore hands out, every page of the collection in
//      turn, next to JSON.stringify of the same page (the floor: any page must be serialised once);
//      a realistic array of contact objects, the same with an escape/Unicode-heavy text, and a
//      `fields` projection;
//   2. the same pages end to end: a real Engine in its own process stores the 1 MiB result of an
//      execute (MCP_RESULT_STORED), then every page is read by `execute` → `session.page`,
//      following next_request and nextOffset, alternating with a trivial execute (`return 1`)
//      on the same session as the baseline;
//   3. memory: a child process fills 200 sessions of a MemorySessionStateStore with their full
//      4 MiB quota (16 × 256 KiB), then keeps storing past the quota (the 17th evicts by count;
//      1 MiB snapshots evict by bytes) and reports its VmRSS against the 800 MiB retained; a second
//      child does the same with text V8 must keep as UTF-16.
//
// Knobs: BENCH_RET_PASSES (12 passes over every page in process), BENCH_RET_E2E_PASSES (2),
// BENCH_RET_SESSIONS (200), BENCH_RET_TWO_BYTE_SESSIONS (50).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MemorySessionStateStore, pageOf, SESSION_BYTES_LIMIT, SNAPSHOT_LIMIT, storedEnvelope, type Page, type PageOptions } from '../../src/retention/index.ts';
import { McpHttp, startExecEngine, type ExecEngine } from './lib/exec-engine.ts';
import { machineCpu } from './lib/sysload.ts';
import { int, median, percentiles, ratio, table } from './lib/stats.ts';
import { verdictOf } from './lib/summary.ts';
import type { BenchContext, BenchResult } from './lib/types.ts';

export const name = 'retention';
export const title = 'Result retention: session.page over a 1 MiB snapshot, memory under 200 full sessions';

const GOALS = { pageP50Ms: 5, growthBeyondQuota: 0.05 };
const BUDGET = 16 * 1024;
const SNAPSHOT_BYTES = 1024 * 1024;

const envInt = (key: string, fallback: number) => {
  const v = Number(process.env[key]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const MiB = 1024 * 1024;
const mib = (b: number) => (b / MiB).toFixed(1);
const ms3 = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : 'n/a');
const ms2 = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a');
const verdict = (met: boolean) => (met ? 'met' : '**missed**');
const p = (xs: number[], q: number) => percentiles(Float64Array.from(xs), xs.length, [q])[0]!;

/**
 * The 1 MiB result: a JS function source, evaluated here for the in-process figures and sent as
 * the execute script for the end-to-end ones, so both see the same rows. Seeded PRNG; rows are
 * added while the JSON array stays within `limit` UTF-8 bytes. 'escapes' uses names and notes
 * full of quotes, backslashes, control characters, U+2028, emoji and non-Latin scripts.
 */
const GEN_SOURCE = String.raw`((kind, limit) => {
  let a = 0x9e3779b9;
  const rnd = () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const esc = kind === 'escapes';
  const first = esc ? ['Zoë', 'Søren', 'Łukasz', 'José', 'François', 'Дмитрий', 'さくら', '李', 'Ōta', 'Nguyễn'] : ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Frances', 'Niklaus'];
  const last = esc ? ['Müller', 'Ångström', 'Ñúñez', 'Øster', 'Çelik', 'Иванов', '山田', '王', 'Şahin', 'Trần'] : ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Allen', 'Wirth'];
  const companies = esc ? ['"Acme" \\ Co', 'Société Générale', 'Ünïcödé GmbH', '株式会社テスト', 'Tab\tCorp'] : ['Analytical Engines', 'Initech', 'Globex', 'Umbrella', 'Hooli'];
  const words = ['renewal', 'pricing', 'meeting', 'follow up', 'contract', 'invoice', 'support', 'upgrade', 'trial', 'feedback', 'quarterly', 'review'];
  const odd = ['said "hi"', 'C:\\path\\to\\file', 'line\nbreak', 'tab\there', 'ctrl\u0001char', '😀 emoji', '€ euro', '中文字符', "it's \"quoted\"", '\u2028sep', '</script>', '\\u0000 literally'];
  const utf8 = (s) => { let n = 0; for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); if (c < 0x80) n += 1; else if (c < 0x800) n += 2; else if (c >= 0xd800 && c <= 0xdbff) { n += 4; i++; } else n += 3; } return n; };
  const rows = [];
  let size = 2;
  for (let i = 0; ; i++) {
    const f = pick(first), l = pick(last);
    const note = Array.from({ length: 6 + Math.floor(rnd() * 14) }, () => (esc && rnd() < 0.5 ? pick(odd) : pick(words))).join(' ');
    const row = {
      id: 'con_' + String(i).padStart(6, '0'),
      object: 'contact',
      name: f + ' ' + l,
      email: 'contact' + i + '@example.com',
      phone: '+44 20 7946 ' + String(Math.floor(rnd() * 10000)).padStart(4, '0'),
      company: { id: 'org_' + String(Math.floor(rnd() * 500)).padStart(4, '0'), name: pick(companies) },
      tags: [pick(['customer', 'lead', 'partner']), pick(['emea', 'amer', 'apac'])],
      lifecycle_stage: pick(['lead', 'opportunity', 'customer', 'churned']),
      lead_score: Math.floor(rnd() * 100),
      do_not_contact: rnd() < 0.1,
      notes: note,
      created_at: new Date(Date.UTC(2024, 0, 1) + i * 3600000).toISOString(),
    };
    const bytes = utf8(JSON.stringify(row)) + (rows.length ? 1 : 0);
    if (size + bytes > limit) break;
    rows.push(row);
    size += bytes;
  }
  return rows;
})`;

type Kind = 'plain' | 'escapes';
interface Case {
  id: string;
  label: string;
  kind: Kind;
  options: Omit<PageOptions, 'offset'>;
}
const CASES: Case[] = [
  { id: 'plain', label: 'contacts, whole rows', kind: 'plain', options: { path: '' } },
  { id: 'escapes', label: 'escape/Unicode-heavy contacts, whole rows', kind: 'escapes', options: { path: '' } },
  { id: 'fields', label: 'contacts, fields: id, name, email', kind: 'plain', options: { path: '', fields: ['id', 'name', 'email'] } },
];

// ---------------------------------------------------------------------------------------------
// 1. In process

interface InProcess {
  c: Case;
  rows: number;
  bytes: number;
  pages: number;
  rowsPerPage: number;
  pageBytes: number;
  page: number[];
  floor: number[];
  /** getSnapshot when the parsed-snapshot cache has dropped it (it parses the text again). */
  coldRead: number[];
  /** storedEnvelope over the value (discovery, preview, first-page check) for a 16 KiB budget. */
  envelope: number[];
}

async function inProcess(ctx: BenchContext, c: Case, passes: number): Promise<InProcess> {
  const gen = (0, eval)(GEN_SOURCE) as (kind: Kind, limit: number) => unknown[];
  const json = JSON.stringify(gen(c.kind, SNAPSHOT_BYTES));
  const store = new MemorySessionStateStore();
  try {
    const { ref, bytes } = await store.putSnapshot('bench', json);
    const value = (await store.getSnapshot('bench', ref)) as unknown[];
    const out: InProcess = { c, rows: value.length, bytes, pages: 0, rowsPerPage: 0, pageBytes: 0, page: [], floor: [], coldRead: [], envelope: [] };
    const walk = (timed: boolean) => {
      let offset = 0;
      let pages = 0;
      let maxBytes = 0;
      for (;;) {
        const t0 = performance.now();
        const page: Page = pageOf(value, { ...c.options, offset }, BUDGET);
        const t1 = performance.now();
        const text = JSON.stringify({ result: page });
        const t2 = performance.now();
        if (timed) {
          out.page.push(t1 - t0);
          out.floor.push(t2 - t1);
        }
        pages++;
        maxBytes = Math.max(maxBytes, Buffer.byteLength(text));
        if (page.nextOffset === null) break;
        offset = page.nextOffset;
      }
      return { pages, maxBytes };
    };
    walk(false);
    walk(false);
    for (let i = 0; i < passes; i++) {
      const w = walk(true);
      out.pages = w.pages;
      out.pageBytes = w.maxBytes;
    }
    out.rowsPerPage = out.rows / out.pages;
    // Cold reads: store and read 17 other 1 MiB snapshots, which pushes this one out of the
    // store's parsed-snapshot cache (LRU, a few MiB of snapshots), so the next read parses it again.
    for (let i = 0; i < 8; i++) {
      for (let k = 0; k < 17; k++) {
        const other = await store.putSnapshot(`evict-${i}-${k}`, json);
        await store.getSnapshot(`evict-${i}-${k}`, other.ref);
      }
      const t0 = performance.now();
      await store.getSnapshot('bench', ref);
      out.coldRead.push(performance.now() - t0);
      for (let k = 0; k < 17; k++) await store.release(`evict-${i}-${k}`);
    }
    for (let i = 0; i < 12; i++) {
      const t0 = performance.now();
      storedEnvelope({ ref, expiresAt: Date.now() + 300_000, bytes, outputBudgetBytes: BUDGET, value });
      if (i >= 2) out.envelope.push(performance.now() - t0);
    }
    ctx.log(`in process ${c.id}: ${out.rows} rows, ${out.pages} pages, pageOf p50 ${ms3(p(out.page, 50))} ms, JSON.stringify p50 ${ms3(p(out.floor, 50))} ms`);
    return out;
  } finally {
    await store.close();
  }
}

/**
 * Many sessions paging at once: `sessions` sessions each hold their own 1 MiB snapshot and read
 * one page in turn (getSnapshot + pageOf, as the Engine's session.page does), `pagesEach` pages
 * each. With few snapshots every read hits the store's parsed-snapshot cache; with more than it
 * holds, reads in turn push each other out and every page parses its snapshot again.
 */
async function roundRobin(sessions: number, pagesEach: number): Promise<{ sessions: number; reads: number[] }> {
  const gen = (0, eval)(GEN_SOURCE) as (kind: Kind, limit: number) => unknown[];
  const json = JSON.stringify(gen('plain', SNAPSHOT_BYTES));
  const store = new MemorySessionStateStore();
  try {
    const refs: string[] = [];
    // A fresh copy of the text per session, as each would hold its own result.
    for (let i = 0; i < sessions; i++) refs.push((await store.putSnapshot(`rr-${i}`, (JSON.parse(JSON.stringify({ json })) as { json: string }).json)).ref);
    const offsets = new Array<number>(sessions).fill(0);
    const reads: number[] = [];
    for (let round = -1; round < pagesEach; round++) {
      for (let i = 0; i < sessions; i++) {
        const t0 = performance.now();
        const page = pageOf(await store.getSnapshot(`rr-${i}`, refs[i]!), { path: '', offset: offsets[i]! }, BUDGET);
        if (round >= 0) reads.push(performance.now() - t0);
        offsets[i] = page.nextOffset ?? 0;
      }
    }
    return { sessions, reads };
  } finally {
    await store.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. End to end through execute

interface EndToEnd {
  c: Case;
  store: number;
  storedBytes: number;
  pages: number;
  page: number[];
  noop: number[];
  /** Page answers whose `returned` differs from pageOf's in process (must be 0). */
  mismatches: number;
  failures: string[];
}

async function endToEnd(ctx: BenchContext, engine: ExecEngine, c: Case, passes: number, expected: Map<number, number>): Promise<EndToEnd> {
  const mcp = new McpHttp(engine.ready.mcpUrl, engine.ready.mcpToken, 1);
  try {
    const session = await mcp.open();
    for (let i = 0; i < 20; i++) await mcp.execute(session, { code: 'return 1' });
    const t0 = performance.now();
    const stored = await mcp.execute(session, { code: `return (${GEN_SOURCE})(${JSON.stringify(c.kind)}, ${SNAPSHOT_BYTES});`, outputBudgetBytes: BUDGET });
    const storeMs = performance.now() - t0;
    const env = stored.structured;
    if (stored.isError || env?.code !== 'MCP_RESULT_STORED') throw new Error(`storing the 1 MiB result answered: ${stored.text.slice(0, 400)}`);
    const ref = env.result_ref as string;
    const firstCode = c.options.fields
      ? `return await session.page(${JSON.stringify(ref)}, ${JSON.stringify({ ...c.options, offset: 0 })});`
      : (env.next_request.arguments.code as string);
    const out: EndToEnd = { c, store: storeMs, storedBytes: env.byte_size ?? env.bytes ?? NaN, pages: 0, page: [], noop: [], mismatches: 0, failures: [] };
    for (let pass = -1; pass < passes; pass++) {
      let code = firstCode;
      let pages = 0;
      for (;;) {
        const a = performance.now();
        const r = await mcp.execute(session, { code, outputBudgetBytes: BUDGET });
        const b = performance.now();
        const n = await mcp.execute(session, { code: 'return 1', outputBudgetBytes: BUDGET });
        const d = performance.now();
        if (r.isError || !r.structured?.result) {
          out.failures.push(r.text.slice(0, 300));
          break;
        }
        if (n.isError) out.failures.push(n.text.slice(0, 300));
        const page = r.structured.result as Page;
        if (pass >= 0) {
          out.page.push(b - a);
          out.noop.push(d - b);
          if (expected.get(page.offset) !== page.returned) out.mismatches++;
        }
        pages++;
        if (page.nextOffset === null) break;
        code = code.replace(/("?offset"?\s*:\s*)\d+/, `$1${page.nextOffset}`);
      }
      out.pages = pages;
    }
    ctx.log(`end to end ${c.id}: ${out.pages} pages, execute → session.page p50 ${ms2(p(out.page, 50))} ms, return 1 p50 ${ms2(p(out.noop, 50))} ms`);
    await mcp.close(session);
    return out;
  } finally {
    await mcp.destroy();
  }
}

/** offset → rows returned, from pageOf in process (to check the end-to-end pages). */
function expectedPages(c: Case): Map<number, number> {
  const gen = (0, eval)(GEN_SOURCE) as (kind: Kind, limit: number) => unknown[];
  const value = JSON.parse(JSON.stringify(gen(c.kind, SNAPSHOT_BYTES))) as unknown[];
  const out = new Map<number, number>();
  for (let offset = 0; ; ) {
    const page = pageOf(value, { ...c.options, offset }, BUDGET);
    out.set(offset, page.returned);
    if (page.nextOffset === null) break;
    offset = page.nextOffset;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// 3. Memory in a child process

interface Stage {
  stage: string;
  before: { rss: number; hwm: number; heapUsed: number };
  after: { rss: number; hwm: number; heapUsed: number; heapTotal: number; external: number };
  retained: number;
  snapshots: number;
  evicted?: number;
  ms?: number;
}

function memoryChild(ctx: BenchContext, sessions: number, variant: 'latin1' | 'two-byte', timeoutMs: number): Promise<Stage[]> {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--expose-gc', fileURLToPath(new URL('./lib/retention-memory-child.ts', import.meta.url)), String(sessions), variant], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stages: Stage[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      const s = JSON.parse(line) as Stage;
      stages.push(s);
      ctx.log(`memory (${variant}, ${sessions} sessions) ${s.stage}: RSS ${mib(s.after.rss)} MiB after GC (${mib(s.before.rss)} before), retained ${mib(s.retained)} MiB`);
    }
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the memory child (${variant}) did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stages);
      else reject(new Error(`the memory child (${variant}) exited with code ${code}, signal ${signal}`));
    });
  });
}

// ---------------------------------------------------------------------------------------------

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const passes = envInt('BENCH_RET_PASSES', 12);
  const e2ePasses = envInt('BENCH_RET_E2E_PASSES', 2);
  const sessions = envInt('BENCH_RET_SESSIONS', 200);
  const twoByteSessions = envInt('BENCH_RET_TWO_BYTE_SESSIONS', 50);
  const sys0 = machineCpu();
  const t0 = performance.now();

  const inproc: InProcess[] = [];
  for (const c of CASES) inproc.push(await inProcess(ctx, c, passes));
  const pressure = [await roundRobin(4, 30), await roundRobin(24, 10)];
  for (const r of pressure) ctx.log(`round robin over ${r.sessions} sessions: getSnapshot + pageOf p50 ${ms3(p(r.reads, 50))} ms`);

  let engine: ExecEngine | undefined;
  const e2e: EndToEnd[] = [];
  try {
    engine = await startExecEngine({});
    for (const c of CASES) e2e.push(await endToEnd(ctx, engine, c, e2ePasses, expectedPages(c)));
  } finally {
    await engine?.stop();
  }

  const latin1 = await memoryChild(ctx, sessions, 'latin1', 150_000);
  const twoByte = await memoryChild(ctx, twoByteSessions, 'two-byte', 90_000);
  const sys1 = machineCpu();
  const busyCores = (sys1.busyUs - sys0.busyUs) / 1000 / (performance.now() - t0);
  return report({ inproc, pressure, e2e, latin1, twoByte, sessions, twoByteSessions, passes, e2ePasses, busyCores });
}

function report(o: { inproc: InProcess[]; pressure: { sessions: number; reads: number[] }[]; e2e: EndToEnd[]; latin1: Stage[]; twoByte: Stage[]; sessions: number; twoByteSessions: number; passes: number; e2ePasses: number; busyCores: number }): BenchResult {
  const out: string[] = [];
  const byId = (id: string) => o.inproc.find((r) => r.c.id === id)!;
  const e2eOf = (id: string) => o.e2e.find((r) => r.c.id === id)!;
  const pairedAdded = (r: EndToEnd) => median(r.page.map((v, i) => v - r.noop[i]!));
  const failures = o.e2e.flatMap((r) => r.failures);
  const mismatches = o.e2e.reduce((s, r) => s + r.mismatches, 0);

  const full = (stages: Stage[]) => stages.find((s) => s.stage.startsWith('full quota'))!;
  const empty = (stages: Stage[]) => stages.find((s) => s.stage === 'empty')!;
  const beyond = (stages: Stage[]) => stages.filter((s) => s.stage.startsWith('+'));
  const growth = (stages: Stage[]) => Math.max(...beyond(stages).map((s) => s.after.rss)) / full(stages).after.rss - 1;
  const theoretical = o.sessions * SESSION_BYTES_LIMIT;

  out.push(
    `Snapshots are the JSON text of a ${int(SNAPSHOT_BYTES)}-byte (1 MiB) result: an array of contact objects (${int(byId('plain').rows)} rows, about ${int(byId('plain').bytes / byId('plain').rows)} bytes each), ` +
      `and the same shape with escape/Unicode-heavy text (${int(byId('escapes').rows)} rows: quotes, backslashes, control characters, U+2028, emoji, Cyrillic, CJK). ` +
      `Output budget ${int(BUDGET)} bytes (16 KiB). The generator is one JS function used in process and, as the script, inside the Engine's isolate.`,
  );
  out.push('');
  if (failures.length || mismatches) out.push(`**End-to-end problems: ${failures.length} failed executes, ${mismatches} pages differing from pageOf in process** (first: \`${(failures[0] ?? '').replace(/[|`\n]/g, ' ').slice(0, 160)}\`).`, '');

  out.push('### Goals', '');
  const rows: string[][] = [];
  const pageP50s: number[] = [];
  const pageRow = (label: string, p50: number, text: string) => {
    pageP50s.push(p50);
    rows.push([label, `${text} ms`, `≤ ${GOALS.pageP50Ms} ms`, verdict(p50 <= GOALS.pageP50Ms)]);
  };
  for (const r of o.inproc) pageRow(`session.page (\`pageOf\`, in process), p50 per page — ${r.c.label}`, p(r.page, 50), ms3(p(r.page, 50)));
  for (const r of o.pressure) pageRow(`session.page in process, ${r.sessions} sessions paging 1 MiB snapshots in turn (getSnapshot + pageOf), p50`, p(r.reads, 50), ms3(p(r.reads, 50)));
  for (const r of o.e2e) pageRow(`session.page end to end: execute → session.page minus execute \`return 1\` (paired), p50 — ${r.c.label}`, pairedAdded(r), ms2(pairedAdded(r)));
  const grown = growth(o.latin1);
  const grownText = `${grown >= 0 ? '+' : ''}${(grown * 100).toFixed(1)}%`;
  rows.push([
    `RSS growth when ${o.sessions} full sessions keep storing past the quota (largest after-GC RSS past the quota vs at full quota)`,
    grownText,
    `bounded: ≤ +${GOALS.growthBeyondQuota * 100}%`,
    verdict(grown <= GOALS.growthBeyondQuota),
  ]);
  out.push(table(['metric', 'measured', 'goal', 'verdict'], rows, ['l', 'r', 'r', 'l']));
  out.push('');

  // 1.
  out.push(`### 1. session.page in process (every page of the collection, ${o.passes} passes)`, '');
  out.push(
    '`pageOf` (src/retention/page.ts) on the parsed value `MemorySessionStateStore.getSnapshot` returns — exactly what the Engine pages — timed per page; ' +
      'the baseline is `JSON.stringify({ result: page })` of the page it produced, timed right after it: the floor, since any page must be serialised at least once.',
  );
  out.push('');
  out.push(
    table(
      ['collection', 'pages', 'rows / page', 'largest page bytes', 'pageOf p50 ms', 'p99 ms', 'JSON.stringify p50 ms (floor)', 'p99 ms', 'pageOf / floor (p50)'],
      o.inproc.map((r) => [
        r.c.label,
        int(r.pages),
        r.rowsPerPage.toFixed(1),
        int(r.pageBytes),
        ms3(p(r.page, 50)),
        ms3(p(r.page, 99)),
        ms3(p(r.floor, 50)),
        ms3(p(r.floor, 99)),
        ratio(p(r.page, 50) / p(r.floor, 50)),
      ]),
    ),
  );
  out.push('');
  out.push(
    table(
      ['collection', 'snapshot bytes', 'cold read p50 ms (snapshot no longer in the parsed cache)', 'MCP_RESULT_STORED envelope p50 ms (discovery, preview, first-page check)'],
      o.inproc.filter((r) => r.c.id !== 'fields').map((r) => [r.c.label, int(r.bytes), ms2(p(r.coldRead, 50)), ms2(p(r.envelope, 50))]),
    ),
  );
  out.push('');
  out.push(
    'A page read normally hits the store\'s cache of parsed snapshots (LRU, bounded in bytes); a "cold read" is the first read of a snapshot after 17 other 1 MiB snapshots were read and pushed it out of that cache. ' +
      '`pageOf` serialises each candidate row to count its bytes and then the whole page once more to check the total, so about twice the floor is its expected cost.',
  );
  out.push('');
  out.push('Many sessions paging at once: each session holds its own 1 MiB snapshot (contacts) and reads its next page in turn — `getSnapshot` + `pageOf`, what one `session.page` costs the Engine:', '');
  out.push(
    table(
      ['sessions paging in turn', 'page reads', 'p50 ms', 'p90 ms', 'p99 ms'],
      o.pressure.map((r) => [`${r.sessions} × 1 MiB`, int(r.reads.length), ms3(p(r.reads, 50)), ms3(p(r.reads, 90)), ms3(p(r.reads, 99))]),
    ),
  );
  out.push('');
  out.push(
    'When the snapshots being paged exceed what the store keeps parsed, each page read parses its whole snapshot again (the cold read above), so the per-page cost becomes the parse of 1 MiB rather than the page.',
  );
  out.push('');

  // 2.
  out.push(`### 2. session.page end to end (a real Engine, raw Streamable HTTP, ${o.e2ePasses} passes over every page)`, '');
  out.push(
    'One MCP session per collection: an execute returns the 1 MiB array (stored: `MCP_RESULT_STORED`), then the pages are read by following `next_request` ' +
      '(the `fields` row uses its own first request) and `nextOffset`, each page execute followed by an execute of `return 1` on the same session (the baseline: everything an execute costs besides `session.page`). ' +
      `Every page's \`returned\` is checked against \`pageOf\` in process (${mismatches} mismatches).`,
  );
  out.push('');
  out.push(
    table(
      ['collection', 'pages', 'execute → session.page p50 ms', 'p99 ms', 'execute `return 1` p50 ms', 'p99 ms', 'session.page share (paired) p50 ms', 'storing the 1 MiB result ms (one execute; the isolate also generates the rows)'],
      o.e2e.map((r) => [r.c.label, int(r.pages), ms2(p(r.page, 50)), ms2(p(r.page, 99)), ms2(p(r.noop, 50)), ms2(p(r.noop, 99)), ms2(pairedAdded(r)), ms2(r.store)]),
    ),
  );
  out.push('');
  out.push(
    'The session.page share covers the bridge call, the store lookup, `pageOf`, the page crossing into the isolate and back as JSON, and the larger answer; the rest of each page execute is the cost of any execute (see [execute](execute.md)).',
  );
  out.push('');

  // 3.
  const stageRows = (stages: Stage[], n: number) => {
    const base = empty(stages).after.rss;
    return stages.map((s) => [
      s.stage,
      int(s.snapshots),
      mib(s.retained),
      mib(s.before.rss),
      mib(s.after.rss),
      mib(s.after.heapUsed),
      !s.retained ? '–' : `${((s.after.rss - base) / s.retained).toFixed(2)}×`,
      !s.retained ? '–' : `${int((s.after.rss - base - s.retained) / n / 1024)} KiB`,
      s.evicted === undefined ? '–' : int(s.evicted),
      s.ms === undefined ? '–' : int(s.ms),
    ]);
  };
  const header = ['stage', 'snapshots', 'retained MiB (UTF-8)', 'RSS before GC MiB', 'RSS after GC MiB', 'heap used MiB', '(RSS − empty) / retained', 'overhead per session', 'evicted', 'ms'];
  out.push(`### 3. Memory: ${o.sessions} sessions, each holding its full ${SESSION_BYTES_LIMIT / MiB} MiB quota (child process)`, '');
  out.push(
    `A child process (\`test/bench/lib/retention-memory-child.ts\`) stores snapshots through \`MemorySessionStateStore.putSnapshot\` as the Engine does — each a fresh string made by JSON.parse of the isolate's answer. ` +
      `${o.sessions} sessions × ${SNAPSHOT_LIMIT} snapshots × 256 KiB fill every quota exactly (${mib(theoretical)} MiB, the theoretical retained data); then each session stores 16 more 256 KiB snapshots (each one the 17th: evicts the oldest by count), ` +
      `4 of 1 MiB (evict by bytes), and 16 of 256 KiB again. After each stage: VmRSS, then two forced full GCs, 500 ms for V8 to unmap freed pages, VmRSS and the heap again.`,
  );
  out.push('');
  out.push(table(header, stageRows(o.latin1, o.sessions)));
  out.push('');
  const f = full(o.latin1);
  out.push(
    `At full quota the process holds ${mib(f.after.rss)} MiB for ${mib(f.retained)} MiB of snapshots (${mib(f.after.rss - empty(o.latin1).after.rss)} MiB above the empty store): ` +
      `the snapshot strings themselves, the store's cache of parsed snapshots (bounded in bytes, shared by all sessions), and V8's young generation and page pool. ` +
      `Peak RSS (VmHWM) over the whole run: ${mib(Math.max(...o.latin1.map((s) => s.after.hwm)))} MiB. Machine: ${o.busyCores.toFixed(2)} cores busy on average during this module.`,
  );
  out.push('');
  out.push(`Text V8 keeps as UTF-16 (${o.twoByteSessions} sessions; one character outside Latin-1 per row, U+2014): the quota counts UTF-8 bytes, V8 stores 2 bytes per character.`, '');
  out.push(table(header, stageRows(o.twoByte, o.twoByteSessions).filter((r) => !r[0]!.startsWith('+4'))));
  out.push('');
  const tf = full(o.twoByte);
  out.push(
    `Per session at full quota: ${mib((f.after.rss - empty(o.latin1).after.rss) / o.sessions)} MiB (Latin-1 text) vs ${mib((tf.after.rss - empty(o.twoByte).after.rss) / o.twoByteSessions)} MiB (UTF-16 text) for the same 4 MiB of UTF-8. ` +
      `With ${o.sessions} sessions of UTF-16 text the retained data would take about ${mib(((tf.after.rss - empty(o.twoByte).after.rss) / o.twoByteSessions) * o.sessions)} MiB — still bounded, but by about twice the quota.`,
  );
  out.push('');
  out.push('Reproduce: `npm run bench -- retention` (knobs: BENCH_RET_PASSES, BENCH_RET_E2E_PASSES, BENCH_RET_SESSIONS, BENCH_RET_TWO_BYTE_SESSIONS).');
  return {
    report: out.join('\n'),
    summary: {
      goal: `session.page p50 ≤ ${GOALS.pageP50Ms} ms; RSS past the quota ≤ +${GOALS.growthBeyondQuota * 100}%`,
      measured: `worst ${ms3(Math.max(...pageP50s))} ms; ${grownText}`,
      verdict: verdictOf([...pageP50s.map((v) => v <= GOALS.pageP50Ms), grown <= GOALS.growthBeyondQuota]),
    },
  };
}
