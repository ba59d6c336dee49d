// HTTP Basic auth (engine.yaml `type: http_basic`): the stored secret is user:password, sent as
// `Authorization: Basic base64(…)`; a provider that echoes the credential, as text, base64 or its
// password alone, hands none of them back; a secret that is not user:password is refused unsent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationSpec } from '../../src/catalog/index.ts';
import { CatalogError, parsePolicy } from '../../src/catalog/index.ts';
import { basicCredential, buildRequest, secretForms } from '../../src/execution/request.ts';
import { publishSdk, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startJira, type FakeJira } from '../fixtures/providers/jira.ts';

const EMAIL = 'ops@example.test';
/** A canary token with the characters base64 and URLs spell differently once encoded. */
const TOKEN = 'ATATT3x_CANARY+basic/token=9f2e';
const SECRET = `${EMAIL}:${TOKEN}`;
const BASE64 = Buffer.from(SECRET).toString('base64');

describe('HTTP Basic in the request', () => {
  const op: OperationSpec = {
    id: 'jira.getCurrentUser', service: 'jira', providerOperationId: 'getCurrentUser', method: 'GET', path: '/rest/api/3/myself',
    summary: '', description: '', tags: [], group: ['myself', 'getCurrentUser'], deprecated: false, parameters: [], body: null, responses: {}, pagination: null,
  };

  it('sends user:password as base64 in Authorization, UTF-8 encoded, and nothing in the query', () => {
    const sent = buildRequest(op, {}, { baseUrl: 'https://acme.atlassian.net', headers: {}, auth: { name: 'api_token', type: 'http_basic' }, secret: SECRET });
    expect(sent.headers.authorization).toBe(`Basic ${BASE64}`);
    expect(sent.url).toBe('https://acme.atlassian.net/rest/api/3/myself');
    expect(basicCredential('zoë:pässword')).toBe(`Basic ${Buffer.from('zoë:pässword', 'utf8').toString('base64')}`);
  });

  it('redacts the base64 form (padded or not, base64url) and the password, but not the user ID', () => {
    const redactor = secretForms({ name: 'api_token', type: 'http_basic' }, SECRET)!;
    const echoed = [BASE64, BASE64.replace(/=+$/, ''), Buffer.from(SECRET).toString('base64url'), SECRET, TOKEN].join(' ');
    const text = redactor.redact(Buffer.from(`${echoed} user ${EMAIL}`), 'text/plain').toString();
    for (const form of [BASE64.replace(/=+$/, ''), Buffer.from(SECRET).toString('base64url'), TOKEN]) expect(text).not.toContain(form);
    expect(text).toContain(`user ${EMAIL}`);
    // An API key is redacted as itself; a body without it comes back as the same buffer.
    const plain = Buffer.from('{"id":1}');
    expect(secretForms({ name: 'k', type: 'api_key', in: 'header', header: 'X-Key', prefix: '' }, 'key-1')!.redact(plain, 'application/json')).toBe(plain);
  });

  it('reads http_basic from engine.yaml and refuses anything else on it', () => {
    expect(parsePolicy({ baseUrl: 'https://x.example', auth: [{ name: 'api_token', type: 'http_basic' }] }, 'p').auth).toEqual([{ name: 'api_token', type: 'http_basic' }]);
    expect(() => parsePolicy({ baseUrl: 'https://x.example', auth: [{ name: 'api_token', type: 'http_basic', header: 'X-Auth' }] }, 'p')).toThrow(CatalogError);
  });
});

describe('HTTP Basic through the Engine', () => {
  let t: TestEngine;
  let jira: FakeJira;
  let sdk: { versionId: string; token: string };

  beforeAll(async () => {
    jira = await startJira({ email: EMAIL, apiToken: TOKEN, echo: true });
    t = await startTestEngine();
    sdk = await publishSdk(t, { name: 'basic', service: 'jira', baseUrl: jira.siteUrl, secret: SECRET, operations: ['getCurrentUser', 'searchProjects'] });
    t.canaries.push(TOKEN, BASE64.replace(/=+$/, ''));
  });
  afterAll(async () => {
    await t?.stop(); // fails if the token or its base64 reached a log line
    await jira?.stop();
  });

  it('authenticates, and a provider echoing the credential in every spelling hands none back', async () => {
    const res = await t.execute(sdk.versionId, sdk.token, { operation: 'jira.getCurrentUser', input: {} });
    expect(res.status).toBe(200);
    expect(jira.provider.requests.at(-1)!.headers.authorization).toBe(`Basic ${BASE64}`);
    const padding = BASE64.match(/=*$/)![0];
    expect(res.body.data).toMatchObject({ emailAddress: EMAIL, sent: `Basic [redacted]${padding}`, decoded: '[redacted]', token: '[redacted]', nested: { again: [`[redacted]${padding}`] } });
    const text = JSON.stringify(res.body);
    for (const form of [TOKEN, BASE64.replace(/=+$/, ''), encodeURIComponent(TOKEN)]) expect(text).not.toContain(form);
  });

  it('redacts an echo in an error body too', async () => {
    const other = await publishSdk(t, { name: 'basic-wrong', service: 'jira', baseUrl: jira.siteUrl, secret: `${EMAIL}:wrong-${TOKEN}`, operations: ['getCurrentUser'] });
    try {
      const res = await t.execute(other.versionId, other.token, { operation: 'jira.getCurrentUser', input: {} });
      expect(res.body.error).toMatchObject({ code: 'PROVIDER_ERROR', details: { providerBody: { errorMessages: [expect.stringContaining('[redacted]')], errors: {} } } });
      expect(JSON.stringify(res.body)).not.toContain(TOKEN);
      expect(JSON.stringify(res.body)).not.toContain(Buffer.from(`${EMAIL}:wrong-${TOKEN}`).toString('base64').slice(0, 40));
    } finally {
      await t.api('PUT', '/v1/buckets/default/secrets/jira', { value: SECRET });
    }
  });

  it('refuses a secret that is not user:password before anything is sent, without quoting it', async () => {
    await t.api('PUT', '/v1/buckets/default/secrets/jira', { value: 'no-colon-token-CANARY' });
    t.canaries.push('no-colon-token-CANARY');
    try {
      const before = jira.provider.requests.length;
      const res = await t.execute(sdk.versionId, sdk.token, { operation: 'jira.getCurrentUser', input: {} });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'ENGINE_CREDENTIAL_MISSING', message: expect.stringContaining('user:password') });
      expect(JSON.stringify(res.body)).not.toContain('no-colon-token-CANARY');
      expect(jira.provider.requests.length).toBe(before);
    } finally {
      await t.api('PUT', '/v1/buckets/default/secrets/jira', { value: SECRET });
    }
  });
});
