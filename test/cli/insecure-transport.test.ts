// svc-cli sends a credential over plain HTTP only to this machine (issue 30 §8): to an http://
// SVC_ENGINE_URL on another host it refuses, naming --allow-insecure, before a byte is sent. The
// other host is reached the way a corporate network would reach it, through an HTTP proxy
// (NODE_USE_ENV_PROXY): here a CONNECT proxy on loopback that tunnels to the test Engine and keeps
// every byte it carries, which is what anyone on such a path could read.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';

const REMOTE = 'engine.example.test';
let t: TestEngine;
let proxy: Server;
let proxyUrl = '';
/** Every byte the proxy carried towards the Engine, as text. */
let carried = '';

beforeAll(async () => {
  // The Engine accepts the remote name as its Host (its public URL's): the proxy changes nothing.
  t = await startTestEngine({ SVC_PUBLIC_URL: `http://${REMOTE}` });
  const engine = new URL(t.url);
  proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, client) => {
    if (!req.url?.startsWith(`${REMOTE}:`)) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = connect(Number(engine.port), engine.hostname, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      client.on('data', (d: Buffer) => (carried += d.toString('latin1')));
      client.pipe(upstream).pipe(client);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await t?.stop();
});

function remoteUser(): CliUser & { via: (args: string[], input?: string) => ReturnType<CliUser['cli']> } {
  const user = cliUser(`http://${REMOTE}:${new URL(t.url).port}`);
  const env = { HTTP_PROXY: proxyUrl, NODE_USE_ENV_PROXY: '1', SVC_CLI_TOKEN: t.cliToken };
  return Object.assign(user, { via: (args: string[], input?: string) => user.cli(args, { env, ...(input !== undefined ? { input } : {}) }) });
}

describe('svc-cli against an http:// Engine on another host', () => {
  it('refuses to send the CLI credential, naming --allow-insecure, and sends nothing', async () => {
    const user = remoteUser();
    try {
      carried = '';
      const r = await user.via(['whoami']);
      expect(r.code).toBe(1);
      expect(oneErrorLine(r.stderr)).toBe(
        `svc-cli: refusing to send the CLI credential to http://${REMOTE}:${new URL(t.url).port} over plain HTTP: it is not this machine, so anyone on the network path could read it — use the https:// address of the Engine in SVC_ENGINE_URL, or pass --allow-insecure if the network between you is trusted`,
      );
      // A sign-in (its device code, the credential it returns) and a piped credential are refused the same way.
      const login = await user.via(['login', '--no-browser']);
      expect(oneErrorLine(login.stderr)).toMatch(/^svc-cli: refusing to send a sign-in \(the device code, and the CLI credential it is answered with\) to http:\/\/engine\.example\.test:\d+ over plain HTTP: .* --allow-insecure /);
      const piped = await user.via(['login', '--with-token'], t.cliToken);
      expect(oneErrorLine(piped.stderr)).toMatch(/--allow-insecure/);
      expect(carried).toBe('');
    } finally {
      user.cleanup();
    }
  });

  it('sends it with --allow-insecure, where the path can read it', async () => {
    const user = remoteUser();
    try {
      carried = '';
      const r = await user.via(['whoami', '--allow-insecure']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('as tester');
      expect(carried).toContain(`authorization: Bearer ${t.cliToken}`);
      // Before the command word too, as any global flag.
      expect((await user.via(['--allow-insecure', 'auth', 'credentials', 'list'])).code).toBe(0);
    } finally {
      user.cleanup();
    }
  });
});
