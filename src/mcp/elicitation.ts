// Elicitation (issue 31 §3): asking the MCP client's user to approve a gated call. A client that
// declares the `elicitation` capability at initialize (kept in its session record, so every
// replica knows) and keeps its GET stream open is asked there (elicitation/create); its answer
// arrives as a JSON-RPC response in a later POST and is handed to the server that asked, which
// resolves the request.
//
// The stream, the call and the answer's POST may each be on another replica. A call whose replica
// holds no stream of its session offers the question on the coordinator's channel
// (./elicitation-messages.ts) for STREAM_WAIT_MS: the first replica (this one included) holding or
// opening a stream of the session takes the question's claim (a coordinator lock), asks, records
// an accepted approval itself (so an answer is never lost with the way back) and relays the result.
// A POST answering a question asked elsewhere is relayed to the replica whose stream asked. When no
// replica took the question within the wait (its claim is then taken by the caller, so none can
// later), or the channel cannot be used (Redis down), the call stops for `svc-cli mcp approve` as
// on one replica with no stream; the wait for an answer ends with the run's budget.
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitResultSchema, type ElicitRequestFormParams, type ElicitResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Approvals } from '../approvals/index.ts';
import type { Coordinator } from '../coordination/index.ts';
import type { Logger } from '../log/index.ts';
import { ANSWER_BYTES_RELAYED, CHANNEL, isResponse, parseMessage, routeOf, type Message } from './elicitation-messages.ts';
import type { Elicit } from './tools.ts';
import type { McpSession } from './types.ts';

/** A client opens its stream just after initialize: a call made at once waits this long for it, on any replica. */
const STREAM_WAIT_MS = 2_000;
/** Questions of other replicas kept waiting for a stream here, at most (the oldest dropped first). */
const OFFERS_KEPT = 1_000;

interface Stream {
  session: McpSession;
  server: Server;
  transport: { onmessage?: ((message: JSONRPCMessage) => void) | undefined };
}

type Ask = Extract<Message, { k: 'ask' }>;

export interface ElicitationDeps {
  coordinator: Coordinator;
  log: Logger;
  /** Where a replica records the approval its stream's client accepted for another replica's call. */
  approvals?: Pick<Approvals, 'get' | 'approve'> | undefined;
}

/** Whether initialize's capabilities declare elicitation. */
export function canElicit(capabilities: unknown): boolean {
  const elicitation = capabilities !== null && typeof capabilities === 'object' ? (capabilities as { elicitation?: unknown }).elicitation : undefined;
  return elicitation !== null && typeof elicitation === 'object';
}

export class ElicitationRoutes {
  /** Names this process's messages, so it skips its own. */
  readonly #replica = randomUUID();
  /** Open GET streams of this process, by session route. */
  readonly #streams = new Map<string, Stream>();
  /** Questions (this process's and relayed) waiting STREAM_WAIT_MS for a stream of their session here. */
  readonly #offers = new Map<string, { ask: Ask; timer: NodeJS.Timeout }>();
  /** Calls of this process waiting for the result of their question, by question. */
  readonly #waiting = new Map<string, (result: ElicitResult | undefined) => void>();
  /** Questions out on a stream of this process for another replica's call, by question. */
  readonly #serving = new Map<string, AbortController>();
  /** How many questions are out on this process's streams, by session route: where an answer belongs. */
  readonly #asking = new Map<string, number>();
  readonly #deps: ElicitationDeps;

  constructor(deps: ElicitationDeps) {
    this.#deps = deps;
  }

  /** Receives the other replicas' questions, answers and results; until it resolves only this process's streams are asked. */
  listen(): Promise<void> {
    return this.#deps.coordinator.subscribe(CHANNEL, (raw) => this.#receive(raw));
  }

