// Provider request building (src/execution/request.ts) without an Engine or a provider: OpenAPI
// parameter styles in the path, query and headers, the credential, the body, refusals naming the
// input field, next-page links keeping the query credential, and paths that reach another operation.
import { describe, expect, it } from 'vitest';
import type { ApiKeyAuth, OperationSpec, ParameterSpec } from '../../src/catalog/index.ts';
import { EngineError } from '../../src/envelope/index.ts';
import { buildRequest, encodePathValue, reachesAnother, renewedRequest, withQueryCredential, type RequestTarget } from '../../src/execution/request.ts';

const param = (name: string, where: ParameterSpec['in'], extra: Partial<ParameterSpec> = {}): ParameterSpec => ({
  name,
  in: where,
  required: where === 'path',
  schema: {},
  explode: false,
  deepObject: false,
  slashPreserving: false,
  ...extra,
});

const operation = (method: string, path: string, parameters: ParameterSpec[], extra: Partial<OperationSpec> = {}): OperationSpec => ({
  id: `svc.${method.toLowerCase()}${path}`,
  service: 'svc',
  providerOperationId: 'op',
  method,
  path,
  summary: '',
  description: '',
  tags: [],
  group: [],
  deprecated: false,
  parameters,
  body: null,
  responses: {},
  pagination: null,
  ...extra,
});

const BASE = 'https://api.example.test/v1';
const target = (extra: Partial<RequestTarget> = {}): RequestTarget => ({ baseUrl: BASE, headers: {}, auth: undefined, secret: null, ...extra });
const queryKey: ApiKeyAuth = { name: 'key', type: 'api_key', in: 'query', param: 'api_key', prefix: '' };
const headerKey: ApiKeyAuth = { name: 'key', type: 'api_key', in: 'header', header: 'Authorization', prefix: 'Bearer ' };

/** The query string of a request built for `op` with `input`. */
const queryOf = (op: OperationSpec, input: Record<string, unknown>, t = target()) => new URL(buildRequest(op, input, t).url).search;

/** The EngineError `run` throws. */
function refusal(run: () => unknown): EngineError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(EngineError);
    return err as EngineError;
  }
  throw new Error('expected a refusal');
}

describe('buildRequest: the path', () => {
  const op = operation('GET', '/repos/{owner}/{repo}/contents/{path}', [param('owner', 'path'), param('repo', 'path'), param('path', 'path', { slashPreserving: true })]);

  it('escapes each value, keeping only a slash-preserving one\'s "/"', () => {
    const req = buildRequest(op, { owner: 'a b', repo: 'x/y', path: 'docs/read me.md' }, target());
    expect(req.url).toBe(`${BASE}/repos/a%20b/x%2Fy/contents/docs/read%20me.md`);
  });

  it('fills a placeholder used twice, and a value holding "$&" literally', () => {
    const twice = operation('GET', '/a/{id}/b/{id}', [param('id', 'path')]);
    expect(buildRequest(twice, { id: '$&' }, target()).url).toBe(`${BASE}/a/%24%26/b/%24%26`);
  });

  it('writes arrays and objects in simple style, each part escaped', () => {
    const p = param('ids', 'path');
    expect(encodePathValue(p, ['a,b', 'c d'])).toBe('a%2Cb,c%20d');
    expect(encodePathValue(p, { role: 'admin', 'first name': 'x' })).toBe('role,admin,first%20name,x');
    expect(encodePathValue({ ...p, explode: true }, { role: 'admin' })).toBe('role=admin');
  });

  it('writes a large integer as its digits, not in exponent form', () => {
    expect(encodePathValue(param('n', 'path'), 1e21)).toBe('1000000000000000000000');
  });

  it.each([
    ['an empty value', ''],
    ['an empty list', []],
    ['an empty object', {}],
    ['null', null],
    ['a dot segment', '..'],
  ])('refuses %s, which would name another path, naming input.<name>', (_what, value) => {
    const err = refusal(() => encodePathValue(param('id', 'path'), value));
    expect(err.code).toBe('ENGINE_INVALID_INPUT');
    expect(err.details).toMatchObject({ field: 'input.id' });
  });

  it.each(['a//b', '/a', 'a/', 'a/../b'])('refuses the slash-preserving value %j (an empty or dot segment)', (value) => {
    expect(refusal(() => encodePathValue(param('path', 'path', { slashPreserving: true }), value)).details).toMatchObject({ field: 'input.path' });
  });

  it('refuses an unpaired surrogate, which has no UTF-8 form', () => {
    const err = refusal(() => buildRequest(op, { owner: '\ud800', repo: 'r', path: 'p' }, target()));
    expect(err.message).toContain('input/owner contains an unpaired UTF-16 surrogate');
  });
});

