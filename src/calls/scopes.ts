// A call's scope: which services and operations a version reaches on a surface, and what its token
// adds (allowlist, fixed selectors). Versions are immutable, so a version's part is built once.
import { EngineError } from '../envelope/index.ts';
import type { CallScope, Connection, Selectors } from '../execution/index.ts';
import type { AppVersionRow, TokenRow } from '../store/index.ts';
import { allows } from './allowlist.ts';

export type Surface = CallScope['surface'];

/** What a call carries besides its request: its cancellation and, on REST, the client's connection. */
export interface CallContext {
  signal?: AbortSignal | undefined;
  connection?: Connection | undefined;
  /** When the caller stops waiting (epoch ms): a gRPC deadline, the end of an MCP run. */
  deadline?: number | undefined;
  /** An idempotency key the surface carries beside the body (REST's `Idempotency-Key` header, gRPC metadata), with where it came from. */
  idempotencyKey?: { value: string; field: string } | undefined;
}

/** A version's scope on one surface, before any token: the part every call to it shares. */
interface VersionScope {
  base: Omit<CallScope, 'tokenId'>;
  selected: ReadonlySet<string>;
}

/** 404 for a well-formed version ID no app has (docs/architecture.md, the result envelope); a version of another app stays 401. */
export const unknownVersion = (surface: Surface, versionId: string) =>
  surface === 'mcp'
    ? new EngineError('ENGINE_NOT_FOUND', `no MCP server version ${versionId} exists; \`svc-cli mcp list\` shows each server's latest version`, { details: { field: 'version_id' } })
    : new EngineError('ENGINE_NOT_FOUND', `no SDK version ${versionId} exists; \`svc-cli sdk list\` shows each app's latest version`, { details: { field: 'version_id' } });

export class VersionScopes {
  private readonly built = new Map<string, VersionScope>();

  private readonly surface: Surface;
  private readonly resultCapBytes: number;

  constructor(surface: Surface, resultCapBytes: number) {
    this.surface = surface;
    this.resultCapBytes = resultCapBytes;
  }

  private of(version: AppVersionRow): VersionScope {
    let scope = this.built.get(version.versionId);
    if (!scope) {
      const selected = new Set(version.operations);
      scope = {
        selected,
        base: {
          surface: this.surface,
          versionId: version.versionId,
          services: new Map(version.services.map((p) => p.split('=') as [string, string])),
          admits: (id) => selected.has(id),
          resultCapBytes: this.resultCapBytes,
        },
      };
      this.built.set(version.versionId, scope);
    }
    return scope;
  }

  /** The version selects the operation (whatever the token's allowlist says). */
  selects(version: AppVersionRow, operationId: string): boolean {
    return this.of(version).selected.has(operationId);
  }

  /** The scope of one call by `token` to `version`: the token's allowlist narrows it, its binding fixes selectors. */
  scopeFor(version: AppVersionRow, token: TokenRow, context: CallContext): CallScope {
    const { base, selected } = this.of(version);
    const scope: CallScope = { ...base, tokenId: token.id };
    const allow = token.allow;
    if (allow !== null) scope.admits = (id) => selected.has(id) && allows(allow, id);
    if (token.binding) scope.binding = token.binding as Selectors;
    if (token.readOnly) scope.readOnly = true;
    if (context.signal) scope.signal = context.signal;
    if (context.connection) scope.connection = context.connection;
    if (context.deadline !== undefined) scope.deadline = context.deadline;
    return scope;
  }
}
