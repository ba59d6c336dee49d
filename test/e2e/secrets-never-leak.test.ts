// A canary secret and the execution token never appear in any response, receipt or log line,
// whatever the outcome of the call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importGetService, startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';

const CANARY = 'sk_live_CANARY_4f1e2d3c';
let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };
const seen: string[] = [];

beforeAll(async () => {
  // A hostile provider: it echoes the credential in bodies and headers, on success and on error.
  provider = await startFakeProvider((req, res) => {
    const auth = String(req.headers.authorization);
    if (req.url.includes('con_err')) return json(res, 403, { error: `key ${auth} is not allowed` }, { 'x-echo': auth });
    if (req.url.startsWith('/v1/contacts?')) {
      return json(res, 200, { data: [{ id: 'con_1', note: auth }], has_more: false });
    }
    json(res, 200, { id: 'con_1', seen: auth, nested: { again: [auth] } }, { 'x-echo': auth });
  });
  t = await startTestEngine();
  sdk = await publishSdk(t, { name: 'canary', service: 'demo-crm', baseUrl: provider.url, secret: CANARY, operations: ['contacts/get', 'contacts/list', 'contacts/create'] });
});

afterAll(async () => {
  await t.stop(); // fails if a canary reached a log line
  await provider.stop();
});

describe('secrets never leak', () => {
  it('keeps the canary out of every response, receipt and log line', async () => {
    const calls = [
      { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' } },
      { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_err' } },
      { operation: 'demo-crm.contacts/list', input: {} },
      { operation: 'demo-crm.contacts/create', input: { body: { name: CANARY } } },
      { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' }, pagination: { maxPages: 2 } },
      { operation: 'demo-crm.deals/list', input: {} },
    ];
    for (const body of calls) {
      const res = await fetch(`${t.url}/v1/apps/${sdk.versionId}/executions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sdk.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      seen.push(JSON.stringify([...res.headers]), await res.text());
    }
    expect(provider.requests.filter((r) => r.headers.authorization === `Bearer ${CANARY}`).length).toBe(3);
    for (const path of ['/v1/buckets', '/v1/workspace/services', '/v1/sdks', `/v1/versions/${sdk.versionId}/receipts`, '/v1/catalog/services']) {
      seen.push(JSON.stringify((await t.api('GET', path)).body));
    }
    const everything = [...seen, ...t.logs].join('\n');
    // The caller's own input may contain the string (contacts/create above) only inside its validation
    // error; strip that one echo of caller input and check the rest.
    const withoutCallerEcho = everything.split(`"name":"${CANARY}"`).join('');
    expect(withoutCallerEcho).not.toContain(CANARY);
    expect(everything).not.toContain(sdk.token);
    expect(everything).not.toContain(t.cliToken);
    expect(everything).toContain('[redacted]');
  });
});

describe('an echoed key in another spelling', () => {
  // A base64-style key with characters that URLs, JSON and HTML spell differently; it travels in the query string.
  const KEY = 'AKx9+Fq/7Zr2pW==';
  const WIDE_KEY = 'sk/+=ü"\\ canary_7';
  // Spellings that go into the body through JSON.stringify.
  const spellings = [
    KEY,
    encodeURIComponent(KEY), // AKx9%2BFq%2F7Zr2pW%3D%3D, as sent
    encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    new URLSearchParams({ k: KEY }).toString().slice(2),
    'AKx9%2BFq/7Zr2pW%3D%3D', // Python's urllib.parse.quote (keeps '/')
    'AKx9+Fq%2F7Zr2pW==', // Go's url.PathEscape (keeps '+' and '=')
    'AKx9&#43;Fq&#x2F;7Zr2pW&#61;&#X3d;', // HTML character references
  ];
  // Spellings already JSON-escaped by the provider's encoder: they go into the body as they are.
  const escaped = [
    String.raw`AKx9+Fq\/7Zr2pW==`, // PHP's json_encode
    String.raw`AKx9\u002BFq/7Zr2pW==`, // .NET's System.Text.Json
    String.raw`AKx9\u002bFq\/7Zr2pW\u003D\u003d`, // any mix of the two
  ];
  const total = spellings.length + escaped.length;
  let echo: FakeProvider;
  let engine: TestEngine;
  let pets: { versionId: string; token: string };
  let wide: { versionId: string; token: string };

  beforeAll(async () => {
    // Echoes the request target and the key in every spelling above, in a success and in an error body.
    echo = await startFakeProvider((req, res) => {
      const key = new URL(req.url, 'http://x').searchParams.get('api_key');
      if (req.url.startsWith('/pets/utf16')) {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-16le' });
        res.end(Buffer.from(JSON.stringify({ echo: `invalid key ${key}` }), 'utf16le'));
        return;
      }
      if (req.url.startsWith('/pets/wide')) {
        // A key outside ASCII, as PHP, .NET (upper-case hex) and an HTML page would echo it.
        const wide = String.raw`sk\/+=\u00fc\"\\ canary_7`;
        const upper = String.raw`sk/\u002B=\u00FC\u0022\\ canary_7`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"php":"${wide}","dotnet":"${upper}","html":"sk/+=&#252;&quot;\\\\ canary_7","url":"${encodeURIComponent(WIDE_KEY)}"}`);
        return;
      }
      const body = `{"request":"GET ${req.url}","spellings":[${spellings.map((s) => JSON.stringify(s)).join(',')}],"escaped":[${escaped.map((s) => `"${s}"`).join(',')}]}`;
      // The error is a 400: a 401 or 403 body keeps only its error fields (test/execution/echoed-credential-forms.test.ts).
      res.writeHead(key === KEY ? (req.url.startsWith('/pets/err') ? 400 : 200) : 403, { 'content-type': 'application/json' });
      res.end(body);
    });
    engine = await startTestEngine();
    // Two services over the same echo: one per key.
    for (const name of ['pets', 'pets2']) {
      await importGetService(engine, {
        name,
        url: echo.url,
        path: '/pets/{id}',
        operationId: 'getPet',
        parameters: ['{ name: id, in: path, required: true, schema: { type: string } }'],
        auth: { type: 'api_key', in: 'query', name: 'api_key' },
      });
    }
    pets = await publishSdk(engine, { name: 'pets', service: 'pets', baseUrl: echo.url, secret: KEY, operations: ['getPet'] });
    wide = await publishSdk(engine, { name: 'wide', service: 'pets2', baseUrl: echo.url, secret: WIDE_KEY, operations: ['getPet'] });
  });

  const execute = async (app: { versionId: string; token: string }, operation: string, id: string) => {
    const res = await fetch(`${engine.url}/v1/apps/${app.versionId}/executions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operation, input: { id } }),
    });
    return res.text();
  };

  afterAll(async () => {
    await engine?.stop();
    await echo?.stop();
  });

  it('redacts the key percent-encoded, form-encoded and JSON-escaped, on success and on error', async () => {
    const replies: string[] = [];
    for (const id of ['p1', 'err']) {
      const res = await fetch(`${engine.url}/v1/apps/${pets.versionId}/executions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${pets.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'pets.getPet', input: { id } }),
      });
      replies.push(await res.text());
    }
    expect(echo.requests.map((r) => r.url)).toEqual([`/pets/p1?api_key=${encodeURIComponent(KEY)}`, `/pets/err?api_key=${encodeURIComponent(KEY)}`]);
    expect(JSON.parse(replies[0]!)).toMatchObject({ ok: true, data: { request: 'GET /pets/p1?api_key=[redacted]' } });
    expect(JSON.parse(replies[1]!)).toMatchObject({ ok: false, error: { code: 'PROVIDER_ERROR', details: { providerBody: { request: 'GET /pets/err?api_key=[redacted]' } } } });
    for (const reply of replies) {
      for (const spelling of [...spellings, ...escaped]) expect(reply).not.toContain(spelling);
      expect(reply.match(/\[redacted\]/g)?.length).toBe(total + 1); // the request URL and each spelling
    }
    expect(engine.logs.join('\n')).not.toContain(encodeURIComponent(KEY));
  });

  it('redacts the key in a body of another charset (UTF-16), which comes back as UTF-8 text', async () => {
    const reply = await execute(pets, 'pets.getPet', 'utf16');
    expect(JSON.parse(reply)).toEqual({ ok: true, status: 200, data: { echo: 'invalid key [redacted]' }, error: null });
  });

  it('redacts a key outside ASCII in each encoder\'s spelling', async () => {
    const reply = await execute(wide, 'pets2.getPet', 'wide');
    expect(JSON.parse(reply)).toEqual({ ok: true, status: 200, data: { php: '[redacted]', dotnet: '[redacted]', html: '[redacted]', url: '[redacted]' }, error: null });
    expect(reply).not.toContain('canary_7');
  });
});