describe('buildRequest: the query', () => {
  it('leaves out undefined and null values', () => {
    const op = operation('GET', '/x', [param('a', 'query'), param('b', 'query')]);
    expect(queryOf(op, { a: null })).toBe('');
  });

  it.each([
    [{ explode: true }, '?tag=a&tag=b%20c'],
    [{}, '?tag=a,b%20c'],
    [{ delimiter: ' ' as const }, '?tag=a%20b%20c'],
    [{ delimiter: '|' as const }, '?tag=a|b%20c'],
  ])('writes an array with %j as %s', (style, query) => {
    expect(queryOf(operation('GET', '/x', [param('tag', 'query', style)]), { tag: ['a', 'b c'] })).toBe(query);
  });

  it('writes objects as form (exploded or not) and deepObject', () => {
    const value = { color: 'red', 'a b': 1 };
    expect(queryOf(operation('GET', '/x', [param('f', 'query')]), { f: value })).toBe('?f=color,red,a%20b,1');
    expect(queryOf(operation('GET', '/x', [param('f', 'query', { explode: true })]), { f: value })).toBe('?color=red&a%20b=1');
    expect(queryOf(operation('GET', '/x', [param('f', 'query', { deepObject: true })]), { f: value })).toBe('?f[color]=red&f[a%20b]=1');
  });

  it('sends a parameter described by content as its JSON text', () => {
    expect(queryOf(operation('GET', '/x', [param('q', 'query', { json: true })]), { q: { a: [1] } })).toBe(`?q=${encodeURIComponent('{"a":[1]}')}`);
  });

  it("refuses an exploded object whose property is another query parameter's name, or the query credential's", () => {
    const op = operation('GET', '/x', [param('f', 'query', { explode: true }), param('limit', 'query')]);
    expect(refusal(() => buildRequest(op, { f: { limit: 5 } }, target())).message).toContain("has a property 'limit'");
    expect(refusal(() => buildRequest(op, { f: { api_key: 'mine' } }, target({ auth: queryKey, secret: 's' }))).details).toMatchObject({ field: 'input.f' });
  });

  it('reads a parameter keyed other than by its name from that key', () => {
    const op = operation('GET', '/x/{token}', [param('token', 'path'), param('token', 'query', { key: 'query.token' })]);
    expect(buildRequest(op, { token: 'p', 'query.token': 'q' }, target()).url).toBe(`${BASE}/x/p?token=q`);
  });
});

