// The operation catalog: bundled services from the prebuilt index in generated/catalog, plus
// services imported at run time from an OpenAPI document (kept in the Store).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Store } from '../store/index.ts';
import { checkCallable } from './check.ts';
import { nestsDeeperThan } from '../json-input/index.ts';
import { normalizeService } from './normalize.ts';
import { parsePolicy } from './policy.ts';
import { CatalogError, baseUrlProblem, type SourceLocations } from './problems.ts';
import type { OperationSpec, ServiceIndex, ServiceSummary } from './types.ts';

/** How an imported service takes its API key (the import endpoint's `auth` field). */
export interface ImportAuth {
  type: 'api_key';
  in: 'header' | 'query';
  name: string;
  prefix?: string | undefined;
}

export * from './types.ts';
export { CatalogError, baseUrlProblem, normalizeService, parsePolicy };
export { addInputFormats, inputSchemaOf } from './input-schema.ts';
export { combinedHints, derivedHints, operationHints, type SafetyHints, type SafetyOverride } from './safety.ts';

/** Deepest nesting of arrays and objects an imported description may have: real ones stay under 40. */
const MAX_DOCUMENT_DEPTH = 256;
/** The import cap: the Engine's request body limit, which a document's expanded text must fit in too. */
const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;
/** YAML aliases (`*leaf`) copy what they refer to: a small document can expand far past the cap. */
const aliasesTooLarge = () =>
  new CatalogError(`document: its YAML aliases expand it past the ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB import cap; write the repeated parts once and refer to them with $ref`);
const tooDeep = () => new CatalogError(`document: nested deeper than ${MAX_DOCUMENT_DEPTH} levels of arrays and objects`);

export const GENERATED_CATALOG_DIR = resolve(import.meta.dirname, '../../generated/catalog');

/** A service version; a bundled one's index is read from disk on first use (the manifest has its summary). */
interface LoadedService {
  service: string;
  version: string;
  title: string;
  baseUrl: string;
  operations: number;
  source: 'catalog' | 'imported';
  load: () => { index: ServiceIndex; byId: Map<string, OperationSpec> };
}

interface ManifestEntry {
  service: string;
  version: string;
  title: string;
  baseUrl: string;
  operations: number;
  file: string;
}

const key = (service: string, version: string) => `${service}@${version}`;

