// svc-cli secret set: the value is stored by one request; saying where it will be sent takes a
// second, which is only a courtesy. A proxy in front of the Engine fails that second one.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, type CliUser } from '../fixtures/cli.ts';

describe('svc-cli secret set', () => {
  let t: TestEngine;
  let proxy: Server;
  let proxyUrl: string;
  let user: CliUser;
  const VALUE = 'review-secret-value-canary-7f3a';

  beforeAll(async () => {
    t = await startTestEngine();
    t.canaries.push(VALUE);
    const engine = new URL(t.url);
    // Forwards every request to the Engine except GET /v1/buckets, which fails (a transient 503, a
    // replica restarting, a proxy timeout…) after the PUT that stored the secret succeeded.
    proxy = createServer((req, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/v1/buckets')) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: false, status: 503, data: null, error: { code: 'ENGINE_UNAVAILABLE', message: 'try again', retryable: true } }));
        return;
      }
      const upstream = httpRequest({ host: engine.hostname, port: engine.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const address = proxy.address() as { port: number };
    proxyUrl = `http://127.0.0.1:${address.port}`;
    user = cliUser(proxyUrl);
    expect((await user.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await t?.stop();
    user?.cleanup();
  });

  it('reports the secret stored (exit 0) when only the follow-up GET /v1/buckets fails', async () => {
    // The value is stored and effective once the PUT succeeds: a failed look-up of where it goes
    // must not turn that into exit 1, or a script would retry or alert on a success.
    const r = await user.cli(['secret', 'set', 'demo-crm', '--value-stdin'], { input: VALUE });
    const listed = await t.api('GET', '/v1/buckets');
    expect(listed.body.buckets[0].secrets.map((s: { service: string }) => s.service)).toContain('demo-crm'); // it was stored
    expect(r.stdout + r.stderr).not.toContain(VALUE);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toMatchObject({ code: 0, stdout: expect.stringContaining('Secret for demo-crm stored in bucket default') });
  }, 60_000);
});
