// The MCP server (Streamable HTTP) at /mcp/<version_id>: exactly two tools, search_docs and
// execute. The SDK's transport speaks the protocol; this layer adds what the Engine needs of it
// (docs/reference/mcp.md): bearer tokens per MCP version, sessions bound to the token that opened
// them and capped per token, readiness after notifications/initialized, the protocol-version
// header, DNS-rebinding protection, and the MCP_SESSION_UNAVAILABLE recovery contract.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport as Transport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Approvals } from '../approvals/index.ts';
import type { Apps } from '../apps/index.ts';
import type { Catalog } from '../catalog/index.ts';
import type { Coordinator } from '../coordination/index.ts';
import { type AnalysisFiles, buildDocsIndex, type DocsIndex } from '../docs/index.ts';
import { EngineError } from '../envelope/index.ts';
import { bearerFrom, type Tokens } from '../identity/index.ts';
import type { Logger } from '../log/index.ts';
import { OAuthError, type AccessTokens } from '../oauth/index.ts';
import type { AppVersionRow, TokenRow } from '../store/index.ts';
import type { SessionCap, SessionStateStore } from '../retention/index.ts';
import { isLoopbackName } from '../config/index.ts';
import type { UnifiedOperations } from '../unified/index.ts';
import { corsHeaders } from './cors.ts';
import { invalidMessage, invalidParams } from './requests.ts';
import { SESSION_UNAVAILABLE_RECOVERY, toolDefinitions, type ToolContext, type ToolResult, runTool } from './tools.ts';
import { canElicit, ElicitationRoutes } from './elicitation.ts';
import type { McpSession } from './types.ts';
import { batchRefusal, HEADER_REQUIRED_SINCE, hasRequest, HttpRefusal, MAX_BODY_BYTES, sessionLimit, webRequest, writeResponse, type JsonRpcMessage } from './http.ts';
import { callKey, rawArguments, refuseInvalidParams, SERVER_INFO, serverOptions, track, TRANSPORT_OPTIONS, type RunningCall } from './transport.ts';

export interface McpOptions {
  /** Origins allowed to call from a browser, besides the request's own and, on loopback, loopback ones. */
  allowedOrigins: string[];
  /** Host names accepted in the Host header besides, on loopback, loopback ones (DNS-rebinding protection); empty off loopback accepts any. */
  allowedHosts: string[];
  /** The Engine listens on loopback: loopback Hosts and Origins are the user's own machine, on any port. */
  loopback: boolean;
  /** Open sessions one token may hold, and how long after its last request a session counts as in use. */
  sessions: Omit<SessionCap, 'busy'>;
  /** How often idle sessions are closed and this process's GET streams of ended sessions are dropped. */
  sweepEveryMs?: number;
}

/**
 * The MCP endpoint. A session is a record in the SessionStateStore (memory, or Redis shared by every
 * replica), never an object in this process: each HTTP request gets its own SDK Server and stateless
 * transport, so any replica can serve any request of any session and an idle session costs a record.
 */
export class McpGateway {
  /** Transports answering a request now, per session (closed at shutdown). */
  private readonly inFlight = new Map<string, Set<Transport>>();
  /**
   * Tool calls running in this process, by session and JSON-RPC id. A cancellation aborts the call
   * here rather than in the SDK, so the call still answers (MCP_EXECUTE_CANCELLED) and its HTTP
   * request ends instead of waiting for a response the SDK would never send.
   */
  private readonly toolCalls = new Map<string, RunningCall>();
  /** Open GET (SSE) streams on this process, per session: closed when the session ends or its token dies. */
  private readonly streams = new Map<string, Set<Transport>>();
  /** The token each session with open streams was opened with, checked again by the sweep. */
  private readonly streamTokens = new Map<string, TokenRow>();
  private readonly docs = new Map<string, DocsIndex>();
  /** Elicitation (./elicitation.ts): this process's streams to ask on, and questions relayed between replicas. */
  private readonly elicitation: ElicitationRoutes;
  private readonly deps: {
    mcp: Apps;
    tokens: Tokens;
    /** Access tokens MCP clients obtained with OAuth (src/oauth), each valid on one MCP server version. */
    oauth: Pick<AccessTokens, 'claims' | 'verify' | 'challenge'>;
    catalog: Catalog;
    /** Unified operations appear in search_docs next to physical ones. */
    unified?: UnifiedOperations;
    log: Logger;
    sessionState: SessionStateStore;
    /** Relays elicitation between replicas (Redis with REDIS_URL; this process alone without). */
    coordinator: Coordinator;
    /** Where a replica records an approval its stream's client accepted for a call on another replica. */
    approvals?: Pick<Approvals, 'get' | 'approve'>;
    /** Where search keeps its operation analyses across restarts (the data directory); none in memory only. */
    analysisFiles?: AnalysisFiles;
    tools: Omit<ToolContext, 'session' | 'version' | 'token' | 'docs'>;
  };
  private readonly options: McpOptions;
  private readonly sweeper: NodeJS.Timeout;

