// The MCP server (Streamable HTTP) at /mcp/<version_id>: exactly two tools, search_docs and
// execute. The SDK's transport speaks the protocol; this layer adds what the interface asks of
// the Engine: bearer tokens per MCP version, sessions bound to the token that opened them,
// readiness after notifications/initialized, a strict protocol-version header, DNS-rebinding
// protection, and the MCP_SESSION_UNAVAILABLE recovery contract.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Apps } from '../apps/index.ts';
import type { Catalog } from '../catalog/index.ts';
import { buildDocsIndex, type DocsIndex } from '../docs/index.ts';
import { EngineError, type RecoveryContract } from '../envelope/index.ts';
import { bearerFrom, type Tokens } from '../identity/index.ts';
import type { Logger } from '../log/index.ts';
import type { AppVersionRow, TokenRow } from '../store/index.ts';
import type { SessionStateStore } from '../retention/index.ts';
import type { UnifiedOperations } from '../unified/index.ts';
import { allows } from './allowlist.ts';
import { toolDefinitions, type ToolContext, type ToolResult, runTool } from './tools.ts';

export { allows };

const MAX_BODY_BYTES = 2 * 1024 * 1024;

export const SESSION_UNAVAILABLE_RECOVERY: RecoveryContract = {
  recovery_action: 'reinitialize_connection',
  execute_request: 'reformat_if_session_state_used',
  provider_execution: 'not_started',
  automatic_replay: false,
};

export interface McpSession {
  id: string;
  versionId: string;
  tokenId: string;
  /** The token row verified on this session's latest request (allowlist, binding). */
  token: TokenRow;
  protocolVersion: string;
  ready: boolean;
  createdAt: number;
  lastSeenAt: number;
  transport: StreamableHTTPServerTransport;
  server: Server;
}

export interface McpOptions {
  /** Origins allowed to call from a browser, besides the Engine's own. */
  allowedOrigins: string[];
  /** Host names accepted in the Host header (DNS-rebinding protection); empty accepts any. */
  allowedHosts: string[];
  sessionIdleMs: number;
}

type JsonRpcMessage = { jsonrpc?: string; id?: string | number | null; method?: string; params?: Record<string, unknown> };

/**
 * SDK 1.32.2 keeps one stream entry per JSON-mode request (holding its whole Response) until the
 * session closes: its JSON branch never runs the entry's cleanup. Drop entries whose requests have
 * all been answered, so a long session does not grow by a response per request.
 */
function pruneSettledStreams(transport: StreamableHTTPServerTransport) {
  const inner = (transport as unknown as { _webStandardTransport?: { _streamMapping?: Map<string, { resolveJson?: unknown }>; _requestToStreamMapping?: Map<unknown, string> } })
    ._webStandardTransport;
  const streams = inner?._streamMapping;
  const pending = inner?._requestToStreamMapping;
  if (!(streams instanceof Map) || !(pending instanceof Map)) return;
  const live = new Set(pending.values());
  for (const [id, stream] of streams) if (stream.resolveJson && !live.has(id)) streams.delete(id);
}

class HttpRefusal extends Error {
  readonly status: number;
  readonly data: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, data?: Record<string, unknown>, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.data = data;
    this.headers = headers;
  }
}

export class McpGateway {
  private readonly sessions = new Map<string, McpSession>();
  private readonly docs = new Map<string, DocsIndex>();
  private readonly deps: {
    mcp: Apps;
    tokens: Tokens;
    catalog: Catalog;
    /** Unified operations appear in search_docs next to physical ones. */
    unified?: UnifiedOperations;
    log: Logger;
    sessionState: SessionStateStore;
    tools: Omit<ToolContext, 'session' | 'version' | 'token' | 'docs'>;
  };
  private readonly options: McpOptions;
  private readonly sweeper: NodeJS.Timeout;

  constructor(deps: McpGateway['deps'], options: McpOptions) {
    this.deps = deps;
    this.options = options;
    this.sweeper = setInterval(() => void this.sweep(), Math.min(60_000, options.sessionIdleMs)).unref();
  }

