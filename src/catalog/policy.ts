// The Engine's policy for a provider (engine.yaml): its schema, and the auth methods it declares,
// checked before a description is normalised with it.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { ApiKeyAuth, AuthMethod, PaginationPolicy, ProviderErrorRule } from './types.ts';
import type { SafetyOverride } from './safety.ts';
import { CatalogError, FIELD_TEXT, headerNameProblem } from './problems.ts';

export interface EnginePolicy {
  title?: string;
  baseUrl: string;
  auth?: AuthMethod[];
  headers?: Record<string, string>;
  pagination?: {
    policies?: Record<string, Omit<PaginationPolicy, never>>;
    operations?: Record<string, string>;
  };
  slashPreserving?: Record<string, string[]>;
  grouping?: Record<string, string>;
  /** Operations of a bundled description left out on review, each with the reason (an operation the Engine could send, but not as the provider serves it). */
  omit?: Record<string, string>;
  /**
   * Names the description gives the credential as a parameter of its own (Slack's `token` on every
   * method): parameters so named, and such top-level properties of a request body, are the
   * Engine's, never a caller's input.
   */
  credentialParameters?: string[];
  providerError?: ProviderErrorRule;
  /** The provider honours an idempotency key in this header (Stripe's `Idempotency-Key`). */
  idempotency?: { header: string };
  /** Attempts of one provider request (src/execution/retry.ts; default 3; 1 never retries). */
  retry?: { maxAttempts: number };
  /** Safety hints declared per provider operation ID, over those derived from the method (src/catalog/safety.ts). */
  safety?: Record<string, SafetyOverride>;
}

const policySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['baseUrl'],
  properties: {
    title: { type: 'string' },
    source: {},
    baseUrl: { type: 'string', pattern: '^https?://' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    auth: {
      type: 'array',
      items: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'type', 'in'],
            properties: {
              name: { type: 'string' },
              type: { const: 'api_key' },
              in: { enum: ['header', 'query'] },
              header: { type: 'string', minLength: 1 },
              param: { type: 'string', minLength: 1 },
              prefix: { type: 'string' },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'type'],
            properties: {
              name: { type: 'string' },
              type: { const: 'http_basic' },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'type', 'authorizationUrl', 'tokenUrl'],
            properties: {
              name: { type: 'string' },
              type: { const: 'oauth2' },
              authorizationUrl: { type: 'string' },
              tokenUrl: { type: 'string' },
              revocationUrl: { type: 'string' },
              scopes: { type: 'array', items: { type: 'string' } },
              scopeSeparator: { type: 'string', minLength: 1, maxLength: 1 },
              clientAuth: { enum: ['body', 'basic'] },
              followsBaseUrl: { type: 'boolean' },
            },
          },
        ],
      },
    },
    pagination: {
      type: 'object',
      additionalProperties: false,
      properties: {
        policies: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            required: ['style', 'items', 'engineMaxPages', 'callerBound'],
            properties: {
              style: { enum: ['cursor', 'link_header', 'next_url', 'page', 'offset'] },
              pageInput: { type: 'string' },
              continuation: { type: 'string', pattern: '^(/.*)?$' },
              items: { type: 'string', pattern: '^(/.*)?$' },
              stop: { type: 'string', pattern: '^(/.*)?$' },
              pages: { type: 'string', pattern: '^(/.*)?$' },
              last: { type: 'string', pattern: '^(/.*)?$' },
              total: { type: 'string', pattern: '^(/.*)?$' },
              engineMaxPages: { type: 'integer', minimum: 1, maximum: 1000 },
              callerBound: { type: 'boolean' },
            },
          },
        },
        operations: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    slashPreserving: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
    grouping: { type: 'object', additionalProperties: { type: 'string', pattern: '^[A-Za-z_][\\w.]*$' } },
    omit: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
    credentialParameters: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    providerError: {
      type: 'object',
      additionalProperties: false,
      required: ['pointer', 'equals'],
      properties: { pointer: { type: 'string', pattern: '^/' }, equals: { type: ['string', 'number', 'boolean', 'null'] } },
    },
    idempotency: {
      type: 'object',
      additionalProperties: false,
      required: ['header'],
      properties: { header: { type: 'string', minLength: 1 } },
    },
    retry: {
      type: 'object',
      additionalProperties: false,
      required: ['maxAttempts'],
      properties: { maxAttempts: { type: 'integer', minimum: 1, maximum: 10 } },
    },
    safety: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { readOnly: { type: 'boolean' }, destructive: { type: 'boolean' } },
        // A read-only operation never destroys anything.
        not: { required: ['readOnly', 'destructive'], properties: { readOnly: { const: true }, destructive: { const: true } } },
      },
    },
  },
};

// Compiled on first use: the Engine reads prebuilt indexes and never parses a policy at start.
let policyValidator: ValidateFunction | undefined;

export function parsePolicy(raw: unknown, where: string): EnginePolicy {
  const validatePolicy = (policyValidator ??= new Ajv2020({ allErrors: true, strict: false }).compile(policySchema));
  if (!validatePolicy(raw)) {
    const first = validatePolicy.errors?.[0];
    throw new CatalogError(`${where}: ${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}`);
  }
  return raw as unknown as EnginePolicy;
}

export function authCollides(auth: AuthMethod[], p: { name: string; in: string }): boolean {
  return auth.some(
    (a) =>
      a.type === 'api_key' &&
      ((a.in === 'header' && p.in === 'header' && a.header?.toLowerCase() === p.name.toLowerCase()) ||
        (a.in === 'query' && p.in === 'query' && a.param === p.name)),
  );
}

export function normalizeAuth(policy: EnginePolicy, where: string): AuthMethod[] {
  return (policy.auth ?? []).map((a) => {
    if (a.type === 'api_key') {
      const key = a as ApiKeyAuth;
      if (key.in === 'header' && !key.header) throw new CatalogError(`${where}: auth ${key.name} needs 'header'`);
      if (key.in === 'query' && !key.param) throw new CatalogError(`${where}: auth ${key.name} needs 'param'`);
      if (key.in === 'header') {
        const problem = headerNameProblem(key.header!);
        if (problem) throw new CatalogError(`${where}: auth header ${problem}`, { field: 'auth.name' });
      }
      // A query parameter name is percent-encoded as UTF-8: a lone UTF-16 surrogate has no UTF-8 form.
      if (key.in === 'query' && !key.param!.isWellFormed()) {
        throw new CatalogError(`${where}: auth query parameter name holds an unpaired UTF-16 surrogate, which cannot be sent in a URL`, { field: 'auth.name' });
      }
      if (key.prefix !== undefined && !FIELD_TEXT.test(key.prefix)) {
        throw new CatalogError(`${where}: auth prefix must hold no control characters and only Latin-1 text`, { field: 'auth.prefix' });
      }
      return { ...key, prefix: key.prefix ?? '' };
    }
    if (a.type === 'http_basic') return { name: a.name, type: a.type };
    return { ...a, scopes: a.scopes ?? [] };
  });
}
