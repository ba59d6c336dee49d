// Form bodies (application/x-www-form-urlencoded, Stripe's writes): how src/catalog/normalize.ts
// reads a description's body and encoding, and how src/execution/request.ts writes the body; and
// a deepObject query array, written by index as Stripe reads its `expand`.
import { describe, expect, it } from 'vitest';
import { normalizeService, type OperationSpec } from '../../src/catalog/index.ts';
import { EngineError } from '../../src/envelope/index.ts';
import { buildRequest } from '../../src/execution/request.ts';

const FORM = 'application/x-www-form-urlencoded';

/** One POST /things operation whose body is `media`, normalised as a bundled service is (strict). */
function opWith(media: Record<string, unknown>, method = 'post'): OperationSpec | undefined {
  const document = {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: { '/things': { [method]: { operationId: 'op', requestBody: { content: { [FORM]: media } }, responses: { '200': { description: 'ok' } } } } },
  };
  return normalizeService({ service: 'form', version: 'v1', document, policy: { baseUrl: 'https://api.example.test' }, strict: true }).operations[0];
}

const target = { baseUrl: 'https://api.example.test', headers: {}, auth: undefined, secret: null };
const decoded = (body: string | undefined) => body!.split('&').map(decodeURIComponent);

describe('form bodies', () => {
  it('writes deepObject properties in brackets, arrays by index, and form properties as plain pairs', () => {
    const op = opWith({
      schema: { type: 'object', properties: { email: { type: 'string' }, metadata: { type: 'object' }, items: { type: 'array' }, tags: { type: 'array' }, note: {} } },
      encoding: { metadata: { style: 'deepObject', explode: true }, items: { style: 'deepObject', explode: true } },
    })!;
    expect(op.body).toMatchObject({ contentType: FORM, encoding: { metadata: { style: 'deepObject' }, items: { style: 'deepObject' } } });
    const req = buildRequest(op, { body: { email: 'a+b@example.com', metadata: { plan: 'pro', 'odd key&': 'x y' }, items: [{ price: 'p_1', quantity: 2 }], tags: ['a', 'b'], note: null } }, target);
    expect(req.headers['content-type']).toBe(FORM);
    // '+' and '&' inside values are escaped: the provider reads the value written, not a new pair.
    expect(req.body).toContain('email=a%2Bb%40example.com');
    expect(req.body).toContain('metadata[odd%20key%26]=x%20y');
    expect(decoded(req.body)).toEqual(['email=a+b@example.com', 'metadata[plan]=pro', 'metadata[odd key&]=x y', 'items[0][price]=p_1', 'items[0][quantity]=2', 'tags=a', 'tags=b', 'note=']);
    expect(new URLSearchParams(req.body).get('metadata[odd key&]')).toBe('x y');
  });

  it('follows explode: false and a JSON content type of an encoding entry', () => {
    const op = opWith({
      schema: { type: 'object', properties: { ids: { type: 'array' }, filter: { type: 'object' } } },
      encoding: { ids: { style: 'pipeDelimited', explode: false }, filter: { contentType: 'application/json' } },
    })!;
    expect(decoded(buildRequest(op, { body: { ids: [1, 2], filter: { a: 1 } } }, target).body)).toEqual(['ids=1|2', 'filter={"a":1}']);
  });

  it('refuses a body that is not an object, naming input.body', () => {
    const op = opWith({ schema: { type: 'object', properties: { a: { type: 'string' } } } })!;
    const refused = (() => {
      try {
        buildRequest(op, { body: ['a'] }, target);
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(EngineError);
    expect((refused as EngineError).details).toMatchObject({ field: 'input.body' });
  });

  it('has no body where the form declares nothing and allows nothing (Stripe declares one on its GETs)', () => {
    expect(opWith({ schema: { type: 'object', properties: {}, additionalProperties: false } }, 'get')!.body).toBeNull();
  });

  it('refuses an encoding style a form body cannot have', () => {
    expect(() => opWith({ schema: { type: 'object' }, encoding: { a: { style: 'matrix' } } })).toThrow(/style 'matrix' is not supported in a form body/);
  });
});

describe('deepObject query arrays', () => {
  it('are written by index, as Stripe reads expand', () => {
    const document = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: { '/things': { get: { operationId: 'list', parameters: [{ name: 'expand', in: 'query', style: 'deepObject', explode: true, schema: { type: 'array', items: { type: 'string' } } }], responses: { '200': { description: 'ok' } } } } },
    };
    const op = normalizeService({ service: 'form', version: 'v1', document, policy: { baseUrl: 'https://api.example.test' }, strict: true }).operations[0]!;
    expect(buildRequest(op, { expand: ['data.customer', 'data.invoice'] }, target).url).toBe('https://api.example.test/things?expand[0]=data.customer&expand[1]=data.invoice');
  });
});
