// The MCP Inspector CLI (@modelcontextprotocol/inspector --cli) against a running Engine: with the
// bearer header it lists exactly the two tools. It runs from node_modules with this Node (no npx,
// nothing downloaded), with HOME and its state files in a temporary directory, and with
// --stored-auth-only so that it can never start an interactive (browser) OAuth login.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';

const CLI_TIMEOUT_MS = 60_000;

function inspectorBin(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('@modelcontextprotocol/inspector/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(pkgPath), pkg.bin['mcp-inspector']!);
}

let t: TestEngine;
let mcp: { versionId: string; url: string; token: string };
let home: string;

function inspect(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      MCP_CATALOG_PATH: join(home, 'mcp.json'),
      MCP_CLIENT_CONFIG_PATH: join(home, 'client.json'),
      NO_COLOR: '1',
    };
    const child = spawn(process.execPath, [inspectorBin(), '--cli', ...args], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

const toolsList = (token: string) => [
  mcp.url,
  '--transport',
  'http',
  '--method',
  'tools/list',
  '--header',
  `Authorization: Bearer ${token}`,
  '--stored-auth-only',
  '--format',
  'json',
  '--connect-timeout',
  '15000',
];

describe('MCP Inspector CLI', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    t = await startTestEngine();
    const enable = await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1' });
    expect(enable.status).toBe(200);
    const published = await t.api('POST', '/v1/mcp/publish', { name: 'inspector', services: ['demo-crm=v1'], operations: ['demo-crm=*'] });
    expect(published.status).toBe(200);
    mcp = published.body;
    t.canaries.push(mcp.token);
    home = mkdtempSync(join(tmpdir(), 'svc-inspector-'));
  });

  afterAll(async () => {
    await t?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('lists exactly search_docs and execute over Streamable HTTP with the bearer header', async () => {
    const run = await inspect(toolsList(mcp.token));
    expect(run.code, `inspector failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const output = JSON.parse(run.stdout) as { result: { tools: { name: string; inputSchema: unknown }[] } };
    expect(output.result.tools.map((tool) => tool.name).sort()).toEqual(['execute', 'search_docs']);
    for (const tool of output.result.tools) expect(tool.inputSchema).toMatchObject({ type: 'object' });
  });

  it('fails with auth_required, without starting a browser login, when the token is wrong', async () => {
    const run = await inspect(toolsList(`svc_mcp_${'x'.repeat(43)}`));
    expect(run.code).not.toBe(0);
    expect(JSON.parse(run.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { code: 'auth_required' } });
  });
});
