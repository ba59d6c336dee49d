// Apps: SDK apps and MCP servers. Both are definitions of selected services and operations,
// planned and published as immutable versions with semantic labels derived from the change
// (docs/architecture.md, apps and Unified operations); the first publish of an app issues its execution token, once.
import { Catalog, combinedHints, type SafetyHints } from '../catalog/index.ts';
import { EngineError } from '../envelope/index.ts';
import { newVersionId } from '../ids/index.ts';
import { Tokens } from '../identity/index.ts';
import { StoreConflictError, type AppKind, type AppVersionRow, type Store } from '../store/index.ts';
import { Workspace } from '../workspace/index.ts';
import { closureOf, type UnifiedDefinition } from '../unified/definitions.ts';
import type { AppDefinition, AppPlan, PlanChange, PublishResult, ResolvedDefinition } from './types.ts';

const invalid = (field: string, message: string) =>
  new EngineError('ENGINE_INVALID_INPUT', `${field}: ${message}`, { details: { field } });

/** Levenshtein-free nearest names: shared prefix, then substring. Good enough for "did you mean". */
function suggest(candidates: Iterable<string>, wanted: string): string {
  const w = wanted.toLowerCase();
  const scored = [...candidates]
    .map((c) => {
      const lc = c.toLowerCase();
      let prefix = 0;
      while (prefix < Math.min(lc.length, w.length) && lc[prefix] === w[prefix]) prefix++;
      return { c, score: prefix + (lc.includes(w) || w.includes(lc) ? 10 : 0) };
    })
    .filter((x) => x.score > 2)
    .sort((a, b) => b.score - a.score || (a.c < b.c ? -1 : 1))
    .slice(0, 3);
  return scored.length ? `; did you mean ${scored.map((x) => `'${x.c}'`).join(', ')}?` : '';
}

const pairsOf = (services: Map<string, string>) => [...services].map(([s, v]) => `${s}=${v}`).sort();

/** The service a public operation ID belongs to (`github.issues/create` → `github`). */
const serviceOf = (operation: string) => operation.slice(0, operation.indexOf('.'));

export class Apps {
  readonly kind: AppKind;
  private readonly store: Store;
  private readonly catalog: Catalog;
  private readonly workspace: Workspace;
  private readonly tokens: Tokens;

  private readonly unified: ReadonlyMap<string, UnifiedDefinition>;

  constructor(kind: AppKind, deps: { store: Store; catalog: Catalog; workspace: Workspace; tokens: Tokens; unified?: readonly UnifiedDefinition[] }) {
    this.kind = kind;
    this.unified = new Map((deps.unified ?? []).map((d) => [d.name, d]));
    this.store = deps.store;
    this.catalog = deps.catalog;
    this.workspace = deps.workspace;
    this.tokens = deps.tokens;
  }

  /** Checks a definition against the catalog and workspace and expands operation globs. */
  async resolve(def: AppDefinition): Promise<ResolvedDefinition> {
    const services = new Map<string, string>();
    for (const [i, pair] of def.services.entries()) {
      const field = `services[${i}]`;
      const [service = '', version = ''] = pair.split('=');
      await this.catalog.ensure(service, version); // another replica may have imported it
      if (!this.catalog.has(service)) {
        throw invalid(field, `unknown service '${service}'${suggest(this.catalog.list().map((s) => s.service), service)}`);
      }
      if (!this.catalog.get(service, version)) {
        throw invalid(field, `service '${service}' has no version '${version}' (available: ${this.catalog.versionsOf(service).join(', ')})`);
      }
      if (services.has(service)) throw invalid(field, `service '${service}' is selected twice`);
      const enabled = await this.workspace.get(service);
      if (!enabled || enabled.version !== version) {
        throw invalid(
          field,
          enabled
            ? `the workspace has ${service} at ${enabled.version}, not ${version}`
            : `service '${service}' is not enabled in the workspace; run \`svc-cli workspace service add ${service} --version ${version}\`, then \`svc-cli workspace apply\``,
        );
      }
      services.set(service, version);
    }
    const operations = new Set<string>();
    for (const [i, pair] of def.operations.entries()) {
      const field = `operations[${i}]`;
      const at = pair.indexOf('=');
      const service = pair.slice(0, at);
      const selector = pair.slice(at + 1);
      if (service === 'unified') {
        const names = selector.endsWith('*') ? [...this.unified.keys()].filter((n) => n.startsWith(`unified.${selector.slice(0, -1)}`)) : [`unified.${selector}`];
        if (!names.length || !names.every((n) => this.unified.has(n))) {
          throw invalid(field, `unknown Unified operation '${selector}'${suggest([...this.unified.keys()].map((n) => n.slice('unified.'.length)), selector)}`);
        }
        // A group selects the Unified operations that can run on the selected services; one named
        // alone must run, and is refused, naming the services it needs, when it cannot.
        const glob = selector.endsWith('*');
        const runnable = glob ? names.filter((name) => this.runsOn(this.unified.get(name)!, services)) : names;
        for (const name of runnable.length ? runnable : names) {
          await this.checkSteps(field, this.unified.get(name)!, services);
          operations.add(name);
        }
        continue;
      }
      const version = services.get(service);
      if (!version) throw invalid(field, `service '${service}' is not among the selected services; add --service '${service}=<version>'`);
      const index = this.catalog.get(service, version)!;
      if (selector.endsWith('*')) {
        // A group (docs/architecture.md, identifiers and apps): the ID's prefix (`issues/*`), or the grouped path of a flat ID grouped by its tag (`customers/*`).
        const prefix = selector.slice(0, -1);
        const matched = index.operations.filter((op) => op.id.startsWith(`${service}.${prefix}`) || op.group.join('/').startsWith(prefix));
        if (!matched.length) throw invalid(field, `no operation of ${service}@${version} matches '${selector}'`);
        for (const op of matched) operations.add(op.id);
        continue;
      }
      const id = `${service}.${selector}`;
      if (!this.catalog.operation(service, version, id)) {
        throw invalid(field, `unknown operation '${selector}' in ${service}@${version}${suggest(index.operations.map((o) => o.providerOperationId), selector)}`);
      }
      operations.add(id);
    }
    const selected = [...operations].sort();
    return { name: def.name, services, operations: selected, requireApproval: this.gated(def.requireApproval ?? [], selected, services) };
  }

