// Turns a provider's OpenAPI 3.x document plus the Engine's policy (engine.yaml) into the
// normalised ServiceIndex. Used by `npm run gen` for bundled services and by service import at
// run time, so both paths validate the same way.
import { getAt, parseFragmentPointer } from '../json-pointer/index.ts';
import type {
  OmittedOperation,
  AuthMethod,
  FormEncoding,
  JsonSchema,
  OperationSpec,
  PaginationPolicy,
  ParameterSpec,
  RequestBodySpec,
  ServiceIndex,
} from './types.ts';
import { inputKey } from './types.ts';
import { authCollides, normalizeAuth, type EnginePolicy } from './policy.ts';
import { CatalogError, FIELD_TEXT, at, headerNameProblem, type SourceLocations } from './problems.ts';
import { toJsonSchema } from './schema-dialect.ts';
import { FORM, type Obj, formEncoding, groupFor, groupNameProblem, isObj, parameterNameProblem, parameterStyle, pathTemplateProblem } from './operation-parts.ts';

/** An own property only: a provider's operationId such as 'constructor' must not find Object's. */
const own = <T>(record: Record<string, T>, key: string): T | undefined => (Object.hasOwn(record, key) ? record[key] : undefined);

const SERVICE_NAME = /^[a-z][a-z0-9-]{0,62}$/;
const SERVICE_VERSION = /^v[0-9]+$/;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/**
 * Follows `$ref`s from `value` (found at `location`), saying where the value finally is. A
 * reference is an RFC 6901 pointer in its URI fragment form, read as src/catalog/refs.ts reads a
 * schema's (each token percent-decoded, then unescaped).
 */
function resolveLocalRefAt(doc: Obj, value: unknown, where: string, location: string): { value: unknown; location: string } {
  let current = value;
  for (let hops = 0; isObj(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 16) throw new CatalogError(`${where}: $ref chain too deep`);
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new CatalogError(`${where}: only local $ref values are supported (${ref})`);
    let tokens: string[];
    try {
      tokens = parseFragmentPointer(ref.slice(1));
    } catch (err) {
      throw new CatalogError(`${where}: $ref ${ref} is not a JSON Pointer (${(err as Error).message})`);
    }
    current = getAt(doc, tokens, true);
    if (current === undefined) throw new CatalogError(`${where}: $ref ${ref} does not resolve`);
    location = tokens.reduce((path, token, i) => at(path, Array.isArray(getAt(doc, tokens.slice(0, i), true)) ? Number(token) : token), '');
  }
  return { value: current, location };
}

export interface NormalizeInput {
  service: string;
  version: string;
  document: unknown;
  policy: EnginePolicy;
  /** A bundled, reviewed description: any problem refuses it instead of leaving an operation out (`npm run gen`). */
  strict?: boolean;
}

/**
 * `locations`, when given, receives where in the document each operation, parameter and request body of the
 * index was found (an accessor such as `paths['/pets/{id}'].get.parameters[0]`), so later checks
 * can name the field at fault.
 */
