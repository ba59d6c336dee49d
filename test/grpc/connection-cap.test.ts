// SVC_GRPC_MAX_CONNECTIONS: open gRPC connections are capped as HTTP ones are. A connection is open
// from the moment the Engine accepts it over TCP until that socket closes, whether or not it has
// spoken HTTP/2 yet (an idle grpc-js channel keeps its connection open between calls). One past the
// cap is closed before the Engine sends a byte, and a warning (at most one a minute) names the setting.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { EngineClient, ExecuteRequest } from '../../generated/grpc/engine.ts';
import { loadConfig } from '../../src/config/index.ts';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';
import { runSvcEngine } from '../fixtures/svc-engine.ts';

const SECRET = 'canary-grpc-cap-3f9a1c7e';

let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };
let grpcPort: number;

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => json(res, 200, { id: req.url.split('/')[3] }));
  t = await startTestEngine({ SVC_GRPC_MAX_CONNECTIONS: '2' });
  sdk = await publishSdk(t, { name: 'capped', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get'] });
  grpcPort = Number(t.engine.grpcUrl.split(':').at(-1));
});

afterAll(async () => {
  await t?.stop();
  await provider?.stop();
});

/** A grpc-js client with a connection of its own (clients of one target otherwise share one). */
const newClient = () => new EngineClient(t.engine.grpcUrl, credentials.createInsecure(), { 'grpc.enable_channelz': 0, 'grpc.use_local_subchannel_pool': 1 });

