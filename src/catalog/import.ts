// Reading an imported OpenAPI description into a service index: JSON or YAML text (bounded in size,
// depth and alias expansion), Swagger 2.0 upgraded, the base URL from the call or the first server,
// the import's policy (auth, idempotency header, attempts), and every kept operation checked callable.
import { nestsDeeperThan } from '../json-input/index.ts';
import { checkCallable } from './check.ts';
import { normalizeService } from './normalize.ts';
import { parsePolicy } from './policy.ts';
import { CatalogError, baseUrlProblem, type SourceLocations } from './problems.ts';
import type { ServiceIndex } from './types.ts';

/** How an imported service takes its API key (the import endpoint's `auth` field). */
export interface ImportAuth {
  type: 'api_key';
  in: 'header' | 'query';
  name: string;
  prefix?: string | undefined;
}

/** Deepest nesting of arrays and objects an imported description may have: real ones stay under 40. */
const MAX_DOCUMENT_DEPTH = 256;
/** The import cap: the Engine's request body limit, which a document's expanded text must fit in too. */
const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;
/** YAML aliases (`*leaf`) copy what they refer to: a small document can expand far past the cap. */
const aliasesTooLarge = () =>
  new CatalogError(`document: its YAML aliases expand it past the ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB import cap; write the repeated parts once and refer to them with $ref`);
const tooDeep = () => new CatalogError(`document: nested deeper than ${MAX_DOCUMENT_DEPTH} levels of arrays and objects`);

/**
 * A server object's URL with its variables set to their defaults (OpenAPI 3: `{region}` in the URL,
 * `variables.region.default`); undefined when there is no URL. A variable without a default is refused.
 */
function serverUrl(server: unknown): string | undefined {
  if (typeof server !== 'object' || server === null) return undefined;
  const { url, variables } = server as { url?: unknown; variables?: unknown };
  if (typeof url !== 'string') return undefined;
  return url.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    const variable = typeof variables === 'object' && variables !== null && Object.hasOwn(variables, name) ? (variables as Record<string, unknown>)[name] : undefined;
    const value = typeof variable === 'object' && variable !== null ? (variable as { default?: unknown }).default : undefined;
    if (typeof value !== 'string') {
      throw new CatalogError(`baseUrl: servers[0].url '${url}' has the variable {${name}} with no default in servers[0].variables; pass baseUrl`, { field: 'baseUrl' });
    }
    return value;
  });
}

/** What an import gives besides the description: the import endpoint's body. */
export interface ImportInput {
  service: string;
  version: string;
  document: string;
  baseUrl?: string | undefined;
  auth?: ImportAuth | undefined;
  idempotency?: { header: string } | undefined;
  retry?: { maxAttempts: number } | undefined;
}

