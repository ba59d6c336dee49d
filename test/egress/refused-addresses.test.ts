// The egress policy (src/egress): a provider is never called at a link-local or cloud metadata
// address, nor at a private or loopback one unless SVC_EGRESS_ALLOW lists it. Checked when each
// connection opens, on the address DNS gave, so a name that resolves (or re-resolves) there is
// refused then; a refused call answers 403 ENGINE_EGRESS_REFUSED naming the host and address, and
// nothing reaches the provider. Covers REST calls (src/execution/dispatch.ts), OAuth token and
// revocation endpoints (src/connections/oauth-endpoints.ts) and `svc-engine dev`'s demo-crm.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.ts';
import { endpointAgent, postForm } from '../../src/connections/oauth-endpoints.ts';
import { EgressPolicy, egressConnector } from '../../src/egress/index.ts';
import { loopbackEgress } from '../fixtures/egress.ts';
import { pointService, publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';

const SECRET = 'egress-canary-key-4f1c9d';

describe('which addresses the policy refuses', () => {
  const none = new EgressPolicy();
  const loopback = loopbackEgress();
  const everything = new EgressPolicy(['0.0.0.0/0', '::/0']);

  it('refuses link-local and cloud metadata addresses whatever the allow-list', () => {
    for (const address of ['169.254.169.254', '169.254.170.2', '169.254.0.1', 'fe80::1', 'fd00:ec2::254', '100.100.100.200', '192.0.0.192', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::']) {
      expect(none.refusal(address), address).toBe('metadata');
      expect(everything.refusal(address), address).toBe('metadata');
    }
  });

  it('refuses private, loopback and reserved ranges unless allowed, in each IPv6 form that carries them', () => {
    const ranges = ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '127.0.0.1', '127.8.9.10', '0.0.0.0', '100.64.0.1', '224.0.0.1', '255.255.255.255', '::', '::1', 'fc00::1', 'fd12:3456::1', 'fec0::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::'];
    for (const address of ranges) {
      expect(none.refusal(address), address).toBe('private');
      expect(everything.refusal(address), address).toBeUndefined();
    }
    // Loopback allowed (the tests' and `npm start`'s list): loopback only.
    for (const address of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1']) expect(loopback.refusal(address), address).toBeUndefined();
    for (const address of ['10.0.0.1', '192.168.0.1', '::', '0.0.0.0', 'fd00::1']) expect(loopback.refusal(address), address).toBe('private');
  });

  it('lets public addresses through', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(none.refusal(address), address).toBeUndefined();
  });

  it('reads SVC_EGRESS_ALLOW as CIDR ranges or addresses, and refuses anything else naming it', () => {
    expect(loadConfig({}).egressAllow).toEqual([]);
    expect(loadConfig({ SVC_EGRESS_ALLOW: ' 127.0.0.0/8, ::1/128 ,10.0.0.7' }).egressAllow).toEqual(['127.0.0.0/8', '::1/128', '10.0.0.7']);
    for (const bad of ['localhost', '10.0.0.0/33', '::1/129', '10.0.0.0/8x', '*']) {
      expect(() => loadConfig({ SVC_EGRESS_ALLOW: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ SVC_EGRESS_ALLOW: bad }), bad).toThrow(`SVC_EGRESS_ALLOW must list IP addresses or CIDR ranges, comma-separated (got '${bad}')`);
    }
  });
});

describe('an Engine without SVC_EGRESS_ALLOW', () => {
  let provider: FakeProvider;
  let t: TestEngine;
  let sdk: { versionId: string; token: string };
  let port: string;

  beforeAll(async () => {
    provider = await startFakeProvider((req, res) => json(res, 200, { id: req.url.split('/').at(-1) }));
    port = new URL(provider.url).port;
    t = await startTestEngine({ SVC_EGRESS_ALLOW: '' }); // the fixture's loopback allowance taken away
    sdk = await publishSdk(t, { name: 'egress', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get'] });
  });
  afterAll(async () => {
    await t?.stop();
    await provider?.stop();
  });

  const call = () => t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' } });

  it('refuses a loopback provider with 403 ENGINE_EGRESS_REFUSED naming host and address; nothing is sent', async () => {
    const res = await call();
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'ENGINE_EGRESS_REFUSED',
      retryable: false,
      details: { host: '127.0.0.1', address: '127.0.0.1', range: 'private', provider_execution: 'not_started' },
    });
    expect(res.body.error.message).toContain('SVC_EGRESS_ALLOW');
    expect(provider.requests).toHaveLength(0);
    expect(provider.bytesReceived).toBe(0);
  });

  it('refuses a name that resolves to loopback (localhost), on the address DNS gave', async () => {
    await pointService(t, 'demo-crm', `http://localhost:${port}`, SECRET);
    const res = await call();
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('ENGINE_EGRESS_REFUSED');
    expect(res.body.error.details.host).toBe('localhost');
    expect(['127.0.0.1', '::1']).toContain(res.body.error.details.address);
    expect(res.body.error.message).toMatch(/^the Engine does not connect to localhost \((127\.0\.0\.1|::1)\)/);
    expect(provider.bytesReceived).toBe(0);
  });

  it('refuses the IPv4-mapped IPv6 form of loopback, [::ffff:127.0.0.1]', async () => {
    await pointService(t, 'demo-crm', `http://[::ffff:127.0.0.1]:${port}`, SECRET);
    const res = await call();
    expect(res.status).toBe(403);
    // The URL parser writes it ::ffff:7f00:1: the same address.
    expect(res.body.error).toMatchObject({ code: 'ENGINE_EGRESS_REFUSED', details: { address: '::ffff:7f00:1', range: 'private' } });
    expect(provider.bytesReceived).toBe(0);
  });

  it('refuses a literal metadata address before connecting, and the receipt says so', async () => {
    await pointService(t, 'demo-crm', 'http://169.254.169.254', SECRET);
    const res = await call();
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'ENGINE_EGRESS_REFUSED', details: { host: '169.254.169.254', address: '169.254.169.254', range: 'metadata' } });
    expect(res.body.error.message).toBe('the Engine never connects to 169.254.169.254: a link-local or cloud metadata address');
    const receipts = await t.api('GET', `/v1/versions/${sdk.versionId}/receipts?limit=1`);
    expect(receipts.body.receipts[0]).toMatchObject({ status: 403, ok: false, errorCode: 'ENGINE_EGRESS_REFUSED' });
  });
});

