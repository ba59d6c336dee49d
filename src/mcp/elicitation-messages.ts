// The messages Engine replicas exchange about elicitation (./elicitation.ts), on one coordinator
// channel (src/coordination: Redis pub/sub, or this process alone). Each carries what the question
// itself shows and routing, never a token: the session by a hash of its ID, the question's params
// (the operation and its params summary, secrets already redacted), the approval's ID (no
// credential: approving takes the owner's), and the client's answer.
import { createHash } from 'node:crypto';
import { ElicitRequestFormParamsSchema, ElicitResultSchema, type ElicitRequestFormParams, type ElicitResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const CHANNEL = 'mcp:elicit';

/** Answers relayed from the POST that carried them: an approval's is a few dozen bytes; a larger body is not relayed. */
export const ANSWER_BYTES_RELAYED = 64 * 1024;

export type Message =
  /** A question for the session's client, from the replica `o` running the call (for `ms` more at most). */
  | { k: 'ask'; o: string; a: string; r: string; p: ElicitRequestFormParams; ms: number; ap?: string }
  /** The client's JSON-RPC responses, POSTed to replica `o`, for the replica whose stream asked. */
  | { k: 'answer'; o: string; r: string; m: JSONRPCMessage[] }
  /** The question `a` answered (null: the client was not asked, refused, or did not answer). */
  | { k: 'result'; a: string; x: ElicitResult | null }
  /** The call that asked `a` no longer waits (its run ended, or it gave up). */
  | { k: 'withdraw'; a: string };

/** The session as messages name it: a hash of its ID, which grants nothing. */
export const routeOf = (sessionId: string): string => createHash('sha256').update(sessionId).digest('base64url').slice(0, 22);

/** A JSON-RPC response (checked as one before the gateway hands a body here); every POST body is looked at, so no schema parse. */
export const isResponse = (m: unknown): m is JSONRPCMessage =>
  m !== null && typeof m === 'object' && !('method' in m) && 'id' in m && ('result' in m || 'error' in m);

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 64;

/** A message as sent by a replica; undefined for anything else on the channel. */
export function parseMessage(raw: string): Message | undefined {
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (m === null || typeof m !== 'object') return undefined;
  switch (m.k) {
    case 'ask': {
      const params = ElicitRequestFormParamsSchema.safeParse(m.p);
      if (!text(m.o) || !text(m.a) || !text(m.r) || !params.success || typeof m.ms !== 'number' || !(m.ms > 0)) return undefined;
      if (m.ap !== undefined && !text(m.ap)) return undefined;
      return { k: 'ask', o: m.o, a: m.a, r: m.r, p: params.data, ms: m.ms, ...(m.ap !== undefined ? { ap: m.ap as string } : {}) };
    }
    case 'answer':
      return text(m.o) && text(m.r) && Array.isArray(m.m) && m.m.every(isResponse) ? { k: 'answer', o: m.o, r: m.r, m: m.m } : undefined;
    case 'result': {
      if (!text(m.a)) return undefined;
      if (m.x === null) return { k: 'result', a: m.a, x: null };
      const result = ElicitResultSchema.safeParse(m.x);
      return result.success ? { k: 'result', a: m.a, x: result.data } : undefined;
    }
    case 'withdraw':
      return text(m.a) ? { k: 'withdraw', a: m.a } : undefined;
    default:
      return undefined;
  }
}
