// Turns a provider's OpenAPI 3.x document plus the Engine's policy (engine.yaml) into the
// normalised ServiceIndex. Used by `npm run gen` for bundled services and by service import at
// run time, so both paths validate the same way.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type {
  ApiKeyAuth,
  AuthMethod,
  JsonSchema,
  OperationSpec,
  PaginationPolicy,
  ParameterSpec,
  RequestBodySpec,
  ServiceIndex,
} from './types.ts';

export class CatalogError extends Error {
  override name = 'CatalogError';
  /** The request field the problem is in (an import's `document` unless said otherwise). */
  readonly field: string;
  /** The request conflicts with what exists (409) rather than being malformed (400). */
  readonly conflict: boolean;

  constructor(message: string, options: { field?: string; conflict?: boolean } = {}) {
    super(message);
    this.field = options.field ?? 'document';
    this.conflict = options.conflict ?? false;
  }
}

/** An own property only: a provider's operationId such as 'constructor' must not find Object's. */
const own = <T>(record: Record<string, T>, key: string): T | undefined => (Object.hasOwn(record, key) ? record[key] : undefined);

/** Why `url` cannot be a provider base URL (absolute http(s), a host, no credentials, query or fragment), or undefined. */
export function baseUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `'${url}' is not an absolute URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http or https URL';
  if (!parsed.hostname) return 'must name a host';
  if (parsed.username || parsed.password) return 'must not carry credentials (store them as a secret: `svc-cli secret set`)';
  if (url.includes('?') || url.includes('#')) return 'must not have a query or fragment (operation paths are appended to it)';
  return undefined;
}

/** An HTTP field name (RFC 9110 token). */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Text an HTTP field value can carry: no control characters, Latin-1 only. */
const FIELD_TEXT = /^[\t\x20-\x7e\x80-\xff]*$/;

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
}

const SERVICE_NAME = /^[a-z][a-z0-9-]{0,62}$/;
const SERVICE_VERSION = /^v[0-9]+$/;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

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
            required: ['name', 'type', 'authorizationUrl', 'tokenUrl'],
            properties: {
              name: { type: 'string' },
              type: { const: 'oauth2' },
              authorizationUrl: { type: 'string' },
              tokenUrl: { type: 'string' },
              scopes: { type: 'array', items: { type: 'string' } },
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
              style: { enum: ['cursor', 'link_header', 'page', 'offset'] },
              pageInput: { type: 'string' },
              continuation: { type: 'string', pattern: '^(/.*)?$' },
              items: { type: 'string', pattern: '^(/.*)?$' },
              stop: { type: 'string', pattern: '^(/.*)?$' },
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

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function resolveLocalRef(doc: Obj, value: unknown, where: string): unknown {
  let current = value;
  for (let hops = 0; isObj(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 16) throw new CatalogError(`${where}: $ref chain too deep`);
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new CatalogError(`${where}: only local $ref values are supported (${ref})`);
    current = readPointer(doc, ref.slice(1));
    if (current === undefined) throw new CatalogError(`${where}: $ref ${ref} does not resolve`);
  }
  return current;
}

function readPointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  let node: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(node) && !Array.isArray(node)) return undefined;
    node = (node as Obj)[key];
  }
  return node;
}

/** Converts OpenAPI 3.0 schema dialect (nullable, boolean exclusive bounds) to JSON Schema 2020-12. */
export function toJsonSchema(schema: unknown): JsonSchema {
  if (Array.isArray(schema)) return schema.map(toJsonSchema) as unknown as JsonSchema;
  if (!isObj(schema)) return schema as JsonSchema;
  const out: Obj = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example' || key === 'examples' || key === 'xml' || key === 'externalDocs') continue;
    if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions') {
      out[key] = isObj(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v)]))
        : value;
    } else if (key === 'enum' || key === 'const' || key === 'default' || key === 'required') {
      out[key] = value;
    } else {
      out[key] = isObj(value) || Array.isArray(value) ? toJsonSchema(value) : value;
    }
  }
  if (out.exclusiveMinimum === true && typeof out.minimum === 'number') {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  } else if (typeof out.exclusiveMinimum === 'boolean') delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === true && typeof out.maximum === 'number') {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  } else if (typeof out.exclusiveMaximum === 'boolean') delete out.exclusiveMaximum;
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type)) {
      if (!out.type.includes('null')) out.type = [...out.type, 'null'];
    } else return { anyOf: [out, { type: 'null' }] };
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  } else if ('nullable' in out) delete out.nullable;
  return out;
}

const camel = (s: string) => s.replace(/[-_\s]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());

function groupFor(providerOperationId: string, tags: string[], override: string | undefined): string[] {
  if (override) return override.split('.');
  if (providerOperationId.includes('/')) return providerOperationId.split('/').map(camel);
  const tag = tags[0];
  return tag ? [camel(tag), camel(providerOperationId)] : [camel(providerOperationId)];
}

function authCollides(auth: AuthMethod[], p: { name: string; in: string }): boolean {
  return auth.some(
    (a) =>
      a.type === 'api_key' &&
      ((a.in === 'header' && p.in === 'header' && a.header?.toLowerCase() === p.name.toLowerCase()) ||
        (a.in === 'query' && p.in === 'query' && a.param === p.name)),
  );
}

function normalizeAuth(policy: EnginePolicy, where: string): AuthMethod[] {
  return (policy.auth ?? []).map((a) => {
    if (a.type === 'api_key') {
      const key = a as ApiKeyAuth;
      if (key.in === 'header' && !key.header) throw new CatalogError(`${where}: auth ${key.name} needs 'header'`);
      if (key.in === 'query' && !key.param) throw new CatalogError(`${where}: auth ${key.name} needs 'param'`);
      if (key.in === 'header' && !FIELD_NAME.test(key.header!)) {
        throw new CatalogError(`${where}: auth header '${key.header}' is not a valid HTTP header name`, { field: 'auth.name' });
      }
      if (key.prefix !== undefined && !FIELD_TEXT.test(key.prefix)) {
        throw new CatalogError(`${where}: auth prefix must hold no control characters and only Latin-1 text`, { field: 'auth.prefix' });
      }
      return { ...key, prefix: key.prefix ?? '' };
    }
    return { ...a, scopes: a.scopes ?? [] };
  });
}

export interface NormalizeInput {
  service: string;
  version: string;
  document: unknown;
  policy: EnginePolicy;
}

export function normalizeService({ service, version, document, policy }: NormalizeInput): ServiceIndex {
  const where = `${service}@${version}`;
  if (!SERVICE_NAME.test(service)) throw new CatalogError(`service name '${service}' must match ${SERVICE_NAME}`);
  if (!SERVICE_VERSION.test(version)) throw new CatalogError(`version '${version}' must look like v1, v2, …`);
  if (!isObj(document) || typeof document.openapi !== 'string' || !/^3\.[01]\./.test(document.openapi)) {
    throw new CatalogError(`${where}: the document is not an OpenAPI 3.0 or 3.1 description (missing 'openapi: 3.x')`);
  }
  if (!isObj(document.paths)) throw new CatalogError(`${where}: the document has no 'paths'`);
  const auth = normalizeAuth(policy, where);
  const pagingPolicies = policy.pagination?.policies ?? {};
  const pagingByOp = policy.pagination?.operations ?? {};
  const slashPreserving = policy.slashPreserving ?? {};
  const grouping = policy.grouping ?? {};

  const operations: OperationSpec[] = [];
  const seen = new Set<string>();
  for (const [path, rawItem] of Object.entries(document.paths)) {
    // A path is appended to the base URL: anything but '/…' could move the request to another host.
    if (!path.startsWith('/') || path.includes('?') || path.includes('#')) {
      throw new CatalogError(`${where}: path '${path}' must start with '/' and hold no query or fragment`);
    }
    const item = resolveLocalRef(document, rawItem, `${where} ${path}`);
    if (!isObj(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const providerOperationId =
        typeof op.operationId === 'string' && op.operationId
          ? op.operationId
          : `${method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_')}`;
      const opWhere = `${where} ${providerOperationId}`;
      if (seen.has(providerOperationId)) throw new CatalogError(`${opWhere}: duplicate operationId`);
      seen.add(providerOperationId);
      const tags = Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : [];

      const params = new Map<string, ParameterSpec>();
      const rawParams = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])];
      for (const raw of rawParams) {
        const p = resolveLocalRef(document, raw, opWhere);
        if (!isObj(p) || typeof p.name !== 'string' || typeof p.in !== 'string') continue;
        if (p.in === 'cookie') continue;
        if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header') continue;
        if (authCollides(auth, { name: p.name, in: p.in })) continue; // the Engine owns auth parameters
        params.set(`${p.in}:${p.name}`, {
          name: p.name,
          in: p.in,
          required: p.in === 'path' ? true : p.required === true,
          ...(typeof p.description === 'string' && p.description ? { description: p.description } : {}),
          schema: toJsonSchema(p.schema ?? {}),
          explode: p.explode === undefined ? (p.style ?? 'form') === 'form' : p.explode === true,
          deepObject: p.style === 'deepObject',
          slashPreserving: false,
        });
      }
      const parameters = [...params.values()];
      const names = new Set<string>();
      for (const p of parameters) {
        if (names.has(p.name)) throw new CatalogError(`${opWhere}: parameter '${p.name}' is declared in two places`);
        names.add(p.name);
      }
      for (const name of own(slashPreserving, providerOperationId) ?? []) {
        const p = parameters.find((x) => x.name === name && x.in === 'path');
        if (!p) throw new CatalogError(`${opWhere}: slashPreserving names '${name}', which is not a path parameter`);
        p.slashPreserving = true;
      }
      for (const m of path.matchAll(/\{([^}]+)\}/g)) {
        if (!parameters.some((p) => p.in === 'path' && p.name === m[1])) {
          throw new CatalogError(`${opWhere}: path template {${m[1]}} has no path parameter`);
        }
      }

      let body: RequestBodySpec | null = null;
      const rawBody = resolveLocalRef(document, op.requestBody, opWhere);
      if (isObj(rawBody) && isObj(rawBody.content)) {
        const contentType = Object.keys(rawBody.content).find((t) => /json/i.test(t));
        if (contentType) {
          if (names.has('body')) throw new CatalogError(`${opWhere}: a parameter named 'body' clashes with the request body`);
          const media = rawBody.content[contentType];
          body = {
            contentType,
            required: rawBody.required === true,
            schema: toJsonSchema(isObj(media) ? (media.schema ?? {}) : {}),
          };
        }
      }

      const responses: Record<string, JsonSchema | null> = {};
      if (isObj(op.responses)) {
        for (const [status, rawResponse] of Object.entries(op.responses)) {
          const response = resolveLocalRef(document, rawResponse, opWhere);
          const content = isObj(response) && isObj(response.content) ? response.content : undefined;
          const jsonType = content && Object.keys(content).find((t) => /json/i.test(t));
          const media = jsonType && content ? content[jsonType] : undefined;
          responses[status] = isObj(media) && media.schema !== undefined ? toJsonSchema(media.schema) : null;
        }
      }

      let pagination: PaginationPolicy | null = null;
      const policyName = own(pagingByOp, providerOperationId);
      if (policyName !== undefined) {
        const found = own(pagingPolicies, policyName);
        if (!found) throw new CatalogError(`${opWhere}: pagination policy '${policyName}' is not defined`);
        pagination = { ...found };
        if (pagination.style !== 'link_header') {
          if (!pagination.pageInput) throw new CatalogError(`${opWhere}: ${pagination.style} pagination needs pageInput`);
          if (!parameters.some((p) => p.name === pagination!.pageInput && p.in === 'query')) {
            throw new CatalogError(`${opWhere}: pageInput '${pagination.pageInput}' is not a query parameter of the operation`);
          }
        }
        if (pagination.style === 'cursor' && !pagination.continuation) {
          throw new CatalogError(`${opWhere}: cursor pagination needs a continuation pointer`);
        }
      }

      operations.push({
        id: `${service}.${providerOperationId}`,
        service,
        providerOperationId,
        method: method.toUpperCase(),
        path,
        summary: typeof op.summary === 'string' ? op.summary : '',
        description: typeof op.description === 'string' ? op.description : '',
        tags,
        group: groupFor(providerOperationId, tags, own(grouping, providerOperationId)),
        deprecated: op.deprecated === true,
        parameters,
        body,
        responses,
        pagination,
      });
    }
  }

  for (const name of Object.keys(pagingByOp)) {
    if (!seen.has(name)) throw new CatalogError(`${where}: pagination names unknown operation '${name}'`);
  }
  for (const name of Object.keys(slashPreserving)) {
    if (!seen.has(name)) throw new CatalogError(`${where}: slashPreserving names unknown operation '${name}'`);
  }
  const groups = new Set<string>();
  const prefixes = new Set<string>();
  for (const op of operations) {
    const key = op.group.join('.');
    if (groups.has(key)) throw new CatalogError(`${where}: two operations share the grouped path ${key}; add a grouping override`);
    groups.add(key);
    for (let i = 1; i < op.group.length; i++) prefixes.add(op.group.slice(0, i).join('.'));
  }
  // A typed package cannot make one name both a method and a group of methods.
  const clash = [...groups].find((key) => prefixes.has(key));
  if (clash) throw new CatalogError(`${where}: the grouped path ${clash} is both an operation and a group of operations; add a grouping override`);

  const components = isObj(document.components) ? document.components : {};
  const rawSchemas = isObj(components.schemas) ? components.schemas : {};
  const schemas = Object.fromEntries(Object.entries(rawSchemas).map(([k, v]) => [k, toJsonSchema(v)]));
  const info = isObj(document.info) ? document.info : {};
  operations.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    service,
    version,
    title: policy.title ?? (typeof info.title === 'string' ? info.title : service),
    baseUrl: policy.baseUrl.replace(/\/+$/, ''),
    auth,
    headers: policy.headers ?? {},
    schemas,
    operations,
  };
}
