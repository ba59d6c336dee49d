// Execution tokens of MCP servers and SDK apps: list, issue, revoke.
import { allows } from '../../calls/index.ts';
import { EngineError } from '../../envelope/index.ts';
import type { GrantRow, TokenRow } from '../../store/index.ts';
import type { Handlers, ServerDeps } from '../types.ts';

/** A token as listed; a grant an MCP client obtained with OAuth (src/oauth) also names its client. */
const tokenView = (t: TokenRow, grant?: GrantRow) => ({
  id: t.id,
  allow: t.allow,
  expiresAt: t.expiresAt,
  lastUsedAt: t.lastUsedAt,
  revokedAt: t.revokedAt,
  createdAt: t.createdAt,
  binding: t.binding,
  readOnly: t.readOnly === true,
  ...(grant ? { client: { id: grant.clientId, name: grant.clientName, redirectUri: grant.redirectUri, versionId: grant.versionId, approvedBy: grant.approvedBy } } : {}),
});

/**
 * A token's expiry as asked, checked (readable, in the future) and in one form, UTC with
 * milliseconds, whatever offset or case it came in (null or absent: never).
 */
function expiryOf(expiresAt: string | null | undefined): string | null {
  if (expiresAt === undefined || expiresAt === null) return null;
  // The format check admits a leap second (…:60Z), which Date.parse cannot read: never store an expiry the check would skip.
  const at = Date.parse(expiresAt);
  if (!Number.isFinite(at)) throw new EngineError('ENGINE_INVALID_INPUT', 'expiresAt is not a time the Engine can read; use an RFC 3339 time such as 2027-01-31T00:00:00Z', { details: { field: 'expiresAt' } });
  if (at <= Date.now()) throw new EngineError('ENGINE_INVALID_INPUT', 'expiresAt must be in the future', { details: { field: 'expiresAt' } });
  return new Date(at).toISOString();
}

export function tokenRoutes(deps: ServerDeps): Pick<Handlers, 'listMcpTokens' | 'createMcpToken' | 'listSdkTokens' | 'createSdkToken' | 'revokeToken'> {
  const { sdk, mcp, tokens } = deps;
  /** An MCP server by name, or by one of its version IDs. */
  const mcpServer = async (nameOrId: string) => {
    const byId = nameOrId.startsWith('ver_') ? await mcp.version(nameOrId) : null;
    const name = byId?.name ?? nameOrId;
    if (!(await mcp.versions(name)).length) {
      throw new EngineError('ENGINE_NOT_FOUND', `no MCP server named '${nameOrId}'; list them with \`svc-cli mcp list\``, { details: { field: 'name' } });
    }
    return name;
  };
  const sdkApp = async (name: string) => {
    if (!(await sdk.versions(name)).length) {
      throw new EngineError('ENGINE_NOT_FOUND', `no SDK app named '${name}'; list them with \`svc-cli sdk list\``, { details: { field: 'name' } });
    }
    return name;
  };

  return {
    async listMcpTokens({ params }) {
      const name = await mcpServer(params.name);
      const grants = new Map((await deps.store.grants.listGrants(name)).map((g) => [g.id, g]));
      return { body: { tokens: (await deps.store.listTokens('mcp', name)).map((t) => tokenView(t, grants.get(t.id))) } };
    },

    async createMcpToken({ params, body }) {
      const name = await mcpServer(params.name);
      const expiresAt = expiryOf(body.expiresAt);
      // An entry that matches nothing (a typo) would make a token that cannot call what was meant:
      // checked against the version named, else the latest.
      const target = params.name.startsWith('ver_') ? (await mcp.version(params.name))! : (await mcp.versions(name))[0]!;
      const unmatched = body.allow.findIndex((entry: string) => !target.operations.some((op) => allows([entry], op)));
      if (unmatched >= 0) {
        throw new EngineError('ENGINE_INVALID_INPUT', `allow[${unmatched}] '${body.allow[unmatched]}' matches no operation of ${name} ${target.version}`, {
          details: { field: `allow[${unmatched}]` },
        });
      }
      const binding = body.binding && Object.keys(body.binding).length ? (body.binding as Record<string, string>) : null;
      const issued = await tokens.issue('mcp', name, { allow: [...new Set(body.allow)].sort(), expiresAt, binding, readOnly: body.readOnly === true });
      return { status: 201, body: { id: issued.row.id, token: issued.token, allow: issued.row.allow, expiresAt: issued.row.expiresAt, binding: issued.row.binding, readOnly: issued.row.readOnly === true } };
    },

    async listSdkTokens({ params }) {
      const name = await sdkApp(params.name);
      return { body: { tokens: (await deps.store.listTokens('sdk', name)).map(({ id, expiresAt, lastUsedAt, revokedAt, createdAt, readOnly }) => ({ id, expiresAt, lastUsedAt, revokedAt, createdAt, readOnly: readOnly === true })) } };
    },

    async createSdkToken({ params, body }) {
      const name = await sdkApp(params.name);
      const issued = await tokens.issue('sdk', name, { expiresAt: expiryOf(body.expiresAt), readOnly: body.readOnly === true });
      return { status: 201, body: { id: issued.row.id, token: issued.token, expiresAt: issued.row.expiresAt, readOnly: issued.row.readOnly === true } };
    },

    async revokeToken({ params }) {
      // Execution tokens only: CLI credentials are revoked by their holder (logout) or on the host.
      if (!(await tokens.revoke(params.token_id, params.kind ? [params.kind] : ['sdk', 'mcp']))) {
        throw new EngineError('ENGINE_NOT_FOUND', `no live ${params.kind ? `${params.kind.toUpperCase()} ` : ''}token ${params.token_id}`, { details: { field: 'token_id' } });
      }
      return { status: 204 };
    },
  };
}