/** The index of an imported description, or the CatalogError naming what cannot be used. */
export async function importedIndex(input: ImportInput): Promise<ServiceIndex> {
  let document: unknown;
  // JSON is YAML too, but the YAML parser takes seconds over a large JSON description (GitHub's).
  if (/^\s*[[{]/.test(input.document)) {
    try {
      document = JSON.parse(input.document);
    } catch {
      document = undefined; // YAML flow style, or not valid: the YAML parser says which
    }
  }
  const fromYaml = document === undefined;
  if (document === undefined) {
    const { parse: parseYaml } = await import('yaml'); // only imports parse YAML; not loaded at start
    try {
      document = parseYaml(input.document, { maxAliasCount: 100 });
    } catch (err) {
      throw new CatalogError(`document: not valid JSON or YAML (${(err as Error).message.split('\n')[0]})`);
    }
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(document);
  } catch (err) {
    // Only a stack overflow means depth; "Invalid string length" means the aliases expanded it past what a string holds.
    if (err instanceof RangeError && /Maximum call stack/i.test(err.message)) throw tooDeep();
    if (err instanceof RangeError) throw aliasesTooLarge();
    throw new CatalogError('document: a YAML alias refers to itself (a cycle); describe the schema with $ref instead');
  }
  // The text came in under the cap; only YAML aliases can make it much larger (JSON text never grows).
  if (fromYaml && (text.length > MAX_DOCUMENT_BYTES || Buffer.byteLength(text) > MAX_DOCUMENT_BYTES)) throw aliasesTooLarge();
  // Every later step (normalising, compiling validators) walks the schemas recursively.
  if (nestsDeeperThan(text, MAX_DOCUMENT_DEPTH)) throw tooDeep();
  text = undefined; // a large description's copy need not live through the checks below
  // Swagger 2.0 is converted to OpenAPI 3.0 by a maintained converter, then imported like any other.
  if (typeof (document as { swagger?: unknown } | null)?.swagger === 'string' && /^2\./.test((document as { swagger: string }).swagger)) {
    const { upgrade } = await import('@scalar/openapi-upgrader'); // loaded only for Swagger 2.0 imports
    try {
      document = upgrade(document as Record<string, unknown>, '3.0');
    } catch (err) {
      throw new CatalogError(`document: the Swagger 2.0 description could not be converted to OpenAPI 3 (${(err as Error).message?.split('\n')[0]?.slice(0, 300)})`);
    }
  }
  const openapi = (document as { openapi?: unknown } | null)?.openapi;
  if (typeof openapi !== 'string' || !/^3\.[01]\./.test(openapi)) {
    throw new CatalogError(`document: not an OpenAPI 3.0 or 3.1 (or Swagger 2.0) description (missing 'openapi: 3.x')`);
  }
  const servers = (document as { servers?: unknown } | null)?.servers;
  let baseUrl = input.baseUrl;
  // A description naming no absolute server (none, '/api/v3', a variable with no default) still
  // imports: the base URL is then given when the service is enabled.
  let unaddressed: string | undefined;
  if (baseUrl === undefined) {
    try {
      baseUrl = serverUrl(Array.isArray(servers) ? servers[0] : undefined);
    } catch (err) {
      if (!(err instanceof CatalogError)) throw err;
      unaddressed = err.message.replace(/; pass baseUrl$/, '');
    }
    if (!unaddressed && (!baseUrl || !/^https?:\/\//.test(baseUrl))) {
      unaddressed = baseUrl ? `baseUrl: the document's servers[0].url '${baseUrl.slice(0, 200)}' is not absolute` : 'baseUrl: the document names no server';
    }
    if (unaddressed) baseUrl = undefined;
  } else if (!/^https?:\/\//.test(baseUrl)) {
    throw new CatalogError('baseUrl: must be an absolute http(s) URL', { field: 'baseUrl' });
  }
  const problem = baseUrl === undefined ? undefined : baseUrlProblem(baseUrl);
  if (problem) throw new CatalogError(`baseUrl ${problem}`, { field: 'baseUrl' });
  const auth = input.auth && {
    name: 'api_key',
    type: 'api_key',
    in: input.auth.in,
    [input.auth.in === 'header' ? 'header' : 'param']: input.auth.name,
    prefix: input.auth.prefix ?? '',
  };
  // Without a base URL the policy is read with a placeholder, which the index does not keep.
  const policy = parsePolicy(
    {
      baseUrl: baseUrl ?? 'https://base-url.invalid',
      ...(auth ? { auth: [auth] } : {}),
      ...(input.idempotency ? { idempotency: input.idempotency } : {}),
      ...(input.retry ? { retry: input.retry } : {}),
    },
    'import',
  );
  const locations: SourceLocations = new WeakMap();
  const index = normalizeService({ service: input.service, version: input.version, document, policy }, locations);
  document = undefined; // the index holds what it needs; Microsoft Graph's parsed description is ~150 MB
  if (unaddressed) {
    index.baseUrl = '';
    (index.warnings ??= []).push({ operationId: '*', field: 'baseUrl', reason: `${unaddressed.replace(/^baseUrl: /, '')}: give the base URL when enabling the service (svc-cli workspace service add … --base-url)` });
  }
  await checkCallable(index, locations); // every operation kept can be called: its input validator compiles
  if (!index.operations.length) {
    const reasons = (index.omitted ?? []).slice(0, 3).map((o) => `${o.operationId}: ${o.reason}`);
    // Named at the first operation's problem: with one operation described, that is the fault to fix.
    const first = index.omitted?.[0];
    throw new CatalogError(`document: no operation can be called${reasons.length ? ` (${index.omitted!.length} left out; ${reasons.join('; ')})` : ' (it describes none)'}`, first ? { field: first.field } : {});
  }
  return index;
}