export function normalizeService({ service, version, document, policy, strict = false }: NormalizeInput, locations?: SourceLocations): ServiceIndex {
  const where = `${service}@${version}`;
  if (!SERVICE_NAME.test(service)) throw new CatalogError(`service name '${service}' must match ${SERVICE_NAME}`);
  if (!SERVICE_VERSION.test(version)) throw new CatalogError(`version '${version}' must look like v1, v2, …`);
  if (!isObj(document) || typeof document.openapi !== 'string' || !/^3\.[01]\./.test(document.openapi)) {
    throw new CatalogError(`${where}: the document is not an OpenAPI 3.0 or 3.1 description (missing 'openapi: 3.x')`);
  }
  if (!isObj(document.paths)) throw new CatalogError(`${where}: the document has no 'paths'`);
  const auth = normalizeAuth(policy, where);
  if (policy.idempotency) {
    const problem = headerNameProblem(policy.idempotency.header);
    if (problem) throw new CatalogError(`${where}: idempotency header ${problem}`, { field: 'idempotency.header', policy: true });
  }
  for (const name of Object.keys(policy.headers ?? {})) {
    const problem = headerNameProblem(name);
    if (problem) throw new CatalogError(`${where}: headers: ${problem}`, { field: 'headers' });
  }
  const pagingPolicies = policy.pagination?.policies ?? {};
  const pagingByOp = policy.pagination?.operations ?? {};
  const slashPreserving = policy.slashPreserving ?? {};
  const grouping = policy.grouping ?? {};
  const credentialParameters = new Set(policy.credentialParameters ?? []);
  const omitByPolicy = policy.omit ?? {};

  const operations: OperationSpec[] = [];
  const omitted: OmittedOperation[] = [];
  const warnings: OmittedOperation[] = [];
  const documentServer = Array.isArray(document.servers) ? serverUrlOf(document.servers[0]) : undefined;
  const seen = new Set<string>();
  for (const [key, rawItem] of Object.entries(document.paths)) {
    // A fragment in a path key only tells operations on one path apart (`/files/{id}#add_shared_link`,
    // `/#X-Amz-Target=…`): it is never sent, so the path sent is the key without it.
    const path = key.includes('#') ? key.slice(0, key.indexOf('#')) : key;
    let item: unknown;
    let itemAt: string;
    try {
      const problem = pathProblem(path);
      if (problem) throw new CatalogError(`${where}: path '${key}' ${problem}`, { field: `document.${at('paths', key)}` });
      ({ value: item, location: itemAt } = resolveLocalRefAt(document, rawItem, `${where} ${key}`, at('paths', key)));
    } catch (err) {
      // A path the Engine cannot send to: each operation under it is left out, with the reason.
      if (!(err instanceof CatalogError) || err.policy || strict) throw err;
      for (const method of HTTP_METHODS) {
        const op = isObj(rawItem) ? rawItem[method] : undefined;
        if (isObj(op)) omitted.push(omission(typeof op.operationId === 'string' && op.operationId ? op.operationId : `${method.toUpperCase()} ${key}`, err));
      }
      continue;
    }
    if (!isObj(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const opAt = at(itemAt, method);
      // A missing operationId: one is made from the method and path (`get_pets_id`); so is one
      // that is not a non-empty string, with a warning.
      const named = typeof op.operationId === 'string' && op.operationId !== '';
      const providerOperationId = named ? (op.operationId as string) : `${method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_')}`;
      if (!named && op.operationId !== undefined) {
        warnings.push({ operationId: providerOperationId, field: `document.${at(opAt, 'operationId')}`, reason: `the operationId ${JSON.stringify(op.operationId)?.slice(0, 80)} is not a non-empty string; the operation is named ${providerOperationId}` });
      }
      const opWhere = `${where} ${providerOperationId}`;
      if (seen.has(providerOperationId)) {
        if (strict) throw new CatalogError(`${opWhere}: duplicate operationId`);
        omitted.push({ operationId: providerOperationId, field: `document.${at(opAt, 'operationId')}`, reason: `${method.toUpperCase()} ${path} repeats the operationId of an operation already imported`, hint: 'give each operation its own operationId' });
        continue;
      }
      seen.add(providerOperationId);
      const leftOut = own(omitByPolicy, providerOperationId);
      if (leftOut !== undefined) {
        omitted.push({ operationId: providerOperationId, field: at('omit', providerOperationId), reason: `left out on review of the Engine policy: ${leftOut}` });
        continue;
      }
      try {
        const tags = Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : [];

        const params = new Map<string, ParameterSpec>();
        const rawParams = [
          ...(Array.isArray(item.parameters) ? item.parameters.map((raw, i) => ({ raw, at: at(at(itemAt, 'parameters'), i) })) : []),
          ...(Array.isArray(op.parameters) ? op.parameters.map((raw, i) => ({ raw, at: at(at(opAt, 'parameters'), i) })) : []),
        ];
        const paramAt = new Map<string, string>();
        const refuseAt = (field: string, message: string) => new CatalogError(`${opWhere}: ${field}: ${message}`, { field: `document.${field}` });
        // A parameter is keyed by location and name (a header's case-insensitively); an operation's own
        // entry replaces its path item's, but one list naming a parameter twice is a mistake.
        const keyed = new Map<string, string>();
        for (const found of rawParams) {
          try {
            const { value: p, location: pAt } = resolveLocalRefAt(document, found.raw, opWhere, found.at);
            if (!isObj(p)) throw refuseAt(pAt, 'a parameter must be an object');
            if (typeof p.name !== 'string') throw refuseAt(at(pAt, 'name'), 'a parameter name must be a string');
            if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header' && p.in !== 'cookie') {
              throw refuseAt(at(pAt, 'in'), `'${String(p.in)}' is not a parameter location (path, query, header, cookie); a Swagger 2 'body' parameter is a requestBody in OpenAPI 3`);
            }
            const key = `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
            const list = found.at.slice(0, found.at.lastIndexOf('['));
            if (keyed.get(key) === list) throw refuseAt(at(pAt, 'name'), `${p.in} parameter '${p.name}' is declared twice in one list${p.in === 'header' ? ' (header names are case-insensitive)' : ''}`);
            keyed.set(key, list);
            if (p.in === 'cookie') {
              if (p.required === true) throw refuseAt(at(pAt, 'in'), `required cookie parameter '${p.name}': the Engine does not send cookies`);
              continue;
            }
            if (authCollides(auth, { name: p.name, in: p.in }) || credentialParameters.has(p.name)) continue; // the Engine owns auth parameters
            const nameProblem = parameterNameProblem(p.name, p.in);
            if (nameProblem) throw refuseAt(at(pAt, 'name'), nameProblem);
            const style = parameterStyle(p as Obj & { in: 'path' | 'query' | 'header' }, pAt, refuseAt);
            const schema = style.schema ?? toJsonSchema(p.schema ?? {});
            paramAt.set(key, pAt);
            params.set(key, {
              name: p.name,
              in: p.in,
              required: p.in === 'path' ? true : p.required === true,
              ...(typeof p.description === 'string' && p.description ? { description: p.description } : {}),
              schema,
              // OpenAPI's default: form style explodes, the others do not.
              explode: p.explode === undefined ? style.style === 'form' : p.explode === true,
              deepObject: p.style === 'deepObject',
              slashPreserving: false,
              ...(style.delimiter ? { delimiter: style.delimiter } : {}),
              ...(style.json ? { json: true } : {}),
            });
          } catch (err) {
            // An optional parameter the Engine cannot send is dropped, with a warning; a required one leaves the operation out.
            const raw = isObj(found.raw) && typeof found.raw.$ref !== 'string' ? found.raw : undefined;
            const optional = raw !== undefined && raw.in !== 'path' && raw.required !== true;
            if (!(err instanceof CatalogError) || err.policy || !optional || strict) throw err;
            warnings.push({ operationId: providerOperationId, field: err.field, reason: `optional parameter ${JSON.stringify(String(raw.name ?? '')).slice(0, 100)} dropped: ${omission(providerOperationId, err).reason}` });
          }
        }
        const parameters = [...params.values()];
        if (locations) for (const [k, p] of params) locations.set(p, paramAt.get(k)!);
        // Parameters are unique by name and location: where two share a name, the path one (else the
        // query one) keeps it as its input key and each other is keyed `<location>.<name>`.
        const rank = { path: 0, query: 1, header: 2 } as const;
        const byName = new Map<string, ParameterSpec[]>();
        for (const p of parameters) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
        for (const same of byName.values()) {
          if (same.length < 2) continue;
          same.sort((a, b) => rank[a.in] - rank[b.in]);
          for (const p of same.slice(1)) p.key = `${p.in}.${p.name}`;
        }
        const names = new Set(parameters.map(inputKey));
        for (const p of parameters) {
          if (p.key && names.has(p.key) && parameters.some((q) => q !== p && inputKey(q) === p.key)) {
            throw new CatalogError(`${opWhere}: parameter '${p.name}' in ${p.in} would be keyed '${p.key}', which another parameter is named`);
          }
        }
        for (const name of own(slashPreserving, providerOperationId) ?? []) {
          const p = parameters.find((x) => x.name === name && x.in === 'path');
          if (!p) throw new CatalogError(`${opWhere}: slashPreserving names '${name}', which is not a path parameter`, { policy: true });
          p.slashPreserving = true;
        }
        const placeholders = new Set([...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!));
        for (const name of placeholders) {
          if (!parameters.some((p) => p.in === 'path' && p.name === name)) {
            throw new CatalogError(`${opWhere}: path template {${name}} has no path parameter`);
          }
        }
        for (const [k, p] of params) {
          if (p.in === 'path' && !placeholders.has(p.name)) {
            throw refuseAt(at(paramAt.get(k)!, 'name'), `path parameter '${p.name}' is not in the path template '${path}', so its value could never be sent`);
          }
        }

        let body: RequestBodySpec | null = null;
        const { value: rawBody, location: bodyAt } = resolveLocalRefAt(document, op.requestBody, opWhere, at(opAt, 'requestBody'));
        if (isObj(rawBody) && isObj(rawBody.content)) {
          const types = Object.keys(rawBody.content);
          // JSON when the description offers it; else a form body (Stripe's writes accept nothing else).
          const contentType = types.find((t) => /json/i.test(t)) ?? types.find((t) => t.split(';')[0]!.trim().toLowerCase() === FORM);
          if (contentType) {
            if (names.has('body')) throw new CatalogError(`${opWhere}: a parameter named 'body' clashes with the request body`);
            if (!FIELD_TEXT.test(contentType) || /[\r\n]/.test(contentType)) {
              throw new CatalogError(`${opWhere}: request body media type '${contentType}' cannot be sent as a Content-Type header`, {
                field: `document.${at(at(bodyAt, 'content'), contentType)}`,
              });
            }
            const media = rawBody.content[contentType];
            const mediaAt = at(at(bodyAt, 'content'), contentType);
            const schema = withoutProperties(toJsonSchema(isObj(media) ? (media.schema ?? {}) : {}), credentialParameters);
            const form = !/json/i.test(contentType);
            // A form body that declares no property and forbids others has nothing to send (Stripe's GETs declare one).
            const empty = form && isObj(schema) && isObj(schema.properties) && Object.keys(schema.properties).length === 0 && schema.additionalProperties === false;
            if (!empty) {
              const encoding = form && isObj(media) && isObj(media.encoding) ? formEncoding(media.encoding, at(mediaAt, 'encoding'), refuseAt) : undefined;
              body = { contentType, required: rawBody.required === true, schema, ...(encoding ? { encoding } : {}) };
              locations?.set(body, mediaAt);
            }
          } else if (rawBody.required === true) {
            omitted.push({ operationId: providerOperationId, field: `document.${at(bodyAt, 'content')}`, reason: `its required request body has no JSON or form media type (${types.join(', ') || 'none'}); the Engine sends JSON and application/x-www-form-urlencoded bodies only` });
            continue;
          }
        }
        const ownServers = Array.isArray(op.servers) && op.servers.length ? { list: op.servers, field: at(opAt, 'servers') } : Array.isArray(item.servers) && item.servers.length ? { list: item.servers, field: at(itemAt, 'servers') } : undefined;
        if (ownServers && serverUrlOf(ownServers.list[0]) !== documentServer) {
          omitted.push({ operationId: providerOperationId, field: `document.${ownServers.field}`, reason: `it is served at its own address (${String(serverUrlOf(ownServers.list[0]) ?? '?').slice(0, 200)}), not at the service's base URL, where the Engine sends every call` });
          continue;
        }

        const responses: Record<string, JsonSchema | null> = {};
        if (isObj(op.responses)) {
          for (const [status, rawResponse] of Object.entries(op.responses)) {
            if (status === '__proto__') continue; // not a status code; assigned, it would replace the map's prototype
            const { value: response, location: responseAt } = resolveLocalRefAt(document, rawResponse, opWhere, at(at(opAt, 'responses'), status));
            const content = isObj(response) && isObj(response.content) ? response.content : undefined;
            const jsonType = content && Object.keys(content).find((t) => /json/i.test(t));
            const media = jsonType && content ? content[jsonType] : undefined;
            const schema = isObj(media) && media.schema !== undefined ? toJsonSchema(media.schema) : null;
            responses[status] = schema;
            if (schema !== null && typeof schema === 'object') locations?.set(schema, at(at(at(responseAt, 'content'), jsonType!), 'schema'));
          }
        }

        let pagination: PaginationPolicy | null = null;
        const policyName = own(pagingByOp, providerOperationId);
        if (policyName !== undefined) {
          const found = own(pagingPolicies, policyName);
          if (!found) throw new CatalogError(`${opWhere}: pagination policy '${policyName}' is not defined`, { policy: true });
          pagination = { ...found };
          if (pagination.style === 'next_url') {
            if (!pagination.continuation) throw new CatalogError(`${opWhere}: next_url pagination needs a continuation pointer to the next page's URL`, { policy: true });
          } else if (pagination.style !== 'link_header') {
            if (!pagination.pageInput) throw new CatalogError(`${opWhere}: ${pagination.style} pagination needs pageInput`, { policy: true });
            if (!parameters.some((p) => p.name === pagination!.pageInput && p.in === 'query')) {
              throw new CatalogError(`${opWhere}: pageInput '${pagination.pageInput}' is not a query parameter of the operation`, { policy: true });
            }
          }
          if (pagination.style === 'cursor' && !pagination.continuation) {
            throw new CatalogError(`${opWhere}: cursor pagination needs a continuation pointer`, { policy: true });
          }
          if (pagination.pages !== undefined && pagination.style !== 'page') {
            throw new CatalogError(`${opWhere}: 'pages' applies to page pagination only`, { policy: true });
          }
          if (pagination.total !== undefined && pagination.style !== 'offset') {
            throw new CatalogError(`${opWhere}: 'total' applies to offset pagination only`, { policy: true });
          }
          if (pagination.last !== undefined && pagination.style !== 'offset' && pagination.style !== 'page') {
            throw new CatalogError(`${opWhere}: 'last' applies to offset and page pagination only`, { policy: true });
          }
        }

        const override = own(grouping, providerOperationId);
        const group = groupFor(providerOperationId, tags, override);
        const groupProblem = groupNameProblem(group);
        if (groupProblem) {
          // The grouped path comes from a grouping override, the operationId's '/'-separated parts, or the first tag and the operationId.
          const fromTag = !override && !providerOperationId.includes('/') && tags.length > 0 && groupProblem.segment === 0;
          const source = override ? 'grouping' : fromTag ? at(at(opAt, 'tags'), 0) : at(opAt, 'operationId');
          throw new CatalogError(`${opWhere}: ${source}: ${groupProblem.message}`, { field: override ? 'grouping' : `document.${source}`, policy: Boolean(override) });
        }
        const spec: OperationSpec = {
          id: `${service}.${providerOperationId}`,
          service,
          providerOperationId,
          method: method.toUpperCase(),
          path,
          summary: typeof op.summary === 'string' ? op.summary : '',
          description: typeof op.description === 'string' ? op.description : '',
          tags,
          group,
          deprecated: op.deprecated === true,
          parameters,
          body,
          responses,
          pagination,
        };
        locations?.set(spec, opAt);
        operations.push(spec);
      } catch (err) {
        // A problem confined to this operation leaves it out, with the reason; the policy's own faults still refuse.
        if (!(err instanceof CatalogError) || err.policy || strict) throw err;
        omitted.push(omission(providerOperationId, err));
      }
    }
  }

  for (const name of Object.keys(pagingByOp)) {
    if (!seen.has(name)) throw new CatalogError(`${where}: pagination names unknown operation '${name}'`);
  }
  for (const name of Object.keys(slashPreserving)) {
    if (!seen.has(name)) throw new CatalogError(`${where}: slashPreserving names unknown operation '${name}'`);
  }
  for (const name of Object.keys(policy.safety ?? {})) {
    if (!seen.has(name)) throw new CatalogError(`${where}: safety names unknown operation '${name}'`, { policy: true });
  }
  for (const name of Object.keys(omitByPolicy)) {
    if (!seen.has(name)) throw new CatalogError(`${where}: omit names unknown operation '${name}'`, { policy: true });
  }
  // Each operation's grouped path names one method of the typed packages: one that another
  // operation already holds, or that is also a group of methods, leaves the operation out.
  const groups = new Set<string>();
  const prefixes = new Set<string>();
  const clashing = new Set<OperationSpec>();
  const grouped = (op: OperationSpec) => ({ operationId: op.providerOperationId, field: `document.${locations?.get(op) ?? `paths['${op.path}']`}` });
  const grouping_hint = 'add a grouping override in the Engine policy, or give the operation another operationId';
  for (const op of operations) {
    const key = op.group.join('.');
    if (groups.has(key)) {
      clashing.add(op);
      omitted.push({ ...grouped(op), reason: `another operation already has the grouped path ${key}`, hint: grouping_hint });
      continue;
    }
    groups.add(key);
  }
  for (const op of operations) if (!clashing.has(op)) for (let i = 1; i < op.group.length; i++) prefixes.add(op.group.slice(0, i).join('.'));
  for (const op of operations) {
    // A typed package cannot make one name both a method and a group of methods.
    if (clashing.has(op) || !prefixes.has(op.group.join('.'))) continue;
    clashing.add(op);
    omitted.push({ ...grouped(op), reason: `its grouped path ${op.group.join('.')} is also a group of other operations`, hint: grouping_hint });
  }
  if (clashing.size && strict) throw new CatalogError(`${where}: ${omitted[omitted.length - 1]!.reason}; ${grouping_hint}`);
  if (clashing.size) operations.splice(0, operations.length, ...operations.filter((op) => !clashing.has(op)));

  const components = isObj(document.components) ? document.components : {};
  const rawSchemas = isObj(components.schemas) ? components.schemas : {};
  const schemas = Object.fromEntries(Object.entries(rawSchemas).map(([k, v]) => [k, toJsonSchema(v)]));
  hoistLocalRefs(document, schemas, operations.flatMap((op) => [...op.parameters.map((p) => p.schema), op.body?.schema, ...Object.values(op.responses)]));
  const info = isObj(document.info) ? document.info : {};
  operations.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    service,
    version,
    title: policy.title ?? (typeof info.title === 'string' ? info.title : service),
    baseUrl: policy.baseUrl.replace(/\/+$/, ''),
    auth,
    headers: policy.headers ?? {},
    ...(policy.providerError ? { providerError: { pointer: policy.providerError.pointer, equals: policy.providerError.equals } } : {}),
    ...(policy.idempotency ? { idempotency: { header: policy.idempotency.header } } : {}),
    ...(policy.retry ? { retry: { maxAttempts: policy.retry.maxAttempts } } : {}),
    ...(policy.safety && Object.keys(policy.safety).length ? { safety: policy.safety } : {}),
    schemas,
    operations,
    ...(omitted.length ? { omitted } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

/**
 * Schema `$ref`s into other parts of the description (`#/paths/~1v2~1apps/get/responses/200/…`,
 * `#/components/responses/X/content/…`): each target becomes a component schema of its own, named
 * after its pointer, and the `$ref` points there, so every reader (validator, packages, search)
 * follows it as it follows `#/components/schemas/…`. A target that is no schema is left as written.
 */
function hoistLocalRefs(document: Obj, schemas: Record<string, JsonSchema>, roots: unknown[]): void {
  const hoisted = new Map<string, string>();
  const queue: unknown[] = [...roots, ...Object.values(schemas)];
  const seen = new Set<unknown>();
  while (queue.length) {
    const node = queue.pop();
    if (Array.isArray(node)) {
      queue.push(...node);
      continue;
    }
    if (!isObj(node) || seen.has(node)) continue;
    seen.add(node);
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/') && !ref.startsWith('#/components/schemas/')) {
      let name = hoisted.get(ref);
      if (name === undefined) {
        let target: unknown;
        try {
          target = getAt(document, parseFragmentPointer(ref.slice(1)), true);
        } catch {
          target = undefined;
        }
        if (isObj(target) || typeof target === 'boolean') {
          const base = ref.slice(2).replace(/~1/g, '/').replace(/~0/g, '~').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 200) || 'ref';
          name = base;
          for (let n = 2; Object.hasOwn(schemas, name); n++) name = `${base}_${n}`;
          hoisted.set(ref, name);
          const converted = toJsonSchema(target);
          schemas[name] = converted;
          queue.push(converted);
        }
      }
      if (name !== undefined) node.$ref = `#/components/schemas/${name}`;
    }
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) queue.push(value);
  }
}

