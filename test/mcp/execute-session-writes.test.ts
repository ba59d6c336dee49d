// An execute answers only once the session.set writes its script started have been stored: a script
// that calls `session.set(…)` without awaiting it and returns has stored the value when its answer
// arrives, and nothing lands after the answer. Session state lives in a private redis-server whose
// writes the fake provider pauses (CLIENT PAUSE … WRITE) mid-script; reads go on during the pause,
// so the test can look at what Redis holds the moment the answer arrives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { startRedisServer, type RedisServer } from '../fixtures/redis-server.ts';

const SECRET = 'session-writes-secret-canary';
const PREFIX = 'svc-session-writes:';

let redis: RedisServer;
let admin: Redis;
let provider: FakeProvider;
let t: TestEngine;
let client: Client;
/** How long the provider pauses Redis writes when asked for `con_pause<ms>`. */
let pauses = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  admin.on('error', () => undefined); // the last test stops the server under it
  provider = await startFakeProvider(async (req, res) => {
    const id = new URL(req.url, 'http://x').pathname.split('/')[3] ?? '';
    if (id === 'con_stopredis') {
      await redis.stop(); // Redis goes away mid-script
      return json(res, 200, { id });
    }
    const pause = /^con_pause(\d+)$/.exec(id);
    if (pause) {
      pauses++;
      await admin.call('CLIENT', 'PAUSE', pause[1]!, 'WRITE');
    }
    json(res, 200, { id });
  });
  t = await startTestEngine({ REDIS_URL: redis.url, SVC_REDIS_KEY_PREFIX: PREFIX, SVC_EXECUTE_BUDGET_MS: '10000' });
  await pointService(t, 'demo-crm', provider.url, SECRET);
  const server = (await t.api('POST', '/v1/mcp/publish', { name: 'writes', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
  t.canaries.push(SECRET, server.token);
  client = new Client({ name: 'session-writes-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await t?.stop();
  await provider?.stop();
  await admin?.call('CLIENT', 'UNPAUSE').catch(() => undefined);
  admin?.disconnect();
  await redis?.stop();
});

async function run(code: string) {
  const result = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
  return { isError: result.isError === true, body: result.structuredContent as any, text: result.content[0].text as string };
}

/** The session.set values Redis holds under `key`, read directly (reads go on while writes are paused). */
async function storedValues(key: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await admin.keys(`${PREFIX}*`)) {
    if ((await admin.type(name)) !== 'hash') continue;
    const value = await admin.hget(name, key);
    if (value !== null) found.push(value);
  }
  return found;
}

describe('session.set left running by a script that returned', () => {
  it('is stored before the answer arrives', async () => {
    const answer = await run(`
      await call("demo-crm.contacts/get", { contact_id: "con_pause600" });
      session.set("left-running", { n: 1 }); // not awaited
      return "done";`);
    expect(pauses).toBe(1);
    expect(answer).toMatchObject({ isError: false, body: { result: 'done' } });
    // Right at the answer: the value is there (without the wait, Redis would still be paused with the write queued).
    expect(await storedValues('left-running')).toEqual(['{"n":1}']);
    expect(await run('return await session.get("left-running")')).toMatchObject({ body: { result: { n: 1 } } });
  });

  it('several writes left running are all stored, in the order the script made them', async () => {
    const answer = await run(`
      await call("demo-crm.contacts/get", { contact_id: "con_pause400" });
      for (let i = 1; i <= 5; i++) session.set("counter", i);
      session.set("other", "x");
      return "done";`);
    expect(answer.body).toEqual({ result: 'done' });
    expect(await storedValues('counter')).toEqual(['5']);
    expect(await storedValues('other')).toEqual(['"x"']);
  });

  it('a write that cannot finish holds the answer back at most about 2 s', async () => {
    const started = Date.now();
    const answer = await run(`
      await call("demo-crm.contacts/get", { contact_id: "con_pause6000" });
      session.set("stuck", 1);
      return "done";`);
    const waited = Date.now() - started;
    expect(answer.body).toEqual({ result: 'done' });
    expect(waited).toBeGreaterThanOrEqual(1_900);
    expect(waited).toBeLessThan(5_500); // answered while Redis was still paused
    expect(await storedValues('stuck')).toEqual([]);
    await admin.call('CLIENT', 'UNPAUSE');
  });

  it('a write left running that fails (Redis gone) neither stops the Engine nor changes the answer (runs last: it stops Redis)', async () => {
    const answer = await run(`
      await call("demo-crm.contacts/get", { contact_id: "con_stopredis" });
      session.set("lost", 1); // not awaited: its failure is the script's to see, had it waited
      return "done";`);
    expect(answer.body).toEqual({ result: 'done' });
    await new Promise((r) => setTimeout(r, 500)); // an unhandled rejection would have ended the process by now
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });
});
