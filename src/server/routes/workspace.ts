// The workspace: which services are enabled (and where they are reached), and services imported into the catalog.
import { CatalogError } from '../../catalog/index.ts';
import { EngineError } from '../../envelope/index.ts';
import type { EnabledService } from '../../workspace/index.ts';
import type { Handlers, ServerDeps } from '../types.ts';

const workspaceView = ({ services, revision }: { services: EnabledService[]; revision: string }) => ({
  services: services.map((s) => ({ name: s.service, version: s.version, baseUrl: s.baseUrl, baseUrlOverridden: s.baseUrlOverridden, enabledAt: s.enabledAt })),
  revision,
});

export function workspaceRoutes(deps: ServerDeps): Pick<Handlers, 'listWorkspaceServices' | 'applyWorkspace' | 'enableWorkspaceService' | 'disableWorkspaceService' | 'importWorkspaceService'> {
  const { catalog, workspace } = deps;
  return {
    async listWorkspaceServices() {
      return { body: workspaceView(await workspace.state()) };
    },

    async applyWorkspace({ body }) {
      return { body: workspaceView(await workspace.apply(body.services.map((s) => ({ service: s.name, version: s.version, baseUrl: s.baseUrl })), body.revision)) };
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
        const index = await catalog.import({ service: body.name, version: body.version, document: body.document, baseUrl: body.baseUrl, auth: body.auth, idempotency: body.idempotency, retry: body.retry });
        return {
          status: 201,
          body: {
            name: index.service,
            title: index.title,
            versions: [{ version: index.version, operations: index.operations.length, source: 'imported', baseUrl: index.baseUrl, ...(index.omitted ? { omitted: index.omitted } : {}), ...(index.warnings ? { warnings: index.warnings } : {}) }],
          },
        };
      } catch (err) {
        if (err instanceof CatalogError) throw new EngineError(err.conflict ? 'ENGINE_CONFLICT' : 'ENGINE_INVALID_INPUT', err.message, { details: { field: err.field } });
        throw err;
      }
    },
  };
}
