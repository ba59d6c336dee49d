// Safety hints as normalisation and src/catalog/safety.ts read them: derived from the method,
// overridden per operation by engine.yaml's `safety`, which must name operations that exist and
// may not call one operation both read-only and destructive.
import { describe, expect, it } from 'vitest';
import { CatalogError, combinedHints, normalizeService, operationHints, parsePolicy } from '../../src/catalog/index.ts';

const op = (method: string, operationId: string) => ({ [method]: { operationId, responses: { '200': { description: 'ok' } } } });
const document = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/items': { ...op('get', 'list'), ...op('post', 'create') },
    '/items/{id}': { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], ...op('put', 'replace'), ...op('patch', 'update'), ...op('delete', 'remove'), ...op('head', 'exists') },
    '/search': op('post', 'search'),
  },
};
const normalize = (policy: Record<string, unknown> = {}) => normalizeService({ service: 't', version: 'v1', document, policy: parsePolicy({ baseUrl: 'https://t.example', ...policy }, 'p'), strict: true });
const hintsOf = (index: ReturnType<typeof normalize>) => Object.fromEntries(index.operations.map((o) => [o.providerOperationId, operationHints(index, o)]));

describe('safety hints', () => {
  it('follow the method: GET, HEAD and OPTIONS read; DELETE destroys; POST, PUT and PATCH change data', () => {
    expect(hintsOf(normalize())).toEqual({
      list: { readOnly: true, destructive: false },
      exists: { readOnly: true, destructive: false },
      create: { readOnly: false, destructive: false },
      search: { readOnly: false, destructive: false },
      replace: { readOnly: false, destructive: false },
      update: { readOnly: false, destructive: false },
      remove: { readOnly: false, destructive: true },
    });
  });

  it('take what engine.yaml declares per operation, the other hint following it', () => {
    const index = normalize({ safety: { search: { readOnly: true }, replace: { destructive: true }, remove: { destructive: false }, list: { readOnly: false } } });
    expect(index.safety).toEqual({ search: { readOnly: true }, replace: { destructive: true }, remove: { destructive: false }, list: { readOnly: false } });
    expect(hintsOf(index)).toMatchObject({
      search: { readOnly: true, destructive: false },
      replace: { readOnly: false, destructive: true },
      remove: { readOnly: false, destructive: false },
      list: { readOnly: false, destructive: false },
    });
  });

  it('refuses a safety entry naming no operation, an empty one, and one both read-only and destructive', () => {
    expect(() => normalize({ safety: { nope: { readOnly: true } } })).toThrow("safety names unknown operation 'nope'");
    expect(() => normalize({ safety: { list: {} } })).toThrow(CatalogError);
    expect(() => normalize({ safety: { remove: { readOnly: true, destructive: true } } })).toThrow(CatalogError);
    expect(() => normalize({ safety: { list: { readOnly: 'yes' } } })).toThrow(CatalogError);
  });

  it('combine as a Unified operation runs them: read-only when all are, destructive when any is', () => {
    expect(combinedHints([{ readOnly: true, destructive: false }, { readOnly: true, destructive: false }])).toEqual({ readOnly: true, destructive: false });
    expect(combinedHints([{ readOnly: true, destructive: false }, { readOnly: false, destructive: true }])).toEqual({ readOnly: false, destructive: true });
  });
});
