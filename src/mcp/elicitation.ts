// Elicitation (issue 31 §3): asking the MCP client's user to approve a gated call. A client that
// declares the `elicitation` capability at initialize and keeps its GET stream open is asked there
// (elicitation/create); its answer arrives as a JSON-RPC response in a later POST and is handed to
// the stream's server, which resolves the request. Both are state of this process: a client whose
// stream is on another replica is not asked, and the call stops for `svc-cli mcp approve` instead.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Elicit } from './tools.ts';

/** At most this many sessions remembered as able to answer (the oldest forgotten first). */
const CLIENTS_KEPT = 10_000;
/** A client opens its stream just after initialize: a call made at once waits this long for it. */
const STREAM_WAIT_MS = 2_000;

interface Stream {
  server: Server;
  transport: { onmessage?: ((message: JSONRPCMessage) => void) | undefined };
}

const isResponse = (m: unknown): m is JSONRPCMessage =>
  m !== null && typeof m === 'object' && !('method' in m) && 'id' in m && ('result' in m || 'error' in m);

export class ElicitationRoutes {
  private readonly able = new Set<string>();
  private readonly streams = new Map<string, Stream>();
  /** Questions waiting for a session's stream to open. */
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Records at initialize whether the session's client can answer elicitations. */
  client(sessionId: string, capabilities: unknown): void {
    const elicitation = capabilities !== null && typeof capabilities === 'object' ? (capabilities as { elicitation?: unknown }).elicitation : undefined;
    if (elicitation === null || typeof elicitation !== 'object') return;
    this.able.add(sessionId);
    if (this.able.size > CLIENTS_KEPT) this.able.delete(this.able.values().next().value!);
  }

  /** A GET stream opened for the session: questions go out on it. Returns its removal. */
  stream(sessionId: string, server: Server, transport: Stream['transport']): () => void {
    const stream = { server, transport };
    this.streams.set(sessionId, stream);
    for (const wake of this.waiting.get(sessionId) ?? []) wake();
    this.waiting.delete(sessionId);
    return () => {
      if (this.streams.get(sessionId) === stream) this.streams.delete(sessionId);
    };
  }

  forget(sessionId: string): void {
    this.able.delete(sessionId);
    this.streams.delete(sessionId);
  }

  /** Hands the JSON-RPC responses of a POST body to the session's stream, whose server asked. */
  deliver(sessionId: string, body: unknown): void {
    const stream = this.streams.get(sessionId);
    if (!stream) return;
    for (const m of Array.isArray(body) ? body : [body]) if (isResponse(m)) stream.transport.onmessage?.(m);
  }

  /** The session's stream once it opens, or undefined after STREAM_WAIT_MS. */
  private streamOpened(sessionId: string, signal: AbortSignal): Promise<Stream | undefined> {
    return new Promise((resolve) => {
      const waiters = this.waiting.get(sessionId) ?? new Set();
      this.waiting.set(sessionId, waiters);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        waiters.delete(done);
        if (!waiters.size && this.waiting.get(sessionId) === waiters) this.waiting.delete(sessionId);
        resolve(this.streams.get(sessionId));
      };
      const timer = setTimeout(done, STREAM_WAIT_MS);
      signal.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }

  /** How a tool call of the session asks its user; undefined when its client cannot answer. */
  asker(sessionId: string): Elicit | undefined {
    if (!this.able.has(sessionId)) return undefined;
    return async (params, signal) => {
      const stream = this.streams.get(sessionId) ?? (await this.streamOpened(sessionId, signal));
      if (!stream) throw new Error('no stream open to the MCP client to ask on');
      return stream.server.request({ method: 'elicitation/create', params }, ElicitResultSchema, { signal });
    };
  }
}
