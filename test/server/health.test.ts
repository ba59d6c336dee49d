// GET /healthz (liveness) and GET /readyz (the database answers, and Redis with REDIS_URL; how
// sandbox workers are confined) on SQLite, on PostgreSQL and with Redis, without credentials; a
// database or Redis that is gone or hangs turns readiness into 503, never liveness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/postgres.ts';
import { freePort, startRedisServer } from '../fixtures/redis-server.ts';

/** How sandbox workers are confined here (test/sandbox/confinement.test.ts checks which). */
const CONFINEMENT = expect.stringMatching(/^(bwrap|permission)$/);

async function get(t: TestEngine, path: string) {
  const res = await fetch(t.url + path); // no credential: both routes are public
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
}

describe('health on SQLite', () => {
  let t: TestEngine;
  beforeAll(async () => {
    t = await startTestEngine();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers liveness and readiness without a credential', async () => {
    expect(await get(t, '/healthz')).toMatchObject({ status: 200, type: expect.stringContaining('application/json'), body: { status: 'ok' } });
    const ready = await get(t, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: { status: 'ok', backend: 'sqlite', latencyMs: expect.any(Number) } }, sandbox: { confinement: CONFINEMENT } });
  });

  it('reports 503 when a probe hangs past its timeout, and recovers', async () => {
    const store = t.engine.store;
    const ping = store.ping;
    store.ping = () => new Promise(() => {});
    try {
      const started = Date.now();
      const ready = await get(t, '/readyz');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        status: 'unavailable',
        checks: { database: { status: 'unavailable', backend: 'sqlite', latencyMs: expect.any(Number), error: 'TIMEOUT' } },
        sandbox: { confinement: CONFINEMENT },
      });
      expect(ready.body.checks.database.latencyMs).toBeGreaterThanOrEqual(1_900);
      expect((await get(t, '/healthz')).status).toBe(200);
    } finally {
      store.ping = ping;
    }
    expect((await get(t, '/readyz')).status).toBe(200);
  });

  it('reports 503 once the database is closed, while liveness stays 200', async () => {
    await t.engine.store.close();
    const ready = await get(t, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('unavailable');
    expect(ready.body.checks.database).toMatchObject({ status: 'unavailable', backend: 'sqlite', error: expect.stringMatching(/^[A-Z0-9_]+$/) });
    expect((await get(t, '/healthz')).body).toEqual({ status: 'ok' });
    expect(t.logs.some((l) => l.includes('readiness probe failed'))).toBe(true);
  });
});

describe('health on PostgreSQL', () => {
  let db: TestDatabase;
  let t: TestEngine;
  beforeAll(async () => {
    db = await createTestDatabase();
    t = await startTestEngine({}, undefined, { databaseUrl: db.url });
  });
  afterAll(async () => {
    await t?.stop();
    await db?.drop();
  });

  it('is ready while PostgreSQL answers', async () => {
    const ready = await get(t, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: { status: 'ok', backend: 'postgres', latencyMs: expect.any(Number) } }, sandbox: { confinement: CONFINEMENT } });
  });

  it('is not ready once its database is gone, naming only an error code', async () => {
    await db.drop(); // terminates the pool's connections; reconnects then fail (3D000)
    const ready = await get(t, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database).toMatchObject({ status: 'unavailable', backend: 'postgres', error: expect.stringMatching(/^[A-Z0-9_]+$/) });
    const text = JSON.stringify(ready.body);
    expect(text).not.toContain(db.name);
    expect(text).not.toContain('127.0.0.1');
    expect((await get(t, '/healthz')).status).toBe(200);
  });
});

describe('health with Redis (REDIS_URL)', () => {
  let port: number;
  let redis: { stop(): Promise<void> } | undefined;
  let t: TestEngine;
  beforeAll(async () => {
    port = await freePort();
    redis = await startRedisServer(port);
    t = await startTestEngine({ REDIS_URL: `redis://127.0.0.1:${port}`, SVC_REDIS_KEY_PREFIX: 'svc-health:' });
  });
  afterAll(async () => {
    await t?.stop();
    await redis?.stop();
  });

  it('is ready while the database and Redis answer', async () => {
    const ready = await get(t, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { database: { status: 'ok', backend: 'sqlite', latencyMs: expect.any(Number) }, redis: { status: 'ok', backend: 'redis', latencyMs: expect.any(Number) } },
      sandbox: { confinement: CONFINEMENT },
    });
  });

  it('is not ready, at once, while Redis is gone (naming only an error code), and ready again once it is back', async () => {
    await redis!.stop();
    redis = undefined;
    const started = Date.now();
    const ready = await get(t, '/readyz');
    expect(Date.now() - started).toBeLessThan(1_000); // a connection that is down fails the probe at once, not at its timeout
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('unavailable');
    expect(ready.body.checks.database).toMatchObject({ status: 'ok', backend: 'sqlite' });
    expect(ready.body.checks.redis).toMatchObject({ status: 'unavailable', backend: 'redis', error: expect.stringMatching(/^[A-Z0-9_]+$/) });
    const text = JSON.stringify(ready.body);
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain(String(port));
    expect((await get(t, '/healthz')).status).toBe(200);
    expect(t.logs.some((l) => l.includes('readiness probe failed') && l.includes('"dependency":"redis"'))).toBe(true);

    redis = await startRedisServer(port);
    const deadline = Date.now() + 15_000;
    let again = await get(t, '/readyz');
    while (again.status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      again = await get(t, '/readyz');
    }
    expect(again.body).toMatchObject({ status: 'ready', checks: { redis: { status: 'ok' } } });
  });
});
