// The HTTP side of the MCP endpoint (./gateway.ts): the request as the SDK's web-standard transport
// reads it, its answer written back, and the refusals made before the SDK sees a request (batches a
// protocol version does not allow, a token's session limit).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { RecoveryContract } from '../envelope/index.ts';

export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export type JsonRpcMessage = { jsonrpc?: string; id?: string | number | null; method?: string; params?: Record<string, unknown> };


/** The request as the SDK's web-standard transport reads it (method, URL, headers; the body is passed parsed). */
export function webRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  try {
    return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers });
  } catch {
    throw new HttpRefusal(400, 'Bad Request: the Host header and request target do not form a URL');
  }
}


/** Writes the transport's answer: a JSON body at once, an event stream as its events come (until either side closes). */
export async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const body = response.body ? Buffer.from(await response.arrayBuffer()) : Buffer.alloc(0);
    res.setHeader('content-length', body.length); // before writeHead, which fixes the framing
    res.writeHead(response.status);
    return void res.end(body);
  }
  res.writeHead(response.status);
  res.flushHeaders();
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  if (res.destroyed) void reader.cancel().catch(() => undefined); // the client left before the stream began
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
  } catch {
    // the stream was cancelled (the client went away) or closed with the session
  }
  res.end();
}


/** Whether a POST body holds a JSON-RPC request (a method with an id), which needs an SDK Server to answer. */
export const hasRequest = (body: unknown) =>
  (Array.isArray(body) ? body : [body]).some((m) => m !== null && typeof m === 'object' && typeof (m as JsonRpcMessage).method === 'string' && (m as JsonRpcMessage).id !== undefined);


/** Nothing ran: the same initialize may be sent again once Retry-After has passed. */
export const SESSION_LIMIT_RECOVERY: RecoveryContract = { recovery_action: 'retry_later', execute_request: 'unchanged', provider_execution: 'not_started', automatic_replay: true };

/**
 * The longest Retry-After of MCP_SESSION_LIMIT: a session may end (DELETE) or go idle sooner than
 * the time until the first one in use leaves the in-use window, which is what the store reports.
 */
const MAX_SESSION_RETRY_MS = 5_000;

/** 429 for an initialize while every session the token may hold is in use. */
export function sessionLimit(perToken: number, untilIdleMs: number): HttpRefusal {
  const retryAfterMs = Math.min(untilIdleMs, MAX_SESSION_RETRY_MS);
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpRefusal(
    429,
    `Too Many Requests: this token holds its limit of ${perToken} open MCP sessions and every one is in use; initialize again after ${seconds} s, or end a session it no longer needs (DELETE)`,
    { code: 'MCP_SESSION_LIMIT', recovery: SESSION_LIMIT_RECOVERY, retry_after_ms: retryAfterMs, limit: perToken },
    { 'retry-after': String(seconds) },
  );
}

export class HttpRefusal extends Error {
  readonly status: number;
  readonly data: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;
  /** The JSON-RPC error code of the body: -32000 (server error) unless the refusal is a JSON-RPC one. */
  readonly rpcCode: number;
  constructor(status: number, message: string, data?: Record<string, unknown>, headers: Record<string, string> = {}, rpcCode = -32000) {
    super(message);
    this.status = status;
    this.data = data;
    this.headers = headers;
    this.rpcCode = rpcCode;
  }
}

/**
 * The first protocol revision whose clients send MCP-Protocol-Version on every request after
 * initialize. The header may name any version the Engine speaks (its transports section: 400 only
 * for "an invalid or unsupported" one); without it, a session of an earlier version is served by
 * the version it negotiated, which is also what governs a session whatever the header names.
 */
export const HEADER_REQUIRED_SINCE = '2025-06-18';

/** The first protocol revision without JSON-RPC batching (its changelog: "Remove support for JSON-RPC batching"). */
const UNBATCHED_SINCE = '2025-06-18';

/**
 * A POST body that is a JSON-RPC batch the negotiated protocol does not allow. JSON-RPC 2.0 §6: an
 * empty array is an Invalid Request, answered with a single error (id null). From 2025-06-18 on,
 * "The body of the POST request MUST be a single JSON-RPC request, notification, or response";
 * 2025-03-26 allowed "An array batching one or more requests and/or notifications" (and earlier
 * sessions keep what the SDK's transport does with them).
 */
export function batchRefusal(body: unknown, protocolVersion: string | undefined): HttpRefusal | undefined {
  if (!Array.isArray(body)) return undefined;
  if (body.length === 0) {
    return new HttpRefusal(400, 'Invalid Request: the body is an empty JSON-RPC batch; send one JSON-RPC message', undefined, {}, ErrorCode.InvalidRequest);
  }
  if (protocolVersion !== undefined && protocolVersion >= UNBATCHED_SINCE) {
    return new HttpRefusal(
      400,
      `Invalid Request: protocol version ${protocolVersion} takes one JSON-RPC message per POST; batches were removed in ${UNBATCHED_SINCE}`,
      undefined,
      {},
      ErrorCode.InvalidRequest,
    );
  }
  return undefined;
}