describe('buildRequest: headers, body and credential', () => {
  it("sends the Engine's headers, the service's (lower-cased) and the header parameters", () => {
    const op = operation('GET', '/x', [param('X-Trace', 'header'), param('X-List', 'header'), param('X-Obj', 'header', { explode: true })]);
    const req = buildRequest(op, { 'X-Trace': 'abc', 'X-List': ['a', 'b'], 'X-Obj': { k: 'v' } }, target({ headers: { 'X-Api-Version': '2024-01-01' } }));
    expect(req.headers).toEqual({ accept: 'application/json', 'user-agent': 'svc-engine/0.1', 'x-api-version': '2024-01-01', 'x-trace': 'abc', 'x-list': 'a,b', 'x-obj': 'k=v' });
  });

  it('leaves a null header out, but sends a JSON-described one as its JSON text, a string included', () => {
    const op = operation('GET', '/x', [param('X-A', 'header'), param('X-J', 'header', { json: true })]);
    expect(buildRequest(op, { 'X-A': null, 'X-J': 'text' }, target()).headers).toMatchObject({ 'x-j': '"text"' });
    expect(buildRequest(op, { 'X-A': null, 'X-J': 'text' }, target()).headers).not.toHaveProperty('x-a');
    expect(buildRequest(op, { 'X-J': null }, target()).headers).toMatchObject({ 'x-j': 'null' });
  });

  it.each([
    ['a line break', 'a\r\nInjected: 1', 'must not contain line breaks'],
    ['a character past Latin-1', 'é✓', 'must hold only printable ASCII'],
  ])('refuses a header value holding %s', (_what, value, message) => {
    const op = operation('GET', '/x', [param('X-A', 'header')]);
    expect(refusal(() => buildRequest(op, { 'X-A': value }, target())).message).toContain(message);
  });

  it('sends the body as JSON with its content type, only when the operation has one', () => {
    const withBody = operation('POST', '/x', [], { body: { contentType: 'application/merge-patch+json', required: true, schema: {} } });
    const req = buildRequest(withBody, { body: { a: 1 } }, target());
    expect(req).toMatchObject({ method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/merge-patch+json' } });
    expect(buildRequest(operation('POST', '/x', []), { body: { a: 1 } }, target()).body).toBeUndefined();
  });

  it('adds an API key in its header with its prefix, or in the query after the parameters', () => {
    const op = operation('GET', '/x', [param('q', 'query')]);
    expect(buildRequest(op, {}, target({ auth: headerKey, secret: 's3cret' })).headers.authorization).toBe('Bearer s3cret');
    expect(buildRequest(op, { q: '1' }, target({ auth: queryKey, secret: 'a&b' })).url).toBe(`${BASE}/x?q=1&api_key=a%26b`);
    expect(buildRequest(op, {}, target({ auth: queryKey, secret: null })).url).toBe(`${BASE}/x`);
  });
});

describe('withQueryCredential', () => {
  it("replaces the provider's own value of the credential parameter and keeps the rest of its query byte for byte", () => {
    expect(withQueryCredential('https://p.test/items?page=2&api_key=theirs&b=%2F#frag', queryKey, 'mine')).toBe('https://p.test/items?page=2&b=%2F&api_key=mine');
    expect(withQueryCredential('https://p.test/items', queryKey, 'mine')).toBe('https://p.test/items?api_key=mine');
  });

  it('finds the parameter however it is encoded, and keeps a pair it cannot decode', () => {
    expect(withQueryCredential('https://p.test/i?api%5Fkey=x&%zz=1', queryKey, 'k')).toBe('https://p.test/i?%zz=1&api_key=k');
  });

  it('leaves the link alone without a query credential', () => {
    const href = 'https://p.test/i?api_key=x';
    expect(withQueryCredential(href, headerKey, 'k')).toBe(href);
    expect(withQueryCredential(href, queryKey, null)).toBe(href);
    expect(withQueryCredential(href, undefined, 'k')).toBe(href);
  });
});

describe('reachesAnother', () => {
  const branch = param('branch', 'path', { slashPreserving: true });
  const getBranch = operation('GET', '/repos/{repo}/branches/{branch}', [param('repo', 'path'), branch]);
  const getProtection = operation('GET', '/repos/{repo}/branches/{branch}/protection', [param('repo', 'path'), param('branch', 'path')]);
  const putProtection = operation('PUT', '/repos/{repo}/branches/{branch}/protection', [param('repo', 'path'), param('branch', 'path')]);
  const check = (input: Record<string, unknown>, operations: OperationSpec[]) => reachesAnother(getBranch, input, buildRequest(getBranch, input, target()), BASE, operations);

  it('names the parameter and the operation a slash-preserving value would reach', () => {
    expect(check({ repo: 'r', branch: 'main/protection' }, [getBranch, getProtection])).toEqual({ param: 'branch', other: getProtection });
  });

  it('finds nothing for a value without "/", another method, or a path no template matches', () => {
    expect(check({ repo: 'r', branch: 'main' }, [getBranch, getProtection])).toBeUndefined();
    expect(check({ repo: 'r', branch: 'main/protection' }, [getBranch, putProtection])).toBeUndefined();
    expect(check({ repo: 'r', branch: 'feature/x' }, [getBranch, getProtection])).toBeUndefined();
  });
});

describe('renewedRequest', () => {
  const op = operation('GET', '/x', []);
  const t = target({ auth: headerKey, secret: 'old' });

  it('builds the request again with the renewed token', async () => {
    const renewed = await renewedRequest(op, {}, t, async () => 'new');
    expect(renewed?.request.headers.authorization).toBe('Bearer new');
    expect(renewed?.target.secret).toBe('new');
  });

  it('gives nothing when the connection has no newer token', async () => {
    expect(await renewedRequest(op, {}, t, async () => 'old')).toBeUndefined();
  });
});
