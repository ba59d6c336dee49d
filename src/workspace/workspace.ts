// Workspace enablement: which service version the company uses, and where it is reached.
import { createHash } from 'node:crypto';
import { Catalog, baseUrlProblem, type ServiceIndex } from '../catalog/index.ts';
import { EngineError } from '../envelope/index.ts';
import { StoreConflictError, type Store, type WorkspaceServiceRow } from '../store/index.ts';

export interface EnabledService {
  service: string;
  version: string;
  baseUrl: string;
  /** The base URL's `scheme://host[:port]`: where this service's credentials may be sent. */
  origin: string;
  baseUrlOverridden: boolean;
  enabledAt: string;
}

/** A service as an apply wants it enabled (baseUrl absent: the catalog's). */
export interface DesiredService {
  service: string;
  version: string;
  baseUrl?: string | undefined;
}

/**
 * What the workspace holds, as one opaque value: it changes whenever a service is enabled, disabled,
 * or moved to another version or base URL. An apply names the revision it was planned from.
 */
export function workspaceRevision(rows: readonly WorkspaceServiceRow[]): string {
  const state = [...rows].sort((x, y) => (x.service < y.service ? -1 : 1)).map((r) => [r.service, r.version, r.baseUrl]);
  return `wsr_${createHash('sha256').update(JSON.stringify(state)).digest('base64url').slice(0, 22)}`;
}

/** A URL's origin, or '' when it has none (a view of a row whose catalog entry is gone). */
const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : '');

export class Workspace {
  private readonly store: Store;
  private readonly catalog: Catalog;

  constructor(store: Store, catalog: Catalog) {
    this.store = store;
    this.catalog = catalog;
  }

  /** Views of rows the store handed out; a store that caches rows (SQLite) gets the same view back. */
  private readonly views = new WeakMap<WorkspaceServiceRow, EnabledService>();

  private view(row: WorkspaceServiceRow): EnabledService {
    let view = this.views.get(row);
    if (!view) {
      const known = this.catalog.summary(row.service, row.version);
      const baseUrl = row.baseUrl ?? known?.baseUrl ?? '';
      view = Object.freeze({
        service: row.service,
        version: row.version,
        baseUrl,
        origin: originOf(baseUrl),
        baseUrlOverridden: row.baseUrl !== null,
        enabledAt: row.enabledAt,
      });
      if (known || row.baseUrl !== null) this.views.set(row, view); // a catalog read later may still give the address
    }
    return view;
  }

  /** The view of a row whose service another replica may have imported after this one read its catalog. */
  private async viewFresh(row: WorkspaceServiceRow): Promise<EnabledService> {
    if (row.baseUrl === null && !this.catalog.summary(row.service, row.version)) await this.catalog.ensure(row.service, row.version);
    return this.view(row);
  }

  async list(): Promise<EnabledService[]> {
    return (await this.state()).services;
  }

  /** The enabled services and the revision they make, from one read. */
  async state(): Promise<{ services: EnabledService[]; revision: string }> {
    const rows = await this.store.listWorkspaceServices();
    return { services: await Promise.all(rows.map((r) => this.viewFresh(r))), revision: workspaceRevision(rows) };
  }

  async get(service: string): Promise<EnabledService | null> {
    const row = await this.store.getWorkspaceService(service);
    return row ? this.viewFresh(row) : null;
  }

  /** `get` answered at once, when the store reads without I/O; undefined when it cannot. */
  getSync(service: string): EnabledService | null | undefined {
    const reads = this.store.sync;
    if (!reads) return undefined;
    const row = reads.workspaceService(service);
    return row ? this.view(row) : null;
  }

  async enable(service: string, version: string, baseUrl?: string): Promise<EnabledService> {
    const row = await this.checkedRow({ service, version, baseUrl }, '', new Date().toISOString());
    await this.store.putWorkspaceService(row);
    return this.view(row);
  }

