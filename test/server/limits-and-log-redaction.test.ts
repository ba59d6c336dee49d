// Observability and limits: limits that hold (per replica) while Redis is down,
// a per-token rate limit that counts calls that never reached a provider, and a token that reaches
// a log line through grpc-js' own error log.
import { connect as h2connect } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { startRedisServer, type RedisServer } from '../fixtures/redis-server.ts';

const SECRET = 'observability-review-secret-canary';
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => json(res, 200, { id: req.url.split('/')[3]?.split('?')[0] }));
});
afterAll(async () => provider?.stop());

const body = (id: string) => ({ operation: 'demo-crm.contacts/get', input: { contact_id: id } });

const signin = async (t: TestEngine, fields: Record<string, string>) => {
  const res = await fetch(`${t.url}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  await res.text();
  return res.status;
};

describe('limits while the Redis of REDIS_URL is down', () => {
  let t: TestEngine;
  let redis: RedisServer;
  let sdk: { versionId: string; token: string };
  let userCode: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    t = await startTestEngine({ REDIS_URL: redis.url, SVC_RATE_LIMIT_PER_MINUTE: '3', SVC_DEVICE_INTERVAL_S: '1' });
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
    await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: SECRET });
    t.canaries.push(SECRET);
    sdk = (await t.api('POST', '/v1/sdks/publish', { name: 'outage', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
    t.canaries.push(sdk.token);
    const started = await fetch(`${t.url}/v1/auth/device`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'svc-cli' }) });
    userCode = ((await started.json()) as { user_code: string }).user_code;
    // Redis goes away (a restart, a failover, a network partition); the Engine keeps serving.
    await redis.stop();
    for (let i = 0; i < 50 && t.engine.deps.coordinator.kind === 'redis' && (await t.engine.deps.coordinator.ping().then(() => true, () => false)); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await redis?.stop();
  });

  // handlers.ts submitSignin counts guesses through `limited()`, which answers { count: 0 } when the
  // Coordinator throws: with Redis unreachable every guess is checked, unbounded, though the README
  // promises 429 after 10 failed attempts per account and per address in 15 minutes.
  it('still answers 429 after 10 failed sign-ins when the Redis that counts them is unreachable', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push(await signin(t, { user_code: userCode, username: 'owner', password: `wrong-guess-${i}`, decision: 'approve' }));
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(15).fill(429)]);
  });

  // execution/index.ts checkRate returns (lets the call through) when coordinator.hit throws: with
  // Redis unreachable SVC_RATE_LIMIT_PER_MINUTE stops limiting anything, which the README does not say.
  it('still refuses the 4th provider call of a token within the minute when Redis is unreachable', async () => {
    const before = provider.requests.length;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.execute(sdk.versionId, sdk.token, body(`con_outage${i}`))).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect(provider.requests.length - before).toBe(3);
  });
});

describe('SVC_RATE_LIMIT_PER_MINUTE counts provider calls', () => {
  let t: TestEngine;
  beforeAll(async () => {
    t = await startTestEngine({ SVC_RATE_LIMIT_PER_MINUTE: '2' });
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
  });
  afterAll(async () => t?.stop());

  // execution/index.ts run() calls checkRate before the workspace, credential and path checks, and
  // nothing takes the hit back when the call is then refused with nothing sent: a caller retrying
  // a 409 ENGINE_CREDENTIAL_MISSING burns its minute and, once the secret is set, gets 429 though
  // no call of this token ever reached the provider.
  it('does not count calls refused before dispatch (no secret set) against the limit', async () => {
    const sdk = (await t.api('POST', '/v1/sdks/publish', { name: 'unsent', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
    t.canaries.push(sdk.token);
    for (let i = 0; i < 2; i++) {
      const refused = await t.execute(sdk.versionId, sdk.token, body(`con_missing${i}`));
      expect(refused.body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_MISSING', details: { provider_execution: 'not_started' } });
    }
    expect((await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: SECRET })).status).toBe(204);
    t.canaries.push(SECRET);
    const before = provider.requests.length;
    const first = await t.execute(sdk.versionId, sdk.token, body('con_first'));
    expect(first.body.error).toBeNull();
    expect(first.status).toBe(200);
    expect(provider.requests.length - before).toBe(1);
  });
});

describe('gRPC metadata grpc-js cannot parse', () => {
  let t: TestEngine;
  beforeAll(async () => {
    t = await startTestEngine();
  });
  afterAll(async () => t?.stop());

  // grpc/server.ts startGrpcServer routes grpc-js' error log into pino verbatim; grpc-js'
  // Metadata.fromHttp2Headers logs "Failed to add metadata entry <key>: <value>" for a header
  // value outside printable ASCII, so an execution token pasted with a no-break space
  // (`Bearer\u00a0svc_sdk_…`) lands in a log line (SVC_LOG_LEVEL=debug, "logs every request").
  it('keeps an execution token out of the logs when its authorization header holds a non-ASCII character', async () => {
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: provider.url });
    await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: SECRET });
    t.canaries.push(SECRET);
    const sdk = (await t.api('POST', '/v1/sdks/publish', { name: 'grpc-log', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
    const session = h2connect(`http://${t.engine.grpcUrl}`);
    try {
      await new Promise<void>((resolve, reject) => {
        const req = session.request({
          ':method': 'POST',
          ':path': '/svc.engine.v1.Engine/Execute',
          'content-type': 'application/grpc',
          te: 'trailers',
          authorization: `Bearer\u00a0${sdk.token}`,
        });
        req.on('response', () => undefined);
        req.on('data', () => undefined);
        req.on('end', () => resolve());
        req.on('close', () => resolve());
        req.on('error', reject);
        req.end(Buffer.from([0, 0, 0, 0, 0]));
      });
    } finally {
      session.close();
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(t.logs.filter((line) => line.includes(sdk.token))).toEqual([]);
  });
});