  /** A GET stream opened for the session: questions go out on it. Returns its removal. */
  stream(session: McpSession, server: Server, transport: Stream['transport']): () => void {
    const route = routeOf(session.id);
    const stream = { session, server, transport };
    this.#streams.set(route, stream);
    for (const { ask } of [...this.#offers.values()]) if (ask.r === route) void this.#serve(ask);
    return () => {
      if (this.#streams.get(route) === stream) this.#streams.delete(route);
    };
  }

  forget(sessionId: string): void {
    this.#streams.delete(routeOf(sessionId));
  }

  /** Hands the JSON-RPC responses of a POST body to the server that asked: on this process, else on the replica it is on. */
  deliver(sessionId: string, body: unknown): void {
    const responses = (Array.isArray(body) ? body : [body]).filter(isResponse);
    if (!responses.length) return;
    const route = routeOf(sessionId);
    if (this.#asking.has(route)) return this.#deliverHere(route, responses);
    const message: Message = { k: 'answer', o: this.#replica, r: route, m: responses };
    if (Buffer.byteLength(JSON.stringify(message)) > ANSWER_BYTES_RELAYED) return;
    this.#publish(message);
  }

  /** How a tool call of the session asks its user; undefined when its client cannot answer. */
  asker(session: McpSession): Elicit | undefined {
    if (!session.elicitation) return undefined;
    return async (params, within) => {
      const here = this.#streams.get(routeOf(session.id));
      if (here) return this.#question(here, params, within.signal);
      return this.#askAnywhere(session, params, within);
    };
  }

  #deliverHere(route: string, responses: JSONRPCMessage[]) {
    const stream = this.#streams.get(route);
    for (const m of responses) stream?.transport.onmessage?.(m);
  }

  /** Sends elicitation/create on `stream`; the answer comes back through deliver(). */
  async #question(stream: Stream, params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult> {
    const route = routeOf(stream.session.id);
    this.#asking.set(route, (this.#asking.get(route) ?? 0) + 1);
    try {
      return await stream.server.request({ method: 'elicitation/create', params }, ElicitResultSchema, { signal });
    } finally {
      const left = this.#asking.get(route)! - 1;
      if (left) this.#asking.set(route, left);
      else this.#asking.delete(route);
    }
  }

  /** Offers the question to every replica holding (or opening within the wait) a stream of the session. */
  #askAnywhere(session: McpSession, params: ElicitRequestFormParams, within: Parameters<Elicit>[1]): Promise<ElicitResult> {
    const { signal } = within;
    const ask: Ask = { k: 'ask', o: this.#replica, a: randomUUID(), r: routeOf(session.id), p: params, ms: Math.max(1, Math.floor(within.ms)), ...(within.approvalId ? { ap: within.approvalId } : {}) };
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (result: ElicitResult | undefined, withdraw: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#waiting.delete(ask.a);
        this.#dropOffer(ask.a);
        if (withdraw) this.#publish({ k: 'withdraw', a: ask.a });
        if (result) resolve(result);
        else reject(new Error('the MCP client was not asked (no stream open to it on any replica) or did not answer'));
      };
      const onAbort = () => finish(undefined, true);
      // A question no replica took within the wait is closed to all: its claim is taken here.
      const timer = setTimeout(() => {
        this.#deps.coordinator.tryAcquire(claimOf(ask.a), ask.ms + STREAM_WAIT_MS).then(
          (closed) => closed && finish(undefined, false),
          () => finish(undefined, true),
        );
      }, STREAM_WAIT_MS);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(ask.a, (result) => finish(result, false));
      this.#offer(ask);
      // Not sent (Redis down): no other replica can take it, nor can this one (no claim) — stop now.
      this.#deps.coordinator.publish(CHANNEL, JSON.stringify(ask)).catch((err: unknown) => {
        this.#deps.log.warn({ err }, 'cannot offer an MCP elicitation to the other replicas; the call stops for svc-cli mcp approve');
        finish(undefined, false);
      });
    });
  }

  #receive(raw: string) {
    const message = parseMessage(raw);
    if (!message) return;
    switch (message.k) {
      case 'ask':
        if (message.o !== this.#replica) this.#offer(message);
        return;
      case 'answer':
        if (message.o !== this.#replica && this.#asking.has(message.r)) this.#deliverHere(message.r, message.m);
        return;
      case 'result':
        return this.#waiting.get(message.a)?.(message.x ?? undefined);
      case 'withdraw':
        this.#serving.get(message.a)?.abort();
        return this.#dropOffer(message.a);
    }
  }

  /** Asks at once on a stream of the session here, or keeps the question until one opens or the wait ends. */
  #offer(ask: Ask) {
    if (this.#streams.has(ask.r)) return void this.#serve(ask);
    if (this.#offers.size >= OFFERS_KEPT) this.#dropOffer(this.#offers.keys().next().value!);
    const timer = setTimeout(() => this.#offers.delete(ask.a), Math.min(STREAM_WAIT_MS, ask.ms)).unref();
    this.#offers.set(ask.a, { ask, timer });
  }

  #dropOffer(id: string) {
    clearTimeout(this.#offers.get(id)?.timer);
    this.#offers.delete(id);
  }

  /** Asks on this process's stream if it takes the question's claim, and sends the result to the call. */
  async #serve(ask: Ask) {
    this.#dropOffer(ask.a);
    const stream = this.#streams.get(ask.r);
    if (!stream) return;
    try {
      if (!(await this.#deps.coordinator.tryAcquire(claimOf(ask.a), ask.ms + STREAM_WAIT_MS))) return; // another replica asks, or the wait ended
    } catch {
      return; // no claim, no question: the call falls back
    }
    const withdrawn = new AbortController();
    this.#serving.set(ask.a, withdrawn);
    let result: ElicitResult | undefined;
    try {
      result = await this.#question(stream, ask.p, AbortSignal.any([withdrawn.signal, AbortSignal.timeout(ask.ms)]));
      if (result.action === 'accept' && ask.ap && ask.o !== this.#replica) await this.#approve(ask.ap, stream.session);
    } catch {
      result = undefined;
    } finally {
      this.#serving.delete(ask.a);
    }
    if (ask.o === this.#replica) return this.#waiting.get(ask.a)?.(result);
    this.#publish({ k: 'result', a: ask.a, x: result ?? null });
  }

  /** Records an approval accepted here for a call on another replica, when it is this session's own. */
  async #approve(approvalId: string, session: McpSession) {
    const { approvals, log } = this.#deps;
    try {
      const approval = await approvals?.get(approvalId);
      if (approval && approval.versionId === session.versionId && approval.tokenId === session.tokenId) await approvals!.approve(approvalId, 'elicitation');
    } catch (err) {
      log.warn({ err }, 'cannot record an approval given through MCP elicitation; the call that asked records it when the answer reaches it');
    }
  }

  #publish(message: Message) {
    this.#deps.coordinator.publish(CHANNEL, JSON.stringify(message)).catch((err: unknown) => this.#deps.log.warn({ err, kind: message.k }, 'cannot relay an MCP elicitation message to the other replicas'));
  }
}

const claimOf = (askId: string) => `mcp-elicit:${askId}`;