  /**
   * requireApproval expanded to the selected operations it names (as the definition records its
   * operations, so a version never changes under its users): IDs, `*` globs, or `destructive`
   * for every selected operation whose hint is destructive. An entry that names none is refused.
   */
  private gated(entries: readonly string[], selected: readonly string[], services: ReadonlyMap<string, string>): string[] {
    if (entries.length && this.kind !== 'mcp') throw invalid('requireApproval', 'approvals gate the calls of MCP servers only; leave requireApproval out of an SDK definition');
    const gated = new Set<string>();
    for (const [i, entry] of entries.entries()) {
      const matched = selected.filter((id) => (entry === 'destructive' ? this.hints(id, services).destructive : entry.endsWith('*') ? id.startsWith(entry.slice(0, -1)) : id === entry));
      if (!matched.length) {
        throw invalid(`requireApproval[${i}]`, entry === 'destructive' ? 'no selected operation is destructive' : `'${entry}' matches no selected operation (write public IDs such as 'demo-crm.contacts/delete')`);
      }
      for (const id of matched) gated.add(id);
    }
    return [...gated].sort();
  }

  /** An operation's safety hints at the versions selected; a Unified one's are its steps' together. */
  private hints(id: string, services: ReadonlyMap<string, string>): SafetyHints {
    const unified = this.unified.get(id);
    if (unified) return combinedHints(Object.values(unified.steps).map((step) => this.hints(step.operation, services)));
    return this.catalog.hints(id, services) ?? { readOnly: false, destructive: false };
  }

  /**
   * A Unified operation runs its steps at the service versions the definition pins (docs/architecture.md, Unified operations:
   * a target runs when the services of the steps it needs are selected; one target at least must).
   * Refuses a pinned version lacking a step's operation, and a selection where no target can run,
   * naming each missing service with the version to select and the steps that call it.
   */
  /** Whether one target of `def` at least has every service its steps need among `services`. */
  private runsOn(def: UnifiedDefinition, services: ReadonlyMap<string, string>): boolean {
    return Object.keys(def.steps).some((target) => [...closureOf(def, target)].every((step) => services.has(serviceOf(def.steps[step]!.operation))));
  }

  private async checkSteps(field: string, def: UnifiedDefinition, services: ReadonlyMap<string, string>): Promise<void> {
    const missing = new Map<string, [step: string, operation: string][]>();
    const absent: string[] = [];
    for (const [step, { operation }] of Object.entries(def.steps)) {
      const service = serviceOf(operation);
      const version = services.get(service);
      if (version === undefined) missing.set(service, [...(missing.get(service) ?? []), [step, operation]]);
      else if (!this.catalog.operation(service, version, operation)) absent.push(`its step '${step}' calls ${operation}, which ${service}=${version} does not have`);
    }
    if (absent.length) throw invalid(field, `${def.name} cannot run at the selected service versions: ${absent.join('; ')}`);
    // Targets over services the version leaves out are refused when called (src/unified, a step's service not selected).
    if (missing.size && !this.runsOn(def, services)) {
      const pairs: string[] = [];
      for (const [service, calls] of missing) {
        // The version to name: the workspace's, when it has the steps' operations, else a catalog version that has them.
        const has = (version: string) => calls.every(([, op]) => this.catalog.operation(service, version, op));
        const enabled = (await this.workspace.get(service))?.version;
        const version = enabled !== undefined && has(enabled) ? enabled : (this.catalog.versionsOf(service).find(has) ?? '<version>');
        pairs.push(`${service}=${version}`);
      }
      const calls = [...missing.values()].flat();
      const why = calls.length === 1 ? `its step '${calls[0]![0]}' calls ${calls[0]![1]}` : `its steps: ${calls.map(([step, op]) => `'${step}' calls ${op}`).join(', ')}`;
      throw invalid(field, `${def.name} needs ${pairs.join(' and ')} selected (${why}); add ${pairs.map((p) => `--service '${p}'`).join(' ')}`);
    }
  }