  /** The row that enables `wanted`, once the catalog has that version and the base URL is usable; `field` prefixes the refused field's name. */
  private async checkedRow({ service, version, baseUrl }: DesiredService, field: string, enabledAt: string): Promise<WorkspaceServiceRow> {
    await this.catalog.ensure(service, version); // another replica may have imported it
    if (!this.catalog.has(service)) {
      throw new EngineError('ENGINE_NOT_FOUND', `unknown service '${service}'; list services with \`svc-cli workspace services list\``, {
        details: { field: field ? `${field}name` : 'service' },
      });
    }
    if (!this.catalog.summary(service, version)) {
      throw new EngineError('ENGINE_NOT_FOUND', `service '${service}' has no version '${version}' (available: ${this.catalog.versionsOf(service).join(', ')})`, {
        details: { field: `${field}version` },
      });
    }
    const problem = baseUrl ? baseUrlProblem(baseUrl) : undefined;
    if (problem) throw new EngineError('ENGINE_INVALID_INPUT', `${field}baseUrl ${problem}`, { details: { field: `${field}baseUrl` } });
    if (!baseUrl && !this.catalog.summary(service, version)!.baseUrl) {
      throw new EngineError('ENGINE_INVALID_INPUT', `${field}baseUrl: ${service}@${version} was imported from a description that names no absolute server; give its base URL`, {
        details: { field: `${field}baseUrl` },
      });
    }
    return { service, version, baseUrl: baseUrl ? baseUrl.replace(/\/+$/, '') : null, enabledAt };
  }

  /**
   * Makes the enabled services exactly `desired` in one step (any other is disabled), every entry
   * checked before anything is written. With `revision`, only while the workspace is still at it
   * (what the caller planned from): two applies planned from one state never both land, on any
   * replica, and never leave a mix of the two. Otherwise 409 and nothing changed.
   */
  async apply(desired: DesiredService[], revision?: string): Promise<{ services: EnabledService[]; revision: string }> {
    const enabledAt = new Date().toISOString();
    const rows: WorkspaceServiceRow[] = [];
    for (const [i, wanted] of desired.entries()) {
      if (rows.some((r) => r.service === wanted.service)) {
        throw new EngineError('ENGINE_INVALID_INPUT', `services[${i}]: service '${wanted.service}' is listed twice`, { details: { field: `services[${i}].name` } });
      }
      rows.push(await this.checkedRow(wanted, `services[${i}].`, enabledAt));
    }
    let applied: boolean;
    try {
      applied = await this.store.replaceWorkspaceServices(rows, (current) => revision === undefined || workspaceRevision(current) === revision);
    } catch (err) {
      if (err instanceof StoreConflictError) throw new EngineError('ENGINE_CONFLICT', err.message);
      throw err;
    }
    if (!applied) {
      throw new EngineError('ENGINE_CONFLICT', `the workspace changed since revision ${revision} was read (another apply?); nothing was changed`, { details: { field: 'revision' } });
    }
    return this.state();
  }

  /**
   * The origin a credential for `service` set now is bound to: where the workspace sends its calls,
   * or, while it is not enabled, the catalog's address when every version shares one. Null when the
   * service is unknown; refused when its versions live at different origins.
   */
  async credentialOrigin(service: string): Promise<string | null> {
    const enabled = await this.get(service);
    if (enabled?.origin) return enabled.origin;
    const origins = new Set(this.catalog.versionsOf(service).map((v) => originOf(this.catalog.summary(service, v)?.baseUrl ?? '')));
    if (origins.size === 0) return null;
    if (origins.size > 1 || origins.has('')) {
      throw new EngineError('ENGINE_CONFLICT', `the versions of '${service}' are reached at different addresses; enable one first (\`svc-cli workspace service add ${service} --version <v>\`) so the Engine knows where its credential may be sent`, {
        details: { field: 'service' },
      });
    }
    return [...origins][0]!;
  }

  async disable(service: string): Promise<void> {
    if (!(await this.store.deleteWorkspaceService(service))) {
      throw new EngineError('ENGINE_NOT_FOUND', `service '${service}' is not enabled in the workspace`, { details: { field: 'service' } });
    }
  }

  /** The index and effective base URL for calls to `service` at `version`, or null when not enabled. */
  async resolve(service: string, version: string): Promise<{ index: ServiceIndex; baseUrl: string } | null> {
    const row = await this.store.getWorkspaceService(service);
    if (row && !this.catalog.get(service, version)) await this.catalog.ensure(service, version); // another replica may have imported it
    const index = this.catalog.get(service, version);
    if (!row || !index) return null;
    return { index, baseUrl: row.baseUrl ?? index.baseUrl };
  }
}
