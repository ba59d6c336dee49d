// Child process of the retention benchmark's memory figure: fills a MemorySessionStateStore
// (src/retention/store.ts) with SESSIONS sessions, each holding its full quota of snapshots, then
// keeps storing past the quota (by count; for latin1 also by bytes, then by count again) and
// reports its own VmRSS and V8 heap after each stage, before and after a forced full GC, as JSON
// lines on stdout.
// Usage: node --no-node-snapshot --expose-gc retention-memory-child.ts <sessions> <latin1|two-byte>
import { readFileSync } from 'node:fs';
import { MemorySessionStateStore, SESSION_BYTES_LIMIT, SNAPSHOT_LIMIT } from '../../../src/retention/index.ts';

const sessions = Number(process.argv[2] ?? 200);
const variant = process.argv[3] === 'two-byte' ? 'two-byte' : 'latin1';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

function status(): { rss: number; hwm: number } {
  const text = readFileSync('/proc/self/status', 'utf8');
  const kb = (f: string) => Number(new RegExp(`^${f}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function emit(stage: string, extra: Record<string, unknown> = {}) {
  const before = { ...status(), heapUsed: process.memoryUsage().heapUsed };
  gc!();
  gc!();
  // V8 unmaps freed pages on a background thread: give it time before reading RSS.
  await new Promise((r) => setTimeout(r, 500));
  const after = { ...status(), ...process.memoryUsage() };
  process.stdout.write(`${JSON.stringify({ stage, before, after, ...extra })}\n`);
}

/**
 * The JSON text of an execute result as the Engine receives it from the isolate:
 * `{"ok":true,"json":"<the result's JSON, escaped>"}`, which src/sandbox/run.ts parses to take
 * `json` — so each snapshot is a fresh, flat V8 string made by JSON.parse, as in the Engine.
 * The result is an array of contact-like rows taking exactly `bytes` UTF-8 bytes, with a unique
 * 8-digit number in its first row so every snapshot is distinct. The
 * two-byte variant has one character outside Latin-1 per row (U+2014), so V8 keeps the whole text
 * as a UTF-16 string (2 bytes per character) while the quota counts UTF-8 bytes.
 */
function template(bytes: number): { head: string; tail: string } {
  const rows: string[] = [];
  const dash = variant === 'two-byte' ? '\u2014' : '-';
  let size = 2;
  for (let i = 0; ; i++) {
    const row = JSON.stringify({
      id: `con_${String(i).padStart(6, '0')}`,
      name: `Contact ${i} ${dash} Example Ltd`,
      email: `contact${i}@example.com`,
      score: (i * 37) % 100,
      tags: ['customer', 'emea'],
      notes: `Renewal and pricing follow-up ${i}. `.repeat(20),
    });
    if (size + Buffer.byteLength(row) + 1 + 64 > bytes) break;
    rows.push(row);
    size += Buffer.byteLength(row) + (rows.length > 1 ? 1 : 0);
  }
  const head = `[{"snapshot":"00000000","pad":"`;
  const body = `"},${rows.join(',')}]`;
  const pad = bytes - Buffer.byteLength(head) - Buffer.byteLength(body);
  const text = `${head}${'x'.repeat(pad)}${body}`;
  if (Buffer.byteLength(text) !== bytes) throw new Error(`template is ${Buffer.byteLength(text)} bytes, wanted ${bytes}`);
  const wrapped = JSON.stringify({ ok: true, json: text });
  const slot = wrapped.indexOf('00000000');
  return { head: wrapped.slice(0, slot), tail: wrapped.slice(slot + 8) };
}

let counter = 0;
function snapshotText(t: { head: string; tail: string }): string {
  return (JSON.parse(t.head + String(++counter).padStart(8, '0') + t.tail) as { json: string }).json;
}

const store = new MemorySessionStateStore();
const ids = Array.from({ length: sessions }, (_, i) => `session-${i}`);
const small = template(SESSION_BYTES_LIMIT / SNAPSHOT_LIMIT); // 256 KiB: 16 of them fill 4 MiB exactly
const large = template(1024 * 1024);
const retained = () => ids.reduce((s, id) => s + store.usage(id).snapshotBytes, 0);
const counts = () => ids.reduce((s, id) => s + store.usage(id).snapshots, 0);

await emit('empty', { retained: 0, snapshots: 0 });

let evicted = 0;
let t0 = performance.now();
for (const id of ids) for (let i = 0; i < SNAPSHOT_LIMIT; i++) evicted += (await store.putSnapshot(id, snapshotText(small))).evicted.length;
await emit('full quota: 16 × 256 KiB per session', { retained: retained(), snapshots: counts(), evicted, ms: performance.now() - t0 });

// Beyond the quota by count: each new 256 KiB snapshot is the 17th and evicts the oldest.
evicted = 0;
t0 = performance.now();
for (const id of ids) for (let i = 0; i < SNAPSHOT_LIMIT; i++) evicted += (await store.putSnapshot(id, snapshotText(small))).evicted.length;
await emit('+16 × 256 KiB per session (17th evicts by count)', { retained: retained(), snapshots: counts(), evicted, ms: performance.now() - t0 });

if (variant === 'latin1') {
  // Beyond the quota by bytes: 1 MiB snapshots evict 256 KiB ones until 4 MiB fits.
  evicted = 0;
  t0 = performance.now();
  for (const id of ids) for (let i = 0; i < 4; i++) evicted += (await store.putSnapshot(id, snapshotText(large))).evicted.length;
  await emit('+4 × 1 MiB per session (evicts by bytes)', { retained: retained(), snapshots: counts(), evicted, ms: performance.now() - t0 });

  // And back to 256 KiB snapshots: the 1 MiB ones are evicted again.
  evicted = 0;
  t0 = performance.now();
  for (const id of ids) for (let i = 0; i < SNAPSHOT_LIMIT; i++) evicted += (await store.putSnapshot(id, snapshotText(small))).evicted.length;
  await emit('+16 × 256 KiB per session again', { retained: retained(), snapshots: counts(), evicted, ms: performance.now() - t0 });
}

t0 = performance.now();
for (const id of ids) await store.release(id);
await emit('all sessions released', { retained: retained(), snapshots: counts(), ms: performance.now() - t0 });
await store.close();
