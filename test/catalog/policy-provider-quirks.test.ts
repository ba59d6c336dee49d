// engine.yaml keys for providers' own ways (spec/services/slack, sendgrid and zoom use them), as
// normalisation reads them strictly: credentialParameters, providerError, the next_url style,
// page style's pages pointer, and oauth2's scopeSeparator, clientAuth and followsBaseUrl.
import { describe, expect, it } from 'vitest';
import { CatalogError, normalizeService, parsePolicy } from '../../src/catalog/index.ts';

const document = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/items': {
      get: {
        operationId: 'list',
        parameters: [
          { name: 'token', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/post': {
      post: {
        operationId: 'post',
        parameters: [{ name: 'token', in: 'header', required: true, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['token', 'text'], properties: { token: { type: 'string' }, text: { type: 'string' } } } } },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};
const normalize = (policy: Record<string, unknown>) => normalizeService({ service: 't', version: 'v1', document, policy: parsePolicy({ baseUrl: 'https://t.example', ...policy }, 'p'), strict: true });
const paging = (policy: Record<string, unknown>) => ({ pagination: { policies: { p: { items: '/values', engineMaxPages: 5, callerBound: true, ...policy } }, operations: { list: 'p' } } });

describe('credentialParameters', () => {
  it("drops the description's credential from parameters and a form body's properties and required", () => {
    const index = normalize({ credentialParameters: ['token'] });
    const list = index.operations.find((o) => o.id === 't.list')!;
    const post = index.operations.find((o) => o.id === 't.post')!;
    expect(list.parameters.map((p) => p.name)).toEqual(['cursor']);
    expect(post.parameters).toEqual([]);
    expect(post.body!.schema).toEqual({ type: 'object', required: ['text'], properties: { text: { type: 'string' } } });
    // Without the key they are inputs like any other, required ones included.
    expect(normalize({}).operations.find((o) => o.id === 't.list')!.parameters.find((p) => p.name === 'token')!.required).toBe(true);
  });
});

describe('providerError', () => {
  it('is kept on the index, and refused unless it is a pointer and a JSON scalar', () => {
    expect(normalize({ providerError: { pointer: '/ok', equals: false } }).providerError).toEqual({ pointer: '/ok', equals: false });
    expect(normalize({}).providerError).toBeUndefined();
    expect(() => normalize({ providerError: { pointer: 'ok', equals: false } })).toThrow(CatalogError);
    expect(() => normalize({ providerError: { pointer: '/ok', equals: { no: 1 } } })).toThrow(CatalogError);
    expect(() => normalize({ providerError: { pointer: '/ok' } })).toThrow(CatalogError);
  });
});

describe('next_url and pages', () => {
  it('keeps a next_url policy, which needs the pointer to the next URL and no page input', () => {
    expect(normalize(paging({ style: 'next_url', continuation: '/_metadata/next' })).operations.find((o) => o.id === 't.list')!.pagination).toMatchObject({ style: 'next_url', continuation: '/_metadata/next' });
    expect(() => normalize(paging({ style: 'next_url' }))).toThrow('next_url pagination needs a continuation pointer');
  });

  it('takes pages on the page style only', () => {
    expect(normalize(paging({ style: 'page', pageInput: 'cursor', pages: '/paging/pages' })).operations.find((o) => o.id === 't.list')!.pagination).toMatchObject({ pages: '/paging/pages' });
    expect(() => normalize(paging({ style: 'cursor', pageInput: 'cursor', continuation: '/next', pages: '/paging/pages' }))).toThrow("'pages' applies to page pagination only");
    expect(() => normalize(paging({ style: 'page', pageInput: 'cursor', pages: 'pages' }))).toThrow(CatalogError);
  });
});

describe('oauth2 scopeSeparator, clientAuth and followsBaseUrl', () => {
  const oauth = (extra: Record<string, unknown>) => ({ auth: [{ name: 'o', type: 'oauth2', authorizationUrl: 'https://id.example/authorize', tokenUrl: 'https://id.example/token', scopes: ['a', 'b'], ...extra }] });
  it('keeps them on the auth method', () => {
    expect(normalize(oauth({ scopeSeparator: ',', clientAuth: 'basic', followsBaseUrl: true })).auth[0]).toMatchObject({ scopeSeparator: ',', clientAuth: 'basic', followsBaseUrl: true });
  });
  it('refuses a separator longer than one character and a client authentication it does not know', () => {
    expect(() => normalize(oauth({ scopeSeparator: ', ' }))).toThrow(CatalogError);
    expect(() => normalize(oauth({ clientAuth: 'jwt' }))).toThrow(CatalogError);
    expect(() => normalize(oauth({ followsBaseUrl: 'yes' }))).toThrow(CatalogError);
  });
});