  get sessionCount() {
    return this.sessions.size;
  }

  async close() {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((s) => this.end(s)));
  }

  private async sweep() {
    const cutoff = Date.now() - this.options.sessionIdleMs;
    for (const s of this.sessions.values()) if (s.lastSeenAt < cutoff) await this.end(s);
  }

  private async end(session: McpSession) {
    if (!this.sessions.delete(session.id)) return;
    // Closing the session releases its snapshots and session.set values.
    await this.deps.sessionState.release(session.id).catch((err: unknown) => this.deps.log.warn({ err }, 'releasing session state failed'));
    await session.transport.close().catch(() => undefined);
  }

  private docsFor(version: AppVersionRow): DocsIndex {
    let index = this.docs.get(version.versionId);
    if (!index) {
      index = buildDocsIndex(this.deps.catalog, new Map(version.services.map((p) => p.split('=') as [string, string])), version.operations, this.deps.unified?.list());
      this.docs.set(version.versionId, index);
    }
    return index;
  }

  /** Handles one HTTP request on /mcp/<versionId> (or the transitional /sse route). */
  async handle(req: IncomingMessage, res: ServerResponse, versionId: string, transitional: boolean): Promise<void> {
    if (transitional) {
      res.setHeader('deprecation', 'true');
      res.setHeader('link', `</mcp/${versionId}>; rel="successor-version"`);
    }
    try {
      await this.dispatch(req, res, versionId);
    } catch (err) {
      if (err instanceof HttpRefusal) return this.refuse(res, err);
      this.deps.log.error({ err }, 'mcp request failed');
      this.refuse(res, new HttpRefusal(500, 'The Engine failed unexpectedly; the failure was logged.'));
    }
  }

  private refuse(res: ServerResponse, err: HttpRefusal, id: JsonRpcMessage['id'] = null) {
    if (res.headersSent) return void res.end();
    res.writeHead(err.status, { 'content-type': 'application/json', ...err.headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: err.message, ...(err.data ? { data: err.data } : {}) } }));
  }

  private checkOrigin(req: IncomingMessage) {
    const host = req.headers.host ?? '';
    const hostname = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    if (this.options.allowedHosts.length && !this.options.allowedHosts.includes(hostname)) {
      throw new HttpRefusal(403, `Forbidden: host '${hostname}' is not allowed`);
    }
    const origin = req.headers.origin;
    if (origin === undefined) return;
    let allowed = this.options.allowedOrigins.includes(origin);
    try {
      allowed ||= new URL(origin).host === host;
    } catch {
      allowed = false;
    }
    if (!allowed) throw new HttpRefusal(403, `Forbidden: origin '${origin}' is not allowed`);
  }

  private async authorise(req: IncomingMessage, versionId: string): Promise<{ token: TokenRow; version: AppVersionRow }> {
    const challenge = { 'www-authenticate': 'Bearer realm="svc-engine", error="invalid_token"' };
    let token: TokenRow;
    try {
      token = await this.deps.tokens.verify(bearerFrom(req.headers.authorization), 'mcp');
    } catch (err) {
      if (err instanceof EngineError) throw new HttpRefusal(401, `Unauthorized: ${err.message}`, { code: 'ENGINE_UNAUTHENTICATED' }, challenge);
      throw err;
    }
    const version = /^ver_[0-9A-HJKMNP-TV-Z]{26}$/.test(versionId) ? await this.deps.mcp.version(versionId) : null;
    if (!version) throw new HttpRefusal(404, `Not Found: no MCP server version '${versionId}'`, { code: 'ENGINE_NOT_FOUND' });
    if (version.name !== token.subject) {
      throw new HttpRefusal(403, 'Forbidden: the token belongs to another MCP server', { code: 'ENGINE_FORBIDDEN_OPERATION' });
    }
    return { token, version };
  }

  private async readBody(req: IncomingMessage): Promise<unknown> {
    let text: string;
    try {
      text = await getRawBody(req, { limit: MAX_BODY_BYTES, encoding: 'utf8' });
    } catch (err) {
      if ((err as { type?: string }).type === 'entity.too.large') throw new HttpRefusal(413, `Payload Too Large: the request body exceeds ${MAX_BODY_BYTES} bytes`);
      throw new HttpRefusal(400, 'Bad Request: the body could not be read');
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new HttpRefusal(400, 'Parse error: the body is not valid JSON');
    }
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse, versionId: string) {
    this.checkOrigin(req);
    const { token, version } = await this.authorise(req, versionId);
    const method = req.method ?? 'GET';
    const body = method === 'POST' ? await this.readBody(req) : undefined;
    const messages = (Array.isArray(body) ? body : [body]) as JsonRpcMessage[];
    const sessionId = req.headers['mcp-session-id'];

    if (method === 'POST' && sessionId === undefined && messages.some((m) => m?.method === 'initialize')) {
      return this.initialize(req, res, body, messages, token, version);
    }
    if (typeof sessionId !== 'string' || !sessionId) {
      throw new HttpRefusal(400, 'Bad Request: the Mcp-Session-Id header is required after initialize');
    }
    const session = this.sessions.get(sessionId);
    if (!session || session.versionId !== version.versionId) {
      throw new HttpRefusal(404, 'Session unavailable: initialize a new connection', {
        code: 'MCP_SESSION_UNAVAILABLE',
        recovery: SESSION_UNAVAILABLE_RECOVERY,
        guidance: 'A script that does not use session state may keep its arguments; one that uses session.get, session.page or an earlier result_ref must be rebuilt.',
      });
    }
    if (session.tokenId !== token.id) throw new HttpRefusal(403, 'Forbidden: this session was opened with another token');
    session.token = token;
    const protocol = req.headers['mcp-protocol-version'];
    if (protocol !== session.protocolVersion) {
      throw new HttpRefusal(400, `Bad Request: the MCP-Protocol-Version header must be '${session.protocolVersion}' (negotiated at initialize)`);
    }
    session.lastSeenAt = Date.now();
    if (method === 'POST') {
      const early = messages.find((m) => m && m.id !== undefined && m.method !== undefined && m.method !== 'ping' && !session.ready);
      if (early && !messages.some((m) => m?.method === 'notifications/initialized')) {
        throw new HttpRefusal(400, `Bad Request: send notifications/initialized before '${early.method}'`);
      }
      if (messages.some((m) => m?.method === 'notifications/initialized')) session.ready = true;
    }
    await session.transport.handleRequest(req, res, body);
    pruneSettledStreams(session.transport);
    if (method === 'DELETE' && res.statusCode < 300) await this.end(session);
  }

  private async initialize(req: IncomingMessage, res: ServerResponse, body: unknown, messages: JsonRpcMessage[], token: TokenRow, version: AppVersionRow) {
    const init = messages.find((m) => m?.method === 'initialize')!;
    const requested = typeof init.params?.protocolVersion === 'string' ? init.params.protocolVersion : '';
    const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
    const server = new Server({ name: 'svc-engine', version: '0.1.0' }, { capabilities: { tools: { listChanged: false }, logging: {} } });
    const now = Date.now();
    const session: McpSession = {
      id: '',
      versionId: version.versionId,
      tokenId: token.id,
      token,
      protocolVersion,
      ready: false,
      createdAt: now,
      lastSeenAt: now,
      server,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          session.id = id;
          this.sessions.set(id, session);
        },
      }),
    };
    this.registerTools(session, version);
    await server.connect(session.transport);
    res.setHeader('mcp-protocol-version', protocolVersion);
    await session.transport.handleRequest(req, res, body);
  }

  private registerTools(session: McpSession, version: AppVersionRow) {
    const docs = () => this.docsFor(version);
    session.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolDefinitions }));
    session.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> =>
      runTool({ ...this.deps.tools, session, version, token: session.token, docs }, request.params.name, request.params.arguments ?? {}, extra.signal),
    );
  }
}
