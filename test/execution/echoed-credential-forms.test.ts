// A provider that echoes the credential it was sent in every form a review found or a client could
// make of it: upper- and lower-cased, percent-encoded, base64 and base64url of the key and of
// `user:key` (HTTP Basic) at each offset, and truncated copies. None reaches the caller
// (src/execution/redaction.ts). A 401 or 403 answer keeps only the fields that name its error
// (src/execution/refusal-body.ts).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactorFor } from '../../src/execution/redaction.ts';
import { importGetService, publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { json, startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts';

/** An API key with characters base64 and URLs spell differently. */
const KEY = 'Sk_live_CanaryQ7x9+Mm2/Vb4Ty8Lp3Zr';
const EMAIL = 'ops@example.test';
const PASSWORD = 'ATATT3xFfGF0CanaryBasic+Pw/9f2eQ';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** Every form of `key` the fake echoes, by name; `whole` is what was sent when it differs (user:password). */
function forms(key: string, whole?: string): Record<string, string> {
  return {
    plain: key,
    upper: key.toUpperCase(),
    lower: key.toLowerCase(),
    url: encodeURIComponent(key),
    urlLowerHex: encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    b64: b64(key),
    b64url: b64url(key),
    b64Upper: b64(key).toUpperCase(),
    b64Lower: b64(key).toLowerCase(),
    // `key:` (Stripe's key as the Basic user), and `user:key` with the key at each offset modulo 3.
    b64KeyColon: b64(`${key}:`),
    b64User0: b64(`ab:${key}`),
    b64User1: b64(`abc:${key}`),
    b64User2: b64(`a:${key}`),
    b64urlUser1: b64url(`abc:${key}`),
    urlB64User2: encodeURIComponent(b64(`a:${key}`)),
    ...(whole ? { whole, b64Whole: b64(whole), b64WholeUpper: b64(whole).toUpperCase(), urlWhole: encodeURIComponent(whole) } : {}),
    truncHead: key.slice(0, 12),
    truncTail: key.slice(-12),
    truncMiddle: key.slice(5, 20),
    truncUpper: key.slice(2, 16).toUpperCase(),
    truncInText: `your key ${key.slice(0, 14)}… is invalid`,
  };
}

/** The credential as the fake received it: the key, or the password and user:password of Basic. */
function credentialOf(headers: Record<string, string | string[] | undefined>): { key: string; whole?: string } {
  const basic = /^Basic (.+)$/.exec(String(headers.authorization ?? ''));
  if (basic) {
    const whole = Buffer.from(basic[1]!, 'base64').toString('utf8');
    return { key: whole.slice(whole.indexOf(':') + 1), whole };
  }
  return { key: String(headers['x-api-key'] ?? '') };
}

/** Every 12-character piece of `text`, lower-cased: none may be found in an answer. */
const pieces = (text: string) => Array.from({ length: Math.max(0, text.length - 11) }, (_, i) => text.slice(i, i + 12).toLowerCase());

describe('a provider echoing the credential in every form', () => {
  let echo: FakeProvider;
  let t: TestEngine;
  let keyed: { versionId: string; token: string };
  let basic: { versionId: string; token: string };

  beforeAll(async () => {
    echo = await startFakeProvider((req, res) => {
      const { key, whole } = credentialOf(req.headers);
      if (req.url.startsWith('/things/refused')) {
        // The usual shape of a refusal, with what such answers also carry: a request dump, debug text.
        return json(res, 401, {
          error: { code: 'invalid_api_key', message: 'Invalid API key provided', type: 'invalid_request_error', doc_url: 'https://docs.example/errors' },
          request: { headers: { 'x-api-key': [...key].reverse().join('') } },
          debug: `seen ${[...key].reverse().join('')} `.repeat(20),
        });
      }
      if (req.url.startsWith('/things/forbidden')) {
        res.writeHead(403, { 'content-type': 'text/html' });
        res.end(`<html><body><h1>Forbidden</h1>${'<p>padding</p>'.repeat(200)}<!-- ${[...key].reverse().join('')} --></body></html>`);
        return;
      }
      json(res, 200, { ...forms(key, whole), shortRun: key.slice(3, 14) });
    });
    t = await startTestEngine();
    await importGetService(t, {
      name: 'echo',
      url: echo.url,
      path: '/things/{id}',
      operationId: 'getThing',
      parameters: ['{ name: id, in: path, required: true, schema: { type: string } }'],
      auth: { type: 'api_key', in: 'header', name: 'X-Api-Key' },
    });
    keyed = await publishSdk(t, { name: 'echo', service: 'echo', baseUrl: echo.url, secret: KEY, operations: ['getThing'] });
    basic = await publishSdk(t, { name: 'jira-echo', service: 'jira', baseUrl: echo.url, secret: `${EMAIL}:${PASSWORD}`, operations: ['getCurrentUser'] });
    t.canaries.push(PASSWORD, b64(`${EMAIL}:${PASSWORD}`).replace(/=+$/, ''));
  });
  afterAll(async () => {
    await t?.stop(); // fails if a canary reached a log line
    await echo?.stop();
  });

  it('hands back none of the API key’s forms, each redacted where it stood', async () => {
    const res = await t.execute(keyed.versionId, keyed.token, { operation: 'echo.getThing', input: { id: 'one' } });
    expect(res.status).toBe(200);
    expect(echo.requests.at(-1)!.headers['x-api-key']).toBe(KEY);
    const data = res.body.data as Record<string, string>;
    for (const [name, form] of Object.entries(forms(KEY))) {
      expect(data[name], name).toContain('[redacted]');
      expect(data[name], name).not.toBe(form);
    }
    const reply = JSON.stringify(res.body).toLowerCase();
    for (const [name, form] of Object.entries(forms(KEY))) if (name !== 'truncInText') for (const piece of pieces(form)) expect(reply, name).not.toContain(piece);
    // A run shorter than 12 characters is not a copy of the key: it stays.
    expect(data.shortRun).toBe(KEY.slice(3, 14));
    expect(data.truncInText).toBe('your key [redacted]… is invalid');
  });

  it('hands back none of an HTTP Basic secret’s forms, the password’s and user:password’s, but keeps the user ID', async () => {
    const res = await t.execute(basic.versionId, basic.token, { operation: 'jira.getCurrentUser', input: {} });
    expect(res.status).toBe(200);
    expect(echo.requests.at(-1)!.headers.authorization).toBe(`Basic ${b64(`${EMAIL}:${PASSWORD}`)}`);
    const data = res.body.data as Record<string, string>;
    const echoed = forms(PASSWORD, `${EMAIL}:${PASSWORD}`);
    for (const [name, form] of Object.entries(echoed)) {
      expect(data[name], name).toContain('[redacted]');
      expect(data[name], name).not.toBe(form);
    }
    const reply = JSON.stringify(res.body).toLowerCase();
    for (const name of Object.keys(echoed).filter((n) => !/whole|InText/i.test(n))) for (const piece of pieces(echoed[name]!)) expect(reply, name).not.toContain(piece);
    // user:password as text and base64: the password's part is gone, whatever the case.
    for (const piece of [...pieces(PASSWORD), ...pieces(b64(`${EMAIL}:${PASSWORD}`).slice(24))]) expect(reply).not.toContain(piece);
    expect(data.shortRun).toBe(PASSWORD.slice(3, 14));
  });

  it('keeps of a 401 only the fields that name the error, and of a 403 page its first 256 characters', async () => {
    const refused = await t.execute(keyed.versionId, keyed.token, { operation: 'echo.getThing', input: { id: 'refused' } });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ ok: false, status: 401, error: { code: 'PROVIDER_ERROR' } });
    expect(refused.body.error.details.providerBody).toEqual({
      error: { code: 'invalid_api_key', message: 'Invalid API key provided', type: 'invalid_request_error', doc_url: 'https://docs.example/errors' },
    });
    const forbidden = await t.execute(keyed.versionId, keyed.token, { operation: 'echo.getThing', input: { id: 'forbidden' } });
    expect(forbidden.body).toMatchObject({ ok: false, status: 403, error: { code: 'PROVIDER_ERROR' } });
    const page = forbidden.body.error.details.providerBody as string;
    expect(page.startsWith('<html><body><h1>Forbidden</h1>')).toBe(true);
    expect(page).toHaveLength(257); // 256 characters and '…'
    const reversed = [...KEY].reverse().join('');
    for (const reply of [refused.body, forbidden.body]) expect(JSON.stringify(reply)).not.toContain(reversed.slice(0, 8));
  });
});

describe('a truncated copy anywhere in a body', () => {
  it('is redacted wherever it starts and ends, in either case, whatever surrounds it', () => {
    const redactor = redactorFor([KEY], KEY);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), fc.nat(KEY.length - 12), fc.nat(KEY.length), fc.boolean(), (before, after, start, extra, upper) => {
        const run = KEY.slice(start, Math.min(KEY.length, start + 12 + extra));
        const copy = upper ? run.toUpperCase() : run;
        const out = redactor.redact(Buffer.from(`${before}${copy}${after}`), 'text/plain').toString();
        expect(out.toLowerCase()).not.toContain(run.toLowerCase());
        expect(out).toContain('[redacted]');
      }),
      { numRuns: 500 },
    );
  });
});
