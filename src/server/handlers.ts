// One handler per operationId of spec/engine.openapi.yaml. Inputs arrive validated by the
// generated validators; handlers only translate between the API and the concept modules.
import type { operations } from '../../generated/engine-api/types.ts';
import type { OperationId } from '../../generated/engine-api/routes.ts';
import type { ActivityLog } from '../activity/index.ts';
import { CatalogError, type Catalog } from '../catalog/index.ts';
import type { EngineConfig } from '../config/index.ts';
import { DEFAULT_BUCKET, type SecretVault } from '../credentials/index.ts';
import { EngineError } from '../envelope/index.ts';
import type { CallScope, Executor } from '../execution/index.ts';
import type { Tokens } from '../identity/index.ts';
import type { Logger } from '../log/index.ts';
import type { SdkApps } from '../sdk/index.ts';
import type { SdkVersionRow, TokenRow } from '../store/index.ts';
import type { Workspace } from '../workspace/index.ts';

export interface ServerDeps {
  config: EngineConfig;
  log: Logger;
  catalog: Catalog;
  workspace: Workspace;
  vault: SecretVault;
  tokens: Tokens;
  sdk: SdkApps;
  executor: Executor;
  activity: ActivityLog;
}

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type BodyOf<Id extends OperationId> = operations[Id] extends { requestBody: infer R } ? Json<R> : undefined;
type Present<T> = [NonNullable<T>] extends [never] ? {} : NonNullable<T>;
type ParamsOf<Id extends OperationId> = operations[Id] extends { parameters: infer P }
  ? (P extends { path?: infer X } ? Present<X> : {}) & (P extends { query?: infer Q } ? Present<Q> : {})
  : {};

export interface HandlerInput<Id extends OperationId> {
  params: ParamsOf<Id>;
  body: BodyOf<Id>;
  principal: TokenRow | undefined;
}

export type Handler<Id extends OperationId> = (input: HandlerInput<Id>) => Promise<{ status?: number; body?: unknown }>;
export type Handlers = { [Id in OperationId]: Handler<Id> };

const versionView = (v: SdkVersionRow) => ({
  name: v.name,
  version: v.version,
  versionId: v.versionId,
  services: v.services,
  operations: v.operations,
  createdAt: v.createdAt,
});

export function createHandlers(deps: ServerDeps): Handlers {
  const { catalog, workspace, vault, sdk, executor, activity, config } = deps;
  const scopes = new Map<string, Omit<CallScope, 'tokenId'>>();

  const scopeFor = (version: SdkVersionRow): Omit<CallScope, 'tokenId'> => {
    let scope = scopes.get(version.versionId);
    if (!scope) {
      const selected = new Set(version.operations);
      scope = {
        surface: 'rest',
        versionId: version.versionId,
        services: new Map(version.services.map((p) => p.split('=') as [string, string])),
        admits: (id) => selected.has(id),
        resultCapBytes: config.restMaxResultBytes,
      };
      scopes.set(version.versionId, scope);
    }
    return scope;
  };

  return {
    async listCatalogServices({ params }) {
      const byName = new Map<string, { name: string; title: string; versions: unknown[] }>();
      for (const s of catalog.list(params.q)) {
        const entry = byName.get(s.service) ?? { name: s.service, title: s.title, versions: [] };
        entry.versions.push({ version: s.version, operations: s.operations, source: s.source, baseUrl: s.baseUrl });
        byName.set(s.service, entry);
      }
      return { body: { services: [...byName.values()] } };
    },

    async listWorkspaceServices() {
      const services = (await workspace.list()).map((s) => ({
        name: s.service,
        version: s.version,
        baseUrl: s.baseUrl,
        baseUrlOverridden: s.baseUrlOverridden,
        enabledAt: s.enabledAt,
      }));
      return { body: { services } };
    },

    async enableWorkspaceService({ params, body }) {
      const s = await workspace.enable(params.service, body.version, body.baseUrl);
      return { body: { name: s.service, version: s.version, baseUrl: s.baseUrl, baseUrlOverridden: s.baseUrlOverridden, enabledAt: s.enabledAt } };
    },

    async disableWorkspaceService({ params }) {
      await workspace.disable(params.service);
      return { status: 204 };
    },

    async importWorkspaceService({ body }) {
      try {
        const index = await catalog.import({ service: body.name, version: body.version, document: body.document, baseUrl: body.baseUrl, auth: body.auth });
        return {
          status: 201,
          body: {
            name: index.service,
            title: index.title,
            versions: [{ version: index.version, operations: index.operations.length, source: 'imported', baseUrl: index.baseUrl }],
          },
        };
      } catch (err) {
        if (err instanceof CatalogError) throw new EngineError('ENGINE_INVALID_INPUT', err.message, { details: { field: 'document' } });
        throw err;
      }
    },

    async listBuckets() {
      const secrets = await vault.list();
      const names = new Set([DEFAULT_BUCKET, ...secrets.map((s) => s.bucket)]);
      return {
        body: {
          buckets: [...names].sort().map((name) => ({
            name,
            secrets: secrets.filter((s) => s.bucket === name).map((s) => ({ service: s.service, updatedAt: s.updatedAt })),
          })),
        },
      };
    },

    async setSecret({ params, body }) {
      if (params.bucket !== DEFAULT_BUCKET) {
        throw new EngineError('ENGINE_NOT_FOUND', `unknown bucket '${params.bucket}'; this workspace has the '${DEFAULT_BUCKET}' bucket`, {
          details: { field: 'bucket' },
        });
      }
      if (!catalog.has(params.service)) {
        throw new EngineError('ENGINE_NOT_FOUND', `unknown service '${params.service}'`, { details: { field: 'service' } });
      }
      await vault.set(params.bucket, params.service, body.value);
      return { status: 204 };
    },

    async validateSdkDefinition({ body }) {
      const resolved = await sdk.resolve(body);
      return {
        body: {
          name: resolved.name,
          services: [...resolved.services].map(([name, version]) => ({ name, version })),
          operations: resolved.operations,
        },
      };
    },

    async planSdk({ body }) {
      const { resolved: _r, current: _c, ...plan } = await sdk.plan(body);
      return { body: plan };
    },

    async publishSdk({ body }) {
      return { body: await sdk.publish(body) };
    },

    async listSdks() {
      return { body: { sdks: (await sdk.list()).map(versionView) } };
    },

    async listSdkVersions({ params }) {
      const versions = await sdk.versions(params.name);
      if (!versions.length) throw new EngineError('ENGINE_NOT_FOUND', `no SDK app named '${params.name}'`, { details: { field: 'name' } });
      return { body: { versions: versions.map(versionView) } };
    },

    async listReceipts({ params }) {
      if (!(await sdk.version(params.version_id))) {
        throw new EngineError('ENGINE_NOT_FOUND', `unknown version '${params.version_id}'`, { details: { field: 'version_id' } });
      }
      return { body: { receipts: await activity.list(params.version_id, params.limit ?? 50) } };
    },

    async createExecution({ params, body, principal }) {
      const version = await sdk.version(params.version_id);
      if (!version || !principal || version.name !== principal.subject) {
        throw new EngineError('ENGINE_UNAUTHENTICATED', `the token is not valid for version ${params.version_id}`);
      }
      const result = await executor.call(
        { ...scopeFor(version), tokenId: principal.id },
        { operation: body.operation, input: body.input, pagination: body.pagination },
      );
      return { status: result.providerAnswered ? 200 : result.envelope.status, body: result.envelope };
    },
  };
}