  private diff(current: AppVersionRow | null, next: ResolvedDefinition): PlanChange[] {
    const changes: PlanChange[] = [];
    const before = new Map((current?.services ?? []).map((p) => p.split('=') as [string, string]));
    for (const [service, version] of next.services) {
      const was = before.get(service);
      if (was === undefined) changes.push({ action: '+', kind: 'service', id: service, to: version });
      else if (was !== version) changes.push({ action: '~', kind: 'service', id: service, from: was, to: version });
    }
    for (const [service, version] of before) {
      if (!next.services.has(service)) changes.push({ action: '-', kind: 'service', id: service, from: version });
    }
    const oldOps = new Set(current?.operations ?? []);
    const newOps = new Set(next.operations);
    for (const op of next.operations) if (!oldOps.has(op)) changes.push({ action: '+', kind: 'operation', id: op });
    for (const op of oldOps) if (!newOps.has(op)) changes.push({ action: '-', kind: 'operation', id: op });
    const oldGated = new Set(current?.requireApproval ?? []);
    const newGated = new Set(next.requireApproval);
    for (const op of next.requireApproval) if (!oldGated.has(op)) changes.push({ action: '+', kind: 'approval', id: op });
    for (const op of oldGated) if (!newGated.has(op)) changes.push({ action: '-', kind: 'approval', id: op });
    return changes;
  }

  /** First publish 1.0.0; only additions bump the minor; any removal or version change bumps the major. */
  private nextLabel(current: AppVersionRow | null, changes: PlanChange[]): string | null {
    if (!current) return '1.0.0';
    if (!changes.length) return null;
    const [major = 0, minor = 0] = current.version.split('.').map(Number);
    const breaking = changes.some((c) => c.action !== '+');
    return breaking ? `${major + 1}.0.0` : `${major}.${minor + 1}.0`;
  }

  async plan(def: AppDefinition): Promise<AppPlan & { resolved: ResolvedDefinition; current: AppVersionRow | null }> {
    const resolved = await this.resolve(def);
    const current = (await this.store.listVersions(this.kind, def.name))[0] ?? null;
    const changes = this.diff(current, resolved);
    return {
      name: def.name,
      currentVersion: current?.version ?? null,
      nextVersion: this.nextLabel(current, changes),
      changes,
      summary: {
        add: changes.filter((c) => c.action === '+').length,
        remove: changes.filter((c) => c.action === '-').length,
        change: changes.filter((c) => c.action === '~').length,
      },
      resolved,
      current,
    };
  }

  async publish(def: AppDefinition): Promise<PublishResult> {
    const { resolved, current, nextVersion } = await this.plan(def);
    if (!nextVersion) return { name: def.name, version: current!.version, versionId: current!.versionId, published: false };
    const row: AppVersionRow = {
      versionId: newVersionId(),
      name: def.name,
      version: nextVersion,
      services: pairsOf(resolved.services),
      operations: resolved.operations,
      createdAt: new Date().toISOString(),
      ...(resolved.requireApproval.length ? { requireApproval: resolved.requireApproval } : {}),
    };
    const first = current ? null : this.tokens.mint(this.kind, def.name);
    try {
      await this.store.publishVersion(this.kind, row, first?.row ?? null, current?.versionId ?? null);
    } catch (err) {
      if (err instanceof StoreConflictError) {
        // Another apply won the race. When it published exactly this definition, this apply has
        // nothing left to do (as it would have, one moment later); otherwise the plan is stale.
        const again = await this.plan(def);
        if (!again.nextVersion) return { name: def.name, version: again.current!.version, versionId: again.current!.versionId, published: false };
        throw new EngineError('ENGINE_CONFLICT', `${def.name} was published concurrently; run plan again and re-apply`);
      }
      throw err;
    }
    return { name: row.name, version: row.version, versionId: row.versionId, published: true, ...(first ? { token: first.token } : {}) };
  }

  /** A published version; versions are immutable, so lookups are cached. */
  private readonly versionCache = new Map<string, AppVersionRow>();
  /** A version already read (versions are immutable): the call path's lookup without a promise. */
  cachedVersion(versionId: string): AppVersionRow | undefined {
    return this.versionCache.get(versionId);
  }

  async version(versionId: string): Promise<AppVersionRow | null> {
    const cached = this.versionCache.get(versionId);
    if (cached) return cached;
    const row = await this.store.getVersion(this.kind, versionId);
    if (row) this.versionCache.set(versionId, row);
    return row;
  }

  async list() {
    return this.store.listLatestVersions(this.kind);
  }

  async versions(name: string) {
    return this.store.listVersions(this.kind, name);
  }
}
