// The official MCP conformance suite (@modelcontextprotocol/conformance, server mode) against a
// running Engine, for spec 2025-11-25 and 2025-06-18: every server scenario the suite has for each
// version (pending ones included) plus the DNS-rebinding scenario. The CLI cannot send an
// Authorization header, so it talks to a loopback reverse proxy that adds the bearer token and
// changes nothing else (test/fixtures/bearer-proxy.ts).
//
// test/mcp/conformance-baseline.json lists the scenarios that need the suite's fixture tools,
// resources or prompts, which a server with exactly search_docs and execute cannot have. Every
// other scenario must pass. (tools-call-simple-text and tools-call-error call fixture tools too,
// but their checks accept any text item / any isError result, so the Engine's isError answer for
// an unknown tool satisfies them; they are held to passing.) This version of the suite has no
// server scenario about authorization: its auth/* scenarios test clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startBearerProxy, type BearerProxy } from '../fixtures/bearer-proxy.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { PROTOCOL } from '../fixtures/mcp.ts';

/** Newest first: the protocol versions the Engine is held to, each with the suite's scenarios for it. */
const SPEC_VERSIONS = ['2025-11-25', '2025-06-18'] as const;
type SpecVersion = (typeof SPEC_VERSIONS)[number];
const DNS_REBINDING = 'dns-rebinding-protection';
const CLI_TIMEOUT_MS = 150_000;

interface Check {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
  details?: any;
}
interface Baseline {
  specVersions: string[];
  /** An entry applies to every spec version whose suite has the scenario. */
  server: { scenario: string; reason: string }[];
}

const baseline: Baseline = JSON.parse(readFileSync(new URL('./conformance-baseline.json', import.meta.url), 'utf8'));

/** The conformance CLI's entry point, run with this Node (no npx, nothing downloaded). */
function conformanceBin(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('@modelcontextprotocol/conformance/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(pkgPath), pkg.bin.conformance!);
}

function runConformance(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [conformanceBin(), ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), CLI_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `conformance list --server` prints `  - <scenario> [<spec versions>]` lines. */
function parseList(stdout: string): string[] {
  return [...stdout.matchAll(/^\s+- (\S+)(?: \[[^\]]*\])?\s*$/gm)].map((m) => m[1]!);
}

/** `-o <dir>` writes `<dir>/server-<scenario>-<ISO timestamp with : and . as ->/checks.json`. */
function readResults(outDir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const entry of readdirSync(outDir)) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(entry);
    if (!m) continue;
    results.set(m[1]!, JSON.parse(readFileSync(join(outDir, entry, 'checks.json'), 'utf8')));
  }
  return results;
}

const failedChecks = (checks: Check[]) => checks.filter((c) => c.status === 'FAILURE');
const passed = (checks: Check[] | undefined) => !!checks && checks.length > 0 && failedChecks(checks).length === 0;

let t: TestEngine;
let proxy: BearerProxy;
/** A proxy that sets Host to the Engine's, as most do: the client's loopback Origin is then on another port than its Host. */
let hostRewriting: BearerProxy;
/** The DNS-rebinding scenario through it. */
let rewritten: Check[];
let mcp: { versionId: string; url: string; token: string };
let workDir: string;
/** Per spec version: the scenarios the suite defines for it (pending ones too), plus the DNS-rebinding scenario. */
const suites = new Map<SpecVersion, string[]>();
const results = new Map<SpecVersion, Map<string, Check[]>>();
/** The versions whose suite does not list the DNS-rebinding scenario (it is run for them on its own). */
const unlisted = new Set<SpecVersion>();
let cliOutput = '';

