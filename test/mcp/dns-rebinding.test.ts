// DNS-rebinding protection on /mcp: which Host and Origin names the Engine accepts. On loopback, a
// loopback name on any port is the user's own machine (the Inspector's UI runs on another port);
// any other name must be listed in SVC_MCP_ALLOWED_HOSTS / SVC_MCP_ALLOWED_ORIGINS (or be
// SVC_PUBLIC_URL's). Off loopback, with no Host listed, any Host goes, but a browser's Origin must
// still be the request's own or a listed one. Tests listen on 127.0.0.1 only, so the Engine "off
// loopback" is one whose settings say so (mcpLoopback false) while it listens on loopback.
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { startEngine, type Engine } from '../../src/engine/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { initializeMessage } from '../fixtures/mcp.ts';

/** initialize with the Host and Origin given (fetch cannot set Host); resolves with the status. */
function initializeAs(url: string, token: string, host: string, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const headers = { host, ...(origin ? { origin } : {}), authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end(JSON.stringify(initializeMessage()));
  });
}

describe('DNS-rebinding settings', () => {
  it('reads loopback from SVC_HOST and lists the names to accept besides loopback ones', () => {
    expect(loadConfig({})).toMatchObject({ mcpLoopback: true, mcpAllowedHosts: [], mcpAllowedOrigins: [] });
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(loadConfig({ SVC_HOST: host }).mcpLoopback, host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'engine.internal']) expect(loadConfig({ SVC_HOST: host }).mcpLoopback, host).toBe(false);
    const listed = loadConfig({ SVC_MCP_ALLOWED_HOSTS: 'MCP.Example.test, [fd00::1]', SVC_MCP_ALLOWED_ORIGINS: 'https://app.example.test', SVC_PUBLIC_URL: 'https://engine.example.test/' });
    expect(listed.mcpAllowedHosts).toEqual(['mcp.example.test', 'fd00::1', 'engine.example.test']);
    expect(listed.mcpAllowedOrigins).toEqual(['https://app.example.test', 'https://engine.example.test']);
    // Off loopback nothing listed means any Host; a listed one, only those and the public URL's.
    expect(loadConfig({ SVC_HOST: '0.0.0.0', SVC_PUBLIC_URL: 'https://engine.example.test' }).mcpAllowedHosts).toEqual([]);
    expect(loadConfig({ SVC_HOST: '0.0.0.0', SVC_MCP_ALLOWED_HOSTS: 'a.example', SVC_PUBLIC_URL: 'https://engine.example.test' }).mcpAllowedHosts).toEqual(['a.example', 'engine.example.test']);
  });
});

describe('DNS-rebinding protection on loopback, with names listed', () => {
  let t: TestEngine;
  let server: { url: string; token: string };
  beforeAll(async () => {
    t = await startTestEngine({ SVC_MCP_ALLOWED_HOSTS: 'mcp.example.test', SVC_MCP_ALLOWED_ORIGINS: 'https://app.example.test' });
    await t.api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1' });
    server = (await t.api('POST', '/v1/mcp/publish', { name: 'rebinding', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })).body;
    t.canaries.push(server.token);
  });
  afterAll(async () => t?.stop());

  it('accepts a listed Host and Origin besides loopback ones, and refuses every other name', async () => {
    const port = new URL(server.url).port;
    expect(await initializeAs(server.url, server.token, 'mcp.example.test:443', 'https://app.example.test')).toBe(200);
    expect(await initializeAs(server.url, server.token, `127.0.0.1:${port}`, 'https://app.example.test')).toBe(200);
    expect(await initializeAs(server.url, server.token, 'localhost:6277', 'http://localhost:6274')).toBe(200);
    // The listed Host's own origin is the request's own.
    expect(await initializeAs(server.url, server.token, 'mcp.example.test', 'http://mcp.example.test')).toBe(200);
    expect(await initializeAs(server.url, server.token, 'other.example.test', 'https://app.example.test')).toBe(403);
    expect(await initializeAs(server.url, server.token, 'mcp.example.test', 'https://other.example.test')).toBe(403);
    expect(await initializeAs(server.url, server.token, `127.0.0.1:${port}`, 'https://app.example.test:8443')).toBe(403);
  });
});

describe('DNS-rebinding protection off loopback', () => {
  let engine: Engine;
  let dataDir: string;
  let server: { url: string; token: string };
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-rebinding-'));
    const config = loadConfig({ SVC_DATA_DIR: dataDir, SVC_HTTP_PORT: '0', SVC_GRPC_PORT: '0', SVC_LOG_LEVEL: 'silent' });
    engine = await startEngine({ ...config, mcpLoopback: false, mcpAllowedHosts: [] });
    const { token: cli } = await engine.deps.tokens.issue('cli', 'tester');
    const api = async (method: string, path: string, body: unknown) =>
      (await fetch(engine.url + path, { method, headers: { authorization: `Bearer ${cli}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
    await api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1' });
    server = (await api('POST', '/v1/mcp/publish', { name: 'rebinding', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] })) as { url: string; token: string };
  });
  afterAll(async () => {
    await engine?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('accepts any Host with nothing listed, but only the request\'s own Origin: a loopback one is not the user\'s machine here', async () => {
    expect(await initializeAs(server.url, server.token, 'engine.internal:8700')).toBe(200);
    expect(await initializeAs(server.url, server.token, 'engine.internal:8700', 'http://engine.internal:8700')).toBe(200);
    expect(await initializeAs(server.url, server.token, 'engine.internal:8700', 'http://localhost:6274')).toBe(403);
    expect(await initializeAs(server.url, server.token, 'engine.internal:8700', 'http://evil.example')).toBe(403);
  });
});