describe('an Engine whose SVC_EGRESS_ALLOW lists loopback', () => {
  let provider: FakeProvider;
  let t: TestEngine;
  let sdk: { versionId: string; token: string };

  beforeAll(async () => {
    provider = await startFakeProvider((req, res) => json(res, 200, { id: req.url.split('/').at(-1) }));
    t = await startTestEngine({ SVC_EGRESS_ALLOW: '127.0.0.0/8,::1/128' });
    sdk = await publishSdk(t, { name: 'egress', service: 'demo-crm', baseUrl: `http://localhost:${new URL(provider.url).port}`, secret: SECRET, operations: ['contacts/get'] });
  });
  afterAll(async () => {
    await t?.stop();
    await provider?.stop();
  });

  it('calls a loopback provider by name, and still never a metadata address', async () => {
    const ok = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_7' } });
    expect(ok.body).toMatchObject({ ok: true, data: { id: 'con_7' } });
    expect(provider.requests).toHaveLength(1);
    await pointService(t, 'demo-crm', 'http://[fd00:ec2::254]', SECRET);
    const refused = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_7' } });
    expect(refused.body.error).toMatchObject({ code: 'ENGINE_EGRESS_REFUSED', details: { address: 'fd00:ec2::254', range: 'metadata' } });
    expect(provider.requests).toHaveLength(1);
  });
});

