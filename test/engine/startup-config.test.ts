// `svc-engine serve` with settings an operator can get wrong: each stops at once with exit 2 and
// one line naming the setting, never a stack trace, and never starts half-configured.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runSvcEngine, startupFixture } from '../fixtures/svc-engine.ts';

const fx = startupFixture('svc-startup-');

const serve = (env: Record<string, string>, command = 'serve') => runSvcEngine(fx.dir, [command], env);

describe('svc-engine serve with bad settings', () => {
  it.each([
    ['SVC_PUBLIC_URL without a scheme', { SVC_PUBLIC_URL: 'engine.example.com' }, 'SVC_PUBLIC_URL'],
    ['SVC_PUBLIC_URL that is not a URL', { SVC_PUBLIC_URL: 'not a url' }, 'SVC_PUBLIC_URL'],
    ['an unknown SVC_LOG_LEVEL', { SVC_LOG_LEVEL: 'verbose' }, 'SVC_LOG_LEVEL'],
    ['a short SVC_MASTER_KEY', { SVC_MASTER_KEY: 'short' }, 'SVC_MASTER_KEY'],
    ['a database that cannot be reached', { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }, 'DATABASE_URL'],
    ['a data dir under a file', { SVC_DATA_DIR: '<dir>/a-file/data' }, 'SVC_DATA_DIR'],
    ['an HTTP port in use', { SVC_HTTP_PORT: '<busy>' }, 'SVC_HTTP_PORT'],
    ['a Redis that cannot be reached', { REDIS_URL: 'redis://:CANARY_PW@127.0.0.1:1' }, 'REDIS_URL'],
    ['a REDIS_URL that is not a URL', { REDIS_URL: 'redis://:CANARY_PW@[::1:6379' }, 'REDIS_URL'],
    ['a DATABASE_URL that is not a URL', { DATABASE_URL: 'postgres://u:CANARY_PW@[::1:5432/x' }, 'DATABASE_URL'],
    ['an SVC_HOST that does not resolve', { SVC_HOST: 'no-such-host.invalid' }, 'SVC_HOST'],
    ['an OTEL_EXPORTER_OTLP_ENDPOINT without a scheme', { OTEL_EXPORTER_OTLP_ENDPOINT: '127.0.0.1:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    ['an OTEL_EXPORTER_OTLP_ENDPOINT that is not http(s)', { OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://u:CANARY_PW@collector:4317' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    ['an OTEL_EXPORTER_OTLP_HEADERS entry that is no name=value', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_HEADERS: 'x-team=core,CANARY_PW' }, 'OTEL_EXPORTER_OTLP_HEADERS'],
    ['an unknown OTEL_TRACES_SAMPLER', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces', OTEL_TRACES_SAMPLER: 'jaeger_remote' }, 'OTEL_TRACES_SAMPLER'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL=grpc', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL'],
    ['an SVC_TRACE_INPUT_SERVICES entry that is no service name', { SVC_TRACE_INPUT_SERVICES: 'github,Stripe API' }, 'SVC_TRACE_INPUT_SERVICES'],
  ])('%s: exit 2 and one line naming it', async (_name, env, setting) => {
    const resolved = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace('<dir>', fx.dir).replace('<busy>', String(fx.busyPort))]));
    const { code, stderr } = await serve(resolved);
    expect(code, stderr).toBe(2);
    const lines = stderr.split('\n').filter(Boolean);
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc-engine: /);
    expect(lines[0]).toContain(setting);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr).not.toContain('CANARY_PW'); // a password in the URL is never echoed
  }, 30_000);
});

describe('svc-engine dev and credential with bad input', () => {
  it('dev: a non-numeric SVC_DEMO_PORT is exit 2 and one line', async () => {
    const { code, stderr } = await serve({ SVC_DEMO_PORT: 'abc' }, 'dev');
    expect(code, stderr).toBe(2);
    expect(stderr.trim()).toBe("svc-engine: SVC_DEMO_PORT must be an integer from 0 to 65535 (got 'abc')");
  }, 30_000);

  it('serve: a wrong Redis password is exit 2, and neither the log nor the error holds it', async () => {
    const port = await freePort();
    const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--requirepass', 'right-password', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    try {
      await waitForPort(port);
      const { code, stderr, stdout } = await serve({ REDIS_URL: `redis://:CANARY_PW_wrong@127.0.0.1:${port}` });
      expect(code, stderr).toBe(2);
      expect(stderr).toContain('REDIS_URL');
      expect(stdout + stderr).not.toContain('CANARY_PW_wrong'); // ioredis puts it in the failed HELLO/AUTH command it attaches to errors
    } finally {
      redis.kill();
    }
  }, 30_000);
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function waitForPort(port: number) {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((r) => {
      const socket = connect(port, '127.0.0.1', () => (socket.end(), r(true)));
      socket.on('error', () => r(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}