/** One execution over `client` with `app`'s token: the contact ID it answered with, the gRPC error, or the failure envelope. */
function call(client: EngineClient, contactId: string, app = sdk): Promise<{ id?: string; error?: ServiceError; envelope?: unknown }> {
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${app.token}`);
  const req = ExecuteRequest.fromPartial({ versionId: app.versionId, operation: 'demo-crm.contacts/get', inputJson: JSON.stringify({ contact_id: contactId }) });
  return new Promise((resolve) => {
    client.execute(req, metadata, { deadline: Date.now() + 5_000 }, (error, reply) => resolve(error ? { error } : reply.ok ? { id: JSON.parse(reply.dataJson).id } : { envelope: reply }));
  });
}

/**
 * A raw TCP connection to the gRPC port that sends nothing: whether it was closed within `waitMs`,
 * and how many bytes the Engine sent on it (so far: `received`).
 */
function rawConnection(waitMs = 1_000): { socket: Socket; received(): number; outcome: Promise<{ closed: boolean; bytes: number }> } {
  const socket = connect(grpcPort, '127.0.0.1');
  let bytes = 0;
  socket.on('data', (d: Buffer) => (bytes += d.length));
  socket.on('error', () => undefined);
  const outcome = new Promise<{ closed: boolean; bytes: number }>((resolve) => {
    const timer = setTimeout(() => resolve({ closed: false, bytes }), waitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ closed: true, bytes });
    });
  });
  return { socket, received: () => bytes, outcome };
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

const warnings = () =>
  t.logs
    .flatMap((chunk) => chunk.split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((l) => l.level === 40 && l.msg.includes('SVC_GRPC_MAX_CONNECTIONS'));

describe('SVC_GRPC_MAX_CONNECTIONS', () => {
  it('is a positive integer, 10000 by default; a bad value stops the Engine with one line naming it', async () => {
    expect(loadConfig({}).grpcMaxConnections).toBe(10_000);
    expect(loadConfig({ SVC_GRPC_MAX_CONNECTIONS: ' 250 ' }).grpcMaxConnections).toBe(250);
    for (const bad of ['0', '-5', '1e3', 'many', '1000001']) {
      expect(() => loadConfig({ SVC_GRPC_MAX_CONNECTIONS: bad }), bad).toThrow(`SVC_GRPC_MAX_CONNECTIONS must be an integer from 1 to 1000000 (got '${bad}')`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'svc-grpc-max-conn-'));
    try {
      const run = await runSvcEngine(dir, ['serve'], { SVC_GRPC_MAX_CONNECTIONS: '0' });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trim()).toBe("svc-engine: SVC_GRPC_MAX_CONNECTIONS must be an integer from 1 to 1000000 (got '0')");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('closes a connection past the limit before any HTTP/2 byte, warning once; the open ones keep working, and freed room serves again', async () => {
    // Two channels, each with a completed call and its connection still open, hold both places.
    const held = [newClient(), newClient()];
    const third = newClient();
    try {
      expect(await call(held[0]!, 'con_a')).toEqual({ id: 'con_a' });
      expect(await call(held[1]!, 'con_b')).toEqual({ id: 'con_b' });

      // A third connection is closed at once, unanswered: no SETTINGS frame, no byte at all.
      expect(await rawConnection().outcome).toEqual({ closed: true, bytes: 0 });
      const refused = await call(third, 'con_c');
      expect(refused.error?.code, refused.error?.message).toBe(GrpcStatus.UNAVAILABLE);
      third.close();

      // The two open connections still serve.
      expect(await call(held[0]!, 'con_a2')).toEqual({ id: 'con_a2' });
      expect(await call(held[1]!, 'con_b2')).toEqual({ id: 'con_b2' });

      // One warning for the burst (the raw connection was the first dropped), naming the setting.
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).toMatchObject({ maxConnections: 2, dropped: 1, msg: expect.stringContaining('gRPC connection limit reached') });

      // Closing one channel frees its place: a new connection is served once the Engine sees the close.
      held[0]!.close();
      let answer: { id?: string; error?: ServiceError } = {};
      for (let i = 0; i < 50 && answer.id === undefined; i++) {
        await delay(20);
        const fresh = newClient();
        answer = await call(fresh, 'con_d');
        fresh.close();
      }
      expect(answer).toEqual({ id: 'con_d' });
    } finally {
      for (const client of [...held, third]) client.close();
    }
  });

  it('stop() ends promptly with the places full: an idle channel, and a connection that never spoke HTTP/2', async () => {
    // The connections closed above leave the Engine's count a moment after: until then a new one is dropped.
    let silent = rawConnection(10_000);
    for (let i = 0; i < 50 && !(await Promise.race([silent.outcome.then(() => false), delay(100).then(() => silent.received() > 0)])); i++) {
      silent.socket.destroy();
      silent = rawConnection(10_000);
    }
    // Within the limit the Engine speaks first: its HTTP/2 SETTINGS frame arrives unasked.
    expect(silent.received()).toBeGreaterThan(0);
    const client = newClient();
    try {
      await expect.poll(async () => (await call(client, 'con_e')).id, { timeout: 5_000 }).toBe('con_e');
      const started = performance.now();
      await t.engine.stop();
      expect(performance.now() - started).toBeLessThan(2_000);
      expect((await silent.outcome).closed).toBe(true);
      // Nothing listens any more.
      expect(await rawConnection().outcome).toEqual({ closed: true, bytes: 0 });
      expect((await call(client, 'con_f')).error?.code).toBe(GrpcStatus.UNAVAILABLE);
    } finally {
      client.close();
      silent.socket.destroy();
    }
  });
});

describe('places held by connections that make no calls', () => {
  /** An Engine with one gRPC place, and a client of its own. */
  async function oneplace(env: Record<string, string>) {
    const engine = await startTestEngine({ SVC_GRPC_MAX_CONNECTIONS: '1', ...env });
    const app = await publishSdk(engine, { name: 'oneplace', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get'] });
    const port = Number(engine.engine.grpcUrl.split(':').at(-1));
    const client = () => new EngineClient(engine.engine.grpcUrl, credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    const callOn = (c: EngineClient, contactId: string) => call(c, contactId, app);
    return { engine, port, client, callOn };
  }
  /** Resolves with how long `socket` stayed open (ms), or rejects past `withinMs`. */
  const closedWithin = (socket: Socket, withinMs: number) =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const timer = setTimeout(() => reject(new Error(`still open after ${withinMs} ms`)), withinMs);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(performance.now() - started);
      });
    });

  it('SVC_GRPC_IDLE_MS is 300000 by default, from 1000 to 86400000', () => {
    expect(loadConfig({}).grpcIdleMs).toBe(300_000);
    expect(loadConfig({ SVC_GRPC_IDLE_MS: '1000' }).grpcIdleMs).toBe(1_000);
    for (const bad of ['999', '0', 'soon', '86400001']) {
      expect(() => loadConfig({ SVC_GRPC_IDLE_MS: bad }), bad).toThrow(`SVC_GRPC_IDLE_MS must be an integer from 1000 to 86400000 (got '${bad}')`);
    }
  });

  it('closes a connection that sends nothing within SVC_HTTP_HEADERS_TIMEOUT_MS, freeing its place', async () => {
    const { engine, port, client, callOn } = await oneplace({ SVC_HTTP_HEADERS_TIMEOUT_MS: '300', SVC_GRPC_IDLE_MS: '60000' });
    const c = client();
    const silent = connect(port, '127.0.0.1');
    silent.on('error', () => undefined);
    silent.on('data', () => undefined); // reads the Engine's SETTINGS, and so sees its close
    try {
      await closedWithin(silent, 5_000);
      expect(await callOn(c, 'con_aftersilent')).toEqual({ id: 'con_aftersilent' });
    } finally {
      silent.destroy();
      c.close();
      await engine.stop();
    }
  });

  it('ends a channel idle for SVC_GRPC_IDLE_MS, freeing its place; the channel reconnects for its next call', async () => {
    const { engine, client, callOn } = await oneplace({ SVC_GRPC_IDLE_MS: '1000' });
    const first = client();
    const second = client();
    try {
      expect(await callOn(first, 'con_1')).toEqual({ id: 'con_1' });
      // The first channel's connection holds the one place until it has been idle for a second.
      let answer: { id?: string; error?: ServiceError } = {};
      const started = performance.now();
      while (answer.id === undefined && performance.now() - started < 8_000) {
        await delay(100);
        answer = await callOn(second, 'con_2');
      }
      expect(answer).toEqual({ id: 'con_2' });
      second.close();
      await expect.poll(async () => (await callOn(first, 'con_3')).id, { timeout: 8_000, interval: 100 }).toBe('con_3');
    } finally {
      first.close();
      second.close();
      await engine.stop();
    }
  });

  it('cuts a client that never closes its side once the Engine has ended the connection', async () => {
    const { engine, port, client, callOn } = await oneplace({ SVC_GRPC_IDLE_MS: '1000' });
    // Speaks the HTTP/2 preface (so it is not silent), then ignores the GOAWAY and the Engine's FIN.
    const stubborn = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => stubborn.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\x04\0\0\0\0\0'));
    stubborn.on('error', () => undefined);
    stubborn.on('data', () => undefined);
    const ended = new Promise<void>((resolve) => stubborn.once('end', () => resolve()));
    const c = client();
    try {
      await ended; // the idle GOAWAY and FIN
      // The stubborn side cannot see the Engine let go (its socket stays half open); the freed place shows it.
      expect((await callOn(c, 'con_whileheld')).error?.code).toBe(GrpcStatus.UNAVAILABLE);
      await expect.poll(async () => (await callOn(c, 'con_afterstubborn')).id, { timeout: 6_000, interval: 200 }).toBe('con_afterstubborn');
    } finally {
      stubborn.destroy();
      c.close();
      await engine.stop();
    }
  });
});