/** Parses once, on first call; a failure is remembered too (a broken file is not re-read on every call). */
function once<T>(make: () => T): () => T {
  let outcome: { value: T } | { error: unknown } | undefined;
  return () => {
    if (!outcome) {
      try {
        outcome = { value: make() };
      } catch (error) {
        outcome = { error };
      }
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  };
}

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

const summaryOf = ({ service, version, title, baseUrl, operations, source }: LoadedService): ServiceSummary => ({ service, version, title, baseUrl, operations, source });

const indexed = (index: ServiceIndex) => ({ index, byId: new Map(index.operations.map((op) => [op.id, op])) });

/** How far replicas' clocks may disagree about when an import happened. */
const IMPORT_CLOCK_MARGIN_MS = 10 * 60_000;

export class Catalog {
  private readonly services = new Map<string, LoadedService>();
  private readonly store: Store;

  private constructor(store: Store) {
    this.store = store;
  }

  static async load(store: Store, dir: string = GENERATED_CATALOG_DIR): Promise<Catalog> {
    const catalog = new Catalog(store);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ManifestEntry[];
    for (const entry of manifest) {
      // A bundled index (GitHub's is 4.8 MiB) is parsed when first used, not at start-up.
      const load = once(() => indexed(JSON.parse(readFileSync(join(dir, '..', entry.file), 'utf8')) as ServiceIndex));
      catalog.services.set(key(entry.service, entry.version), { ...entry, source: 'catalog', load });
    }
    await catalog.refresh();
    return catalog;
  }

  private refreshing: Promise<void> | undefined;
  /** Import time of the newest import read so far: later refreshes read only from a while before it. */
  private newestImport = '';
  /**
   * Adds imported service versions this process has not seen: another replica may have imported
   * them. Called at start and whenever a service version is looked for and not found (an import
   * never changes, so what is known stays right). Only recent imports are read again, so a large
   * description is not fetched on every look-up; the margin covers replicas' clocks disagreeing.
   */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const since = this.newestImport ? new Date(Date.parse(this.newestImport) - IMPORT_CLOCK_MARGIN_MS).toISOString() : '';
        // A stamp from a clock running ahead is not believed past this clock's now: it would hide
        // every later import stamped correctly by another replica.
        const now = new Date().toISOString();
        for (const row of await this.store.listImportedServices(since)) {
          const stamp = row.importedAt < now ? row.importedAt : now;
          if (stamp > this.newestImport) this.newestImport = stamp;
          if (!this.services.has(key(row.service, row.version))) this.add(JSON.parse(row.index) as ServiceIndex, 'imported');
        }
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** Whether `service@version` is in the catalog, looking for other replicas' imports when it is not known here. */
  async ensure(service: string, version: string): Promise<boolean> {
    if (this.services.has(key(service, version))) return true;
    // A refresh already under way may have read before the import committed: then read once more.
    const joined = this.refreshing !== undefined;
    await this.refresh();
    if (joined && !this.services.has(key(service, version))) await this.refresh();
    return this.services.has(key(service, version));
  }

  private add(index: ServiceIndex, source: LoadedService['source']) {
    const loaded = indexed(index);
    this.services.set(key(index.service, index.version), {
      service: index.service,
      version: index.version,
      title: index.title,
      baseUrl: index.baseUrl,
      operations: index.operations.length,
      source,
      load: () => loaded,
    });
  }

  /** Every service version, optionally filtered by a case-insensitive text match on name or title. */
  list(q?: string): ServiceSummary[] {
    const needle = q?.trim().toLowerCase();
    return [...this.services.values()]
      .filter((s) => !needle || s.service.includes(needle) || s.title.toLowerCase().includes(needle))
      .map(summaryOf)
      .sort((a, b) => (key(a.service, a.version) < key(b.service, b.version) ? -1 : 1));
  }

  /** A service version's summary (title, base URL, operation count), without reading its index. */
  summary(service: string, version: string): ServiceSummary | undefined {
    const loaded = this.services.get(key(service, version));
    return loaded && summaryOf(loaded);
  }

  get(service: string, version: string): ServiceIndex | undefined {
    return this.services.get(key(service, version))?.load().index;
  }

  has(service: string): boolean {
    return [...this.services.values()].some((s) => s.service === service);
  }

  versionsOf(service: string): string[] {
    // v2 before v10: numbers in labels compare as numbers.
    return [...this.services.values()].filter((s) => s.service === service).map((s) => s.version).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  }

  operation(service: string, version: string, publicId: string): OperationSpec | undefined {
    return this.services.get(key(service, version))?.load().byId.get(publicId);
  }

  /**
   * Imports a service version from OpenAPI text. A version, once in the catalog, never changes:
   * published SDK and MCP versions and their packages were built from it.
   */
  async import(input: {
    service: string;
    version: string;
    document: string;
    baseUrl?: string | undefined;
    auth?: ImportAuth | undefined;
    idempotency?: { header: string } | undefined;
    retry?: { maxAttempts: number } | undefined;
  }) {
    if (input.service === 'unified') throw new CatalogError("'unified' is reserved for Unified operations; import under another name", { field: 'name' });
    const existing = this.services.get(key(input.service, input.version));
    if (existing?.source === 'catalog') {
      throw new CatalogError(`${input.service}@${input.version} is a bundled catalog service and cannot be replaced by an import`, { field: 'name', conflict: true });
    }
    if (existing) {
      throw new CatalogError(`${input.service}@${input.version} is already imported and versions never change; import the new description as another version (v2, …)`, {
        field: 'version',
        conflict: true,
      });
    }
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
    const inserted = await this.store.insertImportedService({
      service: index.service,
      version: index.version,
      index: JSON.stringify(index),
      importedAt: new Date().toISOString(),
    });
    if (!inserted) {
      // Another replica imported it first.
      await this.refresh();
      throw new CatalogError(`${input.service}@${input.version} is already imported and versions never change; import the new description as another version (v2, …)`, {
        field: 'version',
        conflict: true,
      });
    }
    this.add(index, 'imported');
    return index;
  }
}
