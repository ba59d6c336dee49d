// The operation catalog: bundled services from the prebuilt index in generated/catalog, plus
// services imported at run time from an OpenAPI document (kept in the Store).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Store } from '../store/index.ts';
import { CatalogError } from './problems.ts';
import { importedIndex, type ImportInput } from './import.ts';
import type { OperationSpec, ServiceIndex, ServiceSummary } from './types.ts';
import { operationHints, type SafetyHints } from './safety.ts';

export const GENERATED_CATALOG_DIR = resolve(import.meta.dirname, '../../generated/catalog');

/** A service version; a bundled one's index is read from disk on first use (the manifest has its summary). */
interface LoadedService extends ServiceSummary {
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

  /** The safety hints of operation `publicId` at the service version `services` pins for it; undefined when it has none there. */
  hints(publicId: string, services: ReadonlyMap<string, string>): SafetyHints | undefined {
    const service = publicId.slice(0, Math.max(0, publicId.indexOf('.')));
    const version = services.get(service);
    const op = version === undefined ? undefined : this.operation(service, version, publicId);
    return op && operationHints(this.get(service, version!), op);
  }

  /**
   * Imports a service version from OpenAPI text. A version, once in the catalog, never changes:
   * published SDK and MCP versions and their packages were built from it.
   */
  async import(input: ImportInput) {
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
    const index = await importedIndex(input);
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
