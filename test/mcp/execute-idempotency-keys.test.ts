// Idempotency keys and retries inside MCP `execute`, through the official MCP SDK client: a
// script's call(op, params, { idempotencyKey }) answers the first answer for the same key and
// request, in a later run too, whatever the operation (physical or Unified); another request with
// the key, a key still running or a bad key reject call() with a coded refusal naming the field;
// a GET the provider failed with 503 is retried within the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startDemoProvider, type DemoProvider } from '../../src/demo-provider/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { faultyDescription, FAULTY_OPERATIONS, startFaultyProvider, type FaultyProvider } from '../fixtures/faulty-provider.ts';
import { publishApps, withMcpClient, type ProviderApps } from '../fixtures/providers/app.ts';

let t: TestEngine;
let provider: FaultyProvider;
let crm: DemoProvider;
let apps: ProviderApps;

beforeAll(async () => {
  provider = await startFaultyProvider();
  crm = await startDemoProvider();
  t = await startTestEngine();
  expect((await t.api('POST', '/v1/workspace/imports', { name: 'faulty', version: 'v1', document: faultyDescription(provider.url) })).status).toBe(201);
  await t.api('PUT', '/v1/workspace/services/faulty', { version: 'v1', baseUrl: provider.url });
  await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: crm.url });
  await t.api('PUT', '/v1/workspace/services/github', { version: 'v1', baseUrl: 'http://127.0.0.1:9' });
  await t.api('PUT', '/v1/buckets/default/secrets/demo-crm', { value: crm.apiKey });
  t.canaries.push(crm.apiKey);
  apps = await publishApps(t, 'keys', {
    services: ['faulty=v1', 'demo-crm=v1', 'github=v1'],
    operations: [...FAULTY_OPERATIONS.map((op) => `faulty=${op}`), 'unified=tasks.create'],
  });
});
afterAll(async () => {
  await t?.stop();
  await provider?.stop();
  await crm?.stop();
});

const run = async (client: Client, code: string) => ((await client.callTool({ name: 'execute', arguments: { code } })) as any).structuredContent;

describe('call(op, params, { idempotencyKey }) in a script', () => {
  it('answers the first answer for the same key and request, within a run and in a later one', async () => {
    provider.plan('mcp-1', ['ok']);
    const code = `return await call('faulty.createItem', { id: 'mcp-1', body: { n: 1 } }, { idempotencyKey: 'mcp-key-1' })`;
    await withMcpClient(apps.mcp, async (client) => {
      const first = await run(client, `const a = await call('faulty.createItem', { id: 'mcp-1', body: { n: 1 } }, { idempotencyKey: 'mcp-key-1' });
        const b = await call('faulty.createItem', { id: 'mcp-1', body: { n: 1 } }, { idempotencyKey: 'mcp-key-1' });
        return [a, b]`);
      expect(first.result[0]).toMatchObject({ ok: true, data: { id: 'mcp-1', received: 1 } });
      expect(first.result[1]).toEqual(first.result[0]);
      const later = await run(client, code);
      expect(later.result).toEqual(first.result[0]);
    });
    expect(provider.counts.get('mcp-1')).toBe(1);
  });

  it('rejects call() with a coded refusal for another request with the key and for a bad key, naming the field', async () => {
    provider.plan('mcp-2', ['ok']);
    await withMcpClient(apps.mcp, async (client) => {
      const res = await run(client, `await call('faulty.createItem', { id: 'mcp-2', body: {} }, { idempotencyKey: 'mcp-key-2' });
        const codes = [];
        for (const [params, options] of [[{ id: 'mcp-3', body: {} }, { idempotencyKey: 'mcp-key-2' }], [{ id: 'mcp-3', body: {} }, { idempotencyKey: 'two words' }], [{ id: 'mcp-3', body: {} }, { idempotencyKey: 7 }]]) {
          try { await call('faulty.createItem', params, options); codes.push('sent'); } catch (e) { codes.push([e.code, e.details && e.details.field]); }
        }
        return codes`);
      expect(res.result).toEqual([
        ['ENGINE_IDEMPOTENCY_CONFLICT', 'options.idempotencyKey'],
        ['ENGINE_INVALID_INPUT', 'options.idempotencyKey'],
        ['ENGINE_INVALID_INPUT', 'options.idempotencyKey'],
      ]);
    });
    expect(provider.counts.get('mcp-3')).toBeUndefined();
  });

  it('takes the key beside a pagination bound, and still refuses any other option', async () => {
    await withMcpClient(apps.mcp, async (client) => {
      const res = await run(client, `try { await call('faulty.getItem', { id: 'mcp-4' }, { idempotencyKey: 'k', retries: 5 }); return 'sent' } catch (e) { return e.code }`);
      expect(res.result).toBe('ENGINE_PAGINATION_INVALID');
    });
    expect(provider.counts.get('mcp-4')).toBeUndefined();
  });

  it('gives a Unified call its key as the third argument', async () => {
    const tasks = crm.tasks.length;
    await withMcpClient(apps.mcp, async (client) => {
      const res = await run(client, `const params = { input: { title: 'From a script' }, targets: ['crm'] };
        const a = await call('unified.tasks.create', params, { idempotencyKey: 'mcp-unified' });
        const b = await call('unified.tasks.create', params, { idempotencyKey: 'mcp-unified' });
        return [a.ok, b.data.output]`);
      expect(res.result[0]).toBe(true);
      expect(res.result[1]).toEqual(expect.objectContaining({ tasks: [expect.objectContaining({ provider: 'crm' })] }));
    });
    expect(crm.tasks.length).toBe(tasks + 1);
  });

  it('retries a GET the provider answered 503 within the run', async () => {
    provider.plan('mcp-5', [{ status: 503 }, 'ok']);
    await withMcpClient(apps.mcp, async (client) => {
      const res = await run(client, `return await call('faulty.getItem', { id: 'mcp-5' })`);
      expect(res.result).toMatchObject({ ok: true, data: { received: 2 } });
    });
  });
});
