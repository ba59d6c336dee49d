// normalizeService: an import leaves out what one operation gets wrong; a bundled, reviewed
// description (`npm run gen`, strict) is refused for it instead.
import { describe, expect, it } from 'vitest';
import { CatalogError, normalizeService, parsePolicy } from '../../src/catalog/index.ts';

const document = {
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  paths: {
    '/good': { get: { operationId: 'good', responses: { '200': { description: 'ok' } } } },
    '/bad/{id}': { get: { operationId: 'bad', responses: { '200': { description: 'ok' } } } },
    '/again': { get: { operationId: 'good', responses: { '200': { description: 'ok' } } } },
  },
};
const policy = parsePolicy({ baseUrl: 'https://api.example.com' }, 'test');

describe('normalizeService', () => {
  it('leaves out, with the reason, each operation it cannot send, and keeps the rest', () => {
    const index = normalizeService({ service: 'svc', version: 'v1', document, policy });
    expect(index.operations.map((o) => o.providerOperationId)).toEqual(['good']);
    expect(index.omitted?.map((o) => [o.operationId, o.reason])).toEqual([
      ['bad', 'path template {id} has no path parameter'],
      ['good', 'GET /again repeats the operationId of an operation already imported'],
    ]);
  });

  it('refuses the whole description for the same problems when strict', () => {
    expect(() => normalizeService({ service: 'svc', version: 'v1', document, policy, strict: true })).toThrow(CatalogError);
    expect(() => normalizeService({ service: 'svc', version: 'v1', document, policy, strict: true })).toThrow(/has no path parameter/);
  });
});