  constructor(deps: McpGateway['deps'], options: McpOptions) {
    this.deps = deps;
    this.options = options;
    this.sweeper = setInterval(() => void this.sweep(), options.sweepEveryMs ?? 60_000).unref();
    this.elicitation = new ElicitationRoutes({ coordinator: deps.coordinator, log: deps.log, approvals: deps.approvals });
    void this.elicitation.listen().catch((err: unknown) => deps.log.warn({ err }, 'cannot receive MCP elicitations from other replicas; only streams held here are asked'));
    // A cancellation may reach any replica; the call it names runs on whichever replica took it.
    void deps.sessionState
      .onCancel(
        (sessionId, message) => {
          const requestId = (message as JsonRpcMessage | null)?.params?.requestId;
          if (typeof requestId === 'string' || typeof requestId === 'number') this.toolCalls.get(callKey(sessionId, requestId))?.cancel.abort();
        },
        () => void this.abortRecorded([...this.toolCalls.values()]),
      )
      .catch((err: unknown) => deps.log.warn({ err }, 'cannot receive MCP cancellations from other replicas'));
  }

  /** Aborts those of `calls` whose cancellation the store recorded while this process could not hear it. */
  private async abortRecorded(calls: RunningCall[]) {
    if (!calls.length) return;
    try {
      const hits = await this.deps.sessionState.cancelled(calls);
      calls.forEach((call, i) => hits[i] && call.cancel.abort());
    } catch (err) {
      this.deps.log.warn({ err }, 'cannot read the MCP cancellations recorded by other replicas');
    }
  }

