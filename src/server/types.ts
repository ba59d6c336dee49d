// What the server hands every route handler (ServerDeps, HandlerInput) and what a handler answers
// (HandlerResult). Kept apart from handlers.ts so the files of routes/ import them without a cycle.
import type { Approvals } from '../approvals/index.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { operations } from '../../generated/engine-api/types.ts';
import type { McpGateway } from '../mcp/index.ts';
import type { OperationId } from '../../generated/engine-api/routes.ts';
import type { ActivityLog } from '../activity/index.ts';
import type { Catalog } from '../catalog/index.ts';
import type { EngineConfig } from '../config/index.ts';
import type { SecretVault } from '../credentials/index.ts';
import type { Calls } from '../calls/index.ts';
import type { Connection, Executor } from '../execution/index.ts';
import type { Accounts, DeviceFlow, Tokens } from '../identity/index.ts';
import type { Connections } from '../connections/index.ts';
import type { Coordinator } from '../coordination/index.ts';
import type { Logger } from '../log/index.ts';
import type { ConfinementLevel } from '../sandbox/index.ts';
import type { AuthorizationServer } from '../oauth/index.ts';
import type { Apps } from '../apps/index.ts';
import type { Packages } from '../sdkgen/index.ts';
import type { Store, TokenRow } from '../store/index.ts';
import type { Workspace } from '../workspace/index.ts';
import type { UnifiedOperations } from '../unified/index.ts';

export interface ServerDeps {
  config: EngineConfig;
  /** Where people and clients reach this Engine; filled in once it listens. */
  urls: { http: string };
  accounts: Accounts;
  deviceFlow: DeviceFlow;
  connections: Connections;
  /** Locks shared by the replicas (Redis with REDIS_URL); readiness pings it. */
  coordinator: Coordinator;
  mcpGateway: McpGateway;
  /** How sandbox workers are confined here (src/sandbox/confinement.ts), reported by /readyz. */
  sandboxConfinement: ConfinementLevel;
  /** The authorization server of the MCP servers (src/oauth). */
  oauth: AuthorizationServer;
  unified: UnifiedOperations;
  log: Logger;
  catalog: Catalog;
  workspace: Workspace;
  vault: SecretVault;
  tokens: Tokens;
  sdk: Apps;
  mcp: Apps;
  executor: Executor;
  /** The one entry of every call (src/calls). */
  calls: Calls;
  /** Approvals of gated MCP calls (src/approvals). */
  approvals: Approvals;
  activity: ActivityLog;
  store: Store;
  /** Typed packages and READMEs of SDK versions. */
  packages: Packages;
}

type Content<T> = T extends { content: infer C } ? C[keyof C] : never;
type BodyOf<Id extends OperationId> = operations[Id] extends { requestBody: infer R }
  ? Content<R>
  : operations[Id] extends { requestBody?: infer R }
    ? Content<NonNullable<R>> | undefined
    : undefined;
type Present<T> = [NonNullable<T>] extends [never] ? {} : NonNullable<T>;
type ParamsOf<Id extends OperationId> = operations[Id] extends { parameters: infer P }
  ? (P extends { path?: infer X } ? Present<X> : {}) & (P extends { query?: infer Q } ? Present<Q> : {}) & (P extends { header?: infer H } ? Partial<Present<H>> : {})
  : {};

export interface HandlerInput<Id extends OperationId> {
  params: ParamsOf<Id>;
  /** Raw routes only (x-raw): the Node request and response. */
  req: IncomingMessage;
  res: ServerResponse;
  body: BodyOf<Id>;
  principal: TokenRow | undefined;
  /** The request's Origin header, when present. */
  origin: string | undefined;
  /** The request's Sec-Fetch-Site header, when present. */
  fetchSite: string | undefined;
  /** The peer's address: the key of per-client limits. */
  client: string;
  /** The request's Cookie header, when present. */
  cookie: string | undefined;
  host: string;
  /** The client's connection: a call made for it is cancelled if it closes first. */
  connection: Connection;
}

export interface HandlerResult {
  status?: number;
  body?: unknown;
  type?: string;
  headers?: Record<string, string>;
}

export type Handler<Id extends OperationId> = (input: HandlerInput<Id>) => Promise<HandlerResult>;
export type Handlers = { [Id in OperationId]: Handler<Id> };
