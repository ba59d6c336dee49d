// The REST execution hot path: the execution route served ahead of Koa must answer byte-for-byte
// like the Koa binder (a query string sends the same request through Koa), and the caches behind
// it must never serve stale state: a revoked token or a changed secret takes effect on the next
// call, even when another replica (another SecretVault / Tokens on the same store) made the change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { SecretVault, loadMasterKey } from '../../src/credentials/index.ts';
import { Tokens } from '../../src/identity/index.ts';
import { newReceiptId } from '../../src/ids/index.ts';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

const SECRET = 'hot-path-key-4b1d8e';
const ROTATED = 'hot-path-key-rotated-9c2f';

let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  provider = await startFakeProvider(async (req, res) => {
    const id = req.url.split('/')[3]?.split('?')[0];
    const key = req.headers.authorization?.replace(/^Bearer /, '');
    if (key !== SECRET && key !== ROTATED) return json(res, 401, { error: 'bad key' });
    if (id === 'con_echo') return json(res, 200, { id, key });
    if (id === 'con_text') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end('plain text');
    }
    if (id === 'con_badjson') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('{"id": "con_badjson",');
    }
    if (id === 'con_spaced') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('{ "id" : "con_spaced", "n": 1.50, "big": 12345678901234567890 }');
    }
    if (id === 'con_latin1') {
      // JSON whose bytes are not valid UTF-8 (a Latin-1 "é"): decoded with a replacement character.
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(Buffer.concat([Buffer.from('{"id":"con_latin1","name":"Ren'), Buffer.from([0xe9]), Buffer.from('"}')]));
    }
    if (id === 'con_404') return json(res, 404, { error: 'missing' });
    json(res, 200, { id, key: key === ROTATED ? 'rotated' : 'original', name: 'Ada', note: 'ünïcødé ✓' });
  });
  t = await startTestEngine({ SVC_MAX_REQUEST_BYTES: '4096' });
  sdk = await publishSdk(t, { name: 'hot', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get'] });
  t.canaries.push(ROTATED);
});

afterAll(async () => {
  await t.stop();
  await provider.stop();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP/1.1 request, so headers and body bytes are exactly what the case says. */
function send(path: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; chunked?: boolean } = {}): Promise<Raw> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: options.method ?? 'POST', path, headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) {
      if (options.chunked) {
        const bytes = Buffer.from(options.body);
        req.write(bytes.subarray(0, 5));
        req.end(bytes.subarray(5));
      } else req.end(options.body);
    } else req.end();
  });
}

