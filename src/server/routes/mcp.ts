// MCP servers: list, plan and publish versions, and the MCP transport each version is served on.
import type { ApprovalRow } from '../../store/index.ts';
import type { Handlers, ServerDeps } from '../types.ts';

/** An approval as `svc-cli mcp approve` shows it: the call, its params summarised, and when it was approved and used. */
const approvalBody = (a: ApprovalRow, server: string) => ({
  id: a.id,
  server,
  versionId: a.versionId,
  operation: a.operation,
  params: a.summary,
  createdAt: a.createdAt,
  expiresAt: a.expiresAt,
  approvedAt: a.approvedAt,
  approvedBy: a.approvedBy,
  usedAt: a.usedAt,
});

export function mcpRoutes(deps: ServerDeps): Pick<Handlers, 'listMcpServers' | 'planMcp' | 'publishMcp' | 'listMcpApprovals' | 'approveMcpCall' | 'mcpPost' | 'mcpGet' | 'mcpDelete' | 'mcpTransitionalPost' | 'mcpTransitionalGet' | 'mcpTransitionalDelete'> {
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

    async listMcpApprovals() {
      const waiting = await deps.approvals.waiting();
      const names = new Map<string, string>();
      for (const id of new Set(waiting.map((a) => a.versionId))) names.set(id, (await mcp.version(id))?.name ?? '');
      return { body: { approvals: waiting.map((a) => approvalBody(a, names.get(a.versionId) ?? '')) } };
    },

    async approveMcpCall({ params, principal }) {
      const approval = await deps.approvals.approve(params.approval_id, principal!.subject);
      const version = await mcp.version(approval.versionId);
      return { body: approvalBody(approval, version?.name ?? '') };
    },

    mcpPost: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, false).then(() => ({})),
    mcpGet: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, false).then(() => ({})),
    mcpDelete: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, false).then(() => ({})),
    mcpTransitionalPost: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, true).then(() => ({})),
    mcpTransitionalGet: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, true).then(() => ({})),
    mcpTransitionalDelete: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, true).then(() => ({})),
  };
}