describe('MCP conformance (@modelcontextprotocol/conformance, server mode)', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    t = await startTestEngine();
    const enable = await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1' });
    expect(enable.status).toBe(200);
    const published = await t.api('POST', '/v1/mcp/publish', { name: 'conformance', services: ['demo-crm=v1'], operations: ['demo-crm=*'] });
    expect(published.status).toBe(200);
    mcp = published.body;
    t.canaries.push(mcp.token);
    proxy = await startBearerProxy(mcp.url, mcp.token);
    hostRewriting = await startBearerProxy(mcp.url, mcp.token, { rewriteHost: true });
    workDir = mkdtempSync(join(tmpdir(), 'svc-conformance-'));

    for (const version of SPEC_VERSIONS) {
      const list = await runConformance(['list', '--server', '--spec-version', version], workDir);
      if (list.code !== 0) throw new Error(`conformance list failed (${list.code}): ${list.stderr}`);
      const listed = parseList(list.stdout);
      if (!listed.includes(DNS_REBINDING)) unlisted.add(version);
      suites.set(version, [...new Set([...listed, DNS_REBINDING])]);
    }
    // Exit code 1 only means some scenario failed; the checks are read from the output dirs. The
    // 2025-06-18 suite does not list the DNS-rebinding scenario: it is run on its own for it.
    const runs = await Promise.all(
      SPEC_VERSIONS.map(async (version) => {
        const outDir = join(workDir, version);
        const all = await runConformance(['server', '--url', proxy.url, '--spec-version', version, '--suite', 'all', '--output-dir', outDir], workDir);
        const extra = unlisted.has(version) ? await runConformance(['server', '--url', proxy.url, '--scenario', DNS_REBINDING, '--output-dir', outDir], workDir) : undefined;
        results.set(version, readResults(outDir));
        return [all, extra];
      }),
    );
    const rewrittenDir = join(workDir, 'host-rewriting');
    const viaRewriting = await runConformance(['server', '--url', hostRewriting.url, '--scenario', DNS_REBINDING, '--output-dir', rewrittenDir], workDir);
    rewritten = readResults(rewrittenDir).get(DNS_REBINDING) ?? [];
    for (const run of [...runs.flat(), viaRewriting]) {
      if (!run) continue;
      if (run.code !== 0 && run.code !== 1) throw new Error(`conformance server exited with ${run.code}:\n${run.stdout}\n${run.stderr}`);
      cliOutput += `${run.stdout}\n${run.stderr}\n`;
    }
  }, 180_000);

  afterAll(async () => {
    await proxy?.close();
    await hostRewriting?.close();
    await t?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  for (const version of SPEC_VERSIONS) {
    it(`runs every spec ${version} server scenario and the DNS-rebinding scenario`, () => {
      const suite = suites.get(version)!;
      expect(suite.length).toBeGreaterThan(20);
      expect(suite).toContain('server-initialize');
      expect(suite).toContain('tools-list');
      const missing = suite.filter((s) => !results.get(version)!.has(s));
      expect(missing, `scenarios without results; CLI output:\n${cliOutput}`).toEqual([]);
    });

    it(`passes every spec ${version} scenario that is not in the baseline`, () => {
      const expected = new Set(baseline.server.map((b) => b.scenario));
      const got = results.get(version)!;
      const failures = suites
        .get(version)!
        .filter((s) => !expected.has(s) && !passed(got.get(s)))
        .map((s) => ({
          scenario: s,
          failed: failedChecks(got.get(s) ?? []).map((c) => ({ check: c.id, error: c.errorMessage, details: c.details })),
        }));
      expect(failures).toEqual([]);
    });
  }

  it('keeps a baseline of real scenarios, each with a reason, that still fail in every version that has them', () => {
    expect(baseline.specVersions).toEqual([...SPEC_VERSIONS]);
    const names = baseline.server.map((b) => b.scenario);
    expect(names.filter((n, i) => names.indexOf(n) !== i), 'duplicate baseline entries').toEqual([]);
    const inSome = (n: string) => SPEC_VERSIONS.some((v) => suites.get(v)!.includes(n));
    expect(names.filter((n) => !inSome(n)), 'baseline entries that are not scenarios of the suite').toEqual([]);
    expect(baseline.server.filter((b) => typeof b.reason !== 'string' || b.reason.trim().length < 10), 'baseline entries without a reason').toEqual([]);
    // The DNS-rebinding scenario needs no fixture and must never be excused.
    expect(names).not.toContain(DNS_REBINDING);
    // A baseline entry that passes is stale: remove it so the scenario is held to passing.
    const stale = SPEC_VERSIONS.flatMap((v) => names.filter((n) => suites.get(v)!.includes(n) && passed(results.get(v)!.get(n))).map((n) => `${n} (${v})`));
    expect(stale, 'stale baseline entries (these scenarios pass now)').toEqual([]);
  });

  it('reaches the Engine through the proxy with the client\'s Host and Origin unchanged', () => {
    // The rebinding request arrived at the proxy with the attacker's Host and Origin, and the
    // Engine itself refused that Host: the proxy masked nothing.
    const rebinding = proxy.requests.find((r) => r.headers.host === 'evil.example.com');
    expect(rebinding?.headers.origin).toBe('http://evil.example.com');
    expect(rebinding?.headers.authorization).toBeUndefined();
    for (const version of SPEC_VERSIONS) {
      const [rejected, accepted] = results.get(version)!.get(DNS_REBINDING)!;
      expect(rejected).toMatchObject({ id: 'localhost-host-rebinding-rejected', status: 'SUCCESS', details: { statusCode: 403 } });
      expect(rejected!.details.body.error.message).toContain("host 'evil.example.com' is not allowed");
      expect(accepted).toMatchObject({ id: 'localhost-host-valid-accepted', status: 'SUCCESS', details: { statusCode: 200, hostHeader: new URL(proxy.url).host } });
    }
  });

  it('passes the DNS-rebinding scenario through a proxy that sets Host to the Engine\'s: a loopback Origin on another port is accepted', () => {
    // What the issue saw: Host 127.0.0.1:<Engine port> with Origin http://127.0.0.1:<proxy port> got 403.
    const [rejected, accepted] = rewritten;
    expect(rejected).toMatchObject({ id: 'localhost-host-rebinding-rejected', status: 'SUCCESS', details: { statusCode: 403 } });
    expect(rejected!.details.body.error.message).toContain("origin 'http://evil.example.com' is not allowed");
    expect(accepted).toMatchObject({ id: 'localhost-host-valid-accepted', status: 'SUCCESS', details: { statusCode: 200, originHeader: `http://${new URL(hostRewriting.url).host}` } });
    expect(hostRewriting.requests.find((r) => r.headers.host === 'evil.example.com')?.headers.origin).toBe('http://evil.example.com');
  });

  it('streams an open session\'s SSE response through the proxy without buffering it', async () => {
    // The client sends no Authorization header; the proxy adds it.
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(proxy.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'proxy-test', version: '1.0.0' } } });
    expect(init.status).toBe(200);
    await init.body?.cancel();
    const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL };
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    // The GET stream stays open with no body yet: its headers only arrive if the proxy passes
    // them on at once instead of waiting for the end of the response.
    const stream = await fetch(proxy.url, { headers: { accept: 'text/event-stream', ...headers }, signal: AbortSignal.timeout(5_000) });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    await stream.body?.cancel();
    const end = await fetch(proxy.url, { method: 'DELETE', headers });
    expect(end.status).toBe(200);
  });
});
