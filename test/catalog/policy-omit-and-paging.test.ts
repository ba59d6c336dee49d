// engine.yaml's `omit` (operations left out on review, each with its reason) and the offset
// style's `last` and `total` pointers, as normalisation reads them (strictly, as `npm run gen` does).
import { describe, expect, it } from 'vitest';
import { CatalogError, normalizeService, parsePolicy } from '../../src/catalog/index.ts';

const document = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/items': { get: { operationId: 'list', parameters: [{ name: 'startAt', in: 'query', schema: { type: 'integer' } }], responses: { '200': { description: 'ok' } } } },
    '/x/(ref/{ref}/)run': { post: { operationId: 'run', parameters: [{ name: 'ref', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } } },
  },
};
const normalize = (policy: Record<string, unknown>) => normalizeService({ service: 't', version: 'v1', document, policy: parsePolicy({ baseUrl: 'https://t.example', ...policy }, 'p'), strict: true });
const paging = (policy: Record<string, unknown>) => ({ pagination: { policies: { p: { pageInput: 'startAt', items: '/values', engineMaxPages: 5, callerBound: true, ...policy } }, operations: { list: 'p' } } });

describe('engine.yaml omit', () => {
  it('leaves a reviewed operation out, listed with its reason, even in a strict (bundled) normalisation', () => {
    const index = normalize({ omit: { run: "Grape's optional-segment parentheses are no URL" } });
    expect(index.operations.map((o) => o.id)).toEqual(['t.list']);
    expect(index.omitted).toEqual([{ operationId: 'run', field: 'omit.run', reason: "left out on review of the Engine policy: Grape's optional-segment parentheses are no URL" }]);
  });

  it('refuses an omit naming no operation, or one without a reason', () => {
    expect(() => normalize({ omit: { nope: 'gone' } })).toThrow("omit names unknown operation 'nope'");
    expect(() => normalize({ omit: { run: '' } })).toThrow(CatalogError);
    expect(() => normalize({ omit: ['run'] })).toThrow(CatalogError);
  });
});

describe('offset pagination with last and total', () => {
  it('keeps both pointers on the operation', () => {
    const index = normalize(paging({ style: 'offset', last: '/isLast', total: '/total' }));
    expect(index.operations.find((o) => o.id === 't.list')!.pagination).toEqual({ style: 'offset', pageInput: 'startAt', items: '/values', last: '/isLast', total: '/total', engineMaxPages: 5, callerBound: true });
  });

  it('refuses total outside the offset style, last outside offset and page, and a pointer that is not one', () => {
    expect(() => normalize(paging({ style: 'cursor', continuation: '/next', total: '/total' }))).toThrow("'total' applies to offset pagination only");
    expect(() => normalize(paging({ style: 'page', total: '/total' }))).toThrow("'total' applies to offset pagination only");
    expect(() => normalize(paging({ style: 'cursor', continuation: '/next', last: '/isLast' }))).toThrow("'last' applies to offset and page pagination only");
    expect(normalize(paging({ style: 'page', last: '/isLast' })).operations[0]!.pagination).toMatchObject({ style: 'page', last: '/isLast' });
    expect(() => normalize(paging({ style: 'offset', total: 'total' }))).toThrow(CatalogError);
  });
});