const execPath = (versionId = sdk.versionId) => `/v1/apps/${versionId}/executions`;
const auth = (token = sdk.token) => ({ authorization: `Bearer ${token}` });
const jsonHeaders = (body: string | Buffer, token = sdk.token) => ({ ...auth(token), 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
const callBody = (input: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ operation: 'demo-crm.contacts/get', input, ...extra });

/** Sends the case through the fast path and, with a query string, through Koa; both must match. */
async function bothWays(path: string, options: Parameters<typeof send>[1] = {}): Promise<Raw> {
  const fast = await send(path, options);
  const koa = await send(`${path}?via=koa`, options);
  const view = (r: Raw) => ({ status: r.status, type: r.headers['content-type'], length: r.headers['content-length'], body: r.body });
  expect(view(fast)).toEqual(view(koa));
  return fast;
}

describe('REST execution hot path', () => {
  it('answers exactly like the Koa binder across successes, refusals and failures', async () => {
    const ok = callBody({ contact_id: 'con_0001' });
    const cases: [string, string, Parameters<typeof send>[1]][] = [
      ['success', execPath(), { headers: jsonHeaders(ok), body: ok }],
      ['success, chunked body', execPath(), { headers: { ...auth(), 'content-type': 'application/json' }, body: ok, chunked: true }],
      ['success, BOM-prefixed body', execPath(), { headers: jsonHeaders(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ok)])), body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ok)]) }],
      ['content-type with charset', execPath(), { headers: { ...jsonHeaders(ok), 'content-type': 'application/json; charset=utf-8' }, body: ok }],
      ['provider text body', execPath(), { headers: jsonHeaders(callBody({ contact_id: 'con_text' })), body: callBody({ contact_id: 'con_text' }) }],
      ['provider invalid JSON', execPath(), { headers: jsonHeaders(callBody({ contact_id: 'con_badjson' })), body: callBody({ contact_id: 'con_badjson' }) }],
      ['provider 404', execPath(), { headers: jsonHeaders(callBody({ contact_id: 'con_404' })), body: callBody({ contact_id: 'con_404' }) }],
      ['no token', execPath(), { headers: { 'content-type': 'application/json' }, body: ok }],
      ['malformed token', execPath(), { headers: { ...jsonHeaders(ok), authorization: 'Bearer nope' }, body: ok }],
      ['unknown token', execPath(), { headers: jsonHeaders(ok, `svc_sdk_${'A'.repeat(43)}`), body: ok }],
      ['unknown version', execPath('ver_01HZZZZZZZZZZZZZZZZZZZZZZZ'), { headers: jsonHeaders(ok), body: ok }],
      ['invalid version id', execPath('not-a-version'), { headers: jsonHeaders(ok), body: ok }],
      ['no body', execPath(), { headers: auth() }],
      ['empty body', execPath(), { headers: { ...auth(), 'content-type': 'application/json', 'content-length': '0' }, body: '' }],
      ['wrong content type', execPath(), { headers: { ...jsonHeaders(ok), 'content-type': 'text/plain' }, body: ok }],
      ['invalid JSON', execPath(), { headers: jsonHeaders('{"operation":'), body: '{"operation":' }],
      ['body too large (declared)', execPath(), { headers: jsonHeaders('x'.repeat(5000)), body: 'x'.repeat(5000) }],
      ['body too large (chunked)', execPath(), { headers: { ...auth(), 'content-type': 'application/json' }, body: 'x'.repeat(5000), chunked: true }],
      ['schema violation', execPath(), { headers: jsonHeaders('{"input":{}}'), body: '{"input":{}}' }],
      ['unknown operation', execPath(), { headers: jsonHeaders(JSON.stringify({ operation: 'demo-crm.nope', input: {} })), body: JSON.stringify({ operation: 'demo-crm.nope', input: {} }) }],
      ['invalid input', execPath(), { headers: jsonHeaders(callBody({ contact_id: 5 })), body: callBody({ contact_id: 5 }) }],
      ['invalid pagination', execPath(), { headers: jsonHeaders(callBody({ contact_id: 'con_0001' }, { pagination: { maxPages: 2 } })), body: callBody({ contact_id: 'con_0001' }, { pagination: { maxPages: 2 } }) }],
    ];
    for (const [name, path, options] of cases) {
      const res = await bothWays(path, options).catch((err: Error) => {
        throw new Error(`${name}: ${err.message}`);
      });
      expect(res.headers['content-type'], name).toBe('application/json; charset=utf-8');
      expect(() => JSON.parse(res.body), name).not.toThrow();
    }
  });

  it('splices the provider JSON as sent, and it parses to the same value as a re-serialised envelope', async () => {
    const body = callBody({ contact_id: 'con_spaced' });
    const res = await bothWays(execPath(), { headers: jsonHeaders(body), body });
    expect(res.status).toBe(200);
    expect(res.body).toBe('{"ok":true,"status":200,"data":{ "id" : "con_spaced", "n": 1.50, "big": 12345678901234567890 },"error":null}');
    expect(JSON.parse(res.body)).toEqual({ ok: true, status: 200, data: { id: 'con_spaced', n: 1.5, big: 12345678901234567890 }, error: null });
  });

  it('splices the provider JSON text, and decodes a body that is not valid UTF-8 before sending it', async () => {
    const unicode = callBody({ contact_id: 'con_0001' });
    const ok = await send(execPath(), { headers: jsonHeaders(unicode), body: unicode });
    expect(JSON.parse(ok.body).data.note).toBe('ünïcødé ✓');
    expect(Number(ok.headers['content-length'])).toBe(Buffer.byteLength(ok.body));

    const body = callBody({ contact_id: 'con_latin1' });
    const res = await bothWays(execPath(), { headers: jsonHeaders(body), body });
    expect(res.status).toBe(200);
    // The answer is valid UTF-8 JSON: the stray byte arrives as U+FFFD, never as an invalid sequence.
    expect(JSON.parse(res.body)).toEqual({ ok: true, status: 200, data: { id: 'con_latin1', name: 'Ren\ufffd' }, error: null });
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  });

  it('never splices a provider body that is not JSON', async () => {
    const body = callBody({ contact_id: 'con_badjson' });
    const res = await send(execPath(), { headers: jsonHeaders(body), body });
    expect(JSON.parse(res.body)).toEqual({ ok: true, status: 200, data: '{"id": "con_badjson",', error: null });
  });

  it('redacts an echoed secret in the spliced body', async () => {
    const body = callBody({ contact_id: 'con_echo' });
    const res = await send(execPath(), { headers: jsonHeaders(body), body });
    expect(res.body).not.toContain(SECRET);
    expect(JSON.parse(res.body).data).toEqual({ id: 'con_echo', key: '[redacted]' });
  });

  it('falls through to Koa for methods and forms it does not serve', async () => {
    const ok = callBody({ contact_id: 'con_0001' });
    expect((await send(execPath(), { method: 'GET', headers: auth() })).status).toBe(405);
    expect((await send(`${execPath()}/`, { headers: jsonHeaders(ok), body: ok })).status).toBe(200);
    expect((await send(execPath().replace('/executions', '/%65xecutions'), { headers: jsonHeaders(ok), body: ok })).status).toBe(404);
  });

  it('uses a secret set by another replica on the very next call', async () => {
    const get = callBody({ contact_id: 'con_0001' });
    const first = await send(execPath(), { headers: jsonHeaders(get), body: get });
    expect(JSON.parse(first.body).data.key).toBe('original');
    // Another replica: its own vault over the same store and master key.
    const replica = new SecretVault(loadMasterKey(t.dataDir, undefined), t.engine.store);
    const origin = (await t.engine.deps.workspace.get('demo-crm'))!.origin;
    await replica.set('default', 'demo-crm', ROTATED, origin);
    const second = await send(execPath(), { headers: jsonHeaders(get), body: get });
    expect(JSON.parse(second.body).data.key).toBe('rotated');
    await replica.set('default', 'demo-crm', SECRET, origin);
    const third = await send(execPath(), { headers: jsonHeaders(get), body: get });
    expect(JSON.parse(third.body).data.key).toBe('original');
  });

  it('refuses a tampered secret row even after the plaintext was cached', async () => {
    const get = callBody({ contact_id: 'con_0001' });
    expect((await send(execPath(), { headers: jsonHeaders(get), body: get })).status).toBe(200);
    const row = (await t.engine.store.getSecret('default', 'demo-crm'))!;
    const flipped = Buffer.from(row.tag, 'base64');
    flipped[0]! ^= 1;
    await t.engine.store.putSecret({ ...row, tag: flipped.toString('base64') });
    const res = await send(execPath(), { headers: jsonHeaders(get), body: get });
    expect(res.status).toBe(500);
    await t.engine.store.putSecret(row);
    expect((await send(execPath(), { headers: jsonHeaders(get), body: get })).status).toBe(200);
  });

  it('refuses a token on the next call after another replica revokes it', async () => {
    const issued = await t.api('POST', '/v1/sdks/publish', { name: 'hot-revoke', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] });
    const { versionId, token } = issued.body;
    t.canaries.push(token);
    const get = callBody({ contact_id: 'con_0001' });
    expect((await send(execPath(versionId), { headers: jsonHeaders(get, token), body: get })).status).toBe(200);
    const replica = new Tokens(t.engine.store);
    const row = (await t.engine.store.listTokens('sdk', 'hot-revoke'))[0]!;
    expect(await replica.revoke(row.id)).toBe(true);
    const res = await send(execPath(versionId), { headers: jsonHeaders(get, token), body: get });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).error.message).toBe('the bearer token was revoked');
  });

  it('mints receipt IDs that are unique and sort in creation order', () => {
    const ids = Array.from({ length: 5000 }, () => newReceiptId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids.slice(0, 10)) expect(id).toMatch(/^rcp_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('lists receipts of hot-path calls newest first', async () => {
    const get = callBody({ contact_id: 'con_0001' });
    for (let i = 0; i < 20; i++) await send(execPath(), { headers: jsonHeaders(get), body: get });
    const receipts = (await t.api('GET', `/v1/versions/${sdk.versionId}/receipts?limit=20`)).body.receipts;
    expect(receipts).toHaveLength(20);
    const ids = receipts.map((r: { id: string }) => r.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    expect(receipts[0]).toMatchObject({ operation: 'demo-crm.contacts/get', surface: 'rest', ok: true, status: 200, pages: 1 });
  });
});
