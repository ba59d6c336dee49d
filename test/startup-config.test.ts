// `svc-engine serve` with settings an operator can get wrong: each stops at once with exit 2 and
// one line naming the setting, never a stack trace, and never starts half-configured.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ENTRY = resolve(import.meta.dirname, '../src/bin/svc-engine.ts');
let dir: string;
let busy: Server;
let busyPort: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-startup-'));
  writeFileSync(join(dir, 'a-file'), 'not a directory');
  busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  busyPort = (busy.address() as AddressInfo).port;
});
afterAll(async () => {
  busy?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--no-node-snapshot', ENTRY, 'serve'], {
    env: { PATH: process.env.PATH, HOME: dir, SVC_DATA_DIR: join(dir, 'data'), SVC_HTTP_PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stderr };
}

describe('svc-engine serve with bad settings', () => {
  it.each([
    ['SVC_PUBLIC_URL without a scheme', { SVC_PUBLIC_URL: 'engine.example.com' }, 'SVC_PUBLIC_URL'],
    ['SVC_PUBLIC_URL that is not a URL', { SVC_PUBLIC_URL: 'not a url' }, 'SVC_PUBLIC_URL'],
    ['an unknown SVC_LOG_LEVEL', { SVC_LOG_LEVEL: 'verbose' }, 'SVC_LOG_LEVEL'],
    ['a short SVC_MASTER_KEY', { SVC_MASTER_KEY: 'short' }, 'SVC_MASTER_KEY'],
    ['a database that cannot be reached', { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }, 'DATABASE_URL'],
    ['a data dir under a file', { SVC_DATA_DIR: '<dir>/a-file/data' }, 'SVC_DATA_DIR'],
    ['an HTTP port in use', { SVC_HTTP_PORT: '<busy>' }, 'SVC_HTTP_PORT'],
  ])('%s: exit 2 and one line naming it', async (_name, env, setting) => {
    const resolved = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace('<dir>', dir).replace('<busy>', String(busyPort))]));
    const { code, stderr } = await serve(resolved);
    expect(code, stderr).toBe(2);
    const lines = stderr.split('\n').filter(Boolean);
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc-engine: /);
    expect(lines[0]).toContain(setting);
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 30_000);
});
