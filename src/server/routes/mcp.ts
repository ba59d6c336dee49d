// MCP servers: list, plan and publish versions, and the MCP transport each version is served on.
import type { Handlers, ServerDeps } from '../types.ts';

export function mcpRoutes(deps: ServerDeps): Pick<Handlers, 'listMcpServers' | 'planMcp' | 'publishMcp' | 'mcpPost' | 'mcpGet' | 'mcpDelete' | 'mcpTransitionalPost' | 'mcpTransitionalGet' | 'mcpTransitionalDelete'> {
  const { mcp, config, urls } = deps;
  const mcpUrl = (versionId: string) => `${config.publicUrl ?? urls.http}/mcp/${versionId}`;

  return {
    async listMcpServers() {
      const servers = [];
      for (const { name } of await mcp.list()) {
        // The active version is the newest of this read: one published since list() is in it too.
        const versions = await mcp.versions(name);
        for (const v of versions) {
          servers.push({ name: v.name, version: v.version, versionId: v.versionId, active: v.versionId === versions[0]!.versionId, url: mcpUrl(v.versionId), services: v.services, createdAt: v.createdAt });
        }
      }
      return { body: { servers } };
    },

    async planMcp({ body }) {
      const { resolved: _r, current: _c, ...plan } = await mcp.plan(body);
      return { body: plan };
    },

    async publishMcp({ body }) {
      const result = await mcp.publish(body);
      return { body: { ...result, url: mcpUrl(result.versionId) } };
    },

    mcpPost: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, false).then(() => ({})),
    mcpGet: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, false).then(() => ({})),
    mcpDelete: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, false).then(() => ({})),
    mcpTransitionalPost: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, true).then(() => ({})),
    mcpTransitionalGet: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, true).then(() => ({})),
    mcpTransitionalDelete: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, true).then(() => ({})),
  };
}