  /** Transports alive in this process (requests being answered + open GET streams); idle sessions hold none. */
  get liveTransports() {
    let n = 0;
    for (const set of this.inFlight.values()) n += set.size;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  async close() {
    clearInterval(this.sweeper);
    const all = [...this.inFlight.values(), ...this.streams.values()].flatMap((set) => [...set]);
    await Promise.all(all.map((t) => t.close().catch(() => undefined)));
  }

  /**
   * Ends idle sessions, drops streams of sessions ended elsewhere, and ends the sessions whose token
   * was revoked or expired while a stream stayed open (every other request checks the token itself).
   */
  async sweep() {
    try {
      for (const id of await this.deps.sessionState.expireIdleSessions()) this.closeStreams(id);
      for (const id of [...this.streams.keys()]) if (!(await this.deps.sessionState.hasSession(id))) this.closeStreams(id);
      for (const [id, token] of [...this.streamTokens]) {
        if (!this.streams.has(id)) this.streamTokens.delete(id);
        else if (!(await this.deps.tokens.stillLive(token))) {
          await this.deps.sessionState.closeSession(id);
          this.closeStreams(id);
        }
      }
    } catch (err) {
      this.deps.log.warn({ err }, 'sweeping MCP sessions failed');
    }
  }

  private closeStreams(sessionId: string) {
    this.elicitation.forget(sessionId);
    const open = this.streams.get(sessionId);
    this.streams.delete(sessionId);
    this.streamTokens.delete(sessionId);
    for (const t of open ?? []) void t.close().catch(() => undefined);
  }

  private docsFor(version: AppVersionRow): DocsIndex | Promise<DocsIndex> {
    return this.docs.get(version.versionId) ?? this.buildDocs(version);
  }

  /** The version's docs index, once this replica's catalog holds every service it pins (another replica may have imported one). */
  private async buildDocs(version: AppVersionRow): Promise<DocsIndex> {
    const pinned = new Map(version.services.map((p) => p.split('=') as [string, string]));
    const known = await Promise.all([...pinned].map(([service, v]) => this.deps.catalog.ensure(service, v)));
    const index = buildDocsIndex(this.deps.catalog, pinned, version.operations, this.deps.unified?.list(), this.deps.analysisFiles);
    if (known.every(Boolean)) this.docs.set(version.versionId, index); // an incomplete index is not kept
    return index;
  }

  /** The CORS headers for a browser request from an allowed origin (./cors.ts); undefined for any other request. */
  corsFor(req: IncomingMessage): Record<string, string> | undefined {
    const origin = req.headers.origin;
    return origin !== undefined && this.originAllowed(origin, (req.headers.host ?? '').toLowerCase()) ? corsHeaders(origin) : undefined;
  }

  /** Handles one HTTP request on /mcp/<versionId> (or the transitional /sse route). */
  async handle(req: IncomingMessage, res: ServerResponse, versionId: string, transitional: boolean): Promise<void> {
    const cors = this.corsFor(req);
    if (cors) for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    if (transitional) {
      res.setHeader('deprecation', 'true');
      // As requested, percent-encoded again: a decoded character past U+00FF cannot go in a header (a throw, and no answer).
      res.setHeader('link', `</mcp/${encodeURIComponent(versionId)}>; rel="successor-version"`);
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
    res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: err.rpcCode, message: err.message, ...(err.data ? { data: err.data } : {}) } }));
  }

  /**
   * DNS-rebinding protection. A page that rebinds its own name to the Engine's address sends that
   * name as Host and its own origin as Origin. On loopback, a loopback name on any port is the
   * user's own machine (a browser client such as the Inspector's UI runs on another port); any
   * other name must be listed (off loopback with no Host listed, any Host goes: the Engine is
   * reached by names it cannot know, and a browser's Origin is still checked).
   */
  private checkOrigin(req: IncomingMessage) {
    const { allowedHosts, loopback } = this.options;
    const host = (req.headers.host ?? '').toLowerCase();
    const hostname = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    const hostAllowed = (loopback && isLoopbackName(hostname)) || allowedHosts.includes(hostname) || (!loopback && !allowedHosts.length);
    if (!hostAllowed) throw new HttpRefusal(403, `Forbidden: host '${hostname}' is not allowed`);
    const origin = req.headers.origin;
    if (origin !== undefined && !this.originAllowed(origin, host)) throw new HttpRefusal(403, `Forbidden: origin '${origin}' is not allowed`);
  }

  /** A listed origin, the origin of the Host just accepted, or on loopback any loopback http(s) origin. */
  private originAllowed(origin: string, host: string): boolean {
    if (this.options.allowedOrigins.includes(origin)) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false; // 'null' (a sandboxed page, a file) among others
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return url.host === host || (this.options.loopback && isLoopbackName(url.hostname));
  }

  private async authorise(req: IncomingMessage, versionId: string): Promise<{ token: TokenRow; version: AppVersionRow }> {
    const bearer = bearerFrom(req.headers.authorization);
    const { oauth } = this.deps;
    let token: TokenRow;
    try {
      // An OAuth access token is valid on the one version its grant names (its audience); a static token on every version of its server.
      token = oauth.claims(bearer) ? await oauth.verify(bearer, versionId) : await this.deps.tokens.verify(bearer, 'mcp');
    } catch (err) {
      if (!(err instanceof EngineError) && !(err instanceof OAuthError)) throw err;
      // Where to get a token (RFC 9728 §5.1); an error code only when one was presented (RFC 6750 §3.1).
      const refusal = bearer === undefined ? undefined : err instanceof OAuthError ? err : new OAuthError('invalid_token', err.message);
      throw new HttpRefusal(401, `Unauthorized: ${err.message}`, { code: 'ENGINE_UNAUTHENTICATED' }, { 'www-authenticate': oauth.challenge(versionId, refusal) });
    }
    const version = /^ver_[0-9A-HJKMNP-TV-Z]{26}$/.test(versionId) ? await this.deps.mcp.version(versionId) : null;
    if (!version) throw new HttpRefusal(404, `Not Found: no MCP server version '${versionId}'`, { code: 'ENGINE_NOT_FOUND' });
    if (version.name !== token.subject) {
      throw new HttpRefusal(403, 'Forbidden: the token belongs to another MCP server', { code: 'ENGINE_FORBIDDEN_OPERATION' });
    }
    return { token, version };
  }

  private async readBody(req: IncomingMessage): Promise<unknown> {
    // A compressed body is never read as if it were the JSON it encodes (as on the REST routes).
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      throw new HttpRefusal(415, 'Unsupported Media Type: Content-Encoding is not supported; send the body uncompressed', { code: 'ENGINE_INVALID_INPUT', field: 'content-encoding' }, { 'accept-encoding': 'identity' });
    }
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
    if (method === 'POST') {
      // Before the session checks: what is not a JSON-RPC message is -32600 whatever the headers say.
      const empty = batchRefusal(body, undefined);
      if (empty) throw empty;
      for (const [i, m] of messages.entries()) {
        const problem = invalidMessage(m);
        if (problem) throw new HttpRefusal(400, `Invalid Request: ${Array.isArray(body) ? `message [${i}]: ` : ''}${problem}`, undefined, {}, ErrorCode.InvalidRequest);
      }
    }
    const sessionId = req.headers['mcp-session-id'];

    if (method === 'POST' && sessionId === undefined && messages.some((m) => m?.method === 'initialize')) {
      return this.initialize(req, res, body, messages, token, version);
    }
    if (typeof sessionId !== 'string' || !sessionId) {
      throw new HttpRefusal(400, 'Bad Request: the Mcp-Session-Id header is required after initialize');
    }
    const initialized = method === 'POST' && messages.some((m) => m?.method === 'notifications/initialized');
    // Ready only once the notification passes the token and protocol checks below.
    const record = await this.deps.sessionState.touchSession(sessionId);
    if (!record || record.versionId !== version.versionId) {
      throw new HttpRefusal(404, 'Session unavailable: initialize a new connection', {
        code: 'MCP_SESSION_UNAVAILABLE',
        recovery: SESSION_UNAVAILABLE_RECOVERY,
        guidance: 'A script that does not use session state may keep its arguments; one that uses session.get, session.page or an earlier result_ref must be rebuilt.',
      });
    }
    if (record.tokenId !== token.id) throw new HttpRefusal(403, 'Forbidden: this session was opened with another token');
    const protocol = req.headers['mcp-protocol-version'];
    if (protocol === undefined ? record.protocolVersion >= HEADER_REQUIRED_SINCE : typeof protocol !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(protocol)) {
      throw new HttpRefusal(400, `Bad Request: the MCP-Protocol-Version header must name a supported protocol version, such as '${record.protocolVersion}' (negotiated at initialize)`);
    }
    const batch = batchRefusal(body, record.protocolVersion);
    if (batch) throw batch;
    if (initialized && !record.ready) {
      await this.deps.sessionState.touchSession(sessionId, true);
      record.ready = true;
    }
    const session: McpSession = { id: sessionId, ...record };
    if (method === 'DELETE') {
      await this.deps.sessionState.closeSession(sessionId);
      this.closeStreams(sessionId);
      res.writeHead(200).end();
      return;
    }
    if (method === 'GET') return this.openStream(req, res, session, version, token);
    if (method !== 'POST') throw new HttpRefusal(405, `Method Not Allowed: ${method}`, undefined, { allow: 'GET, POST, DELETE' });

    const early = messages.find((m) => m && m.id !== undefined && m.method !== undefined && m.method !== 'ping' && !record.ready);
    if (early && !initialized) throw new HttpRefusal(400, `Bad Request: send notifications/initialized before '${early.method}'`);
    // A cancellation names a request another transport of this session is answering, on any replica.
    for (const m of messages) if (m?.method === 'notifications/cancelled') await this.deps.sessionState.publishCancel(sessionId, m);
    await this.serve(req, res, body, session, version, token);
  }

  /** Answers one POST with a fresh SDK Server and stateless transport; both are dropped afterwards. */
  private async serve(req: IncomingMessage, res: ServerResponse, body: unknown, session: McpSession, version: AppVersionRow, token: TokenRow) {
    // The client's answers to what the Engine asked on its stream (elicitation) go to that stream's server.
    this.elicitation.deliver(session.id, body);
    // Only requests need an SDK Server. A POST of notifications alone (initialized, cancelled: both
    // handled above) is still validated and answered (202) by the transport, without building one.
    const { server, transport } = hasRequest(body) ? this.connectServer(session, version, token) : { server: undefined, transport: new Transport(TRANSPORT_OPTIONS) };
    const untrack = track(this.inFlight, session.id, transport);
    // A request running longer than the in-use time keeps its session in use for every replica.
    const heartbeat = server ? setInterval(() => void this.deps.sessionState.touchSession(session.id).catch(() => undefined), this.options.sessions.inUseMs / 2) : undefined;
    let answered = false;
    try {
      if (server) {
        await server.connect(transport);
        refuseInvalidParams(transport);
      } else transport.onmessage = () => undefined;
      await writeResponse(res, await transport.handleRequest(webRequest(req), { parsedBody: body }));
      answered = true;
    } finally {
      clearInterval(heartbeat);
      // Used until now, not only since the request began: a long execute must not leave its session
      // looking idle (closable to make room) the moment it ends. Touched before it stops counting as
      // busy here, and after the answer left, which does not wait for it.
      if (server) await this.deps.sessionState.touchSession(session.id).catch(() => undefined);
      untrack();
      // A request that was answered leaves nothing open; closing would only build an unused error.
      if (!answered) await transport.close().catch(() => undefined);
    }
  }

  /** GET: the standalone SSE stream. The Engine sends nothing on it unprompted; it stays open until the session ends. */
  private async openStream(req: IncomingMessage, res: ServerResponse, session: McpSession, version: AppVersionRow, token: TokenRow) {
    const { server, transport } = this.connectServer(session, version, token);
    const untrack = track(this.streams, session.id, transport);
    this.streamTokens.set(session.id, token);
    let unroute: (() => void) | undefined;
    let ended = false;
    const end = () => {
      ended = true;
      unroute?.();
      untrack();
      void transport.close().catch(() => undefined);
    };
    res.once('close', end);
    if (res.destroyed) return end(); // the client left while the request was being authorised
    await server.connect(transport);
    const response = await transport.handleRequest(webRequest(req));
    // Questions go out on the stream once the transport holds it: the SDK drops one sent before.
    if (!ended && response.ok) unroute = this.elicitation.stream(session, server, transport);
    await writeResponse(res, response);
  }

  private connectServer(session: McpSession, version: AppVersionRow, token: TokenRow) {
    const server = new Server(SERVER_INFO, serverOptions());
    const transport = new Transport(TRANSPORT_OPTIONS);
    const docs = () => this.docsFor(version);
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolDefinitions }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> => {
      const key = callKey(session.id, extra.requestId);
      const call: RunningCall = { sessionId: session.id, requestId: extra.requestId, cancel: new AbortController() };
      const { cancel } = call;
      this.toolCalls.set(key, call);
      // A cancellation published before the call was registered here reached no listener; not awaited,
      // so the call does not wait for Redis (a recorded one aborts it within a round trip).
      void this.abortRecorded([call]);
      try {
        const raw = rawArguments.get(transport)?.get(extra.requestId);
        const args = (raw ?? request.params.arguments ?? {}) as Record<string, unknown>;
        const elicit = this.elicitation.asker(session);
        return await runTool({ ...this.deps.tools, session, version, token, docs, elicit }, request.params.name, args, AbortSignal.any([extra.signal, cancel.signal]));
      } finally {
        if (this.toolCalls.get(key) === call) this.toolCalls.delete(key);
      }
    });
    return { server, transport };
  }

  private async initialize(req: IncomingMessage, res: ServerResponse, body: unknown, messages: JsonRpcMessage[], token: TokenRow, version: AppVersionRow) {
    const init = messages.find((m) => m?.method === 'initialize')!;
    const requested = typeof init.params?.protocolVersion === 'string' ? init.params.protocolVersion : '';
    const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
    const batch = batchRefusal(body, protocolVersion);
    if (batch) throw batch;
    const session: McpSession = { id: randomUUID(), versionId: version.versionId, tokenId: token.id, protocolVersion, ready: false, elicitation: canElicit(init.params?.capabilities) };
    // Params the SDK refuses open no session: the transport answers -32602 (refuseInvalidParams) without one.
    if (invalidParams(init)) return this.serve(req, res, body, session, version, token);
    // The record exists before the answer leaves, so the client's next request may reach any replica.
    // A token holds a bounded number of sessions (each may keep megabytes of state): to make room its
    // least recently used idle ones go, never one in use (a request in flight here, or one started
    // within the in-use time on any replica); when all are in use, the new one waits.
    const cap: SessionCap = { ...this.options.sessions, busy: (id) => this.inFlight.has(id) };
    const opened = await this.deps.sessionState.openSession(session.id, { versionId: session.versionId, tokenId: session.tokenId, protocolVersion, ready: false, elicitation: session.elicitation }, cap);
    if (!opened.opened) throw sessionLimit(cap.perToken, opened.retryAfterMs);
    for (const id of opened.closed) this.closeStreams(id);
    res.setHeader('mcp-session-id', session.id);
    res.setHeader('mcp-protocol-version', protocolVersion);
    await this.serve(req, res, body, session, version, token);
    if (res.statusCode !== 200) await this.deps.sessionState.closeSession(session.id);
  }
}