/** `schema` without the top-level properties `names` (and out of its `required`): a body's credential fields are the Engine's. */
function withoutProperties(schema: JsonSchema, names: ReadonlySet<string>): JsonSchema {
  if (names.size === 0 || !isObj(schema) || !isObj(schema.properties) || !Object.keys(schema.properties).some((k) => names.has(k))) return schema;
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([k]) => !names.has(k)));
  const required = Array.isArray(schema.required) ? schema.required.filter((k) => !names.has(k as string)) : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

/** Why the Engine cannot send to a path key, or undefined. */
function pathProblem(path: string): string | undefined {
  // A path is appended to the base URL: anything but '/…' could move the request to another host.
  if (!path.startsWith('/') || path.includes('?')) return "must start with '/' and hold no query";
  if (!path.isWellFormed()) return 'holds an unpaired UTF-16 surrogate, which cannot be sent in a URL';
  return pathTemplateProblem(path);
}

/** An operation left out for a CatalogError: the reason without the `service@version operationId:` prefix, and where. */
function omission(operationId: string, err: CatalogError): OmittedOperation {
  // `github@v1 op: paths['/p'].get.parameters[0].name: message` → `message`: the operation and the field are said apart.
  let reason = err.message.replace(/^\S+@\S+ /, '');
  if (reason.startsWith(`${operationId}: `)) reason = reason.slice(operationId.length + 2);
  const place = err.field.replace(/^document\./, '');
  if (reason.startsWith(`${place}: `)) reason = reason.slice(place.length + 2);
  return { operationId, field: err.field, reason, hint: 'fix it in the description and import it as a new version to call it' };
}

/** A server object's url, when it has one. */
const serverUrlOf = (server: unknown): string | undefined => (isObj(server) && typeof server.url === 'string' ? server.url : undefined);