describe('the check at connect time', () => {
  let provider: FakeProvider;
  beforeAll(async () => {
    provider = await startFakeProvider((_req, res) => json(res, 200, { ok: true }, { connection: 'close' }));
  });
  afterAll(async () => {
    await provider?.stop();
  });

  it('refuses a name when it re-resolves to a refused address (DNS rebinding), for each new connection', async () => {
    // A resolver whose answer changes between connections, as a rebinding attacker's does.
    let answer = [{ address: '127.0.0.1', family: 4 }];
    const agent = new Agent({ connect: egressConnector(loopbackEgress(), { timeoutMs: 1_000, resolve: (_host, _options, callback) => callback(null, answer) }) });
    try {
      const url = `http://rebind.test:${new URL(provider.url).port}/things`;
      const first = await request(url, { dispatcher: agent });
      expect(first.statusCode).toBe(200);
      await first.body.text();
      answer = [{ address: '127.0.0.1', family: 4 }, { address: '169.254.169.254', family: 4 }];
      const err = await request(url, { dispatcher: agent }).then(
        () => undefined,
        (e: unknown) => e as { code?: string; host?: string; address?: string },
      );
      expect(err).toMatchObject({ code: 'ENGINE_EGRESS_REFUSED', host: 'rebind.test', address: '169.254.169.254' });
      expect(provider.requests).toHaveLength(1);
    } finally {
      await agent.close();
    }
  });

  it('applies to OAuth token and revocation endpoints too', async () => {
    const client = { clientId: 'id', clientSecret: 'egress-canary-client-secret' };
    const url = new URL('/oauth/token', provider.url);
    const refused = await postForm(endpointAgent(new EgressPolicy()), url, client, { grant_type: 'refresh_token', refresh_token: 'r' }, 'token endpoint');
    expect(refused).toEqual({ status: null, failed: expect.stringMatching(/^token endpoint not called: the Engine does not connect to 127\.0\.0\.1, a private, loopback or reserved address/) });
    expect(provider.requests).toHaveLength(1); // the earlier test's only
    const allowed = await postForm(endpointAgent(loopbackEgress()), url, client, { grant_type: 'refresh_token', refresh_token: 'r' }, 'token endpoint');
    expect(allowed).toMatchObject({ status: 200 });
    expect(provider.requests).toHaveLength(2);
  });
});

describe('`svc-engine dev`', () => {
  it("allows loopback, so its Engine calls the demo-crm it runs there", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-egress-dev-'));
    const bin = resolve(import.meta.dirname, '../../src/bin/svc-engine.ts');
    const env = { PATH: process.env.PATH, HOME: dir, SVC_DATA_DIR: join(dir, 'data'), SVC_HTTP_PORT: '0', SVC_GRPC_PORT: '0', SVC_DEMO_PORT: '0' };
    const child = spawn(process.execPath, ['--no-node-snapshot', bin, 'dev'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      const deadline = Date.now() + 60_000;
      // The log line is written asynchronously: it may follow the banner.
      while (!/Ctrl-C stops both/.test(stdout) || !stdout.includes('"allowed":[')) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`dev did not start: ${stdout}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const engineUrl = /Engine HTTP\s+(http:\/\/\S+)/.exec(stdout)![1]!;
      expect(stdout).toContain('"allowed":["127.0.0.0/8","::1/128","127.0.0.1"]');
      // A CLI credential made on the host, as an operator would, then an app over demo-crm.
      const created = spawn(process.execPath, ['--no-node-snapshot', bin, 'credential', 'create', '--subject', 'egress-test'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let cli = '';
      created.stdout.on('data', (d) => (cli += d));
      await once(created, 'close');
      const api = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(engineUrl + path, { method, headers: { authorization: `Bearer ${cli.trim()}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      };
      expect((await api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: readFileSync(join(dir, 'data', 'demo-crm.key'), 'utf8').trim() })).status).toBe(204);
      const published = await api('POST', '/v1/sdks/publish', { name: 'dev-egress', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/list'] });
      expect(published.status).toBe(200);
      const res = await fetch(`${engineUrl}/v1/apps/${published.body.versionId}/executions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${published.body.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'demo-crm.contacts/list', input: {} }),
      });
      expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'close');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
